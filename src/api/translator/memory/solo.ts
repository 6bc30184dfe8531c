// The claims of a run alone on a memory file, kept in the process: a claim is a write of its key
// (and the answer a second one), which a run that no other process shares the file with need not
// pay for. Such a run marks the file (SOLO: its name and a lease, renewed with each of its write
// transactions); a run that comes meanwhile finds the mark and waits for every text the memory
// has no answer for (its claims say 'held'), while the run alone, at its next write transaction
// (a claim, an answer, a renewal of its leases), sees the newcomer in LMDB's table of readers,
// writes the claims it kept into the store and removes its mark: from then on both claim in the
// store, as every run does when it is not alone. A run is alone when no other process holds a
// reader slot of the file (every run reads the memory's format mark when it opens it) and no
// other store of this process has it open. The mark of a run that died is ignored as a claim of
// it would be (claims.ts: ownerGone, or its lease ran out).
import { ownerGone } from './claims.js';

/** the key of the mark of a run that keeps its claims in its process: owner \0 the lease's end (unix ms) */
export const SOLO = '\u0005solo';

/** the part of an LMDB store the claims of a run alone use */
export interface SoloDb {
  get(key: string): string | undefined;
  putSync(key: string, value: string): void;
  removeSync(key: string): boolean;
  readerList(): string;
}

/** the stores of this process open on each file (by real path) */
const openHere = new Map<string, number>();

/** whether `mark` (SOLO's value) is another live run's */
function othersLive(mark: string | undefined, owner: string, now: number): boolean {
  if (mark === undefined) return false;
  const at = mark.lastIndexOf('\0');
  const who = mark.slice(0, at);
  return who !== owner && Number(mark.slice(at + 1)) > now && !ownerGone(who);
}

export class SoloClaims {
  /** the keys claimed while alone, neither written nor given up; undefined: the run's claims are in the store */
  private held?: Set<string>;
  /** the claim value of the run's keys should they go to the store (see publish) */
  private taken = '';
  private markedUntil = 0;
  private leaseMs = 0;
  private open = true;

  constructor(private readonly real: string) {
    openHere.set(real, (openHere.get(real) ?? 0) + 1);
  }

  /** No other process holds a reader slot of the file, and no other store of this process has it open. */
  private alone(db: SoloDb): boolean {
    if ((openHere.get(this.real) ?? 0) > 1) return false;
    const own = String(process.pid);
    let list: string;
    try {
      list = db.readerList();
    } catch {
      // (a store being reopened: see store-lmdb.ts, relieve)
      return false;
    }
    // a header line, then one line per slot: pid, thread, transaction
    const lines = list.split('\n');
    for (let i = 1; i < lines.length; i++) {
      const pid = lines[i].trim().split(/\s+/)[0];
      if (pid && pid !== own) return false;
    }
    return true;
  }

  /**
   * In a write transaction that claims (before it reads the keys): whether the run's claims are
   * kept here ('solo'), go to the store ('store'), or wait, another run keeping its own ('wait').
   * `taken` is the run's claim value with the lease from now.
   */
  settle(db: SoloDb, owner: string, now: number, leaseMs: number, taken: string): 'solo' | 'store' | 'wait' {
    this.taken = taken;
    this.leaseMs = leaseMs;
    const alone = this.alone(db);
    if (this.held && !alone) this.publish(db);
    const mark = db.get(SOLO);
    const waits = othersLive(mark, owner, now);
    if (!this.held && alone && !waits) this.held = new Set();
    if (this.held) {
      this.markedUntil = now + leaseMs;
      db.putSync(SOLO, `${owner}\0${this.markedUntil}`);
      return 'solo';
    }
    if (mark?.startsWith(`${owner}\0`)) db.removeSync(SOLO);
    return waits ? 'wait' : 'store';
  }

  /**
   * Whether a claim without writes may read the keys outside a write transaction: the run is alone
   * (nobody else can write the file) and its mark holds for more than half a lease.
   */
  quick(db: SoloDb, now: number, leaseMs = this.leaseMs): boolean {
    return this.held !== undefined && this.markedUntil - now > leaseMs / 2 && this.alone(db);
  }

  /** A key claimed while alone. */
  add(key: string): void {
    this.held!.add(key);
  }

  /** Keys written or given up: no longer held. */
  drop(keys: Iterable<string>): void {
    if (!this.held) return;
    for (const k of keys) this.held.delete(k);
  }

  /**
   * In a write transaction (answers, a release): the claims kept go to the store when another
   * process came; the mark goes when nothing is held any more (the next claim looks again).
   */
  check(db: SoloDb): void {
    if (!this.held) return;
    if (this.held.size && this.alone(db)) return;
    this.publish(db);
  }

  /** The claims kept here go to the store (their keys without an answer), and the mark goes. */
  private publish(db: SoloDb): void {
    for (const k of this.held!) {
      const v = db.get(k);
      // (a claim there is one this run took over: see settle)
      if (v === undefined || v.charCodeAt(0) === 4) db.putSync(k, this.taken);
    }
    this.held = undefined;
    db.removeSync(SOLO);
  }

  /** The store closes. */
  closed(): void {
    if (!this.open) return;
    this.open = false;
    const n = (openHere.get(this.real) ?? 1) - 1;
    if (n > 0) openHere.set(this.real, n);
    else openHere.delete(this.real);
  }
}
