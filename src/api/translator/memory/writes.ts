// The writes of a translation memory waiting for their commit: queued, and committed in batches
// (one transaction each), at most one commit behind the run, so that writing never stops it for
// a disk sync. A run that claims texts (claims.ts) as it reads its input has its answers carried by
// its next claim, in the claim's own transaction where the store can (LMDB): a write transaction
// saved is what a run on a fresh memory spends most on, each one rewriting the pages its keys fall in.
import type { Clock } from '../../../core/clock.js';
import type { MemoryStore } from './store.js';

/** how long queued answers may wait for the run's next claim (ms); then they are committed on their own */
const RIDE_MS = 200;
/**
 * the answers that may wait so, at most (entries): a transaction takes a page of memory for each
 * page it changes (LMDB copies it), and answers to random keys change about a page each (100,000
 * lines with a fresh memory cost the same CPU with 2,048 as with 8,192)
 */
const RIDE_MAX = 2048;

export class QueuedWrites {
  /** writes waiting for the next commit: key, value (undefined: remove), key, value, ... */
  private batch: (string | undefined)[] = [];
  /** the commits under way, if any */
  private committing?: Promise<void>;
  /** when the run last claimed (the clock's time): its next claim may carry what is queued */
  private claimedAt = -Infinity;
  /** the wait after which what waited for a claim that did not come is committed (see ride) */
  private rideTimer?: AbortController;

  constructor(
    private readonly backend: MemoryStore,
    private readonly clock: Clock,
  ) {}

  push(key: string, value: string | undefined): void {
    this.batch.push(key, value);
  }

  /** writes queued and not yet committed */
  get size(): number {
    return this.batch.length / 2;
  }

  /**
   * A claim is made: what is queued, for the claim to commit with it (undefined when nothing is,
   * or the store cannot); `claiming` is then that claim, which a flush waits for.
   */
  forClaim(): { writes?: (string | undefined)[]; claiming(p: Promise<unknown>): void } {
    this.claimedAt = this.clock.now();
    // (a run alone claims without a transaction: what is queued waits for its own, see ride)
    if (!this.backend.claimsCarryWrites || !this.batch.length || this.backend.keepsClaims) return { claiming: () => undefined };
    const writes = this.batch;
    this.batch = [];
    return { writes, claiming: (p) => this.track(p.then(() => undefined)) };
  }

  /**
   * Starts committing what is queued (one transaction), or leaves it for the run's next claim to
   * carry (see ride), and waits only for the commit before it.
   */
  async commit(): Promise<void> {
    if (this.ride()) await this.committing;
    else await this.commitAfterReopen();
  }

  /**
   * Whether what is queued waits for the run's next claim, which commits it with the claims in
   * one transaction: while the run claims (it did a moment ago), for RIDE_MS at most (then it is
   * committed on its own), RIDE_MAX entries at most.
   */
  private ride(): boolean {
    if (!this.backend.claimsCarryWrites || this.batch.length >= RIDE_MAX * 2 || this.clock.now() - this.claimedAt > RIDE_MS) return false;
    if (!this.rideTimer) {
      const timer = (this.rideTimer = new AbortController());
      this.clock.sleep(RIDE_MS, timer.signal).then(
        () => {
          this.rideTimer = undefined;
          // (a failure is reported by whoever waits for a commit next: see track)
          if (this.batch.length) void this.commitAfterReopen().catch(() => undefined);
        },
        () => undefined,
      );
    }
    return true;
  }

  /** What is queued, committed on its own (after a reopen under way). */
  private async commitAfterReopen(): Promise<void> {
    if (this.backend.remapping) await this.backend.remapping;
    await this.commitQueued();
  }

  /** commit's work, without waiting for a reopen under way (the reopen's own commit) */
  private async commitQueued(): Promise<void> {
    const before = this.committing;
    if (this.batch.length) {
      const batch = this.batch;
      this.batch = [];
      this.track(this.backend.write(batch));
    }
    await before;
  }

  /** A commit started: a flush waits for it (and for those before it). */
  private track(started: Promise<void>): void {
    // a failure is reported by whoever waits for it next (this commit's successor, flush or close)
    started.catch(() => undefined);
    const before = this.committing;
    this.committing = before ? Promise.all([before, started]).then(() => undefined) : started;
    this.committing.catch(() => undefined);
  }

  /** Commits what is queued and waits until every commit is durable, without waiting for a reopen under way (the reopen's own flush). */
  async drain(): Promise<void> {
    await this.commitQueued();
    const last = this.committing;
    this.committing = undefined;
    await last;
    await this.backend.flushed();
  }

  /** No more waits for a claim (the memory closes: its flush commits what is queued). */
  stop(): void {
    this.rideTimer?.abort();
    this.rideTimer = undefined;
  }
}
