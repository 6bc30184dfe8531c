// Reading a locale file, a target or a lock file: UTF-8 (a byte order mark kept in mind) or the
// format's own charsets (FileFormat.decode), a missing file is undefined, anything else unreadable
// one line naming it.
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { shellQuote } from '../../../core/child.js';
import { UsageError } from '../../../core/errors.js';
import { decodeUtf8 } from '../../../core/input.js';
import { declaredCharset } from './po.js';
import type { FileEncoding, FileFormat } from './types.js';

export interface Text {
  text: string;
  bom: boolean;
  /** the charset of a format that has more than one (FileFormat.decode) */
  encoding?: FileEncoding;
}

/** The text of `path` (named `what` in messages), or undefined when there is no such file. */
export async function readText(path: string, what: string, format?: string, decode?: FileFormat['decode']): Promise<Text | undefined> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${what}: ${err.code === 'EISDIR' ? 'it is a directory' : err.code === 'EACCES' ? 'permission denied' : err.message}`);
  }
  if (decode) return { ...decode(buf, what), bom: false };
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  if (format === 'po' && !isUtf8(buf)) {
    // a PO file in another charset (its header says so): named, with gettext's own way to UTF-8
    const charset = declaredCharset(buf);
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      throw new UsageError(`${what} is in ${charset} (its header says charset=${charset}), not UTF-8: vx reads and writes PO files in UTF-8 only; convert it first: msgconv --to-code=UTF-8 ${shellQuote(what)} -o ${shellQuote(what)}`);
    }
  }
  return { text: decodeUtf8(buf, what), bom };
}

