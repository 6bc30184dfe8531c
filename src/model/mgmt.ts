// The resource-management families as data read from the specification (3-mgmt.md and the notes):
// api-versions, provider namespaces, the rules every path segment and field must follow, the
// enumerations, and the ranking of health events. Pure data and pure functions, shared by the
// client (api/mgmt) and the emulator.

export const MGMT_API_VERSION = {
  health: '2025-05-01',
  quota: '2020-10-25',
  versionSets: '2024-05-01',
} as const;

/** The provider below the namespace prefix (`Vendor.` unless configured otherwise). */
export const MGMT_PROVIDER = {
  health: 'ResourceHealth',
  quota: 'Capacity',
  versionSets: 'ApiManagement',
} as const;

export const DEFAULT_NAMESPACE = 'Vendor';

export const INT32_MAX = 2_147_483_647;

// ---- enumerations ----

export const EVENT_TYPES = ['ServiceIssue', 'PlannedMaintenance', 'HealthAdvisory', 'RCA', 'EmergingIssues', 'SecurityAdvisory', 'Billing'] as const;

/** the states a quota request ends in */
export const QUOTA_FINAL_STATES = ['Succeeded', 'Failed', 'Invalid'] as const;
/** the final states that are failures (exit 1) */
export const QUOTA_FAILED_STATES = ['Failed', 'Invalid'] as const;

/**
 * The long-running operation headers of the resource manager (notes.md: "a Location header (or an
 * async-operation status URL header)"). The async-operation header names an operation resource
 * that answers 200 with `status`; per the resource manager's conventions (its RPC, and the SDKs'
 * polling) it takes precedence over Location for the status, and Location (the quota API's
 * final-state-via) gives the result. `Vendor-AsyncOperation` is the neutralised name, like the
 * other `Vendor-` headers; `Azure-AsyncOperation` is what the real resource manager sends.
 */
export const ASYNC_OPERATION_HEADERS = ['vendor-asyncoperation', 'azure-asyncoperation'] as const;
/** the `status` values that end an operation resource (the RPC's terminal states) */
export const OPERATION_FINAL_STATUSES = ['Succeeded', 'Failed', 'Canceled'] as const;

export const VERSIONING_SCHEMES = ['Segment', 'Query', 'Header'] as const;
export type VersioningScheme = (typeof VERSIONING_SCHEMES)[number];

// ---- rules of path segments and fields ----

