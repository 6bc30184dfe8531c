// The work behind `vx erp <set> import | export` and the bulk forms of `delete` and the bound
// actions (`--filter`, `--ids`): rows in, one result per row out, $batch in between.
import { resolve } from 'node:path';
import { batchFor, checkCommand, getCommand, idFields, lookup, lookupItems, resultOf, runBatches, type BulkItem, type BulkOptions, type Found, type ResultStatus, type RowResult } from '../api/erp/bulk.js';
import type { BatchClient, BatchOp } from '../api/erp/batch.js';
import { fmt } from '../api/translator/batcher.js';
import { ErpClient, odataQuery, type Entity, type ListQuery } from '../api/erp/client.js';
import { Journal, outcomeLine, sentLine } from '../api/erp/journal.js';
import { formatOf, readCsv, readJsonRows, type ParsedRows, type Row } from '../api/erp/rows.js';
import type { Ctx } from '../core/context.js';
import { InterruptedError, ServiceError, UsageError, oneLine } from '../core/errors.js';
import { readAllBytes } from '../core/input.js';
import { atomicFileSink, outFile, StreamRenderer, type Column, type Format, type ResultSink } from '../core/output/index.js';
import { Pacer } from '../core/pacer.js';
import { confirmDestructive } from '../core/prompt.js';
import { BATCH_MAX_OPERATIONS, isGuid, type ActionDef, type ErpSet } from '../model/erp.js';
import { parseRateLimit, RATE_LIMIT_FORM, wholeNumber } from '../model/families.js';
import type { BatchOpts, BulkActionOpts, CompanyOpts, ExportOpts, ImportOpts } from './erp.js';
import { listQuery } from './erp-run.js';

function intSetting(ctx: Ctx, key: string, flag: string, given: string | undefined, min: number, max: number): number {
  const v = ctx.config.get(key, given);
  const expected = v === undefined ? `a whole number from ${min} to ${max}` : wholeNumber(min, max)(v);
  if (expected !== undefined) throw new UsageError(`invalid value "${v}" for ${given !== undefined ? flag : ctx.config.originOf(key)}: expected ${expected}`);
  return Number(v);
}

/** Batch size, concurrency and atomicity from the flags and settings. */
export function bulkOptions(ctx: Ctx, opts: BatchOpts & CompanyOpts): BulkOptions {
  const limit = ctx.config.get('erp.rateLimit') ?? '';
  const rate = parseRateLimit(limit);
  if (!rate) throw new UsageError(`invalid value "${limit}" for ${ctx.config.originOf('erp.rateLimit')}: expected ${RATE_LIMIT_FORM}`);
  // the service counts a user's requests over a sliding window of W seconds (N at most): a tenth
  // of N may go at once and the rest flows at 0.9 N/W, so no window ever holds more than N
  const [n, w] = [rate.requests, rate.seconds];
  const pacer = new Pacer({ perMinute: ((0.9 * n) / w) * 60, burst: n / 10 });
  return {
    pacer,
    batchSize: intSetting(ctx, 'erp.batchSize', '--batch-size', opts.batchSize, 1, BATCH_MAX_OPERATIONS),
    concurrency: intSetting(ctx, 'erp.concurrency', '--concurrency', opts.concurrency, 1, 64),
    atomic: Boolean(opts.atomic),
    signal: ctx.signal,
  };
}

const RESULT_COLUMNS: Column[] = [
  { header: 'ROW', get: 'row', align: 'right', keep: true },
  { header: 'STATUS', get: 'status', keep: true },
  { header: 'ID', get: 'id' },
  { header: 'NUMBER', get: 'number', optional: true },
  { header: 'CODE', get: 'code', optional: true },
  { header: 'MESSAGE', get: 'message' },
];

const OK: ReadonlySet<ResultStatus> = new Set(['created', 'updated', 'deleted', 'done', 'skipped']);

/** Where results go: ndjson line by line as they come; other formats at the end, in row order. */
class Results {
  readonly all: RowResult[] = [];
  readonly counts = new Map<ResultStatus, number>();
  private readonly streaming: boolean;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: Ctx,
    readonly total: number,
  ) {
    this.streaming = ctx.explicitFormat() === 'ndjson';
    ctx.io.stdout.once('error', () => (this.outputGone = true));
  }

  private lines = '';

  add(r: RowResult): void {
    this.all.push(r);
    this.counts.set(r.status, (this.counts.get(r.status) ?? 0) + 1);
    if (this.streaming) this.lines += `${JSON.stringify(r)}\n`;
  }

  /** whether standard output failed (its reader went away: `| head`): the results still count, and the journal has them */
  outputGone = false;

  /** Writes the ndjson lines gathered since the last flush (one write per batch). */
  flush(): void {
    if (!this.lines) return;
    if (this.outputGone) {
      this.lines = '';
      return;
    }
    const text = this.lines;
    this.lines = '';
    this.pending = this.pending.then(() => this.ctx.write(text));
  }

  get failed(): number {
    return this.all.filter((r) => !OK.has(r.status)).length;
  }

  async finish(): Promise<void> {
    this.flush();
    await this.pending;
    if (this.streaming || this.outputGone) return;
    this.all.sort((a, b) => a.row - b.row);
    // at a terminal without -o the summary covers the rows that succeeded: only the others are listed
    const rows = this.ctx.explicitFormat() || !this.ctx.stdoutIsTTY ? this.all : this.all.filter((r) => !OK.has(r.status));
    if (!rows.length && !this.ctx.explicitFormat() && this.ctx.stdoutIsTTY) return;
    await this.ctx.print(rows, { columns: RESULT_COLUMNS, empty: 'no rows' });
  }

  summary(verb: string, interrupted?: boolean): string {
    const order: ResultStatus[] = ['created', 'updated', 'deleted', 'done', 'skipped', 'failed', 'rolled-back', 'unknown', 'invalid'];
    const parts = order.filter((s) => this.counts.get(s)).map((s) => `${fmt(this.counts.get(s)!)} ${s === 'skipped' ? 'skipped (done before, per the journal)' : s}`);
    // the rows Ctrl-C kept from being sent have no result: say how many
    if (interrupted && this.all.length < this.total) parts.push(`${fmt(this.total - this.all.length)} not sent (interrupted)`);
    return `${verb} ${fmt(this.total)} row${this.total === 1 ? '' : 's'}: ${parts.join(', ') || 'nothing to do'}`;
  }
}

