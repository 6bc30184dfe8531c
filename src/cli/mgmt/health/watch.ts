// `vx mgmt health watch`: the options checked, then api/mgmt's polling loop with a report per news
// (news.ts: a line at a terminal, JSON otherwise; and the --exec command).
import { MgmtClient, resolveSubscription } from '../../../api/mgmt/client.js';
import { eventsUrl } from '../../../api/mgmt/health.js';
import { checkResourceAndSubscription } from '../../../api/mgmt/validate.js';
import { emptyState, loadState, parseTypes, type EventChange } from '../../../api/mgmt/watch.js';
import { watchEvents } from '../../../api/mgmt/watch-loop.js';
import type { Ctx } from '../../../core/context.js';
import { ExitStatus, InterruptedError, UsageError } from '../../../core/errors.js';
import { execTimeoutOf, judgeExec, runExec } from './exec.js';
import { NewsOutput } from './news.js';
import type { WatchOpts } from './options.js';

function intervalOf(value: string | undefined, flag: string): number {
  if (value === undefined) return 60;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n < 1 || n > 86_400) throw new UsageError(`invalid ${flag} "${value}": expected seconds from 1 to 86400; nothing was sent`);
  return n;
}

export async function run(ctx: Ctx, opts: WatchOpts): Promise<void> {
  const types = parseTypes(opts.type, '--type');
  // --interval: the old spelling of --poll-interval, the name every command that polls uses
  const flag = opts.pollInterval === undefined && opts.interval !== undefined ? '--interval' : '--poll-interval';
  const interval = opts.pollInterval ?? opts.interval;
  const intervalSeconds = intervalOf(interval, flag);
  // one poll has no interval to wait (and --once ends on a failure rather than backing off)
  if (opts.once && interval !== undefined) throw new UsageError(`${flag} has no effect with --once (one poll, then exit); leave one of them out; nothing was sent`);
  const resource = checkResourceAndSubscription(opts.resource, opts.subscription);
  if (opts.exec !== undefined && !opts.exec.trim()) throw new UsageError('--exec may not be empty; nothing was sent');
  if (opts.execTimeout !== undefined && opts.exec === undefined) throw new UsageError('--exec-timeout applies to --exec commands; give --exec or leave it out; nothing was sent');
  const execTimeoutMs = execTimeoutOf(opts.execTimeout);
  const subscription = resource ? undefined : resolveSubscription(ctx.config, opts.subscription);
  const state = opts.state ? await loadState(opts.state) : emptyState();
  const c = await MgmtClient.open(ctx.http, ctx.config);
  if (c.dryRun) {
    c.plan({ method: 'GET', url: eventsUrl(c, subscription, { resource }) });
    return;
  }
  const out = new NewsOutput(ctx);
  let failedExec = 0;
  const report = async (ch: EventChange): Promise<boolean> => {
    if (!(await out.news(ch))) return false;
    if (opts.exec === undefined) return true;
    const outcome = judgeExec(ctx, ch, await runExec(ctx, opts.exec, ch, execTimeoutMs), execTimeoutMs, opts.state !== undefined);
    if (outcome.failed) failedExec += 1;
    return outcome.reported;
  };
  const unwatch = out.watchReader();
  let stopped: boolean;
  try {
    ({ stopped } = await watchEvents(c, {
      target: { subscription, resource },
      types,
      intervalSeconds,
      once: Boolean(opts.once),
      state,
      statePath: opts.state,
      saveEach: opts.exec !== undefined,
      signal: ctx.signal,
      ended: () => out.gone,
      clock: ctx.clock,
      report,
      pollDone: () => out.pollDone(),
      onRetry: (m) => ctx.warn(m),
    }));
  } finally {
    unwatch();
  }
  // main.ts names the signal and exits 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP)
  if (stopped) throw new InterruptedError(`interrupted${opts.state ? `; the state is saved in ${opts.state}` : ''}`);
  // a reader that went away (`| head -1`) ends the watch quietly, as it ends other commands
  out.check();
  if (failedExec) throw new ExitStatus(1, `--exec failed for ${failedExec} event${failedExec > 1 ? 's' : ''} (the events are remembered as reported)`);
}
