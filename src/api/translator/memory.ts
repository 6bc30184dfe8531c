// The translation memory: every answer of the service kept under a key made of everything that
// changes it, so the same (text, options) is never paid for twice, across runs and processes.
//
// The store is LMDB (the `lmdb` package, loaded only when a memory is used): a memory-mapped
// B+tree with copy-on-write transactions, so a crash mid-run leaves every committed entry valid and
// nothing half-written; any number of processes read and write one file at once (writers take
// turns on a lock in `<file>-lock`); it holds millions of entries without loading them (what is
// read is paged in by the kernel). One entry per (source text, target and options):
//
//   key   0x01 + the first 16 bytes of SHA-256(options id, text)
//   value JSON [options id, unix seconds stored, source text, the service's result for that one target]
//
// where the options id names a record (key 0x02 + id) holding the canonical options: from (or
// detected, with suggestedFrom), to, textType, category, profanity action and marker, alignment
// and sentence-length flags, fromScript, the toScript of that target, allowFallback. A result
// stored for one target holds the item-level fields (detectedLanguage, sourceText) as the service
// sent them, so a hit for every target of an item rebuilds exactly what the service returned.
// Key 0x00 "format" marks the file as a vx translation memory.
import { createHash } from 'node:crypto';
import { constants as fsConstants, existsSync, accessSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import type { TranslateResult, Translation } from '../../spec/translator.js';
import type { TranslateParams } from './options.js';

export const FORMAT = 'vx-translation-memory 1';
/** how long a write waits for another process holding the store's write lock */
export const LOCK_TIMEOUT_MS = 15_000;

/** the lock timeout: VX_TRANSLATE_MEMORY_LOCK_MS (a test hook, whole milliseconds) or LOCK_TIMEOUT_MS */
function lockTimeout(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.VX_TRANSLATE_MEMORY_LOCK_MS;
  return v !== undefined && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : LOCK_TIMEOUT_MS;
}

const META = Buffer.from([0x00, ...Buffer.from('format')]);
const ENTRY = 0x01;
const OPTIONS = 0x02;

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

/** The entry key of `text` under options `id`. */
export function entryKey(id: string, text: string): Buffer {
  const h = createHash('sha256').update(id).update('\0').update(text).digest();
  const key = Buffer.allocUnsafe(17);
  key[0] = ENTRY;
  h.copy(key, 1, 0, 16);
  return key;
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
  getBinary(key: Buffer): Buffer | undefined;
  put(key: Buffer, value: Buffer): Promise<boolean>;
  remove(key: Buffer): Promise<boolean>;
  getRange(o: { start?: Buffer; end?: Buffer; snapshot?: boolean }): Iterable<{ key: Buffer; value: Buffer }>;
  transaction<T>(fn: () => T): Promise<T>;
  flushed: Promise<boolean>;
  committed: Promise<boolean>;
  getStats(): { entryCount: number; treeLeafPageCount: number; pageSize: number };
  close(): Promise<void>;
}

/** A memory file that cannot be used: one line naming the path, exit 2; the file is never touched. */
function badMemory(path: string, why: string): UsageError {
  return new UsageError(`translation memory ${path}: ${why}`);
}

/** What is wrong with an existing file before LMDB opens it (LMDB would take any file, and fail later). */
function checkFile(path: string): void {
  const st = statSync(path);
  if (!st.isFile()) throw badMemory(path, 'not a file');
  if (st.size === 0) return;
  // an LMDB data file starts with two meta pages: the magic 0xBEEFC0DE right after the page header
  // (16 bytes, 24 in the LMDB version lmdb-js builds)
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(32);
    const n = readSync(fd, head, 0, 32, 0);
    const magic = n === 32 && (head.readUInt32LE(16) === 0xbeefc0de || head.readUInt32LE(24) === 0xbeefc0de);
    if (!magic) throw badMemory(path, 'not a translation memory (another format, or damaged); vx does not overwrite it');
  } finally {
    closeSync(fd);
  }
}

export interface OpenMemoryOptions {
  /** only read (stats, export): never creates the file */
  readOnly?: boolean;
  lockTimeoutMs?: number;
}

export class TranslationMemory {
  private readonly ids = new Map<string, string>();
  private pending = 0;
  private last?: Promise<boolean>;

  private constructor(
    readonly path: string,
    private readonly db: LmdbDb,
    private readonly lockTimeoutMs: number,
    private readonly readOnly = false,
  ) {}

