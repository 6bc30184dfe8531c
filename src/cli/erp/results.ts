// The output of a bulk run (import, bulk delete and actions): one result per row, ndjson as they
// come or a table at the end, then a summary, the rows to check and the exit status on stderr.
import { rowList, SUCCEEDED, type ResultLog, type ResultStatus, type RowResult } from '../../api/erp/bulk.js';
import { fmt } from '../../api/translator/batcher.js';
import type { Ctx } from '../../core/context.js';
import { InterruptedError, oneLine, ServiceError } from '../../core/errors.js';
import { StreamRenderer, type Column, type Format } from '../../core/output/index.js';
import { ResultSpool } from './result-spool.js';
import type { ErpSet } from '../../model/erp/index.js';

/**
 * The columns of the results: the record's own key under its field's name (CODE of a salesperson,
 * NUMBER of a sales order), the id (dropped first on a narrow terminal where a key names the
 * record), the failure's HTTP status and the service's error code (ERROR), the message.
 */
function resultColumns(keyName: string | undefined, made: ErpSet | undefined): Column[] {
  const madeKey = (r: Record<string, unknown>) => {
    const c = r.created as Record<string, unknown> | undefined;
    return c?.[made?.humanKey ?? 'id'] ?? c?.id;
  };
  return [
    { header: 'ROW', get: 'row', align: 'right', keep: true },
    { header: 'STATUS', get: 'status', keep: true },
    ...(keyName ? [{ header: keyName.toUpperCase(), get: keyName, keep: true }] : []),
    ...(made ? [{ header: made.singular.toUpperCase(), get: madeKey, keep: true }] : []),
    { header: 'ID', get: 'id', optional: keyName !== undefined || undefined },
    { header: 'ERROR', get: (r: Record<string, unknown>) => [r.httpStatus, r.errorCode].filter((x) => x !== undefined).join(' '), optional: true },
    { header: 'MESSAGE', get: 'message' },
  ];
}

/**
 * A result as printed (JSON, ndjson, tables): the record's own key under its field's name, the
 * service's error code as `errorCode`, the record an action created as `created` (its id and its
 * own key under its field's name).
 */
function resultView(keyName: string, made: ErpSet | undefined): (r: RowResult) => Record<string, unknown> {
  return (r) => {
    const o: Record<string, unknown> = { row: r.row, status: r.status };
    if (r.id !== undefined) o.id = r.id;
    if (r.key !== undefined) o[keyName] = r.key;
    if (r.httpStatus !== undefined) o.httpStatus = r.httpStatus;
    if (r.code !== undefined) o.errorCode = r.code;
    if (r.message !== undefined) o.message = r.message;
    if (r.batch !== undefined) o.batch = r.batch;
    if (r.check !== undefined) o.check = r.check;
    if (r.made !== undefined) o.created = { id: r.made.id, ...(r.made.key !== undefined ? { [made?.humanKey ?? 'key']: r.made.key } : {}) };
    return o;
  };
}

/** at a terminal without -o: the rows the table lists at most (the others are counted; -o ndjson lists every one) */
const LISTED = 1000;
/** the failures named on stderr */
const FAILURES_NAMED = 20;

/** The formats written at the end a result at a time, read back from the spool. */
const STREAMED: ReadonlySet<Format> = new Set<Format>(['json', 'csv', 'tsv', 'ndjson']);

/**
 * Where results go: ndjson line by line as they come; other formats at the end, in row order,
 * from a spool on disk. Memory holds counts and what stderr names (the first failures, the first
 * rows of unknown outcome, the batches rolled back), not one result per row, whatever fails. At a
 * terminal without -o the rows that did not succeed (and those that made a record) are listed, the
 * first LISTED of them.
 */
