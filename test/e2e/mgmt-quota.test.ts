// vx mgmt quota get|set|requests against the emulator.
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { RecordingClock } from '../helpers/fake-clock.js';
import { withoutRequestLines } from '../helpers/vx.js';

const e2e = useEmulator();
const json = (s: string) => JSON.parse(s);
const SUB = () => e2e.emu.state.mgmt.defaultSubscription as string;
const SCOPE = ['--provider', 'Vendor.Compute', '--location', 'eastus'];
const base = () => `/subscriptions/${SUB()}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus`;
const mgmtLog = async (): Promise<{ method: string; path: string; status: number }[]> =>
  ((await (await fetch(`${e2e.emu.url}/_emulator/requests`)).json()) as any[]).filter((e) => e.family === 'mgmt');
const writes = () => e2e.emu.state.mgmt.writes as { method: string; path: string; body: any }[];
const limitOf = (name: string) => e2e.emu.state.mgmt.quotas[`${SUB().toLowerCase()}|vendor.compute|eastus`][name.toLowerCase()].quota.properties.limit;

beforeEach(() => {
  // answer polls at once (the emulator's default Retry-After is 1 second)
  e2e.emu.state.mgmt.retryAfter = 0;
});

describe('vx mgmt quota get', () => {
  it('prints the quota as the service returned it', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'get', 'cores', ...SCOPE]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const q = json(r.stdout);
    expect(q).toMatchObject({ name: 'cores', type: 'Vendor.Capacity/ServiceLimits', properties: { limit: 100, currentValue: 42, unit: 'Count', name: { value: 'cores', localizedValue: 'Total Regional vCPUs' } } });
    expect(await mgmtLog()).toEqual([expect.objectContaining({ method: 'GET', path: `${base()}/serviceLimits/cores?api-version=2020-10-25`, status: 200 })]);
  });

  it('the table shows limit, usage, percent used, unit and period', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'get', 'TokensPerMinute', '--provider', 'Vendor.CognitiveServices', '--location', 'eastus', '-o', 'table'], { env: { COLUMNS: '200' } });
    const [head, row] = r.stdout.trimEnd().split('\n');
    expect(head.split(/\s{2,}/)).toEqual(['NAME', 'DISPLAY NAME', 'LIMIT', 'USAGE', 'USED', 'UNIT', 'PERIOD']);
    expect(row.split(/\s{2,}/)).toEqual(['TokensPerMinute', 'Tokens per minute', '1000', '120', '12%', 'Count', 'PT1M']);
  });

  it('provider and location come from the environment or the profile too', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'get', 'PublicIPAddresses'], { env: { VX_MGMT_PROVIDER: 'Vendor.Network', VX_MGMT_LOCATION: 'eastus' } });
    expect(json(r.stdout).properties.limit).toBe(100);
    const missing = await e2e.run(['mgmt', 'quota', 'get', 'cores', '--provider', 'Vendor.Compute']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/the location \(--location\) is not set: set VX_MGMT_LOCATION or run `vx profile set mgmt.location <value>`/);
  });

  it('an unknown quota is 404 (exit 4) with the ExceptionResponse message', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'get', 'nosuch', ...SCOPE]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^vx: HTTP 404 Not Found ResourceNotFound: No quota named 'nosuch' for resource provider 'Vendor.Compute' in location 'eastus'\. \(request id /);
  });
});

