// The seam between the translation memory (memory.ts: keys, values, lookups of whole results,
// queued writes, claims of the texts a run sends) and where its entries are kept. A store holds
// string keys and values (key.ts, codec.ts) and knows nothing of translations; the embedded one is
// LMDB (store-lmdb.ts).
//
// The contract every store keeps:
//
// - Lookups are asynchronous and batched: `getMany` answers a whole batch of keys in one round
//   trip (a store across the network pays per round trip, not per key). Callers batch what they
//   need (the texts of a chunk of input, every target of each) and call it once per batch.
// - Writes reach the store in batches, one transaction each (`write`); a key written with a value
//   ends any claim on it. `flushed` waits until what was committed is durable.
// - Whole-store reads (export, stats, prune) come in pages (`scan`), in key order (UTF-8 byte
//   order, the same in every store), claims left out.
// - Claims make concurrent runs (processes, machines) pay once for a text: `claim` takes, in one
//   atomic step per batch, each key that has no value and no live claim of another owner; the
//   lease is the store's clock plus `leaseMs`. Per key it answers the value when one is stored
//   (answered meanwhile), 'claimed' when the caller now holds it (also when it held it already:
//   claiming again renews the lease), 'held' while another owner's lease runs. A claim whose lease
//   ran out (its run died or hung) is taken over by the next `claim`. An owner writes the value of
//   what it claimed (which ends the claim), or gives it up with `release`. An owner renews the
//   leases of what it holds (claim again) before they run out; one that waits for a key held by
//   another asks `claim` again now and then, which answers the value once it is stored and takes
//   the key over once the lease ran out. Claims are never seen by getMany, scan or the entries
//   counted by stats.
// - `count` and `bytes` are asynchronous (a server is asked).

/** One key and its value. */
export interface StoredPair {
  key: string;
  value: string;
}

/** What `claim` answers for one key: its value (stored meanwhile), or whether the caller now holds it. */
export type ClaimState = { value: string } | 'claimed' | 'held';

export interface MemoryStore {
  /** the memory's path (or address, without any password), as messages name it */
  readonly path: string;
  /** The values of `keys`, in order (undefined where a key has none), in one round trip. */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>;
  /**
   * Commits a batch as one transaction: key, value, key, value, ... (a value undefined removes its
   * key). Writing a key's value ends any claim on it.
   */
  write(batch: readonly (string | undefined)[]): Promise<void>;
  /** Waits until every committed batch is durable (a crash afterwards loses none of it). */
  flushed(): Promise<void>;
  /**
   * The pairs whose keys lie in [start, end), in key order, a page at a time; `snapshot`: as they
   * were when the scan began (prune commits its removals while it reads). Claims are left out.
   */
  scan(start: string, end: string, snapshot: boolean): AsyncIterable<readonly StoredPair[]>;
  /**
   * Claims `keys` for `owner` for `leaseMs` (one atomic step, one round trip): see the top of this
   * file. A store opened read-only has no claims (the memory does not ask). `writes`, a batch as
   * `write` takes it, is committed with the claims, before them (in the same transaction where the
   * store can: a run's answers ride with its next claims instead of paying for a commit of their own).
   */
  claim(keys: readonly string[], owner: string, leaseMs: number, writes?: readonly (string | undefined)[]): Promise<ClaimState[]>;
  /** `claim` commits its `writes` in the claims' own transaction (so a run's answers may wait for its next claim) */
  readonly claimsCarryWrites?: boolean;
  /** the run's claims are kept in the process for now (a run alone on an LMDB file): they carry no writes */
  readonly keepsClaims?: boolean;
  /** Gives up `owner`'s claims on `keys` (those with a value, or held by another, are left as they are). */
  release(keys: readonly string[], owner: string): Promise<void>;
  /** the store may only be read (a role without the right to write it): the memory looks up only */
  readonly readOnly?: boolean;
  /**
   * why the store was lost during a run, the answers it did not store since, and how many of those
   * were being written as it was lost (a store that goes on without failing the run)
   */
  readonly lost?: { reason: string; notStored: number; perhapsStored: number };
  /** whether it holds any key of any kind (a store that holds keys but no format mark is another program's) */
  hasKeys(): Promise<boolean>;
  /** the bytes it takes */
  bytes(): Promise<number>;
  /**
   * A reopen under way, when the store lets go of what it read by reopening itself (see relieve):
   * commits and lookups wait for it.
   */
  readonly remapping?: Promise<void>;
  /** whether relieve should look now (a store with nothing to let go of has no relieve) */
  readonly relieveDue?: boolean;
  /** keys a lookup batch holds at most between two looks of relieve (see relieve) */
  readonly relieveEvery?: number;
  /**
   * Lets go of what the store holds of what was read so far, once it is too much: `drain` first
   * commits what the memory queued and waits until it is durable.
   */
  relieve?(drain: () => Promise<void>, limitKb?: number): Promise<void>;
  /** Closes it (after a failed write, without waiting for what cannot end). */
  close(): Promise<void>;
}
