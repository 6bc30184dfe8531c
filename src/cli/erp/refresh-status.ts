// `vx erp refresh status <operationId>`: the operation's status as the service returns it.
import { LcsClient, outcomeOf } from '../../api/erp/refresh.js';
import type { Ctx } from '../../core/context.js';
import { ServiceError, UsageError } from '../../core/errors.js';
import type { RefreshStatusOpts } from './options.js';

export async function run(ctx: Ctx, opts: RefreshStatusOpts, activity: string): Promise<void> {
  for (const k of ['project', 'environment'] as const) if (!opts[k]?.trim()) throw new UsageError(`--${k} may not be empty`);
  if (!activity.trim()) throw new UsageError('the operation id may not be empty');
  const client = await LcsClient.open(ctx.http, ctx.config);
  client.statusUrl(opts.project, opts.environment, activity); // checks the path segments before sending
  const { body } = await client.status(opts.project, opts.environment, activity);
  await ctx.print(body);
  if (body.IsSuccess === false) throw new ServiceError(`the status of operation ${activity} could not be read: ${body.ErrorMessage ?? 'no reason given'}`);
  const state = typeof body.OperationStatus === 'string' ? body.OperationStatus : undefined;
  if (ctx.stderrIsTTY) ctx.info(`operation ${activity}: ${state ?? 'unknown'}${outcomeOf(state) === 'running' ? ' (still running)' : ''}`);
}
