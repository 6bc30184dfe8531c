// The work behind `vx erp`: thin adapters from options to the generic ERP client and back to output.
import { ErpClient, recordLabel, type Entity, type ListQuery } from '../api/erp/client.js';
import { buildBody } from '../api/erp/body.js';
import { checkCommand } from '../api/erp/bulk.js';
import { LcsClient, outcomeOf, type OperationStatus } from '../api/erp/refresh.js';
import type { Ctx } from '../core/context.js';
import { sleep } from '../core/sleep.js';
import { InterruptedError, isVxError, ServiceError, UsageError } from '../core/errors.js';
import { readJsonArg } from '../core/input.js';
import { amountText, atomicFileSink, outFile, shortTime, type Column } from '../core/output/index.js';
import { confirmDestructive } from '../core/prompt.js';
import { elapsed, startSpinner } from '../core/progress.js';
import { findSet, isGuid, REFRESH_WAIT_TIMEOUT_S, type ActionDef, type ErpSet, type TableColumn } from '../model/erp.js';
import { pollDelay, pollFloorMs } from '../core/poll.js';
import { pollInterval, waitTimeoutSeconds } from './poll.js';
import type { BodyOpts, CompanyOpts, EtagOpts, GetOpts, ListOpts, RefreshOpts, RefreshStatusOpts, RelatedOpts } from './erp.js';

function count(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`invalid value "${v}" for ${name}: expected a whole number of at least ${min}`);
  return n;
}

/** An OData option given empty (`--select ''`, a script's unset variable) is a usage error, nothing sent. */
function checkNotEmpty(opts: Partial<Record<'filter' | 'select' | 'expand' | 'orderby', string>>): void {
  for (const k of ['filter', 'select', 'expand', 'orderby'] as const) {
    if (opts[k] !== undefined && !opts[k]!.trim()) throw new UsageError(`--${k} may not be empty`);
  }
}

export function listQuery(opts: Partial<ListOpts>): ListQuery {
  checkNotEmpty(opts);
  return {
    filter: opts.filter,
    select: opts.select,
    expand: opts.expand,
    orderby: opts.orderby,
    // at least 1 in every family (the mgmt specs' minimum; a list of none is never what was meant)
    top: count('--top', opts.top, 1),
    skip: count('--skip', opts.skip, 0),
    pageSize: count('--page-size', opts.pageSize, 1),
  };
}

/** A set's table column as the renderer takes it: computed, formatted (amounts, times), right-aligned numbers. */
function tableColumn(set: ErpSet | undefined, c: TableColumn, chosen = false): Column {
  const type = set?.fields[c.field]?.type;
  const read = (r: Record<string, unknown>): unknown => (c.get && !chosen ? c.get(r) : r?.[c.field]);
  const get = c.format === 'amount' ? (r: Record<string, unknown>) => amountText(read(r)) : c.format === 'time' ? (r: Record<string, unknown>) => shortTime(read(r)) : read;
  return {
    header: c.header,
    get,
    // tsv rows carry the time as the service wrote it, not cut to the minute for the table
    raw: c.format === 'time' ? read : undefined,
    align: c.align ?? (c.format === 'amount' || type === 'decimal' || type === 'integer' ? 'right' : undefined),
    keep: c.keep,
    // the columns named by --select are all shown (-o wide or not); none is dropped first
    primary: chosen ? undefined : c.primary,
    optional: chosen ? undefined : c.optional,
    wide: chosen ? undefined : c.wide,
  };
}

/**
 * The table/tsv columns: the set's columns chosen for a person (headers in words; a GUID last, or
 * only with -o wide), or the fields named by --select in that order (with the set's header for a
 * field it has a column for).
 */
