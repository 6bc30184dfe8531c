// The translation memory: every answer of the service kept under a key made of everything that
// changes it, so the same (text, options) is never paid for twice, across runs and processes.
//
// The store is LMDB (the `lmdb` package, loaded only when a memory is used): a memory-mapped
// B+tree with copy-on-write transactions, so a crash mid-run leaves every committed entry valid and
// nothing half-written; any number of processes read and write one file at once (writers take
// turns on a lock in `<file>-lock`); it holds millions of entries without loading them (what is
// read is paged in by the kernel). One entry per (source text, target and options), keys and
// values UTF-8 text:
//
//   key   \x01 + options id + the source text              (texts of up to 600 UTF-16 units)
//         \x03 + options id + SHA-256 of the text's UTF-16, hex (longer texts, and ill-formed ones)
//   value S<stored>\0<to>\0<translation>                    the result {translations:[{text,to}]}
//         D<stored>\0<language>\0<score>\0<to>\0<translation> the same with detectedLanguage first
//         J<stored>\0<the result as JSON>                    any other result
//         H<stored>\0<JSON [source text, result]>           (under a hashed key)
//
// <stored> is unix seconds. The text in the key needs no hashing and no check on a hit, and the
// compact values need no JSON parse for the common answers (hits cost ~1 µs, not ~6). The options
// id (16 hex digits of SHA-256 of the canonical options) names a record (\x02 + id) holding those
// options: from (or detected, with suggestedFrom), to, textType, category, profanity action and
// marker, alignment and sentence-length flags, fromScript, the toScript of that target,
// allowFallback. A result stored for one target holds the item-level fields (detectedLanguage,
// sourceText) as the service sent them, so a hit for every target of an item rebuilds exactly
// what the service returned. Key \x00 "format" marks the file as a vx translation memory.
import { capYoungGeneration } from '../../core/heap.js';
import { createHash } from 'node:crypto';
import { constants as fsConstants, existsSync, accessSync, openSync, readSync, readFileSync, realpathSync, closeSync, statSync, fstatSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import type { TranslateResult, Translation } from '../../model/translator.js';
import type { TranslateParams } from './options.js';

export const FORMAT = 'vx-translation-memory 2';
/** how long a write waits for another process holding the store's write lock */
export const LOCK_TIMEOUT_MS = 15_000;

/** the lock timeout: VX_TRANSLATE_MEMORY_LOCK_MS (a test hook, whole milliseconds) or LOCK_TIMEOUT_MS */
function lockTimeout(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.VX_TRANSLATE_MEMORY_LOCK_MS;
  return v !== undefined && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : LOCK_TIMEOUT_MS;
}

const META = '\u0000format';
const ENTRY = '\u0001';
const OPTIONS = '\u0002';
const HASHED = '\u0003';
/** the longest source text kept in the key itself: 3 UTF-8 bytes a unit at most, within LMDB's 1,978-byte keys */
const KEY_TEXT_MAX = 600;

/** Keys are strings written as UTF-8 straight into LMDB's key buffer (no Buffer made per lookup). */
const keyEncoder = {
  writeKey(key: string, target: Buffer, start: number): number {
    return start + target.write(key, start, 'utf8');
  },
  readKey(target: Buffer, start: number, end: number): string {
    return target.toString('utf8', start, end);
  },
};

/** The options of one target, as the key sees them (defaults spelled out, ineffective ones dropped). */
export interface KeyOptions {
  /** the source language, or '' when the service detects it */
  from: string;
  /** suggestedFrom, only when the source is detected */
  suggestedFrom: string;
  to: string;
  textType: string;
  category: string;
  profanityAction: string;
  profanityMarker: string;
  alignment: boolean;
  sentenceLength: boolean;
  fromScript: string;
  toScript: string;
  allowFallback: boolean;
}

/** The key options of each target of a request, in --to order. */
export function keyOptions(p: TranslateParams): KeyOptions[] {
  const lower = (s: string | undefined) => (s ?? '').toLowerCase();
  const action = p.profanityAction ?? 'NoAction';
  const category = p.category === undefined || p.category.toLowerCase() === 'general' ? '' : p.category;
  return p.to.map((to, i) => ({
    from: lower(p.from),
    suggestedFrom: p.from ? '' : lower(p.suggestedFrom),
    to: lower(to),
    textType: p.textType ?? 'plain',
    category,
    profanityAction: action,
    profanityMarker: action === 'Marked' ? (p.profanityMarker ?? 'Asterisk') : '',
    alignment: p.includeAlignment === true,
    sentenceLength: p.includeSentenceLength === true,
    fromScript: p.fromScript ?? '',
    toScript: p.toScript?.[i] ?? '',
    // without a category the service's general system answers either way
    allowFallback: category ? p.allowFallback !== false : true,
  }));
}

/** The options id: 8 bytes of SHA-256 of the canonical options, hex. */
export function optionsId(o: KeyOptions): string {
  return createHash('sha256').update(canonical(o)).digest('hex').slice(0, 16);
}

function canonical(o: KeyOptions): string {
  return JSON.stringify([o.from, o.suggestedFrom, o.to, o.textType, o.category, o.profanityAction, o.profanityMarker, o.alignment, o.sentenceLength, o.fromScript, o.toScript, o.allowFallback]);
}

function fromCanonical(s: string): KeyOptions {
  const a = JSON.parse(s) as unknown[];
  const [from, suggestedFrom, to, textType, category, profanityAction, profanityMarker, alignment, sentenceLength, fromScript, toScript, allowFallback] = a;
  return { from, suggestedFrom, to, textType, category, profanityAction, profanityMarker, alignment, sentenceLength, fromScript, toScript, allowFallback } as KeyOptions;
}

/** The entry key of `text` under options `id`: the text itself, or its hash when it is long or ill-formed. */
export function entryKey(id: string, text: string): string {
  return text.length <= KEY_TEXT_MAX && isWellFormed(text) ? ENTRY + id + text : HASHED + id + createHash('sha256').update(text, 'utf16le').digest('hex');
}

/** whether an entry key holds its source text (else the text's hash, and the value holds the text) */
function textKeyed(key: string): boolean {
  return key[0] === ENTRY;
}

/** where an entry key's source text (or hash) begins: after the kind and the 16-digit options id */
const ID_END = 17;

/** no lone surrogate (UTF-8 would turn it into U+FFFD: two texts, one key) */
const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** The result of an item for every target from what is stored for each (in --to order): the first one's item fields, each one's translation. */
function joinParts(parts: readonly TranslateResult[]): TranslateResult {
  return { ...parts[0], translations: parts.map((p) => p.translations[0]) };
}

/**
 * The result for every target of an item partly answered by the memory: the stored parts (in --to
 * order; undefined where missing) and the service's answer `fresh` for the missing targets (in
 * `missing` order). What the item carries beside its translations (detectedLanguage, sourceText)
 * comes from the answer; the translations are in --to order, as one request for all would give.
 */
export function completeResult(parts: readonly (TranslateResult | undefined)[], missing: readonly number[], fresh: TranslateResult): TranslateResult {
  const translations = parts.map((p) => p?.translations[0]);
  missing.forEach((k, j) => (translations[k] = fresh.translations[j]));
  return { ...fresh, translations: translations as Translation[] };
}

/** One stored answer, as export and import see it. */
export interface MemoryEntry {
  options: KeyOptions;
  /** unix seconds */
  stored: number;
  source: string;
  /** the service's result for this one target (translations has one element) */
  result: TranslateResult;
}

export interface MemoryStats {
  path: string;
  entries: number;
  bytes: number;
  /** entries per source>target pair ('auto' for detected sources) */
  pairs: Record<string, number>;
  oldest?: number;
  newest?: number;
}

// the part of the lmdb package vx uses
interface LmdbDb {
  get(key: string): string | undefined;
  putSync(key: string, value: string): void;
  removeSync(key: string): boolean;
  getRange(o: { start?: string; end?: string; snapshot?: boolean }): Iterable<{ key: string; value: string }>;
  transaction<T>(fn: () => T): Promise<T>;
  flushed: Promise<boolean>;
  committed: Promise<boolean>;
  getStats(): { entryCount: number; treeLeafPageCount: number; pageSize: number };
  close(): Promise<void>;
}

/**
 * a run that writes the memory holds V8's young generation at 2 x 4 MB (see core/heap.ts): the
 * store's mapped pages and write buffers come on top of the run's heap, and a million-line run
 * with a fresh memory peaked at 157-167 MB with Node's 2 x 16 MB, 135-140 MB with this (~5% more CPU)
 */
const YOUNG_GENERATION_MB = 4;
/** the file-backed RSS (kB) a run lets the store's pages take before it reopens the store (see relieve) */
const RELIEVE_KB = 8 * 1024;
/**
 * lookups between two looks at the RSS: a lookup maps up to 64 kB (the kernel maps the cached
 * pages around a faulting one), so a look every 256 lookups keeps the overshoot within another 16 MB
 */
const RELIEVE_EVERY = 256;

/**
 * The process's file-backed resident memory in kB (Linux), or undefined where it cannot be read:
 * /proc/self/statm's shared pages (~9 µs to read; /proc/self/status, twice as slow, tells the page size once).
 */
function rssFileKb(): number | undefined {
  try {
    const shared = Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[2]);
    pageKb ??= pageSizeKb(shared);
    return shared * pageKb;
  } catch {
    return undefined;
  }
}

