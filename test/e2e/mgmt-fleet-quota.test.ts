// vx mgmt quota list | report | check | apply against the emulator's fleet: several subscriptions
// and locations, a provider that cannot list, requests that end Succeeded, Failed or take longer,
// the resource manager's read throttling (429 + Retry-After), and bad manifests.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { EMU_FLEET_SUBSCRIPTIONS } from '../../src/emulator/mgmt/fleet.js';
import { spawn } from 'node:child_process';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv, BIN } from '../helpers/vx.js';

const e2e = useEmulator();
const json = (s: string) => JSON.parse(s);
const ndjson = (s: string) => s.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const SUB = () => e2e.emu.state.mgmt.defaultSubscription as string;
const [PROD, DEV] = EMU_FLEET_SUBSCRIPTIONS;
const mgmtLog = () => e2e.emu.log.filter((e) => e.family === 'mgmt');
const patches = () => mgmtLog().filter((e) => e.method === 'PATCH');
const limitOf = (sub: string, loc: string, name: string) => e2e.emu.state.mgmt.quotas[`${sub.toLowerCase()}|vendor.compute|${loc}`][name.toLowerCase()].quota.properties.limit;
const dir = mkdtempSync(join(tmpdir(), 'vx-fleet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

beforeEach(() => {
  e2e.emu.state.mgmt.retryAfter = 0;
});

describe('vx mgmt quota list', () => {
  it('follows every page and prints the quotas as returned; the table adds the percentage used', async () => {
    e2e.emu.state.mgmt.quotaPageSize = 4;
    const r = await e2e.run(['mgmt', 'quota', 'list', '--provider', 'Vendor.Compute', '--location', 'eastus']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(r.stdout).map((q: any) => q.name)).toEqual(['cores', 'standardDSv3Family', 'standardFSv2Family', 'lowPriorityCores', 'availabilitySets', 'virtualMachines']);
    expect(mgmtLog().map((e) => e.path.replace(/^.*serviceLimits/, ''))).toEqual(['?api-version=2020-10-25', '?api-version=2020-10-25&$skiptoken=4']);
    const t = await e2e.run(['mgmt', 'quota', 'list', '--provider', 'Vendor.Compute', '--location', 'westus2', '-o', 'table'], { env: { COLUMNS: '200' } });
    expect(t.stdout.split('\n').map((l) => l.split(/\s{2,}/))).toEqual([
      ['NAME', 'DISPLAY NAME', 'LIMIT', 'USAGE', 'USED', 'UNIT', 'PERIOD'],
      ['cores', 'Total Regional vCPUs', '200', '150', '75%', 'Count'],
      ['standardDSv3Family', 'Standard DSv3 Family vCPUs', '100', '96', '96%', 'Count'],
      ['standardNCFamily', 'Standard NC Family vCPUs', '24', '0', '0%', 'Count'],
      [''],
    ]);
  });

  it('--top caps the total as in every mgmt list: the pages stop being read once it is reached', async () => {
    e2e.emu.state.mgmt.quotaPageSize = 4;
    const r = await e2e.run(['mgmt', 'quota', 'list', '--provider', 'Vendor.Compute', '--location', 'eastus', '--top', '3', '--query', '[].name', '-o', 'tsv']);
    expect([r.code, r.stderr, r.stdout]).toEqual([0, '', 'cores\nstandardDSv3Family\nstandardFSv2Family\n']);
    // the service documents no $top for serviceLimits: the cap is vx's, one page was enough
    expect(mgmtLog().map((e) => e.path.replace(/^.*serviceLimits/, ''))).toEqual(['?api-version=2020-10-25']);
    const zero = await e2e.run(['mgmt', 'quota', 'list', '--provider', 'Vendor.Compute', '--location', 'eastus', '--top', '0']);
    expect([zero.code, zero.stderr]).toEqual([2, 'vx: invalid --top "0": --top must be at least 1; nothing was sent\n']);
  });

  it('--filter is sent as $filter', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'list', '--provider', 'Vendor.Compute', '--location', 'eastus', '--filter', 'currentValue gt 40', '--query', '[].name', '-o', 'tsv']);
    expect(r.stdout).toBe('cores\nstandardDSv3Family\n');
    expect(mgmtLog()[0].path).toMatch(/serviceLimits\?api-version=2020-10-25&\$filter=currentValue%20gt%2040$/);
  });
});

