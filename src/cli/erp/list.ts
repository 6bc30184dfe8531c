// `vx erp <set> list`: every page of the set, as one result.
import { ErpClient, type Entity } from '../../api/erp/client.js';
import { listQuery } from '../../api/erp/query.js';
import type { Ctx } from '../../core/context.js';
import type { ErpSet } from '../../model/erp/index.js';
import { columnsOf } from './columns.js';
import type { ListOpts } from './options.js';

export async function run(ctx: Ctx, set: ErpSet, opts: ListOpts): Promise<void> {
  const q = listQuery(opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const items: Entity[] = [];
  for await (const page of client.listPages(set, q)) for (const x of page) items.push(x);
  await ctx.print(items, { columns: columnsOf(set, q.select), empty: `no ${set.singular} records` });
}