let pageKb: number | undefined;
function pageSizeKb(shared: number): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const size = shared > 0 ? (kb('RssFile') + kb('RssShmem')) / shared : 4;
  // a power of two from 4 kB
  return 2 ** Math.max(2, Math.round(Math.log2(size || 4)));
}

/** A memory file that cannot be used: one line naming the path, exit 2; the file is never touched. */
function badMemory(path: string, why: string): UsageError {
  return new UsageError(`translation memory ${path}: ${why}`);
}

/** The write lock was held by another process for longer than `ms`. */
function lockedPast(path: string, ms: number): UsageError {
  return badMemory(path, `locked by another process for more than ${Math.max(1, Math.round(ms / 1000))} s`);
}

/** the store of an empty file opened read-only: nothing in it (LMDB would crash mapping it) */
const NOTHING: LmdbDb = {
  get: () => undefined,
  putSync: () => undefined,
  removeSync: () => false,
  getRange: () => [],
  transaction: async (fn) => fn(),
  flushed: Promise.resolve(true),
  committed: Promise.resolve(true),
  getStats: () => ({ entryCount: 0, treeLeafPageCount: 0, pageSize: 4096 }),
  close: async () => undefined,
};

let quieted = false;

/**
 * Rejected with the cause when lmdb-js reports a failed commit only through a promise of its own
 * (see quietLmdbCommitFailures): the writes waiting for it would otherwise wait for ever.
 */
