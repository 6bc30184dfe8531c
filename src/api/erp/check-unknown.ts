// The rows of an import whose outcome is unknown (the answer was lost): `--check-unknown` looks
// each up and decides from what the service holds whether the earlier run did it, and the
// commands a person runs to check them by hand.
import { InterruptedError } from '../../core/errors.js';
import type { ErpSet } from '../../model/erp/index.js';
import type { BatchClient } from './batch.js';
import { checkCommand, lookup, type BulkOptions, type Found, type RowResult } from './bulk.js';
import type { ErpClient } from './client.js';
import type { Row, RowMode } from './rows.js';

/** A row an earlier run left unknown, with the record id the journal has for it (if any). */
export interface UnknownRow {
  row: Row;
  id?: string;
}

interface Key {
  row: number;
  field: string;
  value: string;
}

/** Whether the service keeps this key value as written: the key fields of the sets (code, externalDocumentNumber) are code fields, which it stores in capitals without surrounding spaces. */
function storedAsGiven(value: string): boolean {
  return value !== '' && value === value.trim() && value === value.toUpperCase();
}

/** Values equal as the service gives them back (a null sent clears the field: empty text, 0 or false). */
function sameValue(have: unknown, want: unknown): boolean {
  if (want === null) return have === null || have === '' || have === 0 || have === false;
  if (typeof want === 'object' || typeof have === 'object') return JSON.stringify(have) === JSON.stringify(want);
  return have === want;
}

class Check {
  readonly byRow: Map<number, UnknownRow>;
  /** the record found must hold the row's values where the key alone does not prove it is the row's: with --update, and on create by a key the service does not keep unique (externalDocumentNumber: another order may carry the same one) */
  readonly compare: boolean;

  constructor(
    readonly set: ErpSet,
    readonly mode: RowMode,
    rows: readonly UnknownRow[],
    private readonly record: (r: RowResult) => void,
    /** create: lower-case id -> the row the journal records as having created that record (of the ids found: set once they are) */
    public createdBy: ReadonlyMap<string, number> = new Map(),
  ) {
    this.byRow = new Map(rows.map((r) => [r.row.row, r]));
    this.compare = mode === 'update' || set.naturalKey !== set.humanKey;
  }

  unknown(row: Row, message: string, id?: string, hint = ''): void {
    this.record({ row: row.row, status: 'unknown', ...(id ? { id } : {}), message: `${message}; not sent again${hint}` });
  }

  /** The key each row is looked up by (update: the record's id, or the row's key; create: the natural key); a row without one stays unknown. */
  keys(): Key[] {
    const { set, mode } = this;
    const key = set.naturalKey;
    const keys: Key[] = [];
    for (const { row, id } of this.byRow.values()) {
      if (mode === 'update') {
        const k = id ? { field: 'id', value: id } : row.key!;
        keys.push({ row: row.row, field: k.field, value: k.value });
        continue;
      }
      const v = key ? row.body[key] : undefined;
      if (typeof v === 'string' && v !== '') keys.push({ row: row.row, field: key!, value: v });
      else {
        const why = set.fields.number?.readOnly ? `its number is set by the service${key ? ` and the row has no ${key}` : ''}` : key ? `the row has no ${key}` : `the ${set.singular} has no key field`;
        this.unknown(row, `--check-unknown cannot look it up: nothing in the row identifies the ${set.singular} it would have created (${why}); check by hand`);
      }
    }
    return keys;
  }

  /** The fields read of each record found: its id and own key, and the rows' fields when they are compared. */
  fields(): string | undefined {
    if (!this.compare) return undefined;
    const rows = [...this.byRow.values()];
    return [...new Set(['id', ...(this.set.humanKey ? [this.set.humanKey] : []), ...rows.flatMap((r) => Object.keys(r.row.body))])].join(',');
  }

  /** A lookup that failed (not found, several, a failed read): the row is absent (sent now) or stays unknown. */
  notFound(k: Key, f: Found, absent: Row[]): void {
    const { row, id } = this.byRow.get(k.row)!;
    const what = `${k.field} ${k.value}`;
    const one = this.set.singular;
    const code = f.failure!.code;
    if (code === 'NotFound' && this.mode === 'create' && storedAsGiven(k.value)) absent.push(row);
    else if (code === 'NotFound' && this.mode === 'create') this.unknown(row, `--check-unknown found no ${one} with ${what}, but the service keeps ${k.field} in capitals without surrounding spaces, so it may hold it otherwise; check by hand`);
    else if (code === 'NotFound') this.unknown(row, `--check-unknown found no ${one} with ${what}`, id);
    else if (code === 'Ambiguous') this.unknown(row, `--check-unknown found more than one ${one} with ${what}`, id);
    else this.unknown(row, `--check-unknown could not look it up: ${f.failure!.message ?? ''}`, id);
  }

