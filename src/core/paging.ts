// Async iteration over paged collections: `value` + `nextLink` (management) or `@odata.nextLink`
// (business data). A page ends the walk when its link is absent, null or empty. A link that was
// seen before, or that points at another origin than the first request, is refused: the walk
// never sends credentials anywhere but the configured endpoint.
import { ServiceError } from './errors.js';

export interface Page<T> {
  items: T[];
  next?: string | null;
  raw: unknown;
}

export interface PagingOptions {
  /** the key of the items array (default `value`) */
  itemsKey?: string;
  /** the key of the next link (default: `@odata.nextLink`, then `nextLink`) */
  nextKey?: string;
  /** stop after this many items in total */
  max?: number;
  /** safety bound on the number of pages (default MAX_PAGES) */
  maxPages?: number;
  /** the option that sets maxPages, named when the bound stops a walk */
  maxPagesOption?: string;
}

/** The pages a walk reads at most unless told otherwise: a next-page chain that never ends stops here. */
export const MAX_PAGES = 100_000;

/** Reads one page body: items and next link. A body without an items array is a ServiceError. */
export function readPage<T>(body: unknown, opts: PagingOptions = {}): Page<T> {
  const key = opts.itemsKey ?? 'value';
  if (!body || typeof body !== 'object' || !Array.isArray((body as Record<string, unknown>)[key])) {
    throw new ServiceError(`the service answered a list request without a "${key}" array`);
  }
  const b = body as Record<string, unknown>;
  const nextRaw = opts.nextKey ? b[opts.nextKey] : (b['@odata.nextLink'] ?? b.nextLink);
  if (nextRaw !== undefined && nextRaw !== null && typeof nextRaw !== 'string') {
    throw new ServiceError('the service answered with a next-page link that is not a string');
  }
  return { items: b[key] as T[], next: nextRaw || undefined, raw: body };
}

/** Resolves a next link against the current page's URL and checks it stays on the same origin. */
export function resolveNextLink(link: string, currentUrl: string, allowedOrigin: string): string {
  let u: URL;
  try {
    u = new URL(link, currentUrl);
  } catch {
    throw new ServiceError(`the service answered with an invalid next-page link "${link.slice(0, 200)}"`);
  }
  if (u.origin !== allowedOrigin) {
    throw new ServiceError(
      `the service's next-page link points at ${u.origin}, not at the configured endpoint ${allowedOrigin}; refusing to send credentials there`,
    );
  }
  return u.toString();
}

/**
 * Walks all pages: `fetchPage(url)` returns a page body. Yields each page's items (an array, cut
 * to `max` in total) in order until the last page, `max` items, or an error (repeated link,
 * foreign origin, missing items array). Whole pages keep the per-item cost of async iteration
 * out of long listings.
 */
export async function* paginatePages<T>(
  firstUrl: string,
  fetchPage: (url: string) => Promise<unknown>,
  opts: PagingOptions = {},
): AsyncGenerator<T[], void, undefined> {
  const origin = new URL(firstUrl).origin;
  const seen = new Set<string>([firstUrl]);
  let url: string | undefined = firstUrl;
  let count = 0;
  let pages = 0;
  const maxPages = opts.maxPages ?? MAX_PAGES;
  while (url) {
    if (++pages > maxPages) {
      const raise = opts.maxPagesOption ? ` (${opts.maxPagesOption} raises the limit)` : '';
      throw new ServiceError(`stopped after ${maxPages.toLocaleString('en-US')} pages: the service's next-page links did not end${raise}; the records of those pages were read`);
    }
    const page: Page<T> = readPage<T>(await fetchPage(url), opts);
    const room = opts.max === undefined ? Infinity : opts.max - count;
    const items = page.items.length > room ? page.items.slice(0, room) : page.items;
    count += items.length;
    if (items.length) yield items;
    if (opts.max !== undefined && count >= opts.max) return;
    if (!page.next) return;
    const next = resolveNextLink(page.next, url, origin);
    if (seen.has(next)) {
      throw new ServiceError(`the service returned a next-page link that was already followed (${next}); stopping to avoid an endless loop`);
    }
    seen.add(next);
    url = next;
  }
}

/** The items of all pages one by one (see paginatePages). */
export async function* paginate<T>(
  firstUrl: string,
  fetchPage: (url: string) => Promise<unknown>,
  opts: PagingOptions = {},
): AsyncGenerator<T, void, undefined> {
  for await (const items of paginatePages<T>(firstUrl, fetchPage, opts)) yield* items;
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
