// Paging: 10,000 ERP records over 100 pages, `vx erp currencies list -o json` vs an ideal raw
// client reading the same pages over one keep-alive connection.
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { odataServer } from './servers.mjs';
import { report, timeCommands, ROOT, VX } from './lib.mjs';

export async function paging({ rounds = 15, total = 10_000, pageSize = 100 } = {}) {
  const server = await odataServer(total, pageSize);
  const company = '11111111-2222-3333-4444-555555555555';
  const env = {
    ...process.env,
    VX_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'vx-bench-')),
    VX_ERP_PREFIX: server.url,
    VX_ERP_TOKEN: 'bench-token',
    VX_ERP_COMPANY: company,
  };
  try {
    // the first page's address as vx builds it
    const plan = JSON.parse(
      (await import('node:child_process')).execFileSync(process.execPath, [VX, 'erp', 'currencies', 'list', '--dry-run'], { env, encoding: 'utf8' }),
    );
    const first = plan[0].url;
    const m = await timeCommands(
      {
        raw: [process.execPath, join(ROOT, 'bench', 'raw-pages.cjs'), first],
        vx: [process.execPath, VX, 'erp', 'currencies', 'list', '-o', 'json'],
      },
      { rounds, env },
    );
    report(`vx erp list of ${total} records over ${total / pageSize} pages vs raw client`, m.vx, m.raw, 1.2);
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await paging();
