// `vx erp refresh`: start a database refresh (asks first) and, with --wait, follow it to its end.
import { checkRefreshTarget, LcsClient, outcomeOf, statusCommand, type OperationStatus } from '../../api/erp/refresh.js';
import { waitForOperation, type OperationWait } from '../../api/erp/refresh-wait.js';
import type { Ctx } from '../../core/context.js';
import { ServiceError, UsageError } from '../../core/errors.js';
import { pollFloorMs } from '../../core/poll.js';
import { elapsed, startSpinner } from '../../core/progress.js';
import { REFRESH_WAIT_TIMEOUT_S } from '../../model/lcs.js';
import { pollInterval, waitTimeoutSeconds } from '../poll.js';
import type { RefreshOpts } from './options.js';

export async function run(ctx: Ctx, opts: RefreshOpts): Promise<void> {
  checkRefreshTarget(opts);
  for (const [flag, v] of [['--poll-interval', opts.pollInterval], ['--wait-timeout', opts.waitTimeout]] as const) {
    if (v !== undefined && !opts.wait) throw new UsageError(`${flag} works with --wait only (add --wait to follow the refresh); nothing was sent`);
  }
  const interval = pollInterval(opts.pollInterval, 15);
  const timeout = waitTimeoutSeconds(opts.waitTimeout, REFRESH_WAIT_TIMEOUT_S);
  const client = await LcsClient.open(ctx.http, ctx.config);
  client.refreshUrl(opts); // checks the path segments before the question
  await ctx.confirmation().ask(`Overwrite the database of environment ${opts.target} with a copy of environment ${opts.source} (project ${opts.project})?`);
  const result = await client.refresh(opts);
  const activity = typeof result.OperationActivityId === 'string' && result.OperationActivityId.trim() ? result.OperationActivityId : undefined;
  // with --wait the final status is the result (it names the operation too); without an operation
  // to follow, the start answer is all there is
  if (!opts.wait || !result.IsSuccess || !activity) await ctx.print(result);
  if (!result.IsSuccess) throw new ServiceError(`the database refresh was not started: ${result.ErrorMessage ?? 'the service gave no reason'}`);
  const check = activity ? statusCommand(opts.project, opts.target, activity) : undefined;
  // a wait may last a day: a job killed meanwhile must have learnt which operation to check, so
  // the id is told when the wait starts, off a terminal too
  if (ctx.stderrIsTTY || ctx.globals.verbose || (opts.wait && activity)) {
    ctx.info(`database refresh of ${opts.target} from ${opts.source} started: operation ${activity ?? 'unknown'}${check ? `\ncheck it with: ${check}` : ''}`);
  }
  if (!opts.wait) return;
  if (!activity) throw new ServiceError('the database refresh was started, but the answer has no OperationActivityId to follow; see the environment history of the project in the lifecycle services portal');
  await follow(ctx, client, { project: opts.project, environment: opts.target, activity, interval, timeout, check: check!, signal: ctx.signal });
}

/**
 * Follows an operation until it ends: at a terminal a spinner with its state and the time waited;
 * off a terminal a line per change of state with --verbose. The final status goes to stdout (exit
 * 1 when the operation failed); Ctrl-C, and --wait-timeout (exit 1), say that the refresh goes on
 * and how to check it.
 */
async function follow(ctx: Ctx, client: LcsClient, o: OperationWait): Promise<void> {
  const started = Date.now();
  const label = (state: string | undefined) => `operation ${o.activity}: ${state ?? 'unknown'}`;
  let last: string | undefined;
  const spinner = startSpinner(ctx.io.stderr, `${label('submitted')} (0 s)`, { env: ctx.env });
  const tick = setInterval(() => spinner.update(`${label(last ?? 'submitted')} (${elapsed(Date.now() - started)})`), 1000);
  tick.unref();
  const onState = (state: string | undefined) => {
    if (state !== last && !ctx.stderrIsTTY) ctx.verbose(label(state));
    last = state;
    spinner.update(`${label(state)} (${elapsed(Date.now() - started)})`);
  };
  let final: OperationStatus;
  try {
    final = await waitForOperation(client, { ...o, onState, floorMs: pollFloorMs(ctx.env) });
  } catch (e) {
    clearInterval(tick);
    spinner.stop();
    throw e;
  }
  clearInterval(tick);
  const state = typeof final.OperationStatus === 'string' ? final.OperationStatus : undefined;
  spinner.stop(ctx.stderrIsTTY ? `${label(state)} after ${elapsed(Date.now() - started)}` : undefined);
  await ctx.print(final);
  if (outcomeOf(state) === 'failed') throw new ServiceError(`the database refresh of ${o.environment} ended as ${state}${final.ErrorMessage ? `: ${final.ErrorMessage}` : ''}`);
}
