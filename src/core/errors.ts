// Errors are values with a class, and each class carries the contract's exit code (cli/report.ts
// prints one line and returns that code; main.ts exits with it). Also: the error body of any
// service read into status, code, message and request id. Nothing here knows about a particular
// API family beyond the shapes of their error bodies.
import { redact } from './redact.js';

/** The response headers that carry a request id, in the order they are looked for (lower case). */
export const REQUEST_ID_HEADERS = ['x-requestid', 'x-request-id', 'x-ms-request-id', 'request-id'] as const;

/** The request id of a response, from the first of REQUEST_ID_HEADERS it has. */
export function requestIdOf(header: (name: string) => string | undefined): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = header(name);
    // cut like a service's error text: a header may be up to 1 MB (http.ts MAX_HEADER_BYTES)
    if (v !== undefined) return clip(v, MAX_REQUEST_ID);
  }
  return undefined;
}

export const EXIT = {
  ok: 0,
  service: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  throttled: 6,
  unavailable: 7,
  network: 8,
  interrupted: 130,
} as const;

export interface ErrorDetails {
  status?: number;
  code?: string;
  requestId?: string;
  /** extra lines printed after the one-line message (hints), never secrets */
  hint?: string;
}

/** Marks vx errors so that a copy of this module in another bundle still recognises them. */
const BRAND = Symbol.for('vx.error');

export function isVxError(err: unknown): err is VxError {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;
}

export class VxError extends Error {
  readonly [BRAND] = true;
  readonly exitCode: number = EXIT.service;
  status?: number;
  code?: string;
  requestId?: string;
  hint?: string;
  /** the Retry-After of the answer (429/503...), in ms, for a caller that tries again later */
  retryAfterMs?: number;
  constructor(message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = new.target.name;
    this.status = details.status;
    this.code = details.code;
    this.requestId = details.requestId;
    this.hint = details.hint;
  }
}

export class ServiceError extends VxError {}
/** The result could not be written (a full disk) after the requests were made: exit 1, never "nothing was sent". */
export class OutputError extends VxError {}
export class UsageError extends VxError {
  override readonly exitCode = EXIT.usage;
}
export class AuthError extends VxError {
  override readonly exitCode = EXIT.auth;
}
export class NotFoundError extends VxError {
  override readonly exitCode = EXIT.notFound;
}
export class ConflictError extends VxError {
  override readonly exitCode = EXIT.conflict;
}
export class ThrottledError extends VxError {
  override readonly exitCode = EXIT.throttled;
}
export class UnavailableError extends VxError {
  override readonly exitCode = EXIT.unavailable;
}
export class NetworkError extends VxError {
  override readonly exitCode = EXIT.network;
}
export class InterruptedError extends VxError {
  override readonly exitCode = EXIT.interrupted;
  constructor(message = 'interrupted') {
    super(message);
  }
}

/**
 * Ends a command with an exit code of its own, documented with the command (quota check's
 * "short", the monitoring-plugin codes of health check, 143 after SIGTERM). An empty message
 * prints nothing: the command has said what it had to say.
 */
export class ExitStatus extends VxError {
  override readonly exitCode: number;
  constructor(code: number, message = '') {
    super(message);
    this.exitCode = code;
  }
}

export interface ParsedServiceError {
  code?: string;
  message?: string;
  details?: string[];
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/**
 * How much of a service's error a message keeps: a hostile or broken service can answer megabytes
 * of message or a hundred thousand details, which would all become one line of stderr.
 */
export const MAX_CODE = 200;
export const MAX_MESSAGE = 1000;
const MAX_DETAIL = 300;
const MAX_DETAILS = 20;
const MAX_REQUEST_ID = 200;

/** `s` cut to `n` characters, saying how long it was. */
export function clip(s: string | undefined, n: number): string | undefined {
  return s !== undefined && s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s;
}

function detailLines(v: unknown): string[] {
  // the health family's ErrorResponse has `details` as one string (3-mgmt.md, Errors)
  if (typeof v === 'string') return v.trim() ? [clip(v.trim(), MAX_DETAIL)!] : [];
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const d of v) {
    if (out.length === MAX_DETAILS) {
      out.push(`… ${v.length - MAX_DETAILS} more`);
      break;
    }
    if (d && typeof d === 'object') {
      const code = str((d as Record<string, unknown>).code);
      const message = str((d as Record<string, unknown>).message);
      const target = str((d as Record<string, unknown>).target);
      const parts = [code, target ? `(${target})` : undefined, message].filter(Boolean);
      if (parts.length) out.push(clip(parts.join(' '), MAX_DETAIL)!);
    }
  }
  return out;
}

/**
 * Reads an error body of any family: `{error:{code,message,details?}}` (translator with a
 * 6-digit numeric code, ERP, quota, version sets) or the flat `{code,message,details}` (health
 * events). Returns an empty object when the body is not JSON or has neither shape.
 */