describe('vx mgmt quota report', () => {
  const LOCS = ['--location', 'eastus,westus2', '--location', 'westeurope'];

  it('one row per subscription x location x quota, least headroom first, one list per location', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Compute', ...LOCS, '--subscription', `${SUB()},${PROD}`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = json(r.stdout);
    expect(rows).toHaveLength(6 + 3 + 1 + 3 + 2 + 2);
    expect(rows[0]).toEqual({ subscription: PROD, provider: 'Vendor.Compute', location: 'westus2', name: 'cores', displayName: 'Total Regional vCPUs', limit: 100, usage: 100, unit: 'Count', headroom: 0, percentUsed: 100 });
    expect(rows.slice(1, 4).map((x: any) => `${x.location} ${x.name} ${x.headroom}`)).toEqual(['westus2 standardNCFamily 0', 'westeurope standardDSv3Family 2', 'eastus standardDSv3Family 2']);
    const share = rows.map((x: any) => x.headroom / x.limit);
    expect(share).toEqual([...share].sort((a: number, b: number) => a - b));
    expect(mgmtLog().map((e) => e.method)).toEqual(Array(6).fill('GET'));
  });

  it('a subscription or location that fails is a row with its error; the exit code says so after the whole report', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Compute', '--location', 'eastus,westus2', '--subscription', `${DEV},00000000-0000-4000-8000-00000000dead`, '-o', 'table'], { env: { COLUMNS: '320' } });
    expect(r.code).toBe(4);
    const lines = r.stdout.trimEnd().split('\n').map((l) => l.split(/\s{2,}/));
    expect(lines[0]).toEqual(['SUBSCRIPTION', 'LOCATION', 'NAME', 'LIMIT', 'USAGE', 'UNIT', 'FREE', 'USED', 'ERROR']);
    expect(lines.slice(1, 3).map((l) => l.slice(0, 3))).toEqual([
      ['00000000-0000-4000-8000-00000000dead', 'eastus', expect.stringMatching(/^HTTP 404 Not Found SubscriptionNotFound: The subscription '00000000-0000-4000-8000-00000000dead' could not be found/)],
      ['00000000-0000-4000-8000-00000000dead', 'westus2', expect.stringMatching(/^HTTP 404/)],
    ]);
    expect(lines[3]).toEqual([DEV, 'eastus', 'standardDSv3Family', '10', '10', 'Count', '0', '100%']);
    expect(r.stderr).toBe(
      `warning: no quotas of Vendor.Compute in westus2 (subscription ${DEV}); is the location right?\nvx: 2 of 4 rows of the report failed (their Error column says why); 4 location(s) asked\n`,
    );
  });

  it('--min-headroom keeps the rows with less free; -o csv has a header of the fields and one line a row', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Compute', '--location', 'eastus,westus2,northeurope', '--min-headroom', '5%', '-o', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split(/\r?\n/)).toEqual([
      'subscription,provider,location,name,displayName,limit,usage,unit,headroom,percentUsed',
      `${SUB()},Vendor.Compute,northeurope,cores,Total Regional vCPUs,60,58,Count,2,96.7`,
      `${SUB()},Vendor.Compute,eastus,standardDSv3Family,Standard DSv3 Family vCPUs,50,48,Count,2,96`,
      `${SUB()},Vendor.Compute,westus2,standardDSv3Family,Standard DSv3 Family vCPUs,100,96,Count,4,96`,
    ]);
    // the header does not depend on which row comes first: a failed row (sorted first) adds error at the end
    const failed = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Compute', '--location', 'westus2,nowhere', '--name', 'standardNCFamily', '-o', 'csv']);
    expect(failed.code).toBe(4);
    expect(failed.stdout.trim().split(/\r?\n/)).toEqual([
      'subscription,provider,location,name,displayName,limit,usage,unit,headroom,percentUsed,error',
      `${SUB()},Vendor.Compute,nowhere,standardNCFamily,,,,,,,no quota named standardNCFamily for Vendor.Compute in nowhere`,
      `${SUB()},Vendor.Compute,westus2,standardNCFamily,Standard NC Family vCPUs,24,0,Count,24,0,`,
    ]);
    const none = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Compute', '--location', 'eastus', '--min-headroom', '0', '-o', 'csv']);
    expect([none.code, none.stdout]).toEqual([0, 'subscription,provider,location,name,displayName,limit,usage,unit,headroom,percentUsed\n']);
    const check = await e2e.run(['mgmt', 'quota', 'check', '--provider', 'Vendor.Compute', '--location', 'westus2', '--need', 'standardNCFamily=1', '--need', 'cores=60', '-o', 'csv']);
    expect(check.code).toBe(9);
    expect(check.stdout.trim().split(/\r?\n/)).toEqual([
      'subscription,provider,location,name,displayName,limit,usage,unit,headroom,percentUsed,need,short,fix',
      `${SUB()},Vendor.Compute,westus2,standardNCFamily,Standard NC Family vCPUs,24,0,Count,24,0,1,0,`,
      `${SUB()},Vendor.Compute,westus2,cores,Total Regional vCPUs,200,150,Count,50,75,60,10,vx mgmt quota set cores --provider Vendor.Compute --location westus2 --subscription ${SUB()} --limit 210`,
    ]);
    const units = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Compute', '--location', 'eastus', '--min-headroom', '6', '--query', '[].name', '-o', 'tsv']);
    expect(units.stdout).toBe('standardDSv3Family\n');
  });

  it('--name reads quota by quota where the provider cannot list them; an unknown name is a failed row', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Network', '--location', 'eastus', '--name', 'PublicIPAddresses,nosuch']);
    expect(r.code).toBe(4);
    const rows = json(r.stdout);
    expect(rows.map((x: any) => [x.name, x.headroom ?? x.error.slice(0, 26)])).toEqual([
      ['nosuch', 'HTTP 404 Not Found Resourc'],
      ['PublicIPAddresses', 93],
    ]);
    expect(mgmtLog().map((e) => `${e.status} ${e.path.replace(/^.*\/serviceLimits/, '').replace(/\?.*/, '')}`).sort()).toEqual(['200 /PublicIPAddresses', '400 ', '404 /nosuch']);
    const without = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Network', '--location', 'eastus']);
    expect(without.code).toBe(1);
    expect(json(without.stdout)[0].error).toMatch(/ListNotSupported/);
  });

  it('429 + Retry-After from the resource manager pause the whole report, and every row still arrives', async () => {
    // 3 reads at once, then 2 a second; Retry-After in whole seconds
    e2e.emu.state.mgmt.readLimit = { perSecond: 2, burst: 3 };
    const subs = [SUB(), PROD, DEV].join(',');
    const r = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Compute', '--location', 'eastus,westeurope', '--subscription', subs, '--concurrency', '6'], { timeoutMs: 40_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(new Set(json(r.stdout).map((x: any) => `${x.subscription} ${x.location}`)).size).toBe(6);
    const log = mgmtLog();
    const first429 = log.findIndex((e) => e.status === 429);
    expect(first429).toBeGreaterThan(-1);
    // shared pacing: after the first 429 (Retry-After: 1) nobody asks again before that second is over
    const t0 = log[first429].time;
    const inPause = log.slice(first429 + 1).filter((e) => e.time - t0 < 900);
    expect(inPause.filter((e) => e.status !== 429)).toEqual([]);
    // and the run did not bounce off the limit: most reads got through the first time
    expect(log.filter((e) => e.status === 429).length).toBeLessThanOrEqual(6);
    expect(log.filter((e) => e.status === 200)).toHaveLength(6);
  }, 45_000);

  it('bad input sends nothing (exit 2)', async () => {
    for (const args of [['--min-headroom', '120%'], ['--concurrency', '0'], ['--location', 'east us'], ['--subscription', 'a/b'], ['--name', 'x?y']]) {
      const r = await e2e.run(['mgmt', 'quota', 'report', '--provider', 'Vendor.Compute', '--location', 'eastus', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^vx: invalid .*nothing was sent\n$/);
    }
    expect(mgmtLog()).toEqual([]);
  });
});

