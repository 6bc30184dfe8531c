// The polling loop of `health watch`: read the events, report what is news, remember it, wait,
// again; back off while the service is throttling or unavailable. What a report looks like (a
// line, a JSON record, an --exec command) is the caller's.
import { asVxError, InterruptedError, NetworkError, ThrottledError, UnavailableError } from '../../core/errors.js';
import type { Clock } from '../../core/clock.js';
import type { ResourceId } from '../../model/mgmt.js';
import type { MgmtClient } from './client.js';
import { listEvents, type HealthEvent } from './health.js';
import { diffEvents, saveState, trackingId, type EventChange, type WatchState } from './watch.js';

export interface WatchTarget {
  subscription?: string;
  resource?: ResourceId;
}

/** The events of the subscription (or the resource), all pages, of the watched types. */
export async function currentEvents(c: MgmtClient, target: WatchTarget, types: string[] | undefined): Promise<HealthEvent[]> {
  const events: HealthEvent[] = [];
  for await (const e of listEvents(c, target.subscription, { resource: target.resource })) {
    if (types && !types.includes(e.properties?.eventType ?? '')) continue;
    events.push(e);
  }
  return events;
}

export interface WatchOptions {
  target: WatchTarget;
  types: string[] | undefined;
  intervalSeconds: number;
  /** one poll: a failure ends the run instead of a back-off */
  once: boolean;
  /** what was reported before (the state file's content) */
  state: WatchState;
  /** where the state is saved after each poll and on a stop */
  statePath?: string;
  /**
   * the state is saved after each news, not only after each poll: a report with side effects
   * (--exec) is then never repeated by the next run, whatever ends this one (a kill, `| head`)
   */
  saveEach?: boolean;
  /** Ctrl-C, SIGTERM, SIGHUP: the loop stops, the state is saved */
  signal: AbortSignal;
  /** another reason to stop, asked before each news and poll (the reader of the output went away) */
  ended?: () => boolean;
  /** waits between polls (and the back-off): the clock of the run */
  clock: Clock;
  /** reports one news; false when the report was cut short by the stop (it is news again next time) */
  report(ch: EventChange): Promise<boolean>;
  /** after the news of a poll were reported (all of them, or those before a stop) */
  pollDone?(): Promise<void>;
  /** a failed poll that is tried again after a wait */
  onRetry(message: string): void;
}

const RETRYABLE = [ThrottledError, UnavailableError, NetworkError];

/** Polls until `once` is done, the signal fires or `ended` says so; returns whether it was stopped by the signal. */
export async function watchEvents(c: MgmtClient, o: WatchOptions): Promise<{ stopped: boolean }> {
  const stopping = () => o.signal.aborted || o.ended?.() === true;
  let state = o.state;
  let backoff = 0;
  try {
    for (;;) {
      let events: HealthEvent[];
      try {
        events = await currentEvents(c, o.target, o.types);
        backoff = 0;
      } catch (e) {
        if (!(await backOff(e, (backoff += 1), o))) break;
        continue;
      }
      try {
        state = await reportNews(state, events, o, stopping);
      } finally {
        await o.pollDone?.();
      }
      if (o.statePath) await saveState(o.statePath, state);
      if (o.once || stopping()) break;
      if (!(await pause(o.intervalSeconds, o))) break;
    }
  } finally {
    if (o.signal.aborted && o.statePath) await saveState(o.statePath, state);
  }
  return { stopped: o.signal.aborted };
}

/** After a failed poll: rethrows what is not retryable, else waits; false when stopped. */
async function backOff(e: unknown, attempt: number, o: WatchOptions): Promise<boolean> {
  const err = asVxError(e);
  if (o.signal.aborted || err instanceof InterruptedError) return false;
  if (o.once || !RETRYABLE.some((k) => err instanceof k)) throw e;
  // the back-off, or the service's Retry-After when it asks for longer
  const asked = (err.retryAfterMs ?? 0) / 1000;
  const wait = Math.max(Math.min(o.intervalSeconds * 2 ** attempt, 900), asked);
  o.onRetry(`${err.message}; trying again in ${Math.round(wait)} s${asked > o.intervalSeconds * 2 ** attempt ? " (the service's Retry-After)" : ''}`);
  return pause(wait, o);
}

/**
 * Reports the news of one poll; returns the state to remember. Stopped midway, the news fully
 * reported are remembered, the rest (and one whose report was cut short) are news again next time.
 */
async function reportNews(state: WatchState, events: HealthEvent[], o: WatchOptions, stopping: () => boolean): Promise<WatchState> {
  const { changes, next } = diffEvents(state, events);
  const reported: WatchState = { version: 1, events: { ...state.events } };
  for (const ch of changes) {
    if (stopping() || !(await o.report(ch))) break;
    const id = trackingId(ch.event);
    reported.events[id] = next.events[id];
    if (o.saveEach && o.statePath) await saveState(o.statePath, reported);
  }
  return stopping() ? reported : next;
}

/** false when the signal fired during the wait */
async function pause(seconds: number, o: WatchOptions): Promise<boolean> {
  try {
    await o.clock.sleep(seconds * 1000, o.signal);
    return true;
  } catch {
    return false;
  }
}
