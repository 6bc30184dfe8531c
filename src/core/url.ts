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

/** A host name that can only be this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);
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

// ---- path segments ----

const DOT_SEGMENT = /^\.{1,2}$/;
const SEPARATOR = /[/\\]/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** `value` percent-decoded once; undefined when it is not valid percent-encoding */
function decodeOnce(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * Why `value` cannot be one path segment, or undefined when it can. Refused: empty, `.` and `..`
 * (Node and every proxy collapse them, so the request would go to another resource), and what a
 * server or gateway that decodes once or twice would read as one (`%2e%2e`, `.%2E`, `%252e%252e`)
 * or as a separator (`/`, `\`, `%2F`, `%5c`), and control characters.
 */
export function segmentProblem(value: string): string | undefined {
  if (value === '') return 'is empty';
  if (CONTROL.test(value)) return 'holds a control character';
  let v: string | undefined = value;
  for (let i = 0; i < 3 && v !== undefined; i++) {
    if (DOT_SEGMENT.test(v)) return `is ${i ? 'an encoded ' : ''}"${v}", which would move the request to another resource`;
    if (SEPARATOR.test(v)) return `holds a${i ? 'n encoded' : ''} "${v.match(SEPARATOR)![0]}", which would split it into several path segments`;
    const next = decodeOnce(v);
    v = next === v ? undefined : next;
  }
  return undefined;
}

/**
 * One path segment, percent-encoded: the one builder every family's URLs use for a value that
 * comes from the user (or a setting). A value that would not stay one segment of its own is a
 * usage error (exit 2) before anything is sent.
 */
export function pathSegment(value: string, what: string): string {
  const problem = segmentProblem(value);
  if (problem) throw new UsageError(`invalid ${what} ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}: it ${problem}; nothing was sent`);
  return encodeURIComponent(value);
}

/**
 * The dot segments of a URL's path as written (`/a/../b`, `/a/%2e%2e/b`): every transport collapses
 * them, so what would be sent is not what was asked. The last line of defence for URLs built from
 * user input (`vx api <path>`); undefined when there is none.
 */
export function dotSegmentIn(url: string): string | undefined {
  const start = url.indexOf('//');
  const pathStart = start < 0 ? 0 : url.indexOf('/', start + 2);
  if (pathStart < 0) return undefined;
  const end = url.slice(pathStart).search(/[?#]/);
  const path = end < 0 ? url.slice(pathStart) : url.slice(pathStart, pathStart + end);
  return path.split('/').find((s) => /^(\.|%2e){1,2}$/i.test(s));
}

/**
 * The URL exactly as a request for it is sent (WHATWG serialisation, as node:http and undici send
 * it). A `<placeholder>` of a --dry-run plan (never sent) stays readable.
 */
export function sentUrl(url: string): string {
  try {
    return new URL(url).href.replace(/%3C[^/?#&<>]*?%3E/g, (p) => decodeURIComponent(p));
  } catch {
    return url;
  }
}
