// `vx erp <set> list`: every page of the set. Off a terminal, -o ndjson, json, csv and tsv are
// written as the pages arrive, in pages of 500 (memory stays flat whatever the number of records);
// a table, yaml, --query, or output at a terminal (paged) takes every record first.
import { ErpClient, type Entity } from '../../api/erp/client.js';
import { exportQuery, exportRecords } from '../../api/erp/export.js';
import { listQuery } from '../../api/erp/query.js';
import type { Ctx } from '../../core/context.js';
import type { Format } from '../../core/output/index.js';
import type { ErpSet } from '../../model/erp/index.js';
import { columnsOf } from './columns.js';
import type { ListOpts } from './options.js';

const STREAMED: ReadonlySet<Format> = new Set<Format>(['ndjson', 'json', 'csv', 'tsv']);

export async function run(ctx: Ctx, set: ErpSet, opts: ListOpts): Promise<void> {
  const q = listQuery(opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const columns = columnsOf(set, q.select);
  const format = ctx.format();
  if (STREAMED.has(format) && ctx.globals.query === undefined && !ctx.stdoutIsTTY) {
    // the chunks add up to what the whole list renders in that format; pages of 500 as export's
    // (unless --page-size): a page of the service's default 20,000 holds 40x the memory
    await exportRecords(client, set, exportQuery(opts), format, ctx.stdoutSink(format), undefined, columns);
    return;
  }
  const items: Entity[] = [];
  for await (const page of client.listPages(set, q)) for (const x of page) items.push(x);
  await ctx.print(items, { columns, empty: `no ${set.singular} records` });
}
