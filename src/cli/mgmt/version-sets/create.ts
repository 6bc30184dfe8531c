// `vx mgmt version-sets create <versionSetId>`: reads first, so an existing set is never replaced
// by accident (exit 5), unless --force (asks first).
import { MgmtClient } from '../../../api/mgmt/client.js';
import { checkSegment } from '../../../api/mgmt/validate.js';
import { createRefused, fieldChanges, getVersionSet, mergeProperties, putVersionSet, schemeProblem, versionSetUrl, type ServiceScope, type VersionSet } from '../../../api/mgmt/versionsets.js';
import type { Ctx } from '../../../core/context.js';
import { ConflictError, NotFoundError, UsageError } from '../../../core/errors.js';
import type { VsCreateOpts } from './options.js';
import { serviceScope, VERSION_SET_COLUMNS } from './scope.js';

type Read = { body: VersionSet; etag?: string } | undefined;

/** The set as it is now (undefined: none), or the GET planned in --dry-run. */
async function existing(c: MgmtClient, scope: ServiceScope, id: string): Promise<Read> {
  if (c.dryRun) {
    c.plan({ method: 'GET', url: versionSetUrl(c, scope, id) });
    return undefined;
  }
  return getVersionSet(c, scope, id).catch((e: unknown) => (e instanceof NotFoundError ? undefined : Promise.reject(e)));
}

export async function run(ctx: Ctx, opts: VsCreateOpts, id: string): Promise<void> {
  checkSegment('versionSetId', id, 'version set id');
  const props = mergeProperties({}, fieldChanges(opts));
  const problem = schemeProblem(props);
  if (problem) throw new UsageError(`${problem}; nothing was sent`);
  const scope = serviceScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const read = await existing(c, scope, id);
  if (read && !opts.force) {
    throw new ConflictError(`version set ${id} already exists; change it with \`vx mgmt version-sets update ${id}\` (or replace it with create --force); nothing was written`);
  }
  if (read) {
    const was = read.body.properties?.displayName;
    await ctx.confirmation('nothing was written').ask(`Replace version set ${id}${was ? ` (${was})` : ''} of service ${scope.service} with the given fields?`);
  }
  // replacing: the ETag of the read guards the PUT, so a change made meanwhile is not lost
  const { status, body, etag, afterLostAttempt } = await putVersionSet(c, scope, id, props, read?.etag).catch((e: unknown) =>
    read || c.dryRun ? Promise.reject(e) : createRefused(c, scope, id, props, e),
  );
  if (etag) ctx.verbose(`ETag: ${etag}`);
  if (read) ctx.info(`replaced version set ${id} with the given fields`);
  // a 200 after a 404: the first attempt's own creation (its answer was lost), or someone else's meanwhile
  else if (status === 200 && !afterLostAttempt) ctx.info(`version set ${id} was created by someone else after it was checked; it was replaced with the given fields`);
  else if (ctx.stderrIsTTY) ctx.info(`created version set ${id}`);
  await ctx.print(body, { columns: VERSION_SET_COLUMNS });
}
