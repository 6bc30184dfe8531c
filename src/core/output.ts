// The one door to results on stdout: json | yaml | table | wide | tsv | csv | ndjson | text | none, with
// --query (JMESPath) applied first. Renderers are pure (value -> string) and unit-tested.
import { eastAsianWidth } from 'get-east-asian-width';
import { isVxError, OutputError, terminalText, UsageError } from './errors.js';
import { isExactNumber, stringifyExact, type ExactNumber } from './json.js';

export const FORMATS = ['json', 'yaml', 'table', 'wide', 'tsv', 'csv', 'ndjson', 'text', 'none'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * Reads a cell from a row. Declared as a method so that a getter written for its own row type
 * (`(r: StatusRow) => r.service`) fits any column list (method parameters are bivariant).
 */
type RowGetter = { read(row: unknown): unknown }['read'];

export interface Column {
  header: string;
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
  /** the csv columns when the rendered value is rows made for reading rather than the payload; default: the payload's fields */
  csvColumns?: Column[];
}

export function parseFormat(value: string | undefined, origin?: string): Format | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (!(FORMATS as readonly string[]).includes(v)) {
    throw new UsageError(`invalid output format "${value}"${origin ? ` (from ${origin})` : ''}; allowed: ${FORMATS.join(', ')}`);
  }
  return v as Format;
}

let jmes: typeof import('@jmespath-community/jmespath') | undefined;

/**
 * As az's JMESPath (jmespath.py) reads them: a backtick literal that is not JSON is a string
 * (`[?code==\`W9\`]`, deprecated in the specification, common in az queries and docs); a JSON
 * literal (\`2\`, \`"W9"\`, \`true\`) is read as before.
 */
const JMES_OPTIONS = { enable_legacy_literals: true };

/** Checks a JMESPath expression before anything is sent; a bad one is a usage error. */
export async function checkQuery(expr: string | undefined): Promise<void> {
  if (!expr) return;
  jmes ??= await import('@jmespath-community/jmespath');
  let ast: unknown;
  try {
    ast = jmes.compile(expr, JMES_OPTIONS);
  } catch (e) {
    throw new UsageError(`invalid --query expression "${expr}": ${(e as Error).message}`);
  }
  // a misspelt function is found by the library only on the result, after the request (a create, a
  // change) was made: looked for here, before anything is sent
  const wrong = badCall(ast, (name) => jmes!.isRegistered(name), signatureOf(jmes));
  if (wrong) throw new UsageError(`invalid --query expression "${expr}": ${wrong}`);
}

type Signature = { optional?: boolean; variadic?: boolean }[];

/**
 * The argument list of a built-in function, from the library's function table (not a public API:
 * without it, arity is left to the library, on the result).
 */
function signatureOf(mod: typeof import('@jmespath-community/jmespath')): (name: string) => Signature | undefined {
  const table = (mod as unknown as { TreeInterpreter?: { runtime?: { _functionTable?: Record<string, { _signature?: unknown }> } } }).TreeInterpreter?.runtime?._functionTable;
  return (name) => {
    const sig = table && Object.hasOwn(table, name) ? table[name]._signature : undefined;
    return Array.isArray(sig) ? (sig as Signature) : undefined;
  };
}

/** What is wrong with the first call in an expression's syntax tree to an unknown function or with the wrong number of arguments, if anything. */
function badCall(node: unknown, known: (name: string) => boolean, signature: (name: string) => Signature | undefined): string | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = badCall(n, known, signature);
      if (found) return found;
    }
    return undefined;
  }
  if (!node || typeof node !== 'object') return undefined;
  const n = node as Record<string, unknown>;
  if (n.type === 'Function' && typeof n.name === 'string') {
    if (!known(n.name)) return `unknown function ${n.name}()`;
    const sig = signature(n.name);
    const given = Array.isArray(n.children) ? n.children.length : undefined;
    if (sig && given !== undefined) {
      const min = sig.filter((a) => !a.optional).length;
      const max = sig.some((a) => a.variadic) ? Infinity : sig.length;
      if (given < min || given > max) {
        const takes = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
        return `${n.name}() takes ${takes} argument${min === 1 && (max === 1 || max === Infinity) ? '' : 's'}, not ${given}`;
      }
    }
  }
  for (const [k, v] of Object.entries(n)) {
    // a literal's value is data, not expression
    if (k === 'value' && n.type === 'Literal') continue;
    const found = badCall(v, known, signature);
    if (found) return found;
  }
  return undefined;
}

