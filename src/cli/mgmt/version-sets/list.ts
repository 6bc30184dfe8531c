// `vx mgmt version-sets list`
import { MgmtClient } from '../../../api/mgmt/client.js';
import { checkCount, checkFilter } from '../../../api/mgmt/validate.js';
import { listVersionSets, type VersionSet } from '../../../api/mgmt/versionsets.js';
import type { Ctx } from '../../../core/context.js';
import type { VsListOpts } from './options.js';
import { serviceScope, VERSION_SET_COLUMNS } from './scope.js';

export async function run(ctx: Ctx, opts: VsListOpts): Promise<void> {
  const filter = checkFilter(opts.filter);
  const top = checkCount('--top', opts.top, 1);
  const skip = checkCount('--skip', opts.skip, 0);
  const scope = serviceScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const items: VersionSet[] = [];
  for await (const v of listVersionSets(c, scope, { filter, top, skip })) items.push(v);
  await ctx.print(items, { columns: VERSION_SET_COLUMNS, empty: 'no version sets' });
}
