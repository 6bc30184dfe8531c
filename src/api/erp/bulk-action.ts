// A delete or bound action on many records (--filter or --ids) over $batch: the ETag of each
// record read first where a delete needs one, then one operation per record, one result each.
import { InterruptedError } from '../../core/errors.js';
import type { Http } from '../../core/http/index.js';
import type { ActionDef, ErpSet } from '../../model/erp/index.js';
import { beforeCreating, createdAfter, type CreatingPlan } from './created.js';
import type { BatchClient, BatchOp } from './batch.js';
import { checkCommand, getCommand, idFields, lookup, lookupItems, resultOf, runBatches, type BulkItem, type BulkOptions, type ResultLog, type RowResult } from './bulk.js';
import { odataQuery, type ErpClient, type ListQuery } from './client.js';
import type { Target } from './select.js';

/** What a bulk run does to each record. */
export type BulkVerb = ActionDef | 'delete';

/** One bulk run: the set, its clients, what is done to each record and how the batches go. */
export interface BulkRun {
  client: ErpClient;
  set: ErpSet;
  batch: BatchClient;
  action: BulkVerb;
  /** the bound actions' namespace (erp.actionNamespace, `Vendor.NAV` when unset) */
  namespace: string;
  bulk: BulkOptions;
  /** --force: If-Match: * instead of each record's ETag */
  force?: boolean;
}

function opFor(r: BulkRun, t: Target, etag: string): BatchOp {
  return r.action === 'delete'
    ? { method: 'DELETE', url: r.client.itemUrl(r.set, t.id), headers: { 'If-Match': etag } }
    : { method: 'POST', url: r.client.itemUrl(r.set, t.id, `/${r.namespace}.${r.action.action}`) };
}

/** --dry-run with --filter: the read of the records, and what each batch would hold. */
export function planFilterRun(http: Http, r: BulkRun, q: ListQuery): void {
  const { client, set, batch, bulk, action } = r;
  http.plan({ method: 'GET', url: client.collectionUrl(set, odataQuery({ ...q, select: idFields(set) })), auth: client.auth });
  const each = action === 'delete' ? 'DELETE' : `POST …/${r.namespace}.${action.action}`;
  http.plan({ method: 'POST', url: batch.url, auth: batch.auth, headers: batch.requestHeaders(bulk.atomic), body: { requests: `<one ${each} per record the filter matches, ${bulk.batchSize} per batch>` } });
}

/** --dry-run with the records known: the reads that give each record's ETag (delete --ids), then the batches. */
export function planTargets(http: Http, r: BulkRun, list: readonly Target[]): void {
  const { client, set, batch, bulk } = r;
  const plan = (ops: BatchOp[], atomic?: boolean) => {
    for (let i = 0; i < ops.length; i += bulk.batchSize!) http.plan({ method: 'POST', url: batch.url, auth: batch.auth, headers: batch.requestHeaders(atomic), body: batch.body(ops.slice(i, i + bulk.batchSize!)) });
  };
  if (r.action === 'delete' && !r.force) plan(lookupItems(client, set, list.filter((t) => !t.etag).map((t) => ({ row: t.row, field: 'id', value: t.id }))).map((it) => it.op));
  plan(list.map((t) => opFor(r, t, r.force ? '*' : (t.etag ?? '<@odata.etag of a fresh read>'))), bulk.atomic);
}

/** A delete without --force needs each record's ETag: those the listing did not give are read; a failed read is the record's result. */
async function readEtags(r: BulkRun, list: Target[], results: ResultLog): Promise<void> {
  if (r.action !== 'delete' || r.force) return;
  const need = list.filter((t) => !t.etag);
  const found = await lookup(r.client, r.set, r.batch, need.map((t) => ({ row: t.row, field: 'id', value: t.id })), r.bulk);
  for (const t of need) {
    const f = found.get(t.row)!;
    if (f.failure) results.add({ ...f.failure, id: t.id });
    else Object.assign(t, { etag: f.etag, key: f.key });
  }
}

/**
 * An action that creates a record its answer does not carry (a quote's makeOrder): the records of
 * the target set holding each source's values are read before, and after the run the one new
 * record of each is its result (those made by the other records of the run set aside).
 */
class MadeRecords {
  private readonly plans = new Map<number, CreatingPlan>();
  private readonly held: RowResult[] = [];

