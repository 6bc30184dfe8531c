// The checks of an LMDB memory file made before LMDB opens it (LMDB crashes the process on a file
// it cannot use instead of failing), and the wording of the store's errors: one line naming the
// path, exit 2; the file is never touched.
import { constants as fsConstants, accessSync, closeSync, existsSync, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../../../core/errors.js';

/** The environment the memory is opened in (its test hooks, the lock probe's child). */
export type Env = Readonly<Record<string, string | undefined>>;

/** A memory file that cannot be used: one line naming the path, exit 2; the file is never touched. */
export function badMemory(path: string, why: string): UsageError {
  return new UsageError(`translation memory ${path}: ${why}`);
}

/** P_INVALID: the root of an empty tree */
const NO_PAGE = 0xffff_ffff_ffff_ffffn;

/**
 * What is wrong with an existing file before LMDB opens it. LMDB takes any file, trusts its two
 * meta pages and maps the file: a meta page that is not one (LMDB then starts a new store over the
 * old one), a page number past the end of a file cut short (a copy interrupted, a full disk)
 * crash the process with SIGSEGV or SIGBUS instead of an error. So the meta pages are checked
 * here, in the layout of the LMDB that lmdb-js builds (mdb.c, MDB_meta after a 24-byte page
 * header; 16 bytes in other builds): the magic and the meta flag of both, the page size, and
 * that every page they name (each tree's root, the last page used) lies within the file. Data
 * pages are not checked (LMDB keeps no checksums, and reading a memory of millions of entries at
 * every start is not affordable): garbage written into the middle of the file can still crash it.
 */
export function checkFile(path: string): number {
  const st = statSync(path);
  if (!st.isFile()) throw badMemory(path, 'not a file');
  if (st.size === 0) return 0;
  // another process's commit may be writing a meta page as it is read (a torn read): a header that
  // does not hold together is read once more before the file is called damaged
  const problem = checkMeta(path) && checkMeta(path, 20);
  if (problem) throw problem;
  return st.size;
}

function checkMeta(path: string, afterMs = 0): UsageError | undefined {
  if (afterMs) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, afterMs);
  const notMemory = () => badMemory(path, 'not a translation memory (another format, or damaged); vx does not overwrite it');
  const damaged = (why: string) => badMemory(path, `damaged (${why}); vx does not overwrite it`);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    return badMemory(path, errText(e, path));
  }
  try {
    const meta = (offset: number) => {
      const b = Buffer.alloc(200);
      return b.subarray(0, readSync(fd, b, 0, b.length, offset));
    };
    const first = meta(0);
    // an LMDB data file starts with two meta pages: the magic 0xBEEFC0DE right after the page header
    const header = first.length >= 32 && first.readUInt32LE(24) === 0xbeefc0de ? 24 : first.length >= 32 && first.readUInt32LE(16) === 0xbeefc0de ? 16 : 0;
    if (!header) return notMemory();
    // MDB_meta: magic, version, address, mapsize, then two MDB_db of 48 bytes (the free-page tree, whose
    // first field holds the page size, and the main tree), the last page used and the txnid
    const read = (b: Buffer) => {
      if (b.length < header + 136 || b.readUInt32LE(header) !== 0xbeefc0de || !(b.readUInt16LE(header - 6) & 0x08 /* P_META */)) return undefined;
      const db = (i: number) => ({ depth: b.readUInt16LE(header + 30 + 48 * i), root: b.readBigUInt64LE(header + 64 + 48 * i) });
      return { pageSize: b.readUInt32LE(header + 24), trees: [db(0), db(1)], lastPage: b.readBigUInt64LE(header + 120) };
    };
    const m0 = read(first);
    const pageSize = m0?.pageSize ?? 0;
    if (!m0 || pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return notMemory();
    const m1 = read(meta(pageSize));
    if (!m1 || m1.pageSize !== pageSize) return notMemory();
    // the size once the meta pages are read: a writer writes its pages before its meta page
    const pages = BigInt(Math.floor(fstatSync(fd).size / pageSize));
    const counted = (m0.lastPage > m1.lastPage ? m0.lastPage : m1.lastPage) + 1n;
    if (counted > pages) return damaged(`it has ${pages} pages of the ${counted} its header counts: cut short?`);
    for (const m of [m0, m1]) {
      if (m.lastPage < 1n) return damaged('its header names pages it does not have');
      for (const t of m.trees) {
        const empty = t.root === NO_PAGE;
        if (empty ? t.depth !== 0 : t.depth < 1 || t.depth > 64 || t.root < 2n || t.root > m.lastPage) return damaged('its header names pages it does not have');
      }
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * LMDB crashes the process (SIGSEGV) when it cannot open the lock file: one that is not a file, or
 * (to write) one it may not write or create. Checked first, named in one line.
 */
export function checkLockFile(path: string, lock: string, readOnly: boolean): void {
  let st;
  try {
    st = statSync(lock);
  } catch {
    // none yet: created next to the file (the directory was checked for a new file; an existing
    // file's directory is checked here)
    if (readOnly) return;
    try {
      accessSync(dirname(lock), fsConstants.W_OK);
      return;
    } catch (e) {
      throw badMemory(path, `${errText(e, lock)} (its lock file ${lock} cannot be created)`);
    }
  }
  if (!st.isFile()) throw badMemory(path, `its lock file ${lock} is not a file`);
  if (readOnly) return;
  try {
    accessSync(lock, fsConstants.R_OK | fsConstants.W_OK);
  } catch (e) {
    throw badMemory(path, `${errText(e, lock)} (its lock file ${lock} cannot be written)`);
  }
}

/** What open found of the file: whether it exists, whether it is empty, the file's own path. */
export interface FileState {
  exists: boolean;
  /** an empty file holds nothing yet (a writing open makes it a memory) */
  empty: boolean;
  /** the path LMDB opens: the file itself, not a symbolic link to it */
  real: string;
}

/**
 * Everything about the file LMDB would crash on, or a later write fail on, checked before it
 * opens it: a missing file where one is needed, a directory that cannot take a new one, a file
 * that is not a memory or is damaged, permissions, the lock file.
 */
export function checkBeforeOpen(path: string, opts: { readOnly?: boolean; create?: boolean }): FileState {
  const exists = existsSync(path);
  // LMDB opening an empty file read-only crashes the process (SIGSEGV)
  const empty = exists && checkFile(path) === 0;
  if (!exists && (opts.readOnly || opts.create === false)) throw badMemory(path, 'no such file');
  else if (!exists) {
    try {
      accessSync(dirname(path), fsConstants.W_OK);
    } catch (e) {
      throw badMemory(path, `cannot create it: ${errText(e, dirname(path))}`);
    }
    if (!statSync(dirname(path)).isDirectory()) throw badMemory(path, `cannot create it: ${dirname(path)} is not a directory`);
  }
  if (exists && !opts.readOnly) {
    try {
      accessSync(path, fsConstants.R_OK | fsConstants.W_OK);
    } catch (e) {
      throw badMemory(path, errText(e, path));
    }
  }
  // LMDB names its lock file after the path it opens (`<path>-lock`): opened through a symbolic
  // link, the store would get a lock of its own, and writers through the link and through the
  // file would not take turns. The file's own path is opened.
  const real = exists ? realpathSync(path) : path;
  if (!empty || !opts.readOnly) checkLockFile(path, `${real}-lock`, opts.readOnly === true);
  return { exists, empty, real };
}

/**
 * Why the user may read the existing memory at `path` but not write it (the file, its lock file,
 * or the directory that must take a new lock file), or undefined when it can be written: such a
 * memory is still read (its hits used), nothing new stored.
 */
export function writeProblem(path: string): string | undefined {
  const cannot = (e: unknown, what: string) => {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'EROFS' ? 'it is on a read-only file system' : code === 'EACCES' || code === 'EPERM' ? `you may not write ${what}` : undefined;
  };
  let real: string;
  try {
    real = realpathSync(path);
    accessSync(real, fsConstants.R_OK);
  } catch {
    // not a file that can be read: the open says why
    return undefined;
  }
  try {
    accessSync(real, fsConstants.W_OK);
  } catch (e) {
    return cannot(e, 'it');
  }
  const lock = `${real}-lock`;
  try {
    accessSync(existsSync(lock) ? lock : dirname(lock), fsConstants.W_OK);
  } catch (e) {
    return cannot(e, existsSync(lock) ? `its lock file ${lock}` : `${dirname(lock)}, where its lock file goes`);
  }
  return undefined;
}

/** An error of the store as the end of a one-line message. */
export function errText(e: unknown, path: string): string {
  const err = e as NodeJS.ErrnoException;
  const msg = String(err?.message ?? e).split('\n')[0];
  if (err?.code === 'EROFS' || /read-only file system/i.test(msg)) return 'on a read-only file system';
  if (err?.code === 'EACCES' || err?.code === 'EPERM' || /permission denied/i.test(msg)) return `permission denied`;
  if (err?.code === 'ENOENT') return `no such directory`;
  if (err?.code === 'ENOSPC' || /no space left/i.test(msg)) return 'cannot write it: no space left on the device';
  if (/input\/output error/i.test(msg)) return 'cannot write it: input/output error (a full disk?)';
  if (/MDB_INVALID|MDB_CORRUPTED|MDB_PAGE_NOTFOUND|MDB_VERSION_MISMATCH|MDB_BAD_TXN|MDB_PANIC/.test(msg)) return 'damaged (not a valid LMDB file); vx does not overwrite it';
  return msg.replace(path, '').trim() || 'cannot be opened';
}
