// Quota (service limits, api-version 2020-10-25): read a quota, list the quotas of a provider and
// location, request a new limit (PATCH), and follow the request until it ends.
import { EXIT, isVxError, ServiceError, type VxError } from '../../core/errors.js';
import { POLL_FLOOR_MS, pollDelay } from '../../core/poll.js';
import { systemClock, type Clock } from '../../core/clock.js';
import { resolveNextLink } from '../../core/paging.js';
import { ASYNC_OPERATION_HEADERS, checkRule, MGMT_API_VERSION, OPERATION_FINAL_STATUSES, QUOTA_FAILED_STATES, QUOTA_FINAL_STATES, RULES } from '../../model/mgmt.js';
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
export function listQuotas(c: MgmtClient, s: QuotaScope, q: { filter?: string; max?: number } = {}): AsyncGenerator<Quota> {
  return c.list<Quota>(quotaUrl(c, s, undefined, { $filter: q.filter }), q.max);
}

export function listRequests(c: MgmtClient, s: QuotaScope, q: { filter?: string; top?: number }): AsyncGenerator<QuotaRequest> {
  return c.list<QuotaRequest>(requestUrl(c, s, undefined, { $filter: q.filter, $top: q.top }), q.top);
}

/** A quota request that is still running (Accepted or InProgress), as the list of requests shows it. */
export interface RunningRequest {
  requestId: string;
  state: string;
  /** the limit it asks (when the list says) */
  limit?: number;
  body: QuotaRequest;
}

/** how many of a location's latest quota requests are looked through for running ones */
export const RECENT_REQUESTS = 50;

/**
 * The running requests of a location's quotas, by quota name (lower case), from its latest
 * RECENT_REQUESTS requests; for a quota with several, the latest.
 */
export async function runningRequests(c: MgmtClient, s: QuotaScope): Promise<Map<string, RunningRequest>> {
  const running = new Map<string, RunningRequest>();
  for await (const r of listRequests(c, s, { top: RECENT_REQUESTS })) {
    const state = stateOf(r);
    const id = requestIdFrom(r);
    if (!id || (state !== 'InProgress' && state !== 'Accepted')) continue;
    for (const v of Array.isArray(r.properties?.value) ? (r.properties!.value as { name?: { value?: string }; limit?: unknown }[]) : []) {
      const name = v?.name?.value?.toLowerCase();
      // the latest first: an older running request of the same quota does not replace it
      if (name && !running.has(name)) running.set(name, { requestId: id, state, limit: typeof v.limit === 'number' ? v.limit : undefined, body: r });
    }
  }
  return running;
}

/**
 * Reads a quota request. `running` is true for a 202 (the long-running operation pattern of the
 * resource manager: a status URL from Location answers 202, often with no body, until the
 * operation ends); its body, if any, is kept but its state cannot end the wait.
 */
export async function getRequest(c: MgmtClient, s: QuotaScope, requestId: string, url = requestUrl(c, s, requestId)): Promise<{ body: QuotaRequest; retryAfter?: string; running: boolean }> {
  const res = await c.send({ method: 'GET', url });
  const running = res.status === 202;
  const body = running && !res.body.length ? {} : res.json<QuotaRequest>();
  return { body, retryAfter: res.headers['retry-after'], running };
}

/** The PATCH body: the new limit with the unit and name of the current quota. */
export function patchBody(current: Quota, resourceName: string, limit: number): { properties: { limit: number; unit: string | undefined; name: { value: string } } } {
  return { properties: { limit, unit: current.properties?.unit, name: { value: current.properties?.name?.value ?? resourceName } } };
}

export interface SubmitResult {
  /** 200: the change is done; 201 (or 202): accepted, follow the request */
  status: number;
  /** 201 or 202: the change was accepted and runs on; the request is to be followed */
  accepted: boolean;
  body: QuotaRequest;
  retryAfter?: string;
  /** a status URL from a Location header (same origin only; another one is ignored) */
  location?: string;
  /** the operation resource from the async-operation header (same origin only), polled before Location */
  asyncOperation?: string;
}

/** PATCH the quota. Never repeated after an ambiguous failure (exit 8 says how to check). */
export async function submitLimit(c: MgmtClient, s: QuotaScope, resourceName: string, body: object): Promise<SubmitResult> {
  const url = quotaUrl(c, s, resourceName);
  const res = await c.send({
    method: 'PATCH',
    url,
    body,
    describe: `quota change of ${resourceName}`,
    checkHint: `vx mgmt quota requests list --provider ${s.provider} --location ${s.location} --subscription ${s.subscription}`,
  });
  // 202 Accepted is the resource manager's usual answer to a long-running change: like 201, it is
  // not done yet (treating it as "done" would report a change that may still fail)
  const accepted = res.status === 201 || res.status === 202;
  const asyncHeader = ASYNC_OPERATION_HEADERS.map((h) => res.headers[h]).find(Boolean);
  return {
    status: res.status,
    accepted,
    body: res.body.length ? res.json<QuotaRequest>() : {},
    retryAfter: res.headers['retry-after'],
    location: statusUrl(res.headers.location, url),
    asyncOperation: statusUrl(asyncHeader, url),
  };
}

