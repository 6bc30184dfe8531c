// A pacer shared by every concurrent request of a run: it spends "cost units" (characters for the
// translator, requests for ERP $batch or management reads) at an allowed rate that it learns
// from the service's throttling answers (429 + Retry-After) or that the user configured, so that
// a long run stays just under the service's limit instead of bouncing off it. It knows nothing of
// any API: the caller names the cost of each request.
//
// Use (core/http does this for a request that carries `pace`):
//
//     const pacer = new Pacer({ perMinute: 2_000_000 / 60 });   // or new Pacer() to learn
//     const ticket = await pacer.acquire(cost, signal);          // waits for its turn
//     ...send...
//     pacer.accepted(ticket);                                    // a 2xx
//     const waitMs = pacer.throttled(ticket, retryAfterMs);      // a 429: wait, acquire again
//
// How it paces: a virtual schedule (GCRA): each acquisition books cost/rate of time after the
// previous one, with a burst tolerance; waiters are served first come, first served. Until the
// first 429 (and without a configured rate) no rate holds anything back (only the first volley's
// answers are waited for, below).
//
// How it learns: the service throttles with a bucket of some size B refilled at the rate r. At
// the first 429 the units accepted so far (with those granted alongside the refused request and
// not answered yet) are about B plus what came in meanwhile, so r is first estimated as
// (those + the refused request) / max(1 s, elapsed + Retry-After). The refused request waits its
// Retry-After; the others go on at r from an empty bucket (pausing everyone for a whole-second
// Retry-After left the bucket full and idle: ~10 % of a 10 s run). From then on the bucket is known
// to be empty at each 429: the units accepted between two 429s of a saturated run, divided by the
// time between them, measure r (accumulated across 429s, so the measure sharpens as the run
// goes; what was sent and is not answered yet counts as through: its answer is on the way, and
// leaving it out made the measure a request low, ~8 % in a short run). Before the first 429, the
// requests sent before any answer came (the first volley) are all answered before more go (1 s at
// most), and later a request freed by an answer waits for the other answers already in to be
// handled, so that a 429 among them holds it back rather than it being sent into the bucket that
// 429 found empty. A request that ends otherwise (a failure, another status) hands its ticket back
// with `released`: nothing is learned from it. While no 429 comes and the pacer is what holds
// requests back, the rate is raised slowly (a probe), so a limit that was underestimated or raised
// is found again. A 429 for a
// request that was sent before the last lesson was learned teaches nothing new.
// A configured rate is a ceiling: the pacer never goes above it, and 429s may still lower it.
import { InterruptedError } from './errors.js';
import { systemClock, type Clock } from './clock.js';
import { Wakeup } from './wakeup.js';

export interface PacerOptions {
  /** a rate the user knows (units per minute): paced from the first request, never exceeded */
  perMinute?: number;
  clock?: Clock;
  /** the wait after a 429 that gave no Retry-After, in ms (default 1,000) */
  defaultRetryAfterMs?: number;
  /** how fast a measured rate is raised while no 429 comes, per second of pacing (default 0.003: 0.3 %, ~20 % a minute) */
  probePerSecond?: number;
  /**
   * with `perMinute`: the units that may go at once before the rate holds anything back (a service
   * that counts requests over a sliding window lets a whole window's worth through at once)
   */
  burst?: number;
}

/** One acquisition: hand it back to `accepted` or `throttled`. */
export interface Ticket {
  readonly cost: number;
  /** when it was granted (clock ms) */
  readonly at: number;
  /** the lessons learned when it was granted */
  readonly lesson: number;
}

export interface PacerStats {
  /** units of the requests the service accepted */
  units: number;
  accepted: number;
  /** 429 answers */
  rejected: number;
  /** the allowed rate as now known, units per minute (undefined: not learned, not configured) */
  perMinute?: number;
  /** ms from the first acquisition to the last answer */
  elapsedMs: number;
  /** accepted units per minute over elapsedMs (undefined before any answer) */
  effectivePerMinute?: number;
  /** total ms requests waited for their turn (summed over concurrent waiters) */
  waitedMs: number;
}

