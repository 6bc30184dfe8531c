// `vx mgmt quota report`: every quota of every subscription x location, least headroom first.
import { MgmtClient } from '../../../api/mgmt/client.js';
import { belowHeadroom, exitOf, listValues, parseHeadroom, quotaReport, scopesOf, sortByHeadroom, type QuotaRow } from '../../../api/mgmt/fleet.js';
import { quotaUrl } from '../../../api/mgmt/quota.js';
import { checkSegment } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import { ExitStatus } from '../../../core/errors.js';
import { Pacer } from '../../../core/pacer.js';
import { concurrencyOf, locationsOf, pct, providerOf, rowColumns, subscriptionsOf } from './fleet.js';
import type { ReportOpts } from './options.js';
import { usageBars } from './usage-bar.js';

export async function run(ctx: Ctx, opts: ReportOpts): Promise<void> {
  const names = listValues(opts.name).map((n) => checkSegment('resourceName', n, '--name'));
  const threshold = parseHeadroom(opts.minHeadroom);
  const concurrency = concurrencyOf(ctx, opts.concurrency);
  const provider = providerOf(ctx, opts.provider);
  const locations = locationsOf(ctx, opts.location);
  const subscriptions = subscriptionsOf(ctx, opts.subscription);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  c.pacer = new Pacer();
  const scopes = scopesOf(subscriptions, provider, locations);
  if (c.dryRun) {
    for (const s of scopes) c.plan({ method: 'GET', url: quotaUrl(c, s) });
    return;
  }
  const report = await quotaReport(c, scopes, { names: names.length ? names : undefined, concurrency, signal: ctx.signal });
  for (const s of report.empty) ctx.warn(`no quotas of ${s.provider} in ${s.location} (subscription ${s.subscription}); is the location right?`);
  const results = sortByHeadroom(report.rows);
  const shown = threshold ? results.filter((r) => belowHeadroom(r.row, threshold)) : results;
  await ctx.print(
    shown.map((r) => r.row),
    {
      columns: usageBars(
        ctx,
        rowColumns(subscriptions.length > 1, shown.some((r) => r.failure)),
        (r: QuotaRow) => r.percentUsed,
        (r: QuotaRow) => pct(r.percentUsed),
      ),
      empty: threshold ? `every quota has at least ${opts.minHeadroom} free` : 'no quotas',
    },
  );
  const failures = results.filter((r) => r.failure).map((r) => r.failure!);
  if (failures.length) throw new ExitStatus(exitOf(failures), `${failures.length} of ${results.length} rows of the report failed (their Error column says why); ${scopes.length} location(s) asked`);
}
