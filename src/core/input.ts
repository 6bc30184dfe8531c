// Reading user input: whole stdin, files, and the `--data <json|@file|->` convention.
import { readFile } from 'node:fs/promises';
import { UsageError } from './errors.js';

export async function readAllStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return decodeUtf8(Buffer.concat(chunks), 'standard input');
}

/** Decodes UTF-8 strictly (invalid bytes are a usage error) and drops a leading BOM. */
export function decodeUtf8(buf: Buffer, what: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf);
  } catch {
    throw new UsageError(`${what} is not valid UTF-8`);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export async function readTextFile(path: string): Promise<string> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : err.code === 'EACCES' ? 'permission denied' : err.message;
    throw new UsageError(`cannot read ${path}: ${why}`);
  }
  return decodeUtf8(buf, path);
}

/**
 * The `--data` convention: a JSON literal, `@file` to read a file, or `-` for stdin. Returns the
 * parsed JSON value; malformed JSON is a usage error naming where it came from.
 */
export async function readJsonArg(arg: string, stdin: NodeJS.ReadableStream = process.stdin, flag = '--data'): Promise<unknown> {
  let text: string;
  let where: string;
  if (arg === '-') {
    text = await readAllStdin(stdin);
    where = 'standard input';
  } else if (arg.startsWith('@')) {
    text = await readTextFile(arg.slice(1));
    where = arg.slice(1);
  } else {
    text = arg;
    where = flag;
  }
  if (!text.trim()) throw new UsageError(`${flag}: ${where} is empty`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${flag}: ${where} is not valid JSON (${(e as Error).message})`);
  }
}

/** Like readJsonArg but also accepts non-JSON text (for raw request bodies). An empty body is refused. */
export async function readBodyArg(arg: string, stdin: NodeJS.ReadableStream = process.stdin, flag = '--data'): Promise<string> {
  const [text, where] = arg === '-' ? [await readAllStdin(stdin), 'standard input'] : arg.startsWith('@') ? [await readTextFile(arg.slice(1)), arg.slice(1)] : [arg, flag];
  if (!text) throw new UsageError(`${where === flag ? flag : `${flag}: ${where}`} is empty; nothing was sent`);
  return text;
}
