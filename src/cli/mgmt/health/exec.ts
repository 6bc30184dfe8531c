// `health watch --exec`: the command run for each news, in a process group of its own, for at
// most --exec-timeout; stopped with vx.
import { trackingId, type EventChange } from '../../../api/mgmt/watch.js';
import { runHook, type HookOutcome } from '../../../core/child.js';
import type { Ctx } from '../../../core/context.js';
import { UsageError } from '../../../core/errors.js';

/** --exec-timeout's default, in seconds */
export const EXEC_TIMEOUT_S = 60;
/**
 * how long the command has to end after its stop signal before SIGKILL: short enough that a
 * stopped vx still saves its state and says why within the 3 s it gives itself to leave
 */
export const EXEC_GRACE_MS = 2000;

export function execTimeoutOf(value: string | undefined): number {
  if (value === undefined) return EXEC_TIMEOUT_S * 1000;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n <= 0 || n > 86_400) throw new UsageError(`invalid --exec-timeout "${value}": expected seconds, more than 0 and at most 86400; nothing was sent`);
  return n * 1000;
}

/** Runs the --exec command for one change: the event as JSON on stdin, its id and type in the environment. */
export function runExec(ctx: Ctx, command: string, ch: EventChange, timeoutMs: number): Promise<HookOutcome> {
  const p = ch.event.properties ?? {};
  return runHook(command, {
    env: {
      ...ctx.env,
      VX_EVENT_ID: trackingId(ch.event),
      VX_EVENT_TYPE: String(p.eventType ?? ''),
      VX_EVENT_CHANGE: ch.change,
      VX_EVENT_STATUS: String(p.status ?? ''),
      VX_EVENT_LEVEL: String(p.eventLevel ?? ''),
    },
    input: `${JSON.stringify(ch.event)}\n`,
    // its output goes to stderr: stdout carries vx's own lines
    stdout: ctx.io.stderr,
    timeoutMs,
    graceMs: EXEC_GRACE_MS,
    signal: ctx.signal,
    stoppedBy: () => ctx.host.interruptedBy,
    clock: ctx.clock,
  });
}

/**
 * What the outcome of one --exec means for the watch: `reported` (remembered: not run again for
 * this news) and `failed` (counted for the exit status). Said on stderr when it did not succeed.
 */
export function judgeExec(ctx: Ctx, ch: EventChange, r: HookOutcome, timeoutMs: number, remembered: boolean): { reported: boolean; failed: boolean } {
  const what = `--exec for ${trackingId(ch.event)} (${ch.change})`;
  const grace = `${EXEC_GRACE_MS / 1000} s`;
  if (r.stopped && r.stopped.by !== 'timeout') {
    // cut short by the stop of vx: the news is reported again, by the next run
    const how = r.stopped.killed ? `did not end within ${grace} of ${r.stopped.by}: killed` : `was stopped (${r.stopped.by})`;
    ctx.warn(`${what} ${how}${remembered ? '; it runs again for this news at the next run' : ''}`);
    return { reported: false, failed: false };
  }
  if (r.stopped) {
    ctx.warn(`${what} ran longer than ${timeoutMs / 1000} s (--exec-timeout): ${r.stopped.killed ? `killed (it did not end within ${grace} of SIGTERM)` : 'stopped (SIGTERM)'}`);
    return { reported: true, failed: true };
  }
  if (r.error !== undefined) ctx.warn(`${what} could not start: ${r.error}`);
  else if (r.code !== 0) ctx.warn(`${what} exited ${r.code ?? 'by a signal'}`);
  return { reported: true, failed: r.code !== 0 };
}
