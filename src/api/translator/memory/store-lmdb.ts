// The translation memory's embedded store: LMDB (the `lmdb` package, loaded only when a memory is
// used): a memory-mapped B+tree with copy-on-write transactions, so a crash mid-run leaves every
// committed entry valid and nothing half-written; any number of processes read and write one file
// at once (writers take turns on a lock in `<file>-lock`); it holds millions of entries without
// loading them (what is read is paged in by the kernel). Keys and values are UTF-8 text.
//
// A claim (store.ts) is kept under the key it claims, in place of the value that ends it:
// CLAIM + owner + \0 + the lease's end (unix milliseconds); lookups and scans skip it. Claims are
// taken in one write transaction per batch (LMDB's writers take turns on the file's lock, so two
// processes never both take a key). A claim of a process of this machine that no longer runs is
// taken over at once (claims.ts: ownerGone). A run alone on the file keeps its claims in the
// process until another comes (solo.ts).
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { capYoungGeneration } from '../../../core/heap.js';
import { systemClock, type Clock } from '../../../core/clock.js';
import { isVxError } from '../../../core/errors.js';
import { holdExit } from '../../../core/exit-hold.js';
import { badMemory, checkBeforeOpen, errText, type Env } from './checks.js';
import { openElsewhere, probeLock, waitForLock, type LockWait } from './lock.js';
import { ownerGone } from './claims.js';
import { SoloClaims } from './solo.js';
import type { ClaimState, MemoryStore, StoredPair } from './store.js';

/** how long a write waits for another process holding the store's write lock */
export const LOCK_TIMEOUT_MS = 15_000;

/** the lock timeout: VX_TRANSLATE_MEMORY_LOCK_MS (a test hook, whole milliseconds) or LOCK_TIMEOUT_MS */
function lockTimeout(env: Env): number {
  const v = env.VX_TRANSLATE_MEMORY_LOCK_MS;
  return v !== undefined && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : LOCK_TIMEOUT_MS;
}

/** Keys are strings written as UTF-8 straight into LMDB's key buffer (no Buffer made per lookup). */
const keyEncoder = {
  writeKey(key: string, target: Buffer, start: number): number {
    return start + target.write(key, start, 'utf8');
  },
  readKey(target: Buffer, start: number, end: number): string {
    return target.toString('utf8', start, end);
  },
};

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
  /** LMDB's table of readers: a header line, then pid, thread, transaction per slot */
  readerList(): string;
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
 * a memory file smaller than this is left mapped whole (it maps no more than its size): reopening
 * it would only map again, page by page, what the run reads next (a rerun over a 17 MB memory
 * reopened it 130 times, for a fifth of its CPU)
 */
const RELIEVE_FILE_BYTES = 24 * 1024 * 1024;
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
  readerList: () => '',
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

/** pairs read from the tree before a scan hands them on */
const PAGE = 1024;

/** the first character of a claim's value (no value of the memory starts with it: see codec.ts, key.ts) */
const CLAIM = '\u0004';
const isClaim = (v: string | undefined): boolean => v !== undefined && v.charCodeAt(0) === 4;

export interface OpenStoreOptions {
  /** only read (stats, export): never creates the file */
  readOnly?: boolean;
  /** false: a missing file is an error, not a new memory (prune) */
  create?: boolean;
  lockTimeoutMs?: number;
  /** the environment: its test hook for the lock timeout, and the lock probe's child's */
  env?: Env;
  /** the wall clock leases are measured by (unix milliseconds; every process on the machine reads the same) */
  wallClock?: () => number;
  /** the permissions of a new file (and its lock file), narrowed by the umask (LMDB's own: 0664) */
  mode?: number;
  /** a stop of the run (Ctrl-C, SIGTERM): a wait for another process's lock ends at once */
  signal?: AbortSignal;
  /** the clock waits for another process's lock are measured by */
  clock?: Clock;
  /** says that the run waits for another process's lock, and whose (after LOCK_NOTICE_MS) */
  note?: (message: string) => void;
}

/** Puts a batch (key, value, key, value, ...; a value undefined removes its key) inside a write transaction. */
function putAll(db: LmdbDb, batch: readonly (string | undefined)[]): void {
  for (let i = 0; i < batch.length; i += 2) {
    const v = batch[i + 1];
    if (v === undefined) db.removeSync(batch[i]!);
    else db.putSync(batch[i]!, v);
  }
}

/** The keys of a batch (key, value, key, value, ...). */
function* writtenKeys(batch: readonly (string | undefined)[]): Generator<string> {
  for (let i = 0; i < batch.length; i += 2) yield batch[i]!;
}

/**
 * What a claim finds under a key: its value, 'held' (another owner's live claim), or 'free' (no
 * value, and no claim or this owner's, or one whose lease ran out or whose process is gone).
 */
function stateOf(v: string | undefined, mine: string, now: number): { value: string } | 'held' | 'free' {
  if (v === undefined) return 'free';
  if (!isClaim(v)) return { value: v };
  if (!v.startsWith(mine) && Number(v.slice(v.lastIndexOf('\0') + 1)) > now && !ownerGone(v.slice(1, v.lastIndexOf('\0')))) return 'held';
  return 'free';
}

