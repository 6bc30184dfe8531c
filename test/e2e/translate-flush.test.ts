// vx translate's idle flush: on a live input (a pipe) a partial batch is sent once no line came
// for VX_TRANSLATE_FLUSH_MS (default 1 s), so a slow producer (`tail -f log | vx translate`) sees
// its lines translated before the input ends; results stay in input order, back-pressure holds,
// --out stays atomic, and a regular file sends exactly the batches it always did.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, openSync, closeSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranslateCall } from '../../src/emulator/translator/index.js';
import { translatePlain } from '../../src/emulator/translator/text.js';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv, BIN, removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const calls = () => e2e.emu.state.translator.calls as TranslateCall[];
const sizes = () => calls().map((c) => c.texts.length);
/** the translator requests as they arrived (before any fault delay), with their item counts */
const arrivals = () =>
  e2e.emu.log.filter((l) => l.family === 'translator').map((l) => ({ time: l.time, status: l.status, items: (JSON.parse(l.body ?? '[]') as unknown[]).length }));
const expected = (line: string, to = 'de') => translatePlain(line, `[${to}] `).text;
const out = (lines: string[]) => lines.map((l) => `${expected(l)}\n`).join('');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const waitFor = async (what: string, cond: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
};
const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

interface Live {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  closed: Promise<number | null>;
  write(text: string): void;
  end(text?: string): void;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** vx with standard input a pipe the test writes to over time */
function live(args: string[], env: Record<string, string> = {}, cwd?: string): Live {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...baseEnv(e2e.configDir), ...e2e.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'], cwd });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
  child.stdin.on('error', () => undefined);
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    closed: new Promise((resolve) => child.on('close', resolve)),
    write: (t) => void child.stdin.write(t),
    end: (t) => void (t === undefined ? child.stdin.end() : child.stdin.end(t)),
  };
}

const TO = ['translate', '--to', 'de', '--from', 'en'];