/** Ends a bulk run: results, the summary on stderr, the unknown outcomes with a check, the exit status. */
async function finishRun(ctx: Ctx, set: ErpSet, results: Results, verb: string, interrupted: InterruptedError | undefined, checks: string[], journal?: Journal): Promise<void> {
  await results.finish();
  ctx.info(results.summary(verb, interrupted !== undefined));
  // each batch named with its rows (batch numbers alone mean nothing to a rerun, which numbers its own)
  const rolled = new Map<number, { first: number; last: number }>();
  for (const r of results.all) {
    if (r.batch === undefined) continue;
    const b = rolled.get(r.batch);
    if (!b) rolled.set(r.batch, { first: r.row, last: r.row });
    else [b.first, b.last] = [Math.min(b.first, r.row), Math.max(b.last, r.row)];
  }
  const batches = [...rolled].sort((a, b) => a[0] - b[0]).map(([no, b]) => `batch ${no} (${b.first === b.last ? `row ${b.first}` : `rows ${b.first}-${b.last}`})`);
  if (batches.length) ctx.info(`rolled back (--atomic): ${batches.join(', ')}; their rows were not changed`);
  const unknown = results.all.filter((r) => r.status === 'unknown');
  if (unknown.length) {
    ctx.info(`${unknown.length} row${unknown.length > 1 ? 's have' : ' has'} an unknown outcome (${rowList(unknown.map((r) => r.row))}): ${unknown.length > 1 ? 'they' : 'it'} may or may not have been done, and ${unknown.length > 1 ? 'were' : 'was'} not sent again`);
    for (const c of checks) ctx.info(`  check with: ${c}`);
    if (journal) ctx.info(`  a rerun leaves them alone; --check-unknown looks them up (and sends those the service shows it does not have), --resend-unknown sends them all again`);
  }
  const failures = results.all.filter((r) => !OK.has(r.status) && r.status !== 'unknown' && r.status !== 'rolled-back');
  for (const f of failures.slice(0, 20)) ctx.info(oneLine(`  row ${f.row}: ${f.status}${f.httpStatus ? ` (HTTP ${f.httpStatus}${f.code ? ` ${f.code}` : ''})` : ''}: ${f.message ?? ''}`));
  if (failures.length > 20) ctx.info(`  … and ${failures.length - 20} more (all of them with -o ndjson)`);
  if (results.outputGone) ctx.info('standard output was closed by its reader: the results after that were not written there (the journal has each row\'s outcome)');
  if (journal) ctx.info(`journal: ${journal.path}`);
  journal?.close();
  if (interrupted) throw new InterruptedError(`interrupted; ${journal ? 'the journal records what was done: run the same command again to go on' : 'the rows above say what was done'}`);
  if (results.failed) throw new ServiceError(`${fmt(results.failed)} of ${fmt(results.total)} rows did not succeed`);
}

/** "row 5", "rows 2, 3" or "rows 2, 3, … 5 more" */
function rowList(rows: number[]): string {
  const s = rows.slice(0, 10).join(', ');
  return `${rows.length === 1 ? 'row' : 'rows'} ${rows.length > 10 ? `${s}, … ${rows.length - 10} more` : s}`;
}

