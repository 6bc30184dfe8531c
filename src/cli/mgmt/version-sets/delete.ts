// `vx mgmt version-sets delete <versionSetId>`: asks first (naming the set it read), DELETE with If-Match.
import { MgmtClient } from '../../../api/mgmt/client.js';
import { checkIfMatch, checkSegment } from '../../../api/mgmt/validate.js';
import { currentEtag, deleteVersionSet, getVersionSet, type VersionSet } from '../../../api/mgmt/versionsets.js';
import type { Ctx } from '../../../core/context.js';
import type { VsDeleteOpts } from './options.js';
import { serviceScope } from './scope.js';

export async function run(ctx: Ctx, opts: VsDeleteOpts, id: string): Promise<void> {
  checkSegment('versionSetId', id, 'version set id');
  const ifMatch = checkIfMatch(opts.ifMatch, opts.force);
  const scope = serviceScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const confirm = ctx.confirmation();
  // without a terminal the confirmation fails before anything is read or sent
  confirm.early(`Delete version set ${id} of service ${scope.service}?`);
  let read: { body: VersionSet; etag?: string } | undefined;
  if (confirm.asks) {
    // read first, then ask (as gh and az do): a set that is not there is exit 4 without a question,
    // and the question names the one that is; the ETag of this read guards the DELETE
    read = await getVersionSet(c, scope, id);
    const name = read.body.properties?.displayName;
    await confirm.ask(`Delete version set ${id}${name ? ` (${name})` : ''} of service ${scope.service}?`);
  }
  const etag = await currentEtag(c, scope, id, ifMatch, read);
  await deleteVersionSet(c, scope, id, etag);
  if (ctx.stderrIsTTY) ctx.info(`deleted version set ${id}`);
}
