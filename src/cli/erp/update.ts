// `vx erp <set> update <id>`: a PATCH of the given fields, with If-Match.
import { bodyFromFlags } from '../../api/erp/body.js';
import { ErpClient, recordLabel } from '../../api/erp/client.js';
import { checkEtagOptions } from '../../api/erp/query.js';
import type { Ctx } from '../../core/context.js';
import type { ErpSet } from '../../model/erp/index.js';
import type { BodyOpts, EtagOpts } from './options.js';
import { RECORD_VIEW } from './columns.js';

export async function run(ctx: Ctx, set: ErpSet, opts: BodyOpts & EtagOpts, key: string): Promise<void> {
  checkEtagOptions(opts);
  const body = await bodyFromFlags(set, 'update', opts, ctx.io.stdin);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const { id, record } = await client.resolve(set, key);
  client.itemUrl(set, id); // checks the id before anything is sent
  const etag = await client.ifMatch(set, id, opts.ifMatch, opts.force, record);
  const updated = await client.update(set, id, body, etag, recordLabel(set, id, record));
  if (updated !== undefined) await ctx.print(updated, RECORD_VIEW);
}