describe('vx mgmt quota check', () => {
  it('exit 0 when every need fits', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'check', '--provider', 'Vendor.Compute', '--location', 'eastus,westeurope', '--need', 'cores=40']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(r.stdout).map((x: any) => [x.location, x.need, x.headroom, x.short])).toEqual([
      ['eastus', 40, 58, 0],
      ['westeurope', 40, 40, 0],
    ]);
  });

  it('exit 9 when any is short: what, by how much and the command that fixes it (which then makes it fit)', async () => {
    const args = ['mgmt', 'quota', 'check', '--provider', 'Vendor.Compute', '--location', 'eastus', '--need', 'cores=64', '--need', 'standardNCFamily=4@westus2'];
    const r = await e2e.run(args);
    expect(r.code).toBe(9);
    expect(r.stderr).toBe(
      `short: cores in eastus (subscription ${SUB()}): need 64, free 58 (limit 100, usage 42): short by 6\n` +
        `  fix: vx mgmt quota set cores --provider Vendor.Compute --location eastus --subscription ${SUB()} --limit 106\n` +
        'vx: 1 of 2 needs do not fit (exit 9: short of quota)\n',
    );
    const fix = /fix: vx (.*)\n/.exec(r.stderr)![1].split(' ');
    const set = await e2e.run([...fix, '--yes']);
    expect(set.code).toBe(0);
    const again = await e2e.run(args);
    expect(again.code).toBe(0);
  });

  it('a quota that cannot be read is its error exit code, not "short"', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'check', '--provider', 'Vendor.Compute', '--need', 'nosuch=1@eastus', '--need', 'cores=1000@eastus']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/vx: 1 of 2 quotas could not be read \(their Error column says why\); 1 short\n$/);
  });

  it('bad --need sends nothing', async () => {
    for (const need of ['cores', 'cores=x', 'cores=1@no place', '=5']) {
      const r = await e2e.run(['mgmt', 'quota', 'check', '--provider', 'Vendor.Compute', '--location', 'eastus', '--need', need]);
      expect(r.code, need).toBe(2);
    }
    const none = await e2e.run(['mgmt', 'quota', 'check', '--provider', 'Vendor.Compute', '--location', 'eastus']);
    expect(none.stderr).toBe('vx: give at least one --need <quota>=<n>[@<location>]; nothing was sent\n');
    expect(mgmtLog()).toEqual([]);
  });
});

