// Time as a run sees it: the real clock, or a test's (test/helpers/fake-clock.ts), handed down by
// the factory so that waits and pacing can be tested without real sleeps.
import { sleep } from './sleep.js';

export interface Clock {
  /** milliseconds, monotonic */
  now(): number;
  /** waits `ms`; an abort of `signal` rejects with InterruptedError */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** lets whatever has already happened be handled first (answers already received) */
  yield(): Promise<void>;
}

/**
 * Milliseconds from an arbitrary origin, monotonic. process.hrtime needs no module: the
 * `performance` global loads perf_hooks and its eight internal modules on first use, about half a
 * millisecond of a command that sends one request.
 */
export function monotonicMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}

export const systemClock: Clock = {
  now: monotonicMs,
  sleep,
  // the check phase comes right after the poll phase: every answer read in it has been handled
  yield: () => new Promise<void>((resolve) => setImmediate(resolve)),
};
