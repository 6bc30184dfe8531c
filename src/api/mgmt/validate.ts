// Input checks of the management commands, made before anything is sent: every path segment and
// field against the spec's rules (model/mgmt.ts), list options, limits and dates. A broken rule is
// a UsageError (exit 2) that names the value, where it came from and the rule.
import { UsageError } from '../../core/errors.js';
import { segmentProblem } from '../../core/url.js';
import { checkInt32, checkRule, parseResourceId, RULES, type ResourceId, type RuleName } from '../../model/mgmt.js';

function shown(value: string): string {
  const v = value.length > 60 ? `${value.slice(0, 60)}…` : value;
  return JSON.stringify(v);
}

/** Checks `value` against the named rule; `what` is where it came from (`--service`, `version set id`). */
export function checkSegment(rule: RuleName, value: string | undefined, what: string): string {
  if (value === undefined) throw new UsageError(`${what} is required; nothing was sent`);
  const r = RULES[rule];
  const broken = checkRule(r, value);
  if (broken) throw new UsageError(`invalid ${what} ${shown(value)}: the ${r.label} ${broken}; nothing was sent`);
  // `.` and `..` (or their encoded forms) would move the request to another resource
  const moved = r.segment ? segmentProblem(value) : undefined;
  if (moved) throw new UsageError(`invalid ${what} ${shown(value)}: a ${r.label} ${moved}; nothing was sent`);
  return value;
}

/** A whole number of at least `min` (and at most int32) given to a flag. */
export function checkCount(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const r = checkInt32(value, min);
  if (r.error) throw new UsageError(`invalid ${flag} ${shown(value)}: ${flag} ${r.error}; nothing was sent`);
  return r.value;
}

/**
 * A limit as a person types it: a whole number, its thousands grouped by commas or not (`1,000`
 * is 1000; `1,00` is not a number), at most the int32 maximum.
 */
export function parseLimit(text: string): { value?: number; error?: string } {
  const t = text.trim();
  return checkInt32(/^\d{1,3}(,\d{3})+$/.test(t) ? t.replace(/,/g, '') : t, 0);
}

/** A quota limit (`--limit`): a whole int32 of at least 0, its thousands grouped by commas or not. */
export function checkLimit(value: string | undefined, flag = '--limit'): number {
  if (value === undefined) throw new UsageError(`${flag} is required; nothing was sent`);
  const r = parseLimit(value);
  if (r.error) throw new UsageError(`invalid ${flag} ${shown(value)}: a quota limit ${r.error}; nothing was sent`);
  return r.value!;
}

/**
 * `--if-match` as an entity tag. An ETag is a quoted string (`"0000000a"`, `W/"..."`) and vx prints
 * it so (`ETag: "0000000a"`), but a shell strips the quotes of `--if-match "0000000a"`: the bare
 * value, never a valid entity tag, would only buy a 412 read as "changed by someone else". A value
 * without quotes is quoted; `*` and quoted tags (or lists of them) are sent as given.
 */
export function checkIfMatch(value: string | undefined, force?: boolean): string | undefined {
  // --force is If-Match: * (as in erp update|delete): whatever the version set holds now
  if (force) {
    if (value !== undefined) throw new UsageError('--force sends If-Match: * and --if-match names the ETag; give one of them; nothing was sent');
    return '*';
  }
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!v) throw new UsageError('--if-match may not be empty; nothing was sent');
  if (v === '*' || v.includes('"')) return v;
  const weak = /^W\//.exec(v) ? 'W/' : '';
  return `${weak}"${v.slice(weak.length)}"`;
}

/** A quota request as given to `quota requests get`, with the scope its full id names. */
export interface RequestRef {
  id: string;
  subscription?: string;
  provider?: string;
  location?: string;
}

/**
 * The quota request to read: its id, or one of the forms the service prints, which name the id
 * in a longer string: the accepted answer's `id` (the request's full resource id, which the spec
 * calls the request id) and the status's `name` (`<subscription>/<id>`). The scope a form names is
 * returned with it; `given` (the flags) must agree with it.
 */
