// Management family of the emulator, written from 3-mgmt.md and the notes. Each API family has
// its own error shape: health events a flat ErrorResponse, quota an ExceptionResponse, version
// sets an ErrorResponse with target/details/additionalInfo. Every operation requires its
// family's api-version and checks its path parameters and bodies like the real service.
import { randomUUID } from 'node:crypto';
import { checkInt32, checkRule, MGMT_API_VERSION, RULES, VERSIONING_SCHEMES, type Rule } from '../model/mgmt.js';
import { applyFilter, ODataError } from './erp/odata.js';
import { eventsAt, seedFleet, throttleRead } from './mgmt-fleet.js';
import { requestId, scopeKey, seedMgmt, type EventImpact, type EventRegion, type HealthEvent, type Json, type JsonValue, type MgmtState, type Quota, type QuotaRecord, type QuotaRequestBody, type QuotaRequestRecord } from './mgmt-seed.js';
import { EmuError, type EmuReply, type EmuRequest, type FamilyDef, type Route } from './server.js';
import { checkMgmtState } from './mgmt-seed.js';
import { familyOf } from '../model/families.js';

export function mgmtErrorBody(status: number, code: string, message: string, req: { requestId: string; path?: string }, extra: Record<string, unknown> = {}): unknown {
  const path = req.path ?? '';
  if (/\/providers\/[^/]+\.ResourceHealth\//i.test(path)) return { code, message, details: '' };
  if (/\/providers\/[^/]+\.Capacity\//i.test(path)) return { error: { code, message, details: [] } };
  return { error: { code, message, target: typeof extra.target === 'string' ? extra.target : '', details: [], additionalInfo: [] } };
}

type Family = keyof typeof MGMT_API_VERSION;

const st = (req: EmuRequest): MgmtState => req.emulator.state.mgmt as MgmtState;
const bad = (code: string, message: string, target?: string) => new EmuError(400, code, message, {}, target ? { target } : {});
const notFound = (code: string, message: string) => new EmuError(404, code, message);

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw bad('InvalidUri', `The path segment "${s}" is not correctly percent-encoded.`);
  }
}

/** The api-version the family requires; missing or another one is a 400 like the real service. */
function apiVersion(req: EmuRequest, family: Family): void {
  const v = req.query.get('api-version');
  const want = MGMT_API_VERSION[family];
  if (!v) throw bad('MissingApiVersionParameter', "The api-version query parameter (?api-version=) is required for all requests.");
  if (v !== want) throw bad('InvalidApiVersionParameter', `The api-version '${v}' is invalid. The supported versions are '${want}'.`);
}

/** A path parameter checked against its rule: 400 naming the parameter. */
function param(req: EmuRequest, name: string, rule: Rule, target = name): string {
  const v = decode(req.params[name] ?? '');
  const broken = checkRule(rule, v);
  if (broken) throw bad('ValidationError', `The ${rule.label} '${v}' is invalid: it ${broken}.`, target);
  return v;
}

function knownSubscription(req: EmuRequest, sub: string): void {
  if (!st(req).subscriptions.some((s) => s.toLowerCase() === sub.toLowerCase())) throw notFound('SubscriptionNotFound', `The subscription '${sub}' could not be found.`);
}

function origin(req: EmuRequest): string {
  return `http://${req.headers.host ?? '127.0.0.1'}${req.family.prefix}`;
}

/** The request's own URL (below the emulator origin) with some query parameters replaced. */
function selfUrl(req: EmuRequest, set: Record<string, string | undefined>): string {
  const q = new URLSearchParams(req.query);
  for (const [k, v] of Object.entries(set)) {
    if (v === undefined) q.delete(k);
    else q.set(k, v);
  }
  // `$skipToken`, `$top`, `$skip` keep their `$` as the spec shows them (`...?$skipToken=<token>`)
  return `${origin(req)}${req.path}?${q.toString().replace(/%24/g, '$')}`;
}

