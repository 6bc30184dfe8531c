// The seam between the translation memory (memory.ts: keys, values, lookups of whole results,
// queued writes) and where its entries are kept. A store holds string keys and values (key.ts,
// codec.ts) and knows nothing of translations; the embedded one is LMDB (store-lmdb.ts).
//
// Lookups are synchronous: a run looks up one text per line, and the embedded store answers from
// its memory map in about a microsecond. Writes reach the store in batches (one transaction
// each), and whole-store reads (export, stats, prune) come in pages, so that a store across the
// network pays one round trip per batch or page.

/** One key and its value. */
export interface StoredPair {
  key: string;
  value: string;
}

export interface MemoryStore {
  /** the memory's path (or address), as messages name it */
  readonly path: string;
  /** The value of `key`, or undefined. */
  get(key: string): string | undefined;
  /** Commits a batch as one transaction: key, value, key, value, ... (a value undefined removes its key). */
  write(batch: readonly (string | undefined)[]): Promise<void>;
  /** Waits until every committed batch is durable (a crash afterwards loses none of it). */
  flushed(): Promise<void>;
  /**
   * The pairs whose keys lie in [start, end), in key order, a page at a time; `snapshot`: as they
   * were when the scan began (prune commits its removals while it reads).
   */
  scan(start: string, end: string, snapshot: boolean): AsyncIterable<readonly StoredPair[]>;
  /** how many keys of any kind it holds (a store that holds keys but no format mark is another program's) */
  count(): number;
  /** the bytes it takes */
  bytes(): number;
  /**
   * A reopen under way, when the store lets go of what it read by reopening itself (see relieve):
   * commits wait for it.
   */
  readonly remapping?: Promise<void>;
  /** whether relieve should look now (a store with nothing to let go of has no relieve) */
  readonly relieveDue?: boolean;
  /**
   * Lets go of what the store holds of what was read so far, once it is too much: `drain` first
   * commits what the memory queued and waits until it is durable.
   */
  relieve?(drain: () => Promise<void>, limitKb?: number): Promise<void>;
  /** Closes it (after a failed write, without waiting for what cannot end). */
  close(): Promise<void>;
}