/** Applies a JMESPath expression; a bad expression is a usage error. */
export async function applyQuery(value: unknown, expr: string | undefined): Promise<unknown> {
  if (!expr) return value;
  await checkQuery(expr);
  try {
    return jmes!.search(value as Parameters<NonNullable<typeof jmes>['search']>[0], expr, JMES_OPTIONS);
  } catch (e) {
    // the expression is valid but does not fit the data; whatever was asked of the service was done
    throw new UsageError(`--query "${expr}" failed on the result: ${(e as Error).message} (the request itself was sent and succeeded)`);
  }
}

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

function cell(row: unknown, c: Column): unknown {
  return typeof c.get === 'function' ? c.get(row) : getPath(row, c.get);
}

/** A scalar as one line of text: strings as is, null/undefined empty, objects as compact JSON. */
export function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || isExactNumber(v)) return String(v);
  return stringifyExact(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isExactNumber(v);
}

/** an object or an array: shown as compact JSON in a cell, never a column of its own */
function isStructured(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !isExactNumber(v);
}

/**
 * a value as the one-line text of a table cell: a line break or a tab is a space (a raw tab
 * would jump to the terminal's next tab stop, which the column widths do not count, and shift
 * every column after it)
 */
function cellText(v: unknown): string {
  return terminalText(scalarText(v).replace(/\r?\n|\t/g, ' '));
}

/** a table's header line, bold when colour is on */
function headerLine(text: string, color?: boolean): string {
  return color ? `\u001b[1m${text}\u001b[22m` : text;
}

