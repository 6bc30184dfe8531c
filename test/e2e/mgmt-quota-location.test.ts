// vx mgmt quota set follows the Location header of an accepted change (notes: "honour Retry-After
// and a Location header when present") when it is on the configured origin, and falls back to
// serviceLimitsRequests/{id} when it points anywhere else (no credentials sent there; the accepted
// change is still followed to its end). The emulator's PATCH route is wrapped to rewrite Location.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allFamilies, Emulator, type EmuReply } from '../../src/emulator/index.js';
import { removeDir, runVx, tempDir } from '../helpers/vx.js';

let emu: Emulator;
let dir: string;
let rewrite: ((location: string) => string) | undefined;

beforeAll(async () => {
  const families = allFamilies();
  const mgmt = families.find((f) => f.name === 'mgmt')!;
  const patch = mgmt.routes.find((r) => r.method === 'PATCH' && String(r.path).includes('Capacity'))!;
  const handler = patch.handler;
  patch.handler = async (req) => {
    const reply: EmuReply = await handler(req);
    if (rewrite && reply.status === 201) reply.headers = { ...reply.headers, location: rewrite(String(reply.headers!.location)) };
    return reply;
  };
  emu = new Emulator({ families });
  await emu.listen(0, '127.0.0.1');
  dir = tempDir();
});
beforeEach(() => {
  emu.reset();
  emu.state.mgmt.retryAfter = 0;
  rewrite = undefined;
});
afterAll(async () => {
  await emu?.close();
  removeDir(dir);
});

const SET = ['mgmt', 'quota', 'set', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus', '--limit', '150', '--yes'];
const run = (args: string[]) => runVx(args, { configDir: dir, env: emu.env() });
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