let commitFailed: Promise<never> = new Promise(() => undefined);

/**
 * When a commit fails (a full disk), lmdb-js prints the error with console.error and rejects a
 * promise of its own that nobody holds, which crashes the process with a stack trace; a write
 * waiting for that commit never hears of it, nor does `flushed`. vx reports the failure in one line
 * instead: the writes it waits for race commitFailed (see write). Set up once per process, at the
 * first open; any other unhandled rejection still ends the process as Node would.
 */
function quietLmdbCommitFailures(): void {
  if (quieted) return;
  quieted = true;
  const fromLmdb = (e: unknown) => e instanceof Error && /[\\/]lmdb[\\/]/.test(e.stack ?? '');
  const error = console.error;
  console.error = (...args: unknown[]) => {
    if (args.length === 1 && fromLmdb(args[0])) return;
    error.apply(console, args);
  };
  let fail: (cause: unknown) => void = () => undefined;
  commitFailed = new Promise<never>((_, reject) => (fail = reject));
  commitFailed.catch(() => undefined);
  process.on('unhandledRejection', (reason) => {
    const commitError = (reason as { commitError?: unknown } | undefined)?.commitError;
    if (!fromLmdb(reason) || !(commitError instanceof Promise)) throw reason;
    commitError.catch(fail);
  });
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
function checkFile(path: string): number {
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
function checkLockFile(path: string, lock: string, readOnly: boolean): void {
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

export interface OpenMemoryOptions {
  /** only read (stats, export): never creates the file */
  readOnly?: boolean;
  /** false: a missing file is an error, not a new memory (prune) */
  create?: boolean;
  lockTimeoutMs?: number;
}

export class TranslationMemory {
  private readonly ids = new Map<string, string>();
  /** writes waiting for the next commit: key, value (undefined: remove), key, value, ... */
  private batch: (string | undefined)[] = [];
  /** the commit under way, if any */
  private committing?: Promise<void>;

  /** a close and reopen under way (see relieve): reads and commits wait for it */
  remapping?: Promise<void>;
  /** the process's file-backed RSS (kB) after the last reopen */
  private mappedBase = rssFileKb() ?? 0;

  private constructor(
    readonly path: string,
    private db: LmdbDb,
    private readonly lockTimeoutMs: number,
    private readonly readOnly: boolean,
    private readonly reopen: () => LmdbDb,
  ) {}

  /** a write failed (see close) */
  private failed = false;

  /** lookups since relieve last looked at the RSS */
  private looked = 0;

  /** whether relieve should look at the RSS now (every RELIEVE_EVERY lookups) */
  get relieveDue(): boolean {
    return this.looked >= RELIEVE_EVERY;
  }

  /**
   * Lets go of the store's pages read so far once they add up to RELIEVE_KB of the process's RSS:
   * LMDB reads through a memory map, and every page a run touches stays resident (and counted)
   * until the map goes, so a run over a memory much larger than that closes the store and opens it
   * again (after committing what is queued). Call it between lookups, and await `remapping`
   * before any lookup made while it may run.
   */
  async relieve(limitKb = RELIEVE_KB): Promise<void> {
    this.looked = 0;
    const now = rssFileKb();
    if (now === undefined || now - this.mappedBase < limitKb || this.remapping) return;
    // from here on, commits wait for the reopen: one started while the queued writes were being
    // made durable would be cut off by the close (lmdb-js ends the writes of a closing store)
    this.remapping = (async () => {
      await this.drain();
      await this.db.close();
      // no lock probe here (reading /proc/locks costs 10-100 ms): opening for writing may wait for
      // another process's commit under way, which takes milliseconds
      this.db = this.reopen();
    })();
    try {
      await this.remapping;
    } catch (e) {
      throw badMemory(this.path, errText(e, this.path));
    } finally {
      this.remapping = undefined;
      this.mappedBase = rssFileKb() ?? 0;
    }
  }

  /**
   * Opens (or, unless read-only, creates) the memory at `path`. Any problem is a UsageError
   * naming the path: another format, a damaged file, no permission, a read-only disk, a lock
   * held past the timeout. An existing file is never recreated.
   */
  static async open(file: string, opts: OpenMemoryOptions = {}): Promise<TranslationMemory> {
    quietLmdbCommitFailures();
    const path = resolve(file);
    const exists = existsSync(path);
    // an empty file holds nothing yet (a writing open makes it a memory); LMDB opening one read-only crashes the process (SIGSEGV)
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
    // opening for writing waits for another process's write transaction, blocking the event loop:
    // when another process has the store open, a child process tries first, so that a lock held
    // past the timeout is an error instead of a hang
    const lockMs = opts.lockTimeoutMs ?? lockTimeout();
    // (the kernel takes 10-20 ms over a process's first read of /proc/locks: it is read on a
    // worker thread while lmdb loads)
    const locks = exists && !opts.readOnly ? readFile('/proc/locks', 'utf8').catch(() => undefined) : undefined;
    let lmdb: { open(o: Record<string, unknown>): LmdbDb };
    try {
      lmdb = (await import('lmdb')) as unknown as typeof lmdb;
    } catch (e) {
      throw badMemory(path, `the embedded store (lmdb) cannot be loaded: ${(e as Error).message}`);
    }
    if (locks && openElsewhere(real, await locks)) await probeLock(real, lockMs);
    let db: LmdbDb;
    const reopen = () =>
      empty && opts.readOnly
        ? NOTHING
        : lmdb.open({
            path: real,
            noSubdir: true,
            encoding: 'string',
            keyEncoder,
            compression: false,
            readOnly: opts.readOnly === true,
            // pages are read when needed, not ahead (the memory may be much larger than one run reads)
            noReadAhead: true,
            maxReaders: 510,
          });
    try {
      db = reopen();
    } catch (e) {
      throw badMemory(path, errText(e, path));
    }
    const mem = new TranslationMemory(path, db, lockMs, opts.readOnly === true, reopen);
    try {
      const format = db.get(META);
      if (format === undefined) {
        const entries = db.getStats().entryCount;
        if (entries > 0) throw badMemory(path, 'not a translation memory (an LMDB file of another program); vx does not change it');
      } else if (format !== FORMAT) {
        throw badMemory(path, `not a translation memory of this version (${JSON.stringify(format.slice(0, 60))})`);
      }
      // a new store is written at once: one that cannot be written is found before anything is sent
      if (!opts.readOnly && format === undefined) {
        mem.queue(META, FORMAT);
        await mem.flush();
      }
    } catch (e) {
      await db.close().catch(() => undefined);
      if (e instanceof UsageError) throw e;
      throw badMemory(path, errText(e, path));
    }
    return mem;
  }

  /** Waits for a write, at most the lock timeout (another process may hold the write lock). */
  private async write<T>(start: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(lockedPast(this.path, this.lockTimeoutMs)), this.lockTimeoutMs);
    });
    try {
      return await Promise.race([start(), timeout, commitFailed]);
    } catch (e) {
      this.failed = true;
      if (e instanceof UsageError) throw e;
      // a failed commit (a full disk) says why in its commitError
      const cause = (e as { commitError?: Promise<unknown> }).commitError;
      throw badMemory(this.path, errText(cause instanceof Promise ? await cause.then(() => e, (c: unknown) => c) : e, this.path));
    } finally {
      clearTimeout(timer);
    }
  }

  /** The options id of each target (and its options record, stored once). */
  idsFor(options: KeyOptions[]): string[] {
    return options.map((o) => {
      const c = canonical(o);
      let id = this.ids.get(c);
      if (!id) {
        id = optionsId(o);
        this.ids.set(c, id);
        if (!this.readOnly && this.read(OPTIONS + id) === undefined) this.queue(OPTIONS + id, c);
      }
      return id;
    });
  }

  private read(key: string): string | undefined {
    if (this.remapping) throw new Error(`translation memory ${this.path}: read while it is being reopened`);
    try {
      return this.db.get(key);
    } catch (e) {
      throw badMemory(this.path, errText(e, this.path));
    }
  }

  /** The stored result of `text` for one target, or undefined. */
  get(id: string, text: string): TranslateResult | undefined {
    this.looked++;
    const key = entryKey(id, text);
    const raw = this.read(key);
    if (raw === undefined) return undefined;
    const v = decodeValue(raw);
    if (!v) return undefined;
    // under a hashed key the value carries the text: a 256-bit hash match with another text would
    // be a miracle, but the text is checked anyway
    return textKeyed(key) || v.source === text ? v.result : undefined;
  }

  /** The whole result of `text` for every target (`ids` in --to order), or undefined unless all are stored. */
  lookup(ids: readonly string[], text: string): TranslateResult | undefined {
    if (ids.length === 1) return this.get(ids[0], text);
    const parts: TranslateResult[] = [];
    for (const id of ids) {
      const r = this.get(id, text);
      if (!r) return undefined;
      parts.push(r);
    }
    return joinParts(parts);
  }

  /**
   * What is stored of `text` for each target (`ids` in --to order): the whole result when every
   * target is there; when some are, the stored parts (undefined where one is missing) and the
   * indexes of the missing targets, which alone need sending (see completeResult); else undefined.
   */
  lookupParts(ids: readonly string[], text: string): { result: TranslateResult } | { parts: (TranslateResult | undefined)[]; missing: number[] } | undefined {
    const parts = ids.map((id) => this.get(id, text));
    const missing: number[] = [];
    parts.forEach((p, k) => p || missing.push(k));
    if (!missing.length) return { result: joinParts(parts as TranslateResult[]) };
    return missing.length < parts.length ? { parts, missing } : undefined;
  }

  /** Stores the service's result of `text` (one entry per target); committed by `commit` or `flush`. */
  store(ids: readonly string[], text: string, result: TranslateResult, now = Math.floor(Date.now() / 1000)): void {
    const translations = result.translations ?? [];
    for (let i = 0; i < ids.length; i++) {
      const t: Translation | undefined = translations[i];
      // a translation the service sent without its text is not an answer to keep
      if (!hasText(t)) continue;
      const one: TranslateResult = ids.length === 1 && translations.length === 1 ? result : { ...result, translations: [t] };
      const key = entryKey(ids[i], text);
      this.queue(key, encodeValue(now, one, textKeyed(key) ? undefined : text));
    }
  }

  private queue(key: string, value: string | undefined): void {
    this.batch.push(key, value);
  }

  /** writes queued and not yet committed */
  get queued(): number {
    return this.batch.length / 2;
  }

  /**
   * Starts committing what is queued (one transaction) and waits only for the commit before it:
   * at most one commit runs behind the caller, so writing never stops the run for a disk sync.
   */
  async commit(): Promise<void> {
    if (this.remapping) await this.remapping;
    await this.commitQueued();
  }

  /** commit's work, without waiting for a reopen under way (the reopen's own commit) */
  private async commitQueued(): Promise<void> {
    const before = this.committing;
    if (this.batch.length) {
      capYoungGeneration(YOUNG_GENERATION_MB);
      const batch = this.batch;
      this.batch = [];
      const db = this.db;
      const started = this.write(() =>
        db.transaction(() => {
          for (let i = 0; i < batch.length; i += 2) {
            const v = batch[i + 1];
            if (v === undefined) db.removeSync(batch[i]!);
            else db.putSync(batch[i]!, v);
          }
        }),
      ).then(() => undefined);
      // a failure is reported by whoever waits for it next (this commit's successor, flush or close)
      started.catch(() => undefined);
      this.committing = started;
    }
    await before;
  }

  /** Waits until every queued write is committed (durable: a crash afterwards loses none of it). */
  async flush(): Promise<void> {
    if (this.remapping) await this.remapping;
    await this.drain();
  }

  /** flush's work, without waiting for a reopen under way (the reopen's own flush) */
  private async drain(): Promise<void> {
    await this.commitQueued();
    const last = this.committing;
    this.committing = undefined;
    await last;
    // committed is not yet on disk: the commits go on without waiting for the sync, this waits for it
    await this.write(() => this.db.flushed);
  }

  /** Every entry, in key order, read from one snapshot (for export); streams, holds one at a time. */
  *entries(snapshot = false): Generator<MemoryEntry & { key: string }> {
    const options = new Map<string, KeyOptions | undefined>();
    for (const [start, end] of [
      [ENTRY, OPTIONS],
      [HASHED, '\u0004'],
    ]) {
      for (const { key, value } of this.db.getRange({ start, end, snapshot })) {
        const v = decodeValue(value);
        const id = key.slice(1, ID_END);
        const source = textKeyed(key) ? key.slice(ID_END) : v?.source;
        if (!v || source === undefined) continue;
        let o = options.get(id);
        if (!options.has(id)) {
          const raw = this.read(OPTIONS + id);
          o = raw === undefined ? undefined : fromCanonical(raw);
          options.set(id, o);
        }
        if (o) yield { key, options: o, stored: v.stored, source, result: v.result };
      }
    }
  }

  /** Adds one entry (import); committed by `commit` or `flush`. */
  add(e: MemoryEntry): void {
    const [id] = this.idsFor([e.options]);
    const key = entryKey(id, e.source);
    this.queue(key, encodeValue(e.stored, e.result, textKeyed(key) ? undefined : e.source));
  }

  /** Removes the entries `drop` chooses; returns how many (committed when it returns). */
  async prune(drop: (e: MemoryEntry) => boolean): Promise<number> {
    let n = 0;
    for (const e of this.entries(true)) {
      if (drop(e)) {
        this.queue(e.key, undefined);
        n++;
        if (this.queued >= 10_000) await this.commit();
      }
    }
    await this.flush();
    return n;
  }

  stats(): MemoryStats {
    const pairs: Record<string, number> = {};
    let entries = 0;
    let oldest: number | undefined;
    let newest: number | undefined;
    for (const e of this.entries()) {
      entries++;
      const pair = `${e.options.from || 'auto'}>${e.options.to}`;
      pairs[pair] = (pairs[pair] ?? 0) + 1;
      if (oldest === undefined || e.stored < oldest) oldest = e.stored;
      if (newest === undefined || e.stored > newest) newest = e.stored;
    }
    return { path: this.path, entries, bytes: statSync(this.path).size, pairs, oldest, newest };
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      // after a failed write lmdb-js never settles close() (and holds nothing that keeps the process
      // alive: awaiting it would end the process at once, exit 0, the error unsaid)
      if (this.failed) void this.db.close().catch(() => undefined);
      else await this.db.close().catch(() => undefined);
    }
  }
}

