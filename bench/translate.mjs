// vx translate at volume: 100,000 lines against a bare client doing the same batches with 4
// requests in flight, and the peak RSS of vx as the input grows from 100,000 to 1,000,000 lines.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { translatorServer } from './servers.mjs';
import { report, timeCommands, ROOT, VX } from './lib.mjs';

function lines(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(`This is line number ${i} of the benchmark file, with a few more words.`);
  return `${out.join('\n')}\n`;
}

/** peak RSS in kB of one run, from /usr/bin/time (asynchronous: the server lives in this process) */
function peakRss(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, VX, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(err.trim().split('\n').pop())) : reject(new Error(`vx exited ${code}: ${err.slice(-500)}`))));
  });
}

export async function translate({ rounds = 7, small = 100_000, large = 1_000_000 } = {}) {
  const server = await translatorServer();
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-translate-'));
  const env = { ...process.env, VX_CONFIG_DIR: dir, VX_TRANSLATOR_ENDPOINT: server.url, VX_TRANSLATOR_KEY: 'bench-key' };
  const smallFile = join(dir, 'small.txt');
  writeFileSync(smallFile, lines(small));
  try {
    const url = `${server.url}/translate?api-version=3.0&to=de&from=en`;
    const m = await timeCommands(
      {
        raw: [process.execPath, join(ROOT, 'bench', 'raw-translate.cjs'), url, smallFile],
        vx: [process.execPath, VX, 'translate', '--to', 'de', '--from', 'en', '-f', smallFile],
      },
      { rounds, warmup: 1, env },
    );
    report(`vx translate of ${small.toLocaleString('en-US')} lines vs bare client`, m.vx, m.raw, 1.25);
    if (existsSync('/usr/bin/time')) {
      const largeFile = join(dir, 'large.txt');
      writeFileSync(largeFile, lines(large));
      const a = await peakRss(['translate', '--to', 'de', '--from', 'en', '-f', smallFile], env);
      const b = await peakRss(['translate', '--to', 'de', '--from', 'en', '-f', largeFile], env);
      report(`vx translate peak RSS, ${large.toLocaleString('en-US')} vs ${small.toLocaleString('en-US')} lines`, b, a, 1.3, { unit: 'kB' });
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await translate();
