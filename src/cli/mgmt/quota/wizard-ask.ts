// The questions of `quota wizard` that choose from a list: a provider or a location (or another
// value typed), and the quota among those the service lists.
import type { MgmtClient } from '../../../api/mgmt/client.js';
import { getQuota, type Quota, type QuotaScope } from '../../../api/mgmt/quota.js';
import { quotasToPick, unknownScope, validator } from '../../../api/mgmt/wizard.js';
import type { Ctx } from '../../../core/context.js';
import { NotFoundError } from '../../../core/errors.js';
import type { Choice, Prompter } from '../../../core/prompt.js';
import type { RuleName } from '../../../model/mgmt.js';
import { percentUsed } from './view.js';

/** Common choices offered before "type another"; the profile's value comes first. */
export const PROVIDERS = ['Compute', 'Network', 'Storage', 'MachineLearningServices', 'Web'];
export const LOCATIONS = ['eastus', 'eastus2', 'westus2', 'centralus', 'northeurope', 'westeurope', 'uksouth', 'southeastasia', 'japaneast', 'australiaeast'];

/** A line on stderr between questions, on the dialogue's trail (going back erases it). */
export function say(ctx: Ctx, text: string): void {
  ctx.info(text);
  ctx.prompter.screen?.wrote(text);
}

/**
 * The subscriptions vx knows, to choose from (the service's list is not part of the API vx
 * speaks): the one in use (--profile, VX_SUBSCRIPTION or the profile's) and every profile's, each
 * with where it comes from.
 */
export function knownSubscriptions(ctx: Ctx): Map<string, string> {
  const out = new Map<string, string>();
  const add = (value: string | undefined, note: string) => {
    if (value && ![...out.keys()].some((k) => k.toLowerCase() === value.toLowerCase())) out.set(value, note);
  };
  const inUse = ctx.config.resolve('mgmt.subscription');
  add(inUse?.value, inUse?.source === 'env' ? `${inUse.origin}` : `profile ${inUse?.origin ?? ''}`);
  for (const name of ctx.config.profileNames()) {
    const v = ctx.config.profile(name)['mgmt.subscription'];
    add(typeof v === 'string' ? v : undefined, `profile ${name}`);
  }
  return out;
}

/**
 * A searchable list of common values with the profile's first; what the person types is offered
 * too ("use what you typed") when it passes the rule, so any provider or location can be given;
 * when nothing matches and it breaks the rule, a line that cannot be picked says which rule.
 * `notes` says where a value comes from (shown after it).
 */
export async function chooseOrType(p: Prompter, message: string, options: string[], rule: RuleName, given?: string, notes?: Map<string, string>): Promise<string> {
  const check = validator(rule);
  // a default that breaks the rule (a VX_MGMT_PROVIDER of "Compute") is not offered: picked, it would
  // only fail later with a less clear error
  const preferred = given !== undefined && check(given) === true ? given : undefined;
  const values = [...new Set([preferred, ...options].filter((x): x is string => Boolean(x)))];
  const note = (v: string) => [v === preferred ? 'default' : '', notes?.get(v) ?? ''].filter(Boolean).join(', ');
  const choices: Choice<string>[] = values.map((v) => ({ name: note(v) ? `${v} (${note(v)})` : v, value: v }));
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

/** The quota to change: picked from the service's list, or typed when it lists none. */
export async function pickResource(ctx: Ctx, c: MgmtClient, scope: QuotaScope): Promise<{ name: string; quota: Quota }> {
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
  say(
    ctx,
    list
      ? // listed, but empty: most often a location or provider typed wrong, which a typed name cannot mend
        `(no quotas of ${scope.provider} in ${scope.location} are listed: is the location right? Esc goes back; or type the resource name)`
      : `(the service does not list the quotas of ${scope.provider} in ${scope.location}; type the resource name)`,
  );
  return typeResource(ctx, c, scope);
}

async function typeResource(ctx: Ctx, c: MgmtClient, scope: QuotaScope): Promise<{ name: string; quota: Quota }> {
  for (;;) {
    const name = (await ctx.prompter.input('Quota resource name (e.g. a SKU family or cores)', { validate: validator('resourceName'), back: true })).trim();
    try {
      return { name, quota: await getQuota(c, scope, name) };
    } catch (e) {
      if (!(e instanceof NotFoundError) || unknownScope(e)) throw e;
      say(ctx, `no quota named ${name} for ${scope.provider} in ${scope.location}; try another name`);
    }
  }
}

export function describeQuota(ctx: Ctx, name: string, quota: Quota): void {
  const q = quota.properties ?? {};
  const unit = q.unit ? ` ${q.unit}` : '';
  say(
    ctx,
    `${name}${q.name?.localizedValue && q.name.localizedValue !== name ? ` (${q.name.localizedValue})` : ''}: limit ${q.limit ?? '?'}${unit}, usage ${q.currentValue ?? '?'} (${percentUsed(quota) || '?'} used)${q.quotaPeriod ? `, period ${q.quotaPeriod}` : ''}`,
  );
}
