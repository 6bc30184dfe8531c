// `vx erp <set> delete <id>` (asks first; If-Match from a fresh read), or many with --filter/--ids.
import { ErpClient, recordLabel } from '../../api/erp/client.js';
import { checkEtagOptions } from '../../api/erp/query.js';
import { checkSelection } from '../../api/erp/select.js';
import type { Ctx } from '../../core/context.js';
import type { ErpSet } from '../../model/erp/index.js';
import type { BulkActionOpts, EtagOpts } from './options.js';
import { confirmedRecord } from './question.js';

export async function run(ctx: Ctx, set: ErpSet, opts: EtagOpts & Partial<BulkActionOpts>, key: string | undefined): Promise<void> {
  if (key === undefined) return (await import('./bulk.js')).run(ctx, set, 'delete', opts as BulkActionOpts);
  checkSelection(key, opts);
  checkEtagOptions(opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const { id, record } = await confirmedRecord(ctx, client, set, 'delete', key);
  const etag = await client.ifMatch(set, id, opts.ifMatch, opts.force, record);
  const { goneBefore } = await client.remove(set, id, etag, recordLabel(set, id, record));
  // said also without a terminal: the exchange did not go as planned, and the log should show it
  if (goneBefore) ctx.info(`deleted ${recordLabel(set, id, record)} (the answer to the first attempt was lost; the repeated DELETE found it gone)`);
  else if (ctx.stderrIsTTY) ctx.info(`deleted ${recordLabel(set, id, record)}`);
}
