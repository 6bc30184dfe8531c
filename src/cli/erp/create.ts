// `vx erp <set> create`: one record from --data and --set.
import { bodyFromFlags } from '../../api/erp/body.js';
import { checkCommand } from '../../api/erp/bulk.js';
import { ErpClient } from '../../api/erp/client.js';
import type { Ctx } from '../../core/context.js';
import type { ErpSet } from '../../model/erp/index.js';
import type { BodyOpts } from './options.js';
import { RECORD_VIEW } from './columns.js';

export async function run(ctx: Ctx, set: ErpSet, opts: BodyOpts): Promise<void> {
  const body = await bodyFromFlags(set, 'create', opts, ctx.io.stdin);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const key = set.naturalKey && typeof body[set.naturalKey] === 'string' ? set.naturalKey : undefined;
  // (quoted for the shell as import's checks are: a code such as $(...) is not run when the line is pasted)
  const hint = (key && checkCommand(set, key, [String(body[key])])) || `vx erp ${set.noun} list --orderby "lastModifiedDateTime desc" --top 5`;
  const created = await client.create(set, body, hint);
  if (ctx.stderrIsTTY) ctx.info(`created ${set.singular} ${String(created.id ?? '')}`);
  await ctx.print(created, RECORD_VIEW);
}
