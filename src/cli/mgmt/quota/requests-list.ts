// `vx mgmt quota requests list`
import { MgmtClient } from '../../../api/mgmt/client.js';
import { listRequests, type QuotaRequest } from '../../../api/mgmt/quota.js';
import { checkCount, checkFilter } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import type { RequestsListOpts } from './options.js';
import { quotaScope } from './scope.js';
import { REQUEST_COLUMNS } from './view.js';

export async function run(ctx: Ctx, opts: RequestsListOpts): Promise<void> {
  const filter = checkFilter(opts.filter);
  const top = checkCount('--top', opts.top, 1);
  const scope = quotaScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const items: QuotaRequest[] = [];
  for await (const r of listRequests(c, scope, { filter, top })) items.push(r);
  await ctx.print(items, { columns: REQUEST_COLUMNS, empty: 'no quota requests' });
}
