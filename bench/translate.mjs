// Bulk translation: `vx translate` of 100,000 lines (~3 MB) against a local translate server,
// against an ideal raw client with the same concurrency; peak RSS at 100,000, 1,000,000 and 2,000,000 lines;
// and the speed-up over one request per line.
import { createWriteStream, mkdtempSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { translateServer } from './servers.mjs';
import { median, report, ROOT, VX } from './lib.mjs';

async function makeFile(path, lines) {
  const out = createWriteStream(path);
  const words = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'morning', 'report', 'quarterly', 'invoice', 'shipping'];
  for (let i = 0; i < lines; i++) {
    let s = `Line ${i}:`;
    for (let w = 0; w < 4; w++) s += ` ${words[(i * 7 + w * 3) % words.length]}`;
    if (!out.write(`${s}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

/** Runs a command with stdout to /dev/null; wall ms and peak RSS (kB) from /usr/bin/time -v. */
function measured(file, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-v', file, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1] ?? NaN);
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(-1500)}`));
      else resolve({ ms, rss });
    });
  });
}

export async function translate({ rounds = 5, lines = 100_000, bigLines = 1_000_000, concurrency = 4 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-'));
  const small = join(dir, 'small.txt');
  const big = join(dir, 'big.txt');
  const sample = join(dir, 'sample.txt');
  const bytes = await makeFile(small, lines);
  await makeFile(sample, 2_000);
  const server = await translateServer();
  const env = { ...process.env, VX_CONFIG_DIR: join(dir, 'cfg'), VX_TRANSLATOR_ENDPOINT: server.url, VX_TRANSLATOR_KEY: 'bench-key' };
  const vxArgs = (f) => [VX, 'translate', '--to', 'de', '--file', f, '--concurrency', String(concurrency)];
  const rawArgs = (f, batch) => [join(ROOT, 'bench', 'raw-translate.cjs'), server.url, f, 'de', String(concurrency), ...(batch ? [String(batch)] : [])];
  // the floor: the raw client plus only the dedupe and checks every run must do (information)
  const floorArgs = (f) => [join(ROOT, 'bench', 'raw-translate-dedupe.cjs'), server.url, f, 'de', String(concurrency)];
  try {
    const vx = [];
    const raw = [];
    const floor = [];
    for (let r = 0; r < rounds; r++) {
      const runs = [
        async () => raw.push(await measured(process.execPath, rawArgs(small), env)),
        async () => vx.push(await measured(process.execPath, vxArgs(small), env)),
        async () => floor.push(await measured(process.execPath, floorArgs(small), env)),
      ];
      for (const f of r % 2 ? runs.reverse() : runs) await f();
    }
    const vxMs = median(vx.map((x) => x.ms));
    const rawMs = median(raw.map((x) => x.ms));
    const floorMs = median(floor.map((x) => x.ms));
    report(`vx translate ${lines} lines (${(bytes / 1e6).toFixed(1)} MB) throughput vs ideal raw client`, bytes / vxMs, bytes / rawMs, 0.8, {
      unit: 'kB/s',
      higherIsBetter: true,
    });
    report('  the floor: a minimal client with only the dedupe window and checks a run must do (bench/raw-translate-dedupe.cjs) vs the raw client', rawMs, floorMs, 0.8, {
      higherIsBetter: true,
      informational: true,
      note: `(floor ${floorMs.toFixed(0)} ms, raw ${rawMs.toFixed(0)} ms; vx ${vxMs.toFixed(0)} ms is ${(floorMs / vxMs).toFixed(2)}x the floor)`,
    });
    const rss100k = median(vx.map((x) => x.rss));
    // one request per line: the naive client on 2,000 lines, per line
    const naive = await measured(process.execPath, rawArgs(sample, 1), env);
    const naivePerLine = naive.ms / 2_000;
    const vxPerLine = vxMs / lines;
    report('vx translate speed-up over one request per line (per line, naive vs vx)', naivePerLine / vxPerLine, 1, 50, { unit: 'x', higherIsBetter: true });
    if (bigLines) {
      // bounded memory: the peak at 1,000,000 lines under the budget, and no growth from there to
      // twice the input (from 100,000 lines up, Node's heap sizing grows the peak for any client:
      // the raw client measured 71 -> 93 -> 91 MB at 100k / 1M / 2M lines)
      await makeFile(big, bigLines);
      const b = await measured(process.execPath, vxArgs(big), env);
      const huge = join(dir, 'huge.txt');
      await makeFile(huge, bigLines * 2);
      const h = await measured(process.execPath, vxArgs(huge), env);
      console.log(
        `      peak RSS: ${(rss100k / 1024).toFixed(0)} MB at ${lines} lines, ${(b.rss / 1024).toFixed(0)} MB at ${bigLines} lines (${(b.ms / 1000).toFixed(1)} s), ${(h.rss / 1024).toFixed(0)} MB at ${bigLines * 2} lines (${(h.ms / 1000).toFixed(1)} s); goal <= 150 MB and flat`,
      );
      report(`vx translate peak RSS at ${bigLines} lines vs 150 MB`, b.rss / 1024, 150, 1, { unit: 'MB' });
      report(`vx translate peak RSS growth ${bigLines} -> ${bigLines * 2} lines`, h.rss, b.rss, 1.1, { unit: 'kB' });
    }
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await translate();