describe('vx mgmt quota set', () => {
  it('reads the quota, PATCHes limit, unit and name, and polls the request to Succeeded', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const done = json(r.stdout);
    expect(done.properties.provisioningState).toBe('Succeeded');
    expect(done.properties.value[0]).toMatchObject({ limit: 150, unit: 'Count', name: { value: 'cores' } });
    expect(writes().map(({ method, path, body }) => ({ method, path, body }))).toEqual([{ method: 'PATCH', path: `${base()}/serviceLimits/cores`, body: { properties: { limit: 150, unit: 'Count', name: { value: 'cores' } } } }]);
    const log = await mgmtLog();
    expect(log.map((l) => `${l.method} ${l.path.replace(base(), '')} ${l.status}`)).toEqual([
      'GET /serviceLimits/cores?api-version=2020-10-25 200',
      // a request of cores still running would be followed instead of a second PATCH
      'GET /serviceLimitsRequests?api-version=2020-10-25&$top=50 200',
      'GET /serviceLimitsRequests?api-version=2020-10-25&$top=50&$skiptoken=5 200',
      'PATCH /serviceLimits/cores?api-version=2020-10-25 201',
      `GET /serviceLimitsRequests/${done.id}?api-version=2020-10-25 200`,
      `GET /serviceLimitsRequests/${done.id}?api-version=2020-10-25 200`,
      `GET /serviceLimitsRequests/${done.id}?api-version=2020-10-25 200`,
    ]);
    expect(limitOf('cores')).toBe(150);
  });

  it('without a terminal the progress is silent; --verbose prints each state as a line', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes', '--verbose']);
    expect(r.code).toBe(0);
    const states = r.stderr.split('\n').filter((l) => l.startsWith('quota request ')).map((l) => l.replace(/^quota request [0-9a-f-]+: /, ''));
    expect(states).toEqual(['InProgress', 'InProgress', 'InProgress', 'Succeeded']);
    expect(r.stderr).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  });

  it('honours Retry-After between polls', async () => {
    e2e.emu.state.mgmt.retryAfter = 1;
    // the waits on a fake clock that records them, with the number of requests answered when each began
    const clock = new RecordingClock(() => e2e.emu.count({ family: 'mgmt' }));
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '140', '--yes', '--poll-interval', '0'], { clock });
    expect(r.code).toBe(0);
    // 201 and two InProgress reads each ask for one second: a second after each (the 4th request is the PATCH)
    expect(clock.waits.filter((w) => w.ms > 0)).toEqual([
      { ms: 1000, at: 4 },
      { ms: 1000, at: 5 },
      { ms: 1000, at: 6 },
    ]);
  });

  it('a request that ends Failed prints it and exits 1 with the message', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '9999', '--yes']);
    expect(r.code).toBe(1);
    expect(json(r.stdout).properties.provisioningState).toBe('Failed');
    expect(r.stderr).toMatch(/^vx: quota request [0-9a-f-]+ ended Failed: The requested limit 9999 exceeds the regional capacity of 500 for cores in eastus; contact support\.\n$/);
    expect(limitOf('cores')).toBe(100);
  });

  it('a request that ends Invalid exits 1 too', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '10', '--allow-decrease', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ended Invalid: The requested limit 10 is below the current usage of 42/);
  });

  it('requests get takes the request as the service prints it: the accepted id (a full path, its scope used) or the status name <subscription>/<id>', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '160', '--yes', '--no-wait']);
    const accepted = json(r.stdout);
    expect(accepted.id).toBe(`${base()}/serviceLimitsRequests/${accepted.name}`);
    // `.id` of the accepted answer, with no --provider or --location: the path names them
    const byPath = await e2e.run(['mgmt', 'quota', 'requests', 'get', accepted.id]);
    expect(byPath.stderr).toBe('');
    expect(json(byPath.stdout).id).toBe(accepted.name);
    // `.name` of a status body
    const status = json(byPath.stdout);
    const byName = await e2e.run(['mgmt', 'quota', 'requests', 'get', status.name, ...SCOPE]);
    expect(byName.code).toBe(0);
    expect(json(byName.stdout).id).toBe(accepted.name);
    // a flag that contradicts the path is refused, nothing sent
    const n = (await mgmtLog()).length;
    const other = await e2e.run(['mgmt', 'quota', 'requests', 'get', accepted.id, '--location', 'westus2']);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(`vx: --location westus2 differs from the location in the request id "${accepted.id.slice(0, 60)}…" (eastus); nothing was sent\n`);
    const bad = await e2e.run(['mgmt', 'quota', 'requests', 'get', 'a/b/c', ...SCOPE]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^vx: invalid quota request id "a\/b\/c": give the request id, <subscription>\/<id>, or the request's full id/);
    expect((await mgmtLog()).length).toBe(n);
  });

  it('a provider or location from the environment or the profile that breaks its rule is named by where it came from', async () => {
    const env = await e2e.run(['mgmt', 'quota', 'get', 'cores'], { env: { VX_MGMT_PROVIDER: 'Compute', VX_MGMT_LOCATION: 'eastus' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/^vx: invalid VX_MGMT_PROVIDER \(--provider\) "Compute": the resource provider id must match the pattern/);
    const loc = await e2e.run(['mgmt', 'quota', 'get', 'cores', '--provider', 'Vendor.Compute'], { env: { VX_MGMT_LOCATION: 'East US' } });
    expect(loc.stderr).toMatch(/^vx: invalid VX_MGMT_LOCATION \(--location\) "East US": the location must match the pattern/);
    const flag = await e2e.run(['mgmt', 'quota', 'get', 'cores', '--provider', 'Compute', '--location', 'eastus']);
    expect(flag.stderr).toMatch(/^vx: invalid --provider "Compute":/);
    expect(await mgmtLog()).toEqual([]);
  });

  it('--no-wait prints the accepted request and does not poll', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '160', '--yes', '--no-wait']);
    expect(r.code).toBe(0);
    const accepted = json(r.stdout);
    // patchComputeQuotaRequest.json's 201: type ServiceLimits, an empty message
    expect(accepted).toEqual({ id: `${base()}/serviceLimitsRequests/${accepted.name}`, name: accepted.name, type: 'Vendor.Capacity/ServiceLimits', properties: { provisioningState: 'InProgress', message: '' } });
    const log = await mgmtLog();
    expect(log.map((l) => l.method)).toEqual(['GET', 'GET', 'GET', 'PATCH']);
    // ...and the request can be followed
    const follow = await e2e.run(['mgmt', 'quota', 'requests', 'get', accepted.name, ...SCOPE]);
    // the status body (getQuotaRequestStatusById.json): the bare request id, name `<subscription>/<id>`
    expect(json(follow.stdout)).toMatchObject({ id: accepted.name, name: `${SUB()}/${accepted.name}`, type: 'Vendor.Capacity/serviceLimitsRequests', properties: { provisioningState: 'InProgress' } });
    const t = await e2e.run(['mgmt', 'quota', 'requests', 'get', accepted.name, ...SCOPE, '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(t.stdout.split('\n')[1]).toBe(`Request id  ${accepted.name}`);
  });

  it('a request for the same change still running (an earlier --no-wait, a wait that timed out) is followed, not submitted a second time', async () => {
    const first = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '160', '--yes', '--no-wait']);
    expect(first.code).toBe(0);
    const id = json(first.stdout).name;
    const again = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '160', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(`quota request ${id} for cores (160) is still InProgress: following it instead of submitting the same change again\n`);
    expect(json(again.stdout)).toMatchObject({ id, properties: { provisioningState: 'Succeeded' } });
    expect(writes().filter((w) => w.method === 'PATCH')).toHaveLength(1);
    expect(limitOf('cores')).toBe(160);
    // --no-wait again: the running request is printed, nothing sent
    e2e.emu.reset();
    e2e.emu.state.mgmt.retryAfter = 0;
    const one = json((await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '170', '--yes', '--no-wait'])).stdout).name;
    const noWait = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '170', '--yes', '--no-wait']);
    expect(noWait.code).toBe(0);
    expect(json(noWait.stdout)).toMatchObject({ id: one, properties: { provisioningState: 'InProgress' } });
    expect(noWait.stderr).toContain(`quota request ${one} for cores (170) is still InProgress; nothing was submitted again; follow it with: vx mgmt quota requests get ${one}`);
    expect(writes().filter((w) => w.method === 'PATCH')).toHaveLength(1);
  });

  it('a running request for another limit: exit 5, nothing submitted, how to follow it', async () => {
    const first = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '235', '--yes', '--no-wait']);
    const id = json(first.stdout).name;
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '240', '--yes']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `vx: quota request ${id} for cores (235) is still InProgress; a second change now would race it: wait for its end (vx mgmt quota requests get ${id} --provider Vendor.Compute --location eastus --subscription ${SUB()} --wait), then run this again; nothing was changed\n`,
    );
    expect(writes().filter((w) => w.method === 'PATCH')).toHaveLength(1);
  });

  it('Ctrl-C while waiting exits 130 and says how to follow the submitted request', async () => {
    e2e.emu.state.mgmt.retryAfter = 30;
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes', '--verbose'], {
      onSpawn: (child) => {
        // interrupt once the wait has begun (the first state line of --verbose)
        let seen = '';
        child.stderr!.on('data', (c) => {
          seen += String(c);
          if (seen.includes(': InProgress')) child.kill('SIGINT');
        });
      },
    });
    expect(r.code).toBe(130);
    expect(withoutRequestLines(r.stderr)).toMatch(/^quota request ([0-9a-f-]+): InProgress\nquota request \1 was submitted; follow it with: vx mgmt quota requests get \1 --provider Vendor.Compute --location eastus --subscription [0-9a-f-]{36} --wait\nvx: interrupted\n$/);
    expect(r.stdout).toBe('');
  });

  it('the way to follow a request names its subscription (a --subscription the default does not have)', async () => {
    const other = 'b2c4e6f8-1a3c-4e5f-9a7b-2c4d6e8f0a11';
    e2e.emu.state.mgmt.retryAfter = 30;
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--subscription', other, '--limit', '150', '--allow-decrease', '--yes', '--wait-timeout', '1']);
    expect(r.code).toBe(1);
    const id = /follow it with: vx mgmt quota requests get ([0-9a-f-]{36}) --provider Vendor\.Compute --location eastus --subscription b2c4e6f8-1a3c-4e5f-9a7b-2c4d6e8f0a11 --wait\n/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();
    // the hint works as written: without the subscription it would ask the default one (404)
    const follow = await e2e.run(['mgmt', 'quota', 'requests', 'get', id!, ...SCOPE, '--subscription', other, '-o', 'json']);
    expect(follow.code).toBe(0);
    expect(JSON.parse(follow.stdout).id).toBe(id);
  });

  it('a status read that fails after the change was accepted says the request was submitted and how to follow it', async () => {
    e2e.emu.state.mgmt.retryAfter = 1;
    const run = e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes', '--retries', '0']);
    // once the PATCH is accepted, every further read fails
    for (let i = 0; i < 500 && !e2e.emu.log.some((l) => l.method === 'PATCH' && l.status === 201); i++) await new Promise((res) => setTimeout(res, 10));
    e2e.emu.setFaults('mgmt/GET/500:1');
    const r = await run;
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^quota request ([0-9a-f-]{36}) was submitted; follow it with: vx mgmt quota requests get \1 --provider Vendor\.Compute --location eastus --subscription [0-9a-f-]{36} --wait\nvx: HTTP 500 Internal Server Error InternalServerError: emulated fault: HTTP 500 \(request id [0-9a-f-]+\)\n$/,
    );
    expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
  });

  it('a 200 to the PATCH means done at once (a decrease above usage)', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '60', '--allow-decrease', '--yes']);
    expect(r.code).toBe(0);
    const done = json(r.stdout);
    // patchComputeQuotaRequest.json's 200: the request path as id, type serviceLimits, an empty message, the quota nested
    expect(done).toMatchObject({ name: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'Vendor.Capacity/serviceLimits', properties: { provisioningState: 'Succeeded', message: '', limit: 60, properties: { properties: { limit: 60, unit: 'Count', currentValue: 42, quotaPeriod: '' } } } });
    expect(done.id).toBe(`${base()}/serviceLimitsRequests/${done.name}`);
    expect((await mgmtLog()).map((l) => `${l.method} ${l.status}`)).toEqual(['GET 200', 'GET 200', 'GET 200', 'PATCH 200']);
    expect(limitOf('cores')).toBe(60);
  });

  it('the same limit changes nothing', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '100', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('the limit of cores in eastus is already 100; nothing was changed\n');
    expect((await mgmtLog()).map((l) => l.method)).toEqual(['GET']);
  });

  it('without a terminal and without --yes it exits 2 and sends nothing', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Change the limit of cores in eastus to 150: confirmation needed; pass --yes/);
    expect(writes()).toEqual([]);
    // refused before the read too: exit 2 means nothing was sent
    expect(await mgmtLog()).toEqual([]);
  });

  it('--dry-run shows the reads and the PATCH and sends nothing', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--dry-run']);
    expect(r.code).toBe(0);
    const planned = json(r.stdout);
    expect(planned.map((p: any) => p.method)).toEqual(['GET', 'GET', 'PATCH']);
    expect(planned[1].url).toBe(`${e2e.env.VX_MGMT_ENDPOINT}${base()}/serviceLimitsRequests?api-version=2020-10-25&$top=50`);
    expect(planned[2].body).toEqual({ properties: { limit: 150, unit: '<unit of the current quota>', name: { value: 'cores' } } });
    expect(planned[2].headers.authorization).toBe('Bearer ***');
    expect(await mgmtLog()).toEqual([]);
  });
});