/**
 * Whether another process may have the store open: LMDB holds a POSIX lock on its lock file
 * (`<file>-lock`) in every process that has the store open, and Linux lists those in /proc/locks.
 * Anywhere /proc/locks cannot tell (another system, no lock file yet): yes. A process that opens
 * the store between this look and vx's own open is not seen (it would have to hold its write lock
 * from its first moment, for longer than the lock timeout, to be noticed as a hang).
 */
function openElsewhere(path: string, locks: string | undefined): boolean {
  let ino: number;
  try {
    ino = statSync(`${path}-lock`).ino;
  } catch {
    return true;
  }
  if (locks === undefined) return true;
  // "1: POSIX  ADVISORY  READ 29960 fe:00:2146349 0 0": the inode closes the third field
  const own = String(process.pid);
  for (const line of locks.split('\n')) {
    const f = line.trim().split(/\s+/);
    const at = f.findIndex((x) => /^[0-9a-f]+:[0-9a-f]+:\d+$/.test(x));
    if (at > 0 && f[at].endsWith(`:${ino}`) && f[at - 1] !== own) return true;
  }
  return false;
}

/**
 * Opens the store for writing in a child process and waits at most `ms` for it: LMDB's open takes
 * the writer lock, which another process may hold (a long import, a stuck process), and waits for
 * it without returning to the event loop. A child is killed cleanly (its lock, if it got one, goes
 * with it); a thread could not be.
 */