export function requestRef(value: string, given: { subscription?: string; provider?: string; location?: string }): RequestRef {
  if (!value.includes('/')) return { id: checkSegment('requestId', value, 'quota request id') };
  const full = /^\/?subscriptions\/([^/]+)\/providers\/[^/]+\/resourceProviders\/([^/]+)\/locations\/([^/]+)\/serviceLimitsRequests\/([^/]+)\/?$/i.exec(value);
  const short = /^([^/]+)\/([^/]+)$/.exec(value);
  const ref: RequestRef | undefined = full ? { subscription: full[1], provider: full[2], location: full[3], id: full[4]! } : short ? { subscription: short[1], id: short[2]! } : undefined;
  if (!ref) {
    throw new UsageError(
      `invalid quota request id ${shown(value)}: give the request id, <subscription>/<id>, or the request's full id /subscriptions/<s>/providers/<namespace>.Capacity/resourceProviders/<p>/locations/<l>/serviceLimitsRequests/<id>; nothing was sent`,
    );
  }
  checkSegment('requestId', ref.id, 'quota request id');
  for (const k of ['subscription', 'provider', 'location'] as const) {
    const mine = ref[k];
    const flag = given[k];
    if (mine !== undefined && flag !== undefined && mine.toLowerCase() !== flag.toLowerCase()) {
      throw new UsageError(`--${k} ${flag} differs from the ${k} in the request id ${shown(value)} (${mine}); nothing was sent`);
    }
  }
  return ref;
}

/** A filter given on the command line may not be blank. */
export function checkFilter(value: string | undefined, flag = '--filter'): string | undefined {
  if (value !== undefined && !value.trim()) throw new UsageError(`${flag} may not be empty; nothing was sent`);
  return value;
}

export function checkResourceId(value: string, flag = '--resource'): ResourceId {
  const r = parseResourceId(value);
  if (typeof r === 'string') throw new UsageError(`invalid ${flag} ${shown(value)}: a resource id ${r}; nothing was sent`);
  // as everywhere in vx, the subscription is a GUID (see resolveSubscription)
  const sub = checkRule(RULES.subscriptionUuid, r.subscription);
  if (sub) throw new UsageError(`invalid ${flag} ${shown(value)}: its subscription id ${sub}; nothing was sent`);
  return r;
}

/**
 * `--resource`'s id checked, and a `--subscription` given beside it checked to be the one in it
 * (subscription ids are GUIDs: the same in any case).
 */
export function checkResourceAndSubscription(resource: string | undefined, subscription: string | undefined): ResourceId | undefined {
  if (resource === undefined) return undefined;
  const r = checkResourceId(resource);
  if (subscription !== undefined && subscription.toLowerCase() !== r.subscription.toLowerCase()) {
    throw new UsageError(`--subscription ${subscription} differs from the subscription in --resource (${r.subscription}); nothing was sent`);
  }
  return r;
}

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * `--since` as the service's queryStartTime (`M/D/YYYY`). Accepts `YYYY-MM-DD`, `M/D/YYYY` or a
 * relative `<n>d` (days before today, UTC).
 */
export function sinceToQueryStartTime(value: string, now = new Date()): string {
  const v = value.trim();
  let y: number | undefined;
  let m: number | undefined;
  let d: number | undefined;
  let mm: RegExpExecArray | null;
  if ((mm = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v))) [y, m, d] = [Number(mm[1]), Number(mm[2]), Number(mm[3])];
  else if ((mm = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v))) [m, d, y] = [Number(mm[1]), Number(mm[2]), Number(mm[3])];
  else if ((mm = /^(\d{1,4})d$/.exec(v))) {
    const t = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - Number(mm[1])));
    [y, m, d] = [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()];
  }
  if (y === undefined || m === undefined || d === undefined || !validDate(y, m, d)) {
    throw new UsageError(`invalid --since ${shown(value)}: expected a date as YYYY-MM-DD or M/D/YYYY, or a number of days back such as 7d; nothing was sent`);
  }
  return `${m}/${d}/${y}`;
}
