// One flag vocabulary (docs/cli-contract.md): -f/--file for the file a command reads, --force for
// If-Match: *, --wait and --no-wait on every command that can follow what it started,
// --poll-interval for the seconds between polls (--interval kept as a hidden old spelling), and
// the same consent for lowering a quota limit in quota set as in quota apply.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confirmingPrompter } from '../helpers/ctx.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const SUB = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
const env = offlineEnv({ subscription: SUB });
const QUOTA = `http://127.0.0.1:9/mgmt/subscriptions/${SUB}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimits/cores?api-version=2020-10-25`;
const REQUESTS = /\/serviceLimitsRequests\?api-version=2020-10-25&\$top=50$/;
const quota = (limit: number, currentValue = 4) => ({ id: 'cores', name: 'cores', properties: { limit, currentValue, unit: 'Count', name: { value: 'cores', localizedValue: 'Total Regional vCPUs' } } });
const SCOPE = ['--provider', 'Vendor.Compute', '--location', 'eastus'];

describe('quota set: lowering a limit needs --allow-decrease, as quota apply needs allowDecrease', () => {
  it('without it: exit 2 after the read, nothing submitted', async () => {
    const r = await runInProc(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '5', '--yes'], { env, setup: (t) => void t.http.stub('GET', QUOTA, json(200, quota(10))) });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'vx: --limit 5 would lower the limit of cores in eastus from 10; add --allow-decrease to lower it; nothing was changed\n']);
    expect(r.http.requests.map((q) => q.method)).toEqual(['GET']);
  });

  it('with it: the PATCH is sent, and the question says it lowers the limit', async () => {
    const { prompter, asked } = confirmingPrompter(true);
    const r = await runInProc(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '5', '--allow-decrease', '-o', 'json'], {
      env,
      prompter,
      stdinTTY: true,
      stderrTTY: true,
      setup: (t) => {
        t.http.stub('GET', QUOTA, json(200, quota(10)));
        t.http.stub('GET', REQUESTS, json(200, { value: [] }));
        t.http.stub('PATCH', QUOTA, json(200, quota(5)));
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual(['Lower the limit of cores (Total Regional vCPUs) in eastus from 10 to 5 Count?']);
    expect(JSON.parse(r.http.requests[2]!.text)).toEqual({ properties: { limit: 5, unit: 'Count', name: { value: 'cores' } } });
  });

  it('the wizard warns of a lower limit and asks so; its quota set command carries --allow-decrease', async () => {
    const { prompter, asked } = confirmingPrompter(false);
    const r = await runInProc(['mgmt', 'quota', 'wizard', '--subscription', SUB, ...SCOPE, '--name', 'cores', '--limit', '50'], {
      env,
      prompter,
      stdinTTY: true,
      stderrTTY: true,
      setup: (t) => void t.http.stub('GET', QUOTA, json(200, quota(100, 30))),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('warning: this LOWERS the limit of cores by 50, from 100 to 50 (in use now: 30)\n');
    expect(asked).toEqual(['Submit this quota change, lowering the limit?']);
    expect(r.stderr).toContain(`vx mgmt quota set cores --subscription ${SUB} --provider Vendor.Compute --location eastus --limit 50 --allow-decrease --yes`);
  });
});

describe('--wait and --no-wait on both commands that follow what they start', () => {
  it('quota set --wait (its default) and erp refresh --no-wait (its default) are accepted', async () => {
    const set = await runInProc(['--dry-run', 'mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '50', '--wait', '--wait-timeout', '60'], { env });
    expect([set.code, set.stderr]).toEqual([0, '']);
    expect(JSON.parse(set.stdout).map((q: { method: string }) => q.method)).toEqual(['GET', 'GET', 'PATCH']);
    const refresh = await runInProc(['--dry-run', 'erp', 'refresh', '--project', '1', '--source', 'a', '--target', 'b', '--no-wait'], { env });
    expect([refresh.code, refresh.stderr]).toEqual([0, '']);
    expect(JSON.parse(refresh.stdout)).toHaveLength(1);
  });
});

describe('--force is If-Match: * in version-sets as in erp', () => {
  const VS = /\/service\/apim-1\/apiVersionSets\/orders\?api-version=/;
  const args = ['mgmt', 'version-sets', 'delete', 'orders', '-g', 'rg', '--service', 'apim-1', '--subscription', SUB, '--yes'];
  it('delete --force sends If-Match: * without reading; --force with --if-match is exit 2', async () => {
    const r = await runInProc([...args, '--force'], { env, setup: (t) => void t.http.stub('DELETE', VS, { status: 200 }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.http.requests.map((q) => `${q.method} ${q.headers['if-match']}`)).toEqual(['DELETE *']);
    const both = await runInProc([...args, '--force', '--if-match', 'abc'], { env });
    expect([both.code, both.stderr]).toEqual([2, 'vx: --force sends If-Match: * and --if-match names the ETag; give one of them; nothing was sent\n']);
  });
});

describe('-f/--file and --poll-interval', () => {
  it('erp import takes -f', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vx-vocab-'));
    const file = join(dir, 'currencies.csv');
    writeFileSync(file, 'code,displayName\nXTS,Testing\n');
    const r = await runInProc(['--dry-run', 'erp', 'currencies', 'import', '-f', file], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"method": "POST"');
  });

  it('health watch: --poll-interval, with --interval its hidden old spelling (same checks, left out of help)', async () => {
    for (const flag of ['--poll-interval', '--interval']) {
      const r = await runInProc(['mgmt', 'health', 'watch', '--once', flag, '120'], { env });
      expect([r.code, r.stderr]).toEqual([2, `vx: ${flag} has no effect with --once (one poll, then exit); leave one of them out; nothing was sent\n`]);
    }
    const help = await runInProc(['mgmt', 'health', 'watch', '--help'], { env });
    expect(help.stdout).toContain('--poll-interval <seconds>');
    expect(help.stdout).not.toContain('--interval');
  });
});
