// Health events of the emulated management APIs: the list of a subscription (with the default
// 3-day window, queryStartTime and the timeline of fleet.ts), the list of one resource, and the
// details of one event (the only place a sensitive event's summary and description show).
import { checkRule, RULES } from '../../model/mgmt.js';
import type { EmuReply, EmuRequest } from '../server/index.js';
import { apiVersion, bad, decode, filterRows, knownSubscription, notFound, param, selfUrl, st } from './common.js';
import { eventsAt } from './fleet.js';
import type { EventImpact, EventRegion, HealthEvent } from './state.js';

// the resource manager matches the fixed parts of a path (`subscriptions`, `resourceGroups`,
// `providers`, the namespace, the resource types) in any case: ids other tools print use
// `resourcegroups`, and the spec calls the resource group name case insensitive
export const healthRe = (tail: string) => new RegExp(`^/subscriptions/(?<sub>[^/]+)/providers/Vendor\\.ResourceHealth/events${tail}$`, 'i');

/** `M/D/YYYY` (plain or URL-encoded), as the service accepts it */
function parseStartTime(v: string): number {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v.trim());
  const t = m ? Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2])) : NaN;
  const d = new Date(t);
  if (!m || Number.isNaN(t) || d.getUTCMonth() !== Number(m[1]) - 1 || d.getUTCDate() !== Number(m[2])) {
    throw bad('InvalidQueryStartTime', `The queryStartTime '${v}' is not a valid date; use month/day/year, e.g. 7/24/2025.`);
  }
  return t;
}

/** one row per impacted service and region, so that `service eq 'X' or region eq 'Y'` matches any of them */
function eventRows(e: HealthEvent): Record<string, unknown>[] {
  const p = e.properties;
  const base = { eventType: p.eventType, eventLevel: p.eventLevel, level: p.level, status: p.status, title: p.title, eventSource: p.eventSource, trackingId: e.name, priority: p.priority };
  const rows: Record<string, unknown>[] = [];
  for (const i of p.impact ?? []) for (const r of i.impactedRegions ?? []) rows.push({ ...base, service: i.impactedService, region: r.impactedRegion });
  return rows.length ? rows : [{ ...base, service: null, region: null }];
}
const EVENT_FIELDS = ['eventType', 'eventLevel', 'level', 'status', 'title', 'eventSource', 'trackingId', 'priority', 'service', 'region'];

/** What the lists show of a sensitive event: no summary, description or per-region updates. */
function listed(e: HealthEvent): HealthEvent {
  if (!e.properties.isEventSensitive) return e;
  const p = { ...e.properties };
  delete p.summary;
  delete p.description;
  p.impact = (p.impact ?? []).map((i: EventImpact) => ({ ...i, impactedRegions: (i.impactedRegions ?? []).map((r: EventRegion) => { const c = { ...r }; delete c.updates; return c; }) }));
  return { ...e, properties: p };
}

function eventPage(req: EmuRequest, events: HealthEvent[]): EmuReply {
  const token = req.query.get('$skipToken') ?? req.query.get('$skiptoken');
  let start = 0;
  if (token !== null) {
    if (!/^\d+$/.test(token)) throw bad('InvalidSkipToken', `The $skipToken '${token}' is invalid.`);
    start = Number(token);
  }
  const size = st(req).pageSize.events;
  const page = events.slice(start, start + size);
  const body: Record<string, unknown> = { value: page.map(listed) };
  if (start + size < events.length) body.nextLink = selfUrl(req, { $skipToken: String(start + size), $skiptoken: undefined });
  return { status: 200, body };
}

export function eventsBySubscription(req: EmuRequest): EmuReply {
  apiVersion(req, 'health');
  const sub = param(req, 'sub', RULES.subscription, 'subscriptionId');
  knownSubscription(req, sub);
  const s = st(req);
  const startParam = req.query.get('queryStartTime');
  const now = req.emulator.now();
  const from = startParam !== null ? parseStartTime(startParam) : now - 3 * 86_400_000;
  let events = sub.toLowerCase() === s.defaultSubscription.toLowerCase() ? eventsAt(s, now) : [];
  events = events.filter((e) => Date.parse(e.properties.lastUpdateTime) >= from);
  events = filterRows(events, req.query.get('$filter'), eventRows, EVENT_FIELDS, 'InvalidFilter');
  return eventPage(req, events);
}

export function eventsByResource(req: EmuRequest): EmuReply {
  apiVersion(req, 'health');
  const resource = decode(req.params.resource);
  const segs = resource.split('/').filter(Boolean);
  const sub = segs[1];
  const rg = segs[3];
  for (const [v, rule, target] of [[sub, RULES.subscription, 'subscriptionId'], [rg, RULES.resourceGroup, 'resourceGroupName']] as const) {
    const broken = checkRule(rule, v);
    if (broken) throw bad('ValidationError', `The ${rule.label} '${v}' is invalid: it ${broken}.`, target);
  }
  knownSubscription(req, sub);
  if (req.query.get('queryStartTime') !== null) throw bad('InvalidQueryParameter', 'queryStartTime is not supported when listing the events of a single resource.');
  let events = st(req).resourceEvents[resource.toLowerCase()] ?? [];
  events = filterRows(events, req.query.get('$filter'), eventRows, EVENT_FIELDS, 'InvalidFilter');
  return eventPage(req, events);
}

export function fetchEventDetails(req: EmuRequest): EmuReply {
  apiVersion(req, 'health');
  const sub = param(req, 'sub', RULES.subscription, 'subscriptionId');
  knownSubscription(req, sub);
  const id = param(req, 'trackingId', RULES.trackingId, 'eventTrackingId');
  const s = st(req);
  const e = sub.toLowerCase() === s.defaultSubscription.toLowerCase() ? eventsAt(s, req.emulator.now()).find((x) => x.name.toLowerCase() === id.toLowerCase()) : undefined;
  if (!e) throw notFound('EventNotFound', `The event with tracking id '${id}' was not found in subscription '${sub}'.`);
  return { status: 200, body: e };
}
