// The resource manager's async-operation header on an accepted quota change (notes.md: "a Location
// header (or an async-operation status URL header)"): the operation resource it names is read
// until its `status` ends (it takes precedence over Location, as the resource manager's RPC and
// its SDKs have it), then the request is read once for the result (Location, the quota API's
// final-state-via, else serviceLimitsRequests/{id}). The emulator answers that way with
// `mgmt.lroHeaders` = 'async-operation' or 'both'; the odd answers come from a stub registry.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const e2e = useEmulator();
const SET = ['mgmt', 'quota', 'set', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus', '--yes'];
const reads = () =>
  e2e.emu.log.filter((l) => l.family === 'mgmt' && l.method === 'GET' && !/\/serviceLimits\/cores\?|\/serviceLimitsRequests\?/.test(l.path)).map((l) => `${/operationsStatuses/.test(l.path) ? 'operation' : 'request'} ${l.status}`);

describe('quota set with the async-operation header', () => {
  it('both headers: the operation is read until it ends, then the request once at Location; exit 0', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.state.mgmt.lroHeaders = 'both';
    const r = await e2e.run([...SET, '--limit', '150']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).properties.provisioningState).toBe('Succeeded');
    expect(reads()).toEqual(['operation 200', 'operation 200', 'operation 200', 'request 200']);
    const last = e2e.emu.log.filter((l) => l.family === 'mgmt').pop()!;
    expect(last.path).toMatch(/\/serviceLimitsRequests\/[0-9a-f-]{36}\?api-version=2020-10-25$/);
    expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
  });

  it('the header alone, a request that fails: the operation ends Failed, the request read gives its state and message (exit 1)', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.state.mgmt.lroHeaders = 'async-operation';
    const r = await e2e.run([...SET, '--limit', '900']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).properties.provisioningState).toBe('Failed');
    expect(r.stderr).toMatch(/^vx: quota request [0-9a-f-]{36} ended Failed: The requested limit 900 exceeds the regional capacity of 500 for cores in eastus; contact support\.\n$/);
    expect(reads()).toEqual(['operation 200', 'operation 200', 'operation 200', 'request 200']);
  });

  it('quota apply follows the operation too, and its rows end with the state of the request', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.state.mgmt.lroHeaders = 'async-operation';
    const input = JSON.stringify([{ subscription: e2e.emu.state.mgmt.defaultSubscription, provider: 'Vendor.Compute', location: 'eastus', name: 'cores', limit: 130 }]);
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', '-', '--yes', '-o', 'json', '--poll-interval', '0'], { input });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ state: 'Succeeded' });
    expect(reads().filter((x) => x.startsWith('operation'))).toEqual(['operation 200', 'operation 200', 'operation 200']);
  });
});

