// Submitting a new limit and following its request to the end, for `quota set` and the wizard:
// the spinner on a terminal, the request printed at its end, how to follow it when the wait stops.
import type { MgmtClient } from '../../../api/mgmt/client.js';
import {
  isFailure,
  patchBody,
  pollRequest,
  RequestNotShownError,
  requestIdFrom,
  requestIdOf,
  runningRequests,
  stateOf,
  submitLimit,
  type Quota,
  type QuotaRequest,
  type QuotaScope,
  type RunningRequest,
} from '../../../api/mgmt/quota.js';
import type { Ctx } from '../../../core/context.js';
import { asVxError, ConflictError, ServiceError } from '../../../core/errors.js';
import { pollFloorMs } from '../../../core/poll.js';
import { startSpinner } from '../../../core/progress.js';
import { followCommand } from './scope.js';
import { REQUEST_COLUMNS } from './view.js';

export interface FollowOptions {
  wait: boolean;
  intervalSeconds: number;
  timeoutSeconds?: number;
  /** filled in as it goes: the change was accepted (it runs on), and its request has ended */
  progress?: { accepted: boolean; ended: boolean };
}

/** One change: which quota, where, to what limit. */
export interface LimitChange {
  scope: QuotaScope;
  resourceName: string;
  limit: number;
}

function progressLine(ctx: Ctx, m: string): void {
  if (ctx.globals.verbose && !ctx.stderrIsTTY) ctx.info(m);
}

/** The end of a request: the request printed; Failed or Invalid is exit 1. `ch`: the change it made, told at a terminal. */
async function ended(ctx: Ctx, ch: LimitChange | undefined, body: QuotaRequest, what: string): Promise<void> {
  const state = stateOf(body);
  await ctx.print(body, { columns: REQUEST_COLUMNS });
  if (isFailure(state)) throw new ServiceError(`${what} ended ${state}: ${body.properties?.message ?? 'no reason given'}`);
  if (ctx.stderrIsTTY && ch) ctx.info(`the limit of ${ch.resourceName} in ${ch.scope.location} is now ${ch.limit}`);
}

/**
 * Sends the PATCH and, on 201, follows the request (spinner on a terminal) unless `wait` is false.
 * The final (or accepted) request is printed; a Failed or Invalid end is exit 1.
 */
export async function applyLimit(ctx: Ctx, c: MgmtClient, ch: LimitChange, current: Quota, o: FollowOptions): Promise<void> {
  const { scope, resourceName, limit } = ch;
  const submitted = await submitLimit(c, scope, resourceName, patchBody(current, resourceName, limit));
  if (!submitted.accepted) {
    if (o.progress) o.progress.ended = true;
    return ended(ctx, ch, submitted.body, `the quota change of ${resourceName}`);
  }
  if (o.progress) o.progress.accepted = true;
  const id = requestIdOf(submitted.body, submitted.location, scope);
  if (!o.wait) {
    await ctx.print(submitted.body, { columns: REQUEST_COLUMNS });
    // the id is in the printed request; an accepted answer without a body (202) has it only here
    if (ctx.stderrIsTTY || !requestIdFrom(submitted.body)) ctx.info(`quota request ${id} accepted (${stateOf(submitted.body) ?? 'no state'}); follow it with: ${followCommand(id, scope)}`);
    return;
  }
  const from = { retryAfter: submitted.retryAfter, url: submitted.location, asyncUrl: submitted.asyncOperation };
  await followRequest(ctx, c, ch.scope, { id, state: stateOf(submitted.body) ?? 'Accepted', from, change: ch }, o);
}

export interface Follow {
  id: string;
  state: string;
  from: { retryAfter?: string; url?: string; asyncUrl?: string };
  /** the change the request makes, when this run submitted it */
  change?: LimitChange;
}

/** Follows an accepted (or already running) request to its end (spinner on a terminal); Failed or Invalid is printed, then exit 1. */
export async function followRequest(ctx: Ctx, c: MgmtClient, scope: QuotaScope, f: Follow, o: FollowOptions): Promise<void> {
  const { id } = f;
  const spinner = startSpinner(ctx.io.stderr, `quota request ${id}: ${f.state}`, { env: ctx.env });
  progressLine(ctx, `quota request ${id}: ${f.state}`);
  let final: QuotaRequest;
  try {
    final = await pollRequest(c, scope, id, {
      intervalSeconds: o.intervalSeconds,
      timeoutSeconds: o.timeoutSeconds,
      floorMs: pollFloorMs(ctx.env),
      clock: ctx.clock,
      ...f.from,
      signal: ctx.signal,
      onState: (state) => {
        spinner.update(`quota request ${id}: ${state ?? 'unknown'}`);
        progressLine(ctx, `quota request ${id}: ${state ?? 'unknown'}`);
      },
    });
  } catch (e) {
    spinner.stop();
    // interrupted, or a status read failed: the change was accepted all the same (a request the
    // service never showed: the error says so and how to find it)
    if (!(e instanceof RequestNotShownError)) ctx.info(`quota request ${id} ${f.change ? 'was submitted' : 'goes on'}; follow it with: ${followCommand(id, scope)}`);
    throw e;
  }
  if (o.progress) o.progress.ended = true;
  spinner.stop(ctx.stderrIsTTY ? `quota request ${id}: ${stateOf(final)}` : undefined);
  await ended(ctx, f.change, final, `quota request ${id}`);
}

/**
 * A request for this quota still running (an earlier --no-wait, a wait that ran out of
 * --wait-timeout, a rerun of a pipeline step): the same change is followed, not submitted again
 * (true: done); another limit would race it: exit 5. False: none, submit the change.
 */
export async function followRunning(ctx: Ctx, c: MgmtClient, ch: LimitChange, o: FollowOptions): Promise<boolean> {
  const running = await runningRequestOf(ctx, c, ch.scope, ch.resourceName);
  if (!running) return false;
  const what = `quota request ${running.requestId} for ${ch.resourceName}${running.limit === undefined ? '' : ` (${running.limit})`} is still ${running.state}`;
  if (running.limit !== undefined && running.limit !== ch.limit) {
    throw new ConflictError(`${what}; a second change now would race it: wait for its end (${followCommand(running.requestId, ch.scope)}), then run this again; nothing was changed`);
  }
  if (!o.wait) {
    await ctx.print(running.body, { columns: REQUEST_COLUMNS });
    ctx.info(`${what}; nothing was submitted again; follow it with: ${followCommand(running.requestId, ch.scope)}`);
    return true;
  }
  ctx.info(`${what}: following it instead of submitting the same change again`);
  if (o.progress) o.progress.accepted = true;
  // (its state is already known from the list: the first status read comes after the floor, not --poll-interval)
  await followRequest(ctx, c, ch.scope, { id: running.requestId, state: running.state, from: { retryAfter: '0' }, change: ch }, o);
  return true;
}

/** The running request of a quota, from the location's latest requests; a list that fails is a warning (the change is then submitted). */
async function runningRequestOf(ctx: Ctx, c: MgmtClient, scope: QuotaScope, resourceName: string): Promise<RunningRequest | undefined> {
  try {
    return (await runningRequests(c, scope)).get(resourceName.toLowerCase());
  } catch (e) {
    const err = asVxError(e);
    if (err.exitCode === 130) throw e;
    ctx.warn(`could not look for a running request of ${resourceName} (${err.message}); submitting the change`);
    return undefined;
  }
}
