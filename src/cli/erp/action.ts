// `vx erp <set> <action> <id>`: a bound action on one record (asks first when it cannot be undone),
// or many with --filter/--ids.
import { ErpClient, recordLabel, type Entity } from '../../api/erp/client.js';
import { runCreating } from '../../api/erp/created.js';
import { checkSelection } from '../../api/erp/select.js';
import type { Ctx } from '../../core/context.js';
import type { ActionDef, ErpSet } from '../../model/erp/index.js';
import type { BulkActionOpts, CompanyOpts } from './options.js';
import { RECORD_VIEW } from './columns.js';
import { confirmedRecord } from './question.js';

export async function run(ctx: Ctx, set: ErpSet, action: ActionDef, opts: CompanyOpts & Partial<BulkActionOpts>, key: string | undefined): Promise<void> {
  if (key === undefined) return (await import('./bulk.js')).run(ctx, set, action, opts as BulkActionOpts);
  checkSelection(key, opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const ns = ctx.config.checked('erp.actionNamespace') || 'Vendor.NAV';
  const { id, record } = await confirmedRecord(ctx, client, set, action, key);
  const send = () => client.action(set, id, ns, action.action);
  const creates = action.creates;
  if (!creates || ctx.http.dryRun) {
    const result = await send();
    if (result !== undefined) await ctx.print(result, RECORD_VIEW);
    if (ctx.stderrIsTTY) ctx.info(`${recordLabel(set, id, record)} ${action.done}`);
    return;
  }
  // the record the action made is the result (a quote's makeOrder answers 204 without it)
  const { created } = await runCreating(client, set, { ...action, creates }, id, record, send);
  const label = recordLabel(set, id, record);
  if (!created.record) {
    ctx.info(`${label} ${action.done}; which ${created.set.singular} it made could not be told (${created.candidates} new records hold its values): list them with: ${created.look}`);
    return;
  }
  const made = created.record as Entity;
  if (ctx.stderrIsTTY) ctx.info(`${label} ${action.done}: ${recordLabel(created.set, String(made.id), made)}`);
  await ctx.print(made, RECORD_VIEW);
}
