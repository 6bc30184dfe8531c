// `vx erp <set> delete <id>` (asks first; If-Match from a fresh read), or many with --filter/--ids.
import { ErpClient, recordLabel } from '../../api/erp/client.js';
import { checkEtagOptions } from '../../api/erp/query.js';
import { checkSelection } from '../../api/erp/select.js';
import type { Ctx } from '../../core/context.js';
import { confirmDestructive } from '../../core/prompt.js';
import type { ErpSet } from '../../model/erp/index.js';
import type { BulkActionOpts, EtagOpts } from './options.js';

export async function run(ctx: Ctx, set: ErpSet, opts: EtagOpts & Partial<BulkActionOpts>, key: string | undefined): Promise<void> {
  if (key === undefined) return (await import('./bulk.js')).run(ctx, set, 'delete', opts as BulkActionOpts);
  checkSelection(key, opts);
  checkEtagOptions(opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const ask = !ctx.http.dryRun && !ctx.globals.yes;
  // without a terminal the confirmation fails before anything is read or sent
  if (ask && !ctx.prompter.interactive) await confirmDestructive(ctx.prompter, false, `Delete ${set.singular} ${key}?`);
  const resolved = await client.resolve(set, key);
  const { id } = resolved;
  let { record } = resolved;
  client.itemUrl(set, id);
  // the question names the record (number and name), so read it when the key did not
  if (ask && record === undefined) record = await client.get(set, id);
  if (ask) await confirmDestructive(ctx.prompter, false, `Delete ${recordLabel(set, id, record)}?`);
  const etag = await client.ifMatch(set, id, opts.ifMatch, opts.force, record);
  const { goneBefore } = await client.remove(set, id, etag, recordLabel(set, id, record));
  // said also without a terminal: the exchange did not go as planned, and the log should show it
  if (goneBefore) ctx.info(`deleted ${recordLabel(set, id, record)} (the answer to the first attempt was lost; the repeated DELETE found it gone)`);
  else if (ctx.stderrIsTTY) ctx.info(`deleted ${recordLabel(set, id, record)}`);
}
