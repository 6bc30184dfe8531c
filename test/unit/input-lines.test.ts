// Streamed line input: forEachLine and the byte-level scanLines agree however the bytes are
// chunked (multi-byte characters split across chunks included), and both name a bad line.
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { forEachLine, scanLines } from '../../src/core/input.js';

function chunked(buf: Buffer, cuts: number[]): Readable {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let prev = 0;
  for (const p of points) {
    parts.push(buf.subarray(prev, p));
    prev = p;
  }
  parts.push(buf.subarray(prev));
  return Readable.from(parts.filter((p) => p.length));
}

async function lines(buf: Buffer, cuts: number[]): Promise<string[]> {
  const out: string[] = [];
  await forEachLine(chunked(buf, cuts), (l) => void out.push(l), { what: 'input' });
  return out;
}

async function scan(buf: Buffer, cuts: number[], decodeOver: number) {
  const long: [number, string][] = [];
  const n = await scanLines(chunked(buf, cuts), (t, i) => void long.push([i, t]), { what: 'input', longBytes: decodeOver });
  return { n, long };
}

describe('line input', () => {
  it('splits on \\n and \\r\\n, keeps empty lines, counts a last line without newline, drops a BOM', async () => {
    const buf = Buffer.from('\ufeffone\r\ntwo\n\nthree');
    expect(await lines(buf, [])).toEqual(['one', 'two', '', 'three']);
    expect(await lines(Buffer.from('a\n'), [])).toEqual(['a']);
    expect(await lines(Buffer.from(''), [])).toEqual([]);
    expect((await scan(buf, [], 100)).n).toBe(4);
  });

  it('any chunking gives the same lines, and scanLines the same count and long lines', async () => {
    const line = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ' ', '\r'), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), async (ls, trailing, cuts) => {
        const text = ls.join('\n') + (trailing && ls.length ? '\n' : '');
        const buf = Buffer.from(text);
        const got = await lines(buf, cuts);
        const whole = await lines(buf, []);
        expect(got).toEqual(whole);
        const { n, long } = await scan(buf, cuts, 8);
        expect(n).toBe(whole.length);
        expect(long).toEqual(whole.map((l, i) => [i + 1, l] as [number, string]).filter(([i]) => Buffer.byteLength(text.split('\n')[i - 1]) > 8));
      }),
      { numRuns: 300 },
    );
  });

  it('both name the line of the first invalid byte', async () => {
    const buf = Buffer.concat([Buffer.from('ok\nfine\n'), Buffer.from([0x61, 0xc3, 0x28]), Buffer.from('\nlast\n')]);
    await expect(lines(buf, [5])).rejects.toThrow('input is not valid UTF-8 (line 3)');
    await expect(scan(buf, [5], 100)).rejects.toThrow('input is not valid UTF-8 (line 3)');
    await expect(scan(Buffer.from([0x61, 0x0a, 0xff]), [], 100)).rejects.toThrow('(line 2)');
  });
});