async function readRows(ctx: Ctx, set: ErpSet, opts: ImportOpts): Promise<{ parsed: ParsedRows; name: string }> {
  if (!opts.file?.trim()) throw new UsageError('--file <path|-> is required: the file to import (- reads standard input)');
  const format = formatOf(opts.file, opts.format);
  const { name, bytes } = await readAllBytes(opts.file, () => ctx.io.stdin);
  const mode = opts.update ? 'update' : 'create';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${name} is not valid UTF-8 text`);
  }
  if (format === 'csv') return { parsed: await readCsv(set, mode, text, name), name };
  return { parsed: await readJsonRows(set, mode, format, text, name), name };
}

export async function runImport(ctx: Ctx, set: ErpSet, opts: ImportOpts): Promise<void> {
  if (opts.resendUnknown && opts.checkUnknown) throw new UsageError('--check-unknown and --resend-unknown do not go together: --check-unknown sends only the rows the service proves it does not have');
  for (const [given, flag] of [[opts.resendUnknown, '--resend-unknown'], [opts.checkUnknown, '--check-unknown']] as const) {
    if (given && opts.journal === undefined && opts.file === '-') throw new UsageError(`${flag} needs the journal of the earlier run (--journal <file>)`);
  }
  const bulk = bulkOptions(ctx, opts);
  const { parsed, name } = await readRows(ctx, set, opts);
  if (parsed.ignored.length) {
    const cols = parsed.ignored.map((c) => `"${c}"`).join(', ');
    ctx.info(`${name}: read-only column${parsed.ignored.length > 1 ? 's' : ''} ${cols} ${parsed.ignored.length > 1 ? 'are' : 'is'} not sent (the service sets ${parsed.ignored.length > 1 ? 'them' : 'it'})`);
  }
  if (parsed.problems.length && !opts.skipInvalid) {
    for (const p of parsed.problems) ctx.info(oneLine(`${name} row ${p.row}: ${p.message}`));
    const bad = new Set(parsed.problems.map((p) => p.row)).size;
    throw new UsageError(`${bad} of ${parsed.total} row${parsed.total === 1 ? ' is' : 's are'} invalid (listed above); nothing was sent (--skip-invalid sends the valid rows)`);
  }
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const batch = batchFor(client, set, ctx.http, bulk.pacer);
  const mode = opts.update ? 'update' : 'create';
  if (ctx.http.dryRun) return planImport(ctx, client, set, batch, parsed.rows, mode, bulk);

  if (opts.file === '-' && opts.journal === undefined) throw new UsageError('reading standard input: name a journal with --journal <file>, so that a rerun knows what was already done');
  const journalPath = opts.journal ?? `${opts.file}.vx-journal`;
  if (!journalPath.trim()) throw new UsageError('--journal needs a file name');
  const journal = Journal.open(journalPath, {
    command: `erp ${set.noun} import${opts.update ? ' --update' : ''}`,
    company: client.company ?? '',
    input: opts.file === '-' ? '-' : resolve(opts.file!),
  });
  const results = new Results(ctx, parsed.total);
  // outcomes go to the journal as they come: a reader of the results that goes away (`| head`)
  // does not cut the run short with batches out (their rows would be left unknown) and exit 0
  ctx.host.keepOnOutputGone = true;
  try {
    // what an earlier run did
    const send: Row[] = [];
    const toCheck: { row: Row; id?: string }[] = [];
    const changed: number[] = [];
    for (const row of parsed.rows) {
      const prev = journal.previous.get(row.row);
      if (!prev || prev.state === 'failed' || prev.state === 'rolled-back') {
        send.push(row);
        continue;
      }
      if (prev.hash !== row.hash) {
        changed.push(row.row);
        continue;
      }
      if (prev.state === 'done') results.add({ row: row.row, status: 'skipped', ...(prev.id ? { id: prev.id } : {}), ...(prev.number ? { number: prev.number } : {}) });
      else if (opts.resendUnknown) send.push(row);
      else if (opts.checkUnknown) toCheck.push({ row, id: prev.id });
      else {
        const check = checksFor(set, mode, [row], () => prev.id)[0];
        results.add({ row: row.row, status: 'unknown', ...(prev.id ? { id: prev.id } : {}), message: 'sent by an earlier run whose outcome is unknown; not sent again (--check-unknown looks it up; --resend-unknown sends it)', ...(check ? { check } : {}) });
      }
    }
    if (changed.length) {
      results.all.length = 0;
      // ("start over" read as safe: it sends the rows done before again, a second record each on create)
      const again = mode === 'create' ? 'the rows it records as created would be created twice' : 'the rows it records as updated would be updated again';
      throw new UsageError(
        `the journal ${journal.path} belongs to another version of the input: ${rowList(changed)} ${changed.length > 1 ? 'were' : 'was'} sent before with other content (rows are told apart by their line: add new rows at the end); name another file with --journal, or delete it to send every row again (${again})`,
      );
    }
    for (const p of parsed.problems) results.add({ row: p.row, status: 'invalid', message: p.message });
    // rows by row number (an array: a Map of 10,000 entries cost more to build and to keep)
    const byRow: Row[] = [];
    for (const r of send) byRow[r.row] = r;
    for (const c of toCheck) byRow[c.row.row] = c.row;
    const sentLines = (rows: readonly Row[]) => {
      let text = '';
      for (const row of rows) text += sentLine(row.row, row.hash);
      return text;
    };
    // Outcomes are journaled a batch at a time, in the same turn of the event loop as they are
    // learned: with the `sent` lines of the batch the same worker sends next (one write, before
    // that batch leaves), or else at the end of that turn (a microtask). Either way before any
    // other answer is read or request made, so a crash loses nothing that a per-batch write kept.
    let learned = '';
    let pending = false;
    const flush = () => {
      pending = false;
      journal.appendLines(learned);
      learned = '';
      results.flush();
    };
    const flushSoon = () => {
      if (pending) return;
      pending = true;
      queueMicrotask(flush);
    };
    const journalSent = (rows: readonly Row[]) => {
      journal.appendLines(learned + sentLines(rows));
      learned = '';
    };
    const record = (r: RowResult): void => {
      const row = byRow[r.row] as Row | undefined;
      if (r.status === 'unknown' && row) r.check = checksFor(set, mode, [row], () => r.id)[0];
      results.add(r);
      if (!row) return;
      const state = OK.has(r.status) ? 'done' : r.status === 'unknown' ? 'unknown' : r.status === 'rolled-back' ? 'rolled-back' : 'failed';
      learned += outcomeLine(r.row, row.hash, state, r);
    };
    let interrupted: InterruptedError | undefined;
    try {
      if (toCheck.length) {
        // --check-unknown: ask the service about each row an earlier run left unknown; found ->
        // done, provably absent -> sent with the others (create), anything else stays unknown
        // the records the journal has other rows created (done, with an id): an unknown row that finds one cannot have created it
        const createdBy = new Map<string, number>();
        if (mode === 'create') for (const e of journal.previous.values()) if (e.state === 'done' && e.id) createdBy.set(e.id.toLowerCase(), e.row);
        const absent = await checkUnknown(client, set, batch, mode, toCheck, bulk, record, createdBy);
        flush();
        const checked = new Set(toCheck.map((t) => t.row.row));
        const c = (status: ResultStatus) => results.all.filter((r) => r.status === status && checked.has(r.row)).length;
        const parts = [`${c(mode === 'create' ? 'created' : 'updated')} found done`, ...(mode === 'create' ? [`${absent.length} not there (sent now)`] : []), `${c('unknown')} still unknown`];
        ctx.info(`--check-unknown: ${toCheck.length} row${toCheck.length === 1 ? '' : 's'} looked up: ${parts.join(', ')}`);
        for (const r of absent) byRow[r.row] = r;
        send.push(...absent);
        send.sort((a, b) => a.row - b.row);
      }
      if (mode === 'create') {
        const url = client.collectionUrl(set);
        const items: BulkItem[] = send.map((r) => ({ row: r.row, op: { method: 'POST', url, body: r.body } }));
        await runBatches(batch, items, bulk, (chunk) => journalSent(chunk.map((c) => byRow[c.row])), (chunk, res, no) => {
          chunk.forEach((c, i) => record(resultOf(c.row, res[i], 'created', no)));
          flushSoon();
        });
      } else {
        await runUpdates(client, set, batch, send, bulk, (rows) => journalSent(rows), (r) => {
          record(r);
          flushSoon();
        });
      }
    } catch (e) {
      if (!(e instanceof InterruptedError)) throw e;
      interrupted = e;
      // rows never reached: a rerun sends them
    } finally {
      flush();
    }
    // (those of an earlier run too: they are checked the same way)
    const unknownIds = new Map(results.all.filter((x) => x.status === 'unknown').map((x) => [x.row, x.id]));
    const unknownRows = parsed.rows.filter((r) => unknownIds.has(r.row));
    const checks = checksFor(set, mode, unknownRows, (r) => unknownIds.get(r.row));
    await finishRun(ctx, set, results, mode === 'create' ? 'imported' : 'updated from', interrupted, checks, journal);
  } finally {
    journal.close();
    ctx.host.keepOnOutputGone = false;
  }
}

/** Whether the service keeps this key value as written: the key fields of the sets (code, externalDocumentNumber) are code fields, which it stores in capitals without surrounding spaces. */
function storedAsGiven(value: string): boolean {
  return value !== '' && value === value.trim() && value === value.toUpperCase();
}

/** Values equal as the service gives them back (a null sent clears the field: empty text, 0 or false). */
function sameValue(have: unknown, want: unknown): boolean {
  if (want === null) return have === null || have === '' || have === 0 || have === false;
  if (typeof want === 'object' || typeof have === 'object') return JSON.stringify(have) === JSON.stringify(want);
  return have === want;
}

/**
 * --check-unknown: looks up each row an earlier run left unknown, in batched GETs. Create: by the
 * set's natural key; found -> created (journaled done, never sent) unless the journal records
 * another row as having created that very record (`createdBy`), not found when the key is one
 * the service stores as written -> returned, to be sent now. Update: by the record's id (or the
 * row's key); found with the row's values in place -> updated. Anything else stays unknown, with why.
 */
async function checkUnknown(
  client: ErpClient,
  set: ErpSet,
  batch: BatchClient,
  mode: 'create' | 'update',
  rows: readonly { row: Row; id?: string }[],
  bulk: BulkOptions,
  record: (r: RowResult) => void,
  /** create: lower-case id -> the row the journal records as having created that record */
  createdBy: ReadonlyMap<string, number> = new Map(),
): Promise<Row[]> {
  const byRow = new Map(rows.map((r) => [r.row.row, r]));
  const unknown = (row: Row, message: string, id?: string, hint = '') => record({ row: row.row, status: 'unknown', ...(id ? { id } : {}), message: `${message}; not sent again${hint}` });
  const keys: { row: number; field: string; value: string }[] = [];
  const key = set.naturalKey;
  for (const { row, id } of rows) {
    if (mode === 'update') {
      const k = id ? { field: 'id', value: id } : row.key!;
      keys.push({ row: row.row, field: k.field, value: k.value });
      continue;
    }
    const v = key ? row.body[key] : undefined;
    if (typeof v === 'string' && v !== '') keys.push({ row: row.row, field: key!, value: v });
    else {
      const why = set.fields.number?.readOnly ? `its number is set by the service${key ? ` and the row has no ${key}` : ''}` : key ? `the row has no ${key}` : `the ${set.singular} has no key field`;
      unknown(row, `--check-unknown cannot look it up: nothing in the row identifies the ${set.singular} it would have created (${why}); check by hand`);
    }
  }
  // the record found must hold the row's values where the key alone does not prove it is the
  // row's: with --update, and on create by a key the service does not keep unique
  // (externalDocumentNumber: another order may carry the same one)
  const compare = mode === 'update' || key !== set.humanKey;
  const fields = compare ? [...new Set(['id', ...(set.fields.number ? ['number'] : []), ...rows.flatMap((r) => Object.keys(r.row.body))])].join(',') : undefined;
  let found: Map<number, Found>;
  try {
    found = await lookup(client, set, batch, keys, bulk, fields);
  } catch (e) {
    // Ctrl-C: the rows stay unknown (said so, with their check), and nothing is sent
    if (e instanceof InterruptedError) for (const k of keys) unknown(byRow.get(k.row)!.row, '--check-unknown was interrupted before it learned about it', byRow.get(k.row)!.id);
    throw e;
  }
  // on create, rows of the file naming one key (as the service would store it) find one record:
  // only one of them can have created it
  const sharing = new Map<string, number[]>();
  const shareKey = (k: { field: string; value: string }) => `${k.field}\u0000${k.value.trim().toUpperCase()}`;
  if (mode === 'create') for (const k of keys) sharing.set(shareKey(k), [...(sharing.get(shareKey(k)) ?? []), k.row]);
  const absent: Row[] = [];
  for (const k of keys) {
    const { row, id } = byRow.get(k.row)!;
    const f = found.get(k.row)!;
    const what = `${k.field} ${k.value}`;
    const others = mode === 'create' && !f.failure ? sharing.get(shareKey(k))! : [];
    if (others.length > 1) {
      unknown(row, `--check-unknown found a ${set.singular} (${what}), but rows ${others.slice(0, -1).join(', ')} and ${others.at(-1)} of the file all name it and only one of them can have created it; check by hand`);
      continue;
    }
    if (f.failure) {
      if (f.failure.code === 'NotFound' && mode === 'create' && storedAsGiven(k.value)) absent.push(row);
      else if (f.failure.code === 'NotFound' && mode === 'create') unknown(row, `--check-unknown found no ${set.singular} with ${what}, but the service keeps ${k.field} in capitals without surrounding spaces, so it may hold it otherwise; check by hand`);
      else if (f.failure.code === 'NotFound') unknown(row, `--check-unknown found no ${set.singular} with ${what}`, id);
      else if (f.failure.code === 'Ambiguous') unknown(row, `--check-unknown found more than one ${set.singular} with ${what}`, id);
      else unknown(row, `--check-unknown could not look it up: ${f.failure.message ?? ''}`, id);
      continue;
    }
    const extra = { id: f.id, ...(f.number ? { number: f.number } : {}) };
    const off = compare ? Object.keys(row.body).find((name) => !sameValue(f.record?.[name], row.body[name])) : undefined;
    const differs = off !== undefined && `--check-unknown found a ${set.singular} (${what}) without the row's values (${off} is ${JSON.stringify(f.record?.[off] ?? null)}, the row has ${JSON.stringify(row.body[off])})`;
    const by = mode === 'create' && f.id ? createdBy.get(f.id.toLowerCase()) : undefined;
    if (by !== undefined && by !== row.row) {
      // its POST was refused (a second record with that key), or never done: not proven either way
      unknown(row, `--check-unknown found a ${set.singular} (${what}), but it is the one row ${by} created (the journal records its id ${f.id}): this row cannot have created it; check by hand`);
      continue;
    }
    if (mode === 'create') {
      if (differs) unknown(row, `${differs}: it may be another's, or changed since; check by hand`, undefined, ' (--resend-unknown sends it)');
      else record({ row: row.row, status: 'created', ...extra, message: `found by --check-unknown (${what}${compare ? ", with the row's values" : ''}): the earlier run created it` });
    } else if (differs) unknown(row, `${differs}: the update was not done, or the record changed since`, f.id, ' (--resend-unknown sends it)');
    else record({ row: row.row, status: 'updated', ...extra, message: `found by --check-unknown (${what}) with the row's values: the earlier run updated it` });
  }
  return absent;
}

