// vx translate as a stream (issue 3, "Volume"): results come out while the input is still being
// read, a 400,000-line input runs in a small fixed heap, and the merged JSON is exactly what the
// service returned. Also: the region header from a profile (not only from the environment).
import { Agent } from 'undici';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { TranslateCall } from '../../src/emulator/translator/index.js';
import { translatePlain } from '../../src/emulator/translator/text.js';
import { useEmulator } from '../helpers/emulator.js';
import { RecordingClock } from '../helpers/fake-clock.js';
import { runVxInProc } from '../helpers/inproc.js';
import { baseEnv, BIN, removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const calls = () => e2e.emu.state.translator.calls as TranslateCall[];
const expected = (line: string, to = 'de') => translatePlain(line, `[${to}] `).text;
const waitFor = async (what: string, cond: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('translate streams', () => {
  it('writes the first batch while standard input is still open, then the rest when it ends', async () => {
    // no idle flush in this test (a loaded machine might pause longer than the default 1 s): only
    // a full batch is sent before the input ends (translate-flush.test.ts covers the pauses)
    const child = spawn(process.execPath, [BIN, 'translate', '--to', 'de', '--from', 'en'], {
      env: { ...baseEnv(e2e.configDir), ...e2e.env, VX_TRANSLATE_FLUSH_MS: '600000' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const first = Array.from({ length: 1500 }, (_, i) => `early ${i}`);
    const rest = Array.from({ length: 700 }, (_, i) => `late ${i}`);
    try {
      child.stdin.write(`${first.join('\n')}\n`);
      // 1,000 items close a batch: it is sent and written before the input ends
      await waitFor('the first 1,000 lines on stdout', () => stdout.split('\n').length > 1000);
      expect(child.exitCode).toBe(null);
      expect(calls().map((c) => c.texts.length)).toEqual([1000]);
      expect(stdout).toBe(first.slice(0, 1000).map((l) => `${expected(l)}\n`).join(''));
      child.stdin.end(`${rest.join('\n')}\n`);
      expect(await closed).toBe(0);
    } finally {
      child.kill();
    }
    expect(stderr).toBe('');
    expect(calls().map((c) => c.texts.length)).toEqual([1000, 1000, 200]);
    expect(stdout).toBe([...first, ...rest].map((l) => `${expected(l)}\n`).join(''));
  });

  it('400,000 lines on a pipe run in a 24 MB heap (nothing is held whole), every line once and in order', async () => {
    // a run that kept the input or the results would die here: 400,000 lines held as strings need
    // more than 24 MB, and -o yaml (which needs every result) aborts from 100,000 lines on. The run's
    // dedupe budget (VX_TRANSLATE_BUDGET, 16 MiB by default) is set to 4 MB so that its distinct texts
    // spill to disk within this heap. bench/translate.mjs measures the peak from 100,000 to 10,000,000 lines
    const n = 400_000;
    const input = Buffer.from(Array.from({ length: n }, (_, i) => `line ${i}\n`).join(''));
    // a process of its own: the heap limit is the subject
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--verbose'], {
      input,
      env: { NODE_OPTIONS: '--max-old-space-size=24', VX_TRANSLATE_BUDGET: '4000000' },
      timeoutMs: 110_000,
      spawn: true,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^translated 400,000 items in 400 requests; billed characters: 4,288,890 \(X-Metered-Usage of 400 requests\)$/m);
    const out = r.stdout.split('\n');
    expect(out.pop()).toBe('');
    expect(out).toHaveLength(n);
    for (let i = 0; i < n; i += 1) if (out[i] !== expected(`line ${i}`)) expect(`${i}: ${out[i]}`).toBe(`${i}: ${expected(`line ${i}`)}`);
  }, 120_000);
});

describe('translate retries honour Retry-After', () => {
  it('a 429 and a 503 with Retry-After: 1 are each waited out (backoff alone is 5 ms here) before the batch goes again', async () => {
    e2e.emu.setFaults('translator/429:1x,translator/503:1x,retry-after:1');
    const translatorLog = () => e2e.emu.log.filter((l) => l.family === 'translator');
    // the waits on a fake clock that records them, with the number of requests answered when each began
    const clock = new RecordingClock(() => translatorLog().length);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Hello'], { clock });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[de] Ĥéļļö\n');
    expect(translatorLog().map((l) => l.status)).toEqual([429, 503, 200]);
    // the Retry-After of each (1 s, not the 5 ms back-off), waited out before the batch went again
    expect(clock.waits.filter((w) => w.ms > 0)).toEqual([
      { ms: 1000, at: 1 },
      { ms: 1000, at: 2 },
    ]);
    expect(calls().map((c) => c.texts)).toEqual([['Hello']]);
  });
});

describe('translate output is the service payload', () => {
  it('-o json is the JSON the service returned, merged across batches, with every optional field', async () => {
    const texts = Array.from({ length: 1200 }, (_, i) => (i % 2 ? `Guten Morgen. Wie geht es ${i}?` : `Good morning. How are you ${i}?`));
    const query = '?api-version=3.0&to=ru&to=el&includeAlignment=true&includeSentenceLength=true&toScript=Latn&toScript=Grek';
    const raw = async (part: string[]) => {
      // (X-MT-System has one entry per translation: more than fetch's default 16 KiB of headers)
      const res = await fetch(`${e2e.env.VX_TRANSLATOR_ENDPOINT}/translate${query}`, {
        ...({ dispatcher: new Agent({ maxHeaderSize: 1 << 20 }) } as RequestInit),
        method: 'POST',
        headers: { 'vendor-subscription-key': 'emulator-key', 'content-type': 'application/json; charset=UTF-8' },
        body: JSON.stringify(part.map((Text) => ({ Text }))),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as unknown[];
    };
    const r = await e2e.run(['translate', '--to', 'ru,el', '--to-script', 'Latn,Grek', '--alignment', '--sentence-length', '-o', 'json'], { input: texts.join('\n') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // 1,200 items of ~30 characters to 2 targets: split by the 50,000 counted characters
    const batches = calls().map((c) => c.texts);
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flat()).toEqual(texts);
    expect(calls().map((c) => c.query)).toEqual(batches.map(() => query));
    // the same batches sent by hand: vx printed exactly the service's arrays, concatenated
    const direct: unknown[] = [];
    for (const b of batches) direct.push(...(await raw(b)));
    expect(r.stdout).toBe(`${JSON.stringify(direct, null, 2)}\n`);
    const [first] = direct as any[];
    expect(Object.keys(first).sort()).toEqual(['detectedLanguage', 'translations']);
    expect(Object.keys(first.translations[0]).sort()).toEqual(['alignment', 'sentLen', 'text', 'to', 'transliteration']);
  });
});

describe('translate region header', () => {
  it('is sent from the profile setting translator.region (and not at all without it)', async () => {
    const configDir = tempDir();
    try {
      const opts = { configDir, env: e2e.env };
      const none = await runVxInProc(['translate', '--to', 'de', '--debug', 'hi'], opts);
      expect(none.code).toBe(0);
      expect(none.stderr).not.toMatch(/vendor-subscription-region/i);
      expect(calls()[0].region).toBeUndefined();
      const set = await runVxInProc(['profile', 'set', 'translator.region', 'westeurope'], opts);
      expect(set.code).toBe(0);
      const r = await runVxInProc(['translate', '--to', 'de', '--debug', 'hi'], opts);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^\[debug\] > vendor-subscription-region: westeurope$/m);
      expect(calls()[1].region).toBe('westeurope');
      expect(e2e.emu.log[1].headers!['vendor-subscription-region']).toBe('westeurope');
    } finally {
      removeDir(configDir);
    }
  });
});
