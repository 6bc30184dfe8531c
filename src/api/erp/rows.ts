// Rows of an import file (CSV, NDJSON or a JSON array) turned into typed request bodies by the
// entity set's model, with the same rules as `--set` (CSV text) and `--data` (JSON values).
// Every row is read and checked before anything is sent; the problems are collected with row
// numbers. A row number is the line the record starts on (the CSV header is row 1, as a
// spreadsheet counts), or the element's position in a JSON array.
import { UsageError } from '../../core/errors.js';
import { isExactNumber, stringifyExact } from '../../core/json.js';
import { checkValue, parseFieldText, typeText, type ErpSet, type FieldDef } from '../../model/erp/index.js';
import { exactNumber } from './body.js';

export type InputFormat = 'csv' | 'ndjson' | 'json';

export type RowMode = 'create' | 'update';

export interface Row {
  /** the row number people see (line of the record's start; JSON array position) */
  row: number;
  /** the typed body to send */
  body: Record<string, unknown>;
  /** update: the key that finds the record (id, or a human key such as code/number) */
  key?: { field: string; value: string };
  /** the row's @odata.etag, sent as If-Match on update */
  etag?: string;
  /** identity of the row's content, for the journal */
  hash: string;
}

export interface RowProblem {
  row: number;
  message: string;
}

export interface ParsedRows {
  rows: Row[];
  /** the problems, in row order (the first 10,000 of them, when there are more: allProblems gives every one) */
  problems: RowProblem[];
  /** how many records the input held */
  total: number;
  /** read-only columns (not keys) the input has: not sent, the service sets them (an export's id, lastModifiedDateTime) */
  ignored: string[];
  /** how many rows have a problem */
  badRows: number;
  /** Every problem in row order: `problems` when it holds them all (it holds at most 10,000), else read again from the input. */
  allProblems(): Iterable<RowProblem>;
}

/**
 * ParsedRows whose valid rows are (when an import creates) read again from the text each time
 * they are iterated, so that no more than the rows in flight are held at once.
 */
export interface ReadRows extends Omit<ParsedRows, 'rows'> {
  rows: Iterable<Row>;
}

export function formatOf(path: string, given?: string): InputFormat {
  if (given !== undefined) {
    const f = given.toLowerCase();
    if (f !== 'csv' && f !== 'ndjson' && f !== 'json') throw new UsageError(`invalid --format "${given}": expected csv, ndjson or json`);
    return f;
  }
  if (/\.(ndjson|jsonl)$/i.test(path)) return 'ndjson';
  if (/\.json$/i.test(path)) return 'json';
  if (/\.(csv|tsv)$/i.test(path)) return 'csv';
  throw new UsageError(`cannot tell the format of ${path === '-' ? 'standard input' : path}: pass --format csv, ndjson or json`);
}

/** The fields that find a record on update, in order of preference: id, the number, the set's human key. */
export function updateKeys(set: ErpSet): string[] {
  const keys = ['id'];
  for (const k of [set.humanKey, set.fields.number ? 'number' : undefined, set.naturalKey]) if (k && !keys.includes(k)) keys.push(k);
  return keys;
}

export function writableList(set: ErpSet): string {
  return Object.entries(set.fields).filter(([, f]) => !f.readOnly).map(([n]) => n).join(', ');
}

/** A name that is not a field, quoted, with the field it differs from only in case (`"Code" (did you mean "code"?)`). */
function quoted(set: ErpSet, name: string): string {
  const lower = name.toLowerCase();
  const like = Object.keys(set.fields).find((f) => f.toLowerCase() === lower);
  return like ? `"${name}" (did you mean "${like}"?)` : `"${name}"`;
}

