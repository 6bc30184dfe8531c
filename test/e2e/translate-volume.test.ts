// vx translate at volume: batching at both limits, order under concurrency, retries under
// injected faults with no line lost or repeated, a batch that still fails, and Ctrl-C with --out.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TranslateCall } from '../../src/emulator/translator/index.js';
import { translatePlain } from '../../src/emulator/translator/text.js';
import { useEmulator } from '../helpers/emulator.js';
import { FakeClock } from '../helpers/fake-clock.js';

const e2e = useEmulator();
const calls = () => e2e.emu.state.translator.calls as TranslateCall[];
const dir = mkdtempSync(join(tmpdir(), 'vx-translate-volume-'));
const write = (name: string, lines: string[]) => {
  const p = join(dir, name);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
};
/** what the emulator gives for an English line translated to `to` */
const expected = (line: string, to = 'de') => translatePlain(line, `[${to}] `).text;
const waitFor = async (cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('batching', () => {
  it('many short items: 2,500 lines go as 1,000 + 1,000 + 500', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `item ${i}`);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', write('short.txt', lines)]);
    expect(r.code).toBe(0);
    expect(calls().map((c) => c.texts.length)).toEqual([1000, 1000, 500]);
    expect(calls().flatMap((c) => c.texts)).toEqual(lines);
    expect(r.stdout).toBe(lines.map((l) => `${expected(l)}\n`).join(''));
  });

  it('few long items with several targets: characters x targets stay within 50,000 (exactly at the boundary)', async () => {
    // 5,000 characters to 2 targets count 10,000: five items make exactly 50,000
    const lines = Array.from({ length: 12 }, (_, i) => `${String(i).padStart(2, '0')}`.padEnd(5000, 'a'));
    const r = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '-o', 'ndjson'], { input: lines.join('\n') });
    expect(r.code).toBe(0);
    expect(calls().map((c) => c.texts.length)).toEqual([5, 5, 2]);
    expect(calls().map((c) => c.billed)).toEqual([50_000, 50_000, 20_000]);
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(out.map((o) => o.translations.map((t: any) => t.to))).toEqual(Array(12).fill(['de', 'fr']));
    expect(out[11].translations[1].text).toBe(expected(lines[11], 'fr'));
    // one character more per item: only four fit
    const longer = lines.map((l) => `${l}b`);
    e2e.emu.reset();
    const r2 = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '-o', 'none'], { input: longer.join('\n') });
    expect(r2.code).toBe(0);
    expect(calls().map((c) => c.texts.length)).toEqual([4, 4, 4]);
    for (const c of calls()) expect(c.billed).toBeLessThanOrEqual(50_000);
  });

  it('three targets: an item of 9,000 characters (27,000 counted) goes alone', async () => {
    const lines = Array.from({ length: 4 }, (_, i) => `${i}`.padEnd(9000, 'z'));
    const r = await e2e.run(['translate', '--to', 'de,fr,it', '--from', 'en', '-o', 'none', '-f', write('long3.txt', lines)]);
    expect(r.code).toBe(0);
    expect(calls().map((c) => c.texts.length)).toEqual([1, 1, 1, 1]);
    expect(calls().map((c) => c.billed)).toEqual([27_000, 27_000, 27_000, 27_000]);
  });
});

describe('concurrency and order', () => {
  it('answers arriving out of order are written in input order (15,000 lines, 8 in flight, random delays)', async () => {
    e2e.emu.setFaults('slow:0.5,slow-ms:150,seed:11');
    const lines = Array.from({ length: 15_000 }, (_, i) => `Line ${String(i).padStart(5, '0')} of a long file with quite a few words in it`);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--concurrency', '8', '-f', write('big.txt', lines)], { timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = r.stdout.split('\n');
    expect(out.pop()).toBe('');
    expect(out).toHaveLength(15_000);
    expect(out).toEqual(lines.map((l) => expected(l)));
    expect(calls().length).toBeGreaterThanOrEqual(15);
    expect(e2e.emu.log.some((l) => l.fault === 'slow')).toBe(true);
  });

  it('never has more than --concurrency requests in flight', async () => {
    e2e.emu.setFaults('latency:40');
    let inFlight = 0;
    let peak = 0;
    const server = (e2e.emu as any).server as import('node:http').Server;
    const onRequest = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      if (!req.url?.includes('/translate')) return;
      inFlight++;
      peak = Math.max(peak, inFlight);
      res.once('close', () => inFlight--);
    };
    server.prependListener('request', onRequest);
    try {
      const lines = Array.from({ length: 12_000 }, (_, i) => `n${i}`);
      const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--concurrency', '3', '-o', 'none'], { input: lines.join('\n') });
      expect(r.code).toBe(0);
      expect(calls()).toHaveLength(12);
      expect(peak).toBe(3);
    } finally {
      server.removeListener('request', onRequest);
    }
  });
});