export function parseErrorBody(text: string): ParsedServiceError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const b = body as Record<string, unknown>;
  const inner =
    b.error && typeof b.error === 'object' && !Array.isArray(b.error)
      ? (b.error as Record<string, unknown>)
      : b;
  const code = clip(str(inner.code), MAX_CODE);
  const message = clip(str(inner.message) ?? (typeof b.error === 'string' ? b.error : undefined), MAX_MESSAGE);
  const details = detailLines(inner.details);
  if (code === undefined && message === undefined && details.length === 0) return {};
  return { code, message, details };
}

/** A short description of a non-JSON body (an HTML page from a proxy, plain text). */
export function describeBody(text: string, contentType: string | undefined): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if ((contentType ?? '').includes('html') || /^<(!doctype|html)/i.test(t)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(t)?.[1]?.trim();
    return title ? `HTML page "${title.slice(0, 80)}" (not a service response; a proxy?)` : 'an HTML page (not a service response; a proxy?)';
  }
  const oneLine = t.replace(/\s+/g, ' ');
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}

const STATUS_TEXT: Record<number, string> = {
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? '';
}

/** Maps an HTTP error status to the error class of the contract. */
export function errorClassFor(status: number): new (m: string, d?: ErrorDetails) => VxError {
  if (status === 401 || status === 403) return AuthError;
  if (status === 404) return NotFoundError;
  if (status === 409 || status === 412) return ConflictError;
  if (status === 429) return ThrottledError;
  if (status === 408 || status >= 500) return UnavailableError;
  if (status >= 400 && status < 500) return ServiceError;
  return ServiceError;
}

/**
 * Builds the one error a non-2xx response becomes: the message names the HTTP status, the
 * service's code and message, and the request id.
 */
export function errorFromResponse(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): VxError {
  // redacted before any part of it is cut for the message: a secret cut in two is not recognised
  const bodyText = redact(body);
  const parsed = parseErrorBody(bodyText);
  const h = (name: string): string | undefined => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const requestId = requestIdOf(h) ?? clip(h('x-correlation-id'), MAX_REQUEST_ID);
  let message = parsed.message;
  // vx follows no redirect (the credentials would go along): say where it points (an http://
  // endpoint the service moves to https://) and what to do
  if (status >= 300 && status < 400 && message === undefined && parsed.code === undefined) {
    const to = h('location');
    message = to
      ? `the service redirects to ${clip(to, 300)}; vx does not follow redirects (the credentials would go along): set the endpoint to the address the service names`
      : 'the service redirects without saying where';
  }
  if (message === undefined && parsed.code === undefined) message = describeBody(bodyText, h('content-type'));
  const parts = [`HTTP ${status}${statusText(status) ? ' ' + statusText(status) : ''}`];
  if (parsed.code) parts.push(parsed.code);
  let line = parts.join(' ');
  if (message) line += `: ${message.replace(/\s+/g, ' ').trim()}`;
  if (parsed.details && parsed.details.length) line += ` [${parsed.details.join('; ')}]`;
  if (requestId) line += ` (request id ${requestId})`;
  const Cls = errorClassFor(status);
  return new Cls(line, { status, code: parsed.code, requestId });
}

/** Turns anything thrown into a VxError (unknown errors become ServiceError with their message). */
export function asVxError(err: unknown): VxError {
  if (isVxError(err)) return err;
  const e = err as { code?: string; message?: string; name?: string } | undefined;
  if (e && (e.name === 'ExitPromptError' || e.name === 'AbortPromptError')) return new InterruptedError();
  if (e && typeof e.code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR_)/.test(e.code)) {
    return new NetworkError(`network error: ${e.message ?? e.code}`);
  }
  if (e && (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR' || e.code === 'ENOTDIR')) {
    return new UsageError(e.message ?? String(err));
  }
  // a value nested hundreds of thousands deep somewhere a recursive walk met it: say so, not just the stack's word
  if (err instanceof RangeError && /call stack/i.test(err.message)) return new ServiceError(`the data nests too deeply for vx to handle (${err.message})`);
  return new ServiceError(e?.message ?? String(err));
}

/**
 * Text for one line of stderr: control characters (a newline or a terminal escape sequence in a
 * value the user typed or a service sent) are shown escaped, so a message stays one line and
 * cannot drive the terminal.
 */
export function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, escapeControl);
}

function escapeControl(c: string): string {
  return c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

// C0 and C1 controls but tab and line feed, and the bidirectional embeddings, overrides and
// isolates (U+202A-U+202E, U+2066-U+2069), which reorder the text after them on the screen
// ("Trojan Source"); the marks (U+200E, U+200F, U+061C) reorder nothing beyond themselves and
// are part of ordinary right-to-left text: kept
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from a service made safe for a terminal: control characters other than tab and line feed
 * (ESC of a colour, clear-screen or OSC 8 link sequence, BEL, a carriage return that overwrites the
 * line, C1 controls such as CSI U+009B) and bidirectional overrides (U+202E) are written escaped
 * (`\u001b`, `\r`, `\u202e`). Tab and newline are
 * the caller's business (a table cell has neither, text keeps them).
 */
export function terminalText(s: string): string {
  return CONTROL.test(s) ? s.replace(CONTROLS, escapeControl) : s;
}

