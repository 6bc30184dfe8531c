// Service health events (api-version 2025-05-01): the list by subscription or by resource, and
// the details of a sensitive event.
import { eventPriority, resourceIdPath, type ResourceId } from '../../model/mgmt.js';
import { seg, type MgmtClient } from './client.js';

export interface HealthEvent {
  id?: string;
  name?: string;
  type?: string;
  properties?: {
    title?: string;
    eventType?: string;
    eventLevel?: string;
    level?: string;
    status?: string;
    priority?: number;
    impactStartTime?: string;
    lastUpdateTime?: string;
    isEventSensitive?: boolean;
    impact?: { impactedService?: string; impactedRegions?: { impactedRegion?: string; status?: string }[] }[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export interface EventsQuery {
  /** list the events of one resource instead of the subscription */
  resource?: ResourceId;
  filter?: string;
  /** `M/D/YYYY` (subscription list only) */
  queryStartTime?: string;
  max?: number;
}

export function eventsUrl(c: MgmtClient, subscription: string | undefined, q: EventsQuery): string {
  const tail = `/providers/${c.provider('health')}/events`;
  if (q.resource) return c.url('health', `${resourceIdPath(q.resource)}${tail}`, { $filter: q.filter });
  return c.url('health', `/subscriptions/${seg(subscription!)}${tail}`, { $filter: q.filter, queryStartTime: q.queryStartTime });
}

export function listEvents(c: MgmtClient, subscription: string | undefined, q: EventsQuery): AsyncGenerator<HealthEvent> {
  return c.list<HealthEvent>(eventsUrl(c, subscription, q), q.max);
}

/** POST `.../events/{trackingId}/fetchEventDetails`: one event with its sensitive fields. */
export async function eventDetails(c: MgmtClient, subscription: string, trackingId: string): Promise<HealthEvent> {
  const url = c.url('health', `/subscriptions/${seg(subscription)}/providers/${c.provider('health')}/events/${seg(trackingId)}/fetchEventDetails`);
  // a read: repeating it is harmless
  return (await c.send({ method: 'POST', url, idempotent: true })).json<HealthEvent>();
}

/** The event's priority: the service's `priority` when present, else the rank the spec describes. */
export function priorityOf(e: HealthEvent): number {
  const p = e.properties?.priority;
  return typeof p === 'number' && Number.isFinite(p) ? p : eventPriority(e.properties ?? {});
}

/** Highest priority first; ties: the most recently updated first. Stable. */
export function sortByPriority(events: HealthEvent[]): HealthEvent[] {
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      const d = priorityOf(a.e) - priorityOf(b.e);
      if (d) return d;
      const ta = Date.parse(a.e.properties?.lastUpdateTime ?? '') || 0;
      const tb = Date.parse(b.e.properties?.lastUpdateTime ?? '') || 0;
      return tb - ta || a.i - b.i;
    })
    .map((x) => x.e);
}

/** `impact` as a list of objects, whatever the service sent (a field of another shape shows nothing rather than failing) */
function impacts(e: HealthEvent): NonNullable<NonNullable<HealthEvent['properties']>['impact']> {
  const list = e.properties?.impact;
  return Array.isArray(list) ? list.filter((i) => i && typeof i === 'object') : [];
}

export function impactedServices(e: HealthEvent): string {
  return [...new Set(impacts(e).map((i) => i.impactedService).filter((s) => typeof s === 'string' && s))].join(', ');
}

export function impactedRegions(e: HealthEvent): string {
  const regions = impacts(e).flatMap((i) => (Array.isArray(i.impactedRegions) ? i.impactedRegions : []).map((r) => r?.impactedRegion));
  return [...new Set(regions.filter((r) => typeof r === 'string' && r))].join(', ');
}
