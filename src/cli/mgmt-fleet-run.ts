// The work behind the fleet commands of `vx mgmt`: quota list, report, check and apply across
// subscriptions and locations, and health watch and check. Inputs are checked before anything is
// sent; the api/mgmt functions do the requests; this file decides what is printed and the exit code.
import { spawn } from 'node:child_process';
import { MgmtClient, resolveSubscription } from '../api/mgmt/client.js';
import { applyChanges, changeRequest, isChange, makePlan, markPending, type ChangeStatus, type PlanItem } from '../api/mgmt/apply.js';
import { belowHeadroom, checkItems, quotaCheck, quotaReport, sortByHeadroom, type CheckRow, type HeadroomThreshold, type Need, type QuotaRow } from '../api/mgmt/fleet.js';
import { checkManifest, parseManifestText } from '../api/mgmt/manifest.js';
import { eventsUrl, listEvents, type HealthEvent } from '../api/mgmt/health.js';
import { listQuotas, quotaUrl, type Quota, type QuotaScope } from '../api/mgmt/quota.js';
import { checkCount, checkFilter, checkResourceAndSubscription, checkSegment, type checkResourceId } from '../api/mgmt/validate.js';
import {
  DEFAULT_CRITICAL,
  DEFAULT_WARN,
  diffEvents,
  emptyState,
  gradeEvents,
  loadState,
  parseTypes,
  PLUGIN,
  saveState,
  summaryLine,
  trackingId,
  type EventChange,
  type WatchState,
} from '../api/mgmt/watch.js';
import type { Ctx } from '../core/context.js';
import { asVxError, ExitStatus, InterruptedError, NetworkError, oneLine, terminalText, ThrottledError, UnavailableError, UsageError, type VxError } from '../core/errors.js';
import { passSignal } from '../core/child.js';
import { Http } from '../core/http/index.js';
import { sleep } from '../core/sleep.js';
import { readAllStdin, readTextFile } from '../core/input.js';
import { applyQuery, loadTextWidth, renderTable, type Column, type Format } from '../core/output/index.js';
import { Pacer } from '../core/pacer.js';
import { LiveBlock } from '../core/progress.js';
import { confirmDestructive } from '../core/prompt.js';
import { checkInt32 } from '../model/mgmt.js';
import type { ApplyOpts, CheckNeedOpts, HealthCheckOpts, QuotaListOpts, ReportOpts, WatchOpts } from './mgmt-fleet.js';
import { QUOTA_COLUMNS, quotaScope, shortTime, waitTimeout } from './mgmt-run.js';
import { pollInterval } from './poll.js';

/** `quota check`'s exit code when a need does not fit (1 stays "the service failed"). */
export const EXIT_SHORT = 9;

// ---------------------------------------------------------------- shared

