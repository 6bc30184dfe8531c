// How health events read in a table: the columns of a list, the view of one event, the line of a
// watched change.
import { impactedRegions, impactedServices, type HealthEvent } from '../../../api/mgmt/health.js';
import { trackingId, type EventChange } from '../../../api/mgmt/watch.js';
import { unescapeHtml } from '../../../api/translator/files/protect.js';
import { oneLine } from '../../../core/errors.js';
import { displayWidth, shortTime, wrapToWidth, type Column } from '../../../core/output/index.js';

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

/** the narrowest the title of a news may be beside its head before it goes under it */
const TITLE_MIN = 20;

/**
 * One news of `health watch` at a terminal: `time  CHANGE  id  type level status (was …)  title`,
 * fitted to `width` (the terminal's) by wrapping at spaces, never within a word: the title goes
 * on under itself (or under the time column when the head leaves it too little room).
 */
export function changeLines(ch: EventChange, width?: number): string[] {
  const p = ch.event.properties ?? {};
  const was = ch.previous && ch.change !== 'new' ? ` (was ${[ch.previous.status !== p.status ? ch.previous.status : undefined, ch.previous.eventLevel !== p.eventLevel ? ch.previous.eventLevel : undefined].filter(Boolean).join(', ') || `updated ${shortTime(ch.previous.lastUpdateTime)}`})` : '';
  const time = `${shortTime(p.lastUpdateTime)}  `;
  const head = oneLine(`${ch.change.toUpperCase().padEnd(11)} ${trackingId(ch.event)}  ${p.eventType ?? ''} ${p.eventLevel ?? ''} ${p.status ?? ''}${was}`);
  const title = oneLine(String(p.title ?? ''));
  const line = `${time}${head}  ${title}`;
  if (!width || displayWidth(line) <= width) return [line];
  const under = (lines: string[], indent: number) => lines.map((l) => `${' '.repeat(indent)}${l}`);
  const beside = displayWidth(time) + displayWidth(head) + 2;
  if (beside + TITLE_MIN <= width) {
    const [first, ...rest] = wrapToWidth(title, width - beside);
    return [`${time}${head}  ${first}`, ...under(rest, beside)];
  }
  const indent = Math.min(displayWidth(time), Math.max(0, width - TITLE_MIN));
  const [first, ...rest] = wrapToWidth(head, width - displayWidth(time));
  return [`${time}${first}`, ...under(rest, displayWidth(time)), ...under(wrapToWidth(title, width - indent), indent)];
}