/** The interface core/http needs (a Pacer, or anything that paces the same way). */
export interface Paced {
  acquire(cost: number, signal?: AbortSignal): Promise<Ticket>;
  accepted(ticket: Ticket): void;
  throttled(ticket: Ticket, retryAfterMs?: number): number;
  /** the request of `ticket` ended: a ticket not accepted or throttled (a failure, another status) goes back, nothing learned; any other, nothing happens */
  released?(ticket: Ticket): void;
  /** how many requests of the run were accepted so far (core/http: is the run still making progress?) */
  stats?(): { accepted: number };
}

const MINUTE = 60_000;
/** two 429s closer than this (ms) measure nothing: the rate is cut instead */
const MIN_MEASURE_MS = 500;
/** the first lesson takes the units accepted so far as at least this long's worth (ms) */
const FIRST_WINDOW_MS = 1000;
/** a measure needs this many requests' worth of units since the anchor (its error is one request's worth) */
const MEASURE_COSTS = 4;
/** the longest a request waits for the first volley to be answered (ms) */
const VOLLEY_WAIT_MS = 1000;
/** how fast the rate is raised before it was first measured, per second of pacing (15 %: the first guess may be well under) */
const SLOW_START_PER_SECOND = 0.15;
/** a measure older than this (ms) starts again at the next 429, so a changed limit is followed */
const REANCHOR_MS = 30_000;

export class Pacer implements Paced {
  private readonly clock: Clock;
  private readonly ceiling?: number;
  private readonly defaultRetryAfterMs: number;
  private readonly probe: number;
  /** units per ms, once known */
  private rate?: number;
  /** burst tolerance in units (what the service's bucket holds, as far as known) */
  private burst = 0;
  /** the schedule: the virtual time by which everything booked so far has been spent */
  private tat = -Infinity;
  /** acquisitions wait in line: each one books its slot after the one before */
  private line: Promise<unknown> = Promise.resolve();
  /** the start of the current measure (a 429: the service's bucket was empty) and the units accepted since */
  private anchorAt?: number;
  private anchorUnits = 0;
  /** lessons learned (fresh 429s): a 429 of a request granted before the last one teaches nothing */
  private lessons = 0;
  /** whether the rate was measured between two 429s (before, it is the first lesson's guess) */
  private measured = false;
  /** the last time the rate was probed upward, and whether a request has waited since */
  private probedAt?: number;
  private heldBack = false;
  private firstAt?: number;
  private lastAt?: number;
  private units = 0;
  /** tickets granted and not answered yet */
  private readonly inflight = new Set<Ticket>();
  /** the first volley: tickets granted before any answer came, not answered yet */
  private readonly volley = new Set<Ticket>();
  /** the booking waiting for the first volley (bookings take turns: one at a time) */
  private readonly volleyDone = new Wakeup();
  private acceptedCount = 0;
  private rejectedCount = 0;
  private waited = 0;

  constructor(opts: PacerOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.defaultRetryAfterMs = opts.defaultRetryAfterMs ?? 1000;
    this.probe = opts.probePerSecond ?? 0.003;
    if (opts.perMinute !== undefined) {
      if (!(opts.perMinute > 0) || !Number.isFinite(opts.perMinute)) throw new RangeError('perMinute must be a positive number');
      this.ceiling = opts.perMinute / MINUTE;
      this.rate = this.ceiling;
      if (opts.burst !== undefined && opts.burst > 0) this.burst = opts.burst;
    }
  }

  /** the allowed rate as now known, in units per minute */
  get perMinute(): number | undefined {
    return this.rate === undefined ? undefined : this.rate * MINUTE;
  }

