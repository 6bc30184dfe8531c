// The rules of `quota wizard`'s answers and what it offers, apart from the questions themselves:
// which quotas can be picked, what a new limit may be, the command that makes the same change.
import { NotFoundError, ServiceError, UsageError } from '../../core/errors.js';
import { checkRule, RULES, type RuleName } from '../../model/mgmt.js';
import type { MgmtClient } from './client.js';
import { listQuotas, type Quota, type QuotaScope } from './quota.js';
import { parseLimit } from './validate.js';

/** A check of an answer against a rule of the spec: true, or why not. */
export function validator(rule: RuleName): (v: string) => true | string {
  return (v) => {
    const broken = checkRule(RULES[rule], v);
    return broken ? `the ${RULES[rule].label} ${broken}` : true;
  };
}

/** The flags that skip a question, checked before anything is asked or sent. */
export function checkWizardFlags(opts: { subscription?: string; provider?: string; location?: string; name?: string; limit?: string }): void {
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
    const r = parseLimit(opts.limit);
    if (r.error) throw new UsageError(`invalid --limit "${opts.limit}": the limit ${r.error}; nothing was sent`);
  }
}

/** The new limit's rules: whole number, int32, not below usage, not the current limit. */
export function checkNewLimit(text: string, q: Quota): true | string {
  const r = parseLimit(text);
  if (r.error) return `the limit ${r.error}`;
  const used = q.properties?.currentValue;
  if (typeof used === 'number' && r.value! < used) return `the limit may not be below the current usage of ${used}`;
  if (r.value === q.properties?.limit) return `${r.value} is the current limit; enter a different number`;
  return true;
}

/**
 * The range a new limit may take, for the question: from the usage (or 0); the service gives no
 * upper bound (only the int32 field's, which the answer's check names when it is passed).
 */
export function limitRange(q: Quota): string {
  const used = q.properties?.currentValue;
  const from = typeof used === 'number' && used > 0 ? Math.ceil(used) : 0;
  const now = q.properties?.limit;
  return `from ${from}, no upper bound${typeof now === 'number' ? `; now ${now}` : ''}`;
}

/** The quota set command that makes the same change without the wizard (a lower limit needs --allow-decrease there). */
export function equivalentCommand(scope: QuotaScope, name: string, limit: number, current?: number): string {
  const lower = typeof current === 'number' && limit < current ? ' --allow-decrease' : '';
  return `vx mgmt quota set ${name} --subscription ${scope.subscription} --provider ${scope.provider} --location ${scope.location} --limit ${limit}${lower} --yes`;
}

/** A 404 about the subscription, not the quota: asking for another quota name cannot help. */
export function unknownScope(e: unknown): boolean {
  return e instanceof NotFoundError && e.code === 'SubscriptionNotFound';
}

/**
 * The quotas the service lists (possibly none), or undefined when it cannot list them here (then
 * the name is typed).
 */
export async function quotasToPick(c: MgmtClient, scope: QuotaScope): Promise<Quota[] | undefined> {
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
