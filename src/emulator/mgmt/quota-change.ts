// A quota change (PATCH) on the emulated management APIs: the body checked like the real
// service, a decrease that still covers the usage applied at once (200), anything else accepted
// as a request (201) that ends Succeeded, Failed (above the regional cap) or Invalid (below usage).
import { randomUUID } from 'node:crypto';
import { MGMT_API_VERSION, RULES } from '../../model/mgmt.js';
import type { EmuReply, EmuRequest } from '../server/index.js';
import { bad, origin, param, st } from './common.js';
import { findQuota, operationPath, quotaScope, type QuotaScope } from './quota.js';
import { requestId, type Json, type JsonValue, type Quota, type QuotaRecord, type QuotaRequestBody } from './state.js';

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

/** The limit a PATCH asks for, its body checked like the real service (400 naming what is wrong). */
function requestedLimit(req: EmuRequest, name: string, q: Quota): number {
  const body = req.json<JsonValue>();
  const raw = body && typeof body === 'object' && !Array.isArray(body) ? body.properties : undefined;
  if (!raw || typeof raw !== 'object') throw bad('InvalidRequestContent', "The request body must be an object with 'properties'.");
  // an array has none of the fields read below: it fails the limit check like an object without one
  const p: Json = Array.isArray(raw) ? {} : raw;
  const pname = p.name && typeof p.name === 'object' && !Array.isArray(p.name) ? p.name : undefined;
  if (typeof p.limit !== 'number' || !Number.isInteger(p.limit) || p.limit < 0 || p.limit > 2_147_483_647) {
    throw bad('InvalidQuotaLimit', `The limit ${JSON.stringify(p.limit)} is invalid: it must be a whole number from 0 to 2147483647.`);
  }
  if (pname?.value !== undefined && String(pname.value).toLowerCase() !== q.properties.name.value.toLowerCase()) {
    throw bad('InvalidResourceName', `The name '${pname.value}' in the body does not match the resource '${name}' in the path.`);
  }
  // the unit is part of the request the service documents (`limit`, `unit`, `name.value`): reuse the GET's
  if (p.unit === undefined || p.unit === null || p.unit === '') throw bad('InvalidUnit', `The request has no 'unit'; send the unit of the quota ('${q.properties.unit}') as read with GET.`);
  if (p.unit !== q.properties.unit) throw bad('InvalidUnit', `The unit '${p.unit}' does not match the quota's unit '${q.properties.unit}'.`);
  return p.limit;
}

/** How an accepted change will end: above the regional cap Failed, below the usage Invalid. */
function outcomeOf(rec: QuotaRecord, s: QuotaScope, limit: number): { outcome: 'Succeeded' | 'Failed' | 'Invalid'; message: string } {
  const q = rec.quota;
  const used = q.properties.currentValue;
  if (limit < used) return { outcome: 'Invalid', message: `The requested limit ${limit} is below the current usage of ${used}.` };
  if (limit > rec.cap) return { outcome: 'Failed', message: `The requested limit ${limit} exceeds the regional capacity of ${rec.cap} for ${q.name} in ${s.location}; contact support.` };
  return { outcome: 'Succeeded', message: 'Request completed' };
}

/** The headers of an accepted change: Retry-After, and Location and/or the async-operation header (MgmtState.lroHeaders). */
function acceptedHeaders(req: EmuRequest, s: QuotaScope, id: string): Record<string, string> {
  const state = st(req);
  const lro = state.lroHeaders ?? 'location';
  const headers: Record<string, string> = { 'retry-after': String(state.retryAfter) };
  if (lro !== 'async-operation') headers.location = `${origin(req)}${requestId(s.sub, s.provider, s.location, id)}?api-version=${MGMT_API_VERSION.quota}`;
  if (lro !== 'location') headers['vendor-asyncoperation'] = `${origin(req)}${operationPath(s, id)}?api-version=${MGMT_API_VERSION.quota}`;
  return headers;
}

export function patchQuota(req: EmuRequest): EmuReply {
  const s = quotaScope(req);
  const name = param(req, 'name', RULES.resourceName, 'resourceName');
  const rec = findQuota(req, s, name);
  const q = rec.quota;
  const limit = requestedLimit(req, name, q);
  const state = st(req);
  const id = randomUUID();
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (limit < q.properties.limit && limit >= q.properties.currentValue) {
    // a decrease that still covers the usage is applied at once: 200
    q.properties.limit = limit;
    rec.etag = ++state.version;
    const done = requestBody(s, id, q, limit, 'Succeeded', 'Request completed', now);
    state.requests[id] = { scope: s.key, resourceName: q.name, limit, outcome: 'Succeeded', outcomeMessage: 'Request completed', pollsLeft: 0, body: done };
    return { status: 200, body: doneAtOnce(s, id, q) };
  }
  const { outcome, message } = outcomeOf(rec, s, limit);
  const accepted = requestBody(s, id, q, limit, 'InProgress', 'Request processing', now);
  state.requests[id] = { scope: s.key, resourceName: q.name, limit, outcome, outcomeMessage: message, pollsLeft: rec.pollsToFinish ?? state.pollsToFinish, body: accepted, ...(state.requestLag ? { lagLeft: state.requestLag } : {}) };
  return {
    status: 201,
    headers: acceptedHeaders(req, s, id),
    // patchComputeQuotaRequest.json: the full request path as id, the request id as name, an empty message
    body: { id: requestId(s.sub, s.provider, s.location, id), name: id, type: 'Vendor.Capacity/ServiceLimits', properties: { provisioningState: 'InProgress', message: '' } },
  };
}
