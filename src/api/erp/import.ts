// An import's rows sent over $batch with a journal: rows an earlier run did are skipped, rows
// whose outcome it could not learn are left alone, looked up (--check-unknown) or sent again
// (--resend-unknown); every outcome is journaled as it is learned, so a rerun goes on from there.
import { InterruptedError, UsageError } from '../../core/errors.js';
import { capYoungGeneration, limitHeapGrowth } from '../../core/heap.js';
import type { Http } from '../../core/http/index.js';
import { BATCH_MAX_OPERATIONS, MAX_REQUEST_MS, REQUEST_MARGIN_MS, type ErpSet } from '../../model/erp/index.js';
import type { BatchClient } from './batch.js';
import { checksFor, checkUnknown, type UnknownRow } from './check-unknown.js';
import { lookup, resultOf, rowList, runBatches, SUCCEEDED, type BulkItem, type BulkOptions, type ResultLog, type RowResult } from './bulk.js';
import type { ErpClient } from './client.js';
import { checkUtf8, openImportInput, type ImportInput } from './import-input.js';
import { outcomeLine, sentLine, type Journal, type JournalEntry } from './journal.js';
import { readCsv } from './rows-csv.js';
import { formatOf, type ReadRows, type Row, type RowMode, type RowProblem } from './rows.js';
import { readJsonRows } from './rows-json.js';

/** One import: the set, its clients, create or update, and how the batches go. */
export interface ImportRun {
  client: ErpClient;
  set: ErpSet;
  batch: BatchClient;
  mode: RowMode;
  bulk: BulkOptions;
}

/** From this many rows on, an import is a long run that keeps V8's heap close to what it holds (core/heap.ts). */
const LONG_RUN_ROWS = 10_000;
const LONG_RUN_BYTES = 4 << 20;
const YOUNG_GENERATION_MB = 4;
const HEAP_GROWTH_PERCENT = 30;

/** What becomes of the rows an earlier run sent without learning their outcome. */
export type UnknownPolicy = 'leave' | 'check' | 'resend';

/**
 * Opens the input file (`-`: standard input, kept in `tmp` for the run) and checks its rows, CSV,
 * NDJSON or JSON by `format` or the file's name. The input is read as a stream, now and again as
 * the rows are sent; close it when the run ends.
 */
export async function readImportFile(
  set: ErpSet,
  mode: RowMode,
  file: string | undefined,
  format: string | undefined,
  stdin: () => NodeJS.ReadableStream,
  tmp: string,
): Promise<{ parsed: ReadRows; name: string; input: ImportInput }> {
  if (!file?.trim()) throw new UsageError('--file <path|-> is required: the file to import (- reads standard input)');
  const kind = formatOf(file, format);
  const input = await openImportInput(file, stdin, tmp);
  // a large input is a long run from the start: its rows are all built once to be checked, then
  // again as they are sent, and V8's heap is kept close to what the run holds (core/heap.ts)
  if (input.size >= LONG_RUN_BYTES) limitHeapGrowth(HEAP_GROWTH_PERCENT);
  try {
    const parsed = kind === 'csv' ? await readCsv(set, mode, input, input.name, true) : await readJsonRows(set, mode, kind, input, input.name, true);
    return { parsed, name: input.name, input };
  } catch (e) {
    // text that is not UTF-8 is said first, wherever it is (as when the input was decoded whole)
    if (e instanceof UsageError && e.message !== `${input.name} is not valid UTF-8 text`) {
      try {
        checkUtf8(input);
      } catch (bad) {
        input.close();
        throw bad;
      }
    }
    input.close();
    throw e;
  }
}