/** Commands that find out what happened to rows with an unknown outcome: one list by the human key when there is one. */
function checksFor(set: ErpSet, mode: 'create' | 'update', rows: Row[], idOf: (row: Row) => string | undefined): string[] {
  if (!rows.length) return [];
  // one list per 50 values of a key
  const lists = (field: string, values: string[]) => {
    const out: string[] = [];
    for (let i = 0; i < values.length; i += 50) out.push(checkCommand(set, field, values.slice(i, i + 50))!);
    return out;
  };
  if (mode === 'update') {
    // by id where it is known, else by the key that finds the row's record (a row sent before its id was journaled)
    const byField = new Map<string, string[]>();
    for (const r of rows) {
      const id = r.key?.field === 'id' ? r.key.value : idOf(r);
      const [field, value] = id ? ['id', id] : [r.key!.field, r.key!.value];
      const list = byField.get(field);
      if (list) list.push(value);
      else byField.set(field, [value]);
    }
    return [...byField].flatMap(([field, values]) => lists(field, values).map((c) => (field === 'id' ? c.replace(/'([0-9a-f-]{36})'/gi, '$1') : c)));
  }
  const key = set.naturalKey;
  const values = key ? rows.map((r) => r.body[key]).filter((v): v is string => typeof v === 'string' && v !== '') : [];
  if (key && values.length === rows.length) return lists(key, values);
  return [`vx erp ${set.noun} list --orderby "lastModifiedDateTime desc" --top ${rows.length}`];
}

