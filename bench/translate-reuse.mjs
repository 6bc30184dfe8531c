// Paying once and running at the subscription's limit (issue 15), against local translate servers
// that count what they bill:
// - dedupe: 20,000 lines made of 8 distinct UI strings bill exactly the distinct characters (ratio
//   billed / distinct x targets, goal 1.0; every line was sent before: 2,500x);
// - memory: the same run again with --memory bills 0; after changing 1% of the lines of a
//   100,000-line file, the rerun bills at most 1.1% of the first run's characters;
// - pacing: 40,000 lines (1.6 million characters) against a server enforcing 150,000 characters a
//   second (a bucket of one second, 429 + Retry-After in whole seconds): the effective rate against
//   the best any client can do (the bucket at once, the rest at the rate), goal >= 0.9x, and
//   rejected requests at most 10% of accepted.
// (Peak RSS with a fresh memory: translateMemoryVolume below; throughput against a raw client that
// dedupes, with and without a memory, and paying once at scale: bench/translate-scale.mjs.)
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { translateServer, translateServer429 } from './servers.mjs';
import { measureChild, report, runMeasured, VX } from './lib.mjs';

const UI = ['Save', 'Cancel', 'Open file', 'Close', 'Settings', 'Delete item', 'Are you sure?', 'Export all rows to spreadsheet'];

async function writeLines(path, n, line) {
  const out = createWriteStream(path);
  for (let i = 0; i < n; i++) if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

async function vx(server, dir, args) {
  const env = { ...process.env, VX_CONFIG_DIR: join(dir, 'cfg'), VX_TRANSLATOR_ENDPOINT: server.url, VX_TRANSLATOR_KEY: 'bench-key' };
  const before = server.stats.billed;
  const r = await runMeasured(process.execPath, [VX, 'translate', ...args], { env });
  return { ...r, billed: server.stats.billed - before };
}

export async function translateReuse() {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-reuse-'));
  const free = await translateServer429({ rate: 1e15 });
  try {
    // 20,000 lines of 8 distinct strings, two targets
    const sample = join(dir, 'ui.txt');
    await writeLines(sample, 20_000, (i) => UI[(i * 7 + (i >> 3)) % UI.length]);
    const distinctChars = UI.reduce((a, s) => a + [...s].length, 0);
    const once1 = await vx(free, dir, ['--to', 'de,fr', '-f', sample]);
    report('translate dedupe: billed / distinct characters x targets (20,000 lines, 8 distinct)', once1.billed, distinctChars * 2, 1.0, { unit: 'chars' });
    const mem = join(dir, 'ui.tm');
    await vx(free, dir, ['--to', 'de,fr', '-f', sample, '--memory', mem]);
    const again = await vx(free, dir, ['--to', 'de,fr', '-f', sample, '--memory', mem]);
    console.log(`      second run with --memory billed ${again.billed} characters (goal 0)`);
    report('translate memory: second run billed characters (goal 0)', again.billed + 1, 1, 1, { unit: 'chars+1' });

    // 100,000 lines, then 1% of them changed
    const big = join(dir, 'big.txt');
    await writeLines(big, 100_000, (i) => `Line ${i}: the quick brown fox jumps over the lazy dog`);
    const bigMem = join(dir, 'big.tm');
    const first = await vx(free, dir, ['--to', 'de', '-f', big, '--memory', bigMem]);
    const lines = readFileSync(big, 'utf8').split('\n');
    for (let i = 0; i < 100_000; i += 100) lines[i] = `Changed ${i}: a different sentence altogether`;
    writeFileSync(big, lines.join('\n'));
    const rerun = await vx(free, dir, ['--to', 'de', '-f', big, '--memory', bigMem]);
    report('translate memory: rerun after changing 1% of 100,000 lines, billed vs first run', rerun.billed, first.billed, 0.011, { unit: 'chars' });
  } finally {
    await free.close();
  }

  // pacing against a 150,000 characters/s bucket
  const rate = 150_000;
  const limited = await translateServer429({ rate, bucket: rate });
  try {
    const file = join(dir, 'paced.txt');
    await writeLines(file, 40_000, (i) => `Row ${String(i).padStart(6, '0')} of the quarterly report.`.padEnd(40, '.'));
    const r = await vx(limited, dir, ['--to', 'de', '-f', file]);
    const { accepted, rejected, billed } = limited.stats;
    const idealMs = ((billed - rate) / rate) * 1000;
    console.log(`      paced run: ${billed} characters in ${(r.ms / 1000).toFixed(2)} s (best possible ${(idealMs / 1000).toFixed(2)} s), ${accepted} accepted, ${rejected} rejected`);
    report('translate pacing: effective rate vs a 150,000 chars/s limit (40,000 lines)', idealMs, r.ms, 0.9, { unit: 'ms', higherIsBetter: true });
    report('translate pacing: rejected / accepted requests', rejected, accepted, 0.1, { unit: 'requests' });
  } finally {
    await limited.close();
  }
}

/** Peak RSS with the memory (heavy: run once): `bigLines` lines with a fresh memory. */
export async function translateMemoryVolume({ bigLines = 1_000_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-tmvol-'));
  const words = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'morning', 'report', 'quarterly', 'invoice', 'shipping'];
  const line = (i) => `Line ${i}:${[0, 1, 2, 3].map((w) => ` ${words[(i * 7 + w * 3) % words.length]}`).join('')}`;
  const server = await translateServer();
  const env = { ...process.env, VX_CONFIG_DIR: join(dir, 'cfg'), VX_TRANSLATOR_ENDPOINT: server.url, VX_TRANSLATOR_KEY: 'bench-key', TMPDIR: dir };
  try {
    const big = join(dir, 'big.txt');
    await writeLines(big, bigLines, line);
    const b = await measureChild(process.execPath, [VX, 'translate', '--to', 'de', '--file', big, '--concurrency', '4', '--memory', join(dir, 'big.tm')], { env });
    report(`vx translate peak RSS at ${bigLines} lines with a fresh memory vs 150 MB`, b.rss / 1024, 150, 1, { unit: 'MB' });
    console.log(`      ${bigLines} lines with a fresh memory: ${(b.ms / 1000).toFixed(1)} s, CPU ${(b.cpu / 1000).toFixed(1)} s`);
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await translateReuse();
