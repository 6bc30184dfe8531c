// API version sets of the emulated management APIs: list ($filter, $top, $skip), get, create or
// replace (PUT, If-Match optional), update (PATCH, If-Match required) and delete (If-Match
// required), each ETag a counter of the state.
import { checkRule, RULES, VERSIONING_SCHEMES, type Rule } from '../../model/mgmt.js';
import { EmuError, type EmuReply, type EmuRequest } from '../server/index.js';
import { apiVersion, bad, filterRows, ifMatchOf, int, knownSubscription, notFound, param, selfUrl, st } from './common.js';
import { scopeKey, type Json, type JsonValue, type VersionSetRecord } from './state.js';

export const APIM = '^/subscriptions/(?<sub>[^/]+)/resourceGroups/(?<rg>[^/]+)/providers/Vendor\\.ApiManagement/service/(?<service>[^/]+)/apiVersionSets';

interface ServiceScope {
  sub: string;
  rg: string;
  service: string;
  sets: Record<string, VersionSetRecord>;
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

export function listVersionSets(req: EmuRequest): EmuReply {
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

export function getVersionSet(req: EmuRequest): EmuReply {
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

function preconditionFailed(id: string): EmuError {
  return new EmuError(412, 'PreconditionFailed', `The version set '${id}' has changed since it was read (the If-Match ETag does not match).`);
}

export function putVersionSet(req: EmuRequest): EmuReply {
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

export function patchVersionSet(req: EmuRequest): EmuReply {
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

export function deleteVersionSet(req: EmuRequest): EmuReply {
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
