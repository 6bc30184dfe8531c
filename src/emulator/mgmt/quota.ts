// Quotas of the emulated management APIs: where a quota lives (subscription, provider,
// location), the list and one quota, and the requests that change them: their list, one request
// and its operation resource; a status read moves a running request on.
import { RULES } from '../../model/mgmt.js';
import { EmuError, type EmuReply, type EmuRequest } from '../server/index.js';
import { apiVersion, bad, filterRows, int, knownSubscription, notFound, param, selfUrl, st } from './common.js';
import { throttleRead } from './fleet.js';
import { scopeKey, type Quota, type QuotaRecord, type QuotaRequestBody, type QuotaRequestRecord } from './state.js';

export const CAP = '^/subscriptions/(?<sub>[^/]+)/providers/Vendor\\.Capacity/resourceProviders/(?<provider>[^/]+)/locations/(?<location>[^/]+)';

export interface QuotaScope {
  sub: string;
  provider: string;
  location: string;
  key: string;
}

export function quotaScope(req: EmuRequest): QuotaScope {
  const wait = throttleRead(st(req), req.method);
  if (wait) throw new EmuError(429, 'SubscriptionRequestsThrottled', `Number of read requests for the subscription exceeded the limit. Please try again after '${wait}' seconds.`, { 'retry-after': String(wait) });
  apiVersion(req, 'quota');
  const sub = param(req, 'sub', RULES.subscription, 'subscriptionId');
  const provider = param(req, 'provider', RULES.providerId, 'resourceProviderId');
  const location = param(req, 'location', RULES.location, 'location');
  knownSubscription(req, sub);
  return { sub, provider, location, key: scopeKey(sub, provider, location) };
}

export function findQuota(req: EmuRequest, s: QuotaScope, name: string): QuotaRecord {
  const q = st(req).quotas[s.key]?.[name.toLowerCase()];
  if (!q) throw notFound('ResourceNotFound', `No quota named '${name}' for resource provider '${s.provider}' in location '${s.location}'.`);
  return q;
}

export function listQuotas(req: EmuRequest): EmuReply {
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

export function getQuota(req: EmuRequest): EmuReply {
  const s = quotaScope(req);
  const q = findQuota(req, s, param(req, 'name', RULES.resourceName, 'resourceName'));
  return { status: 200, headers: { etag: `"${q.etag}"` }, body: q.quota };
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

export function getRequest(req: EmuRequest): EmuReply {
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
export function operationPath(s: QuotaScope, id: string): string {
  return `/subscriptions/${s.sub}/providers/Vendor.Capacity/resourceProviders/${s.provider}/locations/${s.location}/operationsStatuses/${id}`;
}

/**
 * The operation resource of a quota request, in the resource manager's async-operation format:
 * always 200, `status` InProgress until the request ends, then Succeeded or Failed (a request
 * that ends Invalid or Failed) with the `error` the RPC requires; Retry-After while it runs. A
 * read moves the request on like a status read.
 */
export function getOperation(req: EmuRequest): EmuReply {
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

export function listRequests(req: EmuRequest): EmuReply {
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
