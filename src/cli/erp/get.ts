// `vx erp <set> get <id>`: one record, by its id or its human key.
import { ErpClient } from '../../api/erp/client.js';
import { checkNotEmpty } from '../../api/erp/query.js';
import type { Ctx } from '../../core/context.js';
import type { ErpSet } from '../../model/erp/index.js';
import type { GetOpts } from './options.js';
import { RECORD_VIEW } from './columns.js';

export async function run(ctx: Ctx, set: ErpSet, opts: GetOpts, key: string): Promise<void> {
  checkNotEmpty(opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const q = { select: opts.select, expand: opts.expand };
  const found = await client.resolve(set, key, q);
  if (found.planned) return; // --dry-run: the $filter read was planned
  await ctx.print(found.record ?? (await client.get(set, found.id, q)), RECORD_VIEW);
}
