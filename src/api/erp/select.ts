// Which records a bulk delete or bound action works on: one <id>, every record an OData $filter
// matches, or the ids listed in a file (checked, each acted on once).
import { UsageError, oneLine } from '../../core/errors.js';
import { readAllBytes } from '../../core/input.js';
import { isGuid, type ErpSet } from '../../model/erp/index.js';
import { idFields } from './bulk.js';
import type { Entity, ErpClient, ListQuery } from './client.js';

/** How the records are named besides an <id>, and the $batch options that act on many. */
export interface Selection {
  filter?: string;
  ids?: string;
  atomic?: boolean;
  batchSize?: string;
  concurrency?: string;
}

const EXACTLY_ONE = 'name the records with exactly one of <id>, --filter <odata> and --ids <file|->';

/**
 * With one <id>, --filter/--ids would name other records, and the $batch options (--atomic,
 * --batch-size, --concurrency) have nothing to act on (one record is one request), so each is
 * refused rather than accepted and ignored. Without, exactly one of --filter and --ids. Nothing is sent.
 */
export function checkSelection(key: string | undefined, o: Selection): void {
  if (key === undefined) {
    if ((o.filter !== undefined) === (o.ids !== undefined)) throw new UsageError(EXACTLY_ONE);
    return;
  }
  if (o.filter !== undefined || o.ids !== undefined) throw new UsageError(EXACTLY_ONE);
  const batch = (['atomic', 'batch-size', 'concurrency'] as const).filter((f) => (f === 'atomic' ? o.atomic : f === 'batch-size' ? o.batchSize : o.concurrency) !== undefined);
  if (batch.length) throw new UsageError(`--${batch[0]} works with --filter or --ids only (one <id> is one request, not a $batch); nothing was sent`);
}

export interface Target {
  row: number;
  id: string;
  etag?: string;
  /** the record's own key (humanKey) */
  key?: string;
}

/** Every record the query matches: its id, ETag and own key, numbered from 1 as rows. */
export async function filterTargets(client: ErpClient, set: ErpSet, q: ListQuery): Promise<Target[]> {
  const list: Target[] = [];
  let i = 0;
  for await (const page of client.listPages(set, { ...q, select: idFields(set) }))
    for (const e of page as Entity[]) {
      const key = set.humanKey !== undefined ? e[set.humanKey] : undefined;
      list.push({ row: ++i, id: String(e.id), etag: typeof e['@odata.etag'] === 'string' ? e['@odata.etag'] : undefined, ...(typeof key === 'string' && key ? { key } : {}) });
    }
  return list;
}

/**
 * The ids listed in a file (or standard input), one per line, a row each by its line number. A
 * malformed id is a usage error (each named through `info` first); an id listed twice is acted on
 * once: a second `send` would send the quote to the customer again.
 */
export async function idTargets(set: ErpSet, ids: string, stdin: () => NodeJS.ReadableStream, info: (line: string) => void): Promise<{ list: Target[]; name: string }> {
  const src = await readAllBytes(ids, stdin);
  const list: Target[] = [];
  const bad: string[] = [];
  src.bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((l, i) => {
      const id = l.trim();
      if (!id) return;
      if (set.fields.id?.type === 'guid' && !isGuid(id)) bad.push(`line ${i + 1}: "${id}" is not a GUID`);
      else list.push({ row: i + 1, id });
    });
  if (bad.length) {
    for (const b of bad) info(oneLine(`${src.name} ${b}`));
    throw new UsageError(`${bad.length} invalid ${set.singular} id${bad.length > 1 ? 's' : ''} in ${src.name} (listed above); nothing was sent`);
  }
  const first = new Map<string, number>();
  const once = list.filter((t) => {
    const key = t.id.toLowerCase();
    const seen = first.get(key);
    if (seen === undefined) {
      first.set(key, t.row);
      return true;
    }
    info(`${src.name} line ${t.row}: ${t.id} repeats line ${seen}; it is acted on once`);
    return false;
  });
  return { list: once, name: src.name };
}