describe('retries', () => {
  it('429, 503, connection resets and lost answers are retried per batch: every line once, in order', async () => {
    e2e.emu.setFaults('429:1x,503:1x,reset:1x,reset-after:1x,429:0.1,503:0.1,reset:0.05,reset-after:0.05,retry-after:0,seed:5');
    const lines = Array.from({ length: 6000 }, (_, i) => `Row ${i}: Good morning`);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--concurrency', '4', '--retries', '8', '-o', 'ndjson', '-f', write('faults.txt', lines)], { timeoutMs: 60_000, clock: new FakeClock() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).translations[0].text);
    expect(out).toEqual(lines.map((l) => expected(l)));
    const faults = e2e.emu.log.filter((l) => l.fault).map((l) => l.fault);
    expect(new Set(faults)).toEqual(new Set(['status', 'reset', 'reset-after']));
    // handled answers: each batch at least once; a lost answer (reset-after) makes the batch go again
    const handled = calls().flatMap((c) => c.texts);
    expect(new Set(handled)).toEqual(new Set(lines));
  });

  it('a batch that still fails: exit 7, the untranslated lines named, the earlier lines written', async () => {
    e2e.emu.setFaults('latency:300');
    const lines = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const p = write('fail.txt', lines);
    const run = e2e.run(['translate', '--to', 'de', '--from', 'en', '--concurrency', '1', '--retries', '2', '-f', p]);
    await waitFor(() => e2e.emu.count({ family: 'translator' }) >= 1);
    e2e.emu.setFaults('503:1,retry-after:0');
    const r = await run;
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^vx: HTTP 503 Service Unavailable 503000: emulated fault: HTTP 503 \(request id TRAN\.[0-9A-Z.]+\) \(after 3 attempts\) \(client trace id [0-9a-f-]+\)\nnot translated: lines 1,001-3,000; the output holds lines 1-1,000\n$/);
    expect(r.stdout).toBe(lines.slice(0, 1000).map((l) => `${expected(l)}\n`).join(''));
  });

  it('with --out, a failed run leaves no file (and no temporary file)', async () => {
    e2e.emu.setFaults('latency:300');
    const out = join(dir, 'partial.txt');
    const run = e2e.run(['translate', '--to', 'de', '--from', 'en', '--concurrency', '1', '--retries', '0', '-f', join(dir, 'fail.txt'), '--out', out]);
    await waitFor(() => e2e.emu.count({ family: 'translator' }) >= 1);
    // (a 429 would be waited out however long it lasts: a paced run never gives up on a throttled batch)
    e2e.emu.setFaults('503:1,retry-after:0');
    const r = await run;
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/\nnot translated: lines 1,001-3,000; nothing was written to .*partial\.txt\n$/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.partial'))).toEqual([]);
  });

  it('Ctrl-C with --out: exit 130, no file and no temporary file left', async () => {
    e2e.emu.setFaults('latency:5000');
    const out = join(dir, 'interrupted.txt');
    let child: import('node:child_process').ChildProcess | undefined;
    const run = e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', join(dir, 'fail.txt'), '--out', out], { onSpawn: (c) => (child = c) });
    await waitFor(() => e2e.emu.count({ family: 'translator' }) >= 1);
    expect(readdirSync(dir).filter((f) => f.startsWith('.interrupted'))).toHaveLength(1);
    child!.kill('SIGINT');
    const r = await run;
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('vx: interrupted\n');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('interrupted'))).toEqual([]);
  });

  it('a file written with --out is complete', async () => {
    const lines = Array.from({ length: 2100 }, (_, i) => `q${i}`);
    const out = join(dir, 'complete.json');
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-o', 'json', '--out', out], { input: lines.join('\n') });
    expect(r.code).toBe(0);
    const results = JSON.parse(readFileSync(out, 'utf8'));
    expect(results.map((x: any) => x.translations[0].text)).toEqual(lines.map((l) => expected(l)));
  });
});
