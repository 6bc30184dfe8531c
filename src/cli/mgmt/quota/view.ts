// How quotas and quota requests read in a table.
import { requestIdFrom, type Quota, type QuotaRequest } from '../../../api/mgmt/quota.js';
import { shortTime, type Column } from '../../../core/output/index.js';

export function percentUsed(q: Quota): string {
  const limit = q.properties?.limit;
  const used = q.properties?.currentValue;
  if (typeof limit !== 'number' || typeof used !== 'number') return '';
  if (limit === 0) return used > 0 ? '100%+' : '0%';
  return `${(Math.round((used / limit) * 1000) / 10).toString()}%`;
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
