// Rows of an import given as NDJSON (one object per line, read a line at a time) or as a JSON
// array of objects (parsed whole), typed by the set's model as `--data` is (rows.ts).
import { UsageError } from '../../core/errors.js';
import { isExactNumber, jsonErrorWithoutText, parseExact, stringifyExact } from '../../core/json.js';
import type { ErpSet } from '../../model/erp/index.js';
import { collect, hashText, readOnlyColumns, rowBuilder, type ParsedRows, type ReadRows, type Row, type RowBuilder, type RowMode, type RowProblem } from './rows.js';

/**
 * A JSON parse error of a whole file with its line and column (Node 20 names only the offset), and
 * a hint when the file is one object per line (NDJSON named .json).
 */
function jsonProblem(body: string, message: string): string {
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

/** Reads NDJSON (one JSON object per line; blank lines skipped) or a JSON array of objects (parsed whole; NDJSON is read a line at a time). */
export async function readJsonRows(set: ErpSet, mode: RowMode, format: 'ndjson' | 'json', text: string, name: string): Promise<ParsedRows>;
export async function readJsonRows(set: ErpSet, mode: RowMode, format: 'ndjson' | 'json', text: string, name: string, lazy: true): Promise<ReadRows>;
export async function readJsonRows(set: ErpSet, mode: RowMode, format: 'ndjson' | 'json', text: string, name: string, lazy = false): Promise<ReadRows> {
  const body = text.replace(/^\uFEFF/, '');
  if (!body.trim()) throw new UsageError(`${name} is empty: expected ${format === 'json' ? 'a JSON array of objects' : 'one JSON object per line'}`);
  let all: unknown[] | undefined;
  if (format === 'json') {
    let parsed: unknown;
    try {
      parsed = parseExact(body);
    } catch (e) {
      throw new UsageError(`${name}: not valid JSON: ${jsonProblem(body, jsonErrorWithoutText(body, e as Error))}`);
    }
    if (!Array.isArray(parsed)) throw new UsageError(`${name}: expected a JSON array of objects`);
    all = parsed;
  }
  const info = { ignored: [] as string[], total: 0 };
  return collect(set, mode, () => jsonScan(set, mode, all, body, info), info, lazy);
}

/** The rows and problems of a JSON array (`all`) or of NDJSON text, one at a time. */
function* jsonScan(set: ErpSet, mode: RowMode, all: unknown[] | undefined, body: string, info: { ignored: string[]; total: number }): Generator<Row | RowProblem> {
  let total = 0;
  const builders = new Map<string, RowBuilder>();
  const ignored = new Set<string>();
  function* take(row: number, v: unknown): Generator<Row | RowProblem> {
    total++;
    if (!v || typeof v !== 'object' || Array.isArray(v) || isExactNumber(v)) {
      yield { row, message: 'expected a JSON object' };
      return;
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
  if (all) for (let i = 0; i < all.length; i++) yield* take(i + 1, all[i]);
  else {
    for (let at = 0, no = 1; at <= body.length; no++) {
      let end = body.indexOf('\n', at);
      if (end < 0) end = body.length;
      const s = body.slice(at, end).replace(/\r$/, '');
      at = end + 1;
      if (!s.trim()) continue;
      let v: unknown;
      try {
        v = parseExact(s);
      } catch (e) {
        total++;
        yield { row: no, message: `not valid JSON: ${jsonErrorWithoutText(s, e as Error)}` };
        continue;
      }
      yield* take(no, v);
    }
  }
  info.ignored = [...ignored];
  info.total = total;
}