/** --dry-run: the batches that would be sent (updates: the writes, with placeholders for what reads would find). Returns how many operations. */
export function planImport(http: Http, r: ImportRun, rows: Iterable<Row>): number {
  const { client, set, batch, bulk } = r;
  const size = bulk.batchSize ?? BATCH_MAX_OPERATIONS;
  const opOf = (row: Row) =>
    r.mode === 'create'
      ? { method: 'POST' as const, url: client.collectionUrl(set), body: row.body }
      : { method: 'PATCH' as const, url: client.itemUrl(set, row.key!.field === 'id' ? row.key!.value : `${row.key!.field}=${row.key!.value}`.replace(/[^\w=.-]/g, '_')), headers: { 'If-Match': row.etag ?? '<@odata.etag of a fresh read>' }, body: row.body };
  // (a batch at a time, as the rows are read)
  let ops: ReturnType<typeof opOf>[] = [];
  let n = 0;
  const plan = () => http.plan({ method: 'POST', url: batch.url, auth: batch.auth, headers: batch.requestHeaders(bulk.atomic), body: batch.body(ops) });
  for (const row of rows) {
    ops.push(opOf(row));
    n++;
    if (ops.length === size) {
      plan();
      ops = [];
    }
  }
  if (ops.length) plan();
  return n;
}

/** A time as stderr and the results say it: UTC, to the second. */
const timeText = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/**
 * Until when the request that carried a row an earlier run sent may still be running on the
 * service: its send time (for a journal without one, the journal's last write before this run)
 * plus the longest the service works on a request, and a margin. Before then a lookup can miss a
 * record the request is about to create, and sending the row again would create it twice.
 */
function runningUntil(journal: Journal, at: number | undefined): number {
  return (at ?? journal.writtenBefore) + MAX_REQUEST_MS + REQUEST_MARGIN_MS;
}

type Decision = 'send' | 'changed' | 'done' | 'check' | 'unknown';

/** What becomes of a row, from its last entry in the journal (none: sent); `same`: the row's content is the one journaled. */
function decide(journal: Journal, prev: Pick<JournalEntry, 'state' | 'at'> | undefined, same: boolean, policy: UnknownPolicy, now: number): Decision {
  if (!prev || prev.state === 'failed' || prev.state === 'rolled-back') return 'send';
  if (!same) return 'changed';
  if (prev.state === 'done') return 'done';
  if (policy === 'resend') return 'send';
  return policy === 'check' && runningUntil(journal, prev.at) <= now ? 'check' : 'unknown';
}

/** A row's last entry as far as its state and send time tell, without reading its line. */
function brief(journal: Journal, row: number): Pick<JournalEntry, 'state' | 'at'> | undefined {
  const state = journal.state(row);
  return state && { state, at: journal.sentTime(row) };
}

/**
 * What an earlier run did, from the journal: rows done are skipped, failed ones will be sent again,
 * unknown ones handled by `policy` (with 'check', those whose request may still be running stay
 * unknown, said until when: `stillRunning`). A row sent before with other content means the
 * journal is another input's: a usage error, nothing sent. Read before anything is sent.
 */
function fromJournal(r: ImportRun, journal: Journal, rows: Iterable<Row>, policy: UnknownPolicy, results: ResultLog, now: number): { toCheck: UnknownRow[]; stillRunning: number[] } {
  const toCheck: UnknownRow[] = [];
  const changed: number[] = [];
  let changedRows = 0;
  const stillRunning: number[] = [];
  if (!journal.size) return { toCheck, stillRunning };
  for (const row of rows) {
    // (the entry is read from the journal only for a row whose content it compares)
    const state = journal.state(row.row);
    if (!state || state === 'failed' || state === 'rolled-back') continue;
    const prev = journal.entry(row.row);
    // ('' : the hash was lost with a last line cut short)
    const d = decide(journal, prev, prev?.hash === row.hash || prev?.hash === '', policy, now);
    if (d === 'send' || !prev) continue;
    // (the first ten are named, the others counted)
    if (d === 'changed' && ++changedRows <= 10) changed.push(row.row);
    else if (d === 'done') results.add({ row: row.row, status: 'skipped', ...(prev.id ? { id: prev.id } : {}), ...(prev.key || ownKey(r.set, row) ? { key: prev.key ?? ownKey(r.set, row) } : {}) });
    else if (d === 'check') toCheck.push({ row, id: prev.id });
    else {
      const check = checksFor(r.set, r.mode, [row], () => prev.id)[0];
      const key = ownKey(r.set, row);
      let message = 'sent by an earlier run whose outcome is unknown; not sent again (--check-unknown looks it up; --resend-unknown sends it)';
      if (policy === 'check') {
        const until = runningUntil(journal, prev.at);
        stillRunning.push(until);
        message = `sent by an earlier run${prev.at !== undefined ? ` at ${timeText(prev.at)}` : ''} whose outcome is unknown; its request may still be running on the service until ${timeText(until)} (the service ends a request after at most ${MAX_REQUEST_MS / 60_000} minutes): not looked up and not sent again; run with --check-unknown after that`;
      }
      results.add({ row: row.row, status: 'unknown', ...(prev.id ? { id: prev.id } : {}), ...(key ? { key } : {}), message, ...(check ? { check } : {}) });
    }
  }
  if (changedRows) {
    // ("start over" read as safe: it sends the rows done before again, a second record each on create)
    const again = r.mode === 'create' ? 'the rows it records as created would be created twice' : 'the rows it records as updated would be updated again';
    throw new UsageError(
      `the journal ${journal.path} belongs to another version of the input: ${rowList(changed, changedRows)} ${changedRows > 1 ? 'were' : 'was'} sent before with other content (rows are told apart by their line: add new rows at the end); name another file with --journal, or delete it to send every row again (${again})`,
    );
  }
  return { toCheck, stillRunning };
}

