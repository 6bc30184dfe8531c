// Rows of an import given as NDJSON (one object per line, read a line at a time) or as a JSON
// array of objects (read an element at a time: json-array.ts), typed by the set's model as
// `--data` is (rows.ts).
import { UsageError } from '../../core/errors.js';
import { isExactNumber, jsonErrorWithoutText, parseExact, stringifyExact } from '../../core/json.js';
import { MAX_WHOLE_BYTES } from '../../core/input.js';
import type { ErpSet } from '../../model/erp/index.js';
import { headOf } from './csv-records.js';
import { linesOf, MAX_LINE_CHARS, textInput, type ImportInput } from './import-input.js';
import { ArrayReader } from './json-array.js';
import { collect } from './rows-collect.js';
import { hashText, readOnlyColumns, rowBuilder, type ParsedRows, type ReadRows, type Row, type RowBuilder, type RowMode, type RowProblem } from './rows.js';

/**
 * A JSON parse error of a whole file with its line and column (Node 20 names only the offset), and
 * a hint when the file is one object per line (NDJSON named .json).
 */
export function jsonProblem(body: string, message: string): string {
  const at = /at position (\d+)/.exec(message);
  let out = message;
  if (at && !/line \d/.test(message)) {
    const before = body.slice(0, Number(at[1]));
    const line = before.split('\n').length;
    out += ` (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
  }
  const first = body.trimStart().split('\n', 1)[0];
  if (first.startsWith('{')) {
    try {
      JSON.parse(first);
      out += '; it holds one object per line: for NDJSON pass --format ndjson';
    } catch {
      // (not NDJSON either)
    }
  }
  return out;
}

/** Reads NDJSON (one JSON object per line, a line at a time; blank lines skipped) or a JSON array of objects (an element at a time). */
export async function readJsonRows(set: ErpSet, mode: RowMode, format: 'ndjson' | 'json', text: string | ImportInput, name: string): Promise<ParsedRows>;
export async function readJsonRows(set: ErpSet, mode: RowMode, format: 'ndjson' | 'json', text: string | ImportInput, name: string, lazy: true): Promise<ReadRows>;
export async function readJsonRows(set: ErpSet, mode: RowMode, format: 'ndjson' | 'json', text: string | ImportInput, name: string, lazy = false): Promise<ReadRows> {
  const input = typeof text === 'string' ? textInput(text, name) : text;
  const empty = () => new UsageError(`${name} is empty: expected ${format === 'json' ? 'a JSON array of objects' : 'one JSON object per line'}`);
  let all: unknown[] | undefined;
  let source = (head: string, rest: Iterator<string>): Iterable<[number, unknown] | RowProblem> => ndjsonValues(head, rest, name);
  if (format === 'json') {
    const start = headOf(input.chunks(), 1, name);
    const rest = start.rest;
    let head = start.head;
    for (let x: IteratorResult<string>; !/\S/.test(head) && !(x = rest.next()).done; ) head += x.value;
    const first = head.search(/\S/);
    if (first < 0) throw empty();
    // anything but an array is read whole, to say what it is
    if (head[first] !== '[' || /[^ \t\r\n]/.test(head.slice(0, first))) all = wholeArray(head, rest, name);
    else source = (h, r) => arrayValues(h, r, name);
  }
  const info = { ignored: [] as string[], total: 0 };
  const values = (): Iterable<[number, unknown] | RowProblem> => {
    if (all) return all.map((v, i): [number, unknown] => [i + 1, v]);
    const { head, rest } = headOf(input.chunks(), 1, name);
    return source(head, rest);
  };
  const scanned = collect(set, mode, () => jsonScan(set, mode, values(), info), info, lazy);
  // (blank lines only: nothing was read)
  if (format === 'ndjson' && !info.total) throw empty();
  return scanned;
}

/** A JSON text that is not an array, read whole (as much as vx reads whole): the error that says what it is. */
function wholeArray(head: string, rest: Iterator<string>, name: string): never {
  let body = head;
  for (let x = rest.next(); !x.done; x = rest.next()) {
    body += x.value;
    if (body.length > MAX_WHOLE_BYTES) throw new UsageError(`${name} is larger than ${MAX_WHOLE_BYTES / (1024 * 1024)} MiB, more than vx reads whole; nothing was sent`);
  }
  let parsed: unknown;
  try {
    parsed = parseExact(body);
  } catch (e) {
    throw new UsageError(`${name}: not valid JSON: ${jsonProblem(body, jsonErrorWithoutText(body, e as Error))}`);
  }
  void parsed;
  throw new UsageError(`${name}: expected a JSON array of objects`);
}

/** The elements of a JSON array, numbered from 1. */
function* arrayValues(head: string, rest: Iterator<string>, name: string): Generator<[number, unknown]> {
  let n = 0;
  for (const v of new ArrayReader(head, rest, name).elements()) yield [++n, v];
}

/** The values of NDJSON text by line number (blank lines skipped; a line that is not JSON: a problem). */
function* ndjsonValues(head: string, rest: Iterator<string>, name: string): Generator<[number, unknown] | RowProblem> {
  let no = 0;
  for (const line of linesOf(head, rest, () => new UsageError(`${name} line ${no + 1} is longer than ${MAX_LINE_CHARS / (1024 * 1024)} MiB`))) {
    no++;
    const s = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (!s.trim()) continue;
    try {
      yield [no, parseExact(s)];
    } catch (e) {
      yield { row: no, message: `not valid JSON: ${jsonErrorWithoutText(s, e as Error)}` };
    }
  }
}

/** The rows and problems of JSON values by row number, one at a time. */
function* jsonScan(set: ErpSet, mode: RowMode, values: Iterable<[number, unknown] | RowProblem>, info: { ignored: string[]; total: number }): Generator<Row | RowProblem> {
  let total = 0;
  const builders = new Map<string, RowBuilder>();
  const ignored = new Set<string>();
  for (const x of values) {
    total++;
    if (!Array.isArray(x)) {
      yield x;
      continue;
    }
    const [row, v] = x;
    if (!v || typeof v !== 'object' || Array.isArray(v) || isExactNumber(v)) {
      yield { row, message: 'expected a JSON object' };
      continue;
    }
    const o = v as Record<string, unknown>;
    const names = Object.keys(o);
    // rows of a file usually share their keys: one builder per distinct list of keys
    const id = JSON.stringify(names);
    let build = builders.get(id);
    if (!build) {
      build = rowBuilder(set, mode, names, false);
      for (const n of readOnlyColumns(set, mode, names)) ignored.add(n);
      if (builders.size < 64) builders.set(id, build);
    }
    const r = build(row, Object.values(o), hashText(stringifyExact(o)));
    if (!Array.isArray(r)) yield r;
    else for (const m of r) yield { row, message: m };
  }
  info.ignored = [...ignored];
  info.total = total;
}