/** --update: find each record (unless the row names its id and ETag), then PATCH it with If-Match. */
async function runUpdates(
  client: ErpClient,
  set: ErpSet,
  batch: BatchClient,
  rows: readonly Row[],
  bulk: BulkOptions,
  onSent: (rows: Row[]) => void,
  record: (r: RowResult) => void,
): Promise<void> {
  const need = rows.filter((r) => !(r.key?.field === 'id' && r.etag));
  const found = await lookup(client, set, batch, need.map((r) => ({ row: r.row, field: r.key!.field, value: r.key!.value })), bulk);
  const items: BulkItem[] = [];
  const byRow = new Map(rows.map((r) => [r.row, r]));
  for (const r of rows) {
    const f = found.get(r.row);
    if (f?.failure) {
      record(f.failure);
      continue;
    }
    const id = f?.id ?? r.key!.value;
    const etag = r.etag ?? f?.etag;
    if (!etag) {
      record({ row: r.row, status: 'failed', id, message: `the ${set.singular} came without an @odata.etag` });
      continue;
    }
    items.push({ row: r.row, op: { method: 'PATCH', url: client.itemUrl(set, id), headers: { 'If-Match': etag }, body: r.body } });
  }
  await runBatches(batch, items, bulk, (chunk) => onSent(chunk.map((c) => byRow.get(c.row)!)), (chunk, res, no) => {
    chunk.forEach((c, i) => {
      const result = resultOf(c.row, res[i], 'updated', no);
      if (result.status === 'failed' && (result.httpStatus === 412 || result.httpStatus === 409)) {
        result.message = `the ${set.singular} was changed by someone else since its ETag was read; it was left as it was (${result.message})`;
      }
      if (!result.id) {
        const f = found.get(c.row);
        const id = f?.id ?? byRow.get(c.row)!.key!.value;
        result.id = id;
      }
      record(result);
    });
  });
}

