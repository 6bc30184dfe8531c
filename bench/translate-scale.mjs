// Paying once at real scale, against a local translate server that counts what it bills, on
// realistic input (bench/realistic.mjs: ~40% unique lines, ~60% drawn Zipf-like from 2,000 common
// phrases spread through the file):
// - translateScale: 1,000,000 and 10,000,000 lines to two targets, no memory: billed / (distinct
//   characters x targets), goal <= 1.01, and the peak RSS, goal <= 150 MB;
// - translateConcurrent: 4 runs at once over overlapping inputs into one local memory: billed /
//   distinct characters, goal <= 1.01;
// - translateMixed: 100,000 lines against a raw client that dedupes (bench/raw-translate-dedupe.cjs),
//   same concurrency, without a memory (goal >= 0.8x), with a fresh memory (>= 0.6x) and again
//   (>= 0.8x): CPU time of the client (the machine is shared: what the client spends is what it
//   controls) and wall time, interleaved rounds, medians.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { random, writeRealistic } from './realistic.mjs';
import { translateServer } from './servers.mjs';
import { measureChild, median, report, ROOT, VX } from './lib.mjs';

function envFor(server, dir) {
  return { ...process.env, VX_CONFIG_DIR: join(dir, 'cfg'), VX_TRANSLATOR_ENDPOINT: server.url, VX_TRANSLATOR_KEY: 'bench-key', TMPDIR: dir };
}

const mb = (kb) => kb / 1024;

/** One run of `lines` realistic lines to de,fr without a memory: the billed ratio and the peak RSS. */
async function scaleRun(dir, server, lines) {
  const file = join(dir, `realistic-${lines}.txt`);
  const info = await writeRealistic(file, lines);
  const before = server.billed();
  const r = await measureChild(process.execPath, [VX, 'translate', '--to', 'de,fr', '--file', file, '--concurrency', '4', '-o', 'none'], { env: envFor(server, dir) });
  rmSync(file);
  const billed = server.billed() - before;
  const what = `${lines.toLocaleString('en-US')} realistic lines (${info.distinct.toLocaleString('en-US')} distinct), 2 targets, no memory`;
  console.log(`      ${what}: ${(r.ms / 1000).toFixed(1)} s, CPU ${(r.cpu / 1000).toFixed(1)} s, peak RSS ${mb(r.rss).toFixed(0)} MB`);
  report(`vx translate ${what}: billed / (distinct characters x targets)`, billed, info.distinctChars * 2, 1.01, { unit: 'chars' });
  report(`vx translate ${what}: peak RSS vs 150 MB`, mb(r.rss), 150, 1, { unit: 'MB' });
}

export async function translateScale({ sizes = [1_000_000, 10_000_000] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-scale-'));
  const server = await translateServer();
  try {
    for (const lines of sizes) await scaleRun(dir, server, lines);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `runs` inputs sharing `shared` strings (each in an order of its own) and `own` strings each: the
 * files, and the distinct characters of them all.
 */
function overlapping(dir, runs, shared, own) {
  const rnd = random(11);
  const common = Array.from({ length: shared }, (_, i) => `Shared string number ${i} of the product catalogue`);
  let distinct = common.reduce((a, s) => a + s.length, 0);
  const files = [];
  for (let k = 0; k < runs; k++) {
    const lines = [...common];
    for (let i = 0; i < own; i++) lines.push(`Run ${k} own string ${i}`);
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
    for (let i = 0; i < own; i++) distinct += `Run ${k} own string ${i}`.length;
    const file = join(dir, `run-${k}.txt`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    files.push(file);
  }
  return { files, distinct };
}

export async function translateConcurrent({ runs = 4, shared = 20_000, own = 10_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-concurrent-'));
  // a service's latency: the runs overlap, and each one's texts are in flight while the others read them
  const server = await translateServer({ delayMs: 20 });
  try {
    const { files, distinct } = overlapping(dir, runs, shared, own);
    const memory = join(dir, 'shared.tm');
    const env = envFor(server, dir);
    const t0 = performance.now();
    await Promise.all(files.map((f) => measureChild(process.execPath, [VX, 'translate', '--to', 'de', '--file', f, '--memory', memory, '--concurrency', '4', '-o', 'none'], { env })));
    console.log(`      ${runs} runs of ${(shared + own).toLocaleString('en-US')} lines (${shared.toLocaleString('en-US')} shared) at once into one memory: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    report(`vx translate: ${runs} concurrent runs over overlapping inputs into one local memory: billed / distinct characters`, server.billed(), distinct, 1.01, { unit: 'chars' });
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function translateMixed({ lines = 100_000, rounds = 5, concurrency = 4 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-mixed-'));
  const server = await translateServer();
  try {
    const file = join(dir, 'mixed.txt');
    await writeRealistic(file, lines, { seed: 3 });
    const env = envFor(server, dir);
    const vx = (memory) => measureChild(process.execPath, [VX, 'translate', '--to', 'de', '--file', file, '--concurrency', String(concurrency), ...(memory ? ['--memory', memory] : [])], { env });
    const raw = (memory) => measureChild(process.execPath, [join(ROOT, 'bench', 'raw-translate-dedupe.cjs'), server.url, file, 'de', String(concurrency), ...(memory ? [memory] : [])], { env });
    const runs = { raw: [], plain: [], fresh: [], rerun: [], floorFresh: [], floorRerun: [] };
    for (let r = 0; r < rounds; r++) {
      const memory = join(dir, `round-${r}.tm`);
      const floor = join(dir, `floor-${r}.tm`);
      const order = [
        async () => runs.raw.push(await raw()),
        async () => {
          runs.floorFresh.push(await raw(floor));
          runs.floorRerun.push(await raw(floor));
        },
        async () => runs.plain.push(await vx()),
        async () => {
          runs.fresh.push(await vx(memory));
          runs.rerun.push(await vx(memory));
        },
      ];
      for (const f of r % 2 ? order.reverse() : order) await f();
    }
    const cpu = (xs) => median(xs.map((x) => x.cpu));
    const wall = (xs) => median(xs.map((x) => x.ms));
    for (const [name, xs, goal] of [
      ['no memory', runs.plain, 0.8],
      ['a fresh memory (every answer stored)', runs.fresh, 0.6],
      ['a memory rerun (every line a hit)', runs.rerun, 0.8],
    ]) {
      report(`vx translate ${lines.toLocaleString('en-US')} mixed lines with ${name} vs a raw client that dedupes, CPU time`, cpu(runs.raw), cpu(xs), goal, { higherIsBetter: true });
      report(`  the same, wall time`, wall(runs.raw), wall(xs), goal, { higherIsBetter: true, informational: true });
    }
    // the floor with a memory: the raw client with an LMDB store of its own (a lookup per distinct
    // text, a put per answer), as lean as lmdb-js allows
    for (const [what, floor, xs, goal] of [
      ['fresh memory', runs.floorFresh, runs.fresh, 0.6],
      ['memory rerun', runs.floorRerun, runs.rerun, 0.8],
    ]) {
      report(`  the floor with a ${what}: the raw client with an LMDB store (bench/raw-translate-dedupe.cjs <memory>) vs the raw client, CPU time`, cpu(runs.raw), cpu(floor), goal, {
        higherIsBetter: true,
        informational: true,
        note: `(vx ${cpu(xs).toFixed(0)} ms is ${(cpu(floor) / cpu(xs)).toFixed(2)}x that floor)`,
      });
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await translateMixed();
  await translateConcurrent();
  await translateScale();
}
