// The translation memory: every answer of the service kept under a key made of everything that
// changes it (key.ts), so the same (text, options) is never paid for twice, across runs and
// processes. What it stores is one entry per (source text, target and options) in codec.ts's
// form (whole or in part: recall.ts); where it stores it is a MemoryStore (store.ts): the embedded LMDB file (store-lmdb.ts).
// Lookups come in batches (one store round trip each); writes are queued and committed in
// batches, at most one commit behind the run (writes.ts). A run that sends a text claims it first (claims.ts),
// so that concurrent runs sharing the memory pay for it once.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { systemClock, type Clock } from '../../../core/clock.js';
import { isVxError, type UsageError } from '../../../core/errors.js';
import type { TranslateResult, Translation } from '../../../model/translator.js';
import { badMemory, errText } from './checks.js';
import { decodeValue, encodeValue, hasText } from './codec.js';
import { LEASE_MS, RunClaims, runOwner } from './claims.js';
import { canonical, ENTRY, entryKey, EntryKeys, ENTRY_RANGES, FORMAT, fromCanonical, HASHED, ID_END, META, OPTIONS, optionsId, textKeyed, type KeyOptions } from './key.js';

/** the end of the key ranges copyTo copies (past the hashed entries) */
const HASHED_END = '\u0004';
import { isPostgresUrl } from './pg-settings.js';
import { joinParts, toRecall, type Claimed, type Recall } from './recall.js';
import { openLmdbStore, type OpenStoreOptions } from './store-lmdb.js';
import type { OpenPgOptions } from './store-pg.js';
import type { MemoryStore } from './store.js';
import { QueuedWrites } from './writes.js';

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

export interface OpenMemoryOptions extends OpenStoreOptions, Pick<OpenPgOptions, 'whenLost' | 'note' | 'debug'> {
  /** the name this run's claims carry (default: host, process and a random part) */
  owner?: string;
  /** how long a claim holds unless renewed (default LEASE_MS) */
  leaseMs?: number;
  /** a store the role may only read: 'lookups-only' (a run: said with `note`) or an error (default: the commands that write) */
  readOnlyRole?: 'lookups-only' | 'fail';
}


/** What stderr says the first time a memory is created: the file and the lock LMDB keeps beside it. */
export function createdNote(path: string): string {
  return `created the translation memory ${path} (and ${path}-lock beside it, the lock of its store): keep it to pay for each text once`;
}

export class TranslationMemory {
  /** canonical options -> options id, of the ids handed out */
  private readonly ids = new Map<string, string>();
  /** options id -> canonical options, of every options record known (read at open) */
  private readonly options = new Map<string, string>();
  /** the writes waiting for their commit */
  private readonly writes: QueuedWrites;
  private readonly claims: RunClaims;
  private wasNew = false;
  /** the entry keys of the ids handed out (with a run's glossary) */
  private readonly keys = new EntryKeys();

  private constructor(
    private readonly backend: MemoryStore,
    private readonly readOnly: boolean,
    lease: { owner?: string; leaseMs?: number; clock?: Clock },
  ) {
    this.claims = new RunClaims(backend, lease.owner ?? runOwner(), lease.leaseMs ?? LEASE_MS);
    this.writes = new QueuedWrites(backend, lease.clock ?? systemClock);
  }

  /** this run created the file (and LMDB its `-lock` beside it): said once, the first time */
  created = false;

  get path(): string {
    return this.backend.path;
  }

  /** why the store was lost during the run, and how many answers it did not store since (a PostgreSQL memory opened with whenLost 'go-on') */
  get lost(): { reason: string; notStored: number; perhapsStored: number } | undefined {
    return this.backend.lost;
  }

  /**
   * It held nothing when opened (a new memory): what a run could find there is what another run
   * stored since, which a claim answers as well (so a run claims without looking first).
   */
  get fresh(): boolean {
    return this.wasNew;
  }

  /** the name this run's claims carry */
  get owner(): string {
    return this.claims.owner;
  }

