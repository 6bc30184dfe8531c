// `vx mgmt quota wizard`: the interactive quota change. Every question goes through the Prompter
// (core/prompt.ts); nothing is sent that changes anything before the final confirmation, and
// Ctrl-C at any question exits 130.
import { MgmtClient } from '../api/mgmt/client.js';
import { getQuota, listQuotas, type Quota, type QuotaScope } from '../api/mgmt/quota.js';
import type { Ctx } from '../core/context.js';
import { NotFoundError, ServiceError, UsageError } from '../core/errors.js';
import { GoBack, type Choice, type Prompter } from '../core/prompt.js';
import { checkInt32, checkRule, RULES, type RuleName } from '../model/mgmt.js';
import type { WizardOpts } from './mgmt.js';
import { applyLimit, followRunning, percentUsed, waitTimeout } from './mgmt-run.js';
import { pollInterval } from './poll.js';

/** Common choices offered before "type another"; the profile's value comes first. */
const PROVIDERS = ['Compute', 'Network', 'Storage', 'MachineLearningServices', 'Web'];
const LOCATIONS = ['eastus', 'eastus2', 'westus2', 'centralus', 'northeurope', 'westeurope', 'uksouth', 'southeastasia', 'japaneast', 'australiaeast'];

export const NON_INTERACTIVE_HINT = 'vx mgmt quota set <resourceName> --provider <id> --location <loc> --limit <n> --yes';

function validator(rule: RuleName): (v: string) => true | string {
  return (v) => {
    const broken = checkRule(RULES[rule], v);
    return broken ? `the ${RULES[rule].label} ${broken}` : true;
  };
}

/** The new limit's rules: whole number, int32, not below usage, not the current limit. */
export function checkNewLimit(text: string, q: Quota): true | string {
  const r = checkInt32(text, 0);
  if (r.error) return `the limit ${r.error}`;
  const used = q.properties?.currentValue;
  if (typeof used === 'number' && r.value! < used) return `the limit may not be below the current usage of ${used}`;
  if (r.value === q.properties?.limit) return `${r.value} is the current limit; enter a different number`;
  return true;
}

/**
 * A searchable list of common values with the profile's first; what the person types is offered
 * too ("use what you typed") when it passes the rule, so any provider or location can be given;
 * when nothing matches and it breaks the rule, a line that cannot be picked says which rule.
 */
async function chooseOrType(p: Prompter, message: string, options: string[], rule: RuleName, given?: string): Promise<string> {
  const check = validator(rule);
  // a default that breaks the rule (a VX_MGMT_PROVIDER of "Compute") is not offered: picked, it would
  // only fail later with a less clear error
  const preferred = given !== undefined && check(given) === true ? given : undefined;
  const values = [...new Set([preferred, ...options].filter((x): x is string => Boolean(x)))];
  const choices: Choice<string>[] = values.map((v) => ({ name: v === preferred ? `${v} (default)` : v, value: v }));
  return p.search(
    `${message} (type to search or enter another)`,
    (term) => {
      const t = (term ?? '').trim();
      if (!t) return choices;
      const found = choices.filter((ch) => ch.value.toLowerCase().includes(t.toLowerCase()));
      const exact = values.some((v) => v.toLowerCase() === t.toLowerCase());
      const broken = check(t);
      if (exact) return found;
      if (broken === true) return [...found, { name: `${t} (use what you typed)`, value: t }];
      // nothing listed matches and what is typed cannot be used: say why, rather than "No results found"
      return found.length ? found : [{ name: t, value: t, disabled: `— ${broken}` }];
    },
    { back: true },
  );
}

function quotaLabel(q: Quota): string {
  const p = q.properties ?? {};
  const name = p.name?.value ?? q.name ?? '?';
  const display = p.name?.localizedValue && p.name.localizedValue !== name ? ` — ${p.name.localizedValue}` : '';
  return `${name}${display} (${p.currentValue ?? '?'} of ${p.limit ?? '?'}${p.unit ? ` ${p.unit}` : ''} used)`;
}

/**
 * The quotas the service lists (possibly none), or undefined when it cannot list them here (then
 * the name is typed).
 */
async function quotasToPick(c: MgmtClient, scope: QuotaScope): Promise<Quota[] | undefined> {
  try {
    const out: Quota[] = [];
    for await (const q of listQuotas(c, scope)) out.push(q);
    return out;
  } catch (e) {
    if (unknownScope(e)) throw e;
    if (e instanceof NotFoundError || (e instanceof ServiceError && (e.status === 400 || e.status === 405))) return undefined;
    throw e;
  }
}

