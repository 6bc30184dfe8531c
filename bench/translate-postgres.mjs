// The translation memory in PostgreSQL, against a local translate server that bills and answers
// `[de] <text>`, and a throwaway PostgreSQL server with its default durability (VX_BENCH_PG_URL
// names another one; without either the benchmark says so and reports nothing):
// - one run of 100,000 lines with the memory in PostgreSQL against the same run with the memory
//   file (LMDB), wall time, fresh (every line stored) and rerun (every line a hit): goal >= 0.5x;
// - 4 runs at once over overlapping inputs (20,000 strings shared by all four among 200,000 lines)
//   into one PostgreSQL memory: billed / distinct characters <= 1.01, every output line right, and
//   the 4 run again bill nothing.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from './servers.mjs';
import { median, report, ROOT, runMeasured, VX } from './lib.mjs';

/** A translate server that answers `[<to>] <text>` and counts the characters it bills. */
async function billingServer() {
  const stats = { billed: 0 };
  const s = await listen((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const to = new URL(req.url, 'http://x').searchParams.getAll('to');
      const items = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      let chars = 0;
      for (const it of items) chars += [...(it.Text ?? it.text)].length;
      stats.billed += chars * to.length;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-metered-usage': String(chars * to.length) });
      res.end(JSON.stringify(items.map((it) => ({ translations: to.map((t) => ({ text: `[${t}] ${it.Text ?? it.text}`, to: t })) }))));
    });
  });
  return { ...s, stats };
}

function sh(script, env = {}) {
  return new Promise((resolve) => {
    const c = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (b) => (out += b));
    c.stderr.on('data', (b) => (out += b));
    c.on('close', (code) => resolve({ code, out }));
  });
}

/** The PostgreSQL server: VX_BENCH_PG_URL, else a throwaway one (.ci/postgres.sh, durable). */
async function postgres(dir) {
  if (process.env.VX_BENCH_PG_URL) return { url: process.env.VX_BENCH_PG_URL, stop: async () => undefined };
  const envFile = join(dir, 'pg.env');
  const r = await sh(`. .ci/postgres.sh && pg_start ${envFile}`, { PG_DURABLE: '1' });
  const url = /VX_TEST_PG_URL=(\S+)/.exec(r.code === 0 ? readFileSync(envFile, 'utf8') : '')?.[1];
  if (!url) throw new Error(`no PostgreSQL server: ${r.out.trim() || 'pg_start failed'} (set VX_BENCH_PG_URL, or run as root with Debian's postgresql)`);
  return { url, stop: () => sh(`. .ci/postgres.sh && pg_stop ${envFile}`) };
}

