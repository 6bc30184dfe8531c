// The work behind `vx mgmt`: every input is checked against the spec's rules before anything is
// sent, then thin adapters call the api/mgmt functions and hand the results to the output.
import { MgmtClient, resolveSegment, resolveSubscription } from '../api/mgmt/client.js';
import { eventDetails, impactedRegions, impactedServices, listEvents, sortByPriority, type HealthEvent } from '../api/mgmt/health.js';
import {
  getQuota,
  getRequest,
  isFailure,
  listRequests,
  patchBody,
  DEFAULT_WAIT_TIMEOUT_S,
  pollRequest,
  RequestNotShownError,
  quotaUrl,
  requestIdFrom,
  requestIdOf,
  requestUrl,
  RECENT_REQUESTS,
  runningRequests,
  stateOf,
  submitLimit,
  type Quota,
  type QuotaRequest,
  type QuotaScope,
  type RunningRequest,
} from '../api/mgmt/quota.js';
import { checkCount, checkFilter, checkIfMatch, checkLimit, checkResourceAndSubscription, checkSegment, requestRef, sinceToQueryStartTime } from '../api/mgmt/validate.js';
import {
  currentEtag,
  deleteVersionSet,
  ETAG_PLACEHOLDER,
  getVersionSet,
  listVersionSets,
  mergeProperties,
  putVersionSet,
  schemeProblem,
  type ServiceScope,
  type VersionSet,
  type VersionSetProps,
  versionSetUrl,
} from '../api/mgmt/versionsets.js';
import type { Ctx } from '../core/context.js';
import { unescapeHtml } from '../api/translator/files/protect.js';
import { pollInterval, waitTimeoutSeconds } from './poll.js';
import type { EventsListOpts, QuotaOpts, QuotaSetOpts, RequestsListOpts, ServiceOpts, SubOpts, VsCreateOpts, VsDeleteOpts, VsListOpts, VsUpdateOpts } from './mgmt.js';
import { asVxError, ConflictError, NotFoundError, ServiceError, UsageError, VxError } from '../core/errors.js';
import { isTable, shortTime, type Column } from '../core/output/index.js';
import { startSpinner } from '../core/progress.js';
import { confirmDestructive } from '../core/prompt.js';

// ---------------------------------------------------------------- health events

export { shortTime };

export const EVENT_COLUMNS: Column[] = [
  { header: 'Tracking id', get: 'name', keep: true },
  { header: 'Title', get: 'properties.title', primary: true },
  { header: 'Type', get: 'properties.eventType', optional: true },
  { header: 'Level', get: 'properties.eventLevel' },
  { header: 'Status', get: 'properties.status' },
  { header: 'Services', get: (e: HealthEvent) => impactedServices(e), optional: true },
  { header: 'Regions', get: (e: HealthEvent) => impactedRegions(e), optional: true },
  { header: 'Start', get: (e: HealthEvent) => shortTime(e.properties?.impactStartTime), raw: 'properties.impactStartTime', optional: true },
  { header: 'Last update', get: (e: HealthEvent) => shortTime(e.properties?.lastUpdateTime), raw: 'properties.lastUpdateTime', keep: true },
];

/** true when the output is one of the human formats whose rows we may order for reading */
function humanRows(ctx: Ctx): boolean {
  const f = ctx.format();
  return !ctx.globals.query && (isTable(f) || f === 'tsv' || f === 'text');
}

export async function runEventsList(ctx: Ctx, opts: EventsListOpts): Promise<void> {
  const filter = checkFilter(opts.filter);
  const top = checkCount('--top', opts.top, 1);
  const resource = checkResourceAndSubscription(opts.resource, opts.subscription);
  if (resource && opts.since !== undefined) throw new UsageError('--since works with the subscription list only (the service has no start time for --resource); nothing was sent');
  const queryStartTime = opts.since === undefined ? undefined : sinceToQueryStartTime(opts.since);
  const subscription = resource ? undefined : resolveSubscription(ctx.config, opts.subscription);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const events: HealthEvent[] = [];
  // a table (tsv, text) shows the highest priority first, so its --top is the n highest: every page
  // is read, sorted, then cut; data formats keep the service's order and stop reading at n
  const sorted = humanRows(ctx);
  const cap = sorted ? undefined : top;
  // --active filters here (the filter grammar of the service is not documented), so --top counts after it
  for await (const e of listEvents(c, subscription, { resource, filter, queryStartTime, max: opts.active ? undefined : cap })) {
    if (opts.active && e.properties?.status !== 'Active') continue;
    events.push(e);
    if (cap !== undefined && events.length >= cap) break;
  }
  await ctx.print(sorted ? sortByPriority(events).slice(0, top) : events, { columns: EVENT_COLUMNS, empty: 'no health events' });
}

