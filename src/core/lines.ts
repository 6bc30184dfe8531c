// Text streamed line by line with back-pressure, a whole stream read within a bound, and the
// counting and checking of lines without holding them.
import { isUtf8 } from 'node:buffer';
import { addAbortSignal, type Readable } from 'node:stream';
import { InterruptedError } from './errors.js';
import { notUtf8 } from './input.js';

export interface LineOptions {
  /** names the input in messages */
  what: string;
  signal?: AbortSignal;
  /**
   * a line longer than this many UTF-16 units is not held: `onOverlong(lineNumber)` is called
   * (it should throw) as soon as the pending line passes the bound
   */
  maxUnits?: number;
  onOverlong?: (lineNumber: number) => void;
}

/**
 * Reads a stream of UTF-8 text line by line (`\n` or `\r\n`; a last line without a newline counts;
 * a leading BOM is dropped) and yields the whole lines of each chunk read as one array (one await
 * per chunk, not per line). Nothing more is read until the consumer asks for the next array
 * (back-pressure). Invalid UTF-8 is a usage error naming the line; a line longer than
 * `maxUnits` calls `onOverlong` once the lines before it were yielded.
 */
export async function* readLines(stream: NodeJS.ReadableStream, opts: LineOptions): AsyncGenerator<string[], void, undefined> {
  if (opts.signal) addAbortSignal(opts.signal, stream as Readable);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const maxUnits = opts.maxUnits ?? Infinity;
  let carry = '';
  let n = 0;
  /** the first bytes read (a UTF-16 byte order mark is named in the error) */
  let lead: Uint8Array | undefined;
  const decode = (chunk: Uint8Array | undefined): string => {
    lead ??= chunk;
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      // the line of the first bad byte: the lines so far, plus the newlines before it in this chunk
      const lenient = chunk ? new TextDecoder('utf-8').decode(chunk) : '';
      const bad = lenient.indexOf('\ufffd');
      const before = bad < 0 ? 0 : lenient.slice(0, bad).split('\n').length - 1;
      throw notUtf8(opts.what, n + 1 + before, lead);
    }
  };
  const strip = (line: string) => (line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line);
  try {
    for await (const raw of stream) {
      const text = decode(typeof raw === 'string' ? Buffer.from(raw) : (raw as Uint8Array));
      let start = 0;
      let nl = text.indexOf('\n');
      if (nl < 0) {
        carry += text;
        if (carry.length > maxUnits) opts.onOverlong?.(n + 1);
        continue;
      }
      const lines: string[] = [];
      if (carry) {
        lines.push(strip(carry + text.slice(0, nl)));
        carry = '';
        start = nl + 1;
        nl = text.indexOf('\n', start);
      }
      while (nl >= 0) {
        lines.push(strip(text.slice(start, nl)));
        start = nl + 1;
        nl = text.indexOf('\n', start);
      }
      carry = text.slice(start);
      n += lines.length;
      if (lines.length) yield lines;
      if (carry.length > maxUnits) opts.onOverlong?.(n + 1);
    }
  } catch (e) {
    if ((e as Error)?.name === 'AbortError' || opts.signal?.aborted) throw new InterruptedError();
    throw e;
  }
  carry += decode(undefined);
  if (carry) yield [strip(carry)];
}

/**
 * readLines with a callback per line: when `onLine` returns a promise, reading waits for it, so a
 * slow consumer holds the producer back (back-pressure). Returns the number of lines.
 */
export async function forEachLine(
  stream: NodeJS.ReadableStream,
  onLine: (line: string, lineNumber: number) => void | Promise<void>,
  opts: LineOptions,
): Promise<number> {
  let n = 0;
  try {
    for await (const lines of readLines(stream, opts)) {
      for (const line of lines) {
        const p = onLine(line, ++n);
        if (p) await p;
      }
    }
  } catch (e) {
    if ((e as Error)?.name === 'AbortError' || opts.signal?.aborted) throw new InterruptedError();
    throw e;
  }
  return n;
}

