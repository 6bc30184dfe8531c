// How quotas and quota requests read in a table.
import { percentOf } from '../../../api/mgmt/fleet.js';
import { requestIdFrom, type Quota, type QuotaRequest } from '../../../api/mgmt/quota.js';
import { shortTime, type Column } from '../../../core/output/index.js';

export function percentUsed(q: Quota): string {
  const p = quotaPercent(q);
  if (p === undefined) return '';
  return q.properties?.limit === 0 && p > 0 ? '100%+' : `${p}%`;
}

/** the share of its limit a quota uses, in percent with one decimal (a limit of 0 with usage: 100) */
export function quotaPercent(q: Quota): number | undefined {
  const limit = q.properties?.limit;
  const used = q.properties?.currentValue;
  return typeof limit === 'number' && typeof used === 'number' ? percentOf(used, limit) : undefined;
}

export const QUOTA_COLUMNS: Column[] = [
  { header: 'Name', get: (q: Quota) => q.properties?.name?.value ?? q.name, keep: true },
  { header: 'Display name', get: 'properties.name.localizedValue', optional: true },
  { header: 'Limit', get: 'properties.limit', align: 'right' },
  { header: 'Usage', get: 'properties.currentValue', align: 'right' },
  { header: 'Used', get: (q: Quota) => percentUsed(q), align: 'right' },
  { header: 'Unit', get: 'properties.unit' },
  { header: 'Period', get: 'properties.quotaPeriod', optional: true },
];

export const REQUEST_COLUMNS: Column[] = [
  { header: 'Request id', get: (r: QuotaRequest) => requestIdFrom(r), keep: true },
  { header: 'State', get: 'properties.provisioningState' },
  { header: 'Submitted', get: (r: QuotaRequest) => shortTime(r.properties?.requestSubmitTime), raw: 'properties.requestSubmitTime', keep: true },
  {
    header: 'Limits',
    get: (r: QuotaRequest) =>
      (Array.isArray(r.properties?.value) ? (r.properties!.value as { name?: { value?: string }; limit?: number }[]) : [])
        .map((v) => `${v?.name?.value ?? '?'}=${v?.limit ?? '?'}`)
        .join(', '),
    optional: true,
  },
  { header: 'Message', get: 'properties.message' },
];
