// Bulk ERP work over $batch (issue 17), against one minimal local service (bench/servers.mjs
// bulkServer), every candidate and its baseline interleaved:
// - import of 10,000 salespeople: `vx erp salespeople import` vs a shell loop of
//   `vx erp salespeople-purchasers create` (200 runs timed, extrapolated to 10,000), and vs a
//   minimal raw $batch client with the same batch size (100) and concurrency (5);
// - export of 100,000 records: `vx erp salespeople export -o ndjson` vs a raw paging client
//   writing the same NDJSON; and vx's peak RSS exporting 100,000 and 1,000,000 records.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bulkServer } from './servers.mjs';
import { median, report, ROOT, VX } from './lib.mjs';

const COMPANY = '11111111-2222-3333-4444-555555555555';

// (the local server limits nothing: vx's pacing, which counts each operation of a $batch toward
// the user's 6,000 requests per 5 minutes, is raised out of the way so that the clients' own cost is compared)
function envFor(url, dir, company = COMPANY, token = 'bench-token') {
  return { ...process.env, VX_CONFIG_DIR: join(dir, 'config'), VX_ERP_PREFIX: url, VX_ERP_TOKEN: token, VX_ERP_COMPANY: company, VX_ERP_RATE_LIMIT: '1000000000/300' };
}

