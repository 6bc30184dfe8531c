// `vx mgmt quota set <resourceName> --limit <n>`
import { MgmtClient } from '../../../api/mgmt/client.js';
import { getQuota, patchBody, quotaUrl, RECENT_REQUESTS, requestUrl, type QuotaScope } from '../../../api/mgmt/quota.js';
import { checkLimit, checkSegment } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import { UsageError } from '../../../core/errors.js';
import { pollInterval } from '../../poll.js';
import { applyLimit, followRunning } from './follow.js';
import type { QuotaSetOpts } from './options.js';
import { quotaScope, waitTimeout } from './scope.js';
import { QUOTA_COLUMNS } from './view.js';

/** The requests set would send: the read, the list of running requests, the PATCH. */
function planRequests(c: MgmtClient, scope: QuotaScope, resourceName: string, limit: number): void {
  c.plan({ method: 'GET', url: quotaUrl(c, scope, resourceName) });
  c.plan({ method: 'GET', url: requestUrl(c, scope, undefined, { $top: RECENT_REQUESTS }) });
  c.plan({ method: 'PATCH', url: quotaUrl(c, scope, resourceName), body: patchBody({ properties: { unit: '<unit of the current quota>' } }, resourceName, limit) });
}

export async function run(ctx: Ctx, opts: QuotaSetOpts, resourceName: string): Promise<void> {
  checkSegment('resourceName', resourceName, 'quota resource name');
  const limit = checkLimit(opts.limit);
  // --no-wait does not follow the request: a following option with it would be accepted and do nothing
  for (const [flag, v] of [['--poll-interval', opts.pollInterval], ['--wait-timeout', opts.waitTimeout]] as const) {
    if (v !== undefined && opts.wait === false) throw new UsageError(`${flag} has no effect with --no-wait (vx does not follow the request); leave one of them out; nothing was sent`);
  }
  const follow = { wait: opts.wait !== false, intervalSeconds: pollInterval(opts.pollInterval), timeoutSeconds: waitTimeout(opts.waitTimeout) };
  const scope = quotaScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  // without a terminal the question cannot be asked: refuse before the read, so exit 2 sends nothing
  const confirm = ctx.confirmation();
  confirm.early(`Change the limit of ${resourceName} in ${scope.location} to ${limit}?`);
  if (c.dryRun) return planRequests(c, scope, resourceName, limit);
  const current = await getQuota(c, scope, resourceName);
  const p = current.properties ?? {};
  if (p.limit === limit) {
    ctx.info(`the limit of ${resourceName} in ${scope.location} is already ${limit}; nothing was changed`);
    await ctx.print(current, { columns: QUOTA_COLUMNS });
    return;
  }
  // lowering a limit takes room from what runs there: the consent quota apply asks of a manifest
  // entry (allowDecrease: true) is asked here too, before anything is submitted
  const lower = typeof p.limit === 'number' && limit < p.limit;
  if (lower && !opts.allowDecrease) {
    throw new UsageError(`--limit ${limit} would lower the limit of ${resourceName} in ${scope.location} from ${p.limit}; add --allow-decrease to lower it; nothing was changed`);
  }
  const change = { scope, resourceName, limit };
  if (await followRunning(ctx, c, change, follow)) return;
  const label = p.name?.localizedValue && p.name.localizedValue !== resourceName ? `${resourceName} (${p.name.localizedValue})` : resourceName;
  await confirm.ask(`${lower ? 'Lower' : 'Change'} the limit of ${label} in ${scope.location} from ${p.limit ?? '?'} to ${limit}${p.unit ? ` ${p.unit}` : ''}?`);
  await applyLimit(ctx, c, change, current, follow);
}
