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
    // CPU seconds of vx itself (GNU time): on a shared, loaded machine wall time says little
    const child = spawn('/usr/bin/time', ['-f', 'vx-cpu %U %S', process.execPath, VX, ...args], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) return reject(new Error(`vx ${args.join(' ')} exited ${code}: ${err.slice(-1500)}`));
      const m = /sent ([\d,]+) distinct texts? in ([\d,]+) requests?/.exec(err);
      const cpu = /vx-cpu ([\d.]+) ([\d.]+)/.exec(err);
      resolve({ ms, cpu: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, texts: Number(m?.[1].replaceAll(',', '') ?? NaN), requests: Number(m?.[2].replaceAll(',', '') ?? NaN) });
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
    const f = median(full.map((x) => x.cpu));
    const u = median(unchanged.map((x) => x.cpu));
    const i = median(incremental.map((x) => x.cpu));
    const wall = (xs) => `${(median(xs.map((x) => x.ms)) / 1000).toFixed(2)} s`;
    console.log(
      `      CPU (wall): full sync of ${units} units x ${langs.length} languages ${(f / 1000).toFixed(2)} s (${wall(full)}), ${full[0].texts} texts in ${full[0].requests} requests; ` +
        `nothing changed ${(u / 1000).toFixed(2)} s (${wall(unchanged)}), ${unchanged[0].requests} requests; ${changed} changed ${(i / 1000).toFixed(2)} s (${wall(incremental)}), ${last.texts} texts in ${last.requests} request(s)`,
    );
    report(`vx translate sync after changing ${changed} of ${units} units: texts sent per language vs changed`, last.texts, changed, 1, { unit: 'texts' });
    report(`vx translate sync with nothing changed: requests`, unchanged[0].requests + 1, 1, 1, { unit: 'requests+1' });
    // time is reported, not a target: reading, checking and re-rendering every file is the floor (the 'nothing changed' figure)
    report(`vx translate sync after changing ${changed} of ${units} units: CPU time vs the full sync`, i, f, 1, { informational: true });
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await files();
