// vx mgmt quota set follows the Location header of an accepted change (notes: "honour Retry-After
// and a Location header when present") when it is on the configured origin, and falls back to
// serviceLimitsRequests/{id} when it points anywhere else (no credentials sent there; the accepted
// change is still followed to its end). The emulator's PATCH route is wrapped to rewrite Location.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allFamilies, Emulator, type EmuReply } from '../../src/emulator/index.js';
import { runVxInProc } from '../helpers/inproc.js';
import { removeDir, tempDir, withoutRequestLines } from '../helpers/vx.js';

let emu: Emulator;
let dir: string;
let rewrite: ((location: string) => string) | undefined;
/** when set, the PATCH's 201 is answered as this (the resource manager's 202 forms) */
let accepted: ((reply: EmuReply) => EmuReply) | undefined;
/** how many status reads answer 202 (still running, no body) before the emulator's own answers */
let running202 = 0;

beforeAll(async () => {
  const families = allFamilies();
  const mgmt = families.find((f) => f.name === 'mgmt')!;
  const patch = mgmt.routes.find((r) => r.method === 'PATCH' && String(r.path).includes('Capacity'))!;
  const handler = patch.handler;
  patch.handler = async (req) => {
    const reply: EmuReply = await handler(req);
    if (rewrite && reply.status === 201) reply.headers = { ...reply.headers, location: rewrite(String(reply.headers!.location)) };
    return accepted && reply.status === 201 ? accepted(reply) : reply;
  };
  const status = mgmt.routes.find((r) => r.method === 'GET' && String(r.path).includes('serviceLimitsRequests') && String(r.path).includes('(?<id>'))!;
  const read = status.handler;
  status.handler = async (req) => {
    if (running202 > 0) {
      running202--;
      return { status: 202, headers: { 'retry-after': '0', location: `http://${req.headers.host}/mgmt${req.path}?${req.query.toString()}` } };
    }
    return read(req);
  };
  emu = new Emulator({ families });
  await emu.listen(0, '127.0.0.1');
  dir = tempDir();
});
beforeEach(() => {
  emu.reset();
  emu.state.mgmt.retryAfter = 0;
  rewrite = undefined;
  accepted = undefined;
  running202 = 0;
});
afterAll(async () => {
  await emu?.close();
  removeDir(dir);
});

const SET = ['mgmt', 'quota', 'set', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus', '--limit', '150', '--yes'];
const run = (args: string[]) => runVxInProc(args, { configDir: dir, env: emu.env() });
const polls = () => emu.log.filter((l) => l.family === 'mgmt' && l.method === 'GET' && l.path.includes('/serviceLimitsRequests/')).map((l) => l.path);

describe('the Location header of an accepted quota change', () => {
  it('on the configured origin: the status is read there', async () => {
    rewrite = (l) => `${l}&via=location`;
    const r = await run(SET);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const done = JSON.parse(r.stdout);
    expect(done.properties.provisioningState).toBe('Succeeded');
    const base = `/subscriptions/${emu.state.mgmt.defaultSubscription}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimitsRequests/${done.id}`;
    expect(polls()).toEqual([1, 2, 3].map(() => `${base}?api-version=2020-10-25&via=location`));
  });

  it('on another origin: ignored (no credentials sent there), the request is followed at serviceLimitsRequests/{id} to its end', async () => {
    rewrite = (l) => l.replace(/^http:\/\/127\.0\.0\.1:\d+/, 'http://127.0.0.2:9');
    const r = await run(SET);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const done = JSON.parse(r.stdout);
    expect(done.properties.provisioningState).toBe('Succeeded');
    const base = `/subscriptions/${emu.state.mgmt.defaultSubscription}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimitsRequests/${done.id}`;
    expect(polls()).toEqual([1, 2, 3].map(() => `${base}?api-version=2020-10-25`));
    expect(emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
  });
});

describe('202 Accepted, the long-running answer of the resource manager', () => {
  const base = () => `/subscriptions/${emu.state.mgmt.defaultSubscription}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimitsRequests/`;

  it('a 202 to the PATCH (no body, Location and Retry-After) is followed to its end, never reported done at once', async () => {
    accepted = (reply) => ({ status: 202, headers: reply.headers });
    const r = await run([...SET, '--verbose']);
    expect(r.code).toBe(0);
    const done = JSON.parse(r.stdout);
    expect(done.properties.provisioningState).toBe('Succeeded');
    expect(withoutRequestLines(r.stderr)).toMatch(new RegExp(`^quota request ${done.id}: Accepted\nquota request ${done.id}: InProgress\n`));
    expect(polls()).toEqual([1, 2, 3].map(() => `${base()}${done.id}?api-version=2020-10-25`));
    expect(emu.state.mgmt.quotas[Object.keys(emu.state.mgmt.quotas).find((k) => k.endsWith('|vendor.compute|eastus'))!].cores.quota.properties.limit).toBe(150);
  });

  it('a 202 to the PATCH whose request then fails exits 1 with the message (it was not "done")', async () => {
    accepted = (reply) => ({ status: 202, headers: reply.headers });
    const r = await run(['mgmt', 'quota', 'set', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus', '--limit', '900', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^vx: quota request [0-9a-f-]{36} ended Failed: The requested limit 900 exceeds the regional capacity of 500 for cores in eastus; contact support\.\n$/);
  });

  it('--no-wait after a 202 without a body prints how to follow the request (its id is nowhere else)', async () => {
    accepted = (reply) => ({ status: 202, headers: reply.headers });
    const r = await run([...SET, '--no-wait']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('{}');
    expect(r.stderr).toMatch(/^quota request [0-9a-f-]{36} accepted \(no state\); follow it with: vx mgmt quota requests get [0-9a-f-]{36} --provider Vendor\.Compute --location eastus/);
  });

  it('status reads answering 202 with no body mean "still running": the wait goes on to the final state', async () => {
    running202 = 2;
    const r = await run([...SET, '--verbose']);
    expect(r.code).toBe(0);
    const done = JSON.parse(r.stdout);
    expect(done.properties.provisioningState).toBe('Succeeded');
    expect(polls()).toHaveLength(5);
    expect(withoutRequestLines(r.stderr)).toMatch(new RegExp(`quota request ${done.id}: InProgress\nquota request ${done.id}: InProgress\n`));
  });
});

describe('202 Accepted in quota apply', () => {
  it('a change answered 202 is followed to its end, not counted as done at the PATCH', async () => {
    accepted = (reply) => ({ status: 202, headers: reply.headers });
    const entry = { subscription: emu.state.mgmt.defaultSubscription, provider: 'Vendor.Compute', location: 'eastus', name: 'cores', limit: 900 };
    const r = await runVxInProc(['mgmt', 'quota', 'apply', '-f', '-', '--yes', '-o', 'json'], { configDir: dir, env: emu.env(), input: JSON.stringify([entry]) });
    expect(r.code).toBe(1);
    const [row] = JSON.parse(r.stdout);
    expect(row.state).toBe('Failed');
    expect(row.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(polls().length).toBeGreaterThanOrEqual(3);
  });
});
