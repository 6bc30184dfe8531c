// The management family of the emulator, written from 3-mgmt.md and the notes: health events
// (health.ts), quotas and their requests (quota.ts, quota-change.ts), API version sets
// (version-sets.ts). Each API has its own error shape (common.ts); every operation requires its
// API's api-version and checks its path parameters and bodies like the real service.
import { familyOf } from '../../model/families.js';
import { EmuError, type EmuReply, type EmuRequest, type FamilyDef, type Route } from '../server/index.js';
import { ifMatchOf, mgmtErrorBody, st } from './common.js';
import { seedFleet } from './fleet.js';
import { eventsByResource, eventsBySubscription, fetchEventDetails, healthRe } from './health.js';
import { CAP, getOperation, getQuota, getRequest, listQuotas, listRequests } from './quota.js';
import { patchQuota } from './quota-change.js';
import { checkMgmtState, seedMgmt } from './seed.js';
import { APIM, deleteVersionSet, getVersionSet, listVersionSets, patchVersionSet, putVersionSet } from './version-sets.js';

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
    seed: (now) => seedFleet(seedMgmt(now), now),
    checkState: checkMgmtState,
  };
}


