// vx mgmt quota requests get --wait: a request still running (after quota set --no-wait or a
// --wait-timeout) is followed to its end, as quota set follows it; its end decides the exit code.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const SUB = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
const ID = '4e0c5d3a-9b1f-4c2e-8a7d-6f5e4d3c2b1a';
const URL = `http://127.0.0.1:9/mgmt/subscriptions/${SUB}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimitsRequests/${ID}?api-version=2020-10-25`;
const request = (state: string, message?: string) => ({ id: `/subscriptions/${SUB}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimitsRequests/${ID}`, name: ID, properties: { provisioningState: state, ...(message ? { message } : {}) } });
const ARGS = ['mgmt', 'quota', 'requests', 'get', ID, '--provider', 'Vendor.Compute', '--location', 'eastus'];
const env = { ...offlineEnv({ subscription: SUB }), VX_POLL_FLOOR_MS: '0' };

describe('quota requests get --wait', () => {
  it('follows a running request until it ends and prints the final request (one read without --wait)', async () => {
    const r = await runInProc([...ARGS, '--wait', '--poll-interval', '0', '-o', 'json'], {
      env,
      setup: (t) => {
        t.http.stub('GET', URL, json(200, request('InProgress')), 2);
        t.http.stub('GET', URL, json(200, request('Succeeded')));
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(request('Succeeded'));
    expect(r.http.requests.map((q) => `${q.method} ${q.url}`)).toEqual([1, 2, 3].map(() => `GET ${URL}`));
    const once = await runInProc([...ARGS, '-o', 'json'], { env, setup: (t) => void t.http.stub('GET', URL, json(200, request('InProgress'))) });
    expect([once.code, JSON.parse(once.stdout).properties.provisioningState, once.http.requests.length]).toEqual([0, 'InProgress', 1]);
  });

  it('a request that ends Failed: the request on stdout, exit 1 with its message', async () => {
    const r = await runInProc([...ARGS, '--wait', '--poll-interval', '0', '-o', 'json'], {
      env,
      setup: (t) => {
        t.http.stub('GET', URL, json(200, request('InProgress')));
        t.http.stub('GET', URL, json(200, request('Failed', 'exceeds the regional capacity')));
      },
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).properties.provisioningState).toBe('Failed');
    expect(r.stderr).toBe(`vx: quota request ${ID} ended Failed: exceeds the regional capacity\n`);
  });

  it('--wait-timeout ends the wait, exit 1, and says how to go on waiting', async () => {
    const clock = new FakeClock();
    let reads = 0;
    let done = false;
    const running = runInProc([...ARGS, '--wait', '--poll-interval', '10', '--wait-timeout', '60'], {
      env: { ...env, VX_POLL_FLOOR_MS: '1000' },
      clock,
      setup: (t) => void t.http.stub('GET', URL, () => (reads++, json(200, request('InProgress'))), 7),
    }).finally(() => (done = true));
    while (!done) {
      await clock.run();
      await new Promise((r) => setTimeout(r, 5));
    }
    const r = await running;
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // the first read, then one every 10 s (--poll-interval) until the 60 s are up
    expect(reads).toBe(7);
    expect(r.stderr).toBe(
      `quota request ${ID} goes on; follow it with: vx mgmt quota requests get ${ID} --provider Vendor.Compute --location eastus --subscription ${SUB} --wait\n` +
        `vx: quota request ${ID} did not end within --wait-timeout 60 s (last state InProgress, 6 status reads); the change was accepted and goes on\n`,
    );
  });

  it('--poll-interval or --wait-timeout without --wait is exit 2, nothing sent', async () => {
    for (const [flag, v] of [['--poll-interval', '5'], ['--wait-timeout', '60']]) {
      const r = await runInProc([...ARGS, flag!, v!], { env });
      expect([r.code, r.stderr, r.http.requests.length], flag).toEqual([2, `vx: ${flag} works with --wait only (add --wait to follow the request); nothing was sent\n`, 0]);
    }
  });
});
