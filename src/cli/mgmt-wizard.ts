// `vx mgmt quota wizard`: the interactive quota change. Every question goes through the Prompter
// (core/prompt.ts); nothing is sent that changes anything before the final confirmation, and
// Ctrl-C at any question exits 130.
import { MgmtClient } from '../api/mgmt/client.js';
import { getQuota, listQuotas, type Quota, type QuotaScope } from '../api/mgmt/quota.js';
import type { Ctx } from '../core/context.js';
import { NotFoundError, ServiceError, UsageError } from '../core/errors.js';
import type { Choice, Prompter } from '../core/prompt.js';
import { checkInt32, checkRule, RULES, type RuleName } from '../spec/mgmt.js';
import type { WizardOpts } from './mgmt.js';
import { applyLimit, percentUsed, pollInterval, waitTimeout } from './mgmt-run.js';

const OTHER = '\u0000other';

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

async function chooseOrType(p: Prompter, message: string, options: string[], rule: RuleName, preferred?: string): Promise<string> {
  const values = [...new Set([preferred, ...options].filter((x): x is string => Boolean(x)))];
  const choices: Choice<string>[] = values.map((v) => ({ name: v === preferred ? `${v} (default)` : v, value: v }));
  choices.push({ name: 'Other (type it)', value: OTHER });
  const picked = await p.select(message, choices, { default: preferred });
  if (picked !== OTHER) return picked;
  return (await p.input(`${message} (type it)`, { validate: validator(rule) })).trim();
}

function quotaLabel(q: Quota): string {
  const p = q.properties ?? {};
  const name = p.name?.value ?? q.name ?? '?';
  const display = p.name?.localizedValue && p.name.localizedValue !== name ? ` — ${p.name.localizedValue}` : '';
  return `${name}${display} (${p.currentValue ?? '?'} of ${p.limit ?? '?'}${p.unit ? ` ${p.unit}` : ''} used)`;
}

/** The quotas the service lists, or undefined when it cannot list them here (then the name is typed). */
async function quotasToPick(c: MgmtClient, scope: QuotaScope): Promise<Quota[] | undefined> {
  try {
    const out: Quota[] = [];
    for await (const q of listQuotas(c, scope)) out.push(q);
    return out.length ? out : undefined;
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
  if (list) {
    const choices = list.map((q) => ({ name: quotaLabel(q), value: q.properties?.name?.value ?? q.name ?? '' })).filter((ch) => ch.value);
    const name = await p.search<string>('Quota (type to search)', (term) => {
      const t = (term ?? '').toLowerCase();
      return t ? choices.filter((ch) => ch.name.toLowerCase().includes(t)) : choices;
    });
    return { name, quota: await getQuota(c, scope, name) };
  }
  ctx.info(`(the service does not list the quotas of ${scope.provider} in ${scope.location}; type the resource name)`);
  for (;;) {
    const name = (await p.input('Quota resource name (e.g. a SKU family or cores)', { validate: validator('resourceName') })).trim();
    try {
      return { name, quota: await getQuota(c, scope, name) };
    } catch (e) {
      if (!(e instanceof NotFoundError) || unknownScope(e)) throw e;
      ctx.info(`no quota named ${name} for ${scope.provider} in ${scope.location}; try another name`);
    }
  }
}

export async function runQuotaWizard(ctx: Ctx, opts: WizardOpts): Promise<void> {
  const p = ctx.prompter;
  if (!p.interactive) {
    throw new UsageError(`the quota wizard needs a terminal (stdin and stderr); without one use: ${NON_INTERACTIVE_HINT}`);
  }
  if (ctx.http.dryRun) throw new UsageError(`the quota wizard does not take --dry-run; see the request with: ${NON_INTERACTIVE_HINT.replace(' --yes', ' --dry-run')}`);
  const intervalSeconds = pollInterval(opts.pollInterval);
  const timeoutSeconds = waitTimeout(opts.waitTimeout);
  for (const [flag, rule, v] of [['--subscription', 'subscription', opts.subscription], ['--provider', 'providerId', opts.provider], ['--location', 'location', opts.location]] as const) {
    if (v !== undefined) {
      const ok = validator(rule)(v);
      if (ok !== true) throw new UsageError(`invalid ${flag} "${v}": ${ok}; nothing was sent`);
    }
  }
  // endpoint and token first: no point asking questions that cannot be acted on
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const cfg = ctx.config;

  const subscription = (await p.input('Subscription id', { default: cfg.get('mgmt.subscription', opts.subscription), validate: validator('subscription') })).trim();
  const ns = c.namespace;
  const provider = await chooseOrType(p, 'Resource provider', PROVIDERS.map((x) => `${ns}.${x}`), 'providerId', cfg.get('mgmt.provider', opts.provider));
  const location = await chooseOrType(p, 'Location', LOCATIONS, 'location', cfg.get('mgmt.location', opts.location));
  const scope: QuotaScope = { subscription, provider, location };

  const { name, quota } = await pickResource(ctx, c, scope);
  const q = quota.properties ?? {};
  const unit = q.unit ? ` ${q.unit}` : '';
  ctx.info(
    `${name}${q.name?.localizedValue && q.name.localizedValue !== name ? ` (${q.name.localizedValue})` : ''}: limit ${q.limit ?? '?'}${unit}, usage ${q.currentValue ?? '?'} (${percentUsed(quota) || '?'} used)${q.quotaPeriod ? `, period ${q.quotaPeriod}` : ''}`,
  );
  const text = await p.input('New limit', { validate: (v) => checkNewLimit(v, quota) });
  const limit = Number(text.trim());

  ctx.info(
    [
      'Summary:',
      `  subscription  ${subscription}`,
      `  provider      ${provider}`,
      `  location      ${location}`,
      `  quota         ${name}`,
      `  limit         ${q.limit ?? '?'} -> ${limit}${unit}`,
    ].join('\n'),
  );
  const ok = await p.confirm('Submit this quota change?', false);
  if (!ok) throw new UsageError('cancelled; nothing was sent');
  await applyLimit(ctx, c, scope, name, quota, limit, { wait: true, intervalSeconds, timeoutSeconds });
}