/** A new database on the server; its URL. */
async function database(url, name) {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function writeLines(path, lines) {
  const out = createWriteStream(path);
  for (const l of lines) if (!out.write(`${l}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

function vx(server, dir, args) {
  const env = { ...process.env, VX_CONFIG_DIR: join(dir, 'cfg'), VX_TRANSLATOR_ENDPOINT: server.url, VX_TRANSLATOR_KEY: 'bench-key' };
  return runMeasured(process.execPath, [VX, 'translate', ...args], { env });
}

/** 100,000 lines, a memory file against a PostgreSQL memory: fresh and rerun, interleaved rounds. */
async function oneRun(server, dir, url, { lines = 100_000, rounds = 3 } = {}) {
  const input = join(dir, 'lines.txt');
  await writeLines(
    input,
    Array.from({ length: lines }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog`),
  );
  const args = (mem) => ['--to', 'de', '--from', 'en', '-f', input, '--memory', mem, '-o', 'none', '--concurrency', '4'];
  const t = { lmdbFresh: [], lmdbRerun: [], pgFresh: [], pgRerun: [] };
  for (let r = 0; r < rounds; r++) {
    const file = join(dir, `r${r}.tm`);
    const db = await database(url, `vx_bench_one_${process.pid}_${r}`);
    const runs = [
      async () => {
        t.lmdbFresh.push((await vx(server, dir, args(file))).ms);
        t.lmdbRerun.push((await vx(server, dir, args(file))).ms);
      },
      async () => {
        t.pgFresh.push((await vx(server, dir, args(db))).ms);
        t.pgRerun.push((await vx(server, dir, args(db))).ms);
      },
    ];
    for (const f of r % 2 ? runs.reverse() : runs) await f();
  }
  const m = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
  report(`translate memory in PostgreSQL, ${lines.toLocaleString('en-US')} lines, fresh (every line stored): speed vs the memory file (LMDB)`, m.lmdbFresh, m.pgFresh, 0.5, { higherIsBetter: true, note: `(PostgreSQL ${m.pgFresh.toFixed(0)} ms, file ${m.lmdbFresh.toFixed(0)} ms)` });
  report(`translate memory in PostgreSQL, ${lines.toLocaleString('en-US')} lines, rerun (every line a hit): speed vs the memory file (LMDB)`, m.lmdbRerun, m.pgRerun, 0.5, { higherIsBetter: true, note: `(PostgreSQL ${m.pgRerun.toFixed(0)} ms, file ${m.lmdbRerun.toFixed(0)} ms)` });
}

/** 4 runs at once into one PostgreSQL memory, 20,000 strings shared among 200,000 lines. */
async function fourAtOnce(server, dir, url, { runs = 4, perRun = 50_000, shared = 20_000 } = {}) {
  const db = await database(url, `vx_bench_four_${process.pid}`);
  const common = Array.from({ length: shared }, (_, i) => `Shared string ${i}: the settings of the report`);
  const inputs = [];
  const distinct = new Set(common);
  for (let k = 0; k < runs; k++) {
    // the shared strings in the same order in every run (so that the runs want them at the same
    // time), one in every 2.5 lines, among lines of the run's own
    const lines = [];
    let s = 0;
    for (let i = 0; i < perRun; i++) {
      const own = `Run ${k} line ${i}: a sentence only this run has`;
      const take = s < shared && (i * shared) / perRun >= s;
      lines.push(take ? common[s++] : own);
      if (!take) distinct.add(own);
    }
    const f = join(dir, `run${k}.txt`);
    await writeLines(f, lines);
    inputs.push({ file: f, lines, out: join(dir, `run${k}.out`) });
  }
  const distinctChars = [...distinct].reduce((a, t) => a + [...t].length, 0);
  const all = () => Promise.all(inputs.map((x) => vx(server, dir, ['--to', 'de', '--from', 'en', '-f', x.file, '--memory', db, '--out', x.out, '--concurrency', '4'])));
  const before = server.stats.billed;
  const t0 = Date.now();
  await all();
  const ms = Date.now() - t0;
  const billed = server.stats.billed - before;
  let wrong = 0;
  for (const x of inputs) {
    const out = readFileSync(x.out, 'utf8').split('\n');
    x.lines.forEach((l, i) => out[i] !== `[de] ${l}` && wrong++);
  }
  console.log(`      ${runs} runs at once, ${(runs * perRun).toLocaleString('en-US')} lines, ${distinct.size.toLocaleString('en-US')} distinct: billed ${billed.toLocaleString('en-US')} of ${distinctChars.toLocaleString('en-US')} distinct characters in ${(ms / 1000).toFixed(1)} s; wrong output lines: ${wrong}`);
  report(`translate memory in PostgreSQL, ${runs} runs at once (${shared.toLocaleString('en-US')} shared strings among ${(runs * perRun).toLocaleString('en-US')} lines): billed / distinct characters`, billed, distinctChars, 1.01, { unit: 'chars' });
  report(`  every output line of the ${runs} runs right: wrong lines + 1`, wrong + 1, 1, 1, { unit: 'lines+1' });
  const again = server.stats.billed;
  await all();
  report(`translate memory in PostgreSQL, the ${runs} runs again: billed characters + 1 (goal 0)`, server.stats.billed - again + 1, 1, 1, { unit: 'chars+1' });
}

/** `parts`: which cases (`one`, `four`; `node bench/translate-postgres.mjs four` runs the 4 runs at once alone) */
export async function translatePostgres(parts = ['one', 'four']) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-pg-'));
  const server = await billingServer();
  let pg;
  try {
    pg = await postgres(dir);
  } catch (e) {
    console.log(`SKIP  translate memory in PostgreSQL: ${e.message}`);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  try {
    if (parts.includes('one')) await oneRun(server, dir, pg.url);
    if (parts.includes('four')) await fourAtOnce(server, dir, pg.url);
  } finally {
    await pg.stop();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await translatePostgres(process.argv.length > 2 ? process.argv.slice(2) : undefined);