/** The formats that show a table: `table`, and `wide` (every column, nothing cut). */
export function isTable(format: Format): boolean {
  return format === 'table' || format === 'wide';
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
    .map((k, i) => ({ header: k, get: k, keep: (k === 'id' && shortIds) || undefined, optional: i >= 4 || undefined }));
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
function positional(rows: unknown[]): boolean {
  return rows.every((r) => !isPlainObject(r));
}

function rowsOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

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
function csvColumnsFor(rows: unknown[], columns?: Column[]): Column[] {
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

export async function renderYaml(value: unknown): Promise<string> {
  if (value === undefined) return '';
  const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  // the bundled CommonJS build exposes its functions on `default`
  const YAML = mod.default ?? mod;
  // YAML 1.2 output that YAML 1.1 readers (PyYAML, Ruby's Psych, many CI tools) read the same: a
  // string such as yes, no, on, off or y is quoted, else they read it as a boolean
  return YAML.stringify(value, { lineWidth: 0, compat: 'yaml-1.1', customTags: [EXACT_NUMBER_TAG, AWKWARD_STRING_TAG] });
}

/**
 * Characters a YAML 1.1 reader (PyYAML, Psych) cannot take in a plain or block scalar, or reads as
 * something else: a tab (refused: "found character '\\t' that cannot start any token"), the line
 * separators NEL, LS and PS (read as line breaks), a byte order mark, and the characters it does
 * not print (DEL, C1 controls, U+FFFE/U+FFFF), which the library leaves raw even when quoting.
 */
const YAML11_AWKWARD = /[\t\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const YAML11_RAW = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

/**
 * A string holding one of those characters written double-quoted with every one of them escaped
 * (JSON's escapes are YAML's). `test` never matches: it only makes the library prefer this tag over
 * its own for such strings; parsing is unchanged.
 */
const AWKWARD_STRING_TAG = {
  identify: (v: unknown) => typeof v === 'string' && YAML11_AWKWARD.test(v),
  default: true,
  test: /(?!)/,
  tag: 'tag:yaml.org,2002:str',
  resolve: (text: string) => text,
  stringify: (item: { value: unknown }) =>
    JSON.stringify(item.value).replace(YAML11_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
};

/** A number a double cannot hold (core/json's ExactNumber) written as its literal, a plain YAML number, as -o json does. */
const EXACT_NUMBER_TAG = {
  identify: isExactNumber,
  default: true,
  tag: 'tag:yaml.org,2002:float',
  resolve: (text: string) => text,
  stringify: (item: { value: unknown }) => (item.value as ExactNumber).text,
};

// string-width creates an Intl.Segmenter when it loads, which costs 10-15 ms: it is loaded only
// when a table is rendered (or by loadTextWidth). Until then non-ASCII text is measured per code
// point (marks and joiners zero, East Asian wide and pictographs two), which differs from it only
// for multi-code-point emoji sequences.
let graphemeWidth: ((s: string) => number) | undefined;
export async function loadTextWidth(): Promise<void> {
  graphemeWidth ??= (await import('string-width')).default;
}
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /[\p{Mark}\p{Cc}\p{Cf}\u200b-\u200f\ufe00-\ufe0f]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;

function codePointWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    if (ZERO_WIDTH.test(ch)) continue;
    const cp = ch.codePointAt(0) ?? 0;
    w += cp > 0xff && PICTOGRAPH.test(ch) ? 2 : eastAsianWidth(cp);
  }
  return w;
}

/** Display width of a string in terminal cells (CJK and emoji count two). */
export function displayWidth(s: string): number {
  if (PRINTABLE_ASCII.test(s)) return s.length;
  return graphemeWidth ? graphemeWidth(s) : codePointWidth(s);
}

/** Cuts a string to at most `width` terminal cells, ending with … when cut. */
export function truncateToWidth(s: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(s) <= width) return s;
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = displayWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** Splits text at spaces into lines of at most `width` cells; a longer word gets a line of its own. */
export function wrapToWidth(s: string, width: number): string[] {
  if (width <= 0 || displayWidth(s) <= width) return [s];
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line) lines.push(line);
    line = '';
  };
  for (const w of s.split(/ +/)) {
    if (line && displayWidth(line) + 1 + displayWidth(w) <= width) {
      line += ` ${w}`;
      continue;
    }
    push();
    line = w; // a word longer than the line stays whole (an id split in two cannot be copied)
  }
  push();
  return lines.length ? lines : [''];
}

/** One record as FIELD/VALUE lines; at a terminal long values wrap under their column (a detail view is read whole). */
function renderPairs(pairs: [string, string, boolean?][], opts: RenderOptions): string {
  const fw = Math.max(displayWidth('FIELD'), ...pairs.map(([k]) => displayWidth(k)));
  const room = opts.width ? Math.max(20, opts.width - fw - 2) : 0;
  const lines = [headerLine(`${pad('FIELD', fw)}  VALUE`, opts.color)];
  for (const [k, v, structured] of pairs) {
    // text wraps; a structured value (compact JSON) is cut: wrapped at its spaces it reads as neither
    const parts = !room ? [v] : structured ? [truncateToWidth(v, room)] : wrapToWidth(v, room);
    lines.push(`${pad(k, fw)}  ${parts[0]}`.trimEnd());
    for (const more of parts.slice(1)) lines.push(`${' '.repeat(fw + 2)}${more}`);
  }
  return `${lines.join('\n')}\n`;
}

function pad(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return align === 'right' ? fill + s : s + fill;
}

/**
 * A table sized to the terminal: columns keep their natural width when they fit; otherwise optional
 * columns are dropped, then the widest columns are shrunk and their cells cut with …
 */