  constructor(private readonly r: BulkRun) {}

  get active(): boolean {
    return this.r.action !== 'delete' && this.r.action.creates !== undefined;
  }

  async prepare(list: readonly Target[]): Promise<void> {
    const creates = (this.r.action as ActionDef).creates!;
    const keyField = this.r.set.humanKey;
    for (const t of list) {
      const plan = await beforeCreating(this.r.client, this.r.set, creates, t.id);
      this.plans.set(t.row, plan);
      // (a record listed by its id is named by its own key, read here, as one chosen by a filter is)
      const key = keyField !== undefined ? plan.source[keyField] : undefined;
      if (t.key === undefined && typeof key === 'string' && key) t.key = key;
    }
  }

  /** Keeps a result that succeeded until its record is found; true when kept. */
  hold(x: RowResult): boolean {
    if (x.status !== 'done' || !this.plans.has(x.row)) return false;
    this.held.push(x);
    return true;
  }

  /** The held results, each with the record it made (or why it could not be told; not looked for after Ctrl-C). */
  async release(results: ResultLog, look: boolean): Promise<void> {
    const taken = new Set<string>();
    for (const x of this.held.sort((a, b) => a.row - b.row)) {
      if (look) {
        const plan = this.plans.get(x.row)!;
        try {
          const c = await createdAfter(this.r.client, plan, taken);
          const key = c.set.humanKey !== undefined ? c.record?.[c.set.humanKey] : undefined;
          if (c.record) taken.add(String(c.record.id));
          if (c.record) x.made = { id: String(c.record.id), ...(typeof key === 'string' && key ? { key } : {}) };
          else x.message = `which ${c.set.singular} it made could not be told (${c.candidates} new records hold its values): list them with: ${c.look}`;
        } catch (e) {
          // the action was done: its result is reported whatever happens to the lookup after it
          if (e instanceof InterruptedError) look = false;
          else x.message = `which ${plan.target.singular} it made was not looked up (${e instanceof Error ? e.message : String(e)})`;
        }
      }
      results.add(x);
    }
    this.held.length = 0;
    results.flush();
  }
}

/**
 * Runs the operation on every record, `results` getting one result per record as batches come
 * back. Ctrl-C ends the run with what was learned (`interrupted`); `checks` are the commands that
 * tell whether the operations with an unknown outcome took effect.
 */
export async function runBulkAction(r: BulkRun, list: Target[], results: ResultLog): Promise<{ interrupted?: InterruptedError; checks: string[] }> {
  const byRow = new Map(list.map((t) => [t.row, t]));
  const made = new MadeRecords(r);
  let interrupted: InterruptedError | undefined;
  try {
    // (the rows the lookup of ETags gave a result: not found, say; they are not sent)
    const reported = new Set<number>();
    await readEtags(r, list, { add: (x) => void (reported.add(x.row), results.add(x)), flush: () => results.flush(), unknown: results.unknown });
    if (made.active) await made.prepare(list);
    const items: BulkItem[] = [];
    for (const t of list) if ((r.action !== 'delete' || r.force || t.etag) && !reported.has(t.row)) items.push({ row: t.row, op: opFor(r, t, r.force ? '*' : t.etag!) });
    await runBatches(r.batch, items, r.bulk, () => undefined, (chunk, res, no) => {
      chunk.forEach((c, i) => {
        const t = byRow.get(c.row)!;
        const x = resultOf(c.row, res[i], r.action === 'delete' ? 'deleted' : 'done', no, undefined, { id: t.id, ...(t.key ? { key: t.key } : {}) });
        if (x.status === 'unknown') x.check = getCommand(r.set, t.id);
        if (!made.hold(x)) results.add(x);
      });
      results.flush();
    });
  } catch (e) {
    if (!(e instanceof InterruptedError)) {
      // the results held for their made records were done: they are reported before the error
      await made.release(results, false);
      throw e;
    }
    interrupted = e;
  }
  await made.release(results, !interrupted);
  const unknown = results.unknown.map((x) => x.id!);
  const checks = unknown.length ? [checkCommand(r.set, 'id', unknown)!.replace(/'([0-9a-f-]{36})'/gi, '$1')] : [];
  return { interrupted, checks };
}