export function columnsOf(set: ErpSet | undefined, select?: string): Column[] | undefined {
  if (!select) return set?.columns.map((c) => tableColumn(set, c));
  const names = [...new Set(select.split(',').map((s) => s.trim()).filter(Boolean))];
  return names.map((name, i) => {
    const known = set?.columns.find((c) => c.field === name);
    if (set && known) return tableColumn(set, known, true);
    const type = set?.fields[name]?.type;
    // the first four columns stay on a narrow terminal; the others are dropped first
    return { header: name, get: name, align: type === 'decimal' || type === 'integer' ? 'right' : undefined, optional: i >= 4 || undefined, keep: name === 'id' || undefined };
  });
}

async function bodyFrom(ctx: Ctx, set: ErpSet, mode: 'create' | 'update', opts: BodyOpts): Promise<Entity> {
  const data = opts.data === undefined ? undefined : await readJsonArg(opts.data, ctx.io.stdin);
  return buildBody(set, mode, data, opts.set);
}

export async function runList(ctx: Ctx, set: ErpSet, opts: ListOpts): Promise<void> {
  const q = listQuery(opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const items: Entity[] = [];
  for await (const page of client.listPages(set, q)) for (const x of page) items.push(x);
  await ctx.print(items, { columns: columnsOf(set, q.select), empty: `no ${set.singular} records` });
}

export async function runGet(ctx: Ctx, set: ErpSet, opts: GetOpts, key: string): Promise<void> {
  checkNotEmpty(opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const q = { select: opts.select, expand: opts.expand };
  const found = await client.resolve(set, key, q);
  if (found.planned) return; // --dry-run: the $filter read was planned
  await ctx.print(found.record ?? (await client.get(set, found.id, q)));
}

export async function runCreate(ctx: Ctx, set: ErpSet, opts: BodyOpts): Promise<void> {
  const body = await bodyFrom(ctx, set, 'create', opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const key = set.naturalKey && typeof body[set.naturalKey] === 'string' ? set.naturalKey : undefined;
  // (quoted for the shell as import's checks are: a code such as $(...) is not run when the line is pasted)
  const hint = (key && checkCommand(set, key, [String(body[key])])) || `vx erp ${set.noun} list --orderby "lastModifiedDateTime desc" --top 5`;
  const created = await client.create(set, body, hint);
  if (ctx.stderrIsTTY) ctx.info(`created ${set.singular} ${String(created.id ?? '')}`);
  await ctx.print(created);
}

/**
 * --if-match and --force: they exclude each other, and an empty --if-match (a script's unset
 * `--if-match "$etag"`) is refused rather than taken as "read a fresh ETag", which would overwrite
 * whatever changed since the script read the record.
 */
function checkEtagOptions(opts: EtagOpts): void {
  if (opts.ifMatch !== undefined && !opts.ifMatch.trim()) throw new UsageError('--if-match may not be empty: give the ETag the record must still have, or leave --if-match out to use the ETag of a fresh read; nothing was sent');
  if (opts.ifMatch !== undefined && opts.force) throw new UsageError('--if-match and --force exclude each other');
  // an entity tag as HTTP writes it (RFC 9110 8.8.3), or a list of them: anything else (W/\"x\" copied
  // with the JSON escapes, the tag without its quotes) would be "changed by someone else" (exit 5)
  if (opts.ifMatch !== undefined && opts.ifMatch.trim() !== '*' && !ETAG_LIST.test(opts.ifMatch.trim())) {
    const shown = JSON.stringify(opts.ifMatch.length > 60 ? `${opts.ifMatch.slice(0, 60)}…` : opts.ifMatch);
    throw new UsageError(`--if-match ${shown} is not an ETag: give it as the record's @odata.etag reads, e.g. W/"JzE5OzEx…" (quotes included, without JSON's backslashes), or *; nothing was sent`);
  }
}

/** one or more entity tags, `W/"…"` or `"…"`, separated by commas */
const ETAG_LIST = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"(\s*,\s*(W\/)?"[\x21\x23-\x7e\x80-\xff]*")*$/;

export async function runUpdate(ctx: Ctx, set: ErpSet, opts: BodyOpts & EtagOpts, key: string): Promise<void> {
  checkEtagOptions(opts);
  const body = await bodyFrom(ctx, set, 'update', opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const { id, record } = await client.resolve(set, key);
  client.itemUrl(set, id); // checks the id before anything is sent
  const etag = await client.ifMatch(set, id, opts.ifMatch, opts.force, record);
  const updated = await client.update(set, id, body, etag, recordLabel(set, id, record));
  if (updated !== undefined) await ctx.print(updated);
}

export async function runDelete(ctx: Ctx, set: ErpSet, opts: EtagOpts, key: string): Promise<void> {
  checkEtagOptions(opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const ask = !ctx.http.dryRun && !ctx.globals.yes;
  // without a terminal the confirmation fails before anything is read or sent
  if (ask && !ctx.prompter.interactive) await confirmDestructive(ctx.prompter, false, `Delete ${set.singular} ${key}?`);
  const resolved = await client.resolve(set, key);
  const { id } = resolved;
  let { record } = resolved;
  client.itemUrl(set, id);
  // the question names the record (number and name), so read it when the key did not
  if (ask && record === undefined) record = await client.get(set, id);
  if (ask) await confirmDestructive(ctx.prompter, false, `Delete ${recordLabel(set, id, record)}?`);
  const etag = await client.ifMatch(set, id, opts.ifMatch, opts.force, record);
  const { goneBefore } = await client.remove(set, id, etag, recordLabel(set, id, record));
  // said also without a terminal: the exchange did not go as planned, and the log should show it
  if (goneBefore) ctx.info(`deleted ${recordLabel(set, id, record)} (the answer to the first attempt was lost; the repeated DELETE found it gone)`);
  else if (ctx.stderrIsTTY) ctx.info(`deleted ${recordLabel(set, id, record)}`);
}

export async function runAction(ctx: Ctx, set: ErpSet, action: ActionDef, opts: CompanyOpts, key: string): Promise<void> {
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const ns = ctx.config.checked('erp.actionNamespace') || 'Vendor.NAV';
  const { id, record } = await client.resolve(set, key);
  const result = await client.action(set, id, ns, action.action);
  if (result !== undefined) await ctx.print(result);
  if (ctx.stderrIsTTY) ctx.info(`${recordLabel(set, id, record)} ${action.done}`);
}

/** Writes a file atomically (or straight into a device or pipe): the one --out writer of core/output. */
async function writeAtomic(path: string, data: Buffer): Promise<void> {
  const sink = await atomicFileSink(path);
  try {
    await sink.write(data);
    await sink.commit();
  } catch (e) {
    await sink.abort();
    throw e;
  }
}
export async function runRelated(ctx: Ctx, set: ErpSet, opts: RelatedOpts, key: string, nav: string): Promise<void> {
  const def = set.navigation && Object.hasOwn(set.navigation, nav) ? set.navigation[nav] : undefined;
  if (!def) throw new UsageError(`unknown navigation "${nav}"`);
  if (opts.out !== undefined && nav !== 'pdfDocument') throw new UsageError('--out works with the pdfDocument navigation only');
  if (opts.out !== undefined) ctx.noQuery('related pdfDocument --out (it saves the document itself)');
  const q = listQuery(opts);
  if (!def.collection && (q.filter || q.orderby || q.top !== undefined || q.skip !== undefined || q.pageSize !== undefined)) {
    throw new UsageError(`${nav} is a single record: --filter, --orderby, --top, --skip and --page-size apply to list navigations only`);
  }
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const { id, record } = await client.resolve(set, key);
  if (opts.out !== undefined) {
    const bytes = await client.content(set, id, '/pdfDocument/pdfDocumentContent');
    // --out -: the document itself on standard output (`... --out - | lp`)
    const file = outFile(opts.out);
    if (file === undefined) return await ctx.write(bytes);
    await writeAtomic(file, bytes);
    if (ctx.stderrIsTTY) ctx.info(`saved ${bytes.length} bytes to ${opts.out}`);
    return;
  }
  const value = await client.related(set, id, nav, q);
  if (value === undefined) {
    // 204: nothing is related (not an error: the record is there); stdout holds nothing, as for any 204
    if (ctx.stderrIsTTY) ctx.info(`${recordLabel(set, id, record)} has no ${nav}`);
    return;
  }
  const columns = !def.collection ? undefined : def.columns && !q.select ? def.columns.map((c) => tableColumn(undefined, c)) : columnsOf(def.set ? findSet(def.set) : undefined, q.select);
  await ctx.print(value, { columns, empty: `no ${nav} records` });
}

/** The command that reads an operation's status (printed when a refresh starts and when a wait is interrupted). */
export function statusCommand(project: string, environment: string, activity: string): string {
  const q = (v: string) => (/^[\w.:@/-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  return `vx erp refresh status ${q(activity)} --project ${q(project)} --environment ${q(environment)}`;
}

export async function runRefresh(ctx: Ctx, opts: RefreshOpts): Promise<void> {
  for (const k of ['project', 'source', 'target'] as const) if (!opts[k]?.trim()) throw new UsageError(`--${k} may not be empty`);
  // (environment ids are GUIDs: the same one in another case is the same environment)
  if (opts.source === opts.target || (isGuid(opts.source) && opts.source.toLowerCase() === opts.target.toLowerCase())) {
    throw new UsageError('--source and --target are the same environment');
  }
  for (const [flag, v] of [['--poll-interval', opts.pollInterval], ['--wait-timeout', opts.waitTimeout]] as const) {
    if (v !== undefined && !opts.wait) throw new UsageError(`${flag} works with --wait only (add --wait to follow the refresh); nothing was sent`);
  }
  const interval = pollInterval(opts.pollInterval, 15);
  const timeout = waitTimeoutSeconds(opts.waitTimeout, REFRESH_WAIT_TIMEOUT_S);
  const client = await LcsClient.open(ctx.http, ctx.config);
  client.refreshUrl(opts); // checks the path segments before the question
  if (!ctx.http.dryRun) {
    await confirmDestructive(ctx.prompter, ctx.globals.yes, `Overwrite the database of environment ${opts.target} with a copy of environment ${opts.source} (project ${opts.project})?`);
  }
  const result = await client.refresh(opts);
  const activity = typeof result.OperationActivityId === 'string' && result.OperationActivityId.trim() ? result.OperationActivityId : undefined;
  // with --wait the final status is the result (it names the operation too); without an operation
  // to follow, the start answer is all there is
  if (!opts.wait || !result.IsSuccess || !activity) await ctx.print(result);
  if (!result.IsSuccess) throw new ServiceError(`the database refresh was not started: ${result.ErrorMessage ?? 'the service gave no reason'}`);
  const check = activity ? statusCommand(opts.project, opts.target, activity) : undefined;
  if (ctx.stderrIsTTY || (opts.wait && ctx.globals.verbose)) {
    ctx.info(`database refresh of ${opts.target} from ${opts.source} started: operation ${activity ?? 'unknown'}${check ? `\ncheck it with: ${check}` : ''}`);
  }
  if (!opts.wait) return;
  if (!activity) throw new ServiceError('the database refresh was started, but the answer has no OperationActivityId to follow; see the environment history of the project in the lifecycle services portal');
  await waitForOperation(ctx, client, { project: opts.project, environment: opts.target, activity, interval, timeout, check: check! });
}

/**
 * Polls an operation until it ends: at a terminal a spinner with its state and the time waited;
 * off a terminal a line per change of state with --verbose. The final status goes to stdout (exit
 * 1 when the operation failed); Ctrl-C, and --wait-timeout (exit 1), say that the refresh goes on
 * and how to check it. The pause between reads is core/poll's pollDelay: Retry-After, else
 * --poll-interval, never below a floor that grows with each read (a `Retry-After: 0` or
 * `--poll-interval 0` cannot make vx read the status in a tight loop for hours).
 */
async function waitForOperation(
  ctx: Ctx,
  client: LcsClient,
  o: { project: string; environment: string; activity: string; interval: number; timeout: number; check: string },
): Promise<void> {
  const started = Date.now();
  const label = (state: string | undefined) => `operation ${o.activity}: ${state ?? 'unknown'}`;
  let last: string | undefined;
  const spinner = startSpinner(ctx.io.stderr, `${label('submitted')} (0 s)`);
  const tick = setInterval(() => spinner.update(`${label(last ?? 'submitted')} (${elapsed(Date.now() - started)})`), 1000);
  tick.unref();
  let final: OperationStatus;
  const floor = pollFloorMs();
  try {
    for (let k = 0; ; k++) {
      const { body, retryAfter }: { body: OperationStatus; retryAfter?: string } = await client.status(o.project, o.environment, o.activity);
      if (body.IsSuccess === false) throw new ServiceError(`the status of operation ${o.activity} could not be read: ${body.ErrorMessage ?? 'no reason given'}`);
      const status = typeof body.OperationStatus === 'string' ? body.OperationStatus : undefined;
      if (status !== last && !ctx.stderrIsTTY) ctx.verbose(label(status));
      last = status;
      spinner.update(`${label(status)} (${elapsed(Date.now() - started)})`);
      if (outcomeOf(status) !== 'running') {
        final = body;
        break;
      }
      const left = o.timeout * 1000 - (Date.now() - started);
      if (left <= 0) {
        throw new ServiceError(`the database refresh did not end within --wait-timeout ${o.timeout} s (operation ${o.activity}, last seen ${status ?? 'without a state'}); it goes on; check it with: ${o.check}`);
      }
      await sleep(Math.min(pollDelay(k, retryAfter, o.interval, floor, 3600_000), left), ctx.signal);
    }
  } catch (e) {
    clearInterval(tick);
    spinner.stop();
    // the refresh runs on the service whatever happens here: say how to follow it
    if (e instanceof InterruptedError || ctx.signal.aborted) {
      throw new InterruptedError(`interrupted; the database refresh goes on (operation ${o.activity}${last ? `, last seen ${last}` : ''}); check it with: ${o.check}`);
    }
    if (isVxError(e) && !e.message.includes(o.check)) e.hint = [e.hint, `the refresh may still be running; check it with: ${o.check}`].filter(Boolean).join('; ');
    throw e;
  }
  clearInterval(tick);
  const state = typeof final.OperationStatus === 'string' ? final.OperationStatus : undefined;
  spinner.stop(ctx.stderrIsTTY ? `${label(state)} after ${elapsed(Date.now() - started)}` : undefined);
  await ctx.print(final);
  if (outcomeOf(state) === 'failed') throw new ServiceError(`the database refresh of ${o.environment} ended as ${state}${final.ErrorMessage ? `: ${final.ErrorMessage}` : ''}`);
}

/** `vx erp refresh status <operationId>`: the operation's status as the service returns it. */
export async function runRefreshStatus(ctx: Ctx, opts: RefreshStatusOpts, activity: string): Promise<void> {
  for (const k of ['project', 'environment'] as const) if (!opts[k]?.trim()) throw new UsageError(`--${k} may not be empty`);
  if (!activity.trim()) throw new UsageError('the operation id may not be empty');
  const client = await LcsClient.open(ctx.http, ctx.config);
  client.statusUrl(opts.project, opts.environment, activity); // checks the path segments before sending
  const { body } = await client.status(opts.project, opts.environment, activity);
  await ctx.print(body);
  if (body.IsSuccess === false) throw new ServiceError(`the status of operation ${activity} could not be read: ${body.ErrorMessage ?? 'no reason given'}`);
  const state = typeof body.OperationStatus === 'string' ? body.OperationStatus : undefined;
  if (ctx.stderrIsTTY) ctx.info(`operation ${activity}: ${state ?? 'unknown'}${outcomeOf(state) === 'running' ? ' (still running)' : ''}`);
}
