// The questions of `quota wizard`, one function per step; a step given as a flag is not asked.
// Esc at a question goes back to the one asked before it.
import type { MgmtClient } from '../../../api/mgmt/client.js';
import { getQuota, type Quota, type QuotaScope } from '../../../api/mgmt/quota.js';
import { parseLimit } from '../../../api/mgmt/validate.js';
import { checkNewLimit, equivalentCommand, limitRange, unknownScope } from '../../../api/mgmt/wizard.js';
import type { Ctx } from '../../../core/context.js';
import { UsageError } from '../../../core/errors.js';
import { GoBack } from '../../../core/prompt.js';
import { chooseOrType, describeQuota, knownSubscriptions, LOCATIONS, pickResource, PROVIDERS, say } from './wizard-ask.js';
import type { WizardOpts } from './options.js';

export interface Wizard {
  ctx: Ctx;
  opts: WizardOpts;
  c: MgmtClient;
  /** the answers so far */
  subscription?: string;
  provider?: string;
  location?: string;
  name?: string;
  quota?: Quota;
  limit?: number;
}

export const scopeOf = (w: Wizard): QuotaScope => ({ subscription: w.subscription!, provider: w.provider!, location: w.location! });

/** A step: asks its question (or takes its flag); true when it asked. */
type Step = (w: Wizard) => Promise<boolean>;

const subscription: Step = async (w) => {
  if (w.opts.subscription !== undefined) return false;
  const given = w.subscription ?? w.ctx.config.get('mgmt.subscription');
  const known = knownSubscriptions(w.ctx);
  w.subscription = await chooseOrType(w.ctx.prompter, 'Subscription', [...known.keys()], 'subscriptionUuid', given, known);
  return true;
};

const provider: Step = async (w) => {
  if (w.opts.provider !== undefined) return false;
  const choices = PROVIDERS.map((x) => `${w.c.namespace}.${x}`);
  w.provider = await chooseOrType(w.ctx.prompter, 'Resource provider', choices, 'providerId', w.provider ?? w.ctx.config.get('mgmt.provider'));
  return true;
};

const location: Step = async (w) => {
  if (w.opts.location !== undefined) return false;
  w.location = await chooseOrType(w.ctx.prompter, 'Location', LOCATIONS, 'location', w.location ?? w.ctx.config.get('mgmt.location'));
  return true;
};

const quota: Step = async (w) => {
  const given = w.opts.name !== undefined;
  if (given) {
    w.name = w.opts.name;
    w.quota = await getQuota(w.c, scopeOf(w), w.name!);
  } else {
    ({ name: w.name, quota: w.quota } = await pickResource(w.ctx, w.c, scopeOf(w)));
  }
  describeQuota(w.ctx, w.name!, w.quota);
  return !given;
};

const limit: Step = async (w) => {
  const q = w.quota!;
  if (w.opts.limit === undefined) {
    w.limit = parseLimit(await w.ctx.prompter.input(`New limit (${limitRange(q)})`, { validate: (v) => checkNewLimit(v, q), back: true })).value;
    return true;
  }
  const ok = checkNewLimit(w.opts.limit, q);
  if (ok !== true) throw new UsageError(`invalid --limit ${w.opts.limit}: ${ok}; nothing was sent`);
  w.limit = parseLimit(w.opts.limit).value;
  return false;
};

const confirm: Step = async (w) => {
  const { ctx } = w;
  const q = w.quota!.properties ?? {};
  say(
    ctx,
    [
      'Summary:',
      `  subscription  ${w.subscription}`,
      `  provider      ${w.provider}`,
      `  location      ${w.location}`,
      `  quota         ${w.name}`,
      `  limit         ${q.limit ?? '?'} -> ${w.limit}${q.unit ? ` ${q.unit}` : ''}`,
    ].join('\n'),
  );
  // lowering a limit takes room from what runs there: said as quota set and quota apply say it
  // (they need --allow-decrease, allowDecrease: true)
  const lower = typeof q.limit === 'number' && w.limit! < q.limit;
  if (lower) ctx.warn(`this LOWERS the limit of ${w.name} by ${q.limit! - w.limit!}, from ${q.limit} to ${w.limit}${typeof q.currentValue === 'number' ? ` (in use now: ${q.currentValue})` : ''}`);
  if (ctx.globals.yes) {
    // -y/--yes skips the confirmation of a change (docs/cli-contract.md), here as in quota set
    say(ctx, '(--yes: submitted without asking)');
    return false;
  }
  if (!(await ctx.prompter.confirm(lower ? 'Submit this quota change, lowering the limit?' : 'Submit this quota change?', false, { back: true }))) {
    ctx.info(`the same change without the wizard: ${equivalentCommand(scopeOf(w), w.name!, w.limit!, q.limit)}`);
    throw new UsageError('cancelled; nothing was sent');
  }
  return true;
};

const STEPS: readonly Step[] = [subscription, provider, location, quota, limit, confirm];

/**
 * Asks every step in turn; Esc goes back to the step asked before (what was written since it was
 * asked is erased, its old answer too), a subscription the service does not know starts again.
 */
export async function askAll(w: Wizard): Promise<void> {
  const asked: number[] = [];
  /** where the trail stood when each step began */
  const marks: number[] = [];
  const screen = w.ctx.prompter.screen;
  let at = 0;
  w.ctx.info('(Esc goes back one question, Ctrl-C stops; nothing is changed before the last question)');
  while (at < STEPS.length) {
    let wasAsked: boolean;
    marks[at] = screen?.mark() ?? 0;
    try {
      wasAsked = await STEPS[at]!(w);
    } catch (e) {
      if (unknownScope(e) && w.opts.subscription === undefined) {
        // a subscription typed wrong (the service knows none by that id): ask for it again rather
        // than end the wizard; the later answers are offered again as they were
        say(w.ctx, `${(e as Error).message}\ncheck the subscription id (Ctrl-C stops)`);
        at = 0;
        asked.length = 0;
        continue;
      }
      if (!(e instanceof GoBack)) throw e;
      at = asked.pop() ?? at; // Esc at the first question stays there
      screen?.rewind(marks[at]!);
      continue;
    }
    if (wasAsked) asked.push(at);
    at++;
  }
}
