// The machine formats written whole or row by row: json, ndjson, tsv, text and csv. Pure (value -> string).
import { terminalText } from '../errors.js';
import { stringifyExact } from '../json.js';
import { arrayColumns, cell, inferColumns, isPlainObject, positional, rowsOf, scalarText } from './cells.js';
import type { Column } from './formats.js';

export function renderJson(value: unknown): string {
  if (value === undefined) return '';
  return `${stringifyExact(value, 2)}\n`;
}

export function renderNdjson(value: unknown): string {
  if (value === undefined) return '';
  return rowsOf(value)
    .map((v) => `${stringifyExact(v)}\n`)
    .join('');
}

function tsvCell(v: unknown): string {
  return terminalText(scalarText(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r?\n/g, '\\n'));
}

/** One object as `key<TAB>value` lines of its payload (nested values as compact JSON, @odata keys left out). */
function keyValueLines(value: Record<string, unknown>): string {
  return Object.entries(value)
    .filter(([k]) => !k.startsWith('@odata'))
    .map(([k, v]) => `${k}\t${tsvCell(v)}\n`)
    .join('');
}

/**
 * Tab-separated rows with no header (like `az -o tsv`), for cut/awk/while read: a row that is an
 * array is its values; a list of scalars one per line. One object (not in a list) is `key<TAB>value`
 * lines of its payload, whatever columns a table would show.
 */
export function renderTsv(value: unknown, columns?: Column[]): string {
  if (value === undefined || value === null) return '';
  if (isPlainObject(value)) return keyValueLines(value);
  const rows = rowsOf(value);
  const cols = positional(rows) ? arrayColumns(rows) : (columns ?? inferColumns(rows));
  return rows.map((r) => `${cols.map((c) => tsvCell(cell(r, c.raw === undefined ? c : { ...c, get: c.raw }))).join('\t')}\n`).join('');
}

/** Plain text: scalars as they are, a list of scalars one per line, one object `key<TAB>value`, rows as tsv. */
export function renderText(value: unknown, columns?: Column[]): string {
  if (value === undefined || value === null) return '';
  if (!Array.isArray(value) && !isPlainObject(value)) return `${terminalText(scalarText(value))}\n`;
  return renderTsv(value, columns);
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a double quote, CR or LF; quotes doubled. */
function csvField(v: unknown): string {
  const s = scalarText(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A CSV line of the given fields, ended by LF. */
export function csvLine(fields: readonly unknown[]): string {
  return `${fields.map(csvField).join(',')}\n`;
}

/** The CSV columns of rows of objects: every key (nested values included, as JSON) in first-seen order; @odata keys left out. */
export function csvColumns(rows: unknown[]): Column[] {
  const keys = new Set<string>();
  for (const r of rows) if (isPlainObject(r)) for (const k of Object.keys(r)) if (!k.startsWith('@odata')) keys.add(k);
  return [...keys].map((k) => ({ header: k, get: (r: unknown) => (isPlainObject(r) ? r[k] : undefined) }));
}

/** The columns CSV uses for rows: `columns` when given, by position for scalars and arrays, else every key. */
export function csvColumnsFor(rows: unknown[], columns?: Column[]): Column[] {
  if (columns) return columns;
  return positional(rows) ? arrayColumns(rows) : csvColumns(rows);
}

/**
 * CSV for spreadsheets and pipelines: a header row, then one line per record; RFC 4180 quoting;
 * nested values as compact JSON; lines end with LF. Without `columns` the fields are the payload's
 * (rows of arrays or scalars: Column1, Column2, ...). An empty list is nothing (or the header alone
 * when the columns are known).
 */
export function renderCsv(value: unknown, columns?: Column[]): string {
  if (value === undefined || value === null) return '';
  const rows = rowsOf(value);
  if (!rows.length) return columns ? csvLine(columns.map((c) => c.header)) : '';
  const cols = csvColumnsFor(rows, columns);
  return csvLine(cols.map((c) => c.header)) + rows.map((r) => csvLine(cols.map((c) => cell(r, c)))).join('');
}
