// `vx mgmt quota requests get <requestId>`
import { MgmtClient } from '../../../api/mgmt/client.js';
import { getRequest } from '../../../api/mgmt/quota.js';
import { requestRef } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import type { QuotaOpts } from '../options.js';
import { quotaScope } from './scope.js';
import { REQUEST_COLUMNS } from './view.js';

export async function run(ctx: Ctx, opts: QuotaOpts, requestId: string): Promise<void> {
  const ref = requestRef(requestId, opts);
  const scope = quotaScope(ctx, { subscription: opts.subscription ?? ref.subscription, provider: opts.provider ?? ref.provider, location: opts.location ?? ref.location });
  const c = await MgmtClient.open(ctx.http, ctx.config);
  await ctx.print((await getRequest(c, scope, ref.id)).body, { columns: REQUEST_COLUMNS });
}