export interface Rule {
  /** what the value is, e.g. "service name" */
  label: string;
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** the pattern as the spec writes it, for messages */
  patternText?: string;
  /** a plain-words reading of the pattern */
  patternHelp?: string;
  uuid?: boolean;
  /** the value becomes one path segment: `/`, `\`, `?`, `#`, `%` and control characters are refused */
  segment?: boolean;
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const UNSAFE_IN_SEGMENT = /[/\\?#%\u0000-\u001f\u007f]/;

export const RULES = {
  /** version sets: a UUID */
  subscriptionUuid: { label: 'subscription id', uuid: true } as Rule,
  /** events and quota: a string of at least one character */
  subscription: { label: 'subscription id', min: 1, segment: true } as Rule,
  resourceGroup: { label: 'resource group name', min: 1, max: 90, segment: true } as Rule,
  serviceName: {
    label: 'service name',
    min: 1,
    max: 50,
    pattern: /^[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/,
    patternText: '^[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$',
    patternHelp: 'letters, digits and hyphens, starting with a letter and not ending with a hyphen',
  } as Rule,
  versionSetId: {
    label: 'version set id',
    min: 1,
    max: 80,
    pattern: /^[^*#&+:<>?]+$/,
    patternText: '^[^*#&+:<>?]+$',
    patternHelp: 'none of * # & + : < > ?',
    segment: true,
  } as Rule,
  displayName: { label: 'display name', min: 1, max: 100 } as Rule,
  headerName: { label: 'version header name', min: 1, max: 100 } as Rule,
  queryName: { label: 'version query parameter name', min: 1, max: 100 } as Rule,
  providerId: {
    label: 'resource provider id',
    min: 3,
    max: 100,
    pattern: /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)+$/,
    patternText: '^[A-Za-z][A-Za-z0-9]*(\\.[A-Za-z][A-Za-z0-9]*)+$',
    patternHelp: 'dotted names such as Vendor.Compute',
  } as Rule,
  location: {
    label: 'location',
    min: 1,
    max: 64,
    pattern: /^[A-Za-z0-9][A-Za-z0-9-]*$/,
    patternText: '^[A-Za-z0-9][A-Za-z0-9-]*$',
    patternHelp: 'a region name of letters, digits and hyphens such as eastus',
  } as Rule,
  resourceName: { label: 'quota resource name', min: 1, max: 260, segment: true } as Rule,
  requestId: { label: 'quota request id', min: 1, max: 260, segment: true } as Rule,
  trackingId: {
    label: 'tracking id',
    min: 1,
    max: 100,
    pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
    patternText: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
    patternHelp: 'letters, digits, _ . and -',
  } as Rule,
} as const;

export type RuleName = keyof typeof RULES;

/**
 * Checks a value against a rule. Returns undefined when it holds, else the rule that is broken,
 * worded for a message ("must be 1 to 50 characters").
 */
export function checkRule(rule: Rule, value: string): string | undefined {
  if (rule.uuid) return UUID.test(value) ? undefined : 'must be a UUID (8-4-4-4-12 hexadecimal digits)';
  const len = [...value].length;
  if ((rule.min !== undefined && len < rule.min) || (rule.max !== undefined && len > rule.max)) {
    const range = rule.min !== undefined && rule.max !== undefined ? `${rule.min} to ${rule.max}` : rule.min !== undefined ? `at least ${rule.min}` : `at most ${rule.max}`;
    return `must be ${range} characters long (it has ${len})`;
  }
  if (rule.pattern && !rule.pattern.test(value)) return `must match the pattern ${rule.patternText}${rule.patternHelp ? ` (${rule.patternHelp})` : ''}`;
  if (rule.segment && UNSAFE_IN_SEGMENT.test(value)) return 'must fit in one URL path segment: no / \\ ? # % or control characters';
  if (!rule.uuid && value.trim() !== value) return 'may not start or end with white space';
  return undefined;
}

/** `value` as a whole int32 of at least `min`, else the rule broken. */
export function checkInt32(text: string, min = 0): { value?: number; error?: string } {
  const t = text.trim();
  if (!/^-?\d+$/.test(t)) return { error: 'must be a whole number' };
  const n = Number(t);
  if (n > INT32_MAX) return { error: `must be at most ${INT32_MAX} (a 32-bit integer)` };
  if (n < min) return { error: `must be at least ${min}` };
  return { value: n };
}

// ---- health events: paths and ranking ----

/**
 * A resource id as the by-resource events list accepts it: without nesting
 * `/subscriptions/<s>/resourceGroups/<g>/providers/<provider>/<type>/<name>` or with one nesting
 * level `.../<parent_type>/<parent_name>/<type>/<name>`.
 */
export interface ResourceId {
  subscription: string;
  resourceGroup: string;
  provider: string;
  /** type/name pairs, one or two */
  types: { type: string; name: string }[];
}

/** Parses a resource id; returns a message naming the broken rule when it is not one. */
export function parseResourceId(uri: string): ResourceId | string {
  const segs = uri.replace(/^\/+/, '').replace(/\/+$/, '').split('/');
  const shape = '/subscriptions/<id>/resourceGroups/<group>/providers/<provider>/<type>/<name> (one more <type>/<name> pair for a nested resource)';
  if (segs.length !== 8 && segs.length !== 10) return `must have the form ${shape}`;
  if (segs[0].toLowerCase() !== 'subscriptions' || segs[2].toLowerCase() !== 'resourcegroups' || segs[4].toLowerCase() !== 'providers') return `must have the form ${shape}`;
  for (const s of segs) if (!s) return `must have the form ${shape} with no empty segments`;
  const sub = checkRule(RULES.subscription, segs[1]);
  if (sub) return `subscription id ${sub}`;
  const rg = checkRule(RULES.resourceGroup, segs[3]);
  if (rg) return `resource group name ${rg}`;
  const pv = checkRule(RULES.providerId, segs[5]);
  if (pv) return `provider ${pv}`;
  const types: { type: string; name: string }[] = [];
  for (let i = 6; i < segs.length; i += 2) {
    for (const s of [segs[i], segs[i + 1]]) {
      if (UNSAFE_IN_SEGMENT.test(s) || /\s/.test(s)) return `segment "${s}" may not hold white space, \\ ? # % or control characters`;
    }
    types.push({ type: segs[i], name: segs[i + 1] });
  }
  return { subscription: segs[1], resourceGroup: segs[3], provider: segs[5], types };
}

/** The resource id in its canonical form (leading slash, no trailing slash). */
export function resourceIdPath(r: ResourceId): string {
  return `/subscriptions/${r.subscription}/resourceGroups/${r.resourceGroup}/providers/${r.provider}${r.types.map((t) => `/${t.type}/${t.name}`).join('')}`;
}

const TYPE_RANK: Record<string, number> = { ServiceIssue: 0, PlannedMaintenance: 1, HealthAdvisory: 2 };
const LEVEL_RANK: Record<string, number> = { Critical: 0, Error: 1, Warning: 2, Informational: 3 };

/**
 * The priority (0 = highest, 23 = lowest) the spec describes: service issue above planned
 * maintenance, then health advisory (other types after); critical above error, warning,
 * informational; active above resolved. 3 types x 4 levels x 2 statuses = 24 ranks.
 */
export function eventPriority(e: { eventType?: string; eventLevel?: string; status?: string }): number {
  const t = TYPE_RANK[e.eventType ?? ''] ?? 2;
  const l = LEVEL_RANK[e.eventLevel ?? ''] ?? 3;
  const s = e.status === 'Resolved' ? 1 : 0;
  return t * 8 + l * 2 + s;
}
