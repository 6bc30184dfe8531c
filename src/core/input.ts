// Reading user input whole: stdin, files, the `--data <json|@file|->` convention, a file or stdin
// as a text source (core/lines.ts reads text line by line).
// (fs.promises is reached through node:fs when first used: loading node:fs/promises also loads
// readline, ~5 ms of the start of every command that only reads a file whole, such as erp import)
import { createReadStream, fstatSync, promises as fsp, readFileSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { UsageError } from './errors.js';
import { jsonErrorWithoutText, parseExact } from './json.js';

/** Standard input redirected from a directory (`< notes/`) reads as empty: a usage error instead. */
export function notADirectory(stdin: NodeJS.ReadableStream): void {
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
  /** its size in bytes, when it is a regular file */
  readonly size?: number;
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
    let size: number | undefined;
    try {
      const st = stdin === process.stdin ? fstatSync(0) : undefined;
      regular = st?.isFile() === true;
      if (regular) size = st!.size;
    } catch {
      regular = false;
    }
    let opened = false;
    return {
      name: 'standard input',
      rereadable: regular,
      size,
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
      size: regular ? st.size : undefined,
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