  /** Waits until `cost` units may be spent (first come, first served) and books them. */
  acquire(cost: number, signal?: AbortSignal): Promise<Ticket> {
    if (!(cost >= 0)) throw new RangeError('cost must be a non-negative number');
    const turn = this.line.then(() => this.book(cost, signal));
    // the next in line waits for this one's booking, not for its success
    this.line = turn.catch(() => undefined);
    return turn;
  }

  private async book(cost: number, signal?: AbortSignal): Promise<Ticket> {
    const asked = this.clock.now();
    this.firstAt ??= asked;
    if (this.rate === undefined && this.acceptedCount + this.rejectedCount > 0) {
      // knowing no rate yet, the requests sent before any answer came are all answered before
      // more go (once per run: a service whose bucket they emptied says so with a 429 among them,
      // which then holds the next ones back instead of them going into the same empty bucket);
      // after that, a request freed by an answer waits until the other answers already in are handled
      if (this.volley.size) await this.volleyAnswered(signal);
      else await this.clock.yield();
    }
    for (;;) {
      if (signal?.aborted) throw new InterruptedError();
      const now = this.clock.now();
      let start = now;
      // booked within the tolerance: the schedule may run ahead of the clock by one burst (at least this request)
      const tolerance = this.rate === undefined ? 0 : Math.max(this.burst, cost) / this.rate;
      if (this.rate !== undefined) start = Math.max(start, this.tat + cost / this.rate - tolerance);
      if (start <= now) {
        if (this.rate !== undefined) this.tat = Math.max(this.tat, now) + cost / this.rate;
        if (now > asked) {
          this.waited += now - asked;
          this.heldBack = true;
        }
        const ticket = { cost, at: now, lesson: this.lessons };
        this.inflight.add(ticket);
        if (this.rate === undefined && this.acceptedCount + this.rejectedCount === 0) this.volley.add(ticket);
        return ticket;
      }
      // the schedule may change while waiting (a 429 teaches another rate): look again on waking
      await this.clock.sleep(start - now, signal);
    }
  }

  /** The service accepted the request of `ticket`. */
  accepted(ticket: Ticket): void {
    this.inflight.delete(ticket);
    this.answered(ticket);
    const now = this.clock.now();
    this.lastAt = now;
    this.units += ticket.cost;
    this.acceptedCount++;
    if (this.anchorAt !== undefined && ticket.at >= this.anchorAt) this.anchorUnits += ticket.cost;
    this.raise(now);
  }

  /** Waits until the first volley is answered, VOLLEY_WAIT_MS at most (a request that hangs holds nothing up for long). */
  private async volleyAnswered(signal?: AbortSignal): Promise<void> {
    const timer = new AbortController();
    const stop = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
    const answered = this.volleyDone.wait();
    const late = this.clock.sleep(VOLLEY_WAIT_MS, stop).then(
      () => this.volley.clear(),
      () => undefined,
    );
    try {
      await Promise.race([answered, late]);
    } finally {
      timer.abort();
    }
    if (signal?.aborted) throw new InterruptedError();
  }

  /** The request of `ticket` ended; unless it was accepted or throttled, its ticket goes back (idempotent). */
  released(ticket: Ticket): void {
    this.inflight.delete(ticket);
    this.answered(ticket);
  }

  /** the first volley answered in full: the requests waiting for it go */
  private answered(ticket: Ticket): void {
    this.volley.delete(ticket);
    if (!this.volley.size) this.volleyDone.wake();
  }

  /** While the pacer holds requests back and no 429 comes, the rate creeps up (never above a ceiling). */
  private raise(now: number): void {
    if (this.rate === undefined) return;
    if (this.probedAt === undefined || !this.heldBack) {
      this.probedAt = now;
      return;
    }
    const dt = now - this.probedAt;
    if (dt < 100) return;
    this.probedAt = now;
    this.heldBack = false;
    // before the first measure the rate is a rough guess (Retry-After is often whole seconds): look faster
    this.rate *= 1 + ((this.measured ? this.probe : Math.max(this.probe, SLOW_START_PER_SECOND)) * dt) / 1000;
    if (this.ceiling !== undefined) this.rate = Math.min(this.rate, this.ceiling);
  }

