// `vx mgmt health events list`
import { MgmtClient, resolveSubscription } from '../../../api/mgmt/client.js';
import { listEvents, sortByPriority, type HealthEvent } from '../../../api/mgmt/health.js';
import { checkCount, checkFilter, checkResourceAndSubscription, sinceToQueryStartTime } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import { UsageError } from '../../../core/errors.js';
import { isTable } from '../../../core/output/index.js';
import type { EventsListOpts } from './options.js';
import { EVENT_COLUMNS } from './view.js';

/** true when the output is rows in the table's columns (table, tsv, csv, text), which we may order for reading */
function humanRows(ctx: Ctx): boolean {
  const f = ctx.format();
  return !ctx.globals.query && (isTable(f) || f === 'tsv' || f === 'csv' || f === 'text');
}

export async function run(ctx: Ctx, opts: EventsListOpts): Promise<void> {
  const filter = checkFilter(opts.filter);
  const top = checkCount('--top', opts.top, 1);
  const resource = checkResourceAndSubscription(opts.resource, opts.subscription);
  if (resource && opts.since !== undefined) throw new UsageError('--since works with the subscription list only (the service has no start time for --resource); nothing was sent');
  const queryStartTime = opts.since === undefined ? undefined : sinceToQueryStartTime(opts.since);
  const subscription = resource ? undefined : resolveSubscription(ctx.config, opts.subscription);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const events: HealthEvent[] = [];
  // a table (tsv, text) shows the highest priority first, so its --top is the n highest: every page
  // is read, sorted, then cut; data formats keep the service's order and stop reading at n
  const sorted = humanRows(ctx);
  const cap = sorted ? undefined : top;
  // --active filters here (the filter grammar of the service is not documented), so --top counts after it
  for await (const e of listEvents(c, subscription, { resource, filter, queryStartTime, max: opts.active ? undefined : cap })) {
    if (opts.active && e.properties?.status !== 'Active') continue;
    events.push(e);
    if (cap !== undefined && events.length >= cap) break;
  }
  await ctx.print(sorted ? sortByPriority(events).slice(0, top) : events, { columns: EVENT_COLUMNS, empty: 'no health events' });
}
