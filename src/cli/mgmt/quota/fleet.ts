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
const pct = (v: unknown) => (typeof v === 'number' ? `${v}%` : '');

export function rowColumns(multiSub: boolean, withError: boolean, extra: Column[] = []): Column[] {
  return [
    ...(multiSub ? [{ header: 'Subscription', get: 'subscription' } as Column] : []),
    { header: 'Location', get: 'location', keep: true },
    { header: 'Name', get: 'name', keep: true },
    num((r: QuotaRow) => r.limit, 'Limit'),
    num((r: QuotaRow) => r.usage, 'Usage'),
    num((r: QuotaRow) => r.headroom, 'Free'),
    num((r: QuotaRow) => pct(r.percentUsed), 'Used'),
    ...extra,
    { header: 'Unit', get: 'unit', optional: true },
    ...(withError ? [{ header: 'Error', get: 'error' } as Column] : []),
  ];
}

/** The csv header of the report (and check): always these fields in this order, `error` last when a row failed. */
export const ROW_FIELDS = ['subscription', 'provider', 'location', 'name', 'displayName', 'limit', 'usage', 'unit', 'headroom', 'percentUsed'];
export function csvFields(fields: string[], withError: boolean): Column[] {
  return [...fields, ...(withError ? ['error'] : [])].map((f) => ({ header: f, get: f }));
}
