// The translation memory: every answer of the service kept under a key made of everything that
// changes it (key.ts), so the same (text, options) is never paid for twice, across runs and
// processes. What it stores is one entry per (source text, target and options) in codec.ts's
// form; where it stores it is a MemoryStore (store.ts): the embedded LMDB file (store-lmdb.ts).
// Writes are queued and committed in batches, at most one commit behind the run.
import { resolve } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import type { TranslateResult, Translation } from '../../../model/translator.js';
import { badMemory, errText } from './checks.js';
import { decodeValue, encodeValue, hasText } from './codec.js';
import { canonical, entryKey, ENTRY_RANGES, FORMAT, fromCanonical, ID_END, META, OPTIONS, optionsId, textKeyed, type KeyOptions } from './key.js';
import { openLmdbStore, type OpenStoreOptions } from './store-lmdb.js';
import type { MemoryStore } from './store.js';

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

export type OpenMemoryOptions = OpenStoreOptions;

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

export class TranslationMemory {
  private readonly ids = new Map<string, string>();
  /** writes waiting for the next commit: key, value (undefined: remove), key, value, ... */
  private batch: (string | undefined)[] = [];
  /** the commit under way, if any */
  private committing?: Promise<void>;

  private constructor(
    private readonly backend: MemoryStore,
    private readonly readOnly: boolean,
  ) {}

  get path(): string {
    return this.backend.path;
  }

  /**
   * Opens (or, unless read-only, creates) the memory at `file`. Any problem is a UsageError
   * naming the path: another format, a damaged file, no permission, a read-only disk, a lock
   * held past the timeout. An existing file is never recreated.
   */
  static async open(file: string, opts: OpenMemoryOptions = {}): Promise<TranslationMemory> {
    const backend = await openLmdbStore(resolve(file), opts);
    const mem = new TranslationMemory(backend, opts.readOnly === true);
    try {
      await mem.checkFormat();
    } catch (e) {
      await backend.close().catch(() => undefined);
      if (e instanceof UsageError) throw e;
      throw badMemory(backend.path, errText(e, backend.path));
    }
    return mem;
  }

  /** The store's mark is this version's; a new store gets it at once (one that cannot be written is found before anything is sent). */
  private async checkFormat(): Promise<void> {
    const format = this.backend.get(META);
    if (format === undefined) {
      if (this.backend.count() > 0) throw badMemory(this.path, 'not a translation memory (an LMDB file of another program); vx does not change it');
    } else if (format !== FORMAT) {
      throw badMemory(this.path, `not a translation memory of this version (${JSON.stringify(format.slice(0, 60))})`);
    }
    if (!this.readOnly && format === undefined) {
      this.queue(META, FORMAT);
      await this.flush();
    }
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
   * after committing what is queued. Call it between lookups, and await `remapping` before any
   * lookup made while it may run.
   */
  async relieve(limitKb?: number): Promise<void> {
    await this.backend.relieve?.(() => this.drain(), limitKb);
  }

  /** The options id of each target (and its options record, stored once). */
  idsFor(options: KeyOptions[]): string[] {
    return options.map((o) => {
      const c = canonical(o);
      let id = this.ids.get(c);
      if (!id) {
        id = optionsId(o);
        this.ids.set(c, id);
        if (!this.readOnly && this.backend.get(OPTIONS + id) === undefined) this.queue(OPTIONS + id, c);
      }
      return id;
    });
  }

  /** The stored result of `text` for one target, or undefined. */
  get(id: string, text: string): TranslateResult | undefined {
    const key = entryKey(id, text);
    const raw = this.backend.get(key);
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

  /** Adds one entry (import); committed by `commit` or `flush`. */
  add(e: MemoryEntry): void {
    const [id] = this.idsFor([e.options]);
    const key = entryKey(id, e.source);
    this.queue(key, encodeValue(e.stored, e.result, textKeyed(key) ? undefined : e.source));
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
    if (this.backend.remapping) await this.backend.remapping;
    await this.commitQueued();
  }

  /** commit's work, without waiting for a reopen under way (the reopen's own commit) */
  private async commitQueued(): Promise<void> {
    const before = this.committing;
    if (this.batch.length) {
      const batch = this.batch;
      this.batch = [];
      const started = this.backend.write(batch);
      // a failure is reported by whoever waits for it next (this commit's successor, flush or close)
      started.catch(() => undefined);
      this.committing = started;
    }
    await before;
  }

  /** Waits until every queued write is committed (durable: a crash afterwards loses none of it). */
  async flush(): Promise<void> {
    if (this.backend.remapping) await this.backend.remapping;
    await this.drain();
  }

  /** flush's work, without waiting for a reopen under way (the reopen's own flush) */
  private async drain(): Promise<void> {
    await this.commitQueued();
    const last = this.committing;
    this.committing = undefined;
    await last;
    await this.backend.flushed();
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
            const raw = this.backend.get(OPTIONS + id);
            o = raw === undefined ? undefined : fromCanonical(raw);
            options.set(id, o);
          }
          if (o) yield { key, options: o, stored: v.stored, source, result: v.result };
        }
      }
    }
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
    return { path: this.path, entries, bytes: this.backend.bytes(), pairs, oldest, newest };
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.backend.close();
    }
  }
}