/** The rows to send, read as the batches are made: those the journal does not record as done or unknown, and those --check-unknown found absent. */
function* toSend(journal: Journal, rows: Iterable<Row>, policy: UnknownPolicy, now: number, absent: ReadonlySet<number>): Generator<Row> {
  for (const row of rows) {
    // (a row sent before with other content stopped the run before: fromJournal)
    const d = decide(journal, brief(journal, row.row), true, policy, now);
    if (d === 'send' || (d === 'check' && absent.has(row.row))) yield row;
  }
}

/** The record's own key as the row gives it (its humanKey field, or the key that finds it on update), when the answer did not. */
function ownKey(set: ErpSet, row: Row): string | undefined {
  const k = set.humanKey;
  if (k === undefined) return undefined;
  if (row.key?.field === k) return row.key.value;
  const v = row.body[k];
  return typeof v === 'string' && v ? v : undefined;
}

/**
 * The journal of a run as it goes. Outcomes are journaled a batch at a time, in the same turn of
 * the event loop as they are learned: with the `sent` lines of the batch the same worker sends
 * next (one write, before that batch leaves), or else at the end of that turn (a microtask).
 * Either way before any other answer is read or request made, so a crash loses nothing that a
 * per-batch write kept.
 */
class Outcomes {
  /** the rows in flight (sent or about to be, or being looked up), by row number: each is dropped once its outcome is recorded */
  readonly byRow = new Map<number, Row>();
  private learned = '';
  private pending = false;

  constructor(
    private readonly r: ImportRun,
    private readonly journal: Journal,
    private readonly results: ResultLog,
  ) {}

  record(x: RowResult): void {
    const row = this.byRow.get(x.row);
    this.byRow.delete(x.row);
    if (row && x.key === undefined) x.key = ownKey(this.r.set, row);
    if (x.status === 'unknown' && row) x.check = checksFor(this.r.set, this.r.mode, [row], () => x.id)[0];
    this.results.add(x);
    if (!row) return;
    const state = SUCCEEDED.has(x.status) ? 'done' : x.status === 'unknown' ? 'unknown' : x.status === 'rolled-back' ? 'rolled-back' : 'failed';
    this.learned += outcomeLine(x.row, row.hash, state, x);
  }

  flush(): void {
    this.pending = false;
    this.journal.appendLines(this.learned);
    this.learned = '';
    this.results.flush();
  }

  flushSoon(): void {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => this.flush());
  }

  /** The `sent` lines of a batch about to leave, with the outcomes learned before it. */
  sent(rows: readonly Row[]): void {
    let text = this.learned;
    const at = Date.now();
    for (const row of rows) text += sentLine(row.row, row.hash, at);
    this.journal.appendLines(text);
    this.learned = '';
  }
}

