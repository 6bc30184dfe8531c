// scanLines (the fast first pass of vx translate over a file) must see the same lines as
// forEachLine: same count, same text for the lines it decodes, same error for invalid UTF-8,
// however the bytes are cut into chunks. And the stride/bulk-count version must give exactly what
// the line-by-line version before it gave (kept below as the reference): the same count, the same
// lines checked in the same order, the same first error (a check that throws, invalid UTF-8, an
// overlong pending line).
import { isUtf8 } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addAbortSignal, Readable } from 'node:stream';
import { InterruptedError, UsageError } from '../../src/core/errors.js';
import { countNewlines, forEachLine, scanLines, type LineOptions } from '../../src/core/lines.js';

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

// ---- the reference: scanLines as it was before the stride/bulk-count rewrite (one indexOf per line) ----
const BOM_BEFORE = Buffer.from([0xef, 0xbb, 0xbf]);

async function scanLinesBefore(
  stream: NodeJS.ReadableStream,
  check: (line: string, lineNumber: number) => void,
  opts: LineOptions & { longBytes: number },
): Promise<number> {
  if (opts.signal) addAbortSignal(opts.signal, stream as Readable);
  const maxBytes = (opts.maxUnits ?? Infinity) * 3; // 3 bytes per UTF-16 unit at most
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let n = 0;
  let carry: Buffer | undefined;
  let first = true;
  let pending: Buffer | undefined;
  const segment = (buf: Buffer, final: boolean) => {
    // the segment ends at a line boundary (or is the last line), never inside a character
    if (!isUtf8(buf)) {
      let start = 0;
      for (let line = 1; ; line++) {
        const nl = buf.indexOf(10, start);
        const end = nl < 0 ? buf.length : nl;
        if (!isUtf8(buf.subarray(start, end))) throw new UsageError(`${opts.what} is not valid UTF-8 (line ${n + line})`);
        if (nl < 0) break;
        start = nl + 1;
      }
    }
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0 && (!final || start >= buf.length)) return;
      const end = nl < 0 ? buf.length : nl;
      n++;
      if (end - start > opts.longBytes) {
        const text = decoder.decode(buf.subarray(start, end));
        check(text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text, n);
      }
      if (nl < 0) return;
      start = nl + 1;
    }
  };
  try {
    for await (const raw of stream) {
      let chunk = typeof raw === 'string' ? Buffer.from(raw) : Buffer.from((raw as Uint8Array).buffer, (raw as Uint8Array).byteOffset, (raw as Uint8Array).byteLength);
      if (first) {
        // a leading BOM is dropped, even when it arrives in pieces
        pending = pending ? Buffer.concat([pending, chunk]) : chunk;
        if (pending.length < 3 && BOM_BEFORE.subarray(0, pending.length).equals(pending)) continue;
        first = false;
        chunk = BOM_BEFORE.equals(pending.subarray(0, 3)) ? pending.subarray(3) : pending;
        pending = undefined;
      }
      const last = chunk.lastIndexOf(10);
      if (last < 0) {
        carry = carry ? Buffer.concat([carry, chunk]) : chunk;
        if (carry.length > maxBytes) opts.onOverlong?.(n + 1);
        continue;
      }
      const head = carry ? Buffer.concat([carry, chunk.subarray(0, last + 1)]) : chunk.subarray(0, last + 1);
      segment(head, false);
      carry = last + 1 < chunk.length ? chunk.subarray(last + 1) : undefined;
    }
  } catch (e) {
    if ((e as Error)?.name === 'AbortError' || opts.signal?.aborted) throw new InterruptedError();
    throw e;
  }
  if (first && pending && !BOM_BEFORE.subarray(0, pending.length).equals(pending)) carry = pending;
  if (carry?.length) segment(carry, true);
  return n;
}

