// How `quota apply` shows its plan and the state of each change: a table (drawn live on a
// terminal), or a stream of ndjson lines off a terminal.
import { changeRequest, isChange, planExit, type ChangeStatus, type PlanItem } from '../../../api/mgmt/apply.js';
import type { MgmtClient } from '../../../api/mgmt/client.js';
import type { ManifestEntry } from '../../../api/mgmt/manifest.js';
import type { Ctx } from '../../../core/context.js';
import type { ExitStatus } from '../../../core/errors.js';
import { loadTextWidth, renderTable, type Column } from '../../../core/output/index.js';
import { num, tableWidth } from './fleet.js';
import { followCommand } from './scope.js';

export interface ApplyRow {
  subscription: string;
  provider: string;
  location: string;
  name: string;
  from?: number;
  to: number;
  usage?: number;
  action: string;
  state?: string;
  requestId?: string;
  message?: string;
}

export function planRow(p: PlanItem): ApplyRow {
  const e = p.entry;
  return { subscription: e.subscription, provider: e.provider, location: e.location, name: e.name, from: p.from, to: e.limit, usage: p.usage, action: p.action, message: p.note };
}

export function statusRow(s: ChangeStatus): ApplyRow {
  return { ...planRow(s.item), state: s.state, requestId: s.requestId, message: s.message ?? s.item.note };
}

export function followHint(s: ChangeStatus): string {
  return `follow it with: ${followCommand(s.requestId ?? '<requestId>', s.item.scope)}`;
}

export class ApplyView {
  /** several subscriptions: the table has their column */
  readonly multiSub: boolean;
  /** off a terminal the run is a stream of ndjson lines (plan, then every change of state) */
  readonly stream: boolean;

  constructor(
    private readonly ctx: Ctx,
    entries: readonly ManifestEntry[],
  ) {
    this.multiSub = new Set(entries.map((e) => e.subscription.toLowerCase())).size > 1;
    const explicit = ctx.explicitFormat();
    this.stream = explicit === 'ndjson' || (!explicit && !ctx.stdoutIsTTY);
  }

  line(v: unknown): Promise<void> {
    return this.ctx.write(`${JSON.stringify(v)}\n`);
  }

  columns(withState: boolean): Column[] {
    return [
      ...(this.multiSub ? [{ header: 'Subscription', get: 'subscription' } as Column] : []),
      { header: 'Location', get: 'location', keep: true },
      { header: 'Name', get: 'name', keep: true },
      num((r: ApplyRow) => r.from, 'From'),
      num((r: ApplyRow) => r.to, 'To'),
      { header: 'Action', get: 'action' },
      ...(withState ? [{ header: 'State', get: 'state' } as Column, { header: 'Request id', get: 'requestId', keep: true } as Column] : []),
      { header: 'Message', get: 'message' },
    ];
  }

  table(rows: ApplyRow[], withState: boolean): string {
    return renderTable(rows, { columns: this.columns(withState), width: tableWidth(this.ctx) });
  }

  /** --plan: the plan, with the request of each change that would be submitted, as the result (in the -o format) */
  async showPlan(c: MgmtClient, plan: PlanItem[], total: number): Promise<void> {
    const rows = plan.map((p) => (isChange(p) && !p.pending ? { ...planRow(p), request: changeRequest(c, p) } : planRow(p)));
    if (this.stream) for (const r of rows) await this.line({ event: 'plan', ...r });
    else await this.ctx.print(rows, { columns: this.columns(false) });
    const exit = this.summary(plan, total);
    if (exit) throw exit;
  }

  /**
   * --dry-run: the PATCH of each change that would be submitted, planned on `c` (the run prints
   * them as every --dry-run does: one JSON array); the plan's table on stderr at a terminal.
   */
  async dryRun(c: MgmtClient, plan: PlanItem[], total: number): Promise<ExitStatus | undefined> {
    for (const p of plan) if (isChange(p) && !p.pending) c.plan(changeRequest(c, p));
    if (this.ctx.stderrIsTTY) {
      await loadTextWidth();
      this.ctx.io.stderr.write(this.table(plan.map(planRow), false));
    }
    return this.summary(plan, total);
  }

  /** What would change, on stderr; the exit when some entries cannot be applied. */
  private summary(plan: PlanItem[], total: number): ExitStatus | undefined {
    const changes = plan.filter(isChange);
    const running = changes.filter((p) => p.pending).length;
    this.ctx.info(`dry run: ${changes.length} of ${total} quotas would change${running ? ` (${running} by a request already running)` : ''}; nothing was changed`);
    return plan.some((p) => p.action === 'failed' || p.action === 'refused') ? planExit(plan) : undefined;
  }

  /** the plan before anything is submitted: its lines, or its table on stderr at a terminal */
  async plan(plan: PlanItem[]): Promise<void> {
    if (!this.stream && this.ctx.stderrIsTTY) await loadTextWidth();
    if (this.stream) for (const p of plan) await this.line({ event: 'plan', ...planRow(p) });
    else if (this.ctx.stderrIsTTY) this.ctx.io.stderr.write(this.table(plan.map(planRow), false));
  }
}
