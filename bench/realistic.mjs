// Realistic translation input for the volume benchmarks: ~40% of the lines are unique (log-like
// sentences with a running number), ~60% are drawn Zipf-like (p(k) ~ 1/k) from 2,000 common
// phrases, spread through the whole file, so repeats come back near and far. Deterministic (a
// seeded generator): the same arguments make the same file. ASCII only, so that characters, UTF-16
// units and bytes are one count. The distinct characters are counted as the file is written
// (unique lines contain '#', no phrase does), without keeping the lines.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const WORDS = (
  'account address amount approve archive balance billing cancel change check close confirm contact copy create customer ' +
  'date default delete delivery details discount document download edit email error export file filter form history import ' +
  'invoice item language list load message name network new notice open order password payment period phone price print ' +
  'profile quantity receipt refund report request reset review save search select send settings shipping status stock ' +
  'summary supplier tax total transfer update upload user value warehouse'
).split(' ');
const VERBS = ['Please', 'Could not', 'Unable to', 'Click to', 'You can', 'Do you want to', 'We will', 'Remember to'];

/** A small seeded generator (mulberry32): the same seed, the same file. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` distinct common phrases (UI strings and short sentences), 10-60 characters. */
export function phrases(n, rnd = random(7)) {
  const out = new Set();
  while (out.size < n) {
    const w = () => WORDS[Math.floor(rnd() * WORDS.length)];
    const kind = rnd();
    const first = w();
    const s = kind < 0.4 ? `${first[0].toUpperCase()}${first.slice(1)} ${w()}` : kind < 0.8 ? `${VERBS[Math.floor(rnd() * VERBS.length)]} ${w()} the ${w()} ${w()}.` : `The ${w()} ${w()} is ${w()} for this ${w()}.`;
    out.add(s);
  }
  return [...out];
}

/** A sampler of 0..n-1 with p(k) ~ 1/(k+1) (inverse of the cumulative weights, by bisection). */
function zipf(n, rnd) {
  const cum = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cum[k] = sum += 1 / (k + 1);
  return () => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * Writes `lines` realistic lines to `path`; resolves with the input's counts: `distinct` texts and
 * their `distinctChars`, the `unique` lines, the common phrases used.
 */
export async function writeRealistic(path, lines, { unique = 0.4, common = 2_000, seed = 1 } = {}) {
  const rnd = random(seed);
  const list = phrases(common);
  const draw = zipf(common, rnd);
  const used = new Uint8Array(common);
  const out = createWriteStream(path);
  let distinctChars = 0;
  let uniqueLines = 0;
  let buf = '';
  for (let i = 0; i < lines; i++) {
    let s;
    if (rnd() < unique) {
      const w = () => WORDS[Math.floor(rnd() * WORDS.length)];
      s = `${VERBS[i % VERBS.length]} ${w()} ${w()} #${i + 1} for ${w()} ${Math.floor(rnd() * 1000)}`;
      uniqueLines++;
      distinctChars += s.length;
    } else {
      const k = draw();
      s = list[k];
      if (!used[k]) {
        used[k] = 1;
        distinctChars += s.length;
      }
    }
    buf += `${s}\n`;
    if (buf.length > 65536) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
  const phrasesUsed = used.reduce((a, b) => a + b, 0);
  return { lines, distinct: uniqueLines + phrasesUsed, distinctChars, unique: uniqueLines, phrasesUsed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [path, n] = process.argv.slice(2);
  console.log(await writeRealistic(path, Number(n ?? 1_000_000)));
}