describe('vx mgmt quota requests', () => {
  it('list follows nextLink ($skiptoken) across pages', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'requests', 'list', ...SCOPE]);
    expect(r.code).toBe(0);
    const list = json(r.stdout);
    expect(list).toHaveLength(7);
    expect(list[0].id).toBe('1d3f1c2a-0007-4a5b-9c8d-00000000a007');
    expect(list[0].name).toBe(`${SUB()}/1d3f1c2a-0007-4a5b-9c8d-00000000a007`);
    const log = await mgmtLog();
    expect(log.map((l) => l.path.replace(base(), ''))).toEqual(['/serviceLimitsRequests?api-version=2020-10-25', '/serviceLimitsRequests?api-version=2020-10-25&$skiptoken=5']);
  });

  it('--top is sent as $top and caps the total; --filter as $filter', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'requests', 'list', ...SCOPE, '--top', '6', '--filter', 'requestSubmitTime ge 2000-01-01T00:00:00Z']);
    expect(json(r.stdout)).toHaveLength(6);
    expect((await mgmtLog())[0].path).toBe(`${base()}/serviceLimitsRequests?api-version=2020-10-25&$filter=requestSubmitTime%20ge%202000-01-01T00:00:00Z&$top=6`);
    const t = await e2e.run(['mgmt', 'quota', 'requests', 'list', ...SCOPE, '--top', '2', '-o', 'table'], { env: { COLUMNS: '200' } });
    expect(t.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['REQUEST ID', 'STATE', 'SUBMITTED', 'LIMITS', 'MESSAGE']);
    expect(t.stdout.trimEnd().split('\n')).toHaveLength(3);
  });

  it('get shows one request; an unknown one is exit 4', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'requests', 'get', '1d3f1c2a-0002-4a5b-9c8d-00000000a002', ...SCOPE]);
    expect(json(r.stdout).properties).toMatchObject({ provisioningState: 'Failed' });
    // at 80 columns the one request does not fit a row: FIELD/VALUE lines, the message whole
    const t = await e2e.run(['mgmt', 'quota', 'requests', 'get', '1d3f1c2a-0002-4a5b-9c8d-00000000a002', ...SCOPE, '-o', 'table'], { env: { COLUMNS: '80' } });
    const msg = json(r.stdout).properties.message as string;
    expect(t.stdout.split('\n').slice(0, 3)).toEqual(['FIELD       VALUE', 'Request id  1d3f1c2a-0002-4a5b-9c8d-00000000a002', 'State       Failed']);
    expect(t.stdout).toContain(`\nMessage     ${msg}\n`);
    const missing = await e2e.run(['mgmt', 'quota', 'requests', 'get', 'nope', ...SCOPE]);
    expect(missing.code).toBe(4);
  });
});

describe('the emulated quota API answers like the published examples', () => {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${e2e.emu.url}/mgmt${base()}${path}`, {
      method,
      headers: { authorization: 'Bearer emulator-token', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('a PATCH without unit is refused (400, ExceptionResponse) and changes nothing', async () => {
    const r = await call('PATCH', '/serviceLimits/cores?api-version=2020-10-25', { properties: { limit: 150, name: { value: 'cores' } } });
    expect(r).toEqual({ status: 400, body: { error: { code: 'InvalidUnit', message: "The request has no 'unit'; send the unit of the quota ('Count') as read with GET.", details: [] } } });
    expect(limitOf('cores')).toBe(100);
  });

  it('the quota list ends with "nextLink": "" (getComputeUsages.json)', async () => {
    const r = await call('GET', '/serviceLimits?api-version=2020-10-25');
    expect(r.status).toBe(200);
    expect(r.body.nextLink).toBe('');
    expect(r.body.value.length).toBeGreaterThan(0);
  });
});
