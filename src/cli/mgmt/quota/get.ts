// `vx mgmt quota get <resourceName>`
import { MgmtClient } from '../../../api/mgmt/client.js';
import { getQuota } from '../../../api/mgmt/quota.js';
import { checkSegment } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import type { QuotaOpts } from '../options.js';
import { quotaScope } from './scope.js';
import { QUOTA_COLUMNS } from './view.js';

export async function run(ctx: Ctx, opts: QuotaOpts, resourceName: string): Promise<void> {
  checkSegment('resourceName', resourceName, 'quota resource name');
  const scope = quotaScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  await ctx.print(await getQuota(c, scope, resourceName), { columns: QUOTA_COLUMNS });
}