  /**
   * Opens (or, unless read-only, creates) the memory at `file`. Any problem is a UsageError
   * naming the path: another format, a damaged file, no permission, a read-only disk, a lock
   * held past the timeout. An existing file is never recreated.
   */
  static async open(file: string, opts: OpenMemoryOptions = {}): Promise<TranslationMemory> {
    // (a file created now is said once: see created)
    const existed = isPostgresUrl(file) || existsSync(file);
    // (the PostgreSQL store and its client are loaded only for such a memory)
    const backend: MemoryStore = isPostgresUrl(file) ? await (await import('./store-pg.js')).openPgStore(file, opts) : await openLmdbStore(resolve(file), opts);
    if (backend.readOnly && !opts.readOnly) {
      // a role that may only read: a run looks up only (said once); a command that writes stops
      if (opts.readOnlyRole !== 'lookups-only') {
        await backend.close().catch(() => undefined);
        throw badMemory(backend.path, 'it may only be read (the role may not write it); nothing was changed');
      }
      opts.note?.(`translation memory ${backend.path}: the role may only read it: lookups only, no answer of this run is stored`);
    }
    const mem = new TranslationMemory(backend, opts.readOnly === true || backend.readOnly === true, opts);
    try {
      // (created: the file was not there and this process marked the new store; of two runs that
      // start at once on no file, the one whose mark went in first)
      mem.created = (await mem.checkFormat()) && !existed;
      await mem.readOptions();
    } catch (e) {
      await backend.close().catch(() => undefined);
      if (isVxError(e)) throw e;
      throw badMemory(backend.path, errText(e, backend.path));
    }
    return mem;
  }

  /** The store's mark is this version's; a new store gets it at once (one that cannot be written is found before anything is sent). True when this call marked it. */
  private async checkFormat(): Promise<boolean> {
    let [format] = await this.backend.getMany([META]);
    if (format === undefined && (await this.backend.hasKeys())) {
      // another run that made the memory a moment ago writes its mark first: read once more
      [format] = await this.backend.getMany([META]);
      if (format === undefined) throw await this.withoutMark();
    }
    if (format !== undefined && format !== FORMAT) {
      throw badMemory(this.path, `not a translation memory of this version (${JSON.stringify(format.slice(0, 60))})`);
    }
    this.wasNew = format === undefined;
    if (this.readOnly || format !== undefined) return false;
    this.queue(META, FORMAT);
    await this.flush();
    return true;
  }

  /**
   * Why a store that counts entries lacks vx's mark: its first keys are vx's, or none can be read
   * (garbage in its pages: damaged), or they are another program's.
   */
  private async withoutMark(): Promise<UsageError> {
    const damaged = badMemory(this.path, "damaged (its entries cannot be read, nor vx's mark in it); vx does not change it: restore it from a copy, or move it away to start a new one");
    try {
      for await (const page of this.backend.scan('\u0000', '\uffff', false)) {
        if (page.some((p) => p.key >= ENTRY && p.key < '\u0004')) return damaged;
        return badMemory(this.path, 'not a translation memory (an LMDB file of another program); vx does not change it');
      }
    } catch {
      // (LMDB's own error on a page it cannot make sense of)
    }
    return damaged;
  }

  /** The options records (a few: one per target and options ever used), read once. */
  private async readOptions(): Promise<void> {
    for await (const page of this.backend.scan(OPTIONS, HASHED, false)) for (const { key, value } of page) this.options.set(key.slice(1), value);
  }

  /** a reopen of the store under way (see relieve) */
  get remapping(): Promise<void> | undefined {
    return this.backend.remapping;
  }

  /** whether relieve should look now */
  get relieveDue(): boolean {
    return this.backend.relieveDue === true;
  }

  /**
   * Lets go of what the store holds of what was read (LMDB: its mapped pages) once it is too much,
   * after committing what is queued. Lookups call it between batches themselves.
   */
  async relieve(limitKb?: number): Promise<void> {
    await this.backend.relieve?.(() => this.writes.drain(), limitKb);
  }

  /** The options id of each target (and its options record, stored once). */
  idsFor(options: KeyOptions[]): string[] {
    return options.map((o) => {
      const c = canonical(o);
      let id = this.ids.get(c);
      if (!id) {
        id = optionsId(o);
        this.ids.set(c, id);
        this.keys.target(id, o.to);
        if (!this.readOnly && !this.options.has(id)) {
          this.options.set(id, c);
          this.queue(OPTIONS + id, c);
        }
      }
      return id;
    });
  }

