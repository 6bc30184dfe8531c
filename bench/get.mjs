// One GET command end to end: `vx mgmt quota get` against the emulator (loopback, port 0) vs a
// minimal node:http script sending the same GET with the same headers, alternating in one run.
// `node -e 0` runs with them: the floor every Node process pays, which neither can go under.
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { report, timeCommands, ROOT, VX } from './lib.mjs';

export async function get({ rounds = 40 } = {}) {
  const { startEmulator } = (await import('../dist/vendor/emulator.js')).__vxNs;
  const emu = await startEmulator({ port: 0 });
  const env = { ...process.env, ...emu.env(), VX_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'vx-bench-')) };
  const [sub, provider, location, quota] = ['7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f', 'Vendor.Compute', 'eastus', 'cores'];
  // the URL exactly as vx builds it
  const quotaUrl = `${env.VX_MGMT_ENDPOINT}/subscriptions/${sub}/providers/Vendor.Capacity/resourceProviders/${provider}/locations/${location}/serviceLimits/${quota}?api-version=2020-10-25`;
  try {
    const m = await timeCommands(
      {
        node: [process.execPath, '-e', '0'],
        raw: [process.execPath, join(ROOT, 'bench', 'raw-get.cjs'), quotaUrl, env.VX_MGMT_TOKEN],
        vx: [process.execPath, VX, 'mgmt', 'quota', 'get', quota, '--provider', provider, '--location', location, '--subscription', sub, '-o', 'json'],
      },
      { rounds, env },
    );
    report('vx mgmt quota get vs node:http GET script (same request, the emulator)', m.vx, m.raw, 1.15);
    const floor = `(node -e 0 ${m.node.toFixed(1)} ms; above it: vx ${(m.vx - m.node).toFixed(1)} ms, raw ${(m.raw - m.node).toFixed(1)} ms)`;
    report('the floor: node -e 0 vs the node:http GET script', m.node, m.raw, 1, { informational: true, note: floor });
  } finally {
    await emu.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await get();
