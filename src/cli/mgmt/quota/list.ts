// `vx mgmt quota list`
import { MgmtClient } from '../../../api/mgmt/client.js';
import { listQuotas, type Quota } from '../../../api/mgmt/quota.js';
import { checkCount, checkFilter } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import type { QuotaListOpts } from './options.js';
import { quotaScope } from './scope.js';
import { usageBars } from './usage-bar.js';
import { percentUsed, QUOTA_COLUMNS, quotaPercent } from './view.js';

export async function run(ctx: Ctx, opts: QuotaListOpts): Promise<void> {
  const filter = checkFilter(opts.filter);
  const max = checkCount('--top', opts.top, 1);
  const scope = quotaScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const items: Quota[] = [];
  for await (const q of listQuotas(c, scope, { filter, max })) items.push(q);
  const columns = usageBars(ctx, QUOTA_COLUMNS, quotaPercent, percentUsed);
  await ctx.print(items, { columns, empty: `no quotas of ${scope.provider} in ${scope.location}` });
}