/** --check-unknown: asks the service about each row an earlier run left unknown; returns those it shows it lacks (to be sent, on create). */
async function lookUpUnknown(r: ImportRun, journal: Journal, toCheck: readonly UnknownRow[], out: Outcomes, info: (line: string) => void): Promise<Row[]> {
  // the records the journal has other rows created (done, with an id): an unknown row that finds one cannot have created it
  const createdBy = (ids: ReadonlySet<string>) => (r.mode === 'create' ? journal.createdBy(ids) : new Map<string, number>());
  const counts = new Map<RowResult['status'], number>();
  const record = (x: RowResult) => {
    counts.set(x.status, (counts.get(x.status) ?? 0) + 1);
    out.record(x);
  };
  const absent = await checkUnknown(r.client, r.set, r.batch, r.mode, toCheck, r.bulk, record, createdBy);
  out.flush();
  const c = (status: RowResult['status']) => counts.get(status) ?? 0;
  const parts = [`${c(r.mode === 'create' ? 'created' : 'updated')} found done`, ...(r.mode === 'create' ? [`${absent.length} not there (sent now)`] : []), `${c('unknown')} still unknown`];
  info(`--check-unknown: ${toCheck.length} row${toCheck.length === 1 ? '' : 's'} looked up: ${parts.join(', ')}`);
  return absent;
}

/** --update: the rows looked up and sent at a time, in batches of the run's size and concurrency (10,000 by default): only a window's rows and what was found for them are held */
const UPDATE_WINDOW_BATCHES = 25;

/** --update: the rows read as they are sent, a window at a time (updateWindow). */
async function sendUpdates(r: ImportRun, rows: Iterable<Row>, out: Outcomes): Promise<void> {
  const size = (r.bulk.batchSize ?? BATCH_MAX_OPERATIONS) * Math.max(1, r.bulk.concurrency ?? 4) * UPDATE_WINDOW_BATCHES;
  let window: Row[] = [];
  let n = 0;
  for (const x of rows) {
    window.push(x);
    // (a long run keeps V8's heap close to what it holds, as sendCreates says)
    if (++n % 1000 === 0 && n >= LONG_RUN_ROWS && capYoungGeneration(YOUNG_GENERATION_MB)) limitHeapGrowth(HEAP_GROWTH_PERCENT);
    if (window.length < size) continue;
    await updateWindow(r, window, out);
    window = [];
  }
  if (window.length) await updateWindow(r, window, out);
}

/** --update: find each record (unless the row names its id and ETag), then PATCH it with If-Match. */
async function updateWindow(r: ImportRun, rows: readonly Row[], out: Outcomes): Promise<void> {
  const { client, set, batch, bulk } = r;
  const need = rows.filter((x) => !(x.key?.field === 'id' && x.etag));
  const found = await lookup(client, set, batch, need.map((x) => ({ row: x.row, field: x.key!.field, value: x.key!.value })), bulk);
  const items: BulkItem[] = [];
  const byRow = new Map(rows.map((x) => [x.row, x]));
  const note = (x: RowResult) => {
    out.record(x);
    out.flushSoon();
  };
  for (const x of rows) {
    const f = found.get(x.row);
    const id = f?.id ?? x.key!.value;
    const etag = x.etag ?? f?.etag;
    if (f?.failure) note(f.failure);
    else if (!etag) note({ row: x.row, status: 'failed', id, message: `the ${set.singular} came without an @odata.etag` });
    else items.push({ row: x.row, op: { method: 'PATCH', url: client.itemUrl(set, id), headers: { 'If-Match': etag }, body: x.body } });
  }
  await runBatches(batch, items, bulk, (chunk) => out.sent(chunk.map((c) => byRow.get(c.row)!)), (chunk, res, no) => {
    chunk.forEach((c, i) => {
      const result = resultOf(c.row, res[i], 'updated', no, set.humanKey);
      if (result.status === 'failed' && (result.httpStatus === 412 || result.httpStatus === 409)) {
        result.message = `the ${set.singular} was changed by someone else since its ETag was read; it was left as it was (${result.message})`;
      }
      if (!result.id) result.id = found.get(c.row)?.id ?? byRow.get(c.row)!.key!.value;
      note(result);
    });
  });
}

