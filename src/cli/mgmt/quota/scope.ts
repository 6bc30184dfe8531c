// Where a quota command works (subscription, provider, location: flag > env > profile), and the
// inputs the quota commands share.
import { resolveSegment, resolveSubscription } from '../../../api/mgmt/client.js';
import { DEFAULT_WAIT_TIMEOUT_S, type QuotaScope } from '../../../api/mgmt/quota.js';
import type { Ctx } from '../../../core/context.js';
import { waitTimeoutSeconds } from '../../poll.js';
import type { QuotaOpts } from '../options.js';

/** subscription, provider and location: flag > env > profile, each checked against its rule. */
export function quotaScope(ctx: Ctx, opts: QuotaOpts): QuotaScope {
  const provider = resolveSegment(ctx.config, 'mgmt.provider', opts.provider, '--provider', 'providerId', 'the resource provider id');
  const location = resolveSegment(ctx.config, 'mgmt.location', opts.location, '--location', 'location', 'the location');
  const subscription = resolveSubscription(ctx.config, opts.subscription);
  return { subscription, provider, location };
}

/** --wait-timeout of the quota commands: default half an hour */
export function waitTimeout(value: string | undefined): number {
  return waitTimeoutSeconds(value, DEFAULT_WAIT_TIMEOUT_S);
}

/** The flags that name a scope, for the commands printed as hints. */
export function whereFlags(scope: QuotaScope): string {
  // the subscription too: a request is found only in its own subscription, and the one of this
  // run may have come from a flag the person will not think of repeating
  return `--provider ${scope.provider} --location ${scope.location} --subscription ${scope.subscription}`;
}

/** The command that follows a request to its end (`requests get --wait`), for the hints of every wait that stops early. */
export function followCommand(requestId: string, scope: QuotaScope): string {
  return `vx mgmt quota requests get ${requestId} ${whereFlags(scope)} --wait`;
}