  /**
   * Opens (or, unless read-only, creates) the memory at `path`. Any problem is a UsageError
   * naming the path: another format, a damaged file, no permission, a read-only disk, a lock
   * held past the timeout. An existing file is never recreated.
   */
  static async open(file: string, opts: OpenMemoryOptions = {}): Promise<TranslationMemory> {
    const path = resolve(file);
    const exists = existsSync(path);
    if (exists) checkFile(path);
    else if (opts.readOnly) throw badMemory(path, 'no such file');
    else {
      try {
        accessSync(dirname(path), fsConstants.W_OK);
      } catch (e) {
        throw badMemory(path, `cannot create it: ${errText(e, dirname(path))}`);
      }
    }
    if (exists && !opts.readOnly) {
      try {
        accessSync(path, fsConstants.R_OK | fsConstants.W_OK);
      } catch (e) {
        throw badMemory(path, errText(e, path));
      }
    }
    // opening for writing waits for another process's write transaction, blocking the event loop:
    // a child process tries first, so that a lock held past the timeout is an error instead of a hang
    const lockMs = opts.lockTimeoutMs ?? lockTimeout();
    if (exists && !opts.readOnly) await probeLock(path, lockMs);
    let lmdb: { open(o: Record<string, unknown>): LmdbDb };
    try {
      lmdb = (await import('lmdb')) as unknown as typeof lmdb;
    } catch (e) {
      throw badMemory(path, `the embedded store (lmdb) cannot be loaded: ${(e as Error).message}`);
    }
    let db: LmdbDb;
    try {
      db = lmdb.open({
        path,
        noSubdir: true,
        encoding: 'binary',
        keyEncoding: 'binary',
        compression: false,
        readOnly: opts.readOnly === true,
        // pages are read when needed, not ahead (the memory may be much larger than one run reads)
        noReadAhead: true,
        maxReaders: 510,
      });
    } catch (e) {
      throw badMemory(path, errText(e, path));
    }
    const mem = new TranslationMemory(path, db, lockMs, opts.readOnly === true);
    try {
      const format = db.getBinary(META);
      if (format === undefined) {
        const entries = db.getStats().entryCount;
        if (entries > 0) throw badMemory(path, 'not a translation memory (an LMDB file of another program); vx does not change it');
      } else if (format.toString() !== FORMAT) {
        throw badMemory(path, `not a translation memory of this version (${JSON.stringify(format.toString().slice(0, 60))})`);
      }
      // a write at once: a store locked by another process is found before anything is sent
      if (!opts.readOnly) await mem.write(() => db.put(META, Buffer.from(FORMAT)));
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
      timer = setTimeout(() => reject(badMemory(this.path, `locked by another process for more than ${Math.max(1, Math.round(this.lockTimeoutMs / 1000))} s`)), this.lockTimeoutMs);
    });
    try {
      return await Promise.race([start(), timeout]);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw badMemory(this.path, errText(e, this.path));
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
        const key = optionsKey(id);
        if (!this.readOnly && this.db.getBinary(key) === undefined) this.queue(this.db.put(key, Buffer.from(c)));
      }
      return id;
    });
  }

  /** The stored result of `text` for one target, or undefined. */
  get(id: string, text: string): TranslateResult | undefined {
    let raw: Buffer | undefined;
    try {
      raw = this.db.getBinary(entryKey(id, text));
    } catch (e) {
      throw badMemory(this.path, errText(e, this.path));
    }
    if (raw === undefined) return undefined;
    const v = parseValue(raw);
    // a 128-bit hash match with another text would be a miracle; the text is checked anyway
    return v && v[2] === text ? v[3] : undefined;
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
    return { ...parts[0], translations: parts.map((p) => p.translations[0]) };
  }

  /** Stores the service's result of `text` (one entry per target); committed by `flush`. */
  store(ids: readonly string[], text: string, result: TranslateResult, now = Math.floor(Date.now() / 1000)): void {
    const translations = result.translations ?? [];
    ids.forEach((id, i) => {
      const t: Translation | undefined = translations[i];
      if (!t) return;
      const one: TranslateResult = { ...result, translations: [t] };
      this.queue(this.db.put(entryKey(id, text), Buffer.from(JSON.stringify([id, now, text, one]))));
    });
  }

  private queue(p: Promise<boolean>): void {
    this.pending++;
    this.last = p;
    p.catch(() => undefined);
  }

  /** writes queued and not yet known committed */
  get queued(): number {
    return this.pending;
  }

  /** Waits until every queued write is committed (durable: a crash afterwards loses none of it). */
  async flush(): Promise<void> {
    if (!this.pending) return;
    const last = this.last!;
    this.pending = 0;
    await this.write(async () => {
      await last;
      await this.db.flushed;
    });
  }

  /** Every entry, in key order, read from one snapshot (for export); streams, holds one at a time. */
  *entries(): Generator<MemoryEntry> {
    const options = new Map<string, KeyOptions>();
    for (const { key, value } of this.db.getRange({ start: Buffer.from([ENTRY]), end: Buffer.from([ENTRY + 1]) })) {
      void key;
      const v = parseValue(value);
      if (!v) continue;
      let o = options.get(v[0]);
      if (!o) {
        const raw = this.db.getBinary(optionsKey(v[0]));
        if (!raw) continue;
        o = fromCanonical(raw.toString());
        options.set(v[0], o);
      }
      yield { options: o, stored: v[1], source: v[2], result: v[3] };
    }
  }

  /** Adds one entry (import); committed by `flush`. */
  add(e: MemoryEntry): void {
    const [id] = this.idsFor([e.options]);
    this.queue(this.db.put(entryKey(id, e.source), Buffer.from(JSON.stringify([id, e.stored, e.source, e.result]))));
  }

  /** Removes the entries `drop` chooses; returns how many (committed when it returns). */
  async prune(drop: (e: MemoryEntry) => boolean): Promise<number> {
    let n = 0;
    const options = new Map<string, KeyOptions>();
    for (const { key, value } of this.db.getRange({ start: Buffer.from([ENTRY]), end: Buffer.from([ENTRY + 1]), snapshot: true })) {
      const v = parseValue(value);
      if (!v) continue;
      let o = options.get(v[0]);
      if (!o) {
        const raw = this.db.getBinary(optionsKey(v[0]));
        o = raw ? fromCanonical(raw.toString()) : undefined;
        if (o) options.set(v[0], o);
      }
      if (o && drop({ options: o, stored: v[1], source: v[2], result: v[3] })) {
        this.queue(this.db.remove(Buffer.from(key)));
        n++;
        if (this.pending >= 10_000) await this.flush();
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
      await this.db.close().catch(() => undefined);
    }
  }
}

