// `vx erp <set> export`: every record, streamed as CSV, NDJSON, JSON or TSV to stdout or a file.
import { ErpClient } from '../../api/erp/client.js';
import { exportFormat, exportQuery, exportRecords } from '../../api/erp/export.js';
import { fmt } from '../../api/translator/batcher.js';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { atomicFileSink, outFile, type ResultSink } from '../../core/output/index.js';
import type { ErpSet } from '../../model/erp/index.js';
import type { ExportOpts } from './options.js';

export async function run(ctx: Ctx, set: ErpSet, opts: ExportOpts): Promise<void> {
  const out = outFile(opts.out);
  const format = exportFormat(ctx.globals.output !== undefined ? ctx.explicitFormat() : undefined, out, ctx.explicitFormat());
  if (ctx.globals.query) throw new UsageError('--query does not apply to export (it streams every record); use --filter and --select');
  const q = exportQuery(opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const sink: ResultSink = out !== undefined ? await atomicFileSink(out) : ctx.stdoutSink(format);
  const progress = ctx.stderrIsTTY && out !== undefined ? (n: number) => ctx.io.stderr.write(`\rexported ${fmt(n)} records`) : undefined;
  const count = await exportRecords(client, set, q, format, sink, progress);
  if (progress) ctx.io.stderr.write('\n');
  if (ctx.stderrIsTTY || ctx.globals.verbose) ctx.info(`exported ${fmt(count)} ${set.singular} records${out !== undefined ? ` to ${out}` : ''}`);
}
