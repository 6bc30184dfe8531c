// `quota apply`: read every quota of a manifest, plan what changes (a limit is never lowered
// unless the entry allows it), submit the changes concurrently and follow each request to its
// end. Each PATCH is sent at most once per run (a 429/503 answer, which proves nothing was done,
// is the only thing core/http repeats). No terminal: the caller draws the status.
import { asVxError, ExitStatus, type VxError } from '../../core/errors.js';
import { mapPool } from '../../core/pool.js';
import type { MgmtClient } from './client.js';
import { exitOf } from './fleet.js';
import type { ManifestEntry } from './manifest.js';
import { getQuota, isFinal, patchBody, pollRequest, quotaUrl, RequestNotShownError, requestIdFrom, requestIdOf, runningRequests, stateOf, submitLimit, type Quota, type QuotaScope, type RunningRequest } from './quota.js';

/**
 * increase / decrease: to be submitted; unchanged: already at the limit; kept: the limit is
 * higher and the entry does not allow lowering it; refused: a decrease below the current usage;
 * failed: the quota could not be read.
 */
export type PlanAction = 'increase' | 'decrease' | 'unchanged' | 'kept' | 'refused' | 'failed';

export interface PlanItem {
  entry: ManifestEntry;
  scope: QuotaScope;
  action: PlanAction;
  /**
   * a request for this quota that is still running (an earlier run was interrupted, or someone's
   * `quota set --no-wait`): followed, not submitted again; when it asks another limit than the
   * entry, the quota is read again at its end and the entry's limit submitted if still needed
   */
  pending?: { requestId: string; state: string; limit?: number };
  current?: Quota;
  from?: number;
  usage?: number;
  unit?: string;
  note: string;
  failure?: VxError;
}

export function isChange(p: PlanItem): boolean {
  return p.action === 'increase' || p.action === 'decrease';
}

export function planItem(entry: ManifestEntry, current: Quota): PlanItem {
  const scope = { subscription: entry.subscription, provider: entry.provider, location: entry.location };
  const p = current.properties ?? {};
  const from = typeof p.limit === 'number' ? p.limit : undefined;
  const usage = typeof p.currentValue === 'number' ? p.currentValue : undefined;
  const base = { entry, scope, current, from, usage, unit: p.unit };
  const to = entry.limit;
  if (from === undefined) return { ...base, action: 'increase', note: `set to ${to} (the current limit is not known)` };
  if (to === from) return { ...base, action: 'unchanged', note: `already ${from}` };
  if (to > from) return { ...base, action: 'increase', note: `${from} -> ${to} (+${to - from})` };
  if (!entry.allowDecrease) return { ...base, action: 'kept', note: `already ${from}, above ${to}; not lowered (allowDecrease is not set)` };
  if (usage !== undefined && to < usage) return { ...base, action: 'refused', note: `${to} is below the current usage of ${usage}; not submitted` };
  return { ...base, action: 'decrease', note: `${from} -> ${to} (-${from - to})` };
}

/** Reads every quota of the manifest (concurrently) and decides what to do with each. */
export async function makePlan(c: MgmtClient, entries: ManifestEntry[], o: { concurrency: number; signal?: AbortSignal }): Promise<PlanItem[]> {
  return mapPool(
    entries,
    o.concurrency,
    async (entry): Promise<PlanItem> => {
      const scope = { subscription: entry.subscription, provider: entry.provider, location: entry.location };
      try {
        return planItem(entry, await getQuota(c, scope, entry.name));
      } catch (e) {
        const failure = asVxError(e);
        if (failure.exitCode === 130) throw e;
        return { entry, scope, action: 'failed', note: failure.message, failure };
      }
    },
    o.signal,
  );
}

/**
 * Marks the changes whose quota already has a request running (Accepted or InProgress), so that a
 * rerun after an interruption follows that request instead of sending a second PATCH. One list
 * of the latest requests per location with changes; a list that fails is reported through
 * `onListFailure` and the changes there are submitted as planned.
 */
export async function markPending(c: MgmtClient, plan: PlanItem[], o: { concurrency: number; signal?: AbortSignal; onListFailure?: (scope: QuotaScope, e: VxError) => void }): Promise<void> {
  const byScope = new Map<string, PlanItem[]>();
  for (const p of plan.filter(isChange)) {
    const key = [p.scope.subscription, p.scope.provider, p.scope.location].join('\u0000').toLowerCase();
    byScope.set(key, [...(byScope.get(key) ?? []), p]);
  }
  await mapPool(
    [...byScope.values()],
    o.concurrency,
    async (items) => {
      let running: Map<string, RunningRequest>;
      try {
        running = await runningRequests(c, items[0].scope);
      } catch (e) {
        const err = asVxError(e);
        if (err.exitCode === 130) throw e;
        o.onListFailure?.(items[0].scope, err);
        return;
      }
      for (const p of items) {
        const pending = running.get(p.entry.name.toLowerCase());
        if (pending) {
          p.pending = pending;
          p.note = otherLimit(p)
            ? `request ${pending.requestId} for it is still ${pending.state} (for ${pending.limit}, not ${p.entry.limit}): followed to its end, then read again and ${p.entry.limit} submitted if still needed`
            : `request ${pending.requestId} for it is still ${pending.state}: followed, not submitted again`;
        }
      }
    },
    o.signal,
  );
}