  /** A record found: done by the earlier run when it holds the row's values (and no other row created it), else unknown with why. */
  found(k: Key, f: Found): void {
    const { row } = this.byRow.get(k.row)!;
    const { set, mode } = this;
    const what = `${k.field} ${k.value}`;
    const extra = { id: f.id, ...(f.key ? { key: f.key } : {}) };
    const off = this.compare ? Object.keys(row.body).find((name) => !sameValue(f.record?.[name], row.body[name])) : undefined;
    const differs = off !== undefined && `--check-unknown found a ${set.singular} (${what}) without the row's values (${off} is ${JSON.stringify(f.record?.[off] ?? null)}, the row has ${JSON.stringify(row.body[off])})`;
    const by = mode === 'create' && f.id ? this.createdBy.get(f.id.toLowerCase()) : undefined;
    if (by !== undefined && by !== row.row) {
      // its POST was refused (a second record with that key), or never done: not proven either way
      this.unknown(row, `--check-unknown found a ${set.singular} (${what}), but it is the one row ${by} created (the journal records its id ${f.id}): this row cannot have created it; check by hand`);
    } else if (mode === 'create') {
      if (differs) this.unknown(row, `${differs}: it may be another's, or changed since; check by hand`, undefined, ' (--resend-unknown sends it)');
      else this.record({ row: row.row, status: 'created', ...extra, message: `found by --check-unknown (${what}${this.compare ? ", with the row's values" : ''}): the earlier run created it` });
    } else if (differs) this.unknown(row, `${differs}: the update was not done, or the record changed since`, f.id, ' (--resend-unknown sends it)');
    else this.record({ row: row.row, status: 'updated', ...extra, message: `found by --check-unknown (${what}) with the row's values: the earlier run updated it` });
  }
}

/** On create, rows of the file naming one key (as the service would store it) find one record: only one of them can have created it. */
function sharedKeys(keys: readonly Key[]): (k: Key) => number[] {
  const sharing = new Map<string, number[]>();
  const shareKey = (k: Key) => `${k.field}\u0000${k.value.trim().toUpperCase()}`;
  for (const k of keys) sharing.set(shareKey(k), [...(sharing.get(shareKey(k)) ?? []), k.row]);
  return (k) => sharing.get(shareKey(k))!;
}

/**
 * --check-unknown: looks up each row an earlier run left unknown, in batched GETs. Create: by the
 * set's natural key; found -> created (journaled done, never sent) unless the journal records
 * another row as having created that very record (`createdBy`, asked about the ids found), not found when the key is one
 * the service stores as written -> returned, to be sent now. Update: by the record's id (or the
 * row's key); found with the row's values in place -> updated. Anything else stays unknown, with why.
 */
export async function checkUnknown(
  client: ErpClient,
  set: ErpSet,
  batch: BatchClient,
  mode: RowMode,
  rows: readonly UnknownRow[],
  bulk: BulkOptions,
  record: (r: RowResult) => void,
  createdBy: (ids: ReadonlySet<string>) => ReadonlyMap<string, number> = () => new Map(),
): Promise<Row[]> {
  const c = new Check(set, mode, rows, record);
  const keys = c.keys();
  let found: Map<number, Found>;
  try {
    found = await lookup(client, set, batch, keys, bulk, c.fields());
  } catch (e) {
    // Ctrl-C: the rows stay unknown (said so, with their check), and nothing is sent
    if (e instanceof InterruptedError) for (const k of keys) c.unknown(c.byRow.get(k.row)!.row, '--check-unknown was interrupted before it learned about it', c.byRow.get(k.row)!.id);
    throw e;
  }
  const ids = new Set<string>();
  for (const f of found.values()) if (f.id) ids.add(f.id.toLowerCase());
  c.createdBy = createdBy(ids);
  const sharing = sharedKeys(mode === 'create' ? keys : []);
  const absent: Row[] = [];
  for (const k of keys) {
    const f = found.get(k.row)!;
    const others = mode === 'create' && !f.failure ? sharing(k) : [];
    if (others.length > 1) c.unknown(c.byRow.get(k.row)!.row, `--check-unknown found a ${set.singular} (${k.field} ${k.value}), but rows ${others.slice(0, -1).join(', ')} and ${others.at(-1)} of the file all name it and only one of them can have created it; check by hand`);
    else if (f.failure) c.notFound(k, f, absent);
    else c.found(k, f);
  }
  return absent;
}

/** Commands that find out what happened to rows with an unknown outcome: one list by the human key when there is one. */
export function checksFor(set: ErpSet, mode: RowMode, rows: readonly Row[], idOf: (row: Row) => string | undefined): string[] {
  if (!rows.length) return [];
  // one list per 50 values of a key
  const lists = (field: string, values: string[]) => {
    const out: string[] = [];
    for (let i = 0; i < values.length; i += 50) out.push(checkCommand(set, field, values.slice(i, i + 50))!);
    return out;
  };
  if (mode === 'update') {
    // by id where it is known, else by the key that finds the row's record (a row sent before its id was journaled)
    const byField = new Map<string, string[]>();
    for (const r of rows) {
      const id = r.key?.field === 'id' ? r.key.value : idOf(r);
      const [field, value] = id ? ['id', id] : [r.key!.field, r.key!.value];
      const list = byField.get(field);
      if (list) list.push(value);
      else byField.set(field, [value]);
    }
    return [...byField].flatMap(([field, values]) => lists(field, values).map((c) => (field === 'id' ? c.replace(/'([0-9a-f-]{36})'/gi, '$1') : c)));
  }
  const key = set.naturalKey;
  const values = key ? rows.map((r) => r.body[key]).filter((v): v is string => typeof v === 'string' && v !== '') : [];
  if (key && values.length === rows.length) return lists(key, values);
  return [`vx erp ${set.noun} list --orderby "lastModifiedDateTime desc" --top ${rows.length}`];
}
