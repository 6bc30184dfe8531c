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
  const cols = rowColumns(rows, columns);
  return rows.map((r) => `${cols.map((c) => tsvCell(rawCell(r, c))).join('\t')}\n`).join('');
}

/** Plain text: scalars as they are, a list of scalars one per line, one object `key<TAB>value`, rows as tsv. */
export function renderText(value: unknown, columns?: Column[]): string {
  if (value === undefined || value === null) return '';
  if (!Array.isArray(value) && !isPlainObject(value)) return `${terminalText(scalarText(value))}\n`;
  return renderTsv(value, columns);
}

/** a text a spreadsheet would take for a formula: = + - @ first, or a tab or CR (after any ' of an earlier escape) */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** a plain decimal number (-12.50, +3, 1e-7): a spreadsheet reads it as a number, never a formula */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, a double quote, CR or LF; quotes doubled.
 * A text that a spreadsheet would run as a formula (`=HYPERLINK(...)`, `+cmd|...`, `@SUM(...)`)
 * gets a `'` before it, as OWASP's CSV injection advice says: shown as text, never run. Numbers,
 * and texts that are plain numbers (`-12.50`), are written as they are; `vx erp <set> import` takes
 * the `'` off again (csvUnguard).
 */
function csvField(v: unknown): string {
  const s = scalarText(v);
  return csvQuoted(typeof v === 'string' && FORMULA_START.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s);
}

/** RFC 4180 quoting alone (the header: vx's own names, `@odata.etag` among them, read back as they are) */
function csvQuoted(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The text of a CSV field as it was before csvField guarded it against spreadsheets (one `'` less). */
export function csvUnguard(s: string): string {
  return s.startsWith("'") && FORMULA_START.test(s) && !PLAIN_NUMBER.test(s.slice(1)) ? s.slice(1) : s;
}

/** A CSV line of the given fields, ended by LF. */
export function csvLine(fields: readonly unknown[]): string {
  return `${fields.map(csvField).join(',')}\n`;
}

/** a column's cell as tsv and csv write it: the raw value when the table shows it shortened for reading */
function rawCell(r: unknown, c: Column): unknown {
  return cell(r, c.raw === undefined ? c : { ...c, get: c.raw });
}

/**
 * The columns of tsv and csv rows: the command's (the table's, `wide` ones included), by position
 * for scalars and arrays, else the scalar fields of the rows (as the table infers them).
 */
export function rowColumns(rows: unknown[], columns?: Column[]): Column[] {
  return positional(rows) ? arrayColumns(rows) : (columns ?? inferColumns(rows));
}

/** The csv header of a column: the field it shows when it names one, else its header. */
const csvHeader = (c: Column): string => c.name ?? c.header;

/** The header line of csv rows in these columns. */
export function csvHeaderLine(columns: Column[]): string {
  return `${columns.map((c) => csvQuoted(csvHeader(c))).join(',')}\n`;
}

/** csv lines of rows in these columns (no header). */
export function csvRows(rows: unknown[], columns: Column[]): string {
  return rows.map((r) => csvLine(columns.map((c) => rawCell(r, c)))).join('');
}

/**
 * CSV for spreadsheets and pipelines: a header row, then one line per record; RFC 4180 quoting;
 * lines end with LF. Its columns are tsv's (the table's, `wide` ones included, values as tsv
 * writes them; rows of arrays or scalars: Column1, Column2, ...), headed by the field each shows.
 * An empty list is nothing (or the header alone when the columns are known).
 */
export function renderCsv(value: unknown, columns?: Column[]): string {
  if (value === undefined || value === null) return '';
  const rows = rowsOf(value);
  if (!rows.length) return columns ? csvHeaderLine(columns) : '';
  const cols = rowColumns(rows, columns);
  return csvHeaderLine(cols) + csvRows(rows, cols);
}
