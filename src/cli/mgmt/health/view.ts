// How health events read in a table: the columns of a list, the view of one event, the line of a
// watched change.
import { impactedRegions, impactedServices, type HealthEvent } from '../../../api/mgmt/health.js';
import { trackingId, type EventChange } from '../../../api/mgmt/watch.js';
import { unescapeHtml } from '../../../api/translator/files/protect.js';
import { shortTime, type Column } from '../../../core/output/index.js';

export const EVENT_COLUMNS: Column[] = [
  { header: 'Tracking id', get: 'name', keep: true },
  { header: 'Title', get: 'properties.title', primary: true },
  { header: 'Type', get: 'properties.eventType', optional: true },
  { header: 'Level', get: 'properties.eventLevel' },
  { header: 'Status', get: 'properties.status' },
  { header: 'Services', get: (e: HealthEvent) => impactedServices(e), optional: true },
  { header: 'Regions', get: (e: HealthEvent) => impactedRegions(e), optional: true },
  { header: 'Start', get: (e: HealthEvent) => shortTime(e.properties?.impactStartTime), raw: 'properties.impactStartTime', optional: true },
  { header: 'Last update', get: (e: HealthEvent) => shortTime(e.properties?.lastUpdateTime), raw: 'properties.lastUpdateTime', keep: true },
];

/** A readable view of one event for the table format. */
export function eventView(e: HealthEvent): Record<string, unknown> {
  const p = e.properties ?? {};
  const text = (v: unknown) =>
    typeof v === 'string' ? unescapeHtml(v.replace(/<\/?(p|br|div|li|ul|ol|h\d)\b[^>]*>/gi, ' ').replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim() : v;
  const view: Record<string, unknown> = {
    trackingId: e.name,
    title: p.title,
    eventType: p.eventType,
    eventLevel: p.eventLevel,
    status: p.status,
    priority: p.priority,
    services: impactedServices(e),
    regions: impactedRegions(e),
    impactStartTime: p.impactStartTime,
    impactMitigationTime: p.impactMitigationTime,
    lastUpdateTime: p.lastUpdateTime,
    sensitive: p.isEventSensitive,
    header: text(p.header),
    summary: text(p.summary),
    description: text(p.description),
  };
  for (const k of Object.keys(view)) if (view[k] === undefined || view[k] === '') delete view[k];
  return view;
}

/** One news of `health watch` at a terminal. */
export function changeLine(ch: EventChange): string {
  const p = ch.event.properties ?? {};
  const was = ch.previous && ch.change !== 'new' ? ` (was ${[ch.previous.status !== p.status ? ch.previous.status : undefined, ch.previous.eventLevel !== p.eventLevel ? ch.previous.eventLevel : undefined].filter(Boolean).join(', ') || `updated ${shortTime(ch.previous.lastUpdateTime)}`})` : '';
  return `${shortTime(p.lastUpdateTime)}  ${ch.change.toUpperCase().padEnd(11)} ${trackingId(ch.event)}  ${p.eventType ?? ''} ${p.eventLevel ?? ''} ${p.status ?? ''}${was}  ${p.title ?? ''}`;
}