describe('odd answers of an operation resource (stubbed)', () => {
  // the floor between status reads (core/poll.ts) lowered, as test/helpers/vx.ts does for spawned runs
  const env = { ...offlineEnv(), VX_POLL_FLOOR_MS: '5' };
  const base = 'http://127.0.0.1:9/mgmt/subscriptions/7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus';
  const ID = '2b5c8515-37d8-4b6a-879b-cd641a2cf605';
  const quota = { name: 'cores', properties: { limit: 100, currentValue: 40, unit: 'Count', name: { value: 'cores', localizedValue: 'Total Regional vCPUs' } } };
  const accepted = (headers: Record<string, string>) =>
    json(201, { id: `/subscriptions/x/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimitsRequests/${ID}`, name: ID, properties: { provisioningState: 'InProgress' } }, { 'retry-after': '0', ...headers });
  const request = (state: string, message = '') => json(200, { id: ID, name: `7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f/${ID}`, properties: { provisioningState: state, message } });

  it('Azure-AsyncOperation (the real name), relative: statuses in any case; Location is not read while the operation runs', async () => {
    const r = await runInProc([...SET, '--limit', '150', '--poll-interval', '0'], {
      env,
      setup: (t) =>
        t.http
          .stub('GET', `${base}/serviceLimits/cores?api-version=2020-10-25`, json(200, quota))
          .stub('GET', `${base}/serviceLimitsRequests?api-version=2020-10-25&$top=50`, json(200, { value: [] }))
          .stub('PATCH', `${base}/serviceLimits/cores?api-version=2020-10-25`, accepted({ 'azure-asyncoperation': '/mgmt/ops/op1', location: `${base}/serviceLimitsRequests/${ID}` }))
          .stub('GET', 'http://127.0.0.1:9/mgmt/ops/op1?api-version=2020-10-25', json(200, { status: 'Accepted' }, { 'retry-after': '0' }))
          .stub('GET', 'http://127.0.0.1:9/mgmt/ops/op1?api-version=2020-10-25', json(200, { status: 'running' }, { 'retry-after': '0' }))
          .stub('GET', 'http://127.0.0.1:9/mgmt/ops/op1?api-version=2020-10-25', json(200, { status: 'succeeded' }))
          .stub('GET', `${base}/serviceLimitsRequests/${ID}?api-version=2020-10-25`, request('Succeeded')),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).properties.provisioningState).toBe('Succeeded');
    expect(r.http.requests.map((q) => `${q.method} ${q.url.replace('http://127.0.0.1:9/mgmt', '').replace(/\?.*/, '')}`).slice(3)).toEqual([
      'GET /ops/op1',
      'GET /ops/op1',
      'GET /ops/op1',
      `GET /subscriptions/7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimitsRequests/${ID}`,
    ]);
  });

  it('an operation Canceled while the request still reads InProgress: exit 1 with the operation error, and how to follow the request', async () => {
    const r = await runInProc([...SET, '--limit', '150', '--poll-interval', '0'], {
      env,
      setup: (t) =>
        t.http
          .stub('GET', `${base}/serviceLimits/cores?api-version=2020-10-25`, json(200, quota))
          .stub('GET', `${base}/serviceLimitsRequests?api-version=2020-10-25&$top=50`, json(200, { value: [] }))
          .stub('PATCH', `${base}/serviceLimits/cores?api-version=2020-10-25`, accepted({ 'vendor-asyncoperation': `${base}/operationsStatuses/op2` }))
          .stub('GET', `${base}/operationsStatuses/op2?api-version=2020-10-25`, json(200, { status: 'Canceled', error: { code: 'OperationCanceled', message: 'The operation was canceled.' } }))
          .stub('GET', `${base}/serviceLimitsRequests/${ID}?api-version=2020-10-25`, request('InProgress')),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`quota request ${ID} was submitted; follow it with: vx mgmt quota requests get ${ID}`);
    expect(r.stderr).toMatch(new RegExp(`vx: quota request ${ID}: its operation ended Canceled: OperationCanceled: The operation was canceled\\. \\(the request reads InProgress\\)\\n$`));
  });

  it('an operation header on another origin is ignored (no credentials go there): the request is followed as before', async () => {
    const r = await runInProc([...SET, '--limit', '150', '--poll-interval', '0'], {
      env,
      setup: (t) =>
        t.http
          .stub('GET', `${base}/serviceLimits/cores?api-version=2020-10-25`, json(200, quota))
          .stub('GET', `${base}/serviceLimitsRequests?api-version=2020-10-25&$top=50`, json(200, { value: [] }))
          .stub('PATCH', `${base}/serviceLimits/cores?api-version=2020-10-25`, accepted({ 'vendor-asyncoperation': 'http://127.0.0.2:9/ops/op3' }))
          .stub('GET', `${base}/serviceLimitsRequests/${ID}?api-version=2020-10-25`, request('Succeeded')),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.http.requests.every((q) => q.url.startsWith('http://127.0.0.1:9/'))).toBe(true);
  });
  it('a request that answered once and then 404 is gone, not lagging: no read again, exit 4', async () => {
    const gone = json(404, { error: { code: 'ResourceNotFound', message: 'No such request.' } });
    const r = await runInProc([...SET, '--limit', '150', '--poll-interval', '0'], {
      env,
      setup: (t) =>
        t.http
          .stub('GET', `${base}/serviceLimits/cores?api-version=2020-10-25`, json(200, quota))
          .stub('GET', `${base}/serviceLimitsRequests?api-version=2020-10-25&$top=50`, json(200, { value: [] }))
          .stub('PATCH', `${base}/serviceLimits/cores?api-version=2020-10-25`, accepted({}))
          .stub('GET', `${base}/serviceLimitsRequests/${ID}?api-version=2020-10-25`, json(404, { error: { code: 'ResourceNotFound', message: 'Not yet.' } }))
          .stub('GET', `${base}/serviceLimitsRequests/${ID}?api-version=2020-10-25`, request('InProgress'))
          .stub('GET', `${base}/serviceLimitsRequests/${ID}?api-version=2020-10-25`, gone),
    });
    expect(r.code).toBe(4);
    expect(r.http.requests.filter((q) => q.url.includes(`/serviceLimitsRequests/${ID}`))).toHaveLength(3);
    expect(r.stderr).toContain(`quota request ${ID} was submitted; follow it with: vx mgmt quota requests get ${ID}`);
    expect(r.stderr).toMatch(/vx: .*404.*ResourceNotFound.*No such request\.\n$/);
  });
});

describe('an accepted change whose answer names no request (stubbed)', () => {
  it('202 with only an async-operation header: exit 1 says the change was accepted and how to find its request', async () => {
    const base = 'http://127.0.0.1:9/mgmt/subscriptions/7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus';
    const quota = { name: 'cores', properties: { limit: 100, currentValue: 40, unit: 'Count', name: { value: 'cores' } } };
    const r = await runInProc([...SET, '--limit', '150'], {
      env: offlineEnv(),
      setup: (t) =>
        t.http
          .stub('GET', `${base}/serviceLimits/cores?api-version=2020-10-25`, json(200, quota))
          .stub('GET', `${base}/serviceLimitsRequests?api-version=2020-10-25&$top=50`, json(200, { value: [] }))
          .stub('PATCH', `${base}/serviceLimits/cores?api-version=2020-10-25`, { status: 202, headers: { 'vendor-asyncoperation': `${base}/operationsStatuses/op9` }, body: '' }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'vx: the service accepted the quota change but gave no usable request id (null); find the request with: vx mgmt quota requests list --provider Vendor.Compute --location eastus --subscription 7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f\n',
    );
  });
});

// The resource manager replicates a just-created request (and operation) resource with a lag: the
// first status reads right after the 201/202 may answer 404. vx reads again (5 times, the poll
// floor doubled each time: ~30 s at most), then gives up saying the change was accepted and how to
// find its request (exit 1, not 4). `mgmt.requestLag` makes the emulator answer 404 to the first
// N status reads of a new request.
describe('a new request not shown yet (replication lag)', () => {
  const SUB = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
  const notShown = (reads: string, id = '[0-9a-f-]{36}') =>
    `the quota change was accepted \\(request ${id}\\), but the service did not show its status: ${reads} reads over \\d+ s answered 404 ResourceNotFound; the change goes on; find its request with: vx mgmt quota requests list --provider Vendor\\.Compute --location eastus --subscription ${SUB}`;

  it('two 404s, then the request: it is followed to its end; exit 0, nothing on stderr', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.state.mgmt.requestLag = 2;
    const r = await e2e.run([...SET, '--limit', '150']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).properties.provisioningState).toBe('Succeeded');
    expect(reads()).toEqual(['request 404', 'request 404', 'request 200', 'request 200', 'request 200']);
    expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
  });

  it('the operation resource of the async-operation header may lag too: five 404s are read again', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.state.mgmt.lroHeaders = 'async-operation';
    e2e.emu.state.mgmt.requestLag = 5;
    const r = await e2e.run([...SET, '--limit', '150']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(reads()).toEqual([...Array(5).fill('operation 404'), 'operation 200', 'operation 200', 'operation 200', 'request 200']);
  });

  it('a request still not shown after six reads: exit 1 says the change was accepted and how to find it', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.state.mgmt.requestLag = 6;
    const r = await e2e.run([...SET, '--limit', '150']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^vx: ${notShown('6')}\\n$`));
    expect(reads()).toEqual(Array(6).fill('request 404'));
    expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
  });

  it('the re-reads stay within --wait-timeout', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.state.mgmt.requestLag = 100;
    // a floor of 400 ms: 0.4, 0.4, 0.8 s... the second of --wait-timeout runs out before the fifth re-read
    const r = await e2e.run([...SET, '--limit', '150', '--wait-timeout', '1'], { spawn: true, env: { VX_POLL_FLOOR_MS: '400' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^vx: ${notShown('[1-4]')}\\n$`));
    expect(reads().every((x) => x === 'request 404')).toBe(true);
    expect(reads().length).toBeLessThanOrEqual(4);
  });

  it('quota apply: the row ends Unknown with the same message; exit 1', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.state.mgmt.requestLag = 6;
    const input = JSON.stringify([{ subscription: SUB, provider: 'Vendor.Compute', location: 'eastus', name: 'cores', limit: 130 }]);
    const r = await e2e.run(['mgmt', 'quota', 'apply', '-f', '-', '--yes', '-o', 'json', '--poll-interval', '0'], { input });
    expect(r.code).toBe(1);
    const [row] = JSON.parse(r.stdout);
    expect(row.state).toBe('Unknown');
    expect(row.message).toMatch(new RegExp(`^${notShown('6', row.requestId)}$`));
    expect(r.stderr).toMatch(new RegExp(`^cores in eastus: ${notShown('6', row.requestId)}\\nvx: 0 of 1 quota changes succeeded; cores in eastus Unknown; a rerun submits only what is still short\\n$`));
    expect(reads()).toEqual(Array(6).fill('request 404'));
  });
});