export class Results implements ResultLog {
  /** for a person at a terminal: the first LISTED results that did not succeed or created a record (each is named) */
  private readonly listed: RowResult[] = [];
  private unlisted = 0;
  /** the first failures (neither unknown nor rolled back), in the order they came */
  readonly failures: RowResult[] = [];
  /** the results of unknown outcome (a check is made of them) */
  readonly unknown: RowResult[] = [];
  /** the batches rolled back (--atomic): their first and last rows */
  readonly rolled = new Map<number, { first: number; last: number }>();
  readonly counts = new Map<ResultStatus, number>();
  /** how many results came */
  added = 0;
  private readonly streaming: boolean;
  /** a person at a terminal, no -o: the summary covers the rows that succeeded */
  private readonly forPerson: boolean;
  private readonly spool?: ResultSpool;
  private pending: Promise<void> = Promise.resolve();
  private lines = '';
  /** whether standard output failed (its reader went away: `| head`): the results still count, and the journal has them */
  outputGone = false;

  private readonly view: (r: RowResult) => Record<string, unknown>;
  private readonly columns: Column[];

  constructor(
    private readonly ctx: Ctx,
    readonly total: number,
    set: ErpSet,
    /** the set of the records the action creates, if it does */
    creates?: ErpSet,
  ) {
    this.view = resultView(set.humanKey ?? 'key', creates);
    this.columns = resultColumns(set.humanKey, creates);
    this.streaming = ctx.explicitFormat() === 'ndjson';
    this.forPerson = !ctx.explicitFormat() && ctx.stdoutIsTTY;
    // (-o none writes nothing: nothing to keep)
    if (!this.streaming && !this.forPerson && ctx.format() !== 'none') this.spool = new ResultSpool();
    ctx.io.stdout.once('error', () => (this.outputGone = true));
  }

  add(r: RowResult): void {
    this.added++;
    this.counts.set(r.status, (this.counts.get(r.status) ?? 0) + 1);
    if (!SUCCEEDED.has(r.status)) this.notDone(r);
    if (this.forPerson && (!SUCCEEDED.has(r.status) || r.made || r.message)) {
      if (this.listed.length < LISTED) this.listed.push(r);
      else this.unlisted++;
    }
    if (this.streaming) this.lines += `${JSON.stringify(this.view(r))}\n`;
    else this.spool?.add(r.row, `${JSON.stringify(this.view(r))}\n`);
  }

  /** how many results did not succeed */
  get failed(): number {
    let n = 0;
    for (const [status, count] of this.counts) if (!SUCCEEDED.has(status)) n += count;
    return n;
  }

  /** how many failed (neither unknown nor rolled back) */
  get failureCount(): number {
    return this.failed - (this.counts.get('unknown') ?? 0) - (this.counts.get('rolled-back') ?? 0);
  }

  /** Keeps what stderr names of a result that did not succeed. */
  private notDone(r: RowResult): void {
    if (r.batch !== undefined) {
      const b = this.rolled.get(r.batch);
      if (!b) this.rolled.set(r.batch, { first: r.row, last: r.row });
      else [b.first, b.last] = [Math.min(b.first, r.row), Math.max(b.last, r.row)];
    }
    if (r.status === 'unknown') this.unknown.push(r);
    else if (r.status !== 'rolled-back' && this.failures.length < FAILURES_NAMED) this.failures.push(r);
  }

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

  async finish(): Promise<void> {
    this.flush();
    await this.pending;
    try {
      if (this.streaming || this.outputGone) return;
      if (this.forPerson) {
        const rows = this.listed.sort((a, b) => a.row - b.row);
        if (rows.length) await this.ctx.print(rows.map(this.view), { columns: this.columns, empty: 'no rows' });
        if (this.unlisted) this.ctx.info(`… and ${fmt(this.unlisted)} more rows not listed (all of them with -o ndjson)`);
        return;
      }
      const format = this.ctx.format();
      if (!this.spool) return;
      if (STREAMED.has(format) && this.ctx.globals.query === undefined) return await this.writeSpooled(format);
      // a table, yaml or --query: every result at once
      const all: unknown[] = [];
      for (const line of this.spool!.lines()) all.push(JSON.parse(line));
      await this.ctx.print(all, { columns: this.columns, empty: 'no rows' });
    } finally {
      this.spool?.close();
    }
  }