/**
 * Reads a whole stream as UTF-8 text, but holds at most `maxUnits` UTF-16 units: past that it
 * stops reading and says so (`overflow: true`). Invalid UTF-8 is a usage error.
 */
export async function readBoundedText(
  stream: NodeJS.ReadableStream,
  opts: { what: string; maxUnits: number; signal?: AbortSignal },
): Promise<{ text: string; overflow: boolean }> {
  if (opts.signal) addAbortSignal(opts.signal, stream as Readable);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let text = '';
  let lead: Uint8Array | undefined;
  try {
    for await (const raw of stream) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw) : (raw as Uint8Array);
      lead ??= chunk;
      text += decoder.decode(chunk, { stream: true });
      if (text.length > opts.maxUnits) {
        (stream as Readable).destroy?.();
        return { text: '', overflow: true };
      }
    }
    text += decoder.decode();
  } catch (e) {
    if ((e as Error)?.name === 'AbortError' || opts.signal?.aborted) throw new InterruptedError();
    if (e instanceof TypeError) throw notUtf8(opts.what, undefined, lead);
    throw e;
  }
  return { text, overflow: text.length > opts.maxUnits };
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The number of newline bytes in buf[from, to): four bytes at a time (SWAR), not one call per line. */
export function countNewlines(buf: Uint8Array, from = 0, to = buf.length): number {
  let n = 0;
  let i = from;
  // up to a 4-byte boundary of the underlying memory, then whole 32-bit words, then the tail
  while (i < to && (buf.byteOffset + i) & 3) if (buf[i++] === 10) n++;
  const words = (to - i) >> 2;
  if (words > 0) {
    n += newlinesInWords(new Int32Array(buf.buffer, buf.byteOffset + i, words));
    i += words * 4;
  }
  while (i < to) if (buf[i++] === 10) n++;
  return n;
}

/**
 * The newline bytes of whole 32-bit words. (A function of its own: the loop of a long buffer is
 * compiled while it runs, and left by a return; code after such a loop in the same function was
 * compiled without having run once, and V8 20 left that compiled loop again at each call.)
 */
function newlinesInWords(w32: Int32Array): number {
  let n = 0;
  for (let w = 0; w < w32.length; w++) {
    const y = w32[w] ^ 0x0a0a0a0a; // a newline byte becomes 0
    // the high bit of each byte that is 0 (exact: no carry crosses a byte), then their count
    const z = ~(((y & 0x7f7f7f7f) + 0x7f7f7f7f) | y | 0x7f7f7f7f);
    if (z !== 0) n += Math.imul((z >>> 7) & 0x01010101, 0x01010101) >>> 24;
  }
  return n;
}

/**
 * A fast check of every line of a stream, with forEachLine's line rules, that does not decode
 * what it does not have to: it validates UTF-8 natively, counts the newlines in bulk, and calls
 * `check(line, n)` with the text only for lines of more than `longBytes` bytes (a line of at most
 * that many bytes has at most that many characters), found by probing in strides of `longBytes`
 * rather than line by line. Invalid UTF-8 is forEachLine's usage error naming the line. Returns
 * the number of lines.
 */
export async function scanLines(
  stream: NodeJS.ReadableStream,
  check: (line: string, lineNumber: number) => void,
  opts: LineOptions & { longBytes: number },
): Promise<number> {
  if (opts.signal) addAbortSignal(opts.signal, stream as Readable);
  const scanner = new LineScanner(check, opts);
  try {
    for await (const raw of stream) {
      scanner.push(typeof raw === 'string' ? Buffer.from(raw) : Buffer.from((raw as Uint8Array).buffer, (raw as Uint8Array).byteOffset, (raw as Uint8Array).byteLength));
    }
  } catch (e) {
    if ((e as Error)?.name === 'AbortError' || opts.signal?.aborted) throw new InterruptedError();
    throw e;
  }
  return scanner.finish();
}

