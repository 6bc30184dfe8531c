// Paging: 10,000 ERP records over 100 pages, `vx erp currencies list -o json` vs an ideal raw
// client reading the same pages over one keep-alive connection.
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { odataServer } from './servers.mjs';
import { build } from 'esbuild';
import { median, report, timeCommands, ROOT, VX } from './lib.mjs';

/**
 * vx's paging path and the raw loop in this process, interleaved: medians of CPU ms (user + sys of
 * the process, the loopback server's share included on both sides) and of wall ms. CPU is the
 * target: on a shared machine the wall time of a 40 ms run says more about the other processes.
 */
async function inProcess(base, company, first, rounds = 20) {
  const outfile = join(mkdtempSync(join(tmpdir(), 'vx-bench-')), 'paging-entry.mjs');
  await build({ entryPoints: [join(ROOT, 'bench', 'paging-entry.ts')], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'error',
    banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" } });
  const { vxList, rawList } = await import(outfile);
  const m = { vx: { cpu: [], wall: [] }, raw: { cpu: [], wall: [] } };
  const timed = (side, f) => async (r) => {
    const c = process.cpuUsage();
    const t = performance.now();
    await f();
    const wall = performance.now() - t;
    const d = process.cpuUsage(c);
    if (r < 0) return;
    m[side].cpu.push((d.user + d.system) / 1000);
    m[side].wall.push(wall);
  };
  const vx = timed('vx', () => vxList(base, company));
  const raw = timed('raw', () => rawList(first));
  for (let r = -3; r < rounds; r++) for (const f of r % 2 ? [raw, vx] : [vx, raw]) await f(r);
  return { cpu: [median(m.vx.cpu), median(m.raw.cpu)], wall: [median(m.vx.wall), median(m.raw.wall)] };
}

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
    const one = await inProcess(server.url, company, first);
    report(`vx erp list of ${total} records over ${total / pageSize} pages vs raw client, paging in one process, CPU time`, ...one.cpu, 1.2, {
      note: `(wall ${one.wall[0].toFixed(1)} ms vs ${one.wall[1].toFixed(1)} ms, ${(one.wall[0] / one.wall[1]).toFixed(2)}x; load ${loadavg()[0].toFixed(1)})`,
    });
    report(`vx erp currencies list -o json, the whole command with start-up, vs a raw script`, m.vx, m.raw, 1.2, { informational: true });
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await paging();
