// The rows of an import's scan: every problem and the count from a first pass over the input, the
// valid rows read again from it when they are sent (only the rows in flight are held).
import { capYoungGeneration } from '../../core/heap.js';
import type { ErpSet } from '../../model/erp/index.js';
import { hashNumber, type ReadRows, type Row, type RowMode, type RowProblem } from './rows.js';

/** the problems held in memory: more are read again from the input when they are listed */
const MAX_HELD_PROBLEMS = 10_000;

/** the young generation a long scan keeps (MB per semi-space) */
const YOUNG_GENERATION_MB = 4;

const isRow = (x: Row | RowProblem): x is Row => 'body' in x;

/** The valid rows of a scan, read again from the text each time they are iterated. */
function rescanned(scan: () => Iterator<Row | RowProblem>): Iterable<Row> {
  return {
    *[Symbol.iterator]() {
      const it = scan();
      for (let x = it.next(); !x.done; x = it.next()) if (isRow(x.value)) yield x.value;
    },
  };
}

/** The rows of `rows` but those in `out`. */
function without(rows: Iterable<Row>, out: ReadonlySet<number>): Iterable<Row> {
  return {
    *[Symbol.iterator]() {
      for (const r of rows) if (!out.has(r.row)) yield r;
    },
  };
}

/**
 * The whole scan once (every problem listed, the count); the rows kept (`lazy`: read again from
 * the text each time they are iterated, when sent). On update, two rows for one record are
 * problems (onePerRecord) and left out.
 */
export function collect(set: ErpSet, mode: RowMode, scan: () => Iterator<Row | RowProblem>, info: { ignored: string[]; total: number }, lazy: boolean): ReadRows {
  const rows: Row[] = [];
  const problems: RowProblem[] = [];
  const keys = mode === 'update' ? new KeyHashes() : undefined;
  const it = scan();
  let n = 0;
  let count = 0;
  let badRows = 0;
  for (let x = it.next(), last = -1; !x.done; x = it.next()) {
    if (!isRow(x.value)) {
      // (a row's problems come together)
      if (x.value.row !== last) badRows++;
      last = x.value.row;
      if (++count <= MAX_HELD_PROBLEMS) problems.push(x.value);
      continue;
    }
    keys?.add(recordKey(x.value));
    if (!lazy) rows.push(x.value);
    // (a long scan whose rows are dropped keeps V8's young generation small: core/heap.ts)
    else if (++n % 1000 === 0) capYoungGeneration(YOUNG_GENERATION_MB);
  }
  const { total, ignored } = info;
  const valid = lazy ? rescanned(scan) : rows;
  const late: RowProblem[] = [];
  const twice = keys && onePerRecord(set, keys, valid, late);
  badRows += late.length;
  const whole = count <= MAX_HELD_PROBLEMS;
  if (whole && late.length) {
    problems.push(...late);
    problems.sort((a, b) => a.row - b.row);
  }
  return {
    rows: twice?.size ? (lazy ? without(valid, twice) : rows.filter((r) => !twice.has(r.row))) : valid,
    problems,
    total,
    ignored,
    badRows,
    allProblems: () => (whole ? problems : merged(scannedProblems(scan), late)),
  };
}

/** The problems of a scan, read again from the input. */
function* scannedProblems(scan: () => Iterator<Row | RowProblem>): Generator<RowProblem> {
  const it = scan();
  for (let x = it.next(); !x.done; x = it.next()) if (!isRow(x.value)) yield x.value;
}

/** Two lists of problems in row order, as one (`a`'s first for a row in both). */
function* merged(a: Iterable<RowProblem>, b: readonly RowProblem[]): Generator<RowProblem> {
  let k = 0;
  for (const p of a) {
    while (k < b.length && b[k].row < p.row) yield b[k++];
    yield p;
  }
  while (k < b.length) yield b[k++];
}

/** What finds the record a row updates: its key field and value (an id in any case). */
const recordKey = (r: Row): string => `${r.key!.field}\u0000${r.key!.field === 'id' ? r.key!.value.toLowerCase() : r.key!.value}`;

/** The 53-bit hashes of the rows' record keys, 8 bytes a row: the keys met more than once are found among them. */
class KeyHashes {
  private all = new Float64Array(1024);
  private n = 0;

  add(key: string): void {
    if (this.n === this.all.length) {
      // (by half again: a list near its end is not twice what it holds)
      const more = new Float64Array(Math.ceil(this.n * 1.5));
      more.set(this.all);
      this.all = more;
    }
    this.all[this.n++] = hashNumber([key]);
  }

  /** The hashes met more than once (two keys, or one key twice). */
  repeated(): Set<number> {
    const sorted = this.all.subarray(0, this.n).sort();
    const out = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) out.add(sorted[i]);
    return out;
  }
}

/**
 * --update: a second row that finds the same record by the same key is a problem. Both would be
 * sent with the ETag of one read, so the later one failed as "changed by someone else" (by the
 * earlier row), or, in batches sent at once, either could win. Only the rows whose key's hash
 * came more than once are read again and compared by their keys (their problems go to
 * `problems`, in row order). Returns the rows left out.
 */
function onePerRecord(set: ErpSet, keys: KeyHashes, rows: Iterable<Row>, problems: RowProblem[]): Set<number> | undefined {
  const repeated = keys.repeated();
  if (!repeated.size) return undefined;
  const first = new Map<string, number>();
  const twice = new Set<number>();
  for (const r of rows) {
    const k = recordKey(r);
    if (!repeated.has(hashNumber([k]))) continue;
    const at = first.get(k);
    if (at === undefined) first.set(k, r.row);
    else {
      problems.push({ row: r.row, message: `updates the same ${set.singular} as row ${at} (${r.key!.field} ${r.key!.value}): give each record one row` });
      twice.add(r.row);
    }
  }
  return twice;
}
