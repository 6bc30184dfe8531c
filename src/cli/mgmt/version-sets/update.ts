// `vx mgmt version-sets update <versionSetId>`: read, merge the given fields, PUT with If-Match.
import { MgmtClient } from '../../../api/mgmt/client.js';
import { checkIfMatch, checkSegment } from '../../../api/mgmt/validate.js';
import { ETAG_PLACEHOLDER, fieldChanges, getVersionSet, mergeProperties, putVersionSet, updatedProperties, versionSetUrl, type ServiceScope, type VersionSetProps } from '../../../api/mgmt/versionsets.js';
import type { Ctx } from '../../../core/context.js';
import { UsageError } from '../../../core/errors.js';
import type { VsUpdateOpts } from './options.js';
import { serviceScope, VERSION_SET_COLUMNS } from './scope.js';

/** In --dry-run, the body of update's PUT: the given fields and this stand-in for the ones kept. */
const KEPT_PLACEHOLDER = '<other properties>';

type Changes = ReturnType<typeof fieldChanges>;

/** What the PUT sends: the merged properties and the ETag that guards it. */
async function target(c: MgmtClient, scope: ServiceScope, id: string, changes: Changes, o: { ifMatch?: string; schemeGiven: boolean }): Promise<{ props: VersionSetProps; etag: string }> {
  if (c.dryRun) {
    // the GET and the PUT update would send; what the GET returns is not known without sending it
    c.plan({ method: 'GET', url: versionSetUrl(c, scope, id) });
    return { props: { ...mergeProperties({}, changes), [KEPT_PLACEHOLDER]: '<as returned by the GET>' }, etag: o.ifMatch ?? ETAG_PLACEHOLDER };
  }
  // the fields not given are kept from a read; --if-match only says which version the change
  // applies to (the service answers 412 when the set has changed since: exit 5)
  const current = await getVersionSet(c, scope, id);
  if (!current.etag && o.ifMatch === undefined) throw new UsageError(`the version set ${id} came without an ETag; pass --if-match <etag> or --force`);
  return { props: updatedProperties(id, current.body.properties, changes, o.schemeGiven), etag: o.ifMatch ?? current.etag! };
}

export async function run(ctx: Ctx, opts: VsUpdateOpts, id: string): Promise<void> {
  checkSegment('versionSetId', id, 'version set id');
  const changes = fieldChanges(opts);
  if (Object.values(changes).every((v) => v === undefined)) {
    throw new UsageError('nothing to change: give at least one of --display-name, --scheme, --description, --header-name, --query-name; nothing was sent');
  }
  const ifMatch = checkIfMatch(opts.ifMatch, opts.force);
  const scope = serviceScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const { props, etag } = await target(c, scope, id, changes, { ifMatch, schemeGiven: opts.scheme !== undefined });
  const { body, etag: newEtag } = await putVersionSet(c, scope, id, props, etag);
  if (newEtag) ctx.verbose(`ETag: ${newEtag}`);
  if (ctx.stderrIsTTY) ctx.info(`updated version set ${id}`);
  await ctx.print(body, { columns: VERSION_SET_COLUMNS });
}