async function probeLock(path: string, ms: number): Promise<void> {
  const { spawn } = await import('node:child_process');
  // lmdb is found from vx's own files (bin/vx.js, or the test runner's)
  let base = process.argv[1] ?? process.cwd();
  try {
    base = realpathSync(base);
  } catch {
    // as given
  }
  const code = `
    const [path, base] = process.argv.slice(-2);
    const { open } = require('node:module').createRequire(base)('lmdb');
    const db = open({ path, noSubdir: true, encoding: 'binary', keyEncoding: 'binary', compression: false });
    db.close().then(() => process.stdout.write('ok'), () => process.stdout.write('failed'));
  `;
  const child = spawn(process.execPath, ['-e', code, '--', path, base], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NODE_OPTIONS: '' } });
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), ms);
      child.once('error', () => resolve('error'));
      child.once('close', () => resolve('done'));
    });
    if (outcome === 'timeout') throw lockedPast(path, ms);
    // any other problem is found (and worded) by the real open
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

interface Decoded {
  stored: number;
  result: TranslateResult;
  /** the source text, under a hashed key */
  source?: string;
}

/** The stored form of `result` (see the top of this file); `source` under a hashed key. */
export function encodeValue(stored: number, result: TranslateResult, source?: string): string {
  if (source !== undefined) return `H${stored}\0${JSON.stringify([source, result])}`;
  const t = result.translations?.length === 1 ? result.translations[0] : undefined;
  if (t && exactly(t, 'text', 'to') && typeof t.text === 'string' && typeof t.to === 'string' && !t.to.includes('\0')) {
    if (exactly(result, 'translations')) return `S${stored}\0${t.to}\0${t.text}`;
    const d = result.detectedLanguage;
    if (exactly(result, 'detectedLanguage', 'translations') && d && exactly(d, 'language', 'score') && typeof d.language === 'string' && !d.language.includes('\0') && typeof d.score === 'number' && Number.isFinite(d.score)) {
      return `D${stored}\0${d.language}\0${d.score}\0${t.to}\0${t.text}`;
    }
  }
  return `J${stored}\0${JSON.stringify(result)}`;
}

