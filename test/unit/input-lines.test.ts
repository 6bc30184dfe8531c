// forEachLine (the streamed pass of vx translate): its line rules, the same lines however the
// bytes are chunked (multi-byte characters split across chunks included), and the line of a bad
// byte. scan-lines.test.ts holds scanLines against it.
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { forEachLine } from '../../src/core/lines.js';

async function lines(buf: Buffer, cuts: number[] = []): Promise<string[]> {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const parts = [...points, buf.length].map((p, i, all) => buf.subarray(i ? all[i - 1] : 0, p)).filter((p) => p.length);
  const out: string[] = [];
  await forEachLine(Readable.from(parts), (l) => void out.push(l), { what: 'input' });
  return out;
}

describe('forEachLine', () => {
  it('splits on \\n and \\r\\n, keeps empty lines, counts a last line without newline, drops a BOM', async () => {
    expect(await lines(Buffer.from('\ufeffone\r\ntwo\n\nthree'))).toEqual(['one', 'two', '', 'three']);
    expect(await lines(Buffer.from('a\n'))).toEqual(['a']);
    expect(await lines(Buffer.from(''))).toEqual([]);
  });

  it('gives the same lines for any chunking', async () => {
    const line = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ' ', '\r'), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), async (ls, trailing, cuts) => {
        const buf = Buffer.from(ls.join('\n') + (trailing && ls.length ? '\n' : ''));
        expect(await lines(buf, cuts)).toEqual(await lines(buf));
      }),
      { numRuns: 300 },
    );
  });

  it('names the line of the first invalid byte, wherever the chunks are cut', async () => {
    const buf = Buffer.concat([Buffer.from('ok\nfine\n'), Buffer.from([0x61, 0xc3, 0x28]), Buffer.from('\nlast\n')]);
    for (const cut of [0, 5, 9, 10, 12]) await expect(lines(buf, [cut])).rejects.toThrow('input is not valid UTF-8 (line 3)');
  });
});
