// Reading user input: whole stdin, files, the `--data <json|@file|->` convention, and text
// streamed line by line with back-pressure.
import { isUtf8 } from 'node:buffer';
// (fs.promises is reached through node:fs when first used: loading node:fs/promises also loads
// readline, ~5 ms of the start of every command that only reads a file whole, such as erp import)
import { createReadStream, fstatSync, promises as fsp, readFileSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { addAbortSignal, type Readable } from 'node:stream';
import { InterruptedError, UsageError } from './errors.js';
import { jsonErrorWithoutText, parseExact } from './json.js';

/** Standard input redirected from a directory (`< notes/`) reads as empty: a usage error instead. */
function notADirectory(stdin: NodeJS.ReadableStream): void {
  let dir = false;
  try {
    dir = stdin === process.stdin && fstatSync(0).isDirectory();
  } catch {
    /* closed: it reads as empty */
  }
  if (dir) throw new UsageError('standard input is a directory (a redirection such as < dir/ ?); nothing was sent');
}

/**
 * The most vx reads whole (a `--data` body, an import file, standard input): about the longest
 * text JavaScript can hold. A device or a pipe that never ends (`--data @/dev/zero`, `yes |`) was
 * read on without bound, gigabytes of memory and no answer.
 */
export const MAX_WHOLE_BYTES = 500 * 1024 * 1024;

function tooLarge(what: string, max: number): UsageError {
  return new UsageError(`${what} is larger than ${max / (1024 * 1024)} MiB, more than vx reads whole; nothing was sent`);
}

/** A stream's bytes, refused (`what` is larger than ...) as soon as they pass `max`. */
async function readCapped(stream: AsyncIterable<unknown>, what: string, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
    size += b.length;
    if (size > max) throw tooLarge(what, max);
    chunks.push(b);
  }
  return Buffer.concat(chunks, size);
}

export async function readAllStdin(stdin: NodeJS.ReadableStream = process.stdin, max = MAX_WHOLE_BYTES): Promise<string> {
  notADirectory(stdin);
  return decodeUtf8(await readCapped(stdin, 'standard input', max), 'standard input');
}

/**
 * `what` is not UTF-8 (at `line`). A text that starts with a UTF-16 byte order mark (Notepad's
 * "Unicode", Windows PowerShell's `>`) is named as such, with the way out: said only as "not valid
 * UTF-8 (line 1)", it left the user guessing.
 */
export function notUtf8(what: string, line: number | undefined, lead: Uint8Array | undefined): UsageError {
  const utf16 = lead !== undefined && lead.length >= 2 && ((lead[0] === 0xff && lead[1] === 0xfe) || (lead[0] === 0xfe && lead[1] === 0xff));
  const where = line === undefined ? '' : ` (line ${line})`;
  return new UsageError(`${what} is not valid UTF-8${where}${utf16 ? ': it is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8 or convert it: iconv -f UTF-16 -t UTF-8' : ''}`);
}