/** Runs a command; resolves with wall ms and (when wrapped by /usr/bin/time) peak RSS in MB; `stdin`: a file piped to it. */
function run(cmd, args, env, { rss = false, stdin } = {}) {
  return new Promise((resolve, reject) => {
    const [file, argv] = rss ? ['/usr/bin/time', ['-f', 'maxrss=%M', cmd, ...args]] : [cmd, args];
    const t0 = process.hrtime.bigint();
    const child = spawn(file, argv, { env, stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    if (stdin) createReadStream(stdin).pipe(child.stdin);
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.slice(-1500)}`));
      const m = /maxrss=(\d+)/.exec(err);
      resolve({ ms, rssMb: m ? Number(m[1]) / 1024 : undefined });
    });
  });
}

/** vx import vs the raw $batch client against one server, interleaved; `reset` runs before every run. */
async function importPair(url, dir, csv, { rounds, batchSize, concurrency, reset = async () => {}, company = COMPANY, token = 'bench-token' }) {
  const env = envFor(url, dir, company, token);
  const journal = join(dir, 'people.journal');
  const vxArgs = [VX, 'erp', 'salespeople', 'import', '--file', csv, '--batch-size', String(batchSize), '--concurrency', String(concurrency), '--journal', journal];
  const rawArgs = [join(ROOT, 'bench', 'raw-batch.cjs'), `${url}/api/v2.0/$batch`, csv, String(batchSize), String(concurrency)];
  // the floor: the raw client plus only the row checks, journal and results an import must do (information)
  const floorArgs = [join(ROOT, 'bench', 'raw-batch-journal.cjs'), `${url}/api/v2.0/$batch`, csv, String(batchSize), String(concurrency), join(dir, 'floor.journal')];
  const vx = [];
  const raw = [];
  const floor = [];
  for (let r = -2; r < rounds; r++) {
    const runs = [
      async () => {
        rmSync(journal, { force: true });
        await reset();
        const { ms } = await run(process.execPath, vxArgs, env);
        if (r >= 0) vx.push(ms);
      },
      async () => {
        await reset();
        const { ms } = await run(process.execPath, rawArgs, env);
        if (r >= 0) raw.push(ms);
      },
      async () => {
        await reset();
        const { ms } = await run(process.execPath, floorArgs, env);
        if (r >= 0) floor.push(ms);
      },
    ];
    for (const f of r % 2 ? runs.reverse() : runs) await f();
  }
  return { vx: median(vx), raw: median(raw), floor: median(floor) };
}

export async function bulkImport({ rows = 10_000, loopRuns = 200, rounds = 7, batchSize = 100, concurrency = 5 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-bulk-'));
  const server = await bulkServer();
  try {
    const csv = join(dir, 'people.csv');
    let text = 'code,displayName,commisionPercent\n';
    for (let i = 0; i < rows; i++) text += `P${i},Salesperson ${i},${(i % 10) / 2}\n`;
    writeFileSync(csv, text);
    // a service that does nothing but answer: what is compared is the clients' own cost
    const m = await importPair(server.url, dir, csv, { rounds, batchSize, concurrency });
    const loopScript = `i=0; while [ $i -lt ${loopRuns} ]; do "${process.execPath}" "${VX}" erp salespeople-purchasers create --set code=L$i --set displayName="Salesperson $i" --set commisionPercent=2.5 >/dev/null || exit 1; i=$((i+1)); done`;
    const loop = await run('sh', ['-c', loopScript], envFor(server.url, dir));
    const loop10k = (loop.ms / loopRuns) * rows;
    report(`vx erp salespeople import of ${rows.toLocaleString('en-US')} rows vs a shell loop of create (${loopRuns} runs, ${(loop.ms / loopRuns).toFixed(0)} ms each, extrapolated)`, loop10k, m.vx, 20, { higherIsBetter: true, note: '(speed-up)' });
    report(`vx import throughput vs a raw $batch client (batch ${batchSize}, concurrency ${concurrency}), whole processes`, m.raw, m.vx, 0.9, { higherIsBetter: true, note: `(vx ${m.vx.toFixed(0)} ms, raw ${m.raw.toFixed(0)} ms)` });
    report('  the floor: a minimal client with only the row checks, journal and results an import must do (bench/raw-batch-journal.cjs) vs the raw client', m.raw, m.floor, 0.9, {
      higherIsBetter: true,
      informational: true,
      note: `(floor ${m.floor.toFixed(0)} ms, raw ${m.raw.toFixed(0)} ms; vx is ${(m.floor / m.vx).toFixed(2)}x the floor)`,
    });
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function bulkExport({ records = 100_000, big = 1_000_000, rounds = 7 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-export-'));
  const server = await bulkServer(records);
  try {
    const env = envFor(server.url, dir);
    const first = `${server.url}/api/v2.0/companies(${COMPANY})/salespeoplePurchasers`;
    const vxArgs = [VX, 'erp', 'salespeople', 'export', '-o', 'ndjson'];
    const rawArgs = [join(ROOT, 'bench', 'raw-export.cjs'), first, '500'];
    const vx = [];
    const raw = [];
    let rss100k = 0;
    for (let r = -2; r < rounds; r++) {
      const pair = [
        async () => {
          const m = await run(process.execPath, vxArgs, env, { rss: true });
          if (r >= 0) vx.push(m.ms);
          rss100k = Math.max(rss100k, m.rssMb ?? 0);
        },
        async () => {
          const { ms } = await run(process.execPath, rawArgs, env, { rss: true });
          if (r >= 0) raw.push(ms);
        },
      ];
      if (r % 2) pair.reverse();
      for (const f of pair) await f();
    }
    report(`vx erp salespeople export -o ndjson of ${records.toLocaleString('en-US')} records vs a raw paging client, throughput`, median(raw), median(vx), 0.9, { higherIsBetter: true, note: `(vx ${median(vx).toFixed(0)} ms, raw ${median(raw).toFixed(0)} ms)` });
    await server.close();
    const bigServer = await bulkServer(big);
    try {
      const m = await run(process.execPath, vxArgs, envFor(bigServer.url, dir), { rss: true });
      report(`vx export peak RSS, ${big.toLocaleString('en-US')} vs ${records.toLocaleString('en-US')} records (flat: <= 1.25x; 1M under 150 MB: ${(m.rssMb ?? 0).toFixed(0)} MB, ${(m.ms / 1000).toFixed(1)} s)`, m.rssMb ?? 0, rss100k, 1.25, { unit: 'MB' });
      if (!((m.rssMb ?? Infinity) < 150)) console.log(`MISS  vx export of ${big} records peaked at ${m.rssMb} MB (goal < 150 MB)`);
    } finally {
      await bigServer.close();
    }
  } finally {
    await server.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `vx erp salespeople list -o ndjson` and `-o json` of 1,000,000 records (pages of the service's
 * default 20,000): peak RSS against 150 MB. The records are written as the pages arrive.
 */
export async function bulkList({ records = 1_000_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-list-'));
  const server = await bulkServer(records);
  try {
    for (const format of ['ndjson', 'json']) {
      const m = await run(process.execPath, [VX, 'erp', 'salespeople', 'list', '-o', format], envFor(server.url, dir), { rss: true });
      report(`vx erp salespeople list -o ${format} of ${records.toLocaleString('en-US')} records: peak RSS vs 150 MB (${(m.ms / 1000).toFixed(1)} s)`, m.rssMb ?? Infinity, 150, 1, { unit: 'MB' });
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `rows` lines made by `line(i)` after `head`, a block at a time (the bench holds no input whole either). */
async function writeRows(path, head, rows, line) {
  const out = createWriteStream(path);
  out.write(head);
  for (let i = 0; i < rows; i += 10_000) {
    let block = '';
    for (let k = i; k < Math.min(rows, i + 10_000); k++) block += line(k);
    if (!out.write(block)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * `vx erp salespeople import` of 1,000,000 rows: peak RSS against 150 MB, `-o none` and
 * `-o ndjson`; the rerun that finds every row done in the journal; --update (rows with their id
 * and ETag: PATCHes only); a JSON array piped to standard input (kept in a temporary file, read an
 * element at a time); and the growth from 1,000,000 to 2,000,000 rows (the input is read from the
 * file, not held: <= 1.1x).
 */
export async function bulkImportMemory({ rows = 1_000_000, formats = ['none', 'ndjson'], growth = true, rerun = true, update = true, json = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-import-rss-'));
  const server = await bulkServer();
  const rowsText = (n) => `${n.toLocaleString('en-US')} rows`;
  const csvOf = async (n) => {
    const csv = join(dir, `people-${n}.csv`);
    await writeRows(csv, 'code,displayName,commisionPercent\n', n, (i) => `P${i},Salesperson ${i},${(i % 10) / 2}\n`);
    return csv;
  };
  const importOf = (file, format, extra = [], opts = {}) => run(process.execPath, [VX, 'erp', 'salespeople', 'import', '--file', file, '-o', format, ...extra], envFor(server.url, dir), { rss: true, ...opts });
  try {
    const csv = await csvOf(rows);
    let base;
    for (const format of formats) {
      rmSync(`${csv}.vx-journal`, { force: true });
      const m = await importOf(csv, format);
      if (format === 'none') base = m;
      report(`vx erp salespeople import of ${rowsText(rows)} -o ${format}: peak RSS vs 150 MB (${(m.ms / 1000).toFixed(1)} s)`, m.rssMb ?? Infinity, 150, 1, { unit: 'MB' });
    }
    if (rerun) {
      // (the journal of the last run above: every row done, each skipped from it)
      const m = await importOf(csv, 'none');
      report(`  the rerun of it, every row done in the journal (skipped): peak RSS vs 150 MB (${(m.ms / 1000).toFixed(1)} s)`, m.rssMb ?? Infinity, 150, 1, { unit: 'MB' });
    }
    if (update) {
      const upd = join(dir, 'update.csv');
      await writeRows(upd, 'id,@odata.etag,displayName\n', rows, (i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')},"W/""JzQ0O${i}'""",Renamed ${i}\n`);
      const m = await importOf(upd, 'none', ['--update']);
      report(`vx erp salespeople import --update of ${rowsText(rows)} (id and ETag given: PATCHes) -o none: peak RSS vs 150 MB (${(m.ms / 1000).toFixed(1)} s)`, m.rssMb ?? Infinity, 150, 1, { unit: 'MB' });
    }
    if (json) {
      const arr = join(dir, 'people.json');
      await writeRows(arr, '[\n', rows, (i) => `${i ? ',' : ' '}{"code":"J${i}","displayName":"Salesperson ${i}","commisionPercent":${(i % 10) / 2}}\n`);
      const out = createWriteStream(arr, { flags: 'a' });
      out.end(']\n');
      await once(out, 'finish');
      const m = await importOf('-', 'none', ['--format', 'json', '--journal', join(dir, 'stdin.vx-journal')], { stdin: arr });
      report(`vx erp salespeople import of a JSON array of ${rowsText(rows)} piped to standard input -o none: peak RSS vs 150 MB (${(m.ms / 1000).toFixed(1)} s)`, m.rssMb ?? Infinity, 150, 1, { unit: 'MB' });
    }
    if (growth) {
      base ??= await importOf(csv, 'none');
      const twice = await csvOf(rows * 2);
      const m = await importOf(twice, 'none');
      report(`vx erp salespeople import -o none: peak RSS of ${rowsText(rows * 2)} (${m.rssMb?.toFixed(0)} MB, ${(m.ms / 1000).toFixed(1)} s) vs ${rowsText(rows)}`, m.rssMb ?? Infinity, base.rssMb ?? 1, 1.1, { unit: 'MB' });
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function bulk() {
  await bulkImport();
  await bulkExport();
  await bulkList();
  await bulkImportMemory();
}

if (import.meta.url === `file://${process.argv[1]}`) await bulk();
