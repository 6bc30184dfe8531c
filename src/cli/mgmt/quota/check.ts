// `vx mgmt quota check --need <quota=n[@location]>`: exit 0 when every need fits, 9 when one is short.
import { MgmtClient } from '../../../api/mgmt/client.js';
import { checkItems, exitOf, listValues, parseNeed, quotaCheck, type CheckRow } from '../../../api/mgmt/fleet.js';
import { quotaUrl } from '../../../api/mgmt/quota.js';
import { checkSegment } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import { ExitStatus, UsageError } from '../../../core/errors.js';
import type { Column } from '../../../core/output/index.js';
import { Pacer } from '../../../core/pacer.js';
import { concurrencyOf, locationsOf, num, providerOf, rowColumns, subscriptionsOf } from './fleet.js';
import type { CheckNeedOpts } from './options.js';

/** `quota check`'s exit code when a need does not fit (1 stays "the service failed"). */
const EXIT_SHORT = 9;

type Result = Awaited<ReturnType<typeof quotaCheck>>[number];

/** stderr's account of what is short, and the exit code of the check. */
function verdict(ctx: Ctx, results: Result[]): void {
  const short = results.filter((r) => r.row.short);
  for (const { row } of short) {
    ctx.info(
      `short: ${row.name} in ${row.location} (subscription ${row.subscription}): need ${row.need}, free ${row.headroom} (limit ${row.limit}, usage ${row.usage}): short by ${row.short}\n  fix: ${row.fix}`,
    );
  }
  if (short.length > 1) ctx.info(`or raise them together: put the limits in a manifest and run vx mgmt quota apply -f <manifest>`);
  const failures = results.filter((r) => r.failure).map((r) => r.failure!);
  if (failures.length) {
    throw new ExitStatus(exitOf(failures), `${failures.length} of ${results.length} quotas could not be read (their Error column says why)${short.length ? `; ${short.length} short` : ''}`);
  }
  if (short.length) throw new ExitStatus(EXIT_SHORT, `${short.length} of ${results.length} needs do not fit (exit ${EXIT_SHORT}: short of quota)`);
  if (ctx.stderrIsTTY) ctx.info(`all ${results.length} needs fit`);
}

export async function run(ctx: Ctx, opts: CheckNeedOpts): Promise<void> {
  const needs = (opts.need ?? []).map(parseNeed);
  if (!needs.length) throw new UsageError('give at least one --need <quota>=<n>[@<location>]; nothing was sent');
  const concurrency = concurrencyOf(ctx, opts.concurrency);
  const provider = providerOf(ctx, opts.provider);
  const everywhere = needs.some((n) => !n.location);
  const locations = everywhere ? locationsOf(ctx, opts.location) : listValues(opts.location).map((l) => checkSegment('location', l, '--location'));
  const subscriptions = subscriptionsOf(ctx, opts.subscription);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  c.pacer = new Pacer();
  const items = checkItems(subscriptions, provider, locations, needs);
  if (c.dryRun) {
    for (const it of items) c.plan({ method: 'GET', url: quotaUrl(c, it.scope, it.name) });
    return;
  }
  const results = await quotaCheck(c, items, { concurrency, signal: ctx.signal });
  const extra: Column[] = [num((r: CheckRow) => r.need, 'Need', { name: 'need' }), num((r: CheckRow) => (r.short ? r.short : r.error ? '' : 0), 'Short', { name: 'short' })];
  const fix: Column = { header: 'Fix', name: 'fix', get: 'fix', wide: true };
  const failed = results.some((r) => r.failure);
  await ctx.print(
    results.map((r) => r.row),
    { columns: rowColumns(subscriptions.length > 1, failed, extra, [fix]) },
  );
  verdict(ctx, results);
}
