// The state of the emulated management APIs (its shape in a --state file) and the ids its
// records carry.

/** a JSON value as the emulator reads and writes it on the wire */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
/** a JSON object */
export type Json = { [k: string]: JsonValue };

/** one impacted region of a health event */
export interface EventRegion {
  impactedRegion: string;
  updates?: Json[];
  [k: string]: unknown;
}
export interface EventImpact {
  impactedService: string;
  impactedRegions: EventRegion[];
  [k: string]: unknown;
}
/** a health event's properties (the fields the emulator reads; the rest as seeded) */
export interface EventProperties {
  eventType: string;
  eventLevel: string;
  status: string;
  isEventSensitive: boolean;
  impactStartTime: string;
  impactMitigationTime: string;
  lastUpdateTime: string;
  duration?: number;
  impact: EventImpact[];
  [k: string]: unknown;
}
export interface HealthEvent {
  id: string;
  name: string;
  type: string;
  properties: EventProperties;
}

export interface QuotaProperties {
  limit: number;
  unit: string;
  currentValue: number;
  name: { value: string; localizedValue: string };
  resourceType?: string;
  quotaPeriod?: string;
  properties?: Json;
  [k: string]: unknown;
}
export interface Quota {
  id: string;
  name: string;
  type: string;
  properties: QuotaProperties;
}

/** the body of a quota request as read back (its state moves on with status reads) */
export interface QuotaRequestBody {
  id: string;
  name: string;
  type: string;
  properties: {
    provisioningState: string;
    message: string;
    requestSubmitTime: string;
    value: { provisioningState: string; message: string; [k: string]: unknown }[];
  };
}

export interface QuotaRecord {
  quota: Quota;
  /** limits above this are refused (the request ends Failed) */
  cap: number;
  etag: number;
  /** status reads a change of this quota stays InProgress (default: the state's pollsToFinish) */
  pollsToFinish?: number;
}

export interface QuotaRequestRecord {
  /** `${subscription}|${provider}|${location}` in lower case */
  scope: string;
  resourceName: string;
  limit: number;
  /** the state it will end in */
  outcome: 'Succeeded' | 'Failed' | 'Invalid';
  outcomeMessage: string;
  /** status reads left before it ends */
  pollsLeft: number;
  /** status reads (of the request or its operation) still answered 404 while it "replicates" (MgmtState.requestLag) */
  lagLeft?: number;
  body: QuotaRequestBody;
}

export interface VersionSetRecord {
  name: string;
  properties: Json;
  etag: number;
}

export interface MgmtState {
  defaultSubscription: string;
  subscriptions: string[];
  /** health events of the default subscription */
  events: HealthEvent[];
  /** events of single resources: lower-case resource id -> events */
  resourceEvents: Record<string, HealthEvent[]>;
  /** `${sub}|${provider}|${location}` (lower case) -> quota name (lower case) -> record */
  quotas: Record<string, Record<string, QuotaRecord>>;
  /** providers whose quotas can be listed (lower case) */
  listableProviders: string[];
  requests: Record<string, QuotaRequestRecord>;
  /** `${sub}|${rg}|${service}` (lower case) -> id (lower case) -> record */
  versionSets: Record<string, Record<string, VersionSetRecord>>;
  /** seconds sent as Retry-After with accepted and running quota requests */
  retryAfter: number;
  /**
   * the long-running headers of an accepted quota change (201): `location` (default: Location and
   * Retry-After), `async-operation` (Vendor-AsyncOperation, naming an operation resource
   * `…/operationsStatuses/{id}` that answers 200 with `status`, and Retry-After) or `both`
   */
  lroHeaders?: 'location' | 'async-operation' | 'both';
  /** status reads a new quota request stays InProgress */
  pollsToFinish: number;
  /**
   * status reads of a new quota request (at serviceLimitsRequests/{id} or its operation resource)
   * answered 404 ResourceNotFound first, as the resource manager does while a just-created request
   * or operation resource replicates (absent or 0: none); reads that 404 do not move it on
   */
  requestLag?: number;
  pageSize: { events: number; versionSets: number; requests: number };
  version: number;
  /** reads allowed (a token bucket; fleet.ts throttleRead); absent: no throttling */
  readLimit?: { perSecond: number; burst: number; tokens?: number; at?: number };
  /** quotas listed per page (absent: one page) */
  quotaPageSize?: number;
  /** when the state was seeded (ms, whole seconds): the origin of the health events' timeline (fleet.ts) */
  seededAt?: number;
  /** every write received (method, path, If-Match, body), for sandbox users and tests */
  writes: { method: string; path: string; ifMatch?: string; body?: unknown }[];
}

export function scopeKey(...parts: string[]): string {
  return parts.map((p) => p.toLowerCase()).join('|');
}

export function quotaId(sub: string, provider: string, location: string, name: string): string {
  return `/subscriptions/${sub}/providers/Vendor.Capacity/resourceProviders/${provider}/locations/${location}/serviceLimits/${name}`;
}

export function requestId(sub: string, provider: string, location: string, id: string): string {
  return `/subscriptions/${sub}/providers/Vendor.Capacity/resourceProviders/${provider}/locations/${location}/serviceLimitsRequests/${id}`;
}
