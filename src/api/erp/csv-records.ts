// The records of an import's CSV text, read a chunk at a time: only the record being read and
// the chunk it is in are held, whatever the size of the input.
import { UsageError } from '../../core/errors.js';
import { linesOf, MAX_LINE_CHARS } from './import-input.js';

type Papa = typeof import('papaparse');

/** The records one at a time, and the first malformed quoting met so far (its record's index). */
export interface CsvRecords {
  next(): string[] | undefined;
  readonly quoteError?: { row: number; message: string };
}

/** the longest record vx reads: longer is a quote left open (or no CSV at all), and is refused rather than held */
export const MAX_RECORD_CHARS = MAX_LINE_CHARS;

/** papaparse guesses the line ending from this much of the text (its guessLineEndings) */
export const GUESS_CHARS = 1024 * 1024;

const tooLong = (name: string) => new UsageError(`${name}: not valid CSV: a record longer than ${MAX_RECORD_CHARS / (1024 * 1024)} MiB (a quote left open?)`);

/** papaparse, loaded only for text that needs it (a quote or a CR). */
export async function loadPapa(): Promise<Papa> {
  const m = (await import('papaparse')) as { default?: Papa } & Papa;
  return m.default ?? m;
}

/**
 * The start of the text: at least `min` characters, and (`line`) its first line whole, or all of
 * the text when shorter; a leading BOM dropped. `rest` goes on from there.
 */
export function headOf(chunks: Iterator<string>, min: number, name: string, line = false): { head: string; rest: Iterator<string> } {
  let head = '';
  while (head.length < min || (line && !head.includes('\n'))) {
    const x = chunks.next();
    if (x.done) break;
    head += x.value;
    if (head.length > MAX_RECORD_CHARS + min) throw tooLong(name);
  }
  return { head: head.charCodeAt(0) === 0xfeff ? head.slice(1) : head, rest: chunks };
}

/**
 * The delimiter of CSV text, from its header line: field names never hold a comma, a semicolon or
 * a tab, so a header without commas that has semicolons (what a spreadsheet saves as CSV where the
 * decimal mark is a comma) or tabs (TSV) says which one separates the fields.
 */
export function csvDelimiter(body: string): ',' | ';' | '\t' {
  const nl = body.indexOf('\n');
  const header = nl < 0 ? body : body.slice(0, nl);
  if (header.includes(',')) return ',';
  if (header.includes(';')) return ';';
  return header.includes('\t') ? '\t' : ',';
}

/**
 * Text with neither a quote nor a CR, cut at LF and at the delimiter: exactly what papaparse does
 * with it (its "fast mode": no quote, so the line ending it guesses is LF and no field can hold a
 * delimiter), without its per-record bookkeeping.
 */
function plainRecords(head: string, rest: Iterator<string>, delimiter: string, name: string): CsvRecords {
  const lines = linesOf(head, rest, () => tooLong(name));
  return {
    next() {
      const x = lines.next();
      return x.done ? undefined : x.value.split(delimiter);
    },
  };
}

/**
 * Any other text through papaparse, a piece at a time as its own streaming reads a file: each
 * piece parsed with its last record held back (papaparse's ignoreLastRow) and read again with the
 * next piece, so every record is the one papaparse gives for the whole text. The line ending is
 * guessed once, as papaparse guesses it for the whole text (from its first megabyte).
 */
function papaRecords(Papa: Papa, head: string, rest: Iterator<string>, delimiter: string, name: string): CsvRecords {
  const newline = Papa.parse<string[]>(head.slice(0, GUESS_CHARS), { delimiter, preview: 1 }).meta.linebreak as '\n' | '\r' | '\r\n';
  const parser = new Papa.Parser({ delimiter, newline, quoteChar: '"', escapeChar: '"' });
  let buf = head;
  let done = false;
  let records: string[][] = [];
  let k = 0;
  /** records given out before the current piece's */
  let before = 0;
  /** parse again once there is more text than this: after a parse that found no whole record, twice as much (a long record is not parsed over and over) */
  let want = -1;
  let quoteError: { row: number; message: string } | undefined;
  return {
    get quoteError() {
      return quoteError;
    },
    next() {
      while (k >= records.length) {
        if (done && !buf) return undefined;
        while (!done && buf.length <= want) {
          const x = rest.next();
          if (x.done) done = true;
          else buf += x.value;
        }
        const r = parser.parse(buf, 0, !done) as { data: string[][]; errors: { type: string; row: number; message: string }[]; meta: { cursor: number } };
        const whole = r.data.length;
        // (an error of the record held back is the next parse's to find)
        const e = quoteError ? undefined : r.errors.find((x) => x.type === 'Quotes' && (done || x.row < whole));
        if (e) quoteError = { row: before + e.row, message: e.message };
        before += whole;
        records = r.data;
        k = 0;
        buf = done ? '' : buf.slice(r.meta.cursor);
        want = whole ? buf.length : buf.length * 2;
        if (buf.length > MAX_RECORD_CHARS) throw tooLong(name);
      }
      return records[k++];
    },
  };
}

/** The records of CSV text (its start `head`, then `rest`), by papaparse when `Papa` is given (text with a quote or a CR). */
export function csvRecordsOf(Papa: Papa | undefined, head: string, rest: Iterator<string>, delimiter: string, name: string): CsvRecords {
  return Papa ? papaRecords(Papa, head, rest, delimiter, name) : plainRecords(head, rest, delimiter, name);
}

/** The records of CSV text in memory, read whole (its quote error known at once). */
export async function csvRecords(body: string, delimiter = ','): Promise<CsvRecords> {
  const Papa = body.includes('"') || body.includes('\r') ? await loadPapa() : undefined;
  const it = csvRecordsOf(Papa, body, [][Symbol.iterator](), delimiter, 'text');
  const all: string[][] = [];
  for (let x = it.next(); x; x = it.next()) all.push(x);
  let k = 0;
  return { next: () => all[k++], ...(it.quoteError ? { quoteError: it.quoteError } : {}) };
}