/** Checks the column names of a CSV header (or the keys seen in JSON rows): the problems, or none. */
export function checkColumns(set: ErpSet, mode: RowMode, names: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  if (dup.size) problems.push(`duplicate column name${dup.size > 1 ? 's' : ''}: ${[...dup].map((d) => `"${d}"`).join(', ')}`);
  const unnamed = names.flatMap((n, i) => (n.trim() ? [] : [i + 1]));
  if (unnamed.length) {
    const end = unnamed.at(-1) === names.length ? ' (a delimiter at the end of the header line?)' : '';
    problems.push(`column${unnamed.length > 1 ? 's' : ''} ${unnamed.join(', ')} of ${names.length} ${unnamed.length > 1 ? 'have' : 'has'} no name${end}`);
  }
  const keys = mode === 'update' ? updateKeys(set) : [];
  const unknown = names.filter((n) => n.trim() && n !== '@odata.etag' && !set.fields[n]);
  if (unknown.length) problems.push(`unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => quoted(set, u)).join(', ')}: not fields of a ${set.singular}; its writable fields are ${writableList(set)}`);
  if (mode === 'update' && !names.some((n) => keys.includes(n))) problems.push(`--update needs a column that finds each record: ${keys.join(' or ')}`);
  return problems;
}

/**
 * The read-only columns among `names` that do not find records: not sent (the service sets them),
 * so that what `export` wrote imports again, into another company or with --update after an edit.
 */
export function readOnlyColumns(set: ErpSet, mode: RowMode, names: readonly string[]): string[] {
  const keys = mode === 'update' ? updateKeys(set) : [];
  return names.filter((n) => set.fields[n]?.readOnly && !keys.includes(n));
}

/** A 53-bit hash (cyrb53) of a row's text: tells a changed row from the one a journal recorded. */
export function hashText(s: string): string {
  return hashFields([s]);
}

const B36_LOW = 36 ** 6; // 2,176,782,336: below 2^32, so both halves print as integers
/**
 * `n.toString(36)` for a whole number below 2^53, the same text ~6x cheaper: V8 prints a double
 * above 2^32 in another radix digit by digit in floating point (~1.4 µs each, 14 ms of every
 * 10,000-row import), while a number below 2^32 takes the integer path.
 */
export function base36(n: number): string {
  if (n < 4294967296) return n.toString(36);
  let hi = Math.floor(n / B36_LOW);
  let lo = n - hi * B36_LOW; // exact: both products stay below 2^53
  if (lo < 0) {
    hi--;
    lo += B36_LOW;
  } else if (lo >= B36_LOW) {
    hi++;
    lo -= B36_LOW;
  }
  return hi.toString(36) + lo.toString(36).padStart(6, '0');
}

/** What a column of the input does to a row, worked out once per header (not once per cell). */
type Column =
  | { kind: 'skip' }
  | { kind: 'etag' }
  | { kind: 'problem'; message: string }
  | { kind: 'key'; name: string; field: FieldDef; type: (raw: unknown) => unknown }
  | { kind: 'field'; name: string; field: FieldDef; type: (raw: unknown) => unknown };

/** A row's outcome: the row, or its problems. */
type Built = Row | string[];
export type RowBuilder = (row: number, values: readonly unknown[], hash: string) => Built;

/** What one column of the input does to a row (see Column), worked out from its name. */
function compileColumn(set: ErpSet, name: string, keys: readonly string[], fromText: boolean): Column {
  if (name === '@odata.etag') return { kind: 'etag' };
  if (name.startsWith('@odata.')) return { kind: 'skip' };
  const field = set.fields[name];
  if (!field) return { kind: 'problem', message: `unknown field ${quoted(set, name)}; the writable fields of a ${set.singular} are ${writableList(set)}` };
  // a number a double cannot hold (16 digits or more) is kept exact, as --set and --data do
  const numeric = field.type === 'decimal' || field.type === 'integer';
  const type = fromText
    ? (raw: unknown) => {
        try {
          return (numeric && (raw as string).length > 15 && exactNumber(field, raw)) || parseFieldText(field, raw as string);
        } catch (e) {
          throw new Error(`field "${name}": invalid value "${String(raw)}": ${(e as Error).message}`);
        }
      }
    : (raw: unknown) => {
        const p = isExactNumber(raw) ? (exactNumber(field, raw) ? undefined : `expected ${typeText(field)}`) : checkValue(field, raw);
        if (p) throw new Error(`field "${name}": ${p} (got ${stringifyExact(raw)})`);
        return raw;
      };
  if (keys.includes(name)) return { kind: 'key', name, field, type };
  if (field.readOnly) return { kind: 'skip' }; // (see readOnlyColumns)
  return { kind: 'field', name, field, type };
}