/** A 404 about the subscription, not the quota: asking for another quota name cannot help. */
function unknownScope(e: unknown): boolean {
  return e instanceof NotFoundError && e.code === 'SubscriptionNotFound';
}

async function pickResource(ctx: Ctx, c: MgmtClient, scope: QuotaScope): Promise<{ name: string; quota: Quota }> {
  const p = ctx.prompter;
  const list = await quotasToPick(c, scope);
  if (list?.length) {
    const choices = list.map((q) => ({ name: quotaLabel(q), value: q.properties?.name?.value ?? q.name ?? '' })).filter((ch) => ch.value);
    const name = await p.search<string>(
      'Quota (type to search)',
      (term) => {
        const t = (term ?? '').toLowerCase();
        return t ? choices.filter((ch) => ch.name.toLowerCase().includes(t)) : choices;
      },
      { back: true },
    );
    return { name, quota: await getQuota(c, scope, name) };
  }
  ctx.info(
    list
      ? // listed, but empty: most often a location or provider typed wrong, which a typed name cannot mend
        `(no quotas of ${scope.provider} in ${scope.location} are listed: is the location right? Esc goes back; or type the resource name)`
      : `(the service does not list the quotas of ${scope.provider} in ${scope.location}; type the resource name)`,
  );
  for (;;) {
    const name = (await p.input('Quota resource name (e.g. a SKU family or cores)', { validate: validator('resourceName'), back: true })).trim();
    try {
      return { name, quota: await getQuota(c, scope, name) };
    } catch (e) {
      if (!(e instanceof NotFoundError) || unknownScope(e)) throw e;
      ctx.info(`no quota named ${name} for ${scope.provider} in ${scope.location}; try another name`);
    }
  }
}

/** The quota set command that makes the same change without the wizard. */
export function equivalentCommand(scope: QuotaScope, name: string, limit: number): string {
  return `vx mgmt quota set ${name} --subscription ${scope.subscription} --provider ${scope.provider} --location ${scope.location} --limit ${limit} --yes`;
}

/** The range a new limit may take, for the question: from the usage (or 0) to the int32 maximum. */
export function limitRange(q: Quota): string {
  const used = q.properties?.currentValue;
  const from = typeof used === 'number' && used > 0 ? Math.ceil(used) : 0;
  const now = q.properties?.limit;
  return `${from} to ${INT32_MAX}${typeof now === 'number' ? `, now ${now}` : ''}`;
}

const INT32_MAX = 2147483647;

type StepName = 'subscription' | 'provider' | 'location' | 'quota' | 'limit' | 'confirm';
const STEPS: readonly StepName[] = ['subscription', 'provider', 'location', 'quota', 'limit', 'confirm'];