function filterRows<T>(rows: T[], filter: string | null, expand: (r: T) => Record<string, unknown>[], fields: string[], code: string): T[] {
  if (filter === null) return rows;
  if (!filter.trim()) throw bad(code, 'The $filter expression is empty.');
  const isField = (n: string) => fields.includes(n);
  try {
    return rows.filter((r) => applyFilter(expand(r), filter, isField).length > 0);
  } catch (e) {
    if (e instanceof ODataError) throw bad(code, `Invalid $filter '${filter}': ${e.message}`);
    throw e;
  }
}

function int(req: EmuRequest, name: string, min: number, code: string): number | undefined {
  const v = req.query.get(name);
  if (v === null) return undefined;
  const r = checkInt32(v, min);
  if (r.error) throw bad(code, `The value '${v}' of ${name} is invalid: it ${r.error}.`, name);
  return r.value;
}

// ---------------------------------------------------------------- health events

// the resource manager matches the fixed parts of a path (`subscriptions`, `resourceGroups`,
// `providers`, the namespace, the resource types) in any case: ids other tools print use
// `resourcegroups`, and the spec calls the resource group name case insensitive
const healthRe = (tail: string) => new RegExp(`^/subscriptions/(?<sub>[^/]+)/providers/Vendor\\.ResourceHealth/events${tail}$`, 'i');

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

