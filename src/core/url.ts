// URL composition shared by every family: an endpoint may carry a path prefix; a trailing
// slash is ignored; query parameters are appended in order (repeatable ones as arrays).
import { UsageError } from './errors.js';

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number | boolean)[];

export function normalizeBase(base: string, what = 'endpoint'): string {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    throw new UsageError(`invalid ${what} "${base}": expected an absolute http(s) URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`invalid ${what} "${base}": expected an http(s) URL`);
  if (u.search || u.hash) throw new UsageError(`invalid ${what} "${base}": it may not carry a query or fragment`);
  return base.replace(/\/+$/, '');
}

/** Percent-encodes a query value the way services expect (spaces as %20, `$` and `,` kept readable). */
export function encodeQueryComponent(v: string): string {
  return encodeURIComponent(v).replace(/%24/g, '$').replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2F/g, '/');
}

export function buildQuery(query: Record<string, QueryValue> = {}): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    const values = Array.isArray(v) ? v : [v];
    for (const x of values) parts.push(`${encodeQueryComponent(k)}=${encodeQueryComponent(String(x))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** base + path (path starts with /) + query. */
export function joinUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  return `${base.replace(/\/+$/, '')}${path.startsWith('/') ? '' : '/'}${path}${buildQuery(query)}`;
}