/**
 * Opens the store for writing in a child process and waits at most `ms` for it: LMDB's open takes
 * the writer lock, which another process may hold (a long import, a stuck process), and waits for
 * it without returning to the event loop. A child is killed cleanly (its lock, if it got one, goes
 * with it); a thread could not be.
 */
async function probeLock(path: string, ms: number): Promise<void> {
  const { spawn } = await import('node:child_process');
  const { realpathSync } = await import('node:fs');
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
    if (outcome === 'timeout') throw badMemory(path, `locked by another process for more than ${Math.max(1, Math.round(ms / 1000))} s`);
    // any other problem is found (and worded) by the real open
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

function optionsKey(id: string): Buffer {
  return Buffer.concat([Buffer.from([OPTIONS]), Buffer.from(id, 'hex')]);
}

type Value = [string, number, string, TranslateResult];

function parseValue(raw: Buffer): Value | undefined {
  try {
    const v = JSON.parse(raw.toString('utf8')) as Value;
    return Array.isArray(v) && v.length === 4 && typeof v[2] === 'string' && v[3] && typeof v[3] === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** An error of the store as the end of a one-line message. */
function errText(e: unknown, path: string): string {
  const err = e as NodeJS.ErrnoException;
  const msg = String(err?.message ?? e).split('\n')[0];
  if (err?.code === 'EROFS' || /read-only file system/i.test(msg)) return 'on a read-only file system';
  if (err?.code === 'EACCES' || err?.code === 'EPERM' || /permission denied/i.test(msg)) return `permission denied`;
  if (err?.code === 'ENOENT') return `no such directory`;
  if (/MDB_INVALID|MDB_CORRUPTED|MDB_PAGE_NOTFOUND|MDB_VERSION_MISMATCH|MDB_BAD_TXN|MDB_PANIC/.test(msg)) return 'damaged (not a valid LMDB file); vx does not overwrite it';
  return msg.replace(path, '').trim() || 'cannot be opened';
}