/**
 * Compiles the typing of rows with these column names: each column's field, kind and typer
 * (parseFieldText for CSV text, like --set; checkValue for JSON values, like --data) are looked
 * up once, so a row costs one pass over its values.
 */
export function rowBuilder(set: ErpSet, mode: RowMode, names: readonly string[], fromText: boolean): RowBuilder {
  const keys = mode === 'update' ? updateKeys(set) : [];
  const required = mode === 'create' ? Object.entries(set.fields).filter(([, f]) => f.required) : [];
  const columns = names.map((name) => compileColumn(set, name, keys, fromText));
  const n = columns.length;
  // the columns that can find a record, in the order of preference (id first), whatever their order in the input
  const keyColumns = keys.filter((k) => names.includes(k)).map((k) => names.indexOf(k));
  return (row, values, hash) => {
    let problems: string[] | undefined;
    const body: Record<string, unknown> = {};
    let etag: string | undefined;
    let key: Row['key'];
    for (const i of keyColumns) {
      const raw = values[i];
      const text = raw === null || raw === undefined ? '' : String(raw);
      if (text) {
        key = { field: names[i], value: text };
        break;
      }
    }
    let fields = 0;
    for (let i = 0; i < n; i++) {
      const c = columns[i];
      const raw = values[i];
      if (fromText && raw === '') continue; // an empty cell: the field is not given
      switch (c.kind) {
        case 'skip':
          continue;
        case 'etag':
          if (typeof raw === 'string' && raw) etag = raw;
          else if (raw !== null && raw !== undefined) (problems ??= []).push(`@odata.etag: expected text`);
          continue;
        case 'problem':
          (problems ??= []).push(c.message);
          continue;
        case 'key':
          if (c.field.readOnly || key?.field === c.name) continue; // the key finds the record; it is not changed
          break;
        default:
          break;
      }
      try {
        body[c.name] = c.type(raw);
        fields++;
      } catch (e) {
        (problems ??= []).push((e as Error).message);
      }
    }
    if (mode === 'create') {
      for (const [name, f] of required) {
        if (body[name] === undefined || body[name] === null) (problems ??= []).push(`a new ${set.singular} needs ${name}: ${typeText(f)}`);
      }
    } else {
      if (!key) (problems ??= []).push(`no ${keys.join(' or ')} to find the ${set.singular} by`);
      else if (key.field === 'id' && set.fields.id?.type === 'guid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key.value)) (problems ??= []).push(`id "${key.value}" is not a GUID`);
      if (!problems && !fields) (problems ??= []).push('nothing to update: the row gives no field but its key');
    }
    return problems ?? { row, body, key, etag, hash };
  };
}

/**
 * Builds one row from its named values: CSV text (typed like --set) or JSON values (checked like
 * --data). `hash` identifies the row's content (its text) for the journal.
 */
export function buildRow(set: ErpSet, mode: RowMode, row: number, names: readonly string[], values: readonly unknown[], fromText: boolean, hash: string): { row?: Row; problems: string[] } {
  const r = rowBuilder(set, mode, names, fromText)(row, values, hash);
  return Array.isArray(r) ? { problems: r } : { row: r, problems: [] };
}

/** hashText(fields.join('\u0001')), without the joined string (the fields are hashed in turn, U+0001 between them). */
export function hashFields(fields: readonly string[]): string {
  return base36(hashNumber(fields));
}

/** The hash of hashFields as a number (below 2^53). */
export function hashNumber(fields: readonly string[]): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let f = 0; f < fields.length; f++) {
    if (f) {
      h1 = Math.imul(h1 ^ 1, 2654435761);
      h2 = Math.imul(h2 ^ 1, 1597334677);
    }
    const s = fields[f];
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
