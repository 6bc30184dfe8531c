// What the fleet commands (report, check, apply) share: their scope flags read with the
// profile's defaults, --concurrency, and the columns of their rows.
import { resolveSubscription } from '../../../api/mgmt/client.js';
import { listValues, type QuotaRow } from '../../../api/mgmt/fleet.js';
import { checkSegment } from '../../../api/mgmt/validate.js';
import type { Ctx } from '../../../core/context.js';
import { UsageError } from '../../../core/errors.js';
import type { Column } from '../../../core/output/index.js';
import { checkInt32 } from '../../../model/mgmt.js';

export function subscriptionsOf(ctx: Ctx, flag: string[] | undefined): string[] {
  const given = listValues(flag);
  if (!given.length) return [resolveSubscription(ctx.config, undefined)];
  return given.map((s) => checkSegment('subscriptionUuid', s, '--subscription'));
}

export function locationsOf(ctx: Ctx, flag: string[] | undefined): string[] {
  const given = listValues(flag);
  if (!given.length) given.push(ctx.config.require('mgmt.location', undefined, 'the location (--location)'));
  return given.map((l) => checkSegment('location', l, '--location'));
}

export function providerOf(ctx: Ctx, flag: string | undefined): string {
  return checkSegment('providerId', ctx.config.require('mgmt.provider', flag, 'the resource provider id (--provider)'), '--provider');
}

/** `--concurrency`: 1-64, default 8; the connection pool is sized to it. */
export function concurrencyOf(ctx: Ctx, value: string | undefined): number {
  let n = 8;
  if (value !== undefined) {
    const r = checkInt32(value, 1);
    if (r.error || r.value! > 64) throw new UsageError(`invalid --concurrency "${value}": expected a whole number from 1 to 64; nothing was sent`);
    n = r.value!;
  }
  ctx.http.opts.connections = Math.max(n, ctx.http.opts.connections ?? 0);
  return n;
}

/** The width of a table drawn on stderr (COLUMNS, else the terminal's). */
export function tableWidth(ctx: Ctx): number | undefined {
  const cols = Number(ctx.envVar('COLUMNS'));
  return Number.isInteger(cols) && cols > 0 ? cols : ctx.io.stdout.columns || undefined;
}

export const num = (get: Column['get'], header: string, extra: Partial<Column> = {}): Column => ({ header, get, align: 'right', ...extra });
export const pct = (v: unknown) => (typeof v === 'number' ? `${v}%` : '');

/**
 * The columns of the report's (and check's) rows. The table names the subscription only when there
 * are several, and the provider and display name with -o wide; tsv and csv carry every column in
 * this order, csv headed by the row's field names (`error` last when a row failed).
 */
export function rowColumns(multiSub: boolean, withError: boolean, extra: Column[] = [], wideExtra: Column[] = []): Column[] {
  return [
    { header: 'Subscription', name: 'subscription', get: 'subscription', wide: !multiSub || undefined },
    { header: 'Provider', name: 'provider', get: 'provider', wide: true },
    { header: 'Location', name: 'location', get: 'location', keep: true },
    { header: 'Name', name: 'name', get: 'name', keep: true },
    { header: 'Display name', name: 'displayName', get: 'displayName', wide: true },
    num((r: QuotaRow) => r.limit, 'Limit', { name: 'limit' }),
    num((r: QuotaRow) => r.usage, 'Usage', { name: 'usage' }),
    { header: 'Unit', name: 'unit', get: 'unit', optional: true },
    num((r: QuotaRow) => r.headroom, 'Free', { name: 'headroom' }),
    num((r: QuotaRow) => pct(r.percentUsed), 'Used', { name: 'percentUsed', raw: 'percentUsed' }),
    ...extra,
    ...wideExtra,
    ...(withError ? [{ header: 'Error', name: 'error', get: 'error' } as Column] : []),
  ];
}