/** --dry-run: the batches that would be sent (updates: the reads, then the writes with placeholders). */
function planImport(ctx: Ctx, client: ErpClient, set: ErpSet, batch: BatchClient, rows: Row[], mode: 'create' | 'update', bulk: BulkOptions): void {
  const size = bulk.batchSize ?? BATCH_MAX_OPERATIONS;
  const ops = rows.map((r) =>
    mode === 'create'
      ? { method: 'POST' as const, url: client.collectionUrl(set), body: r.body }
      : { method: 'PATCH' as const, url: client.itemUrl(set, r.key!.field === 'id' ? r.key!.value : `${r.key!.field}=${r.key!.value}`.replace(/[^\w=.-]/g, '_')), headers: { 'If-Match': r.etag ?? '<@odata.etag of a fresh read>' }, body: r.body },
  );
  for (let i = 0; i < ops.length; i += size) {
    ctx.http.plan({ method: 'POST', url: batch.url, headers: batch.requestHeaders(bulk.atomic), body: batch.body(ops.slice(i, i + size)) });
  }
  if (!ops.length) ctx.info('dry run: no rows to send');
}

// ---- bulk actions and deletes: --filter or --ids ----

interface Target {
  row: number;
  id: string;
  etag?: string;
  number?: string;
}

async function targets(ctx: Ctx, client: ErpClient, set: ErpSet, opts: BulkActionOpts, q: ListQuery | undefined): Promise<{ list: Target[]; what: string }> {
  if (q) {
    const select = idFields(set);
    const list: Target[] = [];
    let i = 0;
    for await (const page of client.listPages(set, { ...q, select }))
      for (const e of page as Entity[]) list.push({ row: ++i, id: String(e.id), etag: typeof e['@odata.etag'] === 'string' ? e['@odata.etag'] : undefined, ...(typeof e.number === 'string' ? { number: e.number } : {}) });
    return { list, what: `matching ${opts.filter}` };
  }
  const src = await readAllBytes(opts.ids!, () => ctx.io.stdin);
  const list: Target[] = [];
  const bad: string[] = [];
  src.bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((l, i) => {
      const id = l.trim();
      if (!id) return;
      if (set.fields.id?.type === 'guid' && !isGuid(id)) bad.push(`line ${i + 1}: "${id}" is not a GUID`);
      else list.push({ row: i + 1, id });
    });
  if (bad.length) {
    for (const b of bad) ctx.info(oneLine(`${src.name} ${b}`));
    throw new UsageError(`${bad.length} invalid ${set.singular} id${bad.length > 1 ? 's' : ''} in ${src.name} (listed above); nothing was sent`);
  }
  // an id listed twice is acted on once: a second `send` would send the quote to the customer again
  const first = new Map<string, number>();
  const once = list.filter((t) => {
    const key = t.id.toLowerCase();
    const seen = first.get(key);
    if (seen === undefined) {
      first.set(key, t.row);
      return true;
    }
    ctx.info(`${src.name} line ${t.row}: ${t.id} repeats line ${seen}; it is acted on once`);
    return false;
  });
  return { list: once, what: `listed in ${src.name}` };
}

