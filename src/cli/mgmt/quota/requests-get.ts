// `vx mgmt quota requests get <requestId> [--wait]`
import { MgmtClient } from '../../../api/mgmt/client.js';
import { getRequest, isFailure, isFinal, stateOf } from '../../../api/mgmt/quota.js';
import { requestRef } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import { ServiceError, UsageError } from '../../../core/errors.js';
import { pollInterval } from '../../poll.js';
import { followRequest } from './follow.js';
import type { RequestsGetOpts } from './options.js';
import { quotaScope, waitTimeout } from './scope.js';
import { REQUEST_COLUMNS } from './view.js';

export async function run(ctx: Ctx, opts: RequestsGetOpts, requestId: string): Promise<void> {
  // a following option without --wait would be accepted and do nothing
  for (const [flag, v] of [['--poll-interval', opts.pollInterval], ['--wait-timeout', opts.waitTimeout]] as const) {
    if (v !== undefined && !opts.wait) throw new UsageError(`${flag} works with --wait only (add --wait to follow the request); nothing was sent`);
  }
  const follow = { wait: true, intervalSeconds: pollInterval(opts.pollInterval), timeoutSeconds: waitTimeout(opts.waitTimeout) };
  const ref = requestRef(requestId, opts);
  const scope = quotaScope(ctx, { subscription: opts.subscription ?? ref.subscription, provider: opts.provider ?? ref.provider, location: opts.location ?? ref.location });
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const first = await getRequest(c, scope, ref.id);
  const state = first.running ? undefined : stateOf(first.body);
  if (!opts.wait || isFinal(state)) {
    await ctx.print(first.body, { columns: REQUEST_COLUMNS });
    // with --wait the end is the answer, as quota set's: Failed or Invalid is exit 1
    if (opts.wait && isFailure(state)) throw new ServiceError(`quota request ${ref.id} ended ${state}: ${first.body.properties?.message ?? 'no reason given'}`);
    return;
  }
  await followRequest(ctx, c, scope, { id: ref.id, state: stateOf(first.body) ?? 'InProgress', from: { retryAfter: first.retryAfter } }, follow);
}
