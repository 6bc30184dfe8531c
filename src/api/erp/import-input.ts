// The input of an import, read as a stream from its start each time it is read: once to check
// every row, once to send them. Only a chunk of its text is held at a time, whatever its size. A
// regular file is read again where it is; standard input (or a pipe named as the file) is kept
// for the run in a temporary file that has no name (core/temp-file.ts), so that nothing is left
// behind however the run ends.
import { closeSync, createReadStream, fstatSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { UsageError } from '../../core/errors.js';
import { MAX_WHOLE_BYTES, notADirectory, readError } from '../../core/input.js';
import { anonymousFile, tempDirProblem } from '../../core/temp-file.js';

/** A text input read from its start, a chunk at a time. */
export interface ImportInput {
  /** how messages name it: the path, or "standard input" */
  readonly name: string;
  /** its size in bytes */
  readonly size: number;
  /** the text from the start, a chunk at a time (text that is not UTF-8 is a usage error when it is reached) */
  chunks(): Generator<string>;
  /** Whether the text holds a quote ('"') and a CR anywhere (read once, and only when asked). */
  marks(): { quote: boolean; cr: boolean };
  close(): void;
}

/** the longest line (or CSV record) vx reads: longer is refused rather than held */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** The lines of text (its start `head`, then `rest`), the last one too (empty after a final line break). */
export function* linesOf(head: string, rest: Iterator<string>, tooLong: () => Error): Generator<string> {
  let buf = head;
  let at = 0;
  for (;;) {
    const end = buf.indexOf('\n', at);
    if (end >= 0) {
      yield buf.slice(at, end);
      at = end + 1;
      continue;
    }
    const x = rest.next();
    if (x.done) {
      yield buf.slice(at);
      return;
    }
    buf = buf.slice(at) + x.value;
    at = 0;
    if (buf.length > MAX_LINE_CHARS) throw tooLong();
  }
}

/** bytes read at a time: a chunk's text stays a young object (core/input.ts says why) */
const CHUNK = 64 * 1024;

const QUOTE = 0x22;
const CR = 0x0d;

const notUtf8 = (name: string) => new UsageError(`${name} is not valid UTF-8 text`);

/** Text already in memory (a test's, or a caller's) as an input. */
export function textInput(text: string, name: string): ImportInput {
  return {
    name,
    size: Buffer.byteLength(text),
    *chunks() {
      if (text) yield text;
    },
    marks: () => ({ quote: text.includes('"'), cr: text.includes('\r') }),
    close: () => undefined,
  };
}

/** An open file read with positional reads (`own`: closed with the input). */
export function fdInput(fd: number, name: string, size: number, own: boolean, chunk = CHUNK, known?: { quote: boolean; cr: boolean }): ImportInput {
  let marks = known;
  return {
    name,
    size,
    *chunks() {
      const decoder = new TextDecoder('utf-8', { fatal: true });
      const buf = Buffer.allocUnsafe(chunk);
      for (let at = 0; ; ) {
        const n = readSync(fd, buf, 0, chunk, at);
        at += n;
        let text: string;
        try {
          text = n ? decoder.decode(buf.subarray(0, n), { stream: true }) : decoder.decode();
        } catch {
          throw notUtf8(name);
        }
        if (text) yield text;
        if (!n) return;
      }
    },
    marks() {
      if (marks) return marks;
      const found = { quote: false, cr: false };
      const buf = Buffer.allocUnsafe(chunk);
      for (let at = 0, n = 0; !(found.quote && found.cr) && (n = readSync(fd, buf, 0, chunk, at)) > 0; at += n) {
        const part = buf.subarray(0, n);
        found.quote ||= part.includes(QUOTE);
        found.cr ||= part.includes(CR);
      }
      return (marks = found);
    },
    close: () => {
      if (own) closeSync(fd);
    },
  };
}

/** Reads what is left of the input, to tell whether it is all UTF-8 (throws the usage error that says it is not). */
export function checkUtf8(input: ImportInput): void {
  for (const text of input.chunks()) void text;
}

/**
 * Keeps a stream (standard input, a pipe) in a temporary file of `tmp` for the run, so that it
 * can be read twice, up to `max` bytes. A directory that cannot hold it is a usage error
 * naming it: nothing is sent.
 */
async function spool(stream: AsyncIterable<unknown>, name: string, tmp: string, max: number): Promise<ImportInput> {
  const fail = (e: unknown) =>
    new UsageError(`cannot keep ${name} in the temporary directory ${tmp}: it is ${tempDirProblem(e)}; an import reads its input twice (once to check every row, once to send them): set TMPDIR to another directory (nothing was sent)`);
  let fd: number;
  try {
    fd = anonymousFile(tmp, 'vx-import-');
  } catch (e) {
    throw fail(e);
  }
  const marks = { quote: false, cr: false };
  let size = 0;
  try {
    for await (const c of stream) {
      const b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
      // (a stream that never ends, `yes |` or a device, would fill the directory)
      if (size + b.length > max) throw new UsageError(`${name} is larger than ${max / (1024 * 1024)} MiB, more than vx keeps of a stream (a regular file named with --file is read where it is); nothing was sent`);
      marks.quote ||= b.includes(QUOTE);
      marks.cr ||= b.includes(CR);
      for (let done = 0; done < b.length; ) {
        try {
          done += writeSync(fd, b, done, b.length - done, size + done);
        } catch (e) {
          throw fail(e);
        }
      }
      size += b.length;
    }
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fdInput(fd, name, size, true, CHUNK, marks);
}

/**
 * Opens the input of an import: `-` is standard input, else a file. A regular file (or standard
 * input redirected from one) is read where it is; a pipe is spooled to `tmp` first. A missing,
 * unreadable or directory path is a usage error at once, before anything is sent.
 */
export async function openImportInput(path: string, stdin: () => NodeJS.ReadableStream, tmp: string, max = MAX_WHOLE_BYTES): Promise<ImportInput> {
  if (path === '-') {
    // (standard input is asked for only here: building process.stdin costs a few ms)
    const stream = stdin();
    notADirectory(stream);
    if (stream === process.stdin) {
      try {
        const st = fstatSync(0);
        if (st.isFile()) return fdInput(0, 'standard input', st.size, false);
      } catch {
        // (closed: read as a stream, empty)
      }
    }
    return spool(stream, 'standard input', tmp, max);
  }
  let fd: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (!st.isFile()) return await spool(createReadStream(path), path, tmp, max);
    fd = openSync(path, 'r');
    return fdInput(fd, path, fstatSync(fd).size, true);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw readError(path, e);
  }
}
