// What every renderer reads from a row: cells by column, scalars as text, inferred columns.
import { terminalText } from '../errors.js';
import { isExactNumber, stringifyExact } from '../json.js';
import type { Column } from './formats.js';

export function getPath(row: unknown, path: string): unknown {
  if (row === null || row === undefined) return undefined;
  if (path === '' || path === '.') return row;
  let cur: unknown = row;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function cell(row: unknown, c: Column): unknown {
  return typeof c.get === 'function' ? c.get(row) : getPath(row, c.get);
}

/** A scalar as one line of text: strings as is, null/undefined empty, objects as compact JSON. */
export function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || isExactNumber(v)) return String(v);
  return stringifyExact(v);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isExactNumber(v);
}

/** an object or an array: shown as compact JSON in a cell, never a column of its own */
export function isStructured(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !isExactNumber(v);
}

/**
 * a value as the one-line text of a table cell: a line break or a tab is a space (a raw tab
 * would jump to the terminal's next tab stop, which the column widths do not count, and shift
 * every column after it)
 */
export function cellText(v: unknown): string {
  return terminalText(scalarText(v).replace(/\r?\n|\t/g, ' '));
}


/** 2025-07-24T10:05:00Z -> 2025-07-24 10:05Z (anything else as it is) */
export function shortTime(v: unknown): string {
  if (typeof v !== 'string' || !v) return '';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(v);
  return m ? `${m[1]} ${m[2]}Z` : v;
}

/**
 * An amount as a person reads it in a table: at least two decimals, and every decimal the value
 * has (735 -> 735.00, 735.125 -> 735.125, a unit price 0.00125 -> 0.00125): a table never shows a
 * rounded amount. A value that is not a number is shown as it is (an exact big number as written).
 */
export function amountText(v: unknown): unknown {
  if (typeof v !== 'number' || !Number.isFinite(v)) return v;
  for (let d = 2; d < 20; d++) {
    const t = v.toFixed(d);
    if (Number(t) === v) return t;
  }
  return v.toFixed(20);
}

/** An amount as a table shows it: `amountText` with its thousands grouped (1234.5 -> 1,234.50). */
export function groupedAmount(v: unknown): unknown {
  const t = amountText(v);
  if (typeof t !== 'string') return t;
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(t);
  return m ? `${m[1]}${m[2].replace(/\B(?=(\d{3})+$)/g, ',')}${m[3] ?? ''}` : t;
}

/** Columns derived from the data: the scalar-valued keys of the rows, in first-seen order (@odata keys left out). */
export function inferColumns(rows: unknown[]): Column[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  const structured = new Set<string>(); // an object or array in any row: not a column
  for (const r of rows.slice(0, 200)) {
    if (!isPlainObject(r)) continue;
    for (const [k, v] of Object.entries(r)) {
      if (isStructured(v)) structured.add(k);
      if (seen.has(k) || k.startsWith('@odata')) continue;
      seen.add(k);
      keys.push(k);
    }
  }
  // as for the typed tables: a short id (a GUID, not an ARM resource path) is never cut, and the
  // first four columns stay on a narrow terminal
  const shortIds = rows.slice(0, 200).every((r) => !isPlainObject(r) || (typeof r.id === 'string' && r.id.length <= 40));
  return keys
    .filter((k) => !structured.has(k))
    // read by key, not as a dotted path (a key may hold a dot)
    .map((k, i) => ({ header: k, get: (r: unknown) => (isPlainObject(r) ? r[k] : undefined), keep: (k === 'id' && shortIds) || undefined, optional: i >= 4 || undefined }));
}

/**
 * Rows that are arrays (`--query '[].[number,name]'`) as az shows them: columns Column1, Column2, ...
 * (as many as the longest row); a scalar among them is a row of one value.
 */
export function arrayColumns(rows: unknown[]): Column[] {
  const n = Math.max(1, ...rows.map((r) => (Array.isArray(r) ? r.length : 1)));
  return Array.from({ length: n }, (_, i): Column => ({
    header: `Column${i + 1}`,
    get: (r: unknown) => (Array.isArray(r) ? r[i] : i === 0 ? r : undefined),
  }));
}

/** whether rows hold no object: scalars and arrays, shown by position rather than by key */
export function positional(rows: unknown[]): boolean {
  return rows.every((r) => !isPlainObject(r));
}

export function rowsOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}