/** A readable view of one event for the table format. */
export function eventView(e: HealthEvent): Record<string, unknown> {
  const p = e.properties ?? {};
  const text = (v: unknown) =>
    typeof v === 'string' ? unescapeHtml(v.replace(/<\/?(p|br|div|li|ul|ol|h\d)\b[^>]*>/gi, ' ').replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim() : v;
  const view: Record<string, unknown> = {
    trackingId: e.name,
    title: p.title,
    eventType: p.eventType,
    eventLevel: p.eventLevel,
    status: p.status,
    priority: p.priority,
    services: impactedServices(e),
    regions: impactedRegions(e),
    impactStartTime: p.impactStartTime,
    impactMitigationTime: p.impactMitigationTime,
    lastUpdateTime: p.lastUpdateTime,
    sensitive: p.isEventSensitive,
    header: text(p.header),
    summary: text(p.summary),
    description: text(p.description),
  };
  for (const k of Object.keys(view)) if (view[k] === undefined || view[k] === '') delete view[k];
  return view;
}

export async function runEventDetails(ctx: Ctx, opts: SubOpts, trackingId: string): Promise<void> {
  checkSegment('trackingId', trackingId, 'tracking id');
  const subscription = resolveSubscription(ctx.config, opts.subscription);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const event = await eventDetails(c, subscription, trackingId);
  await ctx.print(isTable(ctx.format()) && !ctx.globals.query ? eventView(event) : event);
}

// ---------------------------------------------------------------- quota

/** subscription, provider and location: flag > env > profile, each checked against its rule. */
export function quotaScope(ctx: Ctx, opts: QuotaOpts): QuotaScope {
  const provider = resolveSegment(ctx.config, 'mgmt.provider', opts.provider, '--provider', 'providerId', 'the resource provider id');
  const location = resolveSegment(ctx.config, 'mgmt.location', opts.location, '--location', 'location', 'the location');
  const subscription = resolveSubscription(ctx.config, opts.subscription);
  return { subscription, provider, location };
}

export function percentUsed(q: Quota): string {
  const limit = q.properties?.limit;
  const used = q.properties?.currentValue;
  if (typeof limit !== 'number' || typeof used !== 'number') return '';
  if (limit === 0) return used > 0 ? '100%+' : '0%';
  return `${(Math.round((used / limit) * 1000) / 10).toString()}%`;
}

export const QUOTA_COLUMNS: Column[] = [
  { header: 'Name', get: (q: Quota) => q.properties?.name?.value ?? q.name, keep: true },
  { header: 'Display name', get: 'properties.name.localizedValue', optional: true },
  { header: 'Limit', get: 'properties.limit', align: 'right' },
  { header: 'Usage', get: 'properties.currentValue', align: 'right' },
  { header: 'Used', get: (q: Quota) => percentUsed(q), align: 'right' },
  { header: 'Unit', get: 'properties.unit' },
  { header: 'Period', get: 'properties.quotaPeriod', optional: true },
];

export const REQUEST_COLUMNS: Column[] = [
  { header: 'Request id', get: (r: QuotaRequest) => requestIdFrom(r), keep: true },
  { header: 'State', get: 'properties.provisioningState' },
  { header: 'Submitted', get: (r: QuotaRequest) => shortTime(r.properties?.requestSubmitTime), raw: 'properties.requestSubmitTime', keep: true },
  {
    header: 'Limits',
    get: (r: QuotaRequest) =>
      (Array.isArray(r.properties?.value) ? (r.properties!.value as { name?: { value?: string }; limit?: number }[]) : [])
        .map((v) => `${v?.name?.value ?? '?'}=${v?.limit ?? '?'}`)
        .join(', '),
    optional: true,
  },
  { header: 'Message', get: 'properties.message' },
];

export async function runQuotaGet(ctx: Ctx, opts: QuotaOpts, resourceName: string): Promise<void> {
  checkSegment('resourceName', resourceName, 'quota resource name');
  const scope = quotaScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  await ctx.print(await getQuota(c, scope, resourceName), { columns: QUOTA_COLUMNS });
}

/** --wait-timeout of the quota commands: default half an hour */
export function waitTimeout(value: string | undefined): number {
  return waitTimeoutSeconds(value, DEFAULT_WAIT_TIMEOUT_S);
}

function progressLine(ctx: Ctx, m: string): void {
  if (ctx.globals.verbose && !ctx.stderrIsTTY) ctx.info(m);
}

/**
 * Sends the PATCH and, on 201, follows the request (spinner on a terminal) unless `wait` is false.
 * Returns the final (or accepted) request; a Failed or Invalid end is printed, then exit 1.
 */
export async function applyLimit(
  ctx: Ctx,
  c: MgmtClient,
  scope: QuotaScope,
  resourceName: string,
  current: Quota,
  limit: number,
  o: {
    wait: boolean;
    intervalSeconds: number;
    timeoutSeconds?: number;
    /** filled in as it goes: the change was accepted (it runs on), and its request has ended */
    progress?: { accepted: boolean; ended: boolean };
  },
): Promise<void> {
  // the subscription too: a request is found only in its own subscription, and the one of this
  // run may have come from a flag the person will not think of repeating
  const where = `--provider ${scope.provider} --location ${scope.location} --subscription ${scope.subscription}`;
  const submitted = await submitLimit(c, scope, resourceName, patchBody(current, resourceName, limit));
  if (!submitted.accepted) {
    if (o.progress) o.progress.ended = true;
    const state = stateOf(submitted.body);
    await ctx.print(submitted.body, { columns: REQUEST_COLUMNS });
    if (isFailure(state)) throw new ServiceError(`the quota change of ${resourceName} ended ${state}: ${submitted.body.properties?.message ?? 'no reason given'}`);
    if (ctx.stderrIsTTY) ctx.info(`the limit of ${resourceName} in ${scope.location} is now ${limit}`);
    return;
  }
  if (o.progress) o.progress.accepted = true;
  const id = requestIdOf(submitted.body, submitted.location, scope);
  if (!o.wait) {
    await ctx.print(submitted.body, { columns: REQUEST_COLUMNS });
    // the id is in the printed request; an accepted answer without a body (202) has it only here
    if (ctx.stderrIsTTY || !requestIdFrom(submitted.body)) ctx.info(`quota request ${id} accepted (${stateOf(submitted.body) ?? 'no state'}); follow it with: vx mgmt quota requests get ${id} ${where}`);
    return;
  }
  await followRequest(ctx, c, scope, resourceName, limit, id, stateOf(submitted.body) ?? 'Accepted', { retryAfter: submitted.retryAfter, url: submitted.location, asyncUrl: submitted.asyncOperation }, o);
}

/** Follows an accepted (or already running) request to its end (spinner on a terminal); Failed or Invalid is printed, then exit 1. */
async function followRequest(
  ctx: Ctx,
  c: MgmtClient,
  scope: QuotaScope,
  resourceName: string,
  limit: number,
  id: string,
  initialState: string,
  from: { retryAfter?: string; url?: string; asyncUrl?: string },
  o: { intervalSeconds: number; timeoutSeconds?: number; progress?: { accepted: boolean; ended: boolean } },
): Promise<void> {
  const where = `--provider ${scope.provider} --location ${scope.location} --subscription ${scope.subscription}`;
  const spinner = startSpinner(ctx.io.stderr, `quota request ${id}: ${initialState}`);
  progressLine(ctx, `quota request ${id}: ${initialState}`);
  let final: QuotaRequest;
  try {
    final = await pollRequest(c, scope, id, {
      intervalSeconds: o.intervalSeconds,
      timeoutSeconds: o.timeoutSeconds,
      ...from,
      signal: ctx.signal,
      onState: (state) => {
        spinner.update(`quota request ${id}: ${state ?? 'unknown'}`);
        progressLine(ctx, `quota request ${id}: ${state ?? 'unknown'}`);
      },
    });
  } catch (e) {
    spinner.stop();
    // interrupted, or a status read failed: the change was accepted all the same (a request the
    // service never showed: the error says so and how to find it)
    if (!(e instanceof RequestNotShownError)) ctx.info(`quota request ${id} was submitted; follow it with: vx mgmt quota requests get ${id} ${where}`);
    throw e;
  }
  if (o.progress) o.progress.ended = true;
  const state = stateOf(final);
  spinner.stop(ctx.stderrIsTTY ? `quota request ${id}: ${state}` : undefined);
  await ctx.print(final, { columns: REQUEST_COLUMNS });
  if (isFailure(state)) throw new ServiceError(`quota request ${id} ended ${state}: ${final.properties?.message ?? 'no reason given'}`);
  if (ctx.stderrIsTTY) ctx.info(`the limit of ${resourceName} in ${scope.location} is now ${limit}`);
}

/**
 * A request for this quota still running (an earlier --no-wait, a wait that ran out of
 * --wait-timeout, a rerun of a pipeline step): the same change is followed, not submitted again
 * (true: done); another limit would race it: exit 5. False: none, submit the change.
 */
export async function followRunning(
  ctx: Ctx,
  c: MgmtClient,
  scope: QuotaScope,
  resourceName: string,
  limit: number,
  o: { wait: boolean; intervalSeconds: number; timeoutSeconds?: number; progress?: { accepted: boolean; ended: boolean } },
): Promise<boolean> {
  const running = await runningRequestOf(ctx, c, scope, resourceName);
  if (!running) return false;
  const where = `--provider ${scope.provider} --location ${scope.location} --subscription ${scope.subscription}`;
  const what = `quota request ${running.requestId} for ${resourceName}${running.limit === undefined ? '' : ` (${running.limit})`} is still ${running.state}`;
  if (running.limit !== undefined && running.limit !== limit) {
    throw new ConflictError(`${what}; a second change now would race it: wait for its end (vx mgmt quota requests get ${running.requestId} ${where}), then run this again; nothing was changed`);
  }
  if (!o.wait) {
    await ctx.print(running.body, { columns: REQUEST_COLUMNS });
    ctx.info(`${what}; nothing was submitted again; follow it with: vx mgmt quota requests get ${running.requestId} ${where}`);
    return true;
  }
  ctx.info(`${what}: following it instead of submitting the same change again`);
  if (o.progress) o.progress.accepted = true;
  // (its state is already known from the list: the first status read comes after the floor, not --poll-interval)
  await followRequest(ctx, c, scope, resourceName, limit, running.requestId, running.state, { retryAfter: '0' }, o);
  return true;
}

/** The running request of a quota, from the location's latest requests; a list that fails is a warning (the change is then submitted). */
async function runningRequestOf(ctx: Ctx, c: MgmtClient, scope: QuotaScope, resourceName: string): Promise<RunningRequest | undefined> {
  try {
    return (await runningRequests(c, scope)).get(resourceName.toLowerCase());
  } catch (e) {
    const err = asVxError(e);
    if (err.exitCode === 130) throw e;
    ctx.warn(`could not look for a running request of ${resourceName} (${err.message}); submitting the change`);
    return undefined;
  }
}

export async function runQuotaSet(ctx: Ctx, opts: QuotaSetOpts, resourceName: string): Promise<void> {
  checkSegment('resourceName', resourceName, 'quota resource name');
  const limit = checkLimit(opts.limit);
  // --no-wait does not follow the request: a following option with it would be accepted and do nothing
  for (const [flag, v] of [['--poll-interval', opts.pollInterval], ['--wait-timeout', opts.waitTimeout]] as const) {
    if (v !== undefined && opts.wait === false) throw new UsageError(`${flag} has no effect with --no-wait (vx does not follow the request); leave one of them out; nothing was sent`);
  }
  const intervalSeconds = pollInterval(opts.pollInterval);
  const timeoutSeconds = waitTimeout(opts.waitTimeout);
  const scope = quotaScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  // without a terminal the question cannot be asked: refuse before the read, so exit 2 sends nothing
  if (!c.dryRun && !ctx.prompter.interactive) await confirmDestructive(ctx.prompter, ctx.globals.yes, `Change the limit of ${resourceName} in ${scope.location} to ${limit}?`);
  if (c.dryRun) {
    c.plan({ method: 'GET', url: quotaUrl(c, scope, resourceName) });
    c.plan({ method: 'GET', url: requestUrl(c, scope, undefined, { $top: RECENT_REQUESTS }) });
    c.plan({ method: 'PATCH', url: quotaUrl(c, scope, resourceName), body: patchBody({ properties: { unit: '<unit of the current quota>' } }, resourceName, limit) });
    return;
  }
  const current = await getQuota(c, scope, resourceName);
  const p = current.properties ?? {};
  if (p.limit === limit) {
    ctx.info(`the limit of ${resourceName} in ${scope.location} is already ${limit}; nothing was changed`);
    await ctx.print(current, { columns: QUOTA_COLUMNS });
    return;
  }
  if (await followRunning(ctx, c, scope, resourceName, limit, { wait: opts.wait !== false, intervalSeconds, timeoutSeconds })) return;
  const label = p.name?.localizedValue && p.name.localizedValue !== resourceName ? `${resourceName} (${p.name.localizedValue})` : resourceName;
  await confirmDestructive(ctx.prompter, ctx.globals.yes, `Change the limit of ${label} in ${scope.location} from ${p.limit ?? '?'} to ${limit}${p.unit ? ` ${p.unit}` : ''}?`);
  await applyLimit(ctx, c, scope, resourceName, current, limit, { wait: opts.wait !== false, intervalSeconds, timeoutSeconds });
}

export async function runRequestGet(ctx: Ctx, opts: QuotaOpts, requestId: string): Promise<void> {
  const ref = requestRef(requestId, opts);
  const scope = quotaScope(ctx, { subscription: opts.subscription ?? ref.subscription, provider: opts.provider ?? ref.provider, location: opts.location ?? ref.location });
  const c = await MgmtClient.open(ctx.http, ctx.config);
  await ctx.print((await getRequest(c, scope, ref.id)).body, { columns: REQUEST_COLUMNS });
}

export async function runRequestList(ctx: Ctx, opts: RequestsListOpts): Promise<void> {
  const filter = checkFilter(opts.filter);
  const top = checkCount('--top', opts.top, 1);
  const scope = quotaScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const items: QuotaRequest[] = [];
  for await (const r of listRequests(c, scope, { filter, top })) items.push(r);
  await ctx.print(items, { columns: REQUEST_COLUMNS, empty: 'no quota requests' });
}

// ---------------------------------------------------------------- API version sets

function serviceScope(ctx: Ctx, opts: ServiceOpts): ServiceScope {
  const resourceGroup = checkSegment('resourceGroup', opts.resourceGroup, '--resource-group');
  const service = checkSegment('serviceName', opts.service, '--service');
  const subscription = resolveSubscription(ctx.config, opts.subscription);
  return { subscription, resourceGroup, service };
}

export const VERSION_SET_COLUMNS: Column[] = [
  { header: 'Name', get: 'name', keep: true },
  { header: 'Display name', get: 'properties.displayName' },
  { header: 'Scheme', get: 'properties.versioningScheme' },
  { header: 'Version in', get: (v: VersionSet) => v.properties?.versionHeaderName ?? v.properties?.versionQueryName ?? '' },
  { header: 'Description', get: 'properties.description', optional: true },
];

/** Checks the given field flags; returns the changes (`null` removes a field). */
function fieldChanges(opts: VsCreateOpts | VsUpdateOpts): Record<string, string | null | undefined> {
  if (opts.displayName !== undefined) checkSegment('displayName', opts.displayName, '--display-name');
  if (opts.headerName !== undefined) checkSegment('headerName', opts.headerName, '--header-name');
  if (opts.queryName !== undefined) checkSegment('queryName', opts.queryName, '--query-name');
  if (opts.headerName !== undefined && opts.scheme !== undefined && opts.scheme !== 'Header') throw new UsageError(`--header-name goes with --scheme Header, not ${opts.scheme}; nothing was sent`);
  if (opts.queryName !== undefined && opts.scheme !== undefined && opts.scheme !== 'Query') throw new UsageError(`--query-name goes with --scheme Query, not ${opts.scheme}; nothing was sent`);
  return {
    displayName: opts.displayName,
    versioningScheme: opts.scheme,
    description: opts.description === '' ? null : opts.description,
    versionHeaderName: opts.headerName,
    versionQueryName: opts.queryName,
  };
}

function need(problem: string | undefined): void {
  if (problem) throw new UsageError(`${problem}; nothing was sent`);
}

export async function runVsList(ctx: Ctx, opts: VsListOpts): Promise<void> {
  const filter = checkFilter(opts.filter);
  const top = checkCount('--top', opts.top, 1);
  const skip = checkCount('--skip', opts.skip, 0);
  const scope = serviceScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const items: VersionSet[] = [];
  for await (const v of listVersionSets(c, scope, { filter, top, skip })) items.push(v);
  await ctx.print(items, { columns: VERSION_SET_COLUMNS, empty: 'no version sets' });
}

export async function runVsGet(ctx: Ctx, opts: ServiceOpts, id: string): Promise<void> {
  checkSegment('versionSetId', id, 'version set id');
  const scope = serviceScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const { body, etag } = await getVersionSet(c, scope, id);
  if (etag) ctx.verbose(`ETag: ${etag}`);
  await ctx.print(body, { columns: VERSION_SET_COLUMNS });
}

export async function runVsCreate(ctx: Ctx, opts: VsCreateOpts, id: string): Promise<void> {
  checkSegment('versionSetId', id, 'version set id');
  const changes = fieldChanges(opts);
  const props = mergeProperties({}, changes);
  need(schemeProblem(props));
  const scope = serviceScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  // create never replaces by accident: it reads first (the PUT itself would silently replace)
  let existing: { body: VersionSet; etag?: string } | undefined;
  if (c.dryRun) c.plan({ method: 'GET', url: versionSetUrl(c, scope, id) });
  else existing = await getVersionSet(c, scope, id).catch((e: unknown) => (e instanceof NotFoundError ? undefined : Promise.reject(e)));
  if (existing && !opts.force) {
    throw new ConflictError(`version set ${id} already exists; change it with \`vx mgmt version-sets update ${id}\` (or replace it with create --force); nothing was written`);
  }
  if (existing) {
    const was = existing.body.properties?.displayName;
    await confirmDestructive(ctx.prompter, ctx.globals.yes, `Replace version set ${id}${was ? ` (${was})` : ''} of service ${scope.service} with the given fields?`, 'nothing was written');
  }
  // replacing: the ETag of the read guards the PUT, so a change made meanwhile is not lost
  const { status, body, etag, afterLostAttempt } = await putVersionSet(c, scope, id, props, existing?.etag).catch((e: unknown) =>
    existing || c.dryRun ? Promise.reject(e) : createRefused(c, scope, id, props, e),
  );
  if (etag) ctx.verbose(`ETag: ${etag}`);
  if (existing) ctx.info(`replaced version set ${id} with the given fields`);
  // a 200 after a 404: the first attempt's own creation (its answer was lost), or someone else's meanwhile
  else if (status === 200 && !afterLostAttempt) ctx.info(`version set ${id} was created by someone else after it was checked; it was replaced with the given fields`);
  else if (ctx.stderrIsTTY) ctx.info(`created version set ${id}`);
  await ctx.print(body, { columns: VERSION_SET_COLUMNS });
}

/**
 * A create's PUT (no If-Match: nothing was there at the read) refused: the spec requires If-Match
 * to update a version set, so a set there now is refused rather than replaced. Either it is this
 * run's own (an earlier attempt's answer was lost, and the PUT repeated) — then it is the result
 * — or someone else's, created after the read: left as it is, exit 5. Any other refusal stands.
 */
async function createRefused(c: MgmtClient, scope: ServiceScope, id: string, props: VersionSetProps, e: unknown): Promise<Awaited<ReturnType<typeof putVersionSet>>> {
  const refused = e instanceof VxError && (e.status === 400 || e.status === 409 || e.status === 412 || e.status === 428);
  if (!refused) throw e;
  const now = await getVersionSet(c, scope, id).catch(() => undefined);
  if (!now) throw e;
  const stored = now.body.properties ?? {};
  const same = Object.keys({ ...stored, ...props }).every((k) => (stored[k] ?? undefined) === (props[k] ?? undefined));
  if (!same) {
    throw new ConflictError(`version set ${id} was created by someone else after it was checked; it was left as it is (nothing was written): see it with \`vx mgmt version-sets get ${id}\`, change it with \`vx mgmt version-sets update ${id}\``, {
      status: e.status,
      code: e.code,
      requestId: e.requestId,
    });
  }
  return { status: 201, body: now.body, etag: now.etag, afterLostAttempt: true };
}

/** In --dry-run, the body of update's PUT: the given fields and this stand-in for the ones kept. */
const KEPT_PLACEHOLDER = '<other properties>';

export async function runVsUpdate(ctx: Ctx, opts: VsUpdateOpts, id: string): Promise<void> {
  checkSegment('versionSetId', id, 'version set id');
  const changes = fieldChanges(opts);
  if (Object.values(changes).every((v) => v === undefined)) {
    throw new UsageError('nothing to change: give at least one of --display-name, --scheme, --description, --header-name, --query-name; nothing was sent');
  }
  const ifMatch = checkIfMatch(opts.ifMatch);
  const scope = serviceScope(ctx, opts);
  let props: VersionSetProps;
  let etag: string;
  const c = await MgmtClient.open(ctx.http, ctx.config);
  if (c.dryRun) {
    // the GET and the PUT update would send; what the GET returns is not known without sending it
    etag = ifMatch ?? ETAG_PLACEHOLDER;
    c.plan({ method: 'GET', url: versionSetUrl(c, scope, id) });
    props = { ...mergeProperties({}, changes), [KEPT_PLACEHOLDER]: '<as returned by the GET>' };
  } else {
    // the fields not given are kept from a read; --if-match only says which version the change
    // applies to (the service answers 412 when the set has changed since: exit 5)
    const current = await getVersionSet(c, scope, id);
    if (!current.etag && ifMatch === undefined) throw new UsageError(`the version set ${id} came without an ETag; pass --if-match <etag> (or '*')`);
    props = mergeProperties(current.body.properties, changes);
    // a header (query) name given for a set whose scheme stays another would be stored and never used
    for (const [flag, field, scheme] of [['--header-name', 'versionHeaderName', 'Header'], ['--query-name', 'versionQueryName', 'Query']] as const) {
      if (changes[field] !== undefined && opts.scheme === undefined && props.versioningScheme !== scheme) {
        throw new UsageError(`${flag} goes with the ${scheme} scheme, and version set ${id} uses ${String(props.versioningScheme)}; add --scheme ${scheme} to switch it; the version set was left as it was`);
      }
    }
    const problem = schemeProblem(props);
    if (problem) throw new UsageError(`${problem}; the version set was left as it was`);
    etag = ifMatch ?? current.etag!;
  }
  const { body, etag: newEtag } = await putVersionSet(c, scope, id, props, etag);
  if (newEtag) ctx.verbose(`ETag: ${newEtag}`);
  if (ctx.stderrIsTTY) ctx.info(`updated version set ${id}`);
  await ctx.print(body, { columns: VERSION_SET_COLUMNS });
}

export async function runVsDelete(ctx: Ctx, opts: VsDeleteOpts, id: string): Promise<void> {
  checkSegment('versionSetId', id, 'version set id');
  const ifMatch = checkIfMatch(opts.ifMatch);
  const scope = serviceScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const ask = !c.dryRun && !ctx.globals.yes;
  // without a terminal the confirmation fails before anything is read or sent
  if (ask && !ctx.prompter.interactive) await confirmDestructive(ctx.prompter, false, `Delete version set ${id} of service ${scope.service}?`);
  let read: { body: VersionSet; etag?: string } | undefined;
  if (ask) {
    // read first, then ask (as gh and az do): a set that is not there is exit 4 without a question,
    // and the question names the one that is; the ETag of this read guards the DELETE
    read = await getVersionSet(c, scope, id);
    const name = read.body.properties?.displayName;
    await confirmDestructive(ctx.prompter, false, `Delete version set ${id}${name ? ` (${name})` : ''} of service ${scope.service}?`);
  }
  const etag = await currentEtag(c, scope, id, ifMatch, read);
  await deleteVersionSet(c, scope, id, etag);
  if (ctx.stderrIsTTY) ctx.info(`deleted version set ${id}`);
}
