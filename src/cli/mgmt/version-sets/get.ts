// `vx mgmt version-sets get <versionSetId>`
import { MgmtClient } from '../../../api/mgmt/client.js';
import { checkSegment } from '../../../api/mgmt/validate.js';
import { getVersionSet } from '../../../api/mgmt/versionsets.js';
import type { Ctx } from '../../../core/context.js';
import type { ServiceOpts } from './options.js';
import { serviceScope, VERSION_SET_COLUMNS } from './scope.js';

export async function run(ctx: Ctx, opts: ServiceOpts, id: string): Promise<void> {
  checkSegment('versionSetId', id, 'version set id');
  const scope = serviceScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const { body, etag } = await getVersionSet(c, scope, id);
  if (etag) ctx.verbose(`ETag: ${etag}`);
  await ctx.print(body, { columns: VERSION_SET_COLUMNS });
}
