// The output formats (-o) and the column model every renderer reads.
import { UsageError } from '../errors.js';

export const FORMATS = ['json', 'yaml', 'table', 'wide', 'tsv', 'csv', 'ndjson', 'text', 'none'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * Reads a cell from a row. Declared as a method so that a getter written for its own row type
 * (`(r: StatusRow) => r.service`) fits any column list (method parameters are bivariant).
 */
type RowGetter = { read(row: unknown): unknown }['read'];

export interface Column {
  header: string;
  /** the field the column shows, as the csv header names it (default: the header) */
  name?: string;
  /** a dotted path into the row, or a function */
  get: string | RowGetter;
  /** right-align (numbers) */
  align?: 'left' | 'right';
  /** a column that may be dropped first when the terminal is narrow */
  optional?: boolean;
  /** never cut (an identifier the user copies into the next command): other columns give way */
  keep?: boolean;
  /** the column read first (a title, a name): the optional columns go before it is cut short */
  primary?: boolean;
  /** shown only by `-o wide` (and in tsv/text rows): a GUID next to a human key */
  wide?: boolean;
  /** the value tsv/text rows carry when the table shows it shortened for reading (a time as written, not `2025-07-24 10:05Z`) */
  raw?: string | RowGetter;
  /**
   * a unit the table shows after the value (an amount's currency: `1,234.50 EUR`), aligned down
   * the column; tsv and csv carry it in a column of its own
   */
  unit?: string | RowGetter;
  /** colours the cell's text (padded to the column's width, which it keeps) in a table at a colour terminal */
  paint?: (text: string, row: unknown) => string;
}

export interface RenderOptions {
  columns?: Column[];
  /** terminal width for tables; undefined = no limit */
  width?: number;
  /** how `text` renders this value; default: like tsv for rows, plain for scalars */
  text?: (value: unknown) => string;
  /** colour the table header */
  color?: boolean;
  /** `-o wide`: every column (those marked `wide` too), none dropped or cut, whatever the width */
  wide?: boolean;
  /** text shown instead of an empty table */
  empty?: string;
  /**
   * what counts as an empty field, left out of one record's FIELD/VALUE lines by `-o table`
   * (`-o wide` shows every field); default: null, "" and an empty list or object
   */
  blank?: (value: unknown) => boolean;
}

export function parseFormat(value: string | undefined, origin?: string): Format | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (!(FORMATS as readonly string[]).includes(v)) {
    throw new UsageError(`invalid output format "${value}"${origin ? ` (from ${origin})` : ''}; allowed: ${FORMATS.join(', ')}`);
  }
  return v as Format;
}

/** The formats that show a table: `table`, and `wide` (every column, nothing cut). */
export function isTable(format: Format): boolean {
  return format === 'table' || format === 'wide';
}
