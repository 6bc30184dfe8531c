// scanLines (the fast first pass of vx translate over a file) must see the same lines as
// forEachLine: same count, same text for the lines it decodes, same error for invalid UTF-8,
// however the bytes are cut into chunks.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { forEachLine, scanLines } from '../../src/core/input.js';

function chunked(bytes: Buffer, cuts: number[]): Readable {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    parts.push(bytes.subarray(at, p));
    at = p;
  }
  parts.push(bytes.subarray(at));
  return Readable.from(parts.filter((p) => p.length));
}

async function viaForEach(bytes: Buffer): Promise<string[] | string> {
  const lines: string[] = [];
  try {
    await forEachLine(Readable.from([bytes]), (l) => void lines.push(l), { what: 'input' });
    return lines;
  } catch (e) {
    return (e as Error).message;
  }
}

async function viaScan(bytes: Buffer, cuts: number[], longBytes: number): Promise<{ n: number; lines: [number, string][] } | string> {
  const lines: [number, string][] = [];
  try {
    const n = await scanLines(chunked(bytes, cuts), (l, i) => void lines.push([i, l]), { what: 'input', longBytes });
    return { n, lines };
  } catch (e) {
    return (e as Error).message;
  }
}

const piece = fc.constantFrom('a', 'bc', ' ', 'é', '日本', '😀', '\r\n', '\n', '\n\n', '\r', '\ufeff', 'x'.repeat(40));

describe('scanLines', () => {
  it('counts and decodes lines like forEachLine, for any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), async (pieces, cuts, bom) => {
        const bytes = Buffer.from((bom ? '\ufeff' : '') + pieces.join(''), 'utf8');
        const expected = await viaForEach(bytes);
        const all = await viaScan(bytes, cuts, -1); // every line decoded
        expect(typeof expected).toBe('object');
        expect(all).toEqual({ n: (expected as string[]).length, lines: (expected as string[]).map((l, i) => [i + 1, l]) });
        // with a byte bound only the longer lines are decoded (a CR counts as a byte of its line)
        const some = await viaScan(bytes, cuts, 10);
        const numbered = (expected as string[]).map((l, i) => [i + 1, l] as [number, string]);
        expect(typeof some).toBe('object');
        const got = (some as { n: number; lines: [number, string][] });
        expect(got.n).toBe(numbered.length);
        for (const [i, l] of numbered) if (Buffer.byteLength(l) > 10) expect(got.lines).toContainEqual([i, l]);
        for (const [i, l] of got.lines) expect([i, l, Buffer.byteLength(l) >= 10]).toEqual([i, numbered[i - 1][1], true]);
      }),
      { numRuns: 300, seed: 20261122 },
    );
  });

  it('names the line of invalid UTF-8 as forEachLine does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 30 }), fc.nat(), fc.array(fc.nat(), { maxLength: 6 }), async (pieces, at, cuts) => {
        const good = Buffer.from(pieces.join(''), 'utf8');
        const i = at % (good.length + 1);
        const bytes = Buffer.concat([good.subarray(0, i), Buffer.from([0xff]), good.subarray(i)]);
        const expected = await viaForEach(bytes);
        expect(await viaScan(bytes, cuts, 0)).toBe(expected);
      }),
      { numRuns: 300, seed: 20261122 },
    );
  });

  it('an empty input has no lines; a lone newline is one empty line; a BOM alone is nothing', async () => {
    for (const [s, n] of [['', 0], ['\n', 1], ['\ufeff', 0], ['a', 1], ['a\r\n', 1], ['a\n\nb', 3]] as const) {
      expect(await viaScan(Buffer.from(s), [], 0)).toMatchObject({ n });
    }
  });
});
