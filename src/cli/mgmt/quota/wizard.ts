// `vx mgmt quota wizard`: the interactive quota change. Every question goes through the Prompter
// (core/prompt.ts); nothing is sent that changes anything before the final confirmation, and
// Ctrl-C at any question exits 130.
import { MgmtClient, resolveSubscription } from '../../../api/mgmt/client.js';
import { checkWizardFlags, equivalentCommand } from '../../../api/mgmt/wizard.js';
import type { Ctx } from '../../../core/context.js';
import { ServiceError, UsageError } from '../../../core/errors.js';
import { pollInterval } from '../../poll.js';
import { applyLimit, followRunning, type FollowOptions } from './follow.js';
import type { WizardOpts } from './options.js';
import { waitTimeout } from './scope.js';
import { askAll, scopeOf, type Wizard } from './wizard-steps.js';

const NON_INTERACTIVE_HINT = 'vx mgmt quota set <resourceName> --provider <id> --location <loc> --limit <n> --yes';

export async function run(ctx: Ctx, opts: WizardOpts): Promise<void> {
  if (!ctx.prompter.interactive) {
    throw new UsageError(`the quota wizard needs a terminal (stdin and stderr); without one use: ${NON_INTERACTIVE_HINT}`);
  }
  if (ctx.http.dryRun) throw new UsageError(`the quota wizard does not take --dry-run; see the request with: ${NON_INTERACTIVE_HINT.replace(' --yes', ' --dry-run')}`);
  const follow: FollowOptions = { wait: true, intervalSeconds: pollInterval(opts.pollInterval), timeoutSeconds: waitTimeout(opts.waitTimeout), progress: { accepted: false, ended: false } };
  checkWizardFlags(opts);
  // endpoint and token first: no point asking questions that cannot be acted on
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const w: Wizard = { ctx, opts: withSubscription(ctx, opts), c, provider: opts.provider, location: opts.location };
  w.subscription = w.opts.subscription;
  await askAll(w);
  await submit(w, follow);
}

/**
 * With every other answer given as a flag, the subscription in use (VX_SUBSCRIPTION, the profile's)
 * is taken as quota set takes it, not asked: as if given as --subscription.
 */
function withSubscription(ctx: Ctx, opts: WizardOpts): WizardOpts {
  const rest = [opts.provider, opts.location, opts.name, opts.limit].every((v) => v !== undefined);
  if (opts.subscription !== undefined || !rest || !ctx.config.get('mgmt.subscription')) return opts;
  return { ...opts, subscription: resolveSubscription(ctx.config, undefined) };
}

async function submit(w: Wizard, follow: FollowOptions): Promise<void> {
  const { ctx, c } = w;
  const change = { scope: scopeOf(w), resourceName: w.name!, limit: w.limit! };
  const same = `the same change without the wizard: ${equivalentCommand(change.scope, change.resourceName, change.limit, w.quota?.properties?.limit)}`;
  const progress = follow.progress!;
  try {
    // a request of this quota still running: followed for the same limit, exit 5 for another (as quota set)
    if (!(await followRunning(ctx, c, change, follow))) await applyLimit(ctx, c, change, w.quota!, follow);
  } catch (e) {
    // refused by the service (the PATCH, or a request that ended Failed or Invalid): the command,
    // for a retry with another limit; not while the request may still be running (an
    // interruption, a lost answer, a wait that timed out, a status that could not be read), where
    // running it would submit the change a second time
    if (e instanceof ServiceError && (!progress.accepted || progress.ended)) ctx.info(same);
    throw e;
  }
  ctx.info(same);
}