/** Whether a running request of an item asks another limit than its entry (so the entry's limit may still be needed after it). */
function otherLimit(p: PlanItem): boolean {
  return p.pending?.limit !== undefined && p.pending.limit !== p.entry.limit;
}

/** The PATCH a change sends (for --dry-run and the plan's JSON). */
export function changeRequest(c: MgmtClient, p: PlanItem): { method: string; url: string; body: object } {
  return { method: 'PATCH', url: quotaUrl(c, p.scope, p.entry.name), body: patchBody(p.current ?? {}, p.entry.name, p.entry.limit) };
}

/** Submitting -> Accepted/InProgress -> Succeeded | Failed | Invalid; Error: not accepted; Unknown: accepted, its end not known. */
export type ChangeState = 'Pending' | 'Submitting' | 'Accepted' | 'InProgress' | 'Succeeded' | 'Failed' | 'Invalid' | 'Error' | 'Unknown' | string;

export interface ChangeStatus {
  item: PlanItem;
  state: ChangeState;
  requestId?: string;
  message?: string;
  failure?: VxError;
}

export interface FollowOptions {
  concurrency: number;
  intervalSeconds: number;
  /** give up following a request after this long (--wait-timeout; pollRequest's default otherwise) */
  timeoutSeconds?: number;
  /** the shortest pause between two reads of a request (pollRequest's) */
  floorMs?: number;
  signal?: AbortSignal;
  /** every change of a status, with all of them (the caller redraws its table or prints a line) */
  onUpdate: (s: ChangeStatus, all: readonly ChangeStatus[]) => void;
  /** how to follow a request by hand (printed when its end is not known) */
  followHint: (s: ChangeStatus) => string;
}

/**
 * Submits every change (at most `concurrency` PATCHes at a time) and follows each accepted
 * request to its end; the follow-ups run side by side (they spend their time waiting).
 */
export async function applyChanges(c: MgmtClient, items: PlanItem[], o: FollowOptions): Promise<ChangeStatus[]> {
  return new ChangeRun(c, items, o).run();
}

type From = { retryAfter?: string; url?: string; asyncUrl?: string };

/** One applyChanges: the statuses of the changes, each updated (and reported) as it goes. */
class ChangeRun {
  readonly statuses: ChangeStatus[];
  private readonly follows: Promise<void>[] = [];

  constructor(
    private readonly c: MgmtClient,
    items: PlanItem[],
    private readonly o: FollowOptions,
  ) {
    this.statuses = items.map((item) => ({ item, state: 'Pending' }));
  }

  async run(): Promise<ChangeStatus[]> {
    await mapPool(this.statuses, this.o.concurrency, (s) => this.start(s), this.o.signal);
    const settled = await Promise.allSettled(this.follows);
    const interrupted = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (interrupted) throw interrupted.reason;
    return this.statuses;
  }

  private set(s: ChangeStatus, patch: Partial<ChangeStatus>): void {
    if (Object.entries(patch).every(([k, v]) => s[k as keyof ChangeStatus] === v)) return;
    Object.assign(s, patch);
    this.o.onUpdate(s, this.statuses);
  }

  private async start(s: ChangeStatus): Promise<void> {
    const { item } = s;
    if (item.pending) {
      // an earlier run's request: follow it from its first status read, send nothing
      this.set(s, { state: item.pending.state, requestId: item.pending.requestId });
      const then = otherLimit(item) ? () => (isFinal(s.state) ? this.afterOther(s) : undefined) : () => undefined;
      this.follows.push(this.follow(s, item.pending.requestId, { retryAfter: '0' }).then(then));
      return;
    }
    const f = await this.submit(s);
    if (f) this.follows.push(f);
  }

  private async follow(s: ChangeStatus, id: string, from: From): Promise<void> {
    const { o } = this;
    try {
      const final = await pollRequest(this.c, s.item.scope, id, {
        intervalSeconds: o.intervalSeconds,
        timeoutSeconds: o.timeoutSeconds,
        floorMs: o.floorMs,
        retryAfter: from.retryAfter,
        url: from.url,
        asyncUrl: from.asyncUrl,
        signal: o.signal,
        onState: (st, r) => {
          if (st !== s.state) this.set(s, { state: st ?? 'Unknown', message: r.properties?.message || undefined });
        },
      });
      this.set(s, { state: stateOf(final) ?? 'Unknown', message: final.properties?.message || undefined });
    } catch (e) {
      const failure = asVxError(e);
      if (failure.exitCode === 130) {
        this.set(s, { state: 'Unknown', message: `interrupted while following; ${o.followHint(s)}` });
        throw e;
      }
      // (a wait that timed out says already that the change was accepted and goes on)
      const accepted = /\bwas accepted\b/.test(failure.message) ? '' : '; the change was accepted';
      // (a request the service never showed: its message says how to find it)
      const hint = e instanceof RequestNotShownError ? '' : `; ${o.followHint(s)}`;
      this.set(s, { state: 'Unknown', message: `${failure.message}${accepted}${hint}`, failure });
    }
  }

