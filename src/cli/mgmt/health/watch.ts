// `vx mgmt health watch`: the options checked, then api/mgmt's polling loop with a report per news
// (a line at a terminal, a JSON record otherwise, and the --exec command).
import { MgmtClient, resolveSubscription } from '../../../api/mgmt/client.js';
import { eventsUrl } from '../../../api/mgmt/health.js';
import { checkResourceAndSubscription } from '../../../api/mgmt/validate.js';
import { emptyState, loadState, parseTypes, trackingId, type EventChange } from '../../../api/mgmt/watch.js';
import { watchEvents } from '../../../api/mgmt/watch-loop.js';
import type { Ctx } from '../../../core/context.js';
import { ExitStatus, InterruptedError, oneLine, terminalText, UsageError } from '../../../core/errors.js';
import { applyQuery, type Format } from '../../../core/output/index.js';
import { runExec } from './exec.js';
import type { WatchOpts } from './options.js';
import { changeLine } from './view.js';

function intervalOf(value: string | undefined): number {
  if (value === undefined) return 60;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n < 1 || n > 86_400) throw new UsageError(`invalid --interval "${value}": expected seconds from 1 to 86400; nothing was sent`);
  return n;
}

/** The format of the news: undefined for the default; -o yaml, csv or tsv refused (no form for a stream) */
function streamFormat(ctx: Ctx): Format | undefined {
  // yaml, csv and tsv have no form for a stream of news: refused from -o; from VX_OUTPUT or the
  // profile (a preference for every command) the JSON lines instead
  const streamable = (f: Format | undefined) => (f === 'yaml' || f === 'csv' || f === 'tsv' ? undefined : f);
  if (ctx.globals.output !== undefined && !streamable(ctx.explicitFormat())) {
    throw new UsageError(`health watch prints a line per news (-o table or text) or a JSON line (-o json or ndjson), or nothing (-o none); -o ${ctx.explicitFormat()} is not one of them; nothing was sent`);
  }
  return streamable(ctx.explicitFormat());
}

/** The line of one news: readable, or its record {change, trackingId, previous, event} as JSON (through --query). */
function lineWriter(ctx: Ctx, explicit: Format | undefined): (ch: EventChange) => Promise<string> {
  const query = ctx.globals.query;
  const readable = !query && (explicit === 'table' || explicit === 'wide' || explicit === 'text' || (!explicit && ctx.stdoutIsTTY));
  return async (ch) => {
    // the service's text is shown escaped (a terminal escape in a title cannot drive the terminal,
    // a line break cannot split one news into two lines), as in every table and text output
    if (readable) return `${oneLine(changeLine(ch))}\n`;
    const record = { change: ch.change, trackingId: trackingId(ch.event), previous: ch.previous, event: ch.event };
    const value = query ? await applyQuery(record, query) : record;
    return `${explicit === 'text' && typeof value === 'string' ? terminalText(value) : JSON.stringify(value)}\n`;
  };
}

export async function run(ctx: Ctx, opts: WatchOpts): Promise<void> {
  const types = parseTypes(opts.type, '--type');
  const intervalSeconds = intervalOf(opts.interval);
  // one poll has no interval to wait (and --once ends on a failure rather than backing off)
  if (opts.once && opts.interval !== undefined) throw new UsageError('--interval has no effect with --once (one poll, then exit); leave one of them out; nothing was sent');
  const resource = checkResourceAndSubscription(opts.resource, opts.subscription);
  if (opts.exec !== undefined && !opts.exec.trim()) throw new UsageError('--exec may not be empty; nothing was sent');
  const subscription = resource ? undefined : resolveSubscription(ctx.config, opts.subscription);
  const state = opts.state ? await loadState(opts.state) : emptyState();
  const c = await MgmtClient.open(ctx.http, ctx.config);
  if (c.dryRun) {
    c.plan({ method: 'GET', url: eventsUrl(c, subscription, { resource }) });
    return;
  }
  const explicit = streamFormat(ctx);
  const lineOf = lineWriter(ctx, explicit);
  let failedExec = 0;
  const report = async (ch: EventChange): Promise<boolean> => {
    if (explicit !== 'none') await ctx.write(await lineOf(ch));
    if (opts.exec === undefined) return true;
    const code = await runExec(ctx, opts.exec, ch);
    if (ctx.signal.aborted) return false;
    if (code !== 0) {
      failedExec += 1;
      ctx.warn(`--exec for ${trackingId(ch.event)} (${ch.change}) exited ${code ?? 'by a signal'}`);
    }
    return true;
  };
  const { stopped } = await watchEvents(c, {
    target: { subscription, resource },
    types,
    intervalSeconds,
    once: Boolean(opts.once),
    state,
    statePath: opts.state,
    signal: ctx.signal,
    report,
    onRetry: (m) => ctx.warn(m),
  });
  // main.ts names the signal and exits 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP)
  if (stopped) throw new InterruptedError(`interrupted${opts.state ? `; the state is saved in ${opts.state}` : ''}`);
  if (failedExec) throw new ExitStatus(1, `--exec failed for ${failedExec} event${failedExec > 1 ? 's' : ''} (the events are remembered as reported)`);
}
