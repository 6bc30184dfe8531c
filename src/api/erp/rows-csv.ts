// Rows of an import given as CSV, read a record at a time (csv-records.ts), typed by the set's
// model as `--set` is (rows.ts).
import { UsageError } from '../../core/errors.js';
import { csvUnguard } from '../../core/output/index.js';
import { csvDelimiter, csvRecordsOf, GUESS_CHARS, headOf, loadPapa } from './csv-records.js';
import { textInput, type ImportInput } from './import-input.js';
import { collect } from './rows-collect.js';
import { checkColumns, hashFields, readOnlyColumns, rowBuilder, writableList, type ParsedRows, type ReadRows, type Row, type RowBuilder, type RowMode, type RowProblem } from './rows.js';
import type { ErpSet } from '../../model/erp/index.js';

type Papa = typeof import('papaparse');

/** whether every cell of a record is empty or blank */
function blank(record: readonly string[]): boolean {
  for (const f of record) if (f !== '' && f.trim() !== '') return false;
  return true;
}

/** Line breaks inside a record's (quoted) fields: CRLF, LF or CR each count one. */
function breaks(fields: readonly string[]): number {
  let n = 0;
  for (const f of fields) if (f.length && (f.includes('\n') || f.includes('\r'))) n += f.match(/\r\n|\r|\n/g)?.length ?? 0;
  return n;
}

/**
 * Reads CSV text (RFC 4180: quoted fields with commas, doubled quotes and line breaks; CRLF or LF;
 * a BOM; fields separated by commas, or semicolons or tabs as the header shows: see csvDelimiter)
 * with papaparse, a well-kept parser several times faster than the alternatives measured
 * (plain text without quotes or CRs is cut directly: see csvRecords).
 * The header names fields; ragged rows, duplicate names, unknown columns and bad values are
 * problems. A row whose every cell is empty (what a spreadsheet writes for a blank row) is skipped
 * like a blank line.
 */
export async function readCsv(set: ErpSet, mode: RowMode, text: string | ImportInput, name: string): Promise<ParsedRows>;
export async function readCsv(set: ErpSet, mode: RowMode, text: string | ImportInput, name: string, lazy: true): Promise<ReadRows>;
export async function readCsv(set: ErpSet, mode: RowMode, text: string | ImportInput, name: string, lazy = false): Promise<ReadRows> {
  const input = typeof text === 'string' ? textInput(text, name) : text;
  const marks = input.marks();
  const Papa = marks.quote || marks.cr ? await loadPapa() : undefined;
  const info = { ignored: [] as string[], total: 0 };
  const scan = () => csvScan(set, mode, input, name, Papa, marks.quote, info);
  return collect(set, mode, scan, info, lazy);
}

/**
 * The rows and problems of CSV text, one at a time (`info` gets the read-only columns and, once
 * the scan is done, the count of records). Header problems and malformed quoting are thrown.
 * `quoted`: the text holds a quote somewhere (else no field holds a line break).
 */
function* csvScan(set: ErpSet, mode: RowMode, input: ImportInput, name: string, Papa: Papa | undefined, quoted: boolean, info: { ignored: string[]; total: number }): Generator<Row | RowProblem> {
  let header: string[] | undefined;
  let total = 0;
  // lines are counted here: a record spans one line plus the line breaks inside its quoted
  // fields, and an empty line comes as a record of one empty field
  let line = 1;
  const { head, rest } = headOf(input.chunks(), Papa ? GUESS_CHARS : 0, name, true);
  const records = csvRecordsOf(Papa, head, rest, csvDelimiter(head), name);
  let build: RowBuilder | undefined;
  for (let k = 0, record = records.next(); record; k++, record = records.next()) {
    const start = line;
    line += quoted ? 1 + breaks(record) : 1;
    const quoteError = records.quoteError;
    if (quoteError && quoteError.row === k) throw new UsageError(`${name} line ${start}: not valid CSV: ${quoteError.message.replace(/\.$/, '')}`);
    if (record.length === 1 && record[0] === '') continue; // an empty line
    if (!header) {
      header = record.map((h) => h.trim());
      const bad = checkColumns(set, mode, header);
      if (bad.length) throw new UsageError(`${name}: ${bad.join('; ')}`);
      build = rowBuilder(set, mode, header, true);
      info.ignored = readOnlyColumns(set, mode, header);
      continue;
    }
    if (blank(record)) continue; // a spreadsheet's blank row: ",,,"
    total++;
    if (record.length !== header.length) {
      yield { row: start, message: `has ${record.length} field${record.length === 1 ? '' : 's'}; the header has ${header.length}` };
      continue;
    }
    // a field vx's own -o csv guarded against spreadsheets ('=...) is read as it was
    const r = build!(start, record.map(csvUnguard), hashFields(record));
    if (!Array.isArray(r)) yield r;
    else for (const m of r) yield { row: start, message: m };
  }
  if (records.quoteError) throw new UsageError(`${name}: not valid CSV: ${records.quoteError.message.replace(/\.$/, '')}`);
  if (!header) throw new UsageError(`${name} is empty: expected a header line naming the fields (${writableList(set)})`);
  info.total = total;
}