describe('vx mgmt quota apply', () => {
  const manifest = () =>
    file(
      'quotas.yaml',
      `provider: Vendor.Compute
quotas:
  - { location: eastus, name: cores, limit: 120 }
  - { location: westus2, name: standardNCFamily, limit: 32 }
  - { location: westeurope, name: cores, limit: 40 }
  - { location: eastus, name: standardDSv3Family, limit: 300 }
  - { subscription: ${PROD}, location: westus2, name: cores, limit: 100 }
  - { subscription: ${PROD}, location: northeurope, name: cores, limit: 60, allowDecrease: true }
`,
    );

  it('--plan reads and prints the plan with the PATCHes it would send; nothing is written', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', manifest(), '--plan', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('dry run: 4 of 6 quotas would change; nothing was changed\n');
    const plan = json(r.stdout);
    expect(plan.map((p: any) => `${p.location} ${p.name} ${p.action} ${p.from}->${p.to}`)).toEqual([
      'eastus cores increase 100->120',
      'westus2 standardNCFamily increase 24->32',
      'westeurope cores kept 50->40',
      'eastus standardDSv3Family increase 50->300',
      'westus2 cores unchanged 100->100',
      'northeurope cores decrease 80->60',
    ]);
    expect(plan[0].request).toEqual({
      method: 'PATCH',
      url: `${e2e.env.VX_MGMT_ENDPOINT}/subscriptions/${SUB()}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimits/cores?api-version=2020-10-25`,
      body: { properties: { limit: 120, unit: 'Count', name: { value: 'cores' } } },
    });
    // six reads, and the running requests of the three locations with changes (eastus has two pages)
    expect(mgmtLog().map((e) => e.method)).toEqual(Array(10).fill('GET'));
    expect(mgmtLog().filter((e) => e.path.includes('/serviceLimitsRequests?'))).toHaveLength(4);
  });

  it('--dry-run prints the PATCHes a run would send as every --dry-run does, one JSON array of requests (-o does not apply); the reads are made, nothing is written', async () => {
    for (const o of [[], ['-o', 'ndjson'], ['-o', 'table']]) {
      e2e.emu.log.length = 0;
      const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', manifest(), '--dry-run', ...o]);
      expect([r.code, r.stderr], o.join(' ')).toEqual([0, 'dry run: 4 of 6 quotas would change; nothing was changed\n']);
      const requests = json(r.stdout);
      expect(requests.map((q: any) => `${q.method} ${q.url.replace(/^.*\/locations\//, '')} ${q.body.properties.limit}`)).toEqual([
        'PATCH eastus/serviceLimits/cores?api-version=2020-10-25 120',
        'PATCH westus2/serviceLimits/standardNCFamily?api-version=2020-10-25 32',
        'PATCH eastus/serviceLimits/standardDSv3Family?api-version=2020-10-25 300',
        'PATCH northeurope/serviceLimits/cores?api-version=2020-10-25 60',
      ]);
      expect(requests[0]).toEqual({
        method: 'PATCH',
        url: `${e2e.env.VX_MGMT_ENDPOINT}/subscriptions/${SUB()}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimits/cores?api-version=2020-10-25`,
        headers: expect.objectContaining({ authorization: 'Bearer ***' }),
        body: { properties: { limit: 120, unit: 'Count', name: { value: 'cores' } } },
      });
      expect(mgmtLog().every((e) => e.method === 'GET')).toBe(true);
    }
    // nothing to change: an empty array
    const none = await e2e.run(['mgmt', 'quota', 'apply', '-f', file('none.yaml', `- { location: eastus, name: cores, limit: 100, subscription: ${SUB()}, provider: Vendor.Compute }\n`), '--dry-run']);
    expect([none.code, json(none.stdout)]).toEqual([0, []]);
    const both = await e2e.run(['mgmt', 'quota', 'apply', '-f', manifest(), '--dry-run', '--plan']);
    expect([both.code, both.stdout, both.stderr]).toEqual([2, '', 'vx: --plan prints the plan and changes nothing; --dry-run prints the requests a run would send; give one of them; nothing was sent\n']);
  });

  it('without a terminal and without --yes it refuses before sending anything', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', manifest()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/confirmation needed; pass --yes/);
    expect(mgmtLog()).toEqual([]);
  });

  it('submits each change once, follows every request to its end as ndjson, exit 1 when one fails; a rerun submits only what is still short', async () => {
    e2e.emu.state.mgmt.requests = {};
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', manifest(), '--yes', '--poll-interval', '0'], { timeoutMs: 40_000 });
    expect(r.code).toBe(1);
    const lines = ndjson(r.stdout);
    expect(lines.filter((l) => l.event === 'plan')).toHaveLength(6);
    const finals = new Map<string, any>();
    for (const l of lines.filter((x) => x.event === 'status')) finals.set(`${l.location} ${l.name}`, l);
    expect([...finals.values()].map((l) => `${l.location} ${l.name} ${l.state}`).sort()).toEqual([
      'eastus cores Succeeded',
      'eastus standardDSv3Family Failed',
      'northeurope cores Succeeded',
      'westus2 standardNCFamily Succeeded',
    ]);
    // every accepted request's id is printed
    for (const l of finals.values()) expect(l.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // the GPU quota took 6 status reads: it went through InProgress on the way
    expect(lines.filter((l) => l.name === 'standardNCFamily' && l.event === 'status').map((l) => l.state)).toEqual(['Submitting', 'InProgress', 'Succeeded']);
    expect(patches()).toHaveLength(4);
    expect(r.stderr).toMatch(/^vx: 3 of 4 quota changes succeeded; standardDSv3Family in eastus Failed; a rerun submits only what is still short\n$/);
    expect([limitOf(SUB(), 'eastus', 'cores'), limitOf(SUB(), 'westus2', 'standardNCFamily'), limitOf(PROD, 'northeurope', 'cores'), limitOf(SUB(), 'eastus', 'standardDSv3Family')]).toEqual([120, 32, 60, 50]);
    e2e.emu.log.length = 0;
    const again = await e2e.run(['mgmt', 'quota', 'apply', '-f', manifest(), '--yes', '-o', 'json']);
    expect(again.code).toBe(1);
    expect(patches().map((e) => e.path.replace(/\?.*/, '').split('/').slice(-4).join('/'))).toEqual(['locations/eastus/serviceLimits/standardDSv3Family']);
    expect(json(again.stdout).map((x: any) => `${x.name} ${x.action} ${x.state ?? '-'}`)).toEqual([
      'standardDSv3Family increase Failed',
      'cores unchanged -',
      'standardNCFamily unchanged -',
      'cores kept -',
      'cores unchanged -',
      'cores unchanged -',
    ]);
  }, 60_000);

  it('a PATCH whose answer is lost is never repeated: its row says the outcome is unknown and how to check', async () => {
    e2e.emu.setFaults('mgmt/PATCH/reset-after:1x');
    const m = file('one.json', JSON.stringify([{ subscription: SUB(), provider: 'Vendor.Compute', location: 'eastus', name: 'cores', limit: 130 }]));
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', m, '--yes', '-o', 'json']);
    expect(r.code).toBe(8);
    expect(patches()).toHaveLength(1);
    const [row] = json(r.stdout);
    expect(row.state).toBe('Error');
    expect(row.message).toMatch(/outcome is unknown .* it was not repeated; check with: vx mgmt quota requests list --provider Vendor.Compute --location eastus/);
  });

  it('reads the manifest from stdin; "nothing to change" is exit 0', async () => {
    const input = JSON.stringify({ quotas: [{ subscription: SUB(), provider: 'Vendor.Compute', location: 'eastus', name: 'cores', limit: 100 }] });
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', '-', '--yes', '-o', 'json'], { input });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('nothing to change: every limit of the manifest is already in place (1 quota)\n');
    expect(patches()).toEqual([]);
  });

  it('a bad manifest names the entry and sends nothing (exit 2)', async () => {
    const cases: [string, RegExp][] = [
      [`- {subscription: ${SUB()}, provider: Vendor.Compute, location: eastus, name: cores, limit: 10, limt: 3}`, /entry 1 \(cores in eastus\): unknown key "limt"/],
      [`- {subscription: ${SUB()}, provider: Vendor.Compute, location: eastus, name: cores, limit: 10.5}`, /entry 1 \(cores in eastus\): "limit" must be a whole number, not 10.5/],
      [`- {subscription: ${SUB()}, provider: Vendor.Compute, location: eastus, name: cores, limit: -4}`, /entry 1 \(cores in eastus\): "limit" -4 is negative/],
      [`provider: Vendor.Compute\nsubscription: ${SUB()}\nquotas:\n  - {location: eastus, name: cores, limit: 1}\n  - {location: eastus, name: Cores, limit: 2}`, /entries 1 and 2 both set Cores of Vendor.Compute in eastus/],
      [`- {subscription: ${SUB()}, provider: Vendor.Compute, location: "east us", name: cores, limit: 1}`, /entry 1 \(cores in east us\): "location" "east us": the location must match the pattern/],
      [`- {subscription: ${SUB()}, provider: "Vendor/Compute", location: eastus, name: cores, limit: 1}`, /entry 1 \(cores in eastus\): "provider" "Vendor\/Compute": the resource provider id must match the pattern/],
      ['quotas: [', /is not valid YAML or JSON \(line 1\)/],
      // a few lines of aliases that expand into 9^9 values
      [
        `a: &a [x, x, x, x, x, x, x, x, x]\n${'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`).join('\n')}\nquotas: *i`,
        /^vx: the manifest \S+bad\.yaml cannot be read: its aliases expand too much \(more than 100 uses of an alias, counted as they expand\); nothing was sent\n$/,
      ],
    ];
    for (const [text, message] of cases) {
      const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', file('bad.yaml', text), '--yes']);
      expect(r.code, text).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/nothing was sent\n$/);
    }
    expect(mgmtLog()).toEqual([]);
  });
});

describe('vx mgmt quota apply at a terminal', () => {
  /** Runs vx under a pseudo-terminal (util-linux `script`); `onOutput` sees everything the terminal shows. */
  function inPty(args: string[], onOutput: (all: string, write: (s: string) => void) => void): Promise<{ code: number | null; out: string }> {
    const q = (x: string) => `'${x.replace(/'/g, `'\\''`)}'`;
    const cmd = [process.execPath, BIN, ...args].map(q).join(' ');
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env: { ...baseEnv(e2e.configDir), ...e2e.env, TERM: 'xterm', COLUMNS: '160' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (c) => {
      out += c;
      onOutput(out, (x) => child.stdin.write(x));
    });
    return new Promise((resolve) => child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    }));
  }

  it('shows the plan, asks, draws one live status table and ends with the final one', async () => {
    // a second between status reads: the requests are seen InProgress
    e2e.emu.state.mgmt.retryAfter = 1;
    const m = file('tty.yaml', `subscription: ${SUB()}\nprovider: Vendor.Compute\nquotas:\n  - { location: eastus, name: cores, limit: 110 }\n  - { location: westus2, name: cores, limit: 230 }\n  - { location: westeurope, name: cores, limit: 50 }\n`);
    let asked = false;
    const r = await inPty(['mgmt', 'quota', 'apply', '-f', m, '--poll-interval', '0'], (all, write) => {
      if (!asked && /Submit 2 quota changes\?/.test(all)) {
        asked = true;
        setTimeout(() => write('y\r'), 100);
      }
    });
    expect(asked).toBe(true);
    expect(r.code).toBe(0);
    const plain = r.out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
    // the plan before the question, with what is kept as it is
    expect(plain.indexOf('increase')).toBeLessThan(plain.indexOf('Submit 2 quota changes?'));
    expect(plain).toMatch(/westeurope\s+cores\s+50\s+50\s+unchanged/);
    // redrawn in place (cursor up over the previous block), not printed again and again
    expect(r.out).toMatch(/\u001b\[\d+F\u001b\[J/);
    expect(plain).toMatch(/westus2\s+cores\s+200\s+230\s+increase\s+InProgress\s+[0-9a-f-]{36}/);
    const final = plain.slice(plain.lastIndexOf('LOCATION'));
    expect(final).toMatch(/eastus\s+cores\s+100\s+110\s+increase\s+Succeeded\s+[0-9a-f-]{36}/);
    expect(final).toMatch(/westus2\s+cores\s+200\s+230\s+increase\s+Succeeded\s+[0-9a-f-]{36}/);
    expect(plain).toContain('all 2 quota changes succeeded');
    expect(patches()).toHaveLength(2);
  }, 40_000);
});

