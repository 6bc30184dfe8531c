// The request log: a ring of the last requests with their headers and bodies (within a byte budget),
// counted by tests ("nothing sent", "sent once") and shown by GET /_emulator/requests, credentials masked.
import type { IncomingHttpHeaders } from 'node:http';
import type { LogEntry } from './types.js';

export class RequestLog {
  readonly entries: LogEntry[] = [];
  /** the entries that hold a body, oldest first, and the bytes those bodies take */
  private readonly bodies: LogEntry[] = [];
  private bodyBytes = 0;

  constructor(private readonly opts: { logLimit?: number; logBodyBytes?: number }) {}

  /**
   * Adds a request to the log: a ring of the last `logLimit` requests (a long-running emulator
   * under load must not grow without bound).
   */
  record(entry: LogEntry): void {
    this.entries.push(entry);
    const limit = this.opts.logLimit ?? 10_000;
    if (this.entries.length > limit) {
      for (const gone of this.entries.splice(0, this.entries.length - limit)) this.dropBody(gone);
      while (this.bodies.length && this.bodies[0].body === undefined) this.bodies.shift();
    }
  }

  /** Keeps a request body in the log within the byte budget: the oldest bodies go first. */
  keepBody(entry: LogEntry, text: string): void {
    entry.body = text;
    this.bodies.push(entry);
    this.bodyBytes += text.length;
    const budget = this.opts.logBodyBytes ?? 32 * 1024 * 1024;
    while (this.bodyBytes > budget && this.bodies.length > 1) this.dropBody(this.bodies.shift()!);
  }

  private dropBody(e: LogEntry): void {
    if (e.body === undefined) return;
    this.bodyBytes -= e.body.length;
    e.body = undefined;
    e.bodyDropped = true;
  }

  clear(): void {
    this.entries.length = 0;
    this.bodies.length = 0;
    this.bodyBytes = 0;
  }

  /** Requests counted per family/method/path pattern, for tests that prove "nothing sent" or "sent once". */
  count(filter: Partial<Pick<LogEntry, 'family' | 'method'>> & { path?: string | RegExp } = {}): number {
    return this.entries.filter(
      (e) =>
        e.family !== 'control' &&
        (!filter.family || e.family === filter.family) &&
        (!filter.method || e.method === filter.method) &&
        (!filter.path || (typeof filter.path === 'string' ? e.path.includes(filter.path) : filter.path.test(e.path))),
    ).length;
  }
}

/** headers whose whole value is a credential */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'vendor-subscription-key', 'ocp-apim-subscription-key', 'cookie', 'x-api-key']);
/** form fields and JSON members that carry a credential (token requests, client secrets) */
const SECRET_FIELDS = 'client_secret|client_assertion|refresh_token|access_token|id_token|code|code_verifier|device_code|password|assertion';
const SECRET_FORM = new RegExp(`((?:^|&)(?:${SECRET_FIELDS})=)[^&]*`, 'g');
const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_FIELDS}|subscription-key|key|token)=)[^&]*`, 'gi');
const SECRET_JSON = new RegExp(`("(?:${SECRET_FIELDS}|key|token)"\\s*:\\s*")(?:[^"\\\\]|\\\\.)*"`, 'g');

/** A log entry as `/_emulator/requests` shows it: credentials masked (`Bearer ***`, `***`). */
export function redactEntry(e: LogEntry): LogEntry {
  const out: LogEntry = { ...e };
  if (e.headers) {
    const h: IncomingHttpHeaders = {};
    for (const [k, v] of Object.entries(e.headers)) {
      if (!SECRET_HEADERS.has(k) || v === undefined) h[k] = v;
      else h[k] = String(v).replace(/^(\w+\s+)?.*$/s, (_, scheme: string | undefined) => `${scheme ?? ''}***`);
    }
    out.headers = h;
  }
  if (e.body !== undefined) out.body = e.body.replace(SECRET_FORM, '$1***').replace(SECRET_JSON, '$1***"');
  out.path = e.path.replace(SECRET_QUERY, '$1***');
  return out;
}
