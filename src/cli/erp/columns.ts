// The table and tsv columns of an entity set's records, from its model: headers in words,
// amounts and times formatted, numbers right-aligned; or the fields --select names.
import { amountText, groupedAmount, isBlank, shortTime, type Column, type RenderOptions } from '../../core/output/index.js';
import { isUnsetValue, type ErpSet, type TableColumn } from '../../model/erp/index.js';

/** A set's table column as the renderer takes it: computed, formatted (amounts, times), right-aligned numbers. */
export function tableColumn(set: ErpSet | undefined, c: TableColumn, chosen = false): Column {
  const type = set?.fields[c.field]?.type;
  const read = (r: Record<string, unknown>): unknown => (c.get && !chosen ? c.get(r) : r?.[c.field]);
  const get = c.format === 'amount' ? (r: Record<string, unknown>) => groupedAmount(read(r)) : c.format === 'time' ? (r: Record<string, unknown>) => shortTime(read(r)) : read;
  const currency = c.currency;
  return {
    header: c.header,
    name: c.field,
    get,
    // tsv rows carry the time as the service wrote it, not cut to the minute for the table, and
    // an amount with no thousands separator (its currency is a column of its own there)
    raw: c.format === 'time' ? read : c.format === 'amount' ? (r: Record<string, unknown>) => amountText(read(r)) : undefined,
    unit: currency ? (r: Record<string, unknown>) => r?.[currency] : undefined,
    align: c.align ?? (c.format === 'amount' || type === 'decimal' || type === 'integer' ? 'right' : undefined),
    keep: c.keep,
    // the columns named by --select are all shown (-o wide or not); none is dropped first
    primary: chosen ? undefined : c.primary,
    optional: chosen ? undefined : c.optional,
    wide: chosen ? undefined : c.wide,
  };
}

/**
 * The table/tsv columns: the set's columns chosen for a person (headers in words; a GUID last, or
 * only with -o wide), or the fields named by --select in that order (with the set's header for a
 * field it has a column for).
 */
export function columnsOf(set: ErpSet | undefined, select?: string): Column[] | undefined {
  if (!select) return set?.columns.map((c) => tableColumn(set, c));
  const names = [...new Set(select.split(',').map((s) => s.trim()).filter(Boolean))];
  return names.map((name, i) => {
    const known = set?.columns.find((c) => c.field === name);
    if (set && known) return tableColumn(set, known, true);
    const type = set?.fields[name]?.type;
    // the first four columns stay on a narrow terminal; the others are dropped first
    return { header: name, get: name, align: type === 'decimal' || type === 'integer' ? 'right' : undefined, optional: i >= 4 || undefined, keep: name === 'id' || undefined };
  });
}

const unset = (v: unknown): boolean => isUnsetValue(v) || isBlank(v, unset);

/** How one record prints: `-o table` leaves out the fields never set (-o wide shows them all). */
export const RECORD_VIEW: RenderOptions = { blank: unset };
