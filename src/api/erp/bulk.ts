// Bulk work on one entity set over $batch: create, update (with If-Match from the row or a fresh
// read), delete and bound actions, in batches of up to 100 operations with a bounded number in
// flight. Every record gets one result; nothing is sent twice: an operation whose outcome is
// unknown is reported so, with a command that checks it, and never repeated here.
import type { Config } from '../../core/config/index.js';
import { InterruptedError, isVxError, UsageError } from '../../core/errors.js';
import type { Http } from '../../core/http/index.js';
import { Pacer, type Paced } from '../../core/pacer.js';
import { BATCH_MAX_OPERATIONS, keySegment, type ErpSet } from '../../model/erp/index.js';
import { parseRateLimit, RATE_LIMIT_FORM, wholeNumber } from '../../model/families.js';
import { BatchClient, type BatchOp, type OpResult } from './batch.js';
import type { ErpClient } from './client.js';

export type ResultStatus = 'created' | 'updated' | 'deleted' | 'done' | 'skipped' | 'invalid' | 'failed' | 'rolled-back' | 'unknown';

export interface RowResult {
  row: number;
  status: ResultStatus;
  id?: string;
  /** the record's own key (its humanKey: a salesperson's code, a sales order's number) */
  key?: string;
  /** the operation's HTTP status when it failed */
  httpStatus?: number;
  /** the service's error code when it failed */
  code?: string;
  message?: string;
  /** the batch, for rolled-back rows */
  batch?: number;
  /** a command that tells whether an unknown outcome took effect */
  check?: string;
  /** the record the action created (a quote's sales order): its id and own key */
  made?: { id: string; key?: string };
}

/** The statuses of a row that succeeded (done now, or before: skipped). */
export const SUCCEEDED: ReadonlySet<ResultStatus> = new Set(['created', 'updated', 'deleted', 'done', 'skipped']);

/** Where a bulk run puts each row's result as it is learned (the command's output). */
export interface ResultLog {
  add(r: RowResult): void;
  /** the results added since the last flush may be written out (once per batch) */
  flush(): void;
  /**
   * the results of unknown outcome (a check is made of them); the others are counted and written
   * out, not kept, so that a run's memory does not grow with its failures
   */
  readonly unknown: readonly RowResult[];
}

export interface BulkOptions {
  batchSize?: number;
  concurrency?: number;
  atomic?: boolean;
  signal?: AbortSignal;
  /** the pacing of the run's requests (core/pacer), under the user's request limit */
  pacer?: Paced;
}

export interface BulkItem {
  row: number;
  op: BatchOp;
}

function intSetting(config: Config, key: string, flag: string, given: string | undefined, min: number, max: number): number {
  const v = config.get(key, given);
  const expected = v === undefined ? `a whole number from ${min} to ${max}` : wholeNumber(min, max)(v);
  if (expected !== undefined) throw new UsageError(`invalid value "${v}" for ${given !== undefined ? flag : config.originOf(key)}: expected ${expected}`);
  return Number(v);
}

/** Batch size, concurrency, atomicity and pacing from the flags and settings. */
export function bulkOptions(config: Config, flags: { batchSize?: string; concurrency?: string; atomic?: boolean }, signal: AbortSignal): BulkOptions {
  const limit = config.get('erp.rateLimit') ?? '';
  const rate = parseRateLimit(limit);
  if (!rate) throw new UsageError(`invalid value "${limit}" for ${config.originOf('erp.rateLimit')}: expected ${RATE_LIMIT_FORM}`);
  // the service counts a user's requests over a sliding window of W seconds (N at most): a tenth
  // of N may go at once and the rest flows at 0.9 N/W, so no window ever holds more than N
  const [n, w] = [rate.requests, rate.seconds];
  const pacer = new Pacer({ perMinute: ((0.9 * n) / w) * 60, burst: n / 10 });
  return {
    pacer,
    batchSize: intSetting(config, 'erp.batchSize', '--batch-size', flags.batchSize, 1, BATCH_MAX_OPERATIONS),
    concurrency: intSetting(config, 'erp.concurrency', '--concurrency', flags.concurrency, 1, 64),
    atomic: Boolean(flags.atomic),
    signal,
  };
}

/**
 * Splits into batches and sends them, `concurrency` at a time; `onSent` before, `onDone` after each.
 * `items` is read as batches are made (a generator may read its rows from the input as they go).
 */
