// Every record of a set written out page by page (CSV, NDJSON, JSON, TSV): memory stays flat
// whatever the number of records, and reading the next page overlaps writing this one.
import { StreamRenderer, type Column, type Format, type ResultSink } from '../../core/output/index.js';
import { UsageError } from '../../core/errors.js';
import type { ErpSet } from '../../model/erp/index.js';
import type { Entity, ErpClient, ListQuery } from './client.js';
import { listQuery, type ListFlags } from './query.js';

const EXPORT_FORMATS = ['csv', 'ndjson', 'json', 'tsv'] as const;
const EXPORT_PAGE_SIZE = 500;

const exportable = (f: string | undefined): boolean => f !== undefined && (EXPORT_FORMATS as readonly string[]).includes(f);

/**
 * The format: -o (`given`), else the --out file's name, else the preferred one (VX_OUTPUT, the
 * profile's) when export writes it (a display preference such as table must not stop an export,
 * nor turn people.csv into JSON), else ndjson.
 */
export function exportFormat(given: Format | undefined, out: string | undefined, preferred: Format | undefined): Format {
  const byName = out && /\.(csv|ndjson|jsonl|json|tsv)$/i.exec(out)?.[1].toLowerCase().replace('jsonl', 'ndjson');
  const format = (given ?? byName ?? (exportable(preferred) ? preferred : 'ndjson')) as Format;
  if (!exportable(format)) throw new UsageError(`export writes ${EXPORT_FORMATS.join(', ')}; -o ${format} is not one of them`);
  return format;
}

/** The query of an export: pages of 500 unless told otherwise (the service's default, 20,000, holds 40x the memory per page). */
export function exportQuery(flags: ListFlags): ListQuery {
  const q = listQuery(flags);
  return { ...q, pageSize: q.pageSize ?? EXPORT_PAGE_SIZE };
}

/**
 * The columns written (--select's fields in order, else every field of the set and the ETag). The
 * query loses `@odata.etag`: an annotation every record carries, not a property, a column when
 * named but never in $select (which the service refuses).
 */
function exportColumns(set: ErpSet, q: ListQuery): Column[] {
  const names = q.select ? [...new Set(q.select.split(',').map((s) => s.trim()).filter(Boolean))] : [...Object.keys(set.fields), '@odata.etag'];
  if (q.select && names.includes('@odata.etag')) q.select = names.filter((n) => n !== '@odata.etag').join(',') || undefined;
  return names.map((n) => ({ header: n, get: (row: unknown) => (row as Record<string, unknown>)[n] }));
}

async function* pagesOf(pages: AsyncIterable<Entity[]>): AsyncGenerator<{ count: number; ndjson?: string | Uint8Array; items?: Entity[] }> {
  for await (const items of pages) yield { count: items.length, items };
}

/**
 * Writes every record the query finds to `sink` and commits it (or aborts it on a failure, leaving
 * nothing behind); `onProgress` gets the count so far after each page. Returns the count.
 * `columns`: those of csv and tsv (default: every field of the set and the ETag, as export writes).
 */
export async function exportRecords(client: ErpClient, set: ErpSet, q: ListQuery, format: Format, sink: ResultSink, onProgress?: (count: number) => void, columns?: Column[]): Promise<number> {
  const renderer = new StreamRenderer(format, { columns: columns ?? exportColumns(set, q) });
  let count = 0;
  try {
    // the next page is asked for before this one is written: at most two pages are held at once.
    // -o ndjson writes each record as the service wrote it (cut from the page's text, not parsed
    // and serialized again: the same JSON, numbers exact), where the page allows
    const pages = (format === 'ndjson' ? client.listPagesNdjson(set, q) : pagesOf(client.listPages(set, q)))[Symbol.asyncIterator]();
    try {
      let next = pages.next();
      for (;;) {
        const r = await next;
        if (r.done) break;
        next = pages.next();
        next.catch(() => undefined); // a failure is met (and thrown) at the next await
        count += r.value.count;
        await sink.write(r.value.ndjson ?? renderer.items(r.value.items ?? []));
        onProgress?.(count);
      }
    } finally {
      await pages.return?.(undefined)?.catch(() => undefined);
    }
    await sink.write(renderer.end());
    await sink.commit();
  } catch (e) {
    await sink.abort();
    throw e;
  }
  return count;
}