  /**
   * The spooled results in row order, a hundred at a time: what the whole list renders in
   * `format`, with a turn of the event loop every 10,000: the texts written to a file or a pipe
   * become buffers that are let go only there (a million results written without a pause took
   * the run from 135 MB to 270 MB in its last seconds).
   */
  private async writeSpooled(format: Format): Promise<void> {
    const renderer = new StreamRenderer(format, { columns: this.columns });
    const sink = this.ctx.stdoutSink(format);
    let chunk: unknown[] = [];
    let chunks = 0;
    for (const line of this.spool!.lines()) {
      chunk.push(JSON.parse(line));
      if (chunk.length < 100) continue;
      await sink.write(renderer.items(chunk));
      chunk = [];
      if (++chunks % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await sink.write(renderer.items(chunk) + renderer.end());
  }

  summary(verb: string, interrupted?: boolean): string {
    const order: ResultStatus[] = ['created', 'updated', 'deleted', 'done', 'skipped', 'failed', 'rolled-back', 'unknown', 'invalid'];
    const parts = order.filter((s) => this.counts.get(s)).map((s) => `${fmt(this.counts.get(s)!)} ${s === 'skipped' ? 'skipped (done before, per the journal)' : s}`);
    // the rows Ctrl-C kept from being sent have no result: say how many
    if (interrupted && this.added < this.total) parts.push(`${fmt(this.total - this.added)} not sent (interrupted)`);
    return `${verb} ${fmt(this.total)} row${this.total === 1 ? '' : 's'}: ${parts.join(', ') || 'nothing to do'}`;
  }
}

/** The batches rolled back (--atomic), each named with its rows (batch numbers alone mean nothing to a rerun, which numbers its own). */
function rolledBack(results: Results): string[] {
  return [...results.rolled].sort((a, b) => a[0] - b[0]).map(([no, b]) => `batch ${no} (${b.first === b.last ? `row ${b.first}` : `rows ${b.first}-${b.last}`})`);
}

function tellUnknown(ctx: Ctx, results: Results, checks: readonly string[], journaled: boolean): void {
  const n = results.unknown.length;
  if (!n) return;
  ctx.info(`${fmt(n)} row${n > 1 ? 's have' : ' has'} an unknown outcome (${rowList(results.unknown.map((r) => r.row))}): ${n > 1 ? 'they' : 'it'} may or may not have been done, and ${n > 1 ? 'were' : 'was'} not sent again`);
  for (const c of checks) ctx.info(`  check with: ${c}`);
  if (journaled) ctx.info(`  a rerun leaves them alone; --check-unknown looks them up (and sends those the service shows it does not have), --resend-unknown sends them all again`);
}

/** Ends a bulk run: results, the summary on stderr, the unknown outcomes with a check, the exit status. */
export async function finishRun(ctx: Ctx, results: Results, verb: string, interrupted: InterruptedError | undefined, checks: readonly string[], journal?: { path: string; close(): void }): Promise<void> {
  await results.finish();
  ctx.info(results.summary(verb, interrupted !== undefined));
  const batches = rolledBack(results);
  if (batches.length) ctx.info(`rolled back (--atomic): ${batches.join(', ')}; their rows were not changed`);
  tellUnknown(ctx, results, checks, journal !== undefined);
  for (const f of results.failures) ctx.info(oneLine(`  row ${f.row}: ${f.status}${f.httpStatus ? ` (HTTP ${f.httpStatus}${f.code ? ` ${f.code}` : ''})` : ''}: ${f.message ?? ''}`));
  if (results.failureCount > FAILURES_NAMED) ctx.info(`  … and ${results.failureCount - FAILURES_NAMED} more (all of them with -o ndjson)`);
  if (results.outputGone) ctx.info("standard output was closed by its reader: the results after that were not written there (the journal has each row's outcome)");
  if (journal) ctx.info(`journal: ${journal.path}`);
  journal?.close();
  if (interrupted) throw new InterruptedError(`interrupted; ${journal ? 'the journal records what was done: run the same command again to go on' : 'the rows above say what was done'}`);
  if (results.failed) throw new ServiceError(`${fmt(results.failed)} of ${fmt(results.total)} rows did not succeed`);
}