/** The LMDB store of the memory file at `path` (absolute); see openLmdbStore. */
export class LmdbStore implements MemoryStore {
  /** a close and reopen under way (see relieve): reads and commits wait for it */
  remapping?: Promise<void>;
  /** the process's file-backed RSS (kB) after the last reopen */
  private mappedBase = rssFileKb() ?? 0;
  /** a write failed (see close) */
  private failed = false;
  /** lookups since relieve last looked at the RSS */
  private looked = 0;

  /** the claims of the run while it is alone on the file */
  private readonly solo: SoloClaims;

  constructor(
    readonly path: string,
    private db: LmdbDb,
    private readonly lockWait: LockWait,
    private readonly reopen: () => LmdbDb,
    private readonly wallClock: () => number = Date.now,
    real = path,
  ) {
    this.solo = new SoloClaims(real);
  }

  readonly claimsCarryWrites = true;

  /** the run is alone on the file (solo.ts): its claims take no transaction, and carry no writes */
  get keepsClaims(): boolean {
    return this.solo.quick(this.db, this.wallClock());
  }

  /** keys a lookup batch holds at most between two looks of relieve */
  readonly relieveEvery = RELIEVE_EVERY;

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    this.looked += keys.length;
    if (this.remapping) throw new Error(`translation memory ${this.path}: read while it is being reopened`);
    const db = this.db;
    const out = new Array<string | undefined>(keys.length);
    try {
      for (let i = 0; i < keys.length; i++) {
        const v = db.get(keys[i]);
        out[i] = isClaim(v) ? undefined : v;
      }
    } catch (e) {
      throw badMemory(this.path, errText(e, this.path));
    }
    return out;
  }

  claim(keys: readonly string[], owner: string, leaseMs: number, writes?: readonly (string | undefined)[]): Promise<ClaimState[]> {
    // (the keys it reads map the store's pages as lookups do: see relieve)
    this.looked += keys.length;
    if (writes?.length) capYoungGeneration(YOUNG_GENERATION_MB);
    const db = this.db;
    const mine = CLAIM + owner + '\0';
    // a run alone keeps its claims in the process (solo.ts): nobody else can write, no transaction is needed
    if (!writes?.length && this.solo.quick(db, this.wallClock(), leaseMs)) {
      try {
        return Promise.resolve(this.claimAlone(db, keys, mine, this.wallClock()));
      } catch (e) {
        return Promise.reject(badMemory(this.path, errText(e, this.path)));
      }
    }
    return this.guard(() =>
      db.transaction(() => {
        if (writes) this.putAll(db, writes);
        // read inside the write transaction: the state no other writer can change before it commits
        const now = this.wallClock();
        const taken = mine + String(now + leaseMs);
        const mode = this.solo.settle(db, owner, now, leaseMs, taken);
        if (mode === 'solo') return this.claimAlone(db, keys, mine, now);
        return keys.map((k): ClaimState => {
          const v = db.get(k);
          const s = stateOf(v, mine, now);
          if (s !== 'free') return s;
          // (a run waiting for one alone still renews what it holds)
          if (mode === 'wait' && !v?.startsWith(mine)) return 'held';
          db.putSync(k, taken);
          return 'claimed';
        });
      }),
    );
  }

  /** The claims of a run alone: kept in the process (solo.ts). */
  private claimAlone(db: LmdbDb, keys: readonly string[], mine: string, now: number): ClaimState[] {
    return keys.map((k): ClaimState => {
      const s = stateOf(db.get(k), mine, now);
      if (s !== 'free') return s;
      this.solo.add(k);
      return 'claimed';
    });
  }

  async release(keys: readonly string[], owner: string): Promise<void> {
    const db = this.db;
    const mine = CLAIM + owner + '\0';
    this.solo.drop(keys);
    await this.guard(() =>
      db.transaction(() => {
        for (const k of keys) if (db.get(k)?.startsWith(mine)) db.removeSync(k);
        this.solo.check(db);
      }),
    );
  }

  /** Puts a batch (see putAll); the keys written are no longer claimed, and the claims of a run alone go to the store if another came. */
  private putAll(db: LmdbDb, batch: readonly (string | undefined)[]): void {
    putAll(db, batch);
    this.solo.drop(writtenKeys(batch));
    this.solo.check(db);
  }

  write(batch: readonly (string | undefined)[]): Promise<void> {
    capYoungGeneration(YOUNG_GENERATION_MB);
    const db = this.db;
    return this.guard(() => db.transaction(() => this.putAll(db, batch))).then(() => undefined);
  }

  async flushed(): Promise<void> {
    // committed is not yet on disk: the commits go on without waiting for the sync, this waits for it
    await this.guard(() => this.db.flushed);
  }

  async *scan(start: string, end: string, snapshot: boolean): AsyncGenerator<readonly StoredPair[]> {
    let page: StoredPair[] = [];
    for (const { key, value } of this.db.getRange({ start, end, snapshot })) {
      if (isClaim(value)) continue;
      page.push({ key, value });
      if (page.length < PAGE) continue;
      yield page;
      page = [];
    }
    if (page.length) yield page;
  }

  async hasKeys(): Promise<boolean> {
    return this.db.getStats().entryCount > 0;
  }

  async bytes(): Promise<number> {
    return statSync(this.path).size;
  }

  /** whether relieve should look at the RSS now (every RELIEVE_EVERY lookups) */
  get relieveDue(): boolean {
    return this.looked >= RELIEVE_EVERY;
  }

  /**
   * Lets go of the store's pages read so far once they add up to `limitKb` of the process's RSS:
   * LMDB reads through a memory map, and every page a run touches stays resident (and counted)
   * until the map goes, so a run over a memory much larger than that closes the store and opens it
   * again (after `drain` committed what is queued). Called between lookups; a lookup made while it
   * may run awaits `remapping` first.
   */
  async relieve(drain: () => Promise<void>, limitKb = RELIEVE_KB): Promise<void> {
    this.looked = 0;
    const now = rssFileKb();
    // (a limit of 0 or less lets go of them whatever the file's size)
    if (now === undefined || now - this.mappedBase < limitKb || this.remapping || (limitKb > 0 && this.small())) return;
    // from here on, commits wait for the reopen: one started while the queued writes were being
    // made durable would be cut off by the close (lmdb-js ends the writes of a closing store)
    this.remapping = (async () => {
      await drain();
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

  /** whether the file is small enough to stay mapped whole (see RELIEVE_FILE_BYTES) */
  private small(): boolean {
    try {
      return statSync(this.path).size < RELIEVE_FILE_BYTES;
    } catch {
      return false;
    }
  }

  /** Waits for a write as for another process's write lock (waitForLock: said, limited, ended by a stop of the run). */
  private async guard<T>(start: () => Promise<T>): Promise<T> {
    let pending = true;
    try {
      return await waitForLock(this.path, () => Promise.race([start(), commitFailed]).finally(() => (pending = false)), this.lockWait);
    } catch (e) {
      this.failed = true;
      // the write stays queued behind the other process's lock: the process cannot wait for it as it exits
      if (pending) holdExit();
      if (isVxError(e)) throw e;
      // a failed commit (a full disk) says why in its commitError
      const cause = (e as { commitError?: Promise<unknown> }).commitError;
      throw badMemory(this.path, errText(cause instanceof Promise ? await cause.then(() => e, (c: unknown) => c) : e, this.path));
    }
  }

  async close(): Promise<void> {
    this.solo.closed();
    // after a failed write lmdb-js never settles close() (and holds nothing that keeps the process
    // alive: awaiting it would end the process at once, exit 0, the error unsaid)
    if (this.failed) void this.db.close().catch(() => undefined);
    else await this.db.close().catch(() => undefined);
  }
}

/** Creates a new memory's file and lock file empty with `mode` (LMDB then makes them a store). */
function createWithMode(path: string, mode: number): void {
  for (const f of [path, `${path}-lock`]) {
    try {
      closeSync(openSync(f, 'wx', mode));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw badMemory(path, `cannot create it: ${errText(e, f)}`);
    }
  }
}

/**
 * Opens (or, unless read-only, creates) the LMDB store of the memory at `path` (absolute). Any
 * problem is a UsageError naming the path: another format, a damaged file, no permission, a
 * read-only disk, a lock held past the timeout. An existing file is never recreated.
 */
export async function openLmdbStore(path: string, opts: OpenStoreOptions = {}): Promise<LmdbStore> {
  quietLmdbCommitFailures();
  const { exists, empty, real } = checkBeforeOpen(path, opts);
  // opening for writing waits for another process's write transaction, blocking the event loop:
  // when another process has the store open, a child process tries first, so that a lock held
  // past the timeout is an error instead of a hang
  const env = opts.env ?? {};
  const lockMs = opts.lockTimeoutMs ?? lockTimeout(env);
  // (the kernel takes 10-20 ms over a process's first read of /proc/locks: it is read on a
  // worker thread while lmdb loads)
  const locks = exists && !opts.readOnly ? readFile('/proc/locks', 'utf8').catch(() => undefined) : undefined;
  let lmdb: { open(o: Record<string, unknown>): LmdbDb };
  try {
    lmdb = (await import('lmdb')) as unknown as typeof lmdb;
  } catch (e) {
    throw badMemory(path, `the embedded store (lmdb) cannot be loaded: ${(e as Error).message}`);
  }
  const lockWait: LockWait = { ms: lockMs, clock: opts.clock ?? systemClock, signal: opts.signal, note: opts.note };
  if (locks && openElsewhere(real, await locks)) await probeLock(real, path, lockWait, env);
  if (!exists && !opts.readOnly && opts.mode !== undefined) createWithMode(real, opts.mode);
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
    return new LmdbStore(path, reopen(), { ...lockWait, mine: true, stopsAfterNotice: true }, reopen, opts.wallClock, real);
  } catch (e) {
    throw badMemory(path, errText(e, path));
  }
}
