// `vx mgmt health events details <trackingId>`
import { MgmtClient, resolveSubscription } from '../../../api/mgmt/client.js';
import { eventDetails } from '../../../api/mgmt/health.js';
import { checkSegment } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import { isTable } from '../../../core/output/index.js';
import type { SubOpts } from '../options.js';
import { eventView } from './view.js';

export async function run(ctx: Ctx, opts: SubOpts, trackingId: string): Promise<void> {
  checkSegment('trackingId', trackingId, 'tracking id');
  const subscription = resolveSubscription(ctx.config, opts.subscription);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const event = await eventDetails(c, subscription, trackingId);
  await ctx.print(isTable(ctx.format()) && !ctx.globals.query ? eventView(event) : event);
}