/** Repeated and comma-separated values, trimmed, without empties and duplicates (case-insensitive). */
export function listValues(values: string[] | string | undefined): string[] {
  const out: string[] = [];
  for (const v of (Array.isArray(values) ? values : values === undefined ? [] : [values]).flatMap((x) => x.split(','))) {
    const t = v.trim();
    if (t && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  return out;
}

function subscriptionsOf(ctx: Ctx, flag: string[] | undefined): string[] {
  const given = listValues(flag);
  if (!given.length) return [resolveSubscription(ctx.config, undefined)];
  return given.map((s) => checkSegment('subscriptionUuid', s, '--subscription'));
}

function locationsOf(ctx: Ctx, flag: string[] | undefined, required = true): string[] {
  const given = listValues(flag);
  if (!given.length) {
    if (!required && !ctx.config.get('mgmt.location')) return [];
    given.push(ctx.config.require('mgmt.location', undefined, 'the location (--location)'));
  }
  return given.map((l) => checkSegment('location', l, '--location'));
}

function providerOf(ctx: Ctx, flag: string | undefined): string {
  return checkSegment('providerId', ctx.config.require('mgmt.provider', flag, 'the resource provider id (--provider)'), '--provider');
}

/** `--concurrency`: 1-64, default 8; the connection pool is sized to it. */
function concurrencyOf(ctx: Ctx, value: string | undefined): number {
  let n = 8;
  if (value !== undefined) {
    const r = checkInt32(value, 1);
    if (r.error || r.value! > 64) throw new UsageError(`invalid --concurrency "${value}": expected a whole number from 1 to 64; nothing was sent`);
    n = r.value!;
  }
  ctx.http.opts.connections = Math.max(n, ctx.http.opts.connections ?? 0);
  return n;
}

/** The exit code of a set of failures: theirs when they agree, else 1. */
function exitOf(failures: VxError[]): number {
  const codes = new Set(failures.map((f) => f.exitCode));
  return codes.size === 1 ? [...codes][0] : 1;
}

function tableWidth(ctx: Ctx): number | undefined {
  const cols = Number(process.env.COLUMNS);
  return Number.isInteger(cols) && cols > 0 ? cols : ctx.io.stdout.columns || undefined;
}

const num = (get: Column['get'], header: string, extra: Partial<Column> = {}): Column => ({ header, get, align: 'right', ...extra });
const pct = (v: unknown) => (typeof v === 'number' ? `${v}%` : '');

function rowColumns(multiSub: boolean, withError: boolean, extra: Column[] = []): Column[] {
  return [
    ...(multiSub ? [{ header: 'Subscription', get: 'subscription' } as Column] : []),
    { header: 'Location', get: 'location', keep: true },
    { header: 'Name', get: 'name', keep: true },
    num((r: QuotaRow) => r.limit, 'Limit'),
    num((r: QuotaRow) => r.usage, 'Usage'),
    num((r: QuotaRow) => r.headroom, 'Free'),
    num((r: QuotaRow) => pct(r.percentUsed), 'Used'),
    ...extra,
    { header: 'Unit', get: 'unit', optional: true },
    ...(withError ? [{ header: 'Error', get: 'error' } as Column] : []),
  ];
}

/** The csv header of the report (and check): always these fields in this order, `error` last when a row failed. */
const ROW_FIELDS = ['subscription', 'provider', 'location', 'name', 'displayName', 'limit', 'usage', 'unit', 'headroom', 'percentUsed'];
function csvFields(fields: string[], withError: boolean): Column[] {
  return [...fields, ...(withError ? ['error'] : [])].map((f) => ({ header: f, get: f }));
}

// ---------------------------------------------------------------- quota list

export async function runQuotaList(ctx: Ctx, opts: QuotaListOpts): Promise<void> {
  const filter = checkFilter(opts.filter);
  const max = checkCount('--top', opts.top, 1);
  const scope = quotaScope(ctx, opts);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  const items: Quota[] = [];
  for await (const q of listQuotas(c, scope, { filter, max })) items.push(q);
  await ctx.print(items, { columns: QUOTA_COLUMNS, empty: `no quotas of ${scope.provider} in ${scope.location}` });
}

// ---------------------------------------------------------------- quota report

/** `--min-headroom 20` (units) or `10%` (of the limit). */
export function parseHeadroom(value: string | undefined): HeadroomThreshold | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(value);
  if (!m || (m[2] && Number(m[1]) > 100) || (!m[2] && !Number.isInteger(Number(m[1])))) {
    throw new UsageError(`invalid --min-headroom "${value}": expected a whole number of units (20) or a percentage of the limit from 0 to 100 (10%); nothing was sent`);
  }
  return { value: Number(m[1]), percent: Boolean(m[2]) };
}

function scopesOf(subscriptions: string[], provider: string, locations: string[]): QuotaScope[] {
  return subscriptions.flatMap((subscription) => locations.map((location) => ({ subscription, provider, location })));
}

export async function runQuotaReport(ctx: Ctx, opts: ReportOpts): Promise<void> {
  const names = listValues(opts.name).map((n) => checkSegment('resourceName', n, '--name'));
  const threshold = parseHeadroom(opts.minHeadroom);
  const concurrency = concurrencyOf(ctx, opts.concurrency);
  const provider = providerOf(ctx, opts.provider);
  const locations = locationsOf(ctx, opts.location);
  const subscriptions = subscriptionsOf(ctx, opts.subscription);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  c.pacer = new Pacer();
  const scopes = scopesOf(subscriptions, provider, locations);
  if (c.dryRun) {
    for (const s of scopes) c.plan({ method: 'GET', url: quotaUrl(c, s) });
    return;
  }
  const report = await quotaReport(c, scopes, { names: names.length ? names : undefined, concurrency, signal: ctx.signal });
  for (const s of report.empty) ctx.warn(`no quotas of ${s.provider} in ${s.location} (subscription ${s.subscription}); is the location right?`);
  const results = sortByHeadroom(report.rows);
  const shown = threshold ? results.filter((r) => belowHeadroom(r.row, threshold)) : results;
  await ctx.print(
    shown.map((r) => r.row),
    {
      columns: rowColumns(subscriptions.length > 1, shown.some((r) => r.failure)),
      csvColumns: csvFields(ROW_FIELDS, shown.some((r) => r.failure)),
      empty: threshold ? `every quota has at least ${opts.minHeadroom} free` : 'no quotas',
    },
  );
  const failures = results.filter((r) => r.failure).map((r) => r.failure!);
  if (failures.length) throw new ExitStatus(exitOf(failures), `${failures.length} of ${results.length} rows of the report failed (their Error column says why); ${scopes.length} location(s) asked`);
}

// ---------------------------------------------------------------- quota check

/** `cores=64` or `cores=64@westus2` */
export function parseNeed(text: string): Need {
  const m = /^([^=@]+)=([^@]*)(?:@(.*))?$/.exec(text.trim());
  if (!m) throw new UsageError(`invalid --need "${text}": expected <quota>=<n> or <quota>=<n>@<location>, e.g. cores=64@westus2; nothing was sent`);
  const name = checkSegment('resourceName', m[1].trim(), `quota name in --need "${text}"`);
  const r = checkInt32(m[2], 0);
  if (r.error) throw new UsageError(`invalid --need "${text}": the amount ${r.error}; nothing was sent`);
  const location = m[3] === undefined ? undefined : checkSegment('location', m[3].trim(), `location in --need "${text}"`);
  return { name, amount: r.value!, location };
}

export async function runQuotaCheck(ctx: Ctx, opts: CheckNeedOpts): Promise<void> {
  const needs = (opts.need ?? []).map(parseNeed);
  if (!needs.length) throw new UsageError('give at least one --need <quota>=<n>[@<location>]; nothing was sent');
  const concurrency = concurrencyOf(ctx, opts.concurrency);
  const provider = providerOf(ctx, opts.provider);
  const everywhere = needs.some((n) => !n.location);
  const locations = everywhere ? locationsOf(ctx, opts.location) : listValues(opts.location).map((l) => checkSegment('location', l, '--location'));
  const subscriptions = subscriptionsOf(ctx, opts.subscription);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  c.pacer = new Pacer();
  const items = checkItems(subscriptions, provider, locations, needs);
  if (c.dryRun) {
    for (const it of items) c.plan({ method: 'GET', url: quotaUrl(c, it.scope, it.name) });
    return;
  }
  const results = await quotaCheck(c, items, { concurrency, signal: ctx.signal });
  const extra: Column[] = [num((r: CheckRow) => r.need, 'Need'), num((r: CheckRow) => (r.short ? r.short : r.error ? '' : 0), 'Short')];
  await ctx.print(
    results.map((r) => r.row),
    { columns: rowColumns(subscriptions.length > 1, results.some((r) => r.failure), extra), csvColumns: csvFields([...ROW_FIELDS, 'need', 'short', 'fix'], results.some((r) => r.failure)) },
  );
  const short = results.filter((r) => r.row.short);
  for (const { row } of short) {
    ctx.info(
      `short: ${row.name} in ${row.location} (subscription ${row.subscription}): need ${row.need}, free ${row.headroom} (limit ${row.limit}, usage ${row.usage}): short by ${row.short}\n  fix: ${row.fix}`,
    );
  }
  if (short.length > 1) ctx.info(`or raise them together: put the limits in a manifest and run vx mgmt quota apply -f <manifest>`);
  const failures = results.filter((r) => r.failure).map((r) => r.failure!);
  if (failures.length) {
    throw new ExitStatus(exitOf(failures), `${failures.length} of ${results.length} quotas could not be read (their Error column says why)${short.length ? `; ${short.length} short` : ''}`);
  }
  if (short.length) throw new ExitStatus(EXIT_SHORT, `${short.length} of ${results.length} needs do not fit (exit ${EXIT_SHORT}: short of quota)`);
  if (ctx.stderrIsTTY) ctx.info(`all ${results.length} needs fit`);
}

// ---------------------------------------------------------------- quota apply

interface ApplyRow {
  subscription: string;
  provider: string;
  location: string;
  name: string;
  from?: number;
  to: number;
  usage?: number;
  action: string;
  state?: string;
  requestId?: string;
  message?: string;
}

function planRow(p: PlanItem): ApplyRow {
  const e = p.entry;
  return { subscription: e.subscription, provider: e.provider, location: e.location, name: e.name, from: p.from, to: e.limit, usage: p.usage, action: p.action, message: p.note };
}

function statusRow(s: ChangeStatus): ApplyRow {
  return { ...planRow(s.item), state: s.state, requestId: s.requestId, message: s.message ?? s.item.note };
}

function applyColumns(multiSub: boolean, withState: boolean): Column[] {
  return [
    ...(multiSub ? [{ header: 'Subscription', get: 'subscription' } as Column] : []),
    { header: 'Location', get: 'location', keep: true },
    { header: 'Name', get: 'name', keep: true },
    num((r: ApplyRow) => r.from, 'From'),
    num((r: ApplyRow) => r.to, 'To'),
    { header: 'Action', get: 'action' },
    ...(withState ? [{ header: 'State', get: 'state' } as Column, { header: 'Request id', get: 'requestId', keep: true } as Column] : []),
    { header: 'Message', get: 'message' },
  ];
}

function followHint(s: ChangeStatus): string {
  const sc = s.item.scope;
  return `follow it with: vx mgmt quota requests get ${s.requestId ?? '<requestId>'} --provider ${sc.provider} --location ${sc.location} --subscription ${sc.subscription}`;
}

async function readManifest(ctx: Ctx, file: string | undefined): Promise<{ text: string; source: string }> {
  if (file === undefined) throw new UsageError('give the manifest with -f <quotas.yaml|quotas.json|->; nothing was sent');
  if (file === '-') return { text: await readAllStdin(ctx.io.stdin), source: 'from standard input' };
  return { text: await readTextFile(file), source: file };
}

export async function runQuotaApply(ctx: Ctx, opts: ApplyOpts): Promise<void> {
  const concurrency = concurrencyOf(ctx, opts.concurrency);
  const intervalSeconds = pollInterval(opts.pollInterval);
  const timeoutSeconds = waitTimeout(opts.waitTimeout);
  const subs = listValues(opts.subscription);
  const locs = listValues(opts.location);
  if (subs.length > 1 || locs.length > 1) throw new UsageError('quota apply takes one --subscription and one --location as defaults for the manifest; put the others in its entries; nothing was sent');
  const { text, source } = await readManifest(ctx, opts.file);
  const entries = checkManifest(await parseManifestText(text, source), source, {
    subscription: subs[0] ?? (ctx.config.get('mgmt.subscription') || undefined),
    provider: opts.provider ?? (ctx.config.get('mgmt.provider') || undefined),
    location: locs[0] ?? (ctx.config.get('mgmt.location') || undefined),
  });
  const dryRun = ctx.http.dryRun;
  // without a terminal the question cannot be asked: refuse before the reads, so exit 2 sends nothing
  if (!dryRun && !ctx.prompter.interactive) await confirmDestructive(ctx.prompter, ctx.globals.yes, 'Apply the quota manifest?');
  // --dry-run reads the current limits (GETs only) to show the plan; nothing is written
  const http = dryRun ? new Http({ ...ctx.http.opts, dryRun: false }) : ctx.http;
  try {
    const c = await MgmtClient.open(http, ctx.config);
    c.pacer = new Pacer();
    await applyWith(ctx, c, entries.length, { concurrency, intervalSeconds, timeoutSeconds, dryRun, entries });
  } finally {
    if (http !== ctx.http) await http.close();
  }
}

async function applyWith(
  ctx: Ctx,
  c: MgmtClient,
  total: number,
  o: { concurrency: number; intervalSeconds: number; timeoutSeconds: number; dryRun: boolean; entries: Parameters<typeof makePlan>[1] },
): Promise<void> {
  const multiSub = new Set(o.entries.map((e) => e.subscription.toLowerCase())).size > 1;
  const explicit = ctx.explicitFormat();
  // off a terminal the run is a stream of ndjson lines (plan, then every change of state)
  const stream = explicit === 'ndjson' || (!explicit && !ctx.stdoutIsTTY);
  const line = (v: unknown) => ctx.write(`${JSON.stringify(v)}\n`);
  const plan = await makePlan(c, o.entries, { concurrency: o.concurrency, signal: ctx.signal });
  // a request still running from an earlier (interrupted) run is followed, never submitted twice
  await markPending(c, plan, {
    concurrency: o.concurrency,
    signal: ctx.signal,
    onListFailure: (s, e) => ctx.warn(`cannot list the running quota requests of ${s.provider} in ${s.location} (${e.message}); its changes are submitted as planned`),
  });
  const changes = plan.filter(isChange);
  const planFailures = plan.filter((p) => p.action === 'failed' || p.action === 'refused');
  if (o.dryRun) {
    const rows = plan.map((p) => (isChange(p) && !p.pending ? { ...planRow(p), request: changeRequest(c, p) } : planRow(p)));
    if (stream) for (const r of rows) await line({ event: 'plan', ...r });
    else await ctx.print(rows, { columns: applyColumns(multiSub, false) });
    const running = changes.filter((p) => p.pending).length;
    ctx.info(`dry run: ${changes.length} of ${total} quotas would change${running ? ` (${running} by a request already running)` : ''}; nothing was changed`);
    if (planFailures.length) throw planExit(plan);
    return;
  }
  if (!stream && ctx.stderrIsTTY) await loadTextWidth();
  if (stream) for (const p of plan) await line({ event: 'plan', ...planRow(p) });
  else if (ctx.stderrIsTTY) ctx.io.stderr.write(renderTable(plan.map(planRow), { columns: applyColumns(multiSub, false), width: tableWidth(ctx) }));
  if (!changes.length) {
    if (!stream) await ctx.print(plan.map(planRow), { columns: applyColumns(multiSub, false) });
    if (planFailures.length) throw planExit(plan);
    ctx.info(`nothing to change: every limit of the manifest is already in place (${total} quota${total === 1 ? '' : 's'})`);
    return;
  }
  const toSubmit = changes.filter((p) => !p.pending).length;
  if (toSubmit) await confirmDestructive(ctx.prompter, ctx.globals.yes, `Submit ${toSubmit} quota change${toSubmit > 1 ? 's' : ''}?`);
  const live = new LiveBlock(ctx.io.stderr);
  const others = plan.filter((p) => !isChange(p));
  let statuses: ChangeStatus[] = [];
  const redraw = (force = false) =>
    live.draw(renderTable([...statuses.map(statusRow), ...others.map(planRow)], { columns: applyColumns(multiSub, true), width: tableWidth(ctx) }), force);
  const onUpdate = (s: ChangeStatus, all: readonly ChangeStatus[]) => {
    statuses = [...all];
    if (stream) {
      void line({ event: 'status', ...statusRow(s), at: new Date().toISOString() });
      if (s.requestId && s.state === 'Accepted' && ctx.stderrIsTTY) ctx.info(`${s.item.entry.name} in ${s.item.scope.location}: request ${s.requestId}`);
    } else redraw();
  };
  try {
    statuses = changes.map((item) => ({ item, state: 'Pending' }));
    redraw(true);
    statuses = await applyChanges(c, changes, { concurrency: o.concurrency, intervalSeconds: o.intervalSeconds, timeoutSeconds: o.timeoutSeconds, signal: ctx.signal, onUpdate, followHint });
  } catch (e) {
    live.clear();
    // interrupted: what was accepted goes on at the service
    for (const s of statuses) if (s.requestId && s.state !== 'Succeeded' && s.state !== 'Failed' && s.state !== 'Invalid') ctx.info(`quota request ${s.requestId} (${s.item.entry.name} in ${s.item.scope.location}) was submitted; ${followHint(s)}`);
    throw e;
  }
  live.clear();
  if (!stream) await ctx.print([...statuses.map(statusRow), ...others.map(planRow)], { columns: applyColumns(multiSub, true) });
  const bad = statuses.filter((s) => s.state !== 'Succeeded');
  for (const s of bad) if (s.state === 'Unknown' || s.state === 'InProgress' || s.state === 'Accepted') ctx.info(`${s.item.entry.name} in ${s.item.scope.location}: ${s.message ?? s.state}`);
  if (bad.length || planFailures.length) {
    const failures = [...bad.map((s) => s.failure ?? ({ exitCode: 1 } as VxError)), ...planFailures.map((p) => p.failure ?? ({ exitCode: 1 } as VxError))];
    const nOk = statuses.length - bad.length;
    throw new ExitStatus(exitOf(failures), `${nOk} of ${statuses.length} quota changes succeeded${bad.length ? `; ${bad.map((s) => `${s.item.entry.name} in ${s.item.scope.location} ${s.state}`).join(', ')}` : ''}${planFailures.length ? `; ${planFailures.length} entr${planFailures.length > 1 ? 'ies' : 'y'} not submitted (${planFailures.map((p) => `entry ${p.entry.index} ${p.action}`).join(', ')})` : ''}; a rerun submits only what is still short`);
  }
  if (ctx.stderrIsTTY) ctx.info(`all ${statuses.length} quota changes succeeded`);
}

function planExit(plan: PlanItem[]): ExitStatus {
  const bad = plan.filter((p) => p.action === 'failed' || p.action === 'refused');
  return new ExitStatus(exitOf(bad.map((p) => p.failure ?? ({ exitCode: 1 } as VxError))), `${bad.length} entr${bad.length > 1 ? 'ies' : 'y'} of the manifest cannot be applied: ${bad.map((p) => `entry ${p.entry.index} (${p.entry.name} in ${p.entry.location}): ${p.note}`).join('; ')}`);
}

// ---------------------------------------------------------------- health watch

function intervalOf(value: string | undefined): number {
  if (value === undefined) return 60;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n < 1 || n > 86_400) throw new UsageError(`invalid --interval "${value}": expected seconds from 1 to 86400; nothing was sent`);
  return n;
}