/** whether `o` has exactly these own keys, in this order (the order JSON output keeps) */
function exactly(o: object, ...keys: string[]): boolean {
  const k = Object.keys(o);
  if (k.length !== keys.length) return false;
  for (let i = 0; i < k.length; i++) if (k[i] !== keys[i]) return false;
  return true;
}

/** The entry a stored value holds, or undefined when it is not one vx wrote. */
export function decodeValue(v: string): Decoded | undefined {
  const a = v.indexOf('\0');
  if (a < 2) return undefined;
  const stored = Number(v.slice(1, a));
  if (!Number.isInteger(stored)) return undefined;
  switch (v.charCodeAt(0)) {
    case 0x53 /* S */: {
      const b = v.indexOf('\0', a + 1);
      if (b < 0) return undefined;
      return { stored, result: { translations: [{ text: v.slice(b + 1), to: v.slice(a + 1, b) }] } };
    }
    case 0x44 /* D */: {
      const b = v.indexOf('\0', a + 1);
      const c = b < 0 ? -1 : v.indexOf('\0', b + 1);
      const d = c < 0 ? -1 : v.indexOf('\0', c + 1);
      if (d < 0) return undefined;
      const score = Number(v.slice(b + 1, c));
      return { stored, result: { detectedLanguage: { language: v.slice(a + 1, b), score }, translations: [{ text: v.slice(d + 1), to: v.slice(c + 1, d) }] } };
    }
    case 0x4a /* J */:
    case 0x48 /* H */: {
      try {
        const j = JSON.parse(v.slice(a + 1)) as unknown;
        if (v.charCodeAt(0) === 0x4a) return isResult(j) ? { stored, result: j } : undefined;
        return Array.isArray(j) && j.length === 2 && typeof j[0] === 'string' && isResult(j[1]) ? { stored, source: j[0], result: j[1] } : undefined;
      } catch {
        return undefined;
      }
    }
    default:
      return undefined;
  }
}

function isResult(j: unknown): j is TranslateResult {
  const ts = typeof j === 'object' && j !== null ? (j as TranslateResult).translations : undefined;
  // an entry holds one target's translation, with its text (one stored without, by a vx before
  // 2026-11-24, is a miss: sent again, not answered with nothing)
  return Array.isArray(ts) && ts.length > 0 && ts.every(hasText);
}

/** A translation with the text and language a hit is answered with. */
function hasText(t: Translation | undefined): t is Translation {
  return typeof t?.text === 'string' && typeof t.to === 'string';
}

/** An error of the store as the end of a one-line message. */
function errText(e: unknown, path: string): string {
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
