// `vx erp <set> related <id> <navigation>`: what a record links to; pdfDocument --out saves the document.
import { ErpClient, recordLabel } from '../../api/erp/client.js';
import { listQuery } from '../../api/erp/query.js';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { atomicFileSink, outFile } from '../../core/output/index.js';
import { findSet, type ErpSet } from '../../model/erp/index.js';
import { columnsOf, tableColumn, RECORD_VIEW } from './columns.js';
import type { RelatedOpts } from './options.js';

/** Writes a file atomically (or straight into a device or pipe): the one --out writer of core/output. */
async function writeAtomic(path: string, data: Buffer): Promise<void> {
  const sink = await atomicFileSink(path);
  try {
    await sink.write(data);
    await sink.commit();
  } catch (e) {
    await sink.abort();
    throw e;
  }
}

/** pdfDocument --out: the document itself, to a file or (--out -) standard output (`... --out - | lp`). */
async function saveDocument(ctx: Ctx, client: ErpClient, set: ErpSet, id: string, out: string): Promise<void> {
  const bytes = await client.content(set, id, '/pdfDocument/pdfDocumentContent');
  const file = outFile(out);
  if (file === undefined) return await ctx.write(bytes);
  await writeAtomic(file, bytes);
  if (ctx.stderrIsTTY) ctx.info(`saved ${bytes.length} bytes to ${out}`);
}

export async function run(ctx: Ctx, set: ErpSet, opts: RelatedOpts, key: string, nav: string): Promise<void> {
  const def = set.navigation && Object.hasOwn(set.navigation, nav) ? set.navigation[nav] : undefined;
  if (!def) throw new UsageError(`unknown navigation "${nav}"`);
  if (opts.out !== undefined && nav !== 'pdfDocument') throw new UsageError('--out works with the pdfDocument navigation only');
  if (opts.out !== undefined) ctx.noQuery('related pdfDocument --out (it saves the document itself)');
  const q = listQuery(opts);
  if (!def.collection && (q.filter || q.orderby || q.top !== undefined || q.skip !== undefined || q.pageSize !== undefined)) {
    throw new UsageError(`${nav} is a single record: --filter, --orderby, --top, --skip and --page-size apply to list navigations only`);
  }
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const { id, record } = await client.resolve(set, key);
  if (opts.out !== undefined) return saveDocument(ctx, client, set, id, opts.out);
  const value = await client.related(set, id, nav, q);
  if (value === undefined) {
    // 204: nothing is related (not an error: the record is there); stdout holds nothing, as for any 204
    if (ctx.stderrIsTTY) ctx.info(`${recordLabel(set, id, record)} has no ${nav}`);
    return;
  }
  const columns = !def.collection ? undefined : def.columns && !q.select ? def.columns.map((c) => tableColumn(undefined, c)) : columnsOf(def.set ? findSet(def.set) : undefined, q.select);
  await ctx.print(value, { ...RECORD_VIEW, columns, empty: `no ${nav} records` });
}