export function renderTable(value: unknown, opts: RenderOptions = {}): string {
  if (value === undefined || value === null) return '';
  const rows = rowsOf(value);
  if (rows.length === 0) return opts.empty ? `${opts.empty}\n` : '';
  if (!Array.isArray(value) && !isPlainObject(value)) return `${terminalText(scalarText(value))}\n`;
  const byPosition = positional(rows);
  // a list of scalars is one value a line; rows that are arrays get columns Column1, Column2, ...
  if (byPosition && !rows.some(Array.isArray)) return rows.map((r) => `${cellText(r)}\n`).join('');
  let cols = byPosition ? arrayColumns(rows) : (opts.columns ?? inferColumns(rows)).filter((c) => opts.wide || !c.wide);
  // -o wide: every column at its natural width (lines as long as they need, like kubectl -o wide)
  if (opts.wide) opts = { ...opts, width: undefined };
  if (!opts.columns && !Array.isArray(value) && isPlainObject(value)) {
    // one object: a two-column key/value table reads better than one wide row
    const kv = Object.entries(value)
      .filter(([k]) => !k.startsWith('@odata'))
      .map(([k, v]): [string, string, boolean] => [k, cellText(v), isStructured(v)]);
    return renderPairs(kv, opts);
  }
  if (cols.length === 0) cols = [{ header: 'VALUE', get: (r) => r }];
  const texts = (cs: Column[]) => rows.map((r) => cs.map((c) => cellText(cell(r, c))));
  const sep = 2;
  const natural = (cs: Column[], body: string[][]) =>
    cs.map((c, i) => Math.max(displayWidth(c.header.toUpperCase()), ...body.map((row) => displayWidth(row[i]))));
  let body = texts(cols);
  let widths = natural(cols, body);
  const total = (ws: number[]) => ws.reduce((a, b) => a + b, 0) + sep * (ws.length - 1);
  if (opts.width && rows.length === 1 && !Array.isArray(value) && total(widths) > opts.width) {
    // one record too wide for its row (quota request get: the message says why it failed): read it whole
    return renderPairs(cols.map((c, i) => [c.header, body[0][i], isStructured(cell(rows[0], c))]), opts);
  }
  if (opts.width) {
    // optional columns go while the table would not fit even with every cuttable column cut to 20
    // cells: a wide terminal keeps them and cuts a long title instead
    const fitted = (ws: number[]) => total(ws.map((w, i) => (cols[i].keep ? w : Math.min(w, 20))));
    const dropOptional = () => {
      const idx = cols.map((c) => Boolean(c.optional)).lastIndexOf(true);
      cols = cols.filter((_, i) => i !== idx);
      body = texts(cols);
      widths = natural(cols, body);
    };
    while (fitted(widths) > opts.width && cols.some((c) => c.optional)) dropOptional();
    // the column read first (an event's title) is not cut short to keep optional columns: they go
    // while it would get less than its natural width (at most 60 cells) beside the others
    const room = () => {
      const p = cols.findIndex((c) => c.primary);
      return p < 0 ? Infinity : opts.width! - (total(widths) - widths[p]) - Math.min(widths[p], 60);
    };
    while (room() < 0 && cols.some((c) => c.optional)) dropOptional();
    // shrink the widest cuttable column one cell at a time, so the cut is shared out evenly
    // instead of leaving one column a stub; identifiers (keep) are never cut
    const min = 6;
    for (;;) {
      while (total(widths) > opts.width) {
        let widest = -1;
        for (let i = 0; i < widths.length; i++) if (!cols[i].keep && widths[i] > min && (widest < 0 || widths[i] > widths[widest])) widest = i;
        if (widest < 0) break;
        widths[widest]--;
      }
      if (total(widths) <= opts.width) break;
      // still too wide at the smallest widths: drop the rightmost droppable column rather than let
      // every line wrap (the first column and identifiers stay)
      let drop = -1;
      for (let i = cols.length - 1; i > 0; i--) if (!cols[i].keep) { drop = i; break; }
      if (drop < 0) break;
      cols = cols.filter((_, i) => i !== drop);
      body = body.map((row) => row.filter((_, i) => i !== drop));
      widths = natural(cols, body);
    }
  }
  const header = cols.map((c, i) => pad(truncateToWidth(c.header.toUpperCase(), widths[i]), widths[i], c.align)).join(' '.repeat(sep)).trimEnd();
  const lines = [headerLine(header, opts.color)];
  // the last column (a translation, a message, a description) wraps under itself rather than being
  // cut when it still has 20 cells or more: what it says is usually why the row is read (narrower,
  // a word a line reads worse than a cut)
  const last = cols.length - 1;
  const wrapLast = Boolean(opts.width) && last > 0 && !cols[last].keep && cols[last].align !== 'right' && widths[last] >= 20;
  const indent = ' '.repeat(widths.slice(0, last).reduce((a, b) => a + b + sep, 0));
  for (const row of body) {
    // a word longer than the column cannot wrap: then the cell is cut on one line as before
    const wrapped = wrapLast ? wrapToWidth(row[last], widths[last]) : [row[last]];
    const tail = wrapped.every((t) => displayWidth(t) <= widths[last]) ? wrapped : [truncateToWidth(row[last], widths[last])];
    const cells = cols.map((c, i) => (i === last && wrapLast ? tail[0] : pad(truncateToWidth(row[i], widths[i]), widths[i], c.align)));
    lines.push(cells.join(' '.repeat(sep)).trimEnd());
    for (const more of tail.slice(1)) lines.push(`${indent}${more}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function render(value: unknown, format: Format, opts: RenderOptions = {}): Promise<string> {
  if (isTable(format)) await loadTextWidth();
  switch (format) {
    case 'none':
      return '';
    case 'json':
      return renderJson(value);
    case 'ndjson':
      return renderNdjson(value);
    case 'yaml':
      return renderYaml(value);
    case 'tsv':
      return renderTsv(value, opts.columns);
    case 'csv':
      // the payload's fields, unless the command's rows are not its payload (translate)
      return renderCsv(value, opts.csvColumns);
    case 'text':
      return opts.text ? opts.text(value) : renderText(value, opts.columns);
    case 'table':
      return renderTable(value, opts);
    case 'wide':
      return renderTable(value, { ...opts, wide: true });
  }
}

// ---- streamed results: values rendered as they arrive, written with back-pressure ----

/** The formats that can be written item by item; the others need the whole value. */
export const STREAMABLE: ReadonlySet<Format> = new Set<Format>(['json', 'ndjson', 'text', 'tsv', 'csv', 'none']);

export interface StreamOptions {
  /** how `text` renders one item */
  text?: (item: unknown) => string;
  /** the rows one item gives in `tsv` and `csv` (default: the item itself) */
  rows?: (item: unknown) => unknown[];
  /** the tsv columns, and the csv columns (default for csv: the fields of the first row) */
  columns?: Column[];
}

/**
 * Renders a list item by item so that the concatenation of `items(...)` chunks and `end()` is
 * exactly what `render(list, format)` gives for the whole list (json: the same indented array).
 */
export class StreamRenderer {
  private count = 0;
  private csvCols?: Column[];

  constructor(
    readonly format: Format,
    private readonly opts: StreamOptions = {},
  ) {
    if (!STREAMABLE.has(format)) throw new Error(`${format} cannot be streamed`);
  }

  items(values: readonly unknown[]): string {
    let s = '';
    switch (this.format) {
      case 'json':
        for (const v of values) s += `${this.count++ ? ',\n  ' : '[\n  '}${stringifyExact(v, 2).replace(/\n/g, '\n  ')}`;
        return s;
      case 'ndjson':
        for (const v of values) s += `${stringifyExact(v)}\n`;
        return s;
      case 'text':
        for (const v of values) s += this.opts.text ? this.opts.text(v) : renderText(v, this.opts.columns);
        return s;
      case 'tsv':
        for (const v of values) s += renderTsv(this.opts.rows ? this.opts.rows(v) : [v], this.opts.columns);
        return s;
      case 'csv':
        for (const v of values) {
          const rows = this.opts.rows ? this.opts.rows(v) : [v];
          if (!rows.length) continue;
          if (!this.csvCols) {
            // the header comes from the columns, or from the first row (a later row's extra keys are not shown)
            this.csvCols = csvColumnsFor(rows, this.opts.columns);
            s += csvLine(this.csvCols.map((c) => c.header));
          }
          for (const r of rows) s += csvLine(this.csvCols.map((c) => cell(r, c)));
          this.count++;
        }
        return s;
      default:
        return '';
    }
  }

  end(): string {
    if (this.format === 'csv' && !this.csvCols && this.opts.columns) return csvLine(this.opts.columns.map((c) => c.header));
    if (this.format !== 'json') return '';
    return this.count ? '\n]\n' : '[]\n';
  }
}

/** Where results go: stdout, or a file that appears under its name only when complete. */
export interface ResultSink {
  /** text, or bytes (a document saved with --out) */
  write(text: string | Uint8Array): Promise<void>;
  /** everything was written: flush (and rename the file into place) */
  commit(): Promise<void>;
  /** something failed: leave nothing behind under the file's name */
  abort(): Promise<void>;
}

function writeWithBackPressure(stream: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!text.length) return resolve();
    const onError = (e: Error) => reject(e);
    stream.once('error', onError);
    const ok = stream.write(text, () => undefined);
    const done = () => {
      stream.removeListener('error', onError);
      resolve();
    };
    if (ok) done();
    else stream.once('drain', done);
  });
}

/**
 * The file an `--out` names, or undefined for standard output: `--out -` is standard output, as
 * `-` is standard input for --file and --data (never a file named "-").
 */
export function outFile(out: string | undefined): string | undefined {
  if (out !== undefined && !out.trim()) throw new UsageError('--out needs a file name');
  // /dev/stdout names whatever the shell opened (`>> report.txt`): standard output itself
  return out === '-' || (out !== undefined && /^\/(dev\/stdout|dev\/fd\/1|proc\/self\/fd\/1)$/.test(out)) ? undefined : out;
}

/** a path that names a descriptor this process already has open (/dev/stderr, /dev/fd/3, /proc/self/fd/3) */
const DESCRIPTOR_PATH = /^\/(dev\/(stdin|stdout|stderr|fd\/\d+)|proc\/self\/fd\/\d+)$/;

export function streamSink(stream: NodeJS.WritableStream): ResultSink {
  return {
    write: (text) => writeWithBackPressure(stream, text),
    commit: async () => undefined,
    abort: async () => undefined,
  };
}

/**
 * A file written through a temporary file next to it and renamed at commit, so a failure or Ctrl-C
 * never leaves a partial file under the name. The temporary file has a random name
 * (`.<name>.<random>.tmp`) and is created with O_EXCL (`wx`), which never follows a symbolic link
 * planted at its path; it gets the mode of the file it replaces (a new file: 0666 less the umask).
 * It is removed if the process exits before commit.
 *
 * A failure to open the file is a usage error (exit 2: nothing was sent yet); a failure to write
 * it (a full disk) comes after the requests were made: exit 1 (`OutputError`), and the caller says
 * what was sent.
 */
export async function atomicFileSink(path: string, opts: { randomName?: () => string } = {}): Promise<ResultSink> {
  const { createWriteStream, fchmodSync, unlinkSync } = await import('node:fs');
  const { rename, unlink, stat, realpath } = await import('node:fs/promises');
  const { basename, dirname, join } = await import('node:path');
  const { randomBytes } = await import('node:crypto');
  const fail = (e: unknown): UsageError => new UsageError(`cannot write ${path}: ${fileProblem(e)}`);
  const failedWrite = (e: unknown): OutputError => (isVxError(e) ? (e as OutputError) : new OutputError(`cannot write ${path}: ${fileProblem(e)}; the file was not kept`));
  let target = path;
  let mode: number | undefined;
  // an open descriptor is written through, appending: a file behind it was opened by the shell
  // (`2>> log`), and renaming a new file over it (or truncating it) would lose what it held
  const incomplete = (e: unknown) => (isVxError(e) ? (e as OutputError) : new OutputError(`cannot write ${path}: ${fileProblem(e)}; the output is incomplete`));
  if (DESCRIPTOR_PATH.test(path)) return directSink(createWriteStream(path, { flags: 'a' }), fail, incomplete);
  try {
    const st = await stat(path);
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    // a device or a pipe (/dev/stdout, /dev/null, a FIFO) is written as it is: renaming a file
    // over it would replace it
    if (!st.isFile()) return directSink(createWriteStream(path, { flags: 'w' }), fail, incomplete);
    // a symbolic link keeps pointing at its file: the new content goes next to the file it names
    target = await realpath(path);
    // the file keeps its permissions (a 0600 file stays 0600), never set-user-ID, set-group-ID or
    // sticky: new content under a setuid program's name must not run with its owner's rights
    mode = st.mode & 0o777;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw isVxError(e) ? e : fail(e);
  }
  let tmp = '';
  let out: import('node:fs').WriteStream | undefined;
  for (let attempt = 0; !out; attempt++) {
    tmp = join(dirname(target), `.${basename(target)}.${opts.randomName?.() ?? randomBytes(6).toString('hex')}.tmp`);
    const stream = createWriteStream(tmp, { flags: 'wx', mode: mode ?? 0o666 });
    try {
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      out = stream;
    } catch (e) {
      // a name taken meanwhile (or a planted link): another random name
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 8) throw fail(e);
    }
  }
  const file = out;
  // the umask does not narrow a kept mode (it may only have widened it: it cannot)
  if (mode !== undefined) {
    try {
      fchmodSync((file as unknown as { fd: number }).fd, mode);
    } catch {
      /* a file system without modes */
    }
  }
  let settled = false;
  const cleanup = () => {
    if (settled) return;
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
  };
  process.once('exit', cleanup);
  const close = () => new Promise<void>((resolve, reject) => file.end((e?: Error | null) => (e ? reject(e) : resolve())));
  const abort = async () => {
    if (settled) return;
    settled = true;
    process.removeListener('exit', cleanup);
    file.destroy();
    await unlink(tmp).catch(() => undefined);
  };
  return {
    write: (text) => writeWithBackPressure(file, text).catch((e) => Promise.reject(failedWrite(e))),
    async commit() {
      try {
        await close();
        await rename(tmp, target);
        settled = true;
        process.removeListener('exit', cleanup);
      } catch (e) {
        await abort();
        throw failedWrite(e);
      }
    },
    abort,
  };
}

/** why a file could not be opened or written, in words */
function fileProblem(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code === 'ENOENT'
    ? 'no such directory'
    : err.code === 'EACCES'
      ? 'permission denied'
      : err.code === 'EISDIR'
        ? 'it is a directory'
        : err.code === 'ENOSPC'
          ? 'no space left on the device'
          : err.message;
}

/** A sink that writes straight into an open stream (a device or a pipe named by --out). */
async function directSink(out: import('node:fs').WriteStream, fail: (e: unknown) => UsageError, failedWrite: (e: unknown) => OutputError): Promise<ResultSink> {
  await new Promise<void>((resolve, reject) => {
    out.once('open', () => resolve());
    out.once('error', (e) => reject(fail(e)));
  });
  return {
    write: (text) => writeWithBackPressure(out, text).catch((e) => Promise.reject(failedWrite(e))),
    commit: () => new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(failedWrite(e)) : resolve()))),
    abort: async () => void out.destroy(),
  };
}