/** Decodes UTF-8 strictly (invalid bytes are a usage error) and drops a leading BOM. */
export function decodeUtf8(buf: Buffer, what: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf);
  } catch {
    throw notUtf8(what, undefined, buf);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export async function readTextFile(path: string, max = MAX_WHOLE_BYTES): Promise<string> {
  let buf: Buffer;
  let fh: FileHandle | undefined;
  try {
    fh = await fsp.open(path, 'r');
    const st = await fh.stat();
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    // a regular file by its size, unread; a device or a pipe as it is read
    if (st.isFile() && st.size > max) throw tooLarge(path, max);
    buf = st.isFile() ? await fh.readFile() : await readCapped(fh.createReadStream({ autoClose: false }), path, max);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw readError(path, e);
  } finally {
    await fh?.close().catch(() => undefined);
  }
  return decodeUtf8(buf, path);
}

/** Where an argument of the `--data` convention comes from, and the text read there: `-` (or `@-`, as curl's `-d @-`) is standard input, `@path` a file, else the text itself. */
async function readArgText(arg: string, stdin: NodeJS.ReadableStream, flag: string): Promise<[text: string, where: string]> {
  if (arg === '-' || arg === '@-') return [await readAllStdin(stdin), 'standard input'];
  if (arg === '@') throw new UsageError(`${flag} @ names no file: give @<path>, or - (or @-) for standard input; nothing was sent`);
  if (arg.startsWith('@')) return [await readTextFile(arg.slice(1)), arg.slice(1)];
  return [arg, flag];
}

/**
 * The `--data` convention: a JSON literal, `@file` to read a file, or `-` for stdin. Returns the
 * parsed JSON value; malformed JSON is a usage error naming where it came from.
 */
export async function readJsonArg(arg: string, stdin: NodeJS.ReadableStream = process.stdin, flag = '--data'): Promise<unknown> {
  const [text, where] = await readArgText(arg, stdin, flag);
  const what = where === flag ? flag : `${flag}: ${where}`;
  if (!text.trim()) throw new UsageError(`${what} is empty`);
  try {
    return parseExact(text);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(`${what} nests too deeply for vx to read (${e.message}); nothing was sent`);
    throw new UsageError(`${what} is not valid JSON (${jsonErrorWithoutText(text, e as Error)})`);
  }
}

/** Like readJsonArg but also accepts non-JSON text (for raw request bodies). An empty body is refused. */
export async function readBodyArg(arg: string, stdin: NodeJS.ReadableStream = process.stdin, flag = '--data'): Promise<string> {
  const [text, where] = await readArgText(arg, stdin, flag);
  if (!text) throw new UsageError(`${where === flag ? flag : `${flag}: ${where}`} is empty; nothing was sent`);
  return text;
}

// ---- streamed text input: files and stdin read line by line with back-pressure ----

/** A text input that may be read as a stream, and read again when it is a regular file. */
export interface TextSource {
  /** how messages name it: the path, or "standard input" */
  readonly name: string;
  /** a regular file (or stdin redirected from one): reading it twice gives the same text */
  readonly rereadable: boolean;
  /** a fresh stream from the start (a pipe can be opened once) */
  open(): NodeJS.ReadableStream;
  close(): Promise<void>;
}

// 64 KB (Node's own default): a chunk's decoded text stays a young object (V8 puts strings over 128 KB in
// the large-object space, freed only by a full GC: 256 KB chunks added ~10 MB to a long run's peak RSS)
const CHUNK = 64 * 1024;

/**
 * Whether two paths name the same regular file (through links or other spellings too): an output
 * renamed over it would replace an input. False when either is missing or is not a regular file.
 */
export function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.isFile() && x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}

export function readError(path: string, e: unknown): UsageError {
  const err = e as NodeJS.ErrnoException;
  const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : err.code === 'EACCES' ? 'permission denied' : err.message;
  return new UsageError(`cannot read ${path}: ${why}`);
}

/**
 * Opens `path` (or standard input for `-`) as a TextSource. A missing, unreadable or directory
 * path is a usage error at once, before anything is sent.
 */
export async function openTextSource(path: string, stdinStream?: NodeJS.ReadableStream): Promise<TextSource> {
  if (path === '-') {
    const stdin = stdinStream ?? process.stdin;
    notADirectory(stdin);
    let regular = false;
    try {
      regular = stdin === process.stdin && fstatSync(0).isFile();
    } catch {
      regular = false;
    }
    let opened = false;
    return {
      name: 'standard input',
      rereadable: regular,
      open() {
        if (regular) return createReadStream('', { fd: 0, start: 0, autoClose: false, highWaterMark: CHUNK });
        if (opened) throw new Error('standard input can be read once');
        opened = true;
        return stdin;
      },
      close: async () => undefined,
    };
  }
  let fh: FileHandle;
  try {
    fh = await fsp.open(path, 'r');
    const st = await fh.stat();
    if (st.isDirectory()) {
      await fh.close();
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    }
    const regular = st.isFile();
    let opened = false;
    return {
      name: path,
      rereadable: regular,
      open() {
        if (!regular && opened) throw new Error(`${path} can be read once`);
        opened = true;
        return fh.createReadStream({ start: regular ? 0 : undefined, autoClose: false, highWaterMark: CHUNK });
      },
      close: () => fh.close().catch(() => undefined),
    };
  } catch (e) {
    throw readError(path, e);
  }
}

/**
 * The whole of `path` (or standard input for `-`) as bytes, with the usage errors of
 * openTextSource. A path is read with one readFileSync: no file handle, stream and async
 * iteration for what is held whole anyway (~4 ms of every `erp import`).
 */
