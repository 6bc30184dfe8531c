// Incremental locale-file sync: `vx translate sync` of an i18next file of 10,000 units to 5
// languages, then 10 units changed and synced again. The second sync must send those 10 texts and
// nothing else (once, to all 5 languages: one request), and take a fraction of the first run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { translateServer } from './servers.mjs';
import { median, report, VX } from './lib.mjs';

function makeSource(units) {
  const groups = {};
  for (let i = 0; i < units; i++) {
    const g = `section${Math.floor(i / 100)}`;
    groups[g] ??= {};
    groups[g][`key${i}`] = i % 3 === 0 ? `Hello {{name}}, order ${i} has %d items` : i % 3 === 1 ? `Click <b>here</b> to open report ${i}` : `Shipment ${i} left the warehouse on {0}`;
  }
  return `${JSON.stringify(groups, null, 2)}\n`;
}

function run(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [VX, ...args], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) return reject(new Error(`vx ${args.join(' ')} exited ${code}: ${err.slice(-1500)}`));
      const m = /sent ([\d,]+) distinct texts? in ([\d,]+) requests?/.exec(err);
      resolve({ ms, texts: Number(m?.[1].replaceAll(',', '') ?? NaN), requests: Number(m?.[2].replaceAll(',', '') ?? NaN) });
    });
  });
}

export async function files({ units = 10_000, changed = 10, langs = ['de', 'fr', 'it', 'ja', 'pl'], rounds = 3 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-files-'));
  const server = await translateServer();
  const env = { ...process.env, VX_CONFIG_DIR: join(dir, 'cfg'), VX_TRANSLATOR_ENDPOINT: server.url, VX_TRANSLATOR_KEY: 'bench-key' };
  const args = ['translate', 'sync', 'en.json', '--to', langs.join(','), '--verbose', '-o', 'none'];
  try {
    const full = [];
    const incremental = [];
    const unchanged = [];
    let last;
    for (let r = 0; r < rounds; r++) {
      rmSync(join(dir, 'work'), { recursive: true, force: true });
      const work = join(dir, 'work');
      (await import('node:fs')).mkdirSync(work);
      const src = makeSource(units);
      writeFileSync(join(work, 'en.json'), src);
      full.push(await run(args, env, work));
      unchanged.push(await run(args, env, work));
      // change `changed` units spread over the file
      let text = readFileSync(join(work, 'en.json'), 'utf8');
      for (let k = 0; k < changed; k++) {
        const i = Math.floor((k * units) / changed) + 1;
        text = text.replace(new RegExp(`("key${i}": ")`), `$1Changed ${r}: `);
      }
      writeFileSync(join(work, 'en.json'), text);
      last = await run(args, env, work);
      incremental.push(last);
    }
    const f = median(full.map((x) => x.ms));
    const u = median(unchanged.map((x) => x.ms));
    const i = median(incremental.map((x) => x.ms));
    console.log(
      `      full sync of ${units} units x ${langs.length} languages: ${(f / 1000).toFixed(2)} s, ${full[0].texts} texts in ${full[0].requests} requests; ` +
        `nothing changed: ${u.toFixed(0)} ms, ${unchanged[0].requests} requests; ${changed} changed: ${i.toFixed(0)} ms, ${last.texts} texts in ${last.requests} request(s)`,
    );
    report(`vx translate sync after changing ${changed} of ${units} units: texts sent per language vs changed`, last.texts, changed, 1, { unit: 'texts' });
    report(`vx translate sync with nothing changed: requests`, unchanged[0].requests + 1, 1, 1, { unit: 'requests+1' });
    report(`vx translate sync after changing ${changed} of ${units} units: time vs the full sync`, i, f, 0.5);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await files();