/** `delete --filter|--ids` and `<action> --filter|--ids`: count, confirm, run over $batch, report per record. */
export async function runBulk(ctx: Ctx, set: ErpSet, action: ActionDef | 'delete', opts: BulkActionOpts): Promise<void> {
  if ((opts.filter !== undefined) === (opts.ids !== undefined)) throw new UsageError('name the records with exactly one of <id>, --filter <odata> and --ids <file|->');
  if (opts.ifMatch !== undefined) throw new UsageError('--if-match names one record\'s ETag; with --filter or --ids each record\'s own is used (or --force)');
  const q = opts.filter !== undefined ? listQuery({ filter: opts.filter }) : undefined; // (an empty --filter is refused, --dry-run or not)
  const bulk = bulkOptions(ctx, opts);
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const batch = batchFor(client, set, ctx.http, bulk.pacer);
  const ns = (action === 'delete' ? ctx.config.get('erp.actionNamespace') : ctx.config.checked('erp.actionNamespace')) || 'Vendor.NAV';
  const select = idFields(set);
  if (ctx.http.dryRun && q) {
    ctx.http.plan({ method: 'GET', url: client.collectionUrl(set, odataQuery({ ...q, select })), headers: client.headers });
    ctx.http.plan({ method: 'POST', url: batch.url, headers: batch.requestHeaders(bulk.atomic), body: { requests: `<one ${action === 'delete' ? 'DELETE' : `POST …/${ns}.${action.action}`} per record the filter matches, ${bulk.batchSize} per batch>` } });
    return;
  }
  const plural = `${set.singular} records`;
  const source = opts.filter !== undefined ? `matching ${opts.filter}` : `listed in ${opts.ids === '-' ? 'standard input' : opts.ids}`;
  // without a terminal and without --yes the question cannot be asked: refuse before the records are
  // read (exit 2 sends nothing; found by the path-segment fuzz of issue 13); --dry-run never asks
  if (!ctx.globals.yes && !ctx.prompter.interactive && !ctx.http.dryRun) {
    await confirmDestructive(ctx.prompter, false, actionQuestion(action, `the ${plural} ${source}`));
  }
  const { list, what } = await targets(ctx, client, set, opts, q);
  if (!list.length) {
    ctx.info(`no ${plural} ${what}; nothing to do`);
    return;
  }
  const question = actionQuestion(action, `${fmt(list.length)} ${list.length === 1 ? set.singular : plural} ${what}`);
  if (ctx.http.dryRun) {
    // the reads that give each record's ETag (delete --ids), then the batches
    const plan = (ops: BatchOp[], atomic?: boolean) => {
      for (let i = 0; i < ops.length; i += bulk.batchSize!) ctx.http.plan({ method: 'POST', url: batch.url, headers: batch.requestHeaders(atomic), body: batch.body(ops.slice(i, i + bulk.batchSize!)) });
    };
    if (action === 'delete' && !opts.force) plan(lookupItems(client, set, list.filter((t) => !t.etag).map((t) => ({ row: t.row, field: 'id', value: t.id }))).map((it) => it.op));
    plan(list.map((t) => opFor(client, set, action, ns, t, opts.force ? '*' : (t.etag ?? '<@odata.etag of a fresh read>'))), bulk.atomic);
    return;
  }
  await confirmDestructive(ctx.prompter, ctx.globals.yes, question);
  if (ctx.stderrIsTTY) ctx.info(`${list.length} ${plural} ${what}`);
  const results = new Results(ctx, list.length);
  let interrupted: InterruptedError | undefined;
  const items: BulkItem[] = [];
  const byRow = new Map(list.map((t) => [t.row, t]));
  try {
    if (action === 'delete' && !opts.force) {
      const need = list.filter((t) => !t.etag);
      const found = await lookup(client, set, batch, need.map((t) => ({ row: t.row, field: 'id', value: t.id })), bulk);
      for (const t of need) {
        const f = found.get(t.row)!;
        if (f.failure) results.add({ ...f.failure, id: t.id });
        else Object.assign(t, { etag: f.etag, number: f.number });
      }
    }
    const reported = new Set(results.all.map((r) => r.row));
    for (const t of list) if ((action !== 'delete' || opts.force || t.etag) && !reported.has(t.row)) items.push({ row: t.row, op: opFor(client, set, action, ns, t, opts.force ? '*' : t.etag!) });
    await runBatches(batch, items, bulk, () => undefined, (chunk, res, no) => {
      chunk.forEach((c, i) => {
        const t = byRow.get(c.row)!;
        const r = resultOf(c.row, res[i], action === 'delete' ? 'deleted' : 'done', no, { id: t.id, ...(t.number ? { number: t.number } : {}) });
        if (r.status === 'unknown') r.check = getCommand(set, t.id);
        results.add(r);
      });
      results.flush();
    });
  } catch (e) {
    if (!(e instanceof InterruptedError)) throw e;
    interrupted = e;
  }
  const unknown = results.all.filter((r) => r.status === 'unknown').map((r) => r.id!);
  const checks = unknown.length ? [checkCommand(set, 'id', unknown)!.replace(/'([0-9a-f-]{36})'/gi, '$1')] : [];
  await finishRun(ctx, set, results, action === 'delete' ? 'deleted from' : `${action.command}:`, interrupted, checks);
}