  /** The values of `keys` (one round trip; a store that lets go of what it read does so between pieces). */
  private async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    const every = this.backend.relieve ? (this.backend.relieveEvery ?? keys.length) : keys.length;
    if (keys.length <= every && !this.backend.relieveDue) {
      if (this.backend.remapping) await this.backend.remapping;
      return this.backend.getMany(keys);
    }
    const out: (string | undefined)[] = [];
    for (let i = 0; i < keys.length; i += every) {
      if (this.backend.relieveDue) await this.relieve();
      if (this.backend.remapping) await this.backend.remapping;
      for (const v of await this.backend.getMany(keys.slice(i, i + every))) out.push(v);
    }
    return out;
  }

  /** The stored result a value holds for `text`, or undefined. */
  private decode(key: string, raw: string | undefined, text: string): TranslateResult | undefined {
    if (raw === undefined) return undefined;
    const v = decodeValue(raw);
    if (!v) return undefined;
    // under a hashed key the value carries the text: a 256-bit hash match with another text would
    // be a miracle, but the text is checked anyway
    return textKeyed(key) || v.source === text ? v.result : undefined;
  }

  /** A run with a glossary: the key of a text holds the terms that applied to it for the target (a changed term misses exactly its texts). */
  useGlossary(applied: (text: string, to: string) => string | undefined): void {
    this.keys.applied = applied;
  }

  /** The keys of `texts` for every target: text by text, target by target. */
  private keysOf(ids: readonly string[], texts: readonly string[]): string[] {
    const keys = new Array<string>(texts.length * ids.length);
    let k = 0;
    for (const text of texts) for (const id of ids) keys[k++] = this.keys.of(id, text);
    return keys;
  }

  /**
   * What is stored of each of `texts` for each target (`ids` in --to order), in one round trip:
   * see Recall; undefined when nothing is (with `parts` false: unless all are).
   */
  async recall(ids: readonly string[], texts: readonly string[], parts = true): Promise<(Recall | undefined)[]> {
    const keys = this.keysOf(ids, texts);
    const values = await this.getMany(keys);
    const n = ids.length;
    return texts.map((text, t) => {
      if (n === 1) {
        const r = this.decode(keys[t], values[t], text);
        return r && { result: r };
      }
      const found = ids.map((_, k) => this.decode(keys[t * n + k], values[t * n + k], text));
      return toRecall(found, parts);
    });
  }

  /** The whole result of each of `texts` for every target (`ids` in --to order), or undefined unless all are stored. */
  async lookupMany(ids: readonly string[], texts: readonly string[]): Promise<(TranslateResult | undefined)[]> {
    return (await this.recall(ids, texts, false)).map((r) => (r && 'result' in r ? r.result : undefined));
  }

  /** The whole result of `text` (lookupMany of one). */
  async lookup(ids: readonly string[], text: string): Promise<TranslateResult | undefined> {
    return (await this.lookupMany(ids, [text]))[0];
  }

  /**
   * Claims each of `texts` for the targets `ids` (store.ts), in one round trip: per text, what is
   * stored (a whole result: nothing to send), else the missing targets, which this run now holds
   * and sends (and stores, which ends the claims; or gives up with `release`), or 'held' when
   * another run holds one of them (this run then holds none of them, and asks again later: the
   * answer, once stored, or the text itself once that run's lease ran out). A read-only memory
   * claims nothing: what is missing is to send.
   */
  async claim(ids: readonly string[], texts: readonly string[]): Promise<Claimed[]> {
    if (this.readOnly) return (await this.recall(ids, texts)).map((r) => r ?? { parts: ids.map(() => undefined), missing: ids.map((_, k) => k) });
    const keys = this.keysOf(ids, texts);
    // a claim reads the store as a lookup does (a run on a new memory claims without looking first):
    // what the store holds of what was read is let go of as after lookups, and no claim meets a reopen
    if (this.backend.relieveDue) await this.relieve();
    if (this.backend.remapping) await this.backend.remapping;
    // what is queued goes with the claims, in their transaction
    const carried = this.writes.forClaim();
    const claiming = this.claims.claim(keys, carried.writes);
    carried.claiming(claiming);
    const states = await claiming;
    const n = ids.length;
    const giveUp: string[] = [];
    const out = texts.map((text, t): Claimed => {
      const parts: (TranslateResult | undefined)[] = [];
      const missing: number[] = [];
      let held = false;
      for (let k = 0; k < n; k++) {
        const s = states[t * n + k];
        const r = typeof s === 'object' ? this.decode(keys[t * n + k], s.value, text) : undefined;
        parts.push(r);
        if (!r) missing.push(k);
        held ||= s === 'held';
      }
      if (held) {
        // all or nothing: a run that held some targets while waiting for the others could wait for a run waiting for it
        for (const k of missing) if (states[t * n + k] === 'claimed') giveUp.push(keys[t * n + k]);
        return 'held';
      }
      return missing.length ? { parts, missing } : { result: joinParts(parts as TranslateResult[]) };
    });
    if (giveUp.length) await this.claims.release(giveUp);
    return out;
  }

  /** Gives up this run's claims of `texts` for the targets `ids` (it will not send them). */
  async release(ids: readonly string[], texts: readonly string[]): Promise<void> {
    if (!this.readOnly) await this.claims.release(this.keysOf(ids, texts));
  }

  /** Stores the service's result of `text` (one entry per target); committed by `commit` or `flush`. */
  store(ids: readonly string[], text: string, result: TranslateResult, now = Math.floor(Date.now() / 1000)): void {
    const translations = result.translations ?? [];
    for (let i = 0; i < ids.length; i++) {
      const t: Translation | undefined = translations[i];
      // a translation the service sent without its text is not an answer to keep
      if (!hasText(t)) continue;
      const one: TranslateResult = ids.length === 1 && translations.length === 1 ? result : { ...result, translations: [t] };
      const key = this.keys.of(ids[i], text);
      this.claims.written(key);
      this.queue(key, encodeValue(now, one, textKeyed(key) ? undefined : text));
    }
  }

  /** Adds one entry (import); committed by `commit` or `flush`. */
  add(e: MemoryEntry): void {
    const [id] = this.idsFor([e.options]);
    const key = entryKey(id, e.source);
    this.queue(key, encodeValue(e.stored, e.result, textKeyed(key) ? undefined : e.source));
  }

  private queue(key: string, value: string | undefined): void {
    // a memory that may only be read (--estimate, --dry-run, a role without the right) keeps nothing
    if (this.readOnly) return;
    this.writes.push(key, value);
  }

  /** writes queued and not yet committed */
  get queued(): number {
    return this.writes.size;
  }

  /**
   * Starts committing what is queued (one transaction), or leaves it for the run's next claim to
   * carry (writes.ts), and waits only for the commit before it: at most one commit runs behind the
   * caller, so writing never stops the run for a disk sync.
   */
  async commit(): Promise<void> {
    await this.writes.commit();
  }

  /** Waits until every queued write is committed (durable: a crash afterwards loses none of it). */
  async flush(): Promise<void> {
    if (this.backend.remapping) await this.backend.remapping;
    await this.writes.drain();
  }

  /** Every entry, in key order (for export); streams, holds a page at a time. `snapshot`: as they were when it began. */
  async *entries(snapshot = false): AsyncGenerator<MemoryEntry & { key: string }> {
    const options = new Map<string, KeyOptions | undefined>();
    for (const [start, end] of ENTRY_RANGES) {
      for await (const page of this.backend.scan(start, end, snapshot)) {
        for (const { key, value } of page) {
          const v = decodeValue(value);
          const id = key.slice(1, ID_END);
          const source = textKeyed(key) ? key.slice(ID_END) : v?.source;
          if (!v || source === undefined) continue;
          let o = options.get(id);
          if (!options.has(id)) {
            // a record another run stored after this one read them
            const raw = this.options.get(id) ?? (await this.backend.getMany([OPTIONS + id]))[0];
            o = raw === undefined ? undefined : fromCanonical(raw);
            options.set(id, o);
          }
          if (o) yield { key, options: o, stored: v.stored, source, result: v.result };
        }
      }
    }
  }

  /**
   * Copies every entry (and the options records) into `target`, as stored, a page at a time (one
   * commit each, streamed: memory stays bounded); `page` is called after each page with the
   * entries copied so far (it may throw to stop: what was copied stays). Returns how many entries.
   */
  async copyTo(target: TranslationMemory, page?: (copied: number) => void | Promise<void>): Promise<number> {
    if (target.readOnly) throw badMemory(target.path, 'it may only be read (the role may not write it): nothing was copied');
    let n = 0;
    // entries with their text (\x01), the options records (\x02), entries under a hash (\x03)
    for await (const pairs of this.backend.scan(ENTRY, HASHED_END, false)) {
      for (const { key, value } of pairs) {
        target.queue(key, value);
        if (key[0] === OPTIONS) target.options.set(key.slice(1), value);
        else n++;
      }
      await target.commit();
      await page?.(n);
    }
    await target.flush();
    return n;
  }

  /** Removes the entries `drop` chooses; returns how many (committed when it returns). */
  async prune(drop: (e: MemoryEntry) => boolean): Promise<number> {
    let n = 0;
    for await (const e of this.entries(true)) {
      if (drop(e)) {
        this.queue(e.key, undefined);
        n++;
        if (this.queued >= 10_000) await this.commit();
      }
    }
    await this.flush();
    return n;
  }

  async stats(): Promise<MemoryStats> {
    const pairs: Record<string, number> = {};
    let entries = 0;
    let oldest: number | undefined;
    let newest: number | undefined;
    for await (const e of this.entries()) {
      entries++;
      const pair = `${e.options.from || 'auto'}>${e.options.to}`;
      pairs[pair] = (pairs[pair] ?? 0) + 1;
      if (oldest === undefined || e.stored < oldest) oldest = e.stored;
      if (newest === undefined || e.stored > newest) newest = e.stored;
    }
    return { path: this.path, entries, bytes: await this.backend.bytes(), pairs, oldest, newest };
  }

  /** Commits what is queued, gives up the claims still held (texts not sent), closes the store. */
  async close(): Promise<void> {
    this.writes.stop();
    try {
      await this.flush();
      await this.claims.end();
    } finally {
      await this.backend.close();
    }
  }
}