export async function runQuotaWizard(ctx: Ctx, opts: WizardOpts): Promise<void> {
  const p = ctx.prompter;
  if (!p.interactive) {
    throw new UsageError(`the quota wizard needs a terminal (stdin and stderr); without one use: ${NON_INTERACTIVE_HINT}`);
  }
  if (ctx.http.dryRun) throw new UsageError(`the quota wizard does not take --dry-run; see the request with: ${NON_INTERACTIVE_HINT.replace(' --yes', ' --dry-run')}`);
  const intervalSeconds = pollInterval(opts.pollInterval);
  const timeoutSeconds = waitTimeout(opts.waitTimeout);
  for (const [flag, rule, v] of [
    ['--subscription', 'subscriptionUuid', opts.subscription],
    ['--provider', 'providerId', opts.provider],
    ['--location', 'location', opts.location],
    ['--name', 'resourceName', opts.name],
  ] as const) {
    if (v !== undefined) {
      const ok = validator(rule)(v);
      if (ok !== true) throw new UsageError(`invalid ${flag} "${v}": ${ok}; nothing was sent`);
    }
  }
  if (opts.limit !== undefined) {
    const r = checkInt32(opts.limit, 0);
    if (r.error) throw new UsageError(`invalid --limit "${opts.limit}": the limit ${r.error}; nothing was sent`);
  }
  // endpoint and token first: no point asking questions that cannot be acted on
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const cfg = ctx.config;
  const ns = c.namespace;

  // the answers so far; a step given as a flag is never asked, and Esc goes back to the step asked before
  let subscription = opts.subscription;
  let provider = opts.provider;
  let location = opts.location;
  let name: string | undefined;
  let quota: Quota | undefined;
  let limit: number | undefined;
  const scope = (): QuotaScope => ({ subscription: subscription!, provider: provider!, location: location! });
  const asked: number[] = [];
  let at = 0;
  ctx.info('(Esc goes back one question, Ctrl-C stops; nothing is changed before the last question)');
  while (at < STEPS.length) {
    const step = STEPS[at]!;
    let wasAsked = true;
    try {
      switch (step) {
        case 'subscription':
          if (opts.subscription !== undefined) wasAsked = false;
          else subscription = (await p.input('Subscription id', { default: subscription ?? cfg.get('mgmt.subscription'), validate: validator('subscriptionUuid'), back: true })).trim();
          break;
        case 'provider':
          if (opts.provider !== undefined) wasAsked = false;
          else provider = await chooseOrType(p, 'Resource provider', PROVIDERS.map((x) => `${ns}.${x}`), 'providerId', provider ?? cfg.get('mgmt.provider'));
          break;
        case 'location':
          if (opts.location !== undefined) wasAsked = false;
          else location = await chooseOrType(p, 'Location', LOCATIONS, 'location', location ?? cfg.get('mgmt.location'));
          break;
        case 'quota':
          if (opts.name !== undefined) {
            wasAsked = false;
            name = opts.name;
            quota = await getQuota(c, scope(), name);
          } else {
            ({ name, quota } = await pickResource(ctx, c, scope()));
          }
          describeQuota(ctx, name, quota);
          break;
        case 'limit':
          if (opts.limit !== undefined) {
            wasAsked = false;
            const ok = checkNewLimit(opts.limit, quota!);
            if (ok !== true) throw new UsageError(`invalid --limit ${opts.limit}: ${ok}; nothing was sent`);
            limit = Number(opts.limit.trim());
          } else {
            limit = Number((await p.input(`New limit (${limitRange(quota!)})`, { validate: (v) => checkNewLimit(v, quota!), back: true })).trim());
          }
          break;
        case 'confirm': {
          const q = quota!.properties ?? {};
          ctx.info(
            [
              'Summary:',
              `  subscription  ${subscription}`,
              `  provider      ${provider}`,
              `  location      ${location}`,
              `  quota         ${name}`,
              `  limit         ${q.limit ?? '?'} -> ${limit}${q.unit ? ` ${q.unit}` : ''}`,
            ].join('\n'),
          );
          if (ctx.globals.yes) {
            // -y/--yes skips the confirmation of a change (cli.md), here as in quota set
            wasAsked = false;
            ctx.info('(--yes: submitted without asking)');
            break;
          }
          if (!(await p.confirm('Submit this quota change?', false, { back: true }))) {
            ctx.info(`the same change without the wizard: ${equivalentCommand(scope(), name!, limit!)}`);
            throw new UsageError('cancelled; nothing was sent');
          }
          break;
        }
      }
    } catch (e) {
      if (unknownScope(e) && opts.subscription === undefined) {
        // a subscription typed wrong (the service knows none by that id): ask for it again rather
        // than end the wizard; the later answers are offered again as they were
        ctx.info(`${(e as Error).message}\ncheck the subscription id (Ctrl-C stops)`);
        at = 0;
        asked.length = 0;
        continue;
      }
      if (!(e instanceof GoBack)) throw e;
      at = asked.pop() ?? at; // Esc at the first question stays there
      continue;
    }
    if (wasAsked) asked.push(at);
    at++;
  }
  const same = `the same change without the wizard: ${equivalentCommand(scope(), name!, limit!)}`;
  const progress = { accepted: false, ended: false };
  try {
    // a request of this quota still running: followed for the same limit, exit 5 for another (as quota set)
    if (!(await followRunning(ctx, c, scope(), name!, limit!, { wait: true, intervalSeconds, timeoutSeconds, progress }))) await applyLimit(ctx, c, scope(), name!, quota!, limit!, { wait: true, intervalSeconds, timeoutSeconds, progress });
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

function describeQuota(ctx: Ctx, name: string, quota: Quota): void {
  const q = quota.properties ?? {};
  const unit = q.unit ? ` ${q.unit}` : '';
  ctx.info(
    `${name}${q.name?.localizedValue && q.name.localizedValue !== name ? ` (${q.name.localizedValue})` : ''}: limit ${q.limit ?? '?'}${unit}, usage ${q.currentValue ?? '?'} (${percentUsed(quota) || '?'} used)${q.quotaPeriod ? `, period ${q.quotaPeriod}` : ''}`,
  );
}