/** "Ship and invoice 12 sales order records matching …?", "Turn 3 sales quote records listed in ids.txt into a sales order?" */
function actionQuestion(action: ActionDef | 'delete', records: string): string {
  if (action === 'delete') return `Delete ${records}?`;
  const m = /^(.+?) the [\w ]+?((?: (?:into|to) .*)?)$/.exec(action.description);
  const capital = (s: string) => s.replace(/^\w/, (c) => c.toUpperCase());
  return m ? `${capital(m[1])} ${records}${m[2]}?` : `${capital(action.description)}: ${records}?`;
}

function opFor(client: ErpClient, set: ErpSet, action: ActionDef | 'delete', ns: string, t: Target, etag: string) {
  return action === 'delete'
    ? { method: 'DELETE' as const, url: client.itemUrl(set, t.id), headers: { 'If-Match': etag } }
    : { method: 'POST' as const, url: client.itemUrl(set, t.id, `/${ns}.${action.action}`) };
}

// ---- export ----

async function* pagesOf(pages: AsyncIterable<Entity[]>): AsyncGenerator<{ count: number; ndjson?: string | Uint8Array; items?: Entity[] }> {
  for await (const items of pages) yield { count: items.length, items };
}

const EXPORT_FORMATS = ['csv', 'ndjson', 'json', 'tsv'] as const;
export const EXPORT_PAGE_SIZE = 500;

export async function runExport(ctx: Ctx, set: ErpSet, flags: ExportOpts): Promise<void> {
  const opts = { ...flags, out: outFile(flags.out) };
  // -o, else the --out file's name, else VX_OUTPUT or the profile's output when export writes it
  // (a display preference such as table must not stop an export, nor turn people.csv into JSON)
  const given = ctx.globals.output !== undefined ? ctx.explicitFormat() : undefined;
  const preferred = ctx.explicitFormat();
  const byName = opts.out && /\.(csv|ndjson|jsonl|json|tsv)$/i.exec(opts.out)?.[1].toLowerCase().replace('jsonl', 'ndjson');
  const format = (given ?? byName ?? (preferred && (EXPORT_FORMATS as readonly string[]).includes(preferred) ? preferred : 'ndjson')) as Format;
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`export writes ${EXPORT_FORMATS.join(', ')}; -o ${format} is not one of them`);
  if (ctx.globals.query) throw new UsageError('--query does not apply to export (it streams every record); use --filter and --select');
  // pages of 500 unless told otherwise: the service's default (20,000) holds 40x the memory
  // per page, and memory must stay flat whatever the number of records
  const q = { ...listQuery(opts), pageSize: listQuery(opts).pageSize ?? EXPORT_PAGE_SIZE };
  const client = await ErpClient.open(ctx.http, ctx.config, set, opts.company);
  const names = q.select ? [...new Set(q.select.split(',').map((s) => s.trim()).filter(Boolean))] : [...Object.keys(set.fields), '@odata.etag'];
  // @odata.etag is an annotation every record carries, not a property: a column when named, never
  // in $select (which the service refuses)
  if (q.select && names.includes('@odata.etag')) q.select = names.filter((n) => n !== '@odata.etag').join(',') || undefined;
  const columns: Column[] = names.map((n) => ({ header: n, get: (row: unknown) => (row as Record<string, unknown>)[n] }));
  const renderer = new StreamRenderer(format, { columns });
  const sink: ResultSink = opts.out !== undefined ? await atomicFileSink(opts.out) : ctx.stdoutSink(format);
  let count = 0;
  try {
    // the next page is asked for before this one is written: reading and writing overlap, and
    // at most two pages are held at once
    // -o ndjson writes each record as the service wrote it (cut from the page's text, not parsed
    // and serialized again: the same JSON, numbers exact), where the page allows
    const pages = (format === 'ndjson' ? client.listPagesNdjson(set, q) : pagesOf(client.listPages(set, q)))[Symbol.asyncIterator]();
    try {
      let next = pages.next();
      for (;;) {
        const r = await next;
        if (r.done) break;
        next = pages.next();
        next.catch(() => undefined); // a failure is met (and thrown) at the next await
        count += r.value.count;
        await sink.write(r.value.ndjson ?? renderer.items(r.value.items ?? []));
        if (ctx.stderrIsTTY && opts.out !== undefined) ctx.io.stderr.write(`\rexported ${fmt(count)} records`);
      }
    } finally {
      await pages.return?.(undefined)?.catch(() => undefined);
    }
    await sink.write(renderer.end());
    await sink.commit();
  } catch (e) {
    await sink.abort();
    throw e;
  }
  if (ctx.stderrIsTTY && opts.out !== undefined) ctx.io.stderr.write('\n');
  if (ctx.stderrIsTTY || ctx.globals.verbose) ctx.info(`exported ${fmt(count)} ${set.singular} records${opts.out !== undefined ? ` to ${opts.out}` : ''}`);
}
