// The OData options and the If-Match of a command line, checked before anything is sent: the
// list options as a ListQuery, the ETag options as HTTP would take them.
import { UsageError } from '../../core/errors.js';
import type { ListQuery } from './client.js';

/** The list options as given on the command line (strings, any of them absent). */
export interface ListFlags {
  filter?: string;
  select?: string;
  expand?: string;
  orderby?: string;
  top?: string;
  skip?: string;
  pageSize?: string;
  maxPages?: string;
}

function count(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`invalid value "${v}" for ${name}: expected a whole number of at least ${min}`);
  return n;
}

/** An OData option given empty (`--select ''`, a script's unset variable) is a usage error, nothing sent. */
export function checkNotEmpty(opts: Partial<Record<'filter' | 'select' | 'expand' | 'orderby', string>>): void {
  for (const k of ['filter', 'select', 'expand', 'orderby'] as const) {
    if (opts[k] !== undefined && !opts[k]!.trim()) throw new UsageError(`--${k} may not be empty`);
  }
}

export function listQuery(opts: ListFlags): ListQuery {
  checkNotEmpty(opts);
  return {
    filter: opts.filter,
    select: opts.select,
    expand: opts.expand,
    orderby: opts.orderby,
    // at least 1 in every family (the mgmt specs' minimum; a list of none is never what was meant)
    top: count('--top', opts.top, 1),
    skip: count('--skip', opts.skip, 0),
    pageSize: count('--page-size', opts.pageSize, 1),
    maxPages: count('--max-pages', opts.maxPages, 1),
  };
}

/** one or more entity tags, `W/"…"` or `"…"`, separated by commas */
const ETAG_LIST = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"(\s*,\s*(W\/)?"[\x21\x23-\x7e\x80-\xff]*")*$/;

/**
 * --if-match and --force: they exclude each other, and an empty --if-match (a script's unset
 * `--if-match "$etag"`) is refused rather than taken as "read a fresh ETag", which would overwrite
 * whatever changed since the script read the record.
 */
export function checkEtagOptions(opts: { ifMatch?: string; force?: boolean }): void {
  if (opts.ifMatch !== undefined && !opts.ifMatch.trim()) throw new UsageError('--if-match may not be empty: give the ETag the record must still have, or leave --if-match out to use the ETag of a fresh read; nothing was sent');
  if (opts.ifMatch !== undefined && opts.force) throw new UsageError('--if-match and --force exclude each other');
  // an entity tag as HTTP writes it (RFC 9110 8.8.3), or a list of them: anything else (W/\"x\" copied
  // with the JSON escapes, the tag without its quotes) would be "changed by someone else" (exit 5)
  if (opts.ifMatch !== undefined && opts.ifMatch.trim() !== '*' && !ETAG_LIST.test(opts.ifMatch.trim())) {
    const shown = JSON.stringify(opts.ifMatch.length > 60 ? `${opts.ifMatch.slice(0, 60)}…` : opts.ifMatch);
    throw new UsageError(`--if-match ${shown} is not an ETag: give it as the record's @odata.etag reads, e.g. W/"JzE5OzEx…" (quotes included, without JSON's backslashes), or *; nothing was sent`);
  }
}
