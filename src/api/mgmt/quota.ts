// Quota (service limits, api-version 2020-10-25): read a quota, list the quotas of a provider and
// location, request a new limit (PATCH), and follow the request until it ends.
import { ServiceError } from '../../core/errors.js';
import { defaultSleep as sleep, parseRetryAfter } from '../../core/http.js';
import { resolveNextLink } from '../../core/paging.js';
import { checkRule, MGMT_API_VERSION, QUOTA_FAILED_STATES, QUOTA_FINAL_STATES, RULES } from '../../spec/mgmt.js';
import { seg, withApiVersion, type MgmtClient } from './client.js';

export interface Quota {
  id?: string;
  name?: string;
  type?: string;
  properties?: {
    limit?: number;
    unit?: string;
    currentValue?: number;
    name?: { value?: string; localizedValue?: string };
    quotaPeriod?: string;
    resourceType?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export interface QuotaRequest {
  id?: string;
  name?: string;
  type?: string;
  properties?: {
    provisioningState?: string;
    message?: string;
    requestSubmitTime?: string;
    value?: unknown[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

/** Where a quota lives: subscription, resource provider and location. */
export interface QuotaScope {
  subscription: string;
  provider: string;
  location: string;
}

function scopePath(c: MgmtClient, s: QuotaScope): string {
  return `/subscriptions/${seg(s.subscription)}/providers/${c.provider('quota')}/resourceProviders/${seg(s.provider)}/locations/${seg(s.location)}`;
}

export function quotaUrl(c: MgmtClient, s: QuotaScope, resourceName?: string, query: { $filter?: string } = {}): string {
  return c.url('quota', `${scopePath(c, s)}/serviceLimits${resourceName === undefined ? '' : `/${seg(resourceName)}`}`, query);
}

export function requestUrl(c: MgmtClient, s: QuotaScope, requestId?: string, query: { $filter?: string; $top?: number } = {}): string {
  return c.url('quota', `${scopePath(c, s)}/serviceLimitsRequests${requestId === undefined ? '' : `/${seg(requestId)}`}`, query);
}

export async function getQuota(c: MgmtClient, s: QuotaScope, resourceName: string): Promise<Quota> {
  return (await c.send({ method: 'GET', url: quotaUrl(c, s, resourceName) })).json<Quota>();
}

/** Every quota of the provider in the location (all pages; `filter` is sent as `$filter`). */
export function listQuotas(c: MgmtClient, s: QuotaScope, q: { filter?: string } = {}): AsyncGenerator<Quota> {
  return c.list<Quota>(quotaUrl(c, s, undefined, { $filter: q.filter }));
}

export function listRequests(c: MgmtClient, s: QuotaScope, q: { filter?: string; top?: number }): AsyncGenerator<QuotaRequest> {
  return c.list<QuotaRequest>(requestUrl(c, s, undefined, { $filter: q.filter, $top: q.top }), q.top);
}

export async function getRequest(c: MgmtClient, s: QuotaScope, requestId: string, url = requestUrl(c, s, requestId)): Promise<{ body: QuotaRequest; retryAfter?: string }> {
  const res = await c.send({ method: 'GET', url });
  return { body: res.json<QuotaRequest>(), retryAfter: res.headers['retry-after'] };
}

/** The PATCH body: the new limit with the unit and name of the current quota. */
export function patchBody(current: Quota, resourceName: string, limit: number): { properties: { limit: number; unit: string | undefined; name: { value: string } } } {
  return { properties: { limit, unit: current.properties?.unit, name: { value: current.properties?.name?.value ?? resourceName } } };
}

export interface SubmitResult {
  /** 200: the change is done; 201: accepted, follow the request */
  status: number;
  body: QuotaRequest;
  retryAfter?: string;
  /** a status URL from a Location header (same origin only; another one is ignored) */
  location?: string;
}

/** PATCH the quota. Never repeated after an ambiguous failure (exit 8 says how to check). */
export async function submitLimit(c: MgmtClient, s: QuotaScope, resourceName: string, body: object): Promise<SubmitResult> {
  const url = quotaUrl(c, s, resourceName);
  const res = await c.send({
    method: 'PATCH',
    url,
    body,
    describe: `quota change of ${resourceName}`,
    checkHint: `vx mgmt quota requests list --provider ${s.provider} --location ${s.location}`,
  });
  let location: string | undefined;
  if (res.headers.location) {
    try {
      location = withApiVersion(resolveNextLink(res.headers.location, url, new URL(url).origin), MGMT_API_VERSION.quota);
    } catch {
      // another origin (no credentials go there) or not a URL: the change was accepted all the
      // same, so it is followed at serviceLimitsRequests/{id} instead of failing here
      location = undefined;
    }
  }
  return { status: res.status, body: res.body.length ? res.json<QuotaRequest>() : {}, retryAfter: res.headers['retry-after'], location };
}

/**
 * The request id in a quota request body, or undefined. The accepted (201) body names it in `name`
 * and ends `id` with it; the status body has it as `id` and `name` is `<subscription>/<requestId>`.
 */
export function requestIdFrom(r: QuotaRequest): string | undefined {
  for (const v of [r.name, r.id]) {
    const last = typeof v === 'string' ? v.split('/').filter(Boolean).pop() : undefined;
    if (last && !checkRule(RULES.requestId, last)) return last;
  }
  return undefined;
}

/** The request id of an accepted change (see requestIdFrom); none is a service failure. */
export function requestIdOf(r: QuotaRequest): string {
  const id = requestIdFrom(r);
  if (!id) throw new ServiceError(`the service accepted the quota change but gave no usable request id (${JSON.stringify(r.name ?? r.id ?? null)})`);
  return id;
}

export function stateOf(r: QuotaRequest): string | undefined {
  const s = r.properties?.provisioningState;
  return typeof s === 'string' ? s : undefined;
}

export function isFinal(state: string | undefined): boolean {
  return Boolean(state && (QUOTA_FINAL_STATES as readonly string[]).includes(state));
}

export function isFailure(state: string | undefined): boolean {
  return Boolean(state && (QUOTA_FAILED_STATES as readonly string[]).includes(state));
}

export interface PollOptions {
  /** seconds between polls when the service sends no Retry-After */
  intervalSeconds: number;
  /** Retry-After of the answer that started the wait */
  retryAfter?: string;
  /** a status URL from the Location header */
  url?: string;
  signal?: AbortSignal;
  onState?: (state: string | undefined, r: QuotaRequest) => void;
  /** safety bound */
  maxPolls?: number;
}

const MAX_WAIT_MS = 120_000;

function waitMs(retryAfter: string | undefined, intervalSeconds: number): number {
  const ra = parseRetryAfter(retryAfter);
  return Math.min(ra ?? intervalSeconds * 1000, MAX_WAIT_MS);
}

/** Polls `serviceLimitsRequests/{id}` (or the Location URL) until Succeeded, Failed or Invalid, honouring Retry-After. */
export async function pollRequest(c: MgmtClient, s: QuotaScope, requestId: string, o: PollOptions): Promise<QuotaRequest> {
  let retryAfter = o.retryAfter;
  const max = o.maxPolls ?? 10_000;
  for (let i = 0; i < max; i++) {
    await sleep(waitMs(retryAfter, o.intervalSeconds), o.signal);
    const { body, retryAfter: ra } = await getRequest(c, s, requestId, o.url);
    const state = stateOf(body);
    o.onState?.(state, body);
    if (isFinal(state)) return body;
    retryAfter = ra;
  }
  throw new ServiceError(`the quota request ${requestId} did not end after ${max} status reads`);
}