export async function readAllBytes(path: string, stdin: () => NodeJS.ReadableStream = () => process.stdin, max = MAX_WHOLE_BYTES): Promise<{ name: string; bytes: Buffer }> {
  if (path !== '-') {
    let regular = true;
    try {
      const st = statSync(path);
      if (st.isFile() && st.size > max) throw tooLarge(path, max);
      regular = st.isFile() || st.isDirectory();
      if (regular) return { name: path, bytes: readFileSync(path) };
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw readError(path, e);
    }
  }
  // (standard input is asked for only here: building process.stdin costs a few ms)
  const src = await openTextSource(path, path === '-' ? stdin() : undefined);
  try {
    return { name: src.name, bytes: await readCapped(src.open(), src.name, max) };
  } finally {
    await src.close();
  }
}

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
    const w32 = new Int32Array(buf.buffer, buf.byteOffset + i, words);
    for (let w = 0; w < words; w++) {
      const y = w32[w] ^ 0x0a0a0a0a; // a newline byte becomes 0
      // the high bit of each byte that is 0 (exact: no carry crosses a byte), then their count
      const z = ~(((y & 0x7f7f7f7f) + 0x7f7f7f7f) | y | 0x7f7f7f7f);
      if (z !== 0) n += Math.imul((z >>> 7) & 0x01010101, 0x01010101) >>> 24;
    }
    i += words << 2;
  }
  while (i < to) if (buf[i++] === 10) n++;
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
  const maxBytes = (opts.maxUnits ?? Infinity) * 3; // 3 bytes per UTF-16 unit at most
  const long = opts.longBytes;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let n = 0;
  let carry: Buffer | undefined;
  let first = true;
  let pending: Buffer | undefined;
  /** the first bytes read (a UTF-16 byte order mark is named in the error) */
  let lead: Uint8Array | undefined;
  /** the lines of `buf` (whole lines, starting at line n + 1) are valid UTF-8, or the error names the first bad one */
  const validate = (buf: Buffer, before: number) => {
    if (isUtf8(buf)) return;
    let start = 0;
    for (let line = 1; ; line++) {
      const nl = buf.indexOf(10, start);
      const end = nl < 0 ? buf.length : nl;
      if (!isUtf8(buf.subarray(start, end))) throw notUtf8(opts.what, n + before + line, lead);
      if (nl < 0) break;
      start = nl + 1;
    }
  };
  const decodeLine = (buf: Buffer, start: number, end: number) => {
    n++;
    const text = decoder.decode(buf.subarray(start, end));
    check(text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text, n);
  };
  /** counts the lines of `buf` (whole lines, each ending with a newline) and checks the long ones */
  const lines = (buf: Buffer) => {
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
      n += countNewlines(buf, counted, s);
      const nl = buf.indexOf(10, s + long + 1);
      decodeLine(buf, s, nl);
      s = counted = nl + 1;
    }
    n += countNewlines(buf, counted, len);
  };
  try {
    for await (const raw of stream) {
      let chunk = typeof raw === 'string' ? Buffer.from(raw) : Buffer.from((raw as Uint8Array).buffer, (raw as Uint8Array).byteOffset, (raw as Uint8Array).byteLength);
      lead ??= chunk;
      if (first) {
        // a leading BOM is dropped, even when it arrives in pieces
        pending = pending ? Buffer.concat([pending, chunk]) : chunk;
        if (pending.length < 3 && BOM.subarray(0, pending.length).equals(pending)) continue;
        first = false;
        chunk = BOM.equals(pending.subarray(0, 3)) ? pending.subarray(3) : pending;
        pending = undefined;
      }
      const last = chunk.lastIndexOf(10);
      if (last < 0) {
        carry = carry ? Buffer.concat([carry, chunk]) : chunk;
        if (carry.length > maxBytes) opts.onOverlong?.(n + 1);
        continue;
      }
      // the line the carry began ends at the chunk's first newline: only that much is copied
      const split = carry ? chunk.indexOf(10) + 1 : 0;
      const head = carry ? Buffer.concat([carry, chunk.subarray(0, split)]) : undefined;
      const body = chunk.subarray(split, last + 1);
      // all of it is validated before any line of it is checked
      if (head) validate(head, 0);
      validate(body, head ? 1 : 0);
      if (head) lines(head);
      lines(body);
      carry = last + 1 < chunk.length ? chunk.subarray(last + 1) : undefined;
    }
  } catch (e) {
    if ((e as Error)?.name === 'AbortError' || opts.signal?.aborted) throw new InterruptedError();
    throw e;
  }
  if (first && pending && !BOM.subarray(0, pending.length).equals(pending)) carry = pending;
  if (carry?.length) {
    // the last line, without a newline
    validate(carry, 0);
    if (carry.length > long) decodeLine(carry, 0, carry.length);
    else n++;
  }
  return n;
}