export async function runBatches(
  batch: BatchClient,
  items: Iterable<BulkItem>,
  opts: BulkOptions,
  onSent: (items: readonly BulkItem[], batchNo: number) => void,
  onDone: (items: readonly BulkItem[], results: OpResult[], batchNo: number) => void,
): Promise<void> {
  const size = Math.min(BATCH_MAX_OPERATIONS, Math.max(1, opts.batchSize ?? BATCH_MAX_OPERATIONS));
  const source = items[Symbol.iterator]();
  let made = 0;
  const take = (): BulkItem[] | undefined => {
    const chunk: BulkItem[] = [];
    while (chunk.length < size) {
      const x = source.next();
      if (x.done) break;
      chunk.push(x.value);
    }
    return chunk.length ? chunk : undefined;
  };
  let interrupted: InterruptedError | undefined;
  let fatal: unknown;
  const worker = async () => {
    while (!interrupted && !fatal) {
      if (opts.signal?.aborted) {
        interrupted = new InterruptedError();
        return;
      }
      const chunk = take();
      if (!chunk) return;
      const no = made++;
      onSent(chunk, no + 1);
      const first = chunk[0].row;
      const last = chunk[chunk.length - 1].row;
      let results: OpResult[];
      try {
        results = await batch.send(
          chunk.map((c) => c.op),
          { atomic: opts.atomic, signal: opts.signal, label: `batch ${no + 1} (rows ${first}${last !== first ? `-${last}` : ''})` },
        );
      } catch (e) {
        const pending = (e as { results?: OpResult[] }).results;
        if (e instanceof InterruptedError && pending) {
          onDone(chunk, pending, no + 1);
          interrupted = e;
          return;
        }
        // the whole run must stop: the batch was refused (credentials: 401, 403) or never sent (a
        // usage error), so it was not done; anything else (a fault of vx itself) leaves it unknown
        onDone(chunk, chunk.map((): OpResult => (isVxError(e) ? { kind: 'failed', status: e.status ?? 0, ...(e.code ? { code: e.code } : {}), message: e.message } : { kind: 'unknown', reason: String(e) })), no + 1);
        fatal = e;
        return;
      }
      onDone(chunk, results, no + 1);
    }
  };
  const n = Math.max(1, opts.concurrency ?? 4);
  await Promise.all(Array.from({ length: n }, worker));
  if (fatal) throw fatal;
  if (interrupted) throw interrupted;
}

/** "row 5", "rows 2, 3" or "rows 2, 3, … 5 more" (`count`: how many rows in all, when `rows` names only the first) */
export function rowList(rows: readonly number[], count = rows.length): string {
  const s = rows.slice(0, 10).join(', ');
  return `${count === 1 ? 'row' : 'rows'} ${count > 10 ? `${s}, … ${count - 10} more` : s}`;
}

/** The OData string literal of a value. */
export function odataLiteral(v: string): string {
  return `'${v.replace(/'/g, "''")}'`;
}

