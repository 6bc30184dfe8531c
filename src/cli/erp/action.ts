// `vx erp <set> <action> <id>`: a bound action on one record, or many with --filter/--ids.
import { ErpClient, recordLabel } from '../../api/erp/client.js';
import { checkSelection } from '../../api/erp/select.js';
import type { Ctx } from '../../core/context.js';
import type { ActionDef, ErpSet } from '../../model/erp/index.js';
import type { BulkActionOpts, CompanyOpts } from './options.js';

export async function run(ctx: Ctx, set: ErpSet, action: ActionDef, opts: CompanyOpts & Partial<BulkActionOpts>, key: string | undefined): Promise<void> {
  if (key === undefined) return (await import('./bulk.js')).run(ctx, set, action, opts as BulkActionOpts);
  checkSelection(key, opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const ns = ctx.config.checked('erp.actionNamespace') || 'Vendor.NAV';
  const { id, record } = await client.resolve(set, key);
  const result = await client.action(set, id, ns, action.action);
  if (result !== undefined) await ctx.print(result);
  if (ctx.stderrIsTTY) ctx.info(`${recordLabel(set, id, record)} ${action.done}`);
}