  /**
   * The service throttled the request of `ticket` (a 429), asking for `retryAfterMs` (its
   * Retry-After) or not. Learns from it and returns how long that request waits before it
   * acquires again.
   */
  throttled(ticket: Ticket, retryAfterMs?: number): number {
    this.inflight.delete(ticket);
    // (a 429 also ends the wait for the first volley: the rate it teaches paces what follows)
    this.volley.clear();
    this.answered(ticket);
    const now = this.clock.now();
    this.lastAt = now;
    this.rejectedCount++;
    const ra = Math.max(0, retryAfterMs ?? this.defaultRetryAfterMs);
    // granted before the last lesson: it teaches nothing new
    if (ticket.lesson < this.lessons) return ra;
    this.lessons++;
    if (this.anchorAt === undefined) {
      // the first lesson: what was accepted so far is about the bucket, plus the refill meanwhile
      // (services refill per second or slower: a burst is taken as at least a second's worth)
      // (requests granted with this one and not answered yet went into the same bucket before it:
      // their answers are on the way, and most likely accepted)
      const elapsed = now - (this.firstAt ?? now);
      let before = 0;
      for (const t of this.inflight) if (t.at <= ticket.at) before += t.cost;
      const estimate = (this.units + before + ticket.cost) / Math.max(FIRST_WINDOW_MS, elapsed + ra);
      this.rate = this.ceiling !== undefined ? Math.min(this.ceiling, estimate) : estimate;
      this.burst = this.units + before;
      // the bucket is empty now: the others go on at the rate (no credit until it holds a request
      // again); the throttled request itself waits its Retry-After
      this.tat = now + Math.max(this.burst, ticket.cost) / this.rate;
      this.anchor(now);
    } else {
      const span = now - this.anchorAt;
      // what was sent since the anchor and is not answered yet went through the bucket before this
      // 429 did (its answer is on the way): it counts, or the measure would come out a request low
      let sent = 0;
      for (const t of this.inflight) if (t.at >= this.anchorAt) sent += t.cost;
      const through = this.anchorUnits + sent;
      if (span >= MIN_MEASURE_MS && through >= MEASURE_COSTS * ticket.cost) {
        // the bucket was empty at the anchor and is empty now: what came through is the refill
        this.rate = Math.min(Math.max(through / span, this.rate! / 2), this.rate! * 2);
        this.measured = true;
      } else {
        // too short to measure, but the refill since the anchor did not cover this request
        this.rate = Math.min(this.rate! * 0.85, (this.anchorUnits + ticket.cost) / Math.max(1, span));
      }
      if (this.ceiling !== undefined) this.rate = Math.min(this.rate!, this.ceiling);
      // the bucket is empty now: no credit until it holds this request again
      this.tat = Math.max(this.tat, now + Math.max(this.burst, ticket.cost) / this.rate!);
      if (span >= REANCHOR_MS) this.anchor(now);
    }
    this.probedAt = now;
    this.heldBack = false;
    return ra;
  }

  /** starts a measure at a moment the service's bucket is known to be empty */
  private anchor(now: number): void {
    this.anchorAt = now;
    this.anchorUnits = 0;
  }

  stats(): PacerStats {
    const elapsedMs = this.firstAt === undefined || this.lastAt === undefined ? 0 : this.lastAt - this.firstAt;
    return {
      units: this.units,
      accepted: this.acceptedCount,
      rejected: this.rejectedCount,
      perMinute: this.perMinute,
      elapsedMs,
      effectivePerMinute: elapsedMs > 0 ? (this.units / elapsedMs) * MINUTE : undefined,
      waitedMs: this.waited,
    };
  }
}
