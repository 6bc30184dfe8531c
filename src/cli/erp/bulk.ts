// `vx erp <set> delete` and the bound actions with --filter or --ids: count, confirm, run over
// $batch, one result per record.
import { planFilterRun, planTargets, runBulkAction, type BulkRun, type BulkVerb } from '../../api/erp/bulk-action.js';
import { batchFor, bulkOptions } from '../../api/erp/bulk.js';
import { ErpClient } from '../../api/erp/client.js';
import { listQuery } from '../../api/erp/query.js';
import { checkSelection, filterTargets, idTargets, type Target } from '../../api/erp/select.js';
import { fmt } from '../../api/translator/batcher.js';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { erpSets, type ErpSet } from '../../model/erp/index.js';
import type { BulkActionOpts } from './options.js';
import { actionQuestion } from './question.js';
import { finishRun, Results } from './results.js';

async function targets(ctx: Ctx, r: BulkRun, opts: BulkActionOpts, q: ReturnType<typeof listQuery> | undefined): Promise<{ list: Target[]; what: string }> {
  if (q) return { list: await filterTargets(r.client, r.set, q), what: `matching ${opts.filter}` };
  const { list, name } = await idTargets(r.set, opts.ids!, () => ctx.io.stdin, (line) => ctx.info(line));
  return { list, what: `listed in ${name}` };
}

export async function run(ctx: Ctx, set: ErpSet, action: BulkVerb, opts: BulkActionOpts): Promise<void> {
  checkSelection(undefined, opts);
  if (opts.ifMatch !== undefined) throw new UsageError("--if-match names one record's ETag; with --filter or --ids each record's own is used (or --force)");
  const q = opts.filter !== undefined ? listQuery({ filter: opts.filter }) : undefined; // (an empty --filter is refused, --dry-run or not)
  const bulk = bulkOptions(ctx.config, opts, ctx.signal);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const batch = batchFor(client, set, ctx.http, bulk.pacer);
  const namespace = (action === 'delete' ? ctx.config.get('erp.actionNamespace') : ctx.config.checked('erp.actionNamespace')) || 'Vendor.NAV';
  const r: BulkRun = { client, set, batch, action, namespace, bulk, force: opts.force };
  if (ctx.http.dryRun && q) return planFilterRun(ctx.http, r, q);
  const plural = `${set.singular} records`;
  const source = opts.filter !== undefined ? `matching ${opts.filter}` : `listed in ${opts.ids === '-' ? 'standard input' : opts.ids}`;
  // many records chosen by a filter or a list: always confirmed, whatever the action; off a
  // terminal refused before the records are read (exit 2 sends nothing)
  const confirm = ctx.confirmation();
  confirm.early(actionQuestion(action, `the ${plural} ${source}`));
  const { list, what } = await targets(ctx, r, opts, q);
  if (!list.length) {
    ctx.info(`no ${plural} ${what}; nothing to do`);
    return;
  }
  if (ctx.http.dryRun) return planTargets(ctx.http, r, list);
  await confirm.ask(actionQuestion(action, `${fmt(list.length)} ${list.length === 1 ? set.singular : plural} ${what}`));
  if (ctx.stderrIsTTY) ctx.info(`${list.length} ${plural} ${what}`);
  const creates = action !== 'delete' && action.creates ? erpSets().find((s) => s.name === action.creates!.set) : undefined;
  const results = new Results(ctx, list.length, set, creates);
  const { interrupted, checks } = await runBulkAction(r, list, results);
  await finishRun(ctx, results, action === 'delete' ? 'deleted from' : `${action.command}:`, interrupted, checks);
}
