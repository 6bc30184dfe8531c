// Quotas across a fleet: many subscriptions x locations read concurrently, one row per quota with
// limit, usage, headroom and percent used (a scope or quota that fails is a row with its error),
// the least headroom first; and the check of needs against what is free. No terminal.
import { asVxError, NotFoundError, UsageError, type VxError } from '../../core/errors.js';
import { mapPool } from '../../core/pool.js';
import { checkInt32 } from '../../model/mgmt.js';
import type { MgmtClient } from './client.js';
import { getQuota, listQuotas, type Quota, type QuotaScope } from './quota.js';
import { checkSegment } from './validate.js';

/** Repeated and comma-separated values, trimmed, without empties and duplicates (case-insensitive). */
export function listValues(values: string[] | string | undefined): string[] {
  const out: string[] = [];
  for (const v of (Array.isArray(values) ? values : values === undefined ? [] : [values]).flatMap((x) => x.split(','))) {
    const t = v.trim();
    if (t && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  return out;
}

/** Every subscription x location of a provider. */
export function scopesOf(subscriptions: string[], provider: string, locations: string[]): QuotaScope[] {
  return subscriptions.flatMap((subscription) => locations.map((location) => ({ subscription, provider, location })));
}

/** The exit code of a set of failures: theirs when they agree, else 1. */
export function exitOf(failures: Pick<VxError, 'exitCode'>[]): number {
  const codes = new Set(failures.map((f) => f.exitCode));
  return codes.size === 1 ? [...codes][0] : 1;
}

export interface QuotaRow {
  subscription: string;
  provider: string;
  location: string;
  /** the quota's resource name ('' when a whole location failed) */
  name: string;
  displayName?: string;
  limit?: number;
  usage?: number;
  unit?: string;
  /** limit - usage (negative when over) */
  headroom?: number;
  /** usage / limit in percent, one decimal */
  percentUsed?: number;
  /** why this row has no figures (one line) */
  error?: string;
}

/** A row and, when it failed, the error (for the exit code). */
export interface RowResult {
  row: QuotaRow;
  failure?: VxError;
}

export function percentOf(usage: number, limit: number): number {
  if (limit <= 0) return usage > 0 ? 100 : 0;
  return Math.round((usage / limit) * 1000) / 10;
}

/** The share of a limit in use from which a quota reads as a warning, and as critical (nearly no room left). */
export const USAGE_LEVELS = { warning: 80, critical: 95 } as const;

/** How full a quota is: ok, warning (USAGE_LEVELS.warning % or more used) or critical (USAGE_LEVELS.critical % or more). */
export function usageLevel(percent: number): 'ok' | 'warning' | 'critical' {
  return percent >= USAGE_LEVELS.critical ? 'critical' : percent >= USAGE_LEVELS.warning ? 'warning' : 'ok';
}

export function quotaRow(scope: QuotaScope, q: Quota, fallbackName = ''): QuotaRow {
  const p = q.properties ?? {};
  const row: QuotaRow = { subscription: scope.subscription, provider: scope.provider, location: scope.location, name: p.name?.value ?? (typeof q.name === 'string' ? q.name : fallbackName) };
  if (p.name?.localizedValue) row.displayName = p.name.localizedValue;
  if (typeof p.limit === 'number') row.limit = p.limit;
  if (typeof p.currentValue === 'number') row.usage = p.currentValue;
  if (p.unit) row.unit = p.unit;
  if (row.limit !== undefined && row.usage !== undefined) {
    row.headroom = row.limit - row.usage;
    row.percentUsed = percentOf(row.usage, row.limit);
  }
  return row;
}

function failedRow(scope: QuotaScope, name: string, e: unknown): RowResult {
  const failure = asVxError(e);
  return { row: { subscription: scope.subscription, provider: scope.provider, location: scope.location, name, error: failure.message }, failure };
}

/** Headroom as a fraction of the limit (0 when the limit is 0), for sorting. */
function freeShare(r: QuotaRow): number {
  if (r.headroom === undefined || r.limit === undefined) return -Infinity;
  return r.limit > 0 ? r.headroom / r.limit : r.headroom > 0 ? 1 : 0;
}

/**
 * Failed rows first, then the least headroom as a share of the limit, then the least absolute
 * headroom; ties by subscription, location and name (stable and the same on every run).
 */
export function sortByHeadroom(rows: RowResult[]): RowResult[] {
  const key = (r: QuotaRow) => `${r.subscription}\u0000${r.location}\u0000${r.name}`.toLowerCase();
  return [...rows].sort((a, b) => {
    const fa = a.row.error ? 0 : 1;
    const fb = b.row.error ? 0 : 1;
    if (fa !== fb) return fa - fb;
    const d = freeShare(a.row) - freeShare(b.row) || (a.row.headroom ?? 0) - (b.row.headroom ?? 0);
    if (d) return d;
    const ka = key(a.row);
    const kb = key(b.row);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

/** `--min-headroom`: a number of units (`20`) or a share of the limit (`10%`). */
export interface HeadroomThreshold {
  value: number;
  percent: boolean;
}

/** Whether a row is below the threshold (failed rows always stay in the report). */
export function belowHeadroom(r: QuotaRow, t: HeadroomThreshold): boolean {
  if (r.error || r.headroom === undefined || r.limit === undefined) return true;
  if (t.percent) return (r.limit > 0 ? (r.headroom / r.limit) * 100 : 0) < t.value;
  return r.headroom < t.value;
}

/** `--min-headroom 20` (units) or `10%` (of the limit). */
export function parseHeadroom(value: string | undefined): HeadroomThreshold | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(value);
  if (!m || (m[2] && Number(m[1]) > 100) || (!m[2] && !Number.isInteger(Number(m[1])))) {
    throw new UsageError(`invalid --min-headroom "${value}": expected a whole number of units (20) or a percentage of the limit from 0 to 100 (10%); nothing was sent`);
  }
  return { value: Number(m[1]), percent: Boolean(m[2]) };
}

export interface ReportOptions {
  /** only these quotas (case-insensitive); needed for providers whose quotas cannot be listed */
  names?: string[];
  concurrency: number;
  signal?: AbortSignal;
}

const LIST_NOT_SUPPORTED = 'ListNotSupported';

/**
 * One row per subscription x location x quota. Each scope is listed once (all pages); a provider
 * that cannot list its quotas is read quota by quota when `names` are given. Requests run
 * `concurrency` at a time over the whole report.
 */
export async function quotaReport(c: MgmtClient, scopes: QuotaScope[], o: ReportOptions): Promise<{ rows: RowResult[]; empty: QuotaScope[] }> {
  const wanted = o.names?.length ? new Map(o.names.map((n) => [n.toLowerCase(), n])) : undefined;
  const out: RowResult[] = [];
  const singles: { scope: QuotaScope; name: string }[] = [];
  /** scopes that listed no quota at all (a location without this provider, or a typo) */
  const empty: QuotaScope[] = [];
  const listed = await mapPool(
    scopes,
    o.concurrency,
    async (scope): Promise<RowResult[]> => {
      try {
        const rows: RowResult[] = [];
        const seen = new Set<string>();
        for await (const q of listQuotas(c, scope)) {
          const row = quotaRow(scope, q);
          const key = row.name.toLowerCase();
          if (wanted && !wanted.has(key)) continue;
          seen.add(key);
          rows.push({ row });
        }
        if (!seen.size && !wanted) empty.push(scope);
        if (wanted) {
          for (const [key, name] of wanted) {
            if (!seen.has(key)) rows.push(failedRow(scope, name, new NotFoundError(`no quota named ${name} for ${scope.provider} in ${scope.location}`)));
          }
        }
        return rows;
      } catch (e) {
        const err = asVxError(e);
        if (wanted && err.code === LIST_NOT_SUPPORTED) {
          for (const name of wanted.values()) singles.push({ scope, name });
          return [];
        }
        if (err.exitCode === 130) throw e;
        return [failedRow(scope, wanted ? [...wanted.values()].join(',') : '', e)];
      }
    },
    o.signal,
  );
  for (const rows of listed) out.push(...rows);
  const read = await mapPool(
    singles,
    o.concurrency,
    async ({ scope, name }): Promise<RowResult> => {
      try {
        return { row: quotaRow(scope, await getQuota(c, scope, name), name) };
      } catch (e) {
        if (asVxError(e).exitCode === 130) throw e;
        return failedRow(scope, name, e);
      }
    },
    o.signal,
  );
  out.push(...read);
  return { rows: out, empty };
}

// ---------------------------------------------------------------- check

export interface Need {
  name: string;
  amount: number;
  /** the location given with `@`; else every location of the check */
  location?: string;
}

export interface CheckRow extends QuotaRow {
  need: number;
  /** how much is missing (0 when the need fits) */
  short?: number;
  /** the command that would make room */
  fix?: string;
}

export interface CheckItem {
  scope: QuotaScope;
  name: string;
  need: number;
}

/** `cores=64` or `cores=64@westus2` */
export function parseNeed(text: string): Need {
  const m = /^([^=@]+)=([^@]*)(?:@(.*))?$/.exec(text.trim());
  if (!m) throw new UsageError(`invalid --need "${text}": expected <quota>=<n> or <quota>=<n>@<location>, e.g. cores=64@westus2; nothing was sent`);
  const name = checkSegment('resourceName', m[1].trim(), `quota name in --need "${text}"`);
  const r = checkInt32(m[2], 0);
  if (r.error) throw new UsageError(`invalid --need "${text}": the amount ${r.error}; nothing was sent`);
  const location = m[3] === undefined ? undefined : checkSegment('location', m[3].trim(), `location in --need "${text}"`);
  return { name, amount: r.value!, location };
}

/** Needs per subscription x location x quota; the same quota needed twice in a place is summed. */
export function checkItems(subscriptions: string[], provider: string, locations: string[], needs: Need[]): CheckItem[] {
  const items = new Map<string, CheckItem>();
  for (const subscription of subscriptions) {
    for (const n of needs) {
      for (const location of n.location ? [n.location] : locations) {
        const key = [subscription, location, n.name].join('\u0000').toLowerCase();
        const it = items.get(key);
        if (it) it.need += n.amount;
        else items.set(key, { scope: { subscription, provider, location }, name: n.name, need: n.amount });
      }
    }
  }
  return [...items.values()];
}

function fixCommand(scope: QuotaScope, name: string, limit: number): string {
  return `vx mgmt quota set ${name} --provider ${scope.provider} --location ${scope.location} --subscription ${scope.subscription} --limit ${limit}`;
}

/** Reads each needed quota (concurrently) and says what is short by how much. */
export async function quotaCheck(c: MgmtClient, items: CheckItem[], o: { concurrency: number; signal?: AbortSignal }): Promise<{ row: CheckRow; failure?: VxError }[]> {
  return mapPool(
    items,
    o.concurrency,
    async (it) => {
      try {
        const row: CheckRow = { ...quotaRow(it.scope, await getQuota(c, it.scope, it.name), it.name), need: it.need };
        if (row.headroom === undefined) throw new NotFoundError(`the quota ${it.name} in ${it.scope.location} came without limit and usage`);
        row.short = Math.max(0, it.need - row.headroom);
        if (row.short > 0) row.fix = fixCommand(it.scope, row.name, row.usage! + it.need);
        return { row };
      } catch (e) {
        const failure = asVxError(e);
        if (failure.exitCode === 130) throw e;
        return { row: { subscription: it.scope.subscription, provider: it.scope.provider, location: it.scope.location, name: it.name, need: it.need, error: failure.message }, failure };
      }
    },
    o.signal,
  );
}
