// Shared helpers of the benchmarks: interleaved timing (the machines are shared and noisy, so
// every candidate and its baseline run in alternation, in a shuffled order each round, and the
// medians are compared), and a one-line report of a ratio against its goal.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const VX = join(ROOT, 'bin', 'vx.js');

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function shuffle(xs) {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function runOnce(file, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(file, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${file} ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      else resolve(ms);
    });
  });
}

/**
 * Runs each named command `rounds` times, interleaved in a shuffled order each round (servers
 * of the benchmark live in this process, so the children are awaited, never run synchronously);
 * returns the median wall milliseconds per name.
 */
export async function timeCommands(cmds, { rounds = 30, warmup = 3, env = process.env } = {}) {
  const times = Object.fromEntries(Object.keys(cmds).map((k) => [k, []]));
  for (let r = -warmup; r < rounds; r++) {
    for (const name of shuffle(Object.keys(cmds))) {
      const [file, ...args] = cmds[name];
      const ms = await runOnce(file, args, env);
      if (r >= 0) times[name].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** Runs a command asynchronously; resolves with wall ms, peak RSS (kB, from /usr/bin/time if present) and output. */
export function runMeasured(file, args, { env = process.env, input } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(file, args, { env, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let out = 0;
    let err = '';
    child.stdout.on('data', (b) => (out += b.length));
    child.stderr.on('data', (b) => (err += b));
    if (input) {
      input.pipe(child.stdin);
      child.stdin.on('error', () => {});
    }
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${file} ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      else resolve({ ms, outBytes: out, stderr: err });
    });
  });
}

/**
 * Runs a command with stdout to /dev/null under GNU time: wall ms, peak RSS (kB) and the CPU time
 * of the command itself (user + system, ms: on a shared, loaded machine wall time says little).
 */
export function measureChild(file, args, { env = process.env, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', 'bench-time %U %S %M', file, ...args], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const m = /bench-time ([\d.]+) ([\d.]+) (\d+)/.exec(err);
      if (code !== 0 || !m) reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(-1500)}`));
      else resolve({ ms, cpu: (Number(m[1]) + Number(m[2])) * 1000, rss: Number(m[3]), stderr: err });
    });
  });
}

const results = [];
/** Prints and records one target: the ratio, the two medians and the goal. */
export function report(target, value, baseline, goal, { unit = 'ms', higherIsBetter = false, note = '', informational = false } = {}) {
  const ratio = value / baseline;
  const ok = higherIsBetter ? ratio >= goal : ratio <= goal;
  const measured = `${ratio.toFixed(2)}x (${value.toFixed(1)} ${unit} vs baseline ${baseline.toFixed(1)} ${unit})${note ? ` ${note}` : ''}`;
  const goalText = `${higherIsBetter ? '>=' : '<='} ${goal}x`;
  console.log(`${informational ? 'INFO' : ok ? 'PASS' : 'MISS'}  ${target}: ${measured.replace(')', `; goal ${goalText})`)}`);
  results.push({ target, ratio, value, baseline, goal, ok, informational, measured, goalText });
  return ok;
}

/** The targets (the informational lines left out). */
export function allResults() {
  return results.filter((r) => !r.informational);
}

/** The markdown table of every line reported in this run (for bench/README.md). */
export function resultsTable() {
  const cell = (s) => s.replace(/\|/g, '\\|');
  const rows = results.map((r) => `| ${cell(r.target.trim())} | ${r.informational ? '(information)' : r.goalText} | ${cell(r.measured)}${r.informational || r.ok ? '' : ' **missed**'} |`);
  return ['| target | goal | measured |', '|---|---|---|', ...rows].join('\n');
}