describe('translate idle flush (a live input)', () => {
  it('a slowly fed pipe: 3 lines are translated and written after the default 1 s of quiet, before the input ends', async () => {
    const vx = live(TO);
    const a = lines('first', 3);
    const t0 = Date.now();
    vx.write(`${a.join('\n')}\n`);
    await waitFor('the 3 translations', () => vx.stdout() === out(a));
    const waited = Date.now() - t0;
    expect(vx.child.exitCode).toBe(null);
    expect(sizes()).toEqual([3]);
    // not before the delay (the request arrived a second after the lines), not much later either
    expect(arrivals()[0].time - t0).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(5000);
    vx.end();
    expect(await vx.closed).toBe(0);
    expect(vx.stderr()).toBe('');
    expect(sizes()).toEqual([3]);
  });

  it('more lines later: each pause sends what came, full batches are still cut at 1,000, all written in input order', async () => {
    const vx = live(TO, { VX_TRANSLATE_FLUSH_MS: '150' });
    const a = lines('a', 3);
    const b = lines('b', 2);
    const c = lines('c', 1500);
    const d = lines('d', 4);
    vx.write(`${a.join('\n')}\n`);
    await waitFor('a', () => vx.stdout() === out(a));
    expect(sizes()).toEqual([3]);
    // a line in two pieces is one line: the piece alone is not a line and sends nothing
    vx.write('b 0\nb ');
    await sleep(400);
    vx.write('1\n');
    await waitFor('b', () => vx.stdout() === out([...a, ...b]));
    expect(sizes()).toEqual([3, 1, 1]);
    // a burst: 1,000 are sent at once (full), the other 500 after the pause
    vx.write(`${c.join('\n')}\n`);
    await waitFor('c', () => vx.stdout() === out([...a, ...b, ...c]));
    expect(sizes()).toEqual([3, 1, 1, 1000, 500]);
    expect(vx.child.exitCode).toBe(null);
    // the last lines go when the input ends, without waiting for the timer
    vx.write(`${d.slice(0, 2).join('\n')}\n`);
    vx.end(`${d.slice(2).join('\n')}\n`);
    expect(await vx.closed).toBe(0);
    expect(vx.stderr()).toBe('');
    expect(sizes()).toEqual([3, 1, 1, 1000, 500, 4]);
    expect(vx.stdout()).toBe(out([...a, ...b, ...c, ...d]));
    expect(calls().flatMap((x) => x.texts)).toEqual([...a, ...b, ...c, ...d]);
  });

  it('with batches in flight a fast later batch waits for a slow earlier one: output strictly in input order', async () => {
    // the first request is answered after 1.5 s, the later ones at once
    e2e.emu.setFaults('translator/slow:1x,slow-ms:1500');
    const vx = live([...TO, '--concurrency', '4'], { VX_TRANSLATE_FLUSH_MS: '100' });
    const a = lines('slow', 2);
    const b = lines('fast', 3);
    const c = lines('late', 1);
    vx.write(`${a.join('\n')}\n`);
    await waitFor('the first request', () => arrivals().length === 1);
    vx.write(`${b.join('\n')}\n`);
    // the second batch is answered while the first is still out: nothing may be written yet
    await waitFor('the second answer', () => sizes().includes(3));
    expect(arrivals().map((x) => x.items)).toEqual([2, 3]);
    expect(sizes()).toEqual([3]);
    expect(vx.stdout()).toBe('');
    await waitFor('both batches written', () => vx.stdout() === out([...a, ...b]));
    expect(sizes()).toEqual([3, 2]);
    vx.end(`${c.join('\n')}\n`);
    expect(await vx.closed).toBe(0);
    expect(vx.stderr()).toBe('');
    expect(vx.stdout()).toBe(out([...a, ...b, ...c]));
    expect(arrivals().map((x) => x.items)).toEqual([2, 3, 1]);
  });

  it('back-pressure: with --concurrency 1 a flushed batch in flight holds the next lines until it is answered', async () => {
    e2e.emu.setFaults('translator/slow:1x,slow-ms:1200');
    const vx = live([...TO, '--concurrency', '1'], { VX_TRANSLATE_FLUSH_MS: '100' });
    const a = lines('one', 3);
    const b = lines('two', 2);
    vx.write(`${a.join('\n')}\n`);
    await waitFor('the first request', () => arrivals().length === 1);
    vx.write(`${b.join('\n')}\n`);
    await waitFor('all 5 written', () => vx.stdout() === out([...a, ...b]));
    const [first, second] = arrivals();
    expect([first.items, second.items]).toEqual([3, 2]);
    // the second request only left once the first was answered (1.2 s) and the pause had passed
    expect(second.time - first.time).toBeGreaterThanOrEqual(1200);
    vx.end();
    expect(await vx.closed).toBe(0);
    expect(vx.stderr()).toBe('');
    expect(arrivals().map((x) => x.items)).toEqual([3, 2]);
  });

  it('a flushed batch that fails ends the run at once, while the pipe is still open and quiet', async () => {
    e2e.emu.setFaults('translator/500:1x');
    const vx = live([...TO, '--retries', '0'], { VX_TRANSLATE_FLUSH_MS: '100' });
    vx.write('Hello\nWorld\n');
    // nothing more is written and the pipe stays open: vx must notice on its own
    const code = await Promise.race([vx.closed, sleep(10_000).then(() => 'still running')]);
    expect(code).toBe(7);
    expect(vx.stdout()).toBe('');
    expect(vx.stderr()).toMatch(/^vx: HTTP 500 Internal Server Error 500000: emulated fault: HTTP 500 \(request id TRAN\.[0-9A-Z.]+\) \(client trace id [0-9a-f-]{36}\)\nnot translated: lines 1 onwards\n$/);
    expect(arrivals().map((x) => [x.items, x.status])).toEqual([[2, 500]]);
  });

  it('no flush while the feed waits for room: a line held behind a full window is not sent alone', async () => {
    // 5 lines of 12,000 characters to 2 targets: 2 per request (50,000 counted characters); with
    // --concurrency 1 and 300 ms answers the third line waits in the open batch for the first
    // request to be answered, far longer than the 50 ms pause, yet it is not flushed alone
    e2e.emu.setFaults('latency:300');
    const vx = live(['translate', '--to', 'de,fr', '--from', 'en', '--concurrency', '1'], { VX_TRANSLATE_FLUSH_MS: '50' });
    const text = Array.from({ length: 5 }, (_, i) => `${i} ${'w'.repeat(11_998)}`);
    vx.end(`${text.join('\n')}\n`);
    expect(await vx.closed).toBe(0);
    expect(vx.stderr()).toBe('');
    expect(sizes()).toEqual([2, 2, 1]);
    expect(vx.stdout()).toBe(text.map((l) => `de\t${expected(l, 'de')}\nfr\t${expected(l, 'fr')}\n`).join(''));
  });

  it('a too-long line after a pause: the lines the pause sent are written, the run ends with exit 2, nothing from that line on is sent', async () => {
    const vx = live(TO, { VX_TRANSLATE_FLUSH_MS: '100' });
    const a = lines('ok', 2);
    vx.write(`${a.join('\n')}\n`);
    await waitFor('the 2 translations', () => vx.stdout() === out(a));
    vx.write(`after\n${'x'.repeat(50_001)}\n`);
    vx.write('never\n');
    expect(await vx.closed).toBe(2);
    expect(vx.stdout()).toBe(out([...a, 'after']));
    expect(vx.stderr()).toBe(
      'vx: line 4 of standard input is too long: 50,001 characters; one item may have at most 50,000; nothing from this line on was sent\nlines 1-3 were translated and written\n',
    );
    expect(sizes()).toEqual([2, 1]);
  });

  it('one line translated before a too-long line: the hint says "line 1 was translated" (one line, one verb)', async () => {
    const vx = live(TO, { VX_TRANSLATE_FLUSH_MS: '100' });
    const a = lines('ok', 1);
    vx.write(`${a[0]}\n`);
    await waitFor('the translation', () => vx.stdout() === out(a));
    vx.write(`${'x'.repeat(50_001)}\n`);
    expect(await vx.closed).toBe(2);
    expect(vx.stderr()).toBe(
      'vx: line 2 of standard input is too long: 50,001 characters; one item may have at most 50,000; nothing from this line on was sent\nline 1 was translated and written\n',
    );
  });

  it('--out stays atomic: a flushed batch is translated, yet nothing appears under the name until the input ends', async () => {
    const dir = tempDir();
    try {
      const file = join(dir, 'de.txt');
      const vx = live([...TO, '--out', file], { VX_TRANSLATE_FLUSH_MS: '100' }, dir);
      const a = lines('x', 3);
      vx.write(`${a.join('\n')}\n`);
      await waitFor('the flushed request answered', () => sizes().length === 1);
      await sleep(200);
      expect(existsSync(file)).toBe(false);
      expect(readdirSync(dir).filter((f) => !/^\.de\.txt\.[0-9a-f]+\.tmp$/.test(f))).toEqual([]);
      vx.end('y\n');
      expect(await vx.closed).toBe(0);
      expect(vx.stderr()).toBe('');
      expect(vx.stdout()).toBe('');
      expect(readFileSync(file, 'utf8')).toBe(out([...a, 'y']));
      expect(sizes()).toEqual([3, 1]);
      expect(readdirSync(dir)).toEqual(['de.txt']);
    } finally {
      removeDir(dir);
    }
  });

  it('Ctrl-C on a quiet pipe after a flush: exit 130, stdout keeps the flushed lines; with --out nothing under the name', async () => {
    const a = lines('p', 3);
    const vx = live(TO, { VX_TRANSLATE_FLUSH_MS: '100' });
    vx.write(`${a.join('\n')}\n`);
    await waitFor('the flushed lines', () => vx.stdout() === out(a));
    vx.write('open 1\n'); // a partial batch open, its pause not over
    vx.child.kill('SIGINT');
    expect(await vx.closed).toBe(130);
    expect(vx.stderr()).toBe('vx: interrupted\n');
    expect(vx.stdout()).toBe(out(a));
    const dir = tempDir();
    try {
      const file = join(dir, 'de.txt');
      const o = live([...TO, '--out', file], { VX_TRANSLATE_FLUSH_MS: '100' }, dir);
      o.write(`${a.join('\n')}\n`);
      await waitFor('the flushed request answered', () => sizes().length === 2);
      await sleep(100);
      o.child.kill('SIGINT');
      expect(await o.closed).toBe(130);
      expect(o.stderr()).toBe('vx: interrupted\n');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('no timer keeps the process alive: the input ends with a partial batch open and a long delay, vx exits at once', async () => {
    const vx = live(TO, { VX_TRANSLATE_FLUSH_MS: '600000' });
    const a = lines('z', 5);
    vx.write(`${a.join('\n')}\n`);
    await sleep(300);
    expect(sizes()).toEqual([]);
    const t0 = Date.now();
    vx.end();
    expect(await vx.closed).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(vx.stdout()).toBe(out(a));
    expect(sizes()).toEqual([5]);
  });
});

describe('a regular file never uses the timer', () => {
  it('--file and stdin redirected from a file send exactly the full batches, even with a 1 ms delay and slow answers', async () => {
    const dir = tempDir();
    try {
      const file = join(dir, 'in.txt');
      const text = lines('row', 2600);
      writeFileSync(file, `${text.join('\n')}\n`);
      // every answer takes 300 ms, one batch at a time: the reader waits long between batches
      e2e.emu.setFaults('latency:300');
      const env = { ...baseEnv(e2e.configDir), ...e2e.env, VX_TRANSLATE_FLUSH_MS: '1' };
      const viaFile = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, ...TO, '--concurrency', '1', '--file', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
        child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
      expect(viaFile.stderr).toBe('');
      expect(viaFile.code).toBe(0);
      expect(viaFile.stdout).toBe(out(text));
      expect(sizes()).toEqual([1000, 1000, 600]);
      e2e.emu.reset();
      e2e.emu.setFaults('latency:300');
      const fd = openSync(file, 'r');
      const viaStdin = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, ...TO, '--concurrency', '1'], { env, stdio: [fd, 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout!.setEncoding('utf8').on('data', (c) => (stdout += c));
        child.stderr!.setEncoding('utf8').on('data', (c) => (stderr += c));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      }).finally(() => closeSync(fd));
      expect(viaStdin.stderr).toBe('');
      expect(viaStdin.code).toBe(0);
      expect(viaStdin.stdout).toBe(out(text));
      expect(sizes()).toEqual([1000, 1000, 600]);
    } finally {
      removeDir(dir);
    }
  }, 20_000);
});