function eventsBySubscription(req: EmuRequest): EmuReply {
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

function eventsByResource(req: EmuRequest): EmuReply {
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

function fetchEventDetails(req: EmuRequest): EmuReply {
  apiVersion(req, 'health');
  const sub = param(req, 'sub', RULES.subscription, 'subscriptionId');
  knownSubscription(req, sub);
  const id = param(req, 'trackingId', RULES.trackingId, 'eventTrackingId');
  const s = st(req);
  const e = sub.toLowerCase() === s.defaultSubscription.toLowerCase() ? eventsAt(s, req.emulator.now()).find((x) => x.name.toLowerCase() === id.toLowerCase()) : undefined;
  if (!e) throw notFound('EventNotFound', `The event with tracking id '${id}' was not found in subscription '${sub}'.`);
  return { status: 200, body: e };
}

// ---------------------------------------------------------------- quota

const CAP = '^/subscriptions/(?<sub>[^/]+)/providers/Vendor\\.Capacity/resourceProviders/(?<provider>[^/]+)/locations/(?<location>[^/]+)';

interface QuotaScope {
  sub: string;
  provider: string;
  location: string;
  key: string;
}

function quotaScope(req: EmuRequest): QuotaScope {
  const wait = throttleRead(st(req), req.method);
  if (wait) throw new EmuError(429, 'SubscriptionRequestsThrottled', `Number of read requests for the subscription exceeded the limit. Please try again after '${wait}' seconds.`, { 'retry-after': String(wait) });
  apiVersion(req, 'quota');
  const sub = param(req, 'sub', RULES.subscription, 'subscriptionId');
  const provider = param(req, 'provider', RULES.providerId, 'resourceProviderId');
  const location = param(req, 'location', RULES.location, 'location');
  knownSubscription(req, sub);
  return { sub, provider, location, key: scopeKey(sub, provider, location) };
}

function findQuota(req: EmuRequest, s: QuotaScope, name: string): QuotaRecord {
  const q = st(req).quotas[s.key]?.[name.toLowerCase()];
  if (!q) throw notFound('ResourceNotFound', `No quota named '${name}' for resource provider '${s.provider}' in location '${s.location}'.`);
  return q;
}

function listQuotas(req: EmuRequest): EmuReply {
  const s = quotaScope(req);
  if (!st(req).listableProviders.includes(s.provider.toLowerCase())) {
    throw bad('ListNotSupported', `Listing the quotas of resource provider '${s.provider}' is not supported; read a quota by its resource name.`);
  }
  const rows = Object.values(st(req).quotas[s.key] ?? {}).map((q) => q.quota);
  const fields = ['name', 'localizedName', 'limit', 'currentValue', 'unit', 'resourceType', 'quotaPeriod'];
  const view = (q: Quota) => [{ name: q.properties.name.value, localizedName: q.properties.name.localizedValue, limit: q.properties.limit, currentValue: q.properties.currentValue, unit: q.properties.unit, resourceType: q.properties.resourceType, quotaPeriod: q.properties.quotaPeriod }];
  const all = filterRows(rows, req.query.get('$filter'), view, fields, 'InvalidFilter');
  // pages of quotaPageSize when set (`$skiptoken`); getComputeUsages.json: the last page carries `"nextLink": ""`
  const token = req.query.get('$skiptoken');
  if (token !== null && !/^\d+$/.test(token)) throw bad('InvalidSkipToken', `The $skiptoken '${token}' is invalid.`);
  const start = token === null ? 0 : Number(token);
  const size = st(req).quotaPageSize ?? all.length;
  const more = start + size < all.length;
  return { status: 200, body: { value: all.slice(start, start + Math.max(size, 1)), nextLink: more ? selfUrl(req, { $skiptoken: String(start + size) }) : '' } };
}

function getQuota(req: EmuRequest): EmuReply {
  const s = quotaScope(req);
  const q = findQuota(req, s, param(req, 'name', RULES.resourceName, 'resourceName'));
  return { status: 200, headers: { etag: `"${q.etag}"` }, body: q.quota };
}

/**
 * The status body of a quota request as the real service shows it (serviceLimitsRequests/{id} and
 * its list): `id` is the bare request id and `name` is `<subscription>/<requestId>`
 * (getQuotaRequestStatusById.json); the 201 and 200 answers to the PATCH use the full path instead.
 */
function requestBody(s: QuotaScope, id: string, q: Quota, limit: number, state: string, message: string, submitted: string): QuotaRequestBody {
  return {
    id,
    name: `${s.sub}/${id}`,
    type: 'Vendor.Capacity/serviceLimitsRequests',
    properties: {
      provisioningState: state,
      message,
      requestSubmitTime: submitted,
      value: [{ name: { ...q.properties.name }, limit, unit: q.properties.unit, provisioningState: state, message, subRequestId: randomUUID() }],
    },
  };
}

/**
 * A quota PATCH answered 200 ("done at once"). The published PATCH example nests the quota under
 * `properties.properties.properties` next to `provisioningState` and `message`; the schema
 * (CurrentQuotaLimitBase) and the PUT examples put the quota properties right in `properties`.
 * The answer carries both, so a script written against either shape reads what it expects.
 */
function doneAtOnce(s: QuotaScope, id: string, q: Quota): Record<string, unknown> {
  const quota = { ...q.properties, name: { ...q.properties.name }, quotaPeriod: q.properties.quotaPeriod ?? '', properties: { ...(q.properties.properties ?? {}) } };
  return {
    id: requestId(s.sub, s.provider, s.location, id),
    name: id,
    type: 'Vendor.Capacity/serviceLimits',
    properties: { provisioningState: 'Succeeded', message: '', ...quota, properties: { ...quota.properties, properties: quota } },
  };
}

function patchQuota(req: EmuRequest): EmuReply {
  const s = quotaScope(req);
  const name = param(req, 'name', RULES.resourceName, 'resourceName');
  const rec = findQuota(req, s, name);
  const body = req.json<JsonValue>();
  const raw = body && typeof body === 'object' && !Array.isArray(body) ? body.properties : undefined;
  if (!raw || typeof raw !== 'object') throw bad('InvalidRequestContent', "The request body must be an object with 'properties'.");
  // an array has none of the fields read below: it fails the limit check like an object without one
  const p: Json = Array.isArray(raw) ? {} : raw;
  const pname = p.name && typeof p.name === 'object' && !Array.isArray(p.name) ? p.name : undefined;
  if (typeof p.limit !== 'number' || !Number.isInteger(p.limit) || p.limit < 0 || p.limit > 2_147_483_647) {
    throw bad('InvalidQuotaLimit', `The limit ${JSON.stringify(p.limit)} is invalid: it must be a whole number from 0 to 2147483647.`);
  }
  const q = rec.quota;
  if (pname?.value !== undefined && String(pname.value).toLowerCase() !== q.properties.name.value.toLowerCase()) {
    throw bad('InvalidResourceName', `The name '${pname.value}' in the body does not match the resource '${name}' in the path.`);
  }
  // the unit is part of the request the service documents (`limit`, `unit`, `name.value`): reuse the GET's
  if (p.unit === undefined || p.unit === null || p.unit === '') throw bad('InvalidUnit', `The request has no 'unit'; send the unit of the quota ('${q.properties.unit}') as read with GET.`);
  if (p.unit !== q.properties.unit) throw bad('InvalidUnit', `The unit '${p.unit}' does not match the quota's unit '${q.properties.unit}'.`);
  const state = st(req);
  const id = randomUUID();
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const limit = p.limit as number;
  const used = q.properties.currentValue as number;
  if (limit < q.properties.limit && limit >= used) {
    // a decrease that still covers the usage is applied at once: 200
    q.properties.limit = limit;
    rec.etag = ++state.version;
    const done = requestBody(s, id, q, limit, 'Succeeded', 'Request completed', now);
    state.requests[id] = { scope: s.key, resourceName: q.name, limit, outcome: 'Succeeded', outcomeMessage: 'Request completed', pollsLeft: 0, body: done };
    return { status: 200, body: doneAtOnce(s, id, q) };
  }
  let outcome: 'Succeeded' | 'Failed' | 'Invalid' = 'Succeeded';
  let message = 'Request completed';
  if (limit < used) {
    outcome = 'Invalid';
    message = `The requested limit ${limit} is below the current usage of ${used}.`;
  } else if (limit > rec.cap) {
    outcome = 'Failed';
    message = `The requested limit ${limit} exceeds the regional capacity of ${rec.cap} for ${q.name} in ${s.location}; contact support.`;
  }
  const accepted = requestBody(s, id, q, limit, 'InProgress', 'Request processing', now);
  state.requests[id] = { scope: s.key, resourceName: q.name, limit, outcome, outcomeMessage: message, pollsLeft: rec.pollsToFinish ?? state.pollsToFinish, body: accepted, ...(state.requestLag ? { lagLeft: state.requestLag } : {}) };
  const path = requestId(s.sub, s.provider, s.location, id);
  const lro = state.lroHeaders ?? 'location';
  const headers: Record<string, string> = { 'retry-after': String(state.retryAfter) };
  if (lro !== 'async-operation') headers.location = `${origin(req)}${path}?api-version=${MGMT_API_VERSION.quota}`;
  if (lro !== 'location') headers['vendor-asyncoperation'] = `${origin(req)}${operationPath(s, id)}?api-version=${MGMT_API_VERSION.quota}`;
  return {
    status: 201,
    headers,
    // patchComputeQuotaRequest.json: the full request path as id, the request id as name, an empty message
    body: { id: path, name: id, type: 'Vendor.Capacity/ServiceLimits', properties: { provisioningState: 'InProgress', message: '' } },
  };
}

/** A status read moves a running request on; at its end the limit changes (Succeeded) or not. */
function advance(req: EmuRequest, id: string): QuotaRequestBody {
  const state = st(req);
  const r = state.requests[id];
  if (r.body.properties.provisioningState !== 'InProgress') return r.body;
  if (r.pollsLeft > 0) {
    r.pollsLeft -= 1;
    return r.body;
  }
  r.body.properties.provisioningState = r.outcome;
  r.body.properties.message = r.outcomeMessage;
  for (const v of r.body.properties.value) {
    v.provisioningState = r.outcome;
    v.message = r.outcomeMessage;
  }
  if (r.outcome === 'Succeeded') {
    const rec = state.quotas[r.scope]?.[r.resourceName.toLowerCase()];
    if (rec) {
      rec.quota.properties.limit = r.limit;
      rec.etag = ++state.version;
    }
  }
  req.emulator.changed();
  return r.body;
}

/** A new request not yet readable (mgmt.requestLag): true, and one such read fewer to come. */
function lagging(r: QuotaRequestRecord): boolean {
  if (!r.lagLeft) return false;
  r.lagLeft -= 1;
  return true;
}

function getRequest(req: EmuRequest): EmuReply {
  const s = quotaScope(req);
  // request ids are GUIDs, the same in any case (the emulator's are lower case)
  const id = param(req, 'id', RULES.requestId, 'id').toLowerCase();
  const r = st(req).requests[id];
  if (!r || r.scope !== s.key || lagging(r)) throw notFound('ResourceNotFound', `No quota request '${id}' for resource provider '${s.provider}' in location '${s.location}'.`);
  const body = advance(req, id);
  const running = body.properties.provisioningState === 'InProgress';
  return { status: 200, headers: running ? { 'retry-after': String(st(req).retryAfter) } : {}, body };
}

/** Where the operation resource of a quota request lives (the async-operation header names it). */
function operationPath(s: QuotaScope, id: string): string {
  return `/subscriptions/${s.sub}/providers/Vendor.Capacity/resourceProviders/${s.provider}/locations/${s.location}/operationsStatuses/${id}`;
}

/**
 * The operation resource of a quota request, in the resource manager's async-operation format:
 * always 200, `status` InProgress until the request ends, then Succeeded or Failed (a request
 * that ends Invalid or Failed) with the `error` the RPC requires; Retry-After while it runs. A
 * read moves the request on like a status read.
 */
function getOperation(req: EmuRequest): EmuReply {
  const s = quotaScope(req);
  const id = param(req, 'id', RULES.requestId, 'id').toLowerCase();
  const r = st(req).requests[id];
  if (!r || r.scope !== s.key || lagging(r)) throw notFound('ResourceNotFound', `No operation '${id}' for resource provider '${s.provider}' in location '${s.location}'.`);
  const body = advance(req, id);
  const state = body.properties.provisioningState;
  const running = state === 'InProgress';
  const op: Record<string, unknown> = { id: operationPath(s, id), name: id, status: running ? 'InProgress' : state === 'Succeeded' ? 'Succeeded' : 'Failed', startTime: body.properties.requestSubmitTime };
  if (!running) op.endTime = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (state === 'Failed' || state === 'Invalid') op.error = { code: state === 'Invalid' ? 'InvalidQuotaRequest' : 'QuotaRequestFailed', message: body.properties.message };
  return { status: 200, headers: running ? { 'retry-after': String(st(req).retryAfter) } : {}, body: op };
}

function listRequests(req: EmuRequest): EmuReply {
  const s = quotaScope(req);
  const top = int(req, '$top', 1, 'InvalidTop');
  const token = req.query.get('$skiptoken');
  if (token !== null && !/^\d+$/.test(token)) throw bad('InvalidSkipToken', `The $skiptoken '${token}' is invalid.`);
  const start = token === null ? 0 : Number(token);
  let rows = Object.values(st(req).requests)
    .filter((r) => r.scope === s.key)
    .map((r) => r.body)
    .sort((a, b) => String(b.properties.requestSubmitTime).localeCompare(String(a.properties.requestSubmitTime)));
  rows = filterRows(rows, req.query.get('$filter'), (r) => [{ requestSubmitTime: r.properties.requestSubmitTime, provisioningState: r.properties.provisioningState }], ['requestSubmitTime', 'provisioningState'], 'InvalidFilter');
  if (top !== undefined) rows = rows.slice(0, top);
  const size = st(req).pageSize.requests;
  const body: Record<string, unknown> = { value: rows.slice(start, start + size) };
  if (start + size < rows.length) body.nextLink = selfUrl(req, { $skiptoken: String(start + size) });
  return { status: 200, body };
}

// ---------------------------------------------------------------- API version sets

const APIM = '^/subscriptions/(?<sub>[^/]+)/resourceGroups/(?<rg>[^/]+)/providers/Vendor\\.ApiManagement/service/(?<service>[^/]+)/apiVersionSets';

interface ServiceScope {
  sub: string;
  rg: string;
  service: string;
  sets: Record<string, import('./mgmt-seed.js').VersionSetRecord>;
}

function serviceScope(req: EmuRequest): ServiceScope {
  apiVersion(req, 'versionSets');
  const sub = param(req, 'sub', RULES.subscriptionUuid, 'subscriptionId');
  const rg = param(req, 'rg', RULES.resourceGroup, 'resourceGroupName');
  const service = param(req, 'service', RULES.serviceName, 'serviceName');
  knownSubscription(req, sub);
  const sets = st(req).versionSets[scopeKey(sub, rg, service)];
  if (!sets) throw notFound('ResourceNotFound', `The API management service '${service}' was not found in resource group '${rg}'.`);
  return { sub, rg, service, sets };
}

function contract(s: ServiceScope, rec: { name: string; properties: Json }): { id: string; type: string; name: string; properties: Json } {
  return {
    id: `/subscriptions/${s.sub}/resourceGroups/${s.rg}/providers/Vendor.ApiManagement/service/${s.service}/apiVersionSets/${rec.name}`,
    type: 'Vendor.ApiManagement/service/api-version-sets',
    name: rec.name,
    properties: rec.properties,
  };
}

const etagText = (n: number) => `"${n.toString(16).padStart(8, '0')}"`;

/** Compares If-Match with the current ETag (`*` matches anything that exists). */
function matches(ifMatch: string, rec: { etag: number } | undefined): boolean {
  if (ifMatch.trim() === '*') return rec !== undefined;
  if (!rec) return false;
  return ifMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etagText(rec.etag));
}

function listVersionSets(req: EmuRequest): EmuReply {
  const s = serviceScope(req);
  const top = int(req, '$top', 1, 'ValidationError');
  const skip = int(req, '$skip', 0, 'ValidationError') ?? 0;
  let rows = Object.values(s.sets).map((r) => contract(s, r));
  rows = filterRows(rows, req.query.get('$filter'), (r) => [{ name: r.name, ...r.properties }], ['name', 'displayName', 'description', 'versioningScheme', 'versionHeaderName', 'versionQueryName'], 'ValidationError');
  const count = rows.length;
  const size = st(req).pageSize.versionSets;
  const rest = rows.slice(skip);
  const want = top === undefined ? rest.length : Math.min(top, rest.length);
  const page = rest.slice(0, Math.min(size, want));
  let nextLink = '';
  if (page.length < want) nextLink = selfUrl(req, { $skip: String(skip + page.length), $top: top === undefined ? undefined : String(top - page.length) });
  return { status: 200, body: { value: page, count, nextLink } };
}

function getVersionSet(req: EmuRequest): EmuReply {
  const s = serviceScope(req);
  const id = param(req, 'id', RULES.versionSetId, 'versionSetId');
  const rec = s.sets[id.toLowerCase()];
  if (!rec) throw notFound('ResourceNotFound', `The version set '${id}' was not found.`);
  return { status: 200, headers: { etag: etagText(rec.etag) }, body: contract(s, rec) };
}

function checkProperties(p: Json): Json {
  const out: Json = {};
  const str = (k: string, rule?: Rule, required = false) => {
    const v = p[k];
    if (v === undefined || v === null) {
      if (required) throw bad('ValidationError', `'${k}' is required.`, k);
      return;
    }
    if (typeof v !== 'string') throw bad('ValidationError', `'${k}' must be a string.`, k);
    if (rule) {
      const broken = checkRule(rule, v);
      if (broken) throw bad('ValidationError', `'${k}' is invalid: the ${rule.label} ${broken}.`, k);
    }
    out[k] = v;
  };
  str('displayName', RULES.displayName, true);
  str('versioningScheme', undefined, true);
  if (typeof out.versioningScheme !== 'string' || !(VERSIONING_SCHEMES as readonly string[]).includes(out.versioningScheme)) {
    throw bad('ValidationError', `'versioningScheme' must be one of ${VERSIONING_SCHEMES.join(', ')}.`, 'versioningScheme');
  }
  str('description');
  str('versionHeaderName', RULES.headerName);
  str('versionQueryName', RULES.queryName);
  if (out.versioningScheme === 'Header' && !out.versionHeaderName) throw bad('ValidationError', "'versionHeaderName' is required when 'versioningScheme' is Header.", 'versionHeaderName');
  if (out.versioningScheme === 'Query' && !out.versionQueryName) throw bad('ValidationError', "'versionQueryName' is required when 'versioningScheme' is Query.", 'versionQueryName');
  for (const k of Object.keys(p)) if (!(k in out) && p[k] !== null && p[k] !== undefined && !['displayName', 'versioningScheme', 'description', 'versionHeaderName', 'versionQueryName'].includes(k)) {
    throw bad('ValidationError', `'${k}' is not a property of an API version set.`, k);
  }
  return out;
}

function bodyProperties(req: EmuRequest): Json {
  const body = req.json<JsonValue>();
  if (!body || typeof body !== 'object' || Array.isArray(body) || !body.properties || typeof body.properties !== 'object') {
    throw bad('ValidationError', "The request body must be an object with 'properties'.", 'properties');
  }
  // an array is read by key like an object: checkProperties refuses its indexes as unknown properties
  return body.properties as Json;
}

function ifMatchOf(req: EmuRequest): string | undefined {
  const h = req.headers['if-match'];
  return typeof h === 'string' ? h : undefined;
}

function preconditionFailed(id: string): EmuError {
  return new EmuError(412, 'PreconditionFailed', `The version set '${id}' has changed since it was read (the If-Match ETag does not match).`);
}

function putVersionSet(req: EmuRequest): EmuReply {
  const s = serviceScope(req);
  const id = param(req, 'id', RULES.versionSetId, 'versionSetId');
  const props = checkProperties(bodyProperties(req));
  const key = id.toLowerCase();
  const existing = s.sets[key];
  const ifMatch = ifMatchOf(req);
  if (ifMatch !== undefined && !matches(ifMatch, existing)) throw preconditionFailed(id);
  const state = st(req);
  const rec = { name: existing?.name ?? id, properties: props, etag: ++state.version };
  s.sets[key] = rec;
  return { status: existing ? 200 : 201, headers: { etag: etagText(rec.etag) }, body: contract(s, rec) };
}

function patchVersionSet(req: EmuRequest): EmuReply {
  const s = serviceScope(req);
  const id = param(req, 'id', RULES.versionSetId, 'versionSetId');
  const ifMatch = ifMatchOf(req);
  if (ifMatch === undefined) throw bad('ValidationError', 'The If-Match header is required to update a version set.', 'If-Match');
  const existing = s.sets[id.toLowerCase()];
  if (!existing) throw notFound('ResourceNotFound', `The version set '${id}' was not found.`);
  if (!matches(ifMatch, existing)) throw preconditionFailed(id);
  const props = checkProperties({ ...existing.properties, ...bodyProperties(req) });
  existing.properties = props;
  existing.etag = ++st(req).version;
  return { status: 200, headers: { etag: etagText(existing.etag) }, body: contract(s, existing) };
}

function deleteVersionSet(req: EmuRequest): EmuReply {
  const s = serviceScope(req);
  const id = param(req, 'id', RULES.versionSetId, 'versionSetId');
  const ifMatch = ifMatchOf(req);
  if (ifMatch === undefined) throw bad('ValidationError', 'The If-Match header is required to delete a version set.', 'If-Match');
  const existing = s.sets[id.toLowerCase()];
  if (!existing) return { status: 204 };
  if (!matches(ifMatch, existing)) throw preconditionFailed(id);
  delete s.sets[id.toLowerCase()];
  return { status: 200 };
}

// ---------------------------------------------------------------- the family

/**
 * A body whose Content-Type is not JSON: the resource manager's 415 UnsupportedMediaType (before
 * the api-version and path checks of the provider).
 */
function jsonBody(req: EmuRequest): void {
  if (!req.text) return;
  const ct = req.headers['content-type'];
  // absent: taken as JSON (as a $batch operation's body without a content-type is)
  if (typeof ct !== 'string' || !ct.trim() || /^application\/json\b/i.test(ct.trim())) return;
  throw new EmuError(415, 'UnsupportedMediaType', `The content media type '${ct}' is not supported. Only 'application/json' is supported.`);
}

/** Records a write as received (before any check), then handles it. */
function recorded(handler: (req: EmuRequest) => EmuReply): (req: EmuRequest) => EmuReply {
  return (req) => {
    let body: unknown;
    if (req.text) {
      try {
        body = JSON.parse(req.text);
      } catch {
        body = req.text;
      }
    }
    st(req).writes.push({ method: req.method, path: req.path, ifMatch: ifMatchOf(req), body });
    jsonBody(req);
    return handler(req);
  };
}

const ROUTES: Route[] = [
  { method: 'GET', path: healthRe(''), handler: eventsBySubscription },
  { method: 'POST', path: healthRe('/(?<trackingId>[^/]+)/fetchEventDetails'), handler: fetchEventDetails },
  {
    method: 'GET',
    path: /^(?<resource>\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/[^/]+\/[^/]+\/[^/]+(?:\/[^/]+\/[^/]+)?)\/providers\/Vendor\.ResourceHealth\/events$/i,
    handler: eventsByResource,
  },
  { method: 'GET', path: new RegExp(`${CAP}/serviceLimits$`, 'i'), handler: listQuotas },
  { method: 'GET', path: new RegExp(`${CAP}/serviceLimits/(?<name>[^/]+)$`, 'i'), handler: getQuota },
  { method: 'PATCH', path: new RegExp(`${CAP}/serviceLimits/(?<name>[^/]+)$`, 'i'), handler: recorded(patchQuota) },
  { method: 'GET', path: new RegExp(`${CAP}/serviceLimitsRequests$`, 'i'), handler: listRequests },
  { method: 'GET', path: new RegExp(`${CAP}/serviceLimitsRequests/(?<id>[^/]+)$`, 'i'), handler: getRequest },
  { method: 'GET', path: new RegExp(`${CAP}/operationsStatuses/(?<id>[^/]+)$`, 'i'), handler: getOperation },
  { method: 'GET', path: new RegExp(`${APIM}$`, 'i'), handler: listVersionSets },
  { method: 'GET', path: new RegExp(`${APIM}/(?<id>[^/]+)$`, 'i'), handler: getVersionSet },
  { method: 'PUT', path: new RegExp(`${APIM}/(?<id>[^/]+)$`, 'i'), handler: recorded(putVersionSet) },
  { method: 'PATCH', path: new RegExp(`${APIM}/(?<id>[^/]+)$`, 'i'), handler: recorded(patchVersionSet) },
  { method: 'DELETE', path: new RegExp(`${APIM}/(?<id>[^/]+)$`, 'i'), handler: recorded(deleteVersionSet) },
];

export function mgmtFamily(): FamilyDef {
  return {
    name: 'mgmt',
    prefix: familyOf('mgmt').emulator.prefix,
    auth: 'bearer',
    requestIdHeader: 'x-request-id',
    codes: {
      unauthorized: 'AuthenticationFailed',
      notFound: 'ResourceNotFound',
      badRequest: 'BadRequest',
      badJson: 'InvalidRequestContent',
      tooLarge: 'RequestEntityTooLarge',
      throttled: 'TooManyRequests',
      unavailable: 'ServiceUnavailable',
      internal: 'InternalServerError',
      methodNotAllowed: 'MethodNotAllowed',
      byStatus: { 403: 'AuthorizationFailed', 409: 'Conflict', 412: 'PreconditionFailed' },
    },
    errorBody: mgmtErrorBody,
    // the resource manager refuses bodies above 4 MB with 413 (resource provider contract, common API details)
    maxBodyBytes: 4 * 1024 * 1024,
    routes: ROUTES,
    seed: () => seedFleet(seedMgmt()),
    checkState: checkMgmtState,
  };
}