async function run(scan: typeof scanLines, bytes: Buffer, cuts: number[], longBytes: number, opts: { maxUnits?: number; badLine?: number } = {}) {
  const checked: [number, string][] = [];
  try {
    const n = await scan(
      chunked(bytes, cuts),
      (l, i) => {
        checked.push([i, l]);
        if (i === opts.badLine) throw new UsageError(`line ${i} is bad`);
      },
      { what: 'input', longBytes, maxUnits: opts.maxUnits, onOverlong: (i) => { throw new UsageError(`line ${i} is overlong`); } },
    );
    return { n, checked };
  } catch (e) {
    return { error: (e as Error).message, checked };
  }
}

describe('countNewlines', () => {
  it('counts the newline bytes of any range at any alignment, like a byte loop', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(), fc.nat(), fc.nat(7), (raw, a, b, shift) => {
        // bytes near 10 (and 10 with other bits) make the SWAR test meet its edge cases
        const bytes = raw.map((x) => [10, 0, 11, 9, 0x8a, 0x0a, 0x80, x][x & 7]);
        const mem = new Uint8Array(bytes.length + shift);
        mem.set(bytes, shift);
        const buf = mem.subarray(shift);
        const from = a % (buf.length + 1);
        const to = from + (b % (buf.length - from + 1));
        let expected = 0;
        for (let i = from; i < to; i++) if (buf[i] === 10) expected++;
        expect(countNewlines(buf, from, to)).toBe(expected);
      }),
      { numRuns: 2000, seed: 20261123 },
    );
    expect(countNewlines(Buffer.alloc(1 << 16, 10))).toBe(1 << 16);
    expect(countNewlines(Buffer.alloc(1 << 16, 0x8a))).toBe(0);
  });
});

describe('scanLines = the line-by-line version before it', () => {
  const longPiece = fc.constantFrom('a', 'bc', ' ', 'é', '日本', '😀', '\r\n', '\n', '\n\n', '\r', '\ufeff', 'x'.repeat(40), 'y'.repeat(7), '日'.repeat(9), '\n'.repeat(5));
  it('same count, same lines checked in the same order, same first error, for any chunking and bound', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(longPiece, { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        fc.constantFrom(-1, 0, 1, 2, 3, 5, 8, 10, 17, 40, 64, 1000),
        fc.option(fc.nat(), { nil: undefined }),
        fc.option(fc.nat(30), { nil: undefined }),
        fc.option(fc.nat(), { nil: undefined }),
        async (pieces, cuts, bom, longBytes, badAt, badLine, maxUnits) => {
          let bytes = Buffer.from((bom ? '\ufeff' : '') + pieces.join(''), 'utf8');
          if (badAt !== undefined) {
            const i = badAt % (bytes.length + 1);
            bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([0xff]), bytes.subarray(i)]);
          }
          const opts = { badLine, maxUnits: maxUnits === undefined ? undefined : 5 + (maxUnits % 200) };
          expect(await run(scanLines, bytes, cuts, longBytes, opts)).toEqual(await run(scanLinesBefore, bytes, cuts, longBytes, opts));
        },
      ),
      { numRuns: 3000, seed: 20261123 },
    );
  });

  it('big inputs in real chunk sizes: 20,000 lines with a few long ones, bounds from 0 to 50,000', async () => {
    const parts: string[] = [];
    for (let i = 0; i < 20_000; i++) parts.push(i % 997 === 5 ? `${i} ${'é'.repeat(300 + (i % 7) * 50)}` : `line ${i}${i % 3 ? '\r' : ''}`);
    const bytes = Buffer.from(`\ufeff${parts.join('\n')}`, 'utf8');
    const cuts = Array.from({ length: 12 }, (_, k) => Math.floor((bytes.length / 13) * (k + 1)) + k);
    for (const longBytes of [0, 9, 64, 600, 700, 50_000]) {
      const got = await run(scanLines, bytes, cuts, longBytes);
      expect(got).toEqual(await run(scanLinesBefore, bytes, cuts, longBytes));
      expect(got.n).toBe(20_000);
    }
    const bad = await run(scanLines, bytes, cuts, 600, { badLine: 9975 + 1 });
    expect(bad).toEqual(await run(scanLinesBefore, bytes, cuts, 600, { badLine: 9975 + 1 }));
    expect(bad.error).toBe('line 9976 is bad');
  });
});

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