describe('vx mgmt quota apply after an interruption', () => {
  /** `quota set cores --limit <n> --no-wait` in westus2 (a request left running), and a manifest for cores there; the log cleared */
  const running = async (setLimit: number, name: string, limit: number) => {
    const set = await e2e.run(['mgmt', 'quota', 'set', 'cores', '--provider', 'Vendor.Compute', '--location', 'westus2', '--limit', String(setLimit), '--yes', '--no-wait']);
    expect(set.code).toBe(0);
    e2e.emu.log.length = 0;
    const m = file(name, JSON.stringify([{ subscription: SUB(), provider: 'Vendor.Compute', location: 'westus2', name: 'cores', limit }]));
    return { id: JSON.parse(set.stdout).name.split('/').pop() as string, m };
  };

  it('a request still running for a quota is followed to its end, not submitted again', async () => {
    const { id, m } = await running(260, 'pending.json', 260);
    const dry = await e2e.run(['mgmt', 'quota', 'apply', '-f', m, '--plan', '-o', 'json']);
    expect(json(dry.stdout)[0]).toMatchObject({ action: 'increase', message: `request ${id} for it is still InProgress: followed, not submitted again` });
    expect(json(dry.stdout)[0].request).toBeUndefined();
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', m, '--yes', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(json(r.stdout)[0]).toMatchObject({ state: 'Succeeded', requestId: id });
    expect(patches()).toEqual([]);
    expect(limitOf(SUB(), 'westus2', 'cores')).toBe(260);
  });

  it('a running request for another limit is followed to its end, then the quota is read again and the manifest\'s limit submitted once', async () => {
    const { id, m } = await running(235, 'pending-other.json', 240);
    const dry = await e2e.run(['mgmt', 'quota', 'apply', '-f', m, '--plan', '-o', 'json']);
    expect(json(dry.stdout)[0]).toMatchObject({ action: 'increase', message: `request ${id} for it is still InProgress (for 235, not 240): followed to its end, then read again and 240 submitted if still needed` });
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', m, '--yes', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [row] = json(r.stdout);
    expect(row).toMatchObject({ state: 'Succeeded', from: 235, to: 240 });
    expect(row.requestId).not.toBe(id);
    expect(patches().map((p) => JSON.parse(p.body ?? '{}').properties.limit)).toEqual([240]);
    expect(limitOf(SUB(), 'westus2', 'cores')).toBe(240);
  });

  it('a running request for a higher limit than the manifest\'s: followed, and nothing lowered afterwards', async () => {
    const { m } = await running(250, 'pending-higher.json', 240);
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', m, '--yes', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(json(r.stdout)[0]).toMatchObject({ state: 'Succeeded', from: 250, to: 240, action: 'kept' });
    expect(patches()).toEqual([]);
    expect(limitOf(SUB(), 'westus2', 'cores')).toBe(250);
  });
});

describe('vx mgmt quota apply --wait-timeout', () => {
  it('gives up following a request that does not end in time, says how to follow it, and exits 1', async () => {
    const m = file('slow.json', JSON.stringify([{ subscription: SUB(), provider: 'Vendor.Compute', location: 'westus2', name: 'standardNCFamily', limit: 40 }]));
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', m, '--yes', '--wait-timeout', '1', '-o', 'json'], { env: { VX_POLL_FLOOR_MS: undefined } });
    expect(r.code).toBe(1);
    const [row] = json(r.stdout);
    expect(row.state).toBe('Unknown');
    // the wait runs on the real clock here: one read, or two when the first answer came fast
    expect(row.message).toMatch(/ \(last state InProgress, (1 status read|2 status reads)\); /);
    expect(row.message.replace(/(1 status read|2 status reads)/, 'N')).toBe(
      `quota request ${row.requestId} did not end within --wait-timeout 1 s (last state InProgress, N); the change was accepted and goes on; follow it with: vx mgmt quota requests get ${row.requestId} --provider Vendor.Compute --location westus2 --subscription ${SUB()} --wait`,
    );
    expect(patches()).toHaveLength(1);
  });
});