  /** Sends the PATCH of a change; the follow-up of an accepted request is returned (it runs outside the pool). */
  private async submit(s: ChangeStatus): Promise<Promise<void> | undefined> {
    const { item } = s;
    this.set(s, { state: 'Submitting' });
    let submitted;
    try {
      submitted = await submitLimit(this.c, item.scope, item.entry.name, patchBody(item.current ?? {}, item.entry.name, item.entry.limit));
    } catch (e) {
      const failure = asVxError(e);
      if (failure.exitCode === 130) throw e;
      this.set(s, { state: 'Error', message: failure.message, failure });
      return undefined;
    }
    const state = stateOf(submitted.body);
    if (!submitted.accepted) {
      // 200: done at once, no request to follow
      this.set(s, { state: state ?? 'Succeeded', requestId: requestIdFrom(submitted.body), message: submitted.body.properties?.message || undefined });
      return undefined;
    }
    let id: string;
    try {
      id = requestIdOf(submitted.body, submitted.location, item.scope);
    } catch (e) {
      this.set(s, { state: 'Unknown', message: asVxError(e).message, failure: asVxError(e) });
      return undefined;
    }
    this.set(s, { state: state ?? 'Accepted', requestId: id, message: submitted.body.properties?.message || undefined });
    if (isFinal(state)) return undefined;
    return this.follow(s, id, { retryAfter: submitted.retryAfter, url: submitted.location, asyncUrl: submitted.asyncOperation });
  }

  /** After a running request for another limit ended: read the quota again, plan it again, submit what is still needed. */
  private async afterOther(s: ChangeStatus): Promise<void> {
    let again: PlanItem;
    try {
      again = planItem(s.item.entry, await getQuota(this.c, s.item.scope, s.item.entry.name));
    } catch (e) {
      const failure = asVxError(e);
      if (failure.exitCode === 130) throw e;
      this.set(s, { state: 'Error', message: `${failure.message} (reading the quota again after request ${s.requestId} ended)`, failure });
      return;
    }
    s.item = again;
    if (isChange(again)) {
      await (await this.submit(s));
      return;
    }
    // already in place (or kept higher): nothing to send; a decrease below usage stays refused
    this.set(s, { state: again.action === 'refused' ? 'Error' : 'Succeeded', message: again.note });
  }
}

// ---------------------------------------------------------------- outcome

/** The entries that cannot be applied: the quota could not be read, or a decrease below its usage. */
export function notApplicable(plan: readonly PlanItem[]): PlanItem[] {
  return plan.filter((p) => p.action === 'failed' || p.action === 'refused');
}

const failureOf = (x: { failure?: VxError }): Pick<VxError, 'exitCode'> => x.failure ?? { exitCode: 1 };
const entries = (n: number) => `entr${n > 1 ? 'ies' : 'y'}`;

/** The exit of a plan with entries that cannot be applied (and nothing else to report). */
export function planExit(plan: readonly PlanItem[]): ExitStatus {
  const bad = notApplicable(plan);
  return new ExitStatus(exitOf(bad.map(failureOf)), `${bad.length} ${entries(bad.length)} of the manifest cannot be applied: ${bad.map((p) => `entry ${p.entry.index} (${p.entry.name} in ${p.entry.location}): ${p.note}`).join('; ')}`);
}

/** The exit of a run whose changes did not all succeed or whose plan had entries it could not apply; undefined when all is well. */
export function applyExit(statuses: readonly ChangeStatus[], plan: readonly PlanItem[]): ExitStatus | undefined {
  const bad = statuses.filter((s) => s.state !== 'Succeeded');
  const planFailures = notApplicable(plan);
  if (!bad.length && !planFailures.length) return undefined;
  const failures = [...bad.map(failureOf), ...planFailures.map(failureOf)];
  const nOk = statuses.length - bad.length;
  const changes = bad.length ? `; ${bad.map((s) => `${s.item.entry.name} in ${s.item.scope.location} ${s.state}`).join(', ')}` : '';
  const skipped = planFailures.length ? `; ${planFailures.length} ${entries(planFailures.length)} not submitted (${planFailures.map((p) => `entry ${p.entry.index} ${p.action}`).join(', ')})` : '';
  return new ExitStatus(exitOf(failures), `${nOk} of ${statuses.length} quota changes succeeded${changes}${skipped}; a rerun submits only what is still short`);
}
