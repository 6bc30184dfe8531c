// One GET command: `vx mgmt quota get` against a local server vs a minimal node:http script.
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { quotaServer } from './servers.mjs';
import { report, timeCommands, ROOT, VX } from './lib.mjs';

export async function get({ rounds = 30 } = {}) {
  const server = await quotaServer();
  const sub = '00000000-0000-0000-0000-000000000001';
  const env = {
    ...process.env,
    VX_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'vx-bench-')),
    VX_MGMT_ENDPOINT: server.url,
    VX_MGMT_TOKEN: 'bench-token',
    VX_SUBSCRIPTION: sub,
  };
  const quotaUrl = `${server.url}/subscriptions/${sub}/providers/Vendor.Compute/locations/westeurope/providers/Vendor.Capacity/quotas/standardDSv3Family?api-version=2020-10-25`;
  try {
    const m = await timeCommands(
      {
        raw: [process.execPath, join(ROOT, 'bench', 'raw-get.cjs'), quotaUrl],
        vx: [process.execPath, VX, 'mgmt', 'quota', 'get', 'standardDSv3Family', '--provider', 'Vendor.Compute', '--location', 'westeurope', '-o', 'json'],
      },
      { rounds, env },
    );
    report('vx mgmt quota get vs node:http GET script', m.vx, m.raw, 1.6);
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await get();
