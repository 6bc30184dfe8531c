// The retry policy: what is retried, after how long, and what proves a request was not carried out
// (so that even a non-idempotent one may be sent again).
import type { HttpRequest, HttpResponse } from './types.js';

/** A network failure in a few words for a progress line. */
export function failureWords(code: string, timedOut: boolean, ms: number): string {
  if (timedOut) return `no answer in ${Math.round(ms / 1000)} s`;
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'name lookup failed',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    UND_ERR_SOCKET: 'connection closed',
  };
  return words[code] ?? `network error ${code}`;
}

export const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
/** statuses that prove the server did nothing, so even a non-idempotent request may be repeated */
export const NOTHING_DONE_STATUS = new Set([429, 503]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
export const SAFE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
/**
 * errors that mean the exchange failed on the network (anything else is a bug and is not retried);
 * HPE_* (node:http) and HTTPParserError (undici) are a reply that is not HTTP (a malformed status line
 * or header): the request went out
 */
export const NETWORK_CODES =
  /^(HPE_|HTTPParserError|ECONNRESET|ECONNREFUSED|ECONNABORTED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ENETDOWN|ETIMEDOUT|EPIPE|EPROTO|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|UND_ERR_(SOCKET|CONNECT_TIMEOUT|HEADERS_TIMEOUT|BODY_TIMEOUT|CLOSED|DESTROYED|RESPONSE_STATUS|REQ_CONTENT_LENGTH_MISMATCH|RES_CONTENT_LENGTH_MISMATCH|INFO))/;
export const MAX_RETRY_AFTER_MS = 120_000;
/** certificate verification failures: permanent, and the request never left the client */
export const TLS_TRUST_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_)/;

/** Parses Retry-After (delta seconds or an HTTP-date) into milliseconds from now. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(parseFloat(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}

/**
 * How long to wait before retry number `attempt` (0-based): the server's Retry-After when given
 * (capped at two minutes), else exponential backoff with full jitter: random in [base*2^a/2, base*2^a], capped.
 */
export function retryDelay(
  attempt: number,
  retryAfter: string | undefined,
  opts: { baseMs?: number; capMs?: number; now?: number; random?: () => number } = {},
): number {
  const ra = parseRetryAfter(retryAfter, opts.now ?? Date.now());
  if (ra !== undefined) return Math.min(ra, MAX_RETRY_AFTER_MS);
  const base = opts.baseMs ?? 500;
  const cap = opts.capMs ?? 20_000;
  const exp = Math.min(cap, base * 2 ** attempt);
  const r = (opts.random ?? Math.random)();
  return Math.round(exp / 2 + (exp / 2) * r);
}

/**
 * A 429's Retry-After as the pacer learns from it: capped like any wait (a day's Retry-After
 * taught a rate that booked the next request a day ahead, whatever the retry's own cap)
 */
export function cappedRetryAfter(res: Pick<HttpResponse, 'headers'>): number | undefined {
  const ra = parseRetryAfter(res.headers['retry-after']);
  return ra === undefined ? undefined : Math.min(ra, MAX_RETRY_AFTER_MS);
}

export function isIdempotent(req: Pick<HttpRequest, 'method' | 'idempotent'>): boolean {
  return req.idempotent === true || IDEMPOTENT_METHODS.has(req.method.toUpperCase());
}