/** The events of the subscription (or the resource), all pages, of the watched types. */
async function currentEvents(c: MgmtClient, target: { subscription?: string; resource?: ReturnType<typeof checkResourceId> }, types: string[] | undefined): Promise<HealthEvent[]> {
  const events: HealthEvent[] = [];
  for await (const e of listEvents(c, target.subscription, { resource: target.resource })) {
    if (types && !types.includes(e.properties?.eventType ?? '')) continue;
    events.push(e);
  }
  return events;
}

function changeLine(ch: EventChange): string {
  const p = ch.event.properties ?? {};
  const was = ch.previous && ch.change !== 'new' ? ` (was ${[ch.previous.status !== p.status ? ch.previous.status : undefined, ch.previous.eventLevel !== p.eventLevel ? ch.previous.eventLevel : undefined].filter(Boolean).join(', ') || `updated ${shortTime(ch.previous.lastUpdateTime)}`})` : '';
  return `${shortTime(p.lastUpdateTime)}  ${ch.change.toUpperCase().padEnd(11)} ${trackingId(ch.event)}  ${p.eventType ?? ''} ${p.eventLevel ?? ''} ${p.status ?? ''}${was}  ${p.title ?? ''}`;
}

/** Runs the --exec command for one change: the event as JSON on stdin, its id and type in the environment. */
function runExec(ctx: Ctx, command: string, ch: EventChange): Promise<number | null> {
  return new Promise((resolve) => {
    const p = ch.event.properties ?? {};
    const child = spawn('/bin/sh', ['-c', command], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...process.env,
        VX_EVENT_ID: trackingId(ch.event),
        VX_EVENT_TYPE: String(p.eventType ?? ''),
        VX_EVENT_CHANGE: ch.change,
        VX_EVENT_STATUS: String(p.status ?? ''),
        VX_EVENT_LEVEL: String(p.eventLevel ?? ''),
      },
    });
    // its output goes to stderr: stdout carries vx's own lines
    child.stdout.pipe(ctx.io.stderr, { end: false });
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(ch.event)}\n`);
    child.on('error', (e) => {
      ctx.warn(`--exec could not start: ${e.message}`);
      resolve(null);
    });
    // a stop of vx (Ctrl-C, a CI runner's SIGTERM) is passed on: the command ends (or cleans up)
    // as it chooses and the watch saves its state, instead of leaving it running on its own
    const stop = () => passSignal(child, ctx.host.interruptedBy ?? 'SIGTERM');
    ctx.signal.addEventListener('abort', stop, { once: true });
    child.on('close', (code) => {
      ctx.signal.removeEventListener('abort', stop);
      resolve(code);
    });
  });
}

const RETRYABLE = [ThrottledError, UnavailableError, NetworkError];

export async function runHealthWatch(ctx: Ctx, opts: WatchOpts): Promise<void> {
  const types = parseTypes(opts.type, '--type');
  const interval = intervalOf(opts.interval);
  // one poll has no interval to wait (and --once ends on a failure rather than backing off)
  if (opts.once && opts.interval !== undefined) throw new UsageError('--interval has no effect with --once (one poll, then exit); leave one of them out; nothing was sent');
  const resource = checkResourceAndSubscription(opts.resource, opts.subscription);
  if (opts.exec !== undefined && !opts.exec.trim()) throw new UsageError('--exec may not be empty; nothing was sent');
  const subscription = resource ? undefined : resolveSubscription(ctx.config, opts.subscription);
  let state: WatchState = opts.state ? await loadState(opts.state) : emptyState();
  const c = await MgmtClient.open(ctx.http, ctx.config);
  if (c.dryRun) {
    c.plan({ method: 'GET', url: eventsUrl(c, subscription, { resource }) });
    return;
  }
  // yaml, csv and tsv have no form for a stream of news: refused from -o; from VX_OUTPUT or the
  // profile (a preference for every command) the JSON lines instead
  const streamable = (f: Format | undefined) => (f === 'yaml' || f === 'csv' || f === 'tsv' ? undefined : f);
  if (ctx.globals.output !== undefined && !streamable(ctx.explicitFormat())) {
    throw new UsageError(`health watch prints a line per news (-o table or text) or a JSON line (-o json or ndjson), or nothing (-o none); -o ${ctx.explicitFormat()} is not one of them; nothing was sent`);
  }
  const explicit = streamable(ctx.explicitFormat());
  const query = ctx.globals.query;
  const readable = !query && (explicit === 'table' || explicit === 'wide' || explicit === 'text' || (!explicit && ctx.stdoutIsTTY));
  /** the line of one news: readable, or its record {change, trackingId, previous, event} as JSON (through --query) */
  const lineOf = async (ch: EventChange): Promise<string> => {
    // the service's text is shown escaped (a terminal escape in a title cannot drive the terminal,
    // a line break cannot split one news into two lines), as in every table and text output
    if (readable) return `${oneLine(changeLine(ch))}\n`;
    const record = { change: ch.change, trackingId: trackingId(ch.event), previous: ch.previous, event: ch.event };
    const value = query ? await applyQuery(record, query) : record;
    return `${explicit === 'text' && typeof value === 'string' ? terminalText(value) : JSON.stringify(value)}\n`;
  };
  // Ctrl-C, SIGTERM and SIGHUP abort the run's signal (main.ts): the loop stops, the state is saved
  let stopped = false;
  let failedExec = 0;
  let backoff = 0;
  try {
    for (;;) {
      let events: HealthEvent[] | undefined;
      try {
        events = await currentEvents(c, { subscription, resource }, types);
        backoff = 0;
      } catch (e) {
        const err = asVxError(e);
        if (ctx.signal.aborted || err instanceof InterruptedError) break;
        if (opts.once || !RETRYABLE.some((k) => err instanceof k)) throw e;
        backoff += 1;
        // the back-off, or the service's Retry-After when it asks for longer
        const asked = (err.retryAfterMs ?? 0) / 1000;
        const wait = Math.max(Math.min(interval * 2 ** backoff, 900), asked);
        ctx.warn(`${err.message}; trying again in ${Math.round(wait)} s${asked > interval * 2 ** backoff ? " (the service's Retry-After)" : ''}`);
        try {
          await sleep(wait * 1000, ctx.signal);
        } catch {
          break;
        }
        continue;
      }
      const { changes, next } = diffEvents(state, events);
      // stopped midway: the news fully reported are remembered, the rest (and one whose --exec was
      // cut short) are news again next time
      const reported: string[] = [];
      for (const ch of changes) {
        if (ctx.signal.aborted) break;
        if (explicit !== 'none') await ctx.write(await lineOf(ch));
        if (opts.exec !== undefined) {
          const code = await runExec(ctx, opts.exec, ch);
          if (ctx.signal.aborted) break;
          if (code !== 0) {
            failedExec += 1;
            ctx.warn(`--exec for ${trackingId(ch.event)} (${ch.change}) exited ${code ?? 'by a signal'}`);
          }
        }
        reported.push(trackingId(ch.event));
      }
      state = ctx.signal.aborted ? { ...state, events: { ...state.events, ...Object.fromEntries(reported.map((id) => [id, next.events[id]])) } } : next;
      if (opts.state) await saveState(opts.state, state);
      if (opts.once || ctx.signal.aborted) break;
      try {
        await sleep(interval * 1000, ctx.signal);
      } catch {
        break;
      }
    }
  } finally {
    stopped = ctx.signal.aborted;
    if (stopped && opts.state) await saveState(opts.state, state);
  }
  // main.ts names the signal and exits 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP)
  if (stopped) throw new InterruptedError(`interrupted${opts.state ? `; the state is saved in ${opts.state}` : ''}`);
  if (failedExec) throw new ExitStatus(1, `--exec failed for ${failedExec} event${failedExec > 1 ? 's' : ''} (the events are remembered as reported)`);
}

// ---------------------------------------------------------------- health check

export async function runHealthCheck(ctx: Ctx, opts: HealthCheckOpts): Promise<void> {
  const f = ctx.explicitFormat();
  // the record instead of the plugin line: asked for by format, or by a --query to apply to it
  const asData = Boolean(ctx.globals.query) || f === 'json' || f === 'yaml' || f === 'ndjson';
  let grade;
  try {
    const critical = parseTypes(opts.critical, '--critical') ?? DEFAULT_CRITICAL;
    const warn = (parseTypes(opts.warn, '--warn') ?? DEFAULT_WARN).filter((t) => !critical.includes(t));
    const resource = checkResourceAndSubscription(opts.resource, opts.subscription);
    const subscription = resource ? undefined : resolveSubscription(ctx.config, opts.subscription);
    const c = await MgmtClient.open(ctx.http, ctx.config);
    if (c.dryRun) {
      c.plan({ method: 'GET', url: eventsUrl(c, subscription, { resource }) });
      return;
    }
    grade = gradeEvents(await currentEvents(c, { subscription, resource }, undefined), critical, warn);
  } catch (e) {
    const err = asVxError(e);
    if (err.exitCode === 130) throw e;
    // the plugin's UNKNOWN: the service could not be asked (or the question was wrong)
    const error = err.message.replace(/\s+/g, ' ');
    const line = `HEALTH UNKNOWN - ${error}`;
    // -o json stays JSON: a monitor that parses stdout gets the same shape for every outcome
    if (asData) await ctx.print({ status: 'UNKNOWN', code: PLUGIN.unknown, summary: line, critical: [], warning: [], active: null, error });
    else await ctx.write(`${line}\n`);
    throw new ExitStatus(PLUGIN.unknown);
  }
  const line = summaryLine(grade);
  if (asData) {
    await ctx.print({ status: grade.status, code: grade.code, summary: line, critical: grade.critical.map(trackingId), warning: grade.warning.map(trackingId), active: grade.active });
  } else await ctx.write(`${line}\n`);
  if (grade.code) throw new ExitStatus(grade.code);
}
