// A glossary's cost: `vx translate` of 100,000 lines with a 1,000-term glossary against the same
// run without one, in CPU seconds of the vx process (user + system, from /usr/bin/time), 7
// interleaved rounds after 2 not counted, against a local translate server that echoes what it
// gets with each dictionary element replaced by its translation, as the service does. One line in
// five holds a term.
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { translateServer } from './servers.mjs';
import { median, report, VX } from './lib.mjs';

const TERMS = 1_000;
const words = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'morning', 'report', 'quarterly', 'invoice', 'shipping'];
const term = (i) => `part${i} assembly`;

async function makeInput(path, lines) {
  const out = createWriteStream(path);
  for (let i = 0; i < lines; i++) {
    let s = `Line ${i}:`;
    for (let w = 0; w < 4; w++) s += ` ${words[(i * 7 + w * 3) % words.length]}`;
    if (i % 5 === 0) s += ` with the ${term((i * 13) % TERMS)}`;
    if (!out.write(`${s}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function makeGlossary(path) {
  const rows = ['en,de'];
  for (let i = 0; i < TERMS; i++) rows.push(`${term(i)},Teil${i}-Baugruppe`);
  writeFileSync(path, `${rows.join('\n')}\n`);
}

/** CPU seconds (user + system) of one run, from /usr/bin/time. */
function cpu(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => {
      const m = /(\d+\.\d+) (\d+\.\d+)\s*$/.exec(err);
      if (code !== 0 || !m) reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(-1500)}`));
      else resolve(Number(m[1]) + Number(m[2]));
    });
  });
}

export async function translateGlossary({ rounds = 7, lines = 100_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-glossary-'));
  const input = join(dir, 'lines.txt');
  const glossary = join(dir, 'terms.csv');
  await makeInput(input, lines);
  makeGlossary(glossary);
  const server = await translateServer();
  const env = { ...process.env, VX_CONFIG_DIR: join(dir, 'cfg'), VX_TRANSLATOR_ENDPOINT: server.url, VX_TRANSLATOR_KEY: 'bench-key' };
  const base = [VX, 'translate', '--to', 'de', '--from', 'en', '--file', input];
  try {
    const plain = [];
    const withGlossary = [];
    // (two rounds first that are not counted: the page cache and the CPU's clocks settle after the benchmark before)
    for (let r = -2; r < rounds; r++) {
      const keep = (list) => (t) => r >= 0 && list.push(t);
      const runs = [async () => keep(plain)(await cpu(base, env)), async () => keep(withGlossary)(await cpu([...base, '--glossary', glossary], env))];
      for (const f of r % 2 ? runs.reverse() : runs) await f();
    }
    report(`vx translate ${lines} lines with a ${TERMS}-term glossary (a term in one line of five), CPU vs without`, median(withGlossary), median(plain), 1.2, { unit: 's' });
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
