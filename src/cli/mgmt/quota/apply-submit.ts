// `quota apply`'s submission: every change submitted and followed, its state drawn live (or
// streamed) as it goes; on an interruption, how to follow what was accepted.
import { applyChanges, isChange, type ChangeStatus, type PlanItem } from '../../../api/mgmt/apply.js';
import type { MgmtClient } from '../../../api/mgmt/client.js';
import type { Ctx } from '../../../core/context.js';
import { pollFloorMs } from '../../../core/poll.js';
import { LiveBlock } from '../../../core/progress.js';
import { followHint, planRow, statusRow, type ApplyView } from './apply-view.js';

export interface SubmitOptions {
  concurrency: number;
  intervalSeconds: number;
  timeoutSeconds: number;
}

const isEnd = (state: string) => state === 'Succeeded' || state === 'Failed' || state === 'Invalid';

/** Submits the changes of the plan and follows them to their end; returns their statuses. */
export async function submitChanges(ctx: Ctx, c: MgmtClient, view: ApplyView, plan: PlanItem[], o: SubmitOptions): Promise<ChangeStatus[]> {
  const changes = plan.filter(isChange);
  const others = plan.filter((p) => !isChange(p));
  const live = new LiveBlock(ctx.io.stderr);
  let statuses: ChangeStatus[] = [];
  const redraw = (force = false) => live.draw(view.table([...statuses.map(statusRow), ...others.map(planRow)], true), force);
  const onUpdate = (s: ChangeStatus, all: readonly ChangeStatus[]) => {
    statuses = [...all];
    if (view.stream) {
      void view.line({ event: 'status', ...statusRow(s), at: new Date().toISOString() });
      if (s.requestId && s.state === 'Accepted' && ctx.stderrIsTTY) ctx.info(`${s.item.entry.name} in ${s.item.scope.location}: request ${s.requestId}`);
    } else redraw();
  };
  try {
    statuses = changes.map((item) => ({ item, state: 'Pending' }));
    redraw(true);
    statuses = await applyChanges(c, changes, { ...o, floorMs: pollFloorMs(ctx.env), signal: ctx.signal, onUpdate, followHint });
  } catch (e) {
    live.clear();
    // interrupted: what was accepted goes on at the service
    for (const s of statuses) if (s.requestId && !isEnd(s.state)) ctx.info(`quota request ${s.requestId} (${s.item.entry.name} in ${s.item.scope.location}) was submitted; ${followHint(s)}`);
    throw e;
  }
  live.clear();
  if (!view.stream) await ctx.print([...statuses.map(statusRow), ...others.map(planRow)], { columns: view.columns(true) });
  for (const s of statuses) if (s.state === 'Unknown' || s.state === 'InProgress' || s.state === 'Accepted') ctx.info(`${s.item.entry.name} in ${s.item.scope.location}: ${s.message ?? s.state}`);
  return statuses;
}