/**
 * A status URL the service handed out (Location, the async-operation header), resolved against the
 * request and given the api-version; undefined when absent, not a URL or on another origin (no
 * credentials go there): the change was accepted all the same and is followed at
 * serviceLimitsRequests/{id} instead of failing here.
 */
function statusUrl(header: string | undefined, requestUrl: string): string | undefined {
  if (!header) return undefined;
  try {
    return withApiVersion(resolveNextLink(header, requestUrl, new URL(requestUrl).origin), MGMT_API_VERSION.quota);
  } catch {
    return undefined;
  }
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

/** The request id in a status URL (`.../serviceLimitsRequests/{id}`), or undefined. */
function requestIdInUrl(url: string | undefined): string | undefined {
  const m = url ? /\/serviceLimitsRequests\/([^/?#]+)/i.exec(new URL(url).pathname) : null;
  if (!m) return undefined;
  const id = decodeURIComponent(m[1]!);
  return checkRule(RULES.requestId, id) ? undefined : id;
}

/**
 * The request id of an accepted change (see requestIdFrom; for a 202 without a body, the id at the
 * end of its Location); none is a service failure.
 */
export function requestIdOf(r: QuotaRequest, location: string | undefined, s: QuotaScope): string {
  const id = requestIdFrom(r) ?? requestIdInUrl(location);
  if (!id) {
    // the change runs on all the same: say where its request can be found
    throw new ServiceError(
      `the service accepted the quota change but gave no usable request id (${JSON.stringify(r.name ?? r.id ?? null)}); find the request with: vx mgmt quota requests list --provider ${s.provider} --location ${s.location} --subscription ${s.subscription}`,
    );
  }
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
  /**
   * the operation resource of the async-operation header: read (200, `status`) until it ends, then
   * the request is read (at `url`, else serviceLimitsRequests/{id}) for its result
   */
  asyncUrl?: string;
  signal?: AbortSignal;
  onState?: (state: string | undefined, r: QuotaRequest) => void;
  /** the longest the whole wait may take, in seconds (--wait-timeout; default DEFAULT_WAIT_TIMEOUT_S) */
  timeoutSeconds?: number;
  /** the shortest pause between two reads (default POLL_FLOOR_MS; VX_POLL_FLOOR_MS changes it for tests) */
  floorMs?: number;
  /** the clock of the waits and the timeout (the run's; a test's fake one) */
  clock?: Clock;
}

/** --wait-timeout's default: half an hour (a quota increase normally ends within minutes) */
export const DEFAULT_WAIT_TIMEOUT_S = 1800;

/**
 * 404s tolerated on the first status reads of a just-created request or operation resource: the
 * resource manager replicates a new one with a lag (its RPC: a poller tolerates a brief 404 there),
 * so a read right after the 201/202 may not find it yet. Such a read is repeated after 1, 2, 4, 8
 * and 16 s (the poll floor doubled: about 30 s in all, within --wait-timeout); once the resource
 * has been read, a 404 is an error like any other.
 */
export const NOT_FOUND_RETRIES = 5;

/**
 * The service accepted the change but never showed its request (every read answered 404): exit 1,
 * not 4 (the change goes on), and the message says how to find it.
 */
export class RequestNotShownError extends ServiceError {}

/**
 * Polls `serviceLimitsRequests/{id}` (or the Location URL) until Succeeded, Failed or Invalid,
 * honouring Retry-After within pollDelay's floor and back-off, and giving up after
 * `timeoutSeconds` with a ServiceError (exit 1) that names the request and its last state (the
 * caller prints how to follow it). A brief 404 right after the change was accepted is read again
 * (NOT_FOUND_RETRIES); one that lasts ends with RequestNotShownError. The policy every quota wait
 * uses (set, wizard, apply).
 */
export async function pollRequest(c: MgmtClient, s: QuotaScope, requestId: string, o: PollOptions): Promise<QuotaRequest> {
  const poll = new RequestPoll(c, s, requestId, o);
  for (let k = 0; ; k++) {
    const left = poll.timeout - (poll.clock.now() - poll.started);
    if (left <= 0) throw poll.timedOut(k);
    await poll.clock.sleep(Math.min(poll.delay(k), left), o.signal);
    try {
      const done = await poll.read();
      if (done) return done;
    } catch (e) {
      poll.missed(e);
    }
  }
}

/** One wait for a quota request: what has been read of it and of its operation resource. */
class RequestPoll {
  retryAfter: string | undefined;
  readonly floor: number;
  readonly timeout: number;
  readonly clock: Clock;
  readonly started: number;
  state: string | undefined;
  /**
   * the operation resource first (it takes precedence over Location); when it has ended, the
   * request itself is read at once for the result
   */
  operation: string | undefined;
  operationEnded: { status: string; error?: string } | undefined;
  /** 404s of a resource not read yet (replication lag), and which of the two has been read */
  misses = 0;
  lastMiss: VxError | undefined;
  readonly seen = { operation: false, request: false };

  constructor(
    private readonly c: MgmtClient,
    private readonly s: QuotaScope,
    private readonly requestId: string,
    private readonly o: PollOptions,
  ) {
    this.retryAfter = o.retryAfter;
    this.floor = o.floorMs ?? POLL_FLOOR_MS;
    this.timeout = (o.timeoutSeconds ?? DEFAULT_WAIT_TIMEOUT_S) * 1000;
    this.clock = o.clock ?? systemClock;
    this.started = this.clock.now();
    this.operation = o.asyncUrl;
  }

  /** The wait before read `k`: the back-off of a 404, else pollDelay's. */
  delay(k: number): number {
    return this.lastMiss ? this.floor * 2 ** (this.misses - 1) : pollDelay(k - this.misses, this.retryAfter, this.o.intervalSeconds, this.floor);
  }

  timedOut(k: number): VxError {
    if (this.lastMiss) return this.notShown();
    return new ServiceError(
      `quota request ${this.requestId} did not end within --wait-timeout ${Math.round(this.timeout / 1000)} s (last state ${this.state ?? 'unknown'}, ${k} status read${k === 1 ? '' : 's'}); the change was accepted and goes on`,
    );
  }

  notShown(): RequestNotShownError {
    const { misses, s } = this;
    return new RequestNotShownError(
      `the quota change was accepted (request ${this.requestId}), but the service did not show its status: ${misses} read${misses === 1 ? '' : 's'} over ${Math.round((this.clock.now() - this.started) / 1000)} s answered 404${this.lastMiss?.code ? ` ${this.lastMiss.code}` : ''}; the change goes on; find its request with: vx mgmt quota requests list --provider ${s.provider} --location ${s.location} --subscription ${s.subscription}`,
    );
  }

  /** One round of reads: the request once it has ended, else undefined (poll again). */
  async read(): Promise<QuotaRequest | undefined> {
    const { o, requestId } = this;
    if (this.operation) {
      const op = await getOperation(this.c, this.operation);
      this.seen.operation = true;
      this.lastMiss = undefined;
      this.retryAfter = op.retryAfter;
      if (!op.ended) {
        this.state = op.status ?? 'InProgress';
        o.onState?.(this.state, {});
        return undefined;
      }
      this.operation = undefined;
      this.operationEnded = { status: op.status!, error: op.error };
    }
    const { body, retryAfter, running } = await getRequest(this.c, this.s, requestId, o.url);
    this.seen.request = true;
    this.lastMiss = undefined;
    const state = running ? (isFinal(stateOf(body)) ? undefined : stateOf(body)) ?? 'InProgress' : stateOf(body);
    this.state = state;
    o.onState?.(state, body);
    if (!running && isFinal(state)) return body;
    // the operation failed or was cancelled and the request does not say how it ended: the operation's error is the outcome
    const ended = this.operationEnded;
    if (ended && ended.status !== 'Succeeded') {
      throw new ServiceError(`quota request ${requestId}: its operation ended ${ended.status}${ended.error ? `: ${ended.error}` : ''} (the request reads ${state ?? 'no state'})`);
    }
    this.operationEnded = undefined;
    this.retryAfter = retryAfter;
    return undefined;
  }

  /** A failed read: a 404 of a resource not read yet counts as a miss (up to NOT_FOUND_RETRIES); anything else ends the wait. */
  missed(e: unknown): void {
    // a resource already read that answers 404 now is gone: that is no lag
    if (!isVxError(e) || e.exitCode !== EXIT.notFound || this.seen[this.operation ? 'operation' : 'request']) throw e;
    this.misses += 1;
    this.lastMiss = e;
    if (this.misses > NOT_FOUND_RETRIES) throw this.notShown();
  }
}

/**
 * Reads an operation resource (the async-operation header's URL): 200 with `status`; the RPC's
 * terminal states Succeeded, Failed and Canceled end it (any case), any other value means it runs.
 */
async function getOperation(c: MgmtClient, url: string): Promise<{ ended: boolean; status?: string; error?: string; retryAfter?: string }> {
  const res = await c.send({ method: 'GET', url });
  const body = res.status === 202 && !res.body.length ? {} : res.json<{ status?: unknown; error?: { code?: unknown; message?: unknown } }>();
  const raw = typeof body.status === 'string' && body.status ? body.status : undefined;
  const final = raw && OPERATION_FINAL_STATUSES.find((f) => f.toLowerCase() === raw.toLowerCase());
  const e = body.error && typeof body.error === 'object' ? body.error : undefined;
  const error = e ? [e.code, e.message].filter((v) => typeof v === 'string' && v).join(': ') || undefined : undefined;
  return { ended: res.status !== 202 && Boolean(final), status: final ?? raw, error, retryAfter: res.headers['retry-after'] };
}