/** Text inside a shell's double quotes, taken literally: a value such as $(…) or `…` is not run when the command is pasted. */
function q(s: string): string {
  return s.replace(/["\\$`]/g, '\\$&');
}

/**
 * One command that lists the records behind unknown outcomes (by a key), or undefined: the key's
 * `eq` conditions joined by `or` (one field: every version of the service runs it; `in` only with
 * `$schemaversion=2.1`, a 501 BadRequest_MethodNotImplemented without, use-filter-expressions-in-odata-uris.md)
 */
export function checkCommand(set: ErpSet, field: string, values: readonly string[]): string | undefined {
  if (!values.length) return undefined;
  const filter = values.map((v) => `${field} eq ${odataLiteral(v)}`).join(' or ');
  return `vx erp ${set.noun} list --filter "${q(filter)}"`;
}

/** A result from an operation's outcome; `keyField` names the record's own key (the set's humanKey), read from the answer. */
export function resultOf(row: number, r: OpResult, done: ResultStatus, batchNo: number, keyField: string | undefined, extra?: Partial<RowResult>): RowResult {
  switch (r.kind) {
    case 'done': {
      // (built field by field: one result per imported row; same keys, in the same order, as
      // `{ row, status, ...extra, id, key }`, id and key only when the body has them)
      const out: RowResult = extra ? { row, status: done, ...extra } : { row, status: done };
      const b = r.body as Record<string, unknown> | undefined;
      if (b && typeof b === 'object') {
        if (typeof b.id === 'string') out.id = b.id;
        const k = keyField !== undefined ? b[keyField] : undefined;
        if (typeof k === 'string' && k) out.key = k;
      }
      return out;
    }
    case 'failed':
      return { row, status: 'failed', ...extra, ...(r.status ? { httpStatus: r.status } : {}), ...(r.code ? { code: r.code } : {}), message: r.rolledBack ? `${r.message} (batch ${batchNo} was rolled back)` : r.message, ...(r.rolledBack ? { batch: batchNo } : {}) };
    case 'rolled-back':
      return { row, status: 'rolled-back', ...extra, batch: batchNo, message: `not done: another row of batch ${batchNo} failed and the batch was rolled back` };
    case 'unknown':
      return { row, status: 'unknown', ...extra, message: r.reason };
  }
}

/** The batch client of a set (its API version's $batch). */
export function batchFor(client: ErpClient, set: ErpSet, http: Http, pacer?: Paced): BatchClient {
  return new BatchClient(http, `${client.base}/api/${set.apiVersion}/`, client.auth, pacer);
}

export interface Found {
  row: number;
  id?: string;
  etag?: string;
  /** the record's own key (humanKey) */
  key?: string;
  /** the record as read (the fields of `select`) */
  record?: Record<string, unknown>;
  failure?: RowResult;
}

/** The fields a bulk run reads of each record: its id, and its own key (humanKey) where it has one. */
export function idFields(set: ErpSet): string {
  return ['id', ...(set.humanKey ? [set.humanKey] : [])].join(',');
}

/** The GET operations of `lookup` (also what --dry-run shows): by id, or `$filter=<key> eq '…'`. */
export function lookupItems(client: ErpClient, set: ErpSet, keys: readonly { row: number; field: string; value: string }[], select = idFields(set)): BulkItem[] {
  return keys.map((k) => ({
    row: k.row,
    op: {
      method: 'GET',
      url:
        k.field === 'id'
          ? client.itemUrl(set, k.value, '', { $select: select })
          : client.collectionUrl(set, { $filter: `${k.field} eq ${set.fields[k.field]?.type === 'string' ? odataLiteral(k.value) : k.value}`, $select: select, $top: 2 }),
    },
  }));
}

/**
 * Finds records by id or by a key field with batched GETs: each row gets the record's id and
 * current @odata.etag, or a failure (not found, several match, the read failed).
 */
export async function lookup(
  client: ErpClient,
  set: ErpSet,
  batch: BatchClient,
  keys: readonly { row: number; field: string; value: string }[],
  opts: BulkOptions,
  select?: string,
): Promise<Map<number, Found>> {
  const out = new Map<number, Found>();
  const items = lookupItems(client, set, keys, select);
  const byRow = new Map(keys.map((k) => [k.row, k]));
  await runBatches(batch, items, { ...opts, atomic: false }, () => undefined, (chunk, results, no) => {
    chunk.forEach((it, i) => {
      const r = results[i];
      const k = byRow.get(it.row)!;
      if (r.kind !== 'done') {
        const res = resultOf(it.row, r, 'failed', no, set.humanKey);
        if (res.status === 'unknown') res.status = 'failed'; // a read that was not answered changed nothing
        out.set(it.row, { row: it.row, failure: { ...res, message: `reading the ${set.singular} failed: ${res.message ?? ''}` } });
        return;
      }
      const found = (r.body as { value?: unknown } | undefined)?.value;
      const rec = k.field === 'id' ? r.body : Array.isArray(found) ? (found.length === 1 ? found[0] : found.length) : undefined;
      if (typeof rec === 'number' || rec === undefined) {
        out.set(it.row, { row: it.row, failure: { row: it.row, status: 'failed', httpStatus: rec === 0 ? 404 : 409, code: rec === 0 ? 'NotFound' : 'Ambiguous', message: rec === 0 ? `no ${set.singular} has ${k.field} ${k.value}` : `more than one ${set.singular} has ${k.field} ${k.value}` } });
        return;
      }
      const etag = typeof rec['@odata.etag'] === 'string' ? rec['@odata.etag'] : r.headers.etag;
      const key = set.humanKey !== undefined ? rec[set.humanKey] : undefined;
      out.set(it.row, { row: it.row, id: String(rec.id), etag, ...(typeof key === 'string' && key ? { key } : {}), ...(select ? { record: rec } : {}) });
    });
  });
  return out;
}

/** `GET` of one record's path, for a check command. */
export function getCommand(set: ErpSet, id: string): string {
  return `vx erp ${set.noun} get ${keySegment(id).replace(/^'(.*)'$/, '$1')}`;
}