/** scanLines's state across the chunks of a stream. */
class LineScanner {
  /** the lines counted so far */
  private n = 0;
  /** the start of a line the last chunk did not end */
  private carry: Buffer | undefined;
  private first = true;
  /** the first bytes while a byte order mark may still be arriving */
  private pending: Buffer | undefined;
  /** the first bytes read (a UTF-16 byte order mark is named in the error) */
  private lead: Uint8Array | undefined;
  private readonly maxBytes: number;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  constructor(
    private readonly check: (line: string, lineNumber: number) => void,
    private readonly opts: LineOptions & { longBytes: number },
  ) {
    this.maxBytes = (opts.maxUnits ?? Infinity) * 3; // 3 bytes per UTF-16 unit at most
  }

  push(raw: Buffer): void {
    let chunk = raw;
    this.lead ??= chunk;
    if (this.first) {
      // a leading BOM is dropped, even when it arrives in pieces
      const pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
      this.pending = pending;
      if (pending.length < 3 && BOM.subarray(0, pending.length).equals(pending)) return;
      this.first = false;
      chunk = BOM.equals(pending.subarray(0, 3)) ? pending.subarray(3) : pending;
      this.pending = undefined;
    }
    const last = chunk.lastIndexOf(10);
    if (last < 0) {
      this.carry = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
      if (this.carry.length > this.maxBytes) this.opts.onOverlong?.(this.n + 1);
      return;
    }
    // the line the carry began ends at the chunk's first newline: only that much is copied
    const split = this.carry ? chunk.indexOf(10) + 1 : 0;
    const head = this.carry ? Buffer.concat([this.carry, chunk.subarray(0, split)]) : undefined;
    const body = chunk.subarray(split, last + 1);
    // all of it is validated before any line of it is checked
    if (head) this.validate(head, 0);
    this.validate(body, head ? 1 : 0);
    if (head) this.lines(head);
    this.lines(body);
    this.carry = last + 1 < chunk.length ? chunk.subarray(last + 1) : undefined;
  }

  /** The stream ended: its last line (without a newline) is counted; returns the number of lines. */
  finish(): number {
    let carry = this.carry;
    if (this.first && this.pending && !BOM.subarray(0, this.pending.length).equals(this.pending)) carry = this.pending;
    if (carry?.length) {
      this.validate(carry, 0);
      if (carry.length > this.opts.longBytes) this.decodeLine(carry, 0, carry.length);
      else this.n++;
    }
    return this.n;
  }

  /** the lines of `buf` (whole lines, starting at line n + 1) are valid UTF-8, or the error names the first bad one */
  private validate(buf: Buffer, before: number): void {
    if (isUtf8(buf)) return;
    let start = 0;
    for (let line = 1; ; line++) {
      const nl = buf.indexOf(10, start);
      const end = nl < 0 ? buf.length : nl;
      if (!isUtf8(buf.subarray(start, end))) throw notUtf8(this.opts.what, this.n + before + line, this.lead);
      if (nl < 0) break;
      start = nl + 1;
    }
  }

  private decodeLine(buf: Buffer, start: number, end: number): void {
    this.n++;
    const text = this.decoder.decode(buf.subarray(start, end));
    this.check(text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text, this.n);
  }

  /** counts the lines of `buf` (whole lines, each ending with a newline) and checks the long ones */
  private lines(buf: Buffer): void {
    const long = this.opts.longBytes;
    const len = buf.length;
    let s = 0; // the start of a line
    let counted = 0; // the lines of buf[0, counted) are in n
    // a line from s is long when no newline is within its first long + 1 bytes; the buffer's
    // last byte is a newline, so from len - 1 - long on every line is short
    while (s + long < len - 1) {
      const q = long >= 0 ? buf.lastIndexOf(10, s + long) : -1;
      if (q >= s) {
        s = q + 1; // every line in between is short
        continue;
      }
      this.n += countNewlines(buf, counted, s);
      const nl = buf.indexOf(10, s + long + 1);
      this.decodeLine(buf, s, nl);
      s = counted = nl + 1;
    }
    this.n += countNewlines(buf, counted, len);
  }
}
