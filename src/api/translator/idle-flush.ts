// The idle flush of a live input (a pipe, a socket, a terminal; never a regular file): a partial
// batch that has waited `delayMs` with no new line is sent, so `tail -f app.log | vx translate`
// shows its latest lines without waiting for the input to end.
//
// Cheap per line (a counter), one timer per open batch: the timer ticks every delay/4 and the
// batch is sent once four ticks in a row saw no new line (so after between delay and 1.25 x delay
// of quiet). Never while the feed itself is sending (it is then waiting for room, not for input).
// A send the timer started that waits for room is `pending`: the feed waits for it before adding
// the next line (one submitter at a time keeps the order and the window's bound).

/** the wait of a partial batch of a live input, unless VX_TRANSLATE_FLUSH_MS says otherwise */
export const DEFAULT_FLUSH_MS = 1000;
const STEPS = 4;
/** setInterval's limit */
const MAX_FLUSH_MS = 2 ** 31 - 1;

/**
 * The idle delay: VX_TRANSLATE_FLUSH_MS (a test hook, whole milliseconds from 1) or the default;
 * any other value is ignored.
 */
export function flushDelay(env: Readonly<Record<string, string | undefined>>): number {
  const v = env.VX_TRANSLATE_FLUSH_MS;
  if (v === undefined || !/^\d+$/.test(v)) return DEFAULT_FLUSH_MS;
  const n = Number(v);
  return n >= 1 && n <= MAX_FLUSH_MS ? n : DEFAULT_FLUSH_MS;
}

export interface IdleFlushOptions {
  delayMs: number;
  /** whether a partial batch is open */
  open(): boolean;
  /** closes the open batch and submits it; settles once there is room for the next batch */
  flush(): Promise<void>;
  /** a send the timer started failed (the pipeline stopped): stop reading the input */
  failed(error: unknown): void;
}

export class IdleFlush {
  private timer?: ReturnType<typeof setInterval>;
  private lines = 0;
  private seen = 0;
  private quiet = 0;
  private busy = 0;
  private stopped = false;
  /** the send the timer started while it has not settled: wait for it before submitting anything */
  pending?: Promise<void>;

  constructor(private readonly opts: IdleFlushOptions) {}

  /** a line joined the open batch */
  line(): void {
    this.lines++;
    // (both read each time: a read first made late in a run has V8 compile the feed again)
    if (!this.stopped && !this.timer) this.arm();
  }

  /** the feed is sending (and may be waiting for room) until `p` settles */
  hold<T>(p: Promise<T>): Promise<T> {
    this.busy++;
    const done = () => void this.busy--;
    p.then(done, done);
    return p;
  }

  /** no more ticks (the input ended, or the run stops) */
  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  private arm(): void {
    this.seen = this.lines;
    this.quiet = 0;
    const step = Math.max(1, Math.ceil(this.opts.delayMs / STEPS));
    this.timer = setInterval(() => this.tick(), step);
    // never what keeps the process alive: reading the input (or a request) does that
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (this.stopped || !this.opts.open()) return this.disarm();
    if (this.lines !== this.seen || this.busy || this.pending) {
      this.seen = this.lines;
      this.quiet = 0;
      return;
    }
    if (++this.quiet < STEPS) return;
    this.disarm();
    const p = this.opts.flush().finally(() => {
      if (this.pending === p) this.pending = undefined;
    });
    this.pending = p;
    p.catch((e) => this.opts.failed(e));
  }
}
