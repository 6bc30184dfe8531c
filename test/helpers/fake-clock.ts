// A clock for timing logic: time moves only when the test runs it, from one timer to the next,
// with every promise settled in between (so async code sees exactly the times it asked for).
import { InterruptedError } from '../../src/core/errors.js';
import type { Clock } from '../../src/core/clock.js';

interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

export class FakeClock implements Clock {
  private t = 0;
  private seq = 0;
  private timers: Timer[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const timer: Timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fire: resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((x) => x !== timer);
          reject(new InterruptedError());
        },
        { once: true },
      );
    });
  }

  /** after every timer already due at this time */
  yield(): Promise<void> {
    return this.sleep(0);
  }

  /** Settles every pending promise, then fires timers in time order until none is left (or `until`). */
  async run(until = Infinity): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      if (!this.timers.length) return;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers[0];
      if (next.at > until) {
        this.t = until;
        return;
      }
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.fire();
    }
  }
}

/** A FakeClock that records each wait asked of it, with what `note()` says as it begins (e.g. how many requests a server has answered). */
export class RecordingClock<T> extends FakeClock {
  readonly waits: { ms: number; at: T }[] = [];

  constructor(private readonly note: () => T) {
    super();
  }

  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.waits.push({ ms, at: this.note() });
    return super.sleep(ms, signal);
  }
}

/**
 * Waits for `work` (a run on a real loopback network) while moving `clock`: each turn fires every
 * timer the run has set (time moves only while the run waits for it), then lets real I/O go on.
 * `until` holds the clock still while it answers false.
 */
export async function driveClock<T>(clock: FakeClock, work: Promise<T>, o: { until?: () => boolean } = {}): Promise<T> {
  let done = false;
  const settled = work.finally(() => (done = true));
  while (!done) {
    if (o.until?.() !== false) await clock.run();
    await new Promise((r) => setTimeout(r, 20));
  }
  return settled;
}