async function sendCreates(r: ImportRun, rows: Iterable<Row>, out: Outcomes): Promise<void> {
  const url = r.client.collectionUrl(r.set);
  // (read as the batches are made: only the rows in flight are held)
  let n = 0;
  function* items(): Generator<BulkItem> {
    for (const x of rows) {
      // a long run keeps V8's heap close to what it holds: the rows in flight outlive a young
      // collection or two and are promoted, and the old generation would grow to several times them
      if (++n % 1000 === 0 && n >= LONG_RUN_ROWS && capYoungGeneration(YOUNG_GENERATION_MB)) limitHeapGrowth(HEAP_GROWTH_PERCENT);
      out.byRow.set(x.row, x);
      yield { row: x.row, op: { method: 'POST', url, body: x.body } };
    }
  }
  await runBatches(r.batch, items(), r.bulk, (chunk) => out.sent(chunk.map((c) => out.byRow.get(c.row)!)), (chunk, res, no) => {
    chunk.forEach((c, i) => out.record(resultOf(c.row, res[i], 'created', no, r.set.humanKey)));
    out.flushSoon();
  });
}

/** One problem per row (a row with several problems gets them all, joined; they come together, in row order): one result per row. */
function* invalidRows(problems: Iterable<RowProblem>): Generator<RowProblem> {
  let at: RowProblem | undefined;
  for (const p of problems) {
    if (at?.row === p.row) at.message += `; ${p.message}`;
    else {
      if (at) yield at;
      at = { row: p.row, message: p.message };
    }
  }
  if (at) yield at;
}

/**
 * Sends the parsed rows as the journal allows, `results` getting one result per row. Ctrl-C ends
 * the run with what was learned (`interrupted`; the rows never reached are sent by a rerun);
 * `checks` are the commands that tell whether the rows with an unknown outcome were done.
 */
export async function importRows(r: ImportRun, journal: Journal, parsed: ReadRows, policy: UnknownPolicy, results: ResultLog, info: (line: string) => void): Promise<{ interrupted?: InterruptedError; checks: string[] }> {
  const now = Date.now();
  const { toCheck, stillRunning } = fromJournal(r, journal, parsed.rows, policy, results, now);
  if (stillRunning.length) {
    const n = stillRunning.length;
    info(`--check-unknown: ${n} row${n === 1 ? '' : 's'} sent by an earlier run may still be running on the service (it ends a request after at most ${MAX_REQUEST_MS / 60_000} minutes): left unknown, neither looked up nor sent; run again after ${timeText(stillRunning.reduce((a, b) => Math.max(a, b), 0))}`);
  }
  for (const p of invalidRows(parsed.allProblems())) results.add({ row: p.row, status: 'invalid', message: p.message });
  const out = new Outcomes(r, journal, results);
  for (const c of toCheck) out.byRow.set(c.row.row, c.row);
  let interrupted: InterruptedError | undefined;
  try {
    const absent = toCheck.length ? new Set((await lookUpUnknown(r, journal, toCheck, out, info)).map((x) => x.row)) : new Set<number>();
    const send = toSend(journal, parsed.rows, policy, now, absent);
    if (r.mode === 'create') await sendCreates(r, send, out);
    else await sendUpdates(r, send, out);
  } catch (e) {
    if (!(e instanceof InterruptedError)) throw e;
    interrupted = e;
  } finally {
    out.flush();
  }
  // (those of an earlier run too: they are checked the same way)
  const unknownIds = new Map(results.unknown.map((x) => [x.row, x.id]));
  const unknownRows: Row[] = [];
  if (unknownIds.size) for (const x of parsed.rows) if (unknownIds.has(x.row)) unknownRows.push(x);
  return { interrupted, checks: checksFor(r.set, r.mode, unknownRows, (x) => unknownIds.get(x.row)) };
}
