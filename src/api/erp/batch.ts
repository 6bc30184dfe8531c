// OData JSON $batch for the business-data API: up to 100 operations in one POST to
// `{prefix}/api/<v>/$batch`, each answered with its own status. What a batch answer proves:
// - an operation's response proves its outcome (2xx done, 4xx/5xx not done);
// - with `Isolation: snapshot`, a failed operation means the whole batch was rolled back;
// - an operation without a response (a short answer, a non-JSON body, a lost connection, a 5xx
//   other than 503 on the batch) has an unknown outcome: it may or may not have been done;
// - 429/503 on the batch prove nothing was done (the HTTP layer waits and repeats those).
import { AuthError, InterruptedError, isVxError, NetworkError, ServiceError, ThrottledError, UnavailableError, UsageError, type VxError } from '../../core/errors.js';
import type { Authenticator, Http } from '../../core/http/index.js';
import type { Paced } from '../../core/pacer.js';
import { parseErrorBody } from '../../core/errors.js';
import { stringifyExact } from '../../core/json.js';
import { redact } from '../../core/redact.js';

export interface BatchOp {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** absolute URL below `{prefix}/api/<v>/` */
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export type OpResult =
  | { kind: 'done'; status: number; headers: Record<string, string>; body: unknown }
  /** not done; status 0 when the batch was never sent */
  | { kind: 'failed'; status: number; code?: string; message: string; rolledBack?: boolean }
  /** not done: its batch was rolled back because another operation failed */
  | { kind: 'rolled-back' }
  | { kind: 'unknown'; reason: string };

export interface BatchOptions {
  atomic?: boolean;
  signal?: AbortSignal;
  /** said in messages about the whole batch, e.g. "batch 3 (rows 201-300)" */
  label?: string;
}

/**
 * The error text of an operation's error body: `code: message` without the correlation id, redacted
 * as a request's error is (errorFromResponse): it goes into the import's results on stdout.
 */
function errorOf(body: unknown): { code?: string; message: string } {
  const parsed = parseErrorBody(redact(typeof body === 'string' ? body : JSON.stringify(body ?? '')));
  return { code: parsed.code, message: (parsed.message ?? 'no message').replace(/\s+CorrelationId:\s+[\w-]+\.?$/, '').trim() };
}

const JSON_BODY: Readonly<Record<string, string>> = Object.freeze({ 'Content-Type': 'application/json' });
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const JSON_BODY_TEXT = JSON.stringify(JSON_BODY);

/** The headers of an operation's response with lower-case names (as the service sends them, usually: then as they are). */
function lowerKeys(h: unknown): Record<string, string> {
  if (!h || typeof h !== 'object') return {};
  const o = h as Record<string, string>;
  for (const k in o) {
    if (k !== k.toLowerCase()) {
      const out: Record<string, string> = {};
      for (const [name, v] of Object.entries(o)) out[name.toLowerCase()] = String(v);
      return out;
    }
  }
  return o;
}

export class BatchClient {
  constructor(
    private readonly http: Http,
    /** `{prefix}/api/<v>/` of the set */
    readonly root: string,
    /** how its requests are authenticated (the client's) */
    readonly auth: Authenticator,
    /**
     * the run's pacing: a $batch costs one request per operation it holds (the service counts each
     * operation toward the user's rate limit; the $batch itself is one of the user's concurrent
     * requests, which --concurrency bounds)
     */
    private readonly pacer?: Paced,
  ) {}

  get url(): string {
    return `${this.root}$batch`;
  }

  /** The request body of a batch (also what --dry-run shows). */
  body(ops: readonly BatchOp[]): { requests: unknown[] } {
    const n = this.root.length;
    return {
      requests: ops.map((o, i) => {
        if (!o.url.startsWith(this.root)) throw new Error(`batch operation outside ${this.root}: ${o.url}`);
        const headers = o.headers ? (o.body !== undefined ? { ...JSON_BODY, ...o.headers } : o.headers) : o.body !== undefined ? JSON_BODY : NO_HEADERS;
        return o.body !== undefined
          ? { id: String(i + 1), method: o.method, url: o.url.slice(n), headers, body: o.body }
          : { id: String(i + 1), method: o.method, url: o.url.slice(n), headers };
      }),
    };
  }

  /**
   * The same body as JSON text (`stringifyExact(this.body(ops))`, character for character), put
   * together from each operation's serialized body: a batch of 100 creates is sent without
   * building 100 operation objects first.
   */
  bodyText(ops: readonly BatchOp[]): string {
    const n = this.root.length;
    let url = '';
    let urlJson = '';
    let text = '{"requests":[';
    for (let i = 0; i < ops.length; i++) {
      const o = ops[i];
      if (o.url !== url) {
        if (!o.url.startsWith(this.root)) throw new Error(`batch operation outside ${this.root}: ${o.url}`);
        url = o.url;
        urlJson = JSON.stringify(o.url.slice(n));
      }
      const headers = o.headers ? JSON.stringify(o.body !== undefined ? { ...JSON_BODY, ...o.headers } : o.headers) : o.body !== undefined ? JSON_BODY_TEXT : '{}';
      text += `${i ? ',' : ''}{"id":"${i + 1}","method":${JSON.stringify(o.method)},"url":${urlJson},"headers":${headers}`;
      text += o.body !== undefined ? `,"body":${stringifyExact(o.body)}}` : '}';
    }
    return `${text}]}`;
  }

  requestHeaders(atomic?: boolean): Record<string, string> {
    return {
      Accept: 'application/json',
      Prefer: 'odata.continue-on-error',
      ...(atomic ? { Isolation: 'snapshot' } : {}),
    };
  }

  /**
   * Sends one batch; the result has one entry per operation, in order. Throws only for what
   * stops a whole run: bad credentials (AuthError) and usage errors. Ctrl-C marks the
   * operations unknown and rethrows InterruptedError after.
   */
  async send(ops: readonly BatchOp[], opts: BatchOptions = {}): Promise<OpResult[]> {
    let res;
    try {
      res = await this.http.send({
        method: 'POST',
        url: this.url,
        auth: this.auth,
        headers: { ...this.requestHeaders(opts.atomic), 'Content-Type': 'application/json' },
        body: this.bodyText(ops),
        signal: opts.signal,
        describe: opts.label ?? `$batch of ${ops.length} operations`,
        ...(this.pacer ? { pace: { pacer: this.pacer, cost: ops.length } } : {}),
      });
    } catch (e) {
      return sendFailed(e, ops);
    }
    let answer: { responses?: unknown };
    try {
      // (plain JSON.parse: what is read from the answer is statuses, ids, numbers, ETags and error
      // texts, none of which a long number literal could change, so the exact-number scan is skipped)
      answer = res.json<{ responses?: unknown }>(false);
    } catch (e) {
      if (e instanceof ServiceError) return unknownAll(ops, `the batch answer was not JSON (${res.headers['content-type'] ?? 'no content type'})`);
      throw e;
    }
    if (!answer || typeof answer !== 'object' || !Array.isArray(answer.responses)) return unknownAll(ops, 'the batch answer had no responses array');
    const results = resultsOf(answer.responses as Answer[], ops.length);
    if (opts.atomic && results.some((r) => r.kind === 'failed')) {
      // the batch ran as one transaction: the failure undid everything else it did
      return results.map((r) => (r.kind === 'failed' ? { ...r, rolledBack: true } : { kind: 'rolled-back' }));
    }
    return results;
  }
}

const unknownAll = (ops: readonly BatchOp[], reason: string): OpResult[] => ops.map(() => ({ kind: 'unknown', reason }));

/**
 * The outcome of each operation of a batch whose request failed: unknown where the batch may have
 * been done, failed where it was not. Bad credentials and usage errors stop the run (rethrown);
 * Ctrl-C is rethrown carrying the results.
 */
function sendFailed(e: unknown, ops: readonly BatchOp[]): OpResult[] {
  if (!isVxError(e)) throw e;
  if (e instanceof AuthError || e instanceof UsageError) throw e;
  if (e instanceof InterruptedError) {
    // Ctrl-C while the batch was out: it may have been done. Before it went out (waiting for
    // its turn under the rate limit, or to be sent again after a 429 or 503): it was not
    const out = /outcome is unknown/.test(e.message);
    throw Object.assign(e, { results: out ? unknownAll(ops, 'interrupted while the batch was out') : ops.map((): OpResult => ({ kind: 'failed', status: 0, message: 'interrupted before its batch was sent: not done (a rerun sends it)' })) });
  }
  if (e instanceof NetworkError) {
    if (!/outcome is unknown/.test(e.message)) return unknownAll(ops, e.message);
    return unknownAll(ops, /timed out/.test(e.message) ? 'no answer came in time (--timeout) after the batch was sent' : 'the connection was lost after the batch was sent');
  }
  const status = (e as VxError).status;
  // 429 and 503 (after every retry) prove nothing was done; another 5xx does not
  if (e instanceof ThrottledError || status === 503) return ops.map(() => ({ kind: 'failed', status: status ?? 429, code: e.code, message: e.message }));
  if (e instanceof UnavailableError) return unknownAll(ops, `the batch failed with HTTP ${status ?? '5xx'}: ${e.message}`);
  return ops.map(() => ({ kind: 'failed', status: status ?? 0, code: e.code, message: e.message }));
}

type Answer = { id?: unknown; status?: unknown; headers?: unknown; body?: unknown };

/** One result per operation from the batch's responses: in the order of the operations (the usual answer: no lookup needed), or by id. */
function resultsOf(responses: Answer[], n: number): OpResult[] {
  const inOrder = responses.length === n && responses.every((r, i) => r && typeof r === 'object' && (r.id === String(i + 1) || r.id === i + 1));
  let byId: Map<string, Answer> | undefined;
  if (!inOrder) {
    byId = new Map();
    for (const r of responses) if (r && typeof r === 'object' && (typeof r.id === 'string' || typeof r.id === 'number')) byId.set(String(r.id), r);
  }
  return Array.from({ length: n }, (_, i): OpResult => {
    const r = byId ? byId.get(String(i + 1)) : responses[i];
    if (!r || typeof r.status !== 'number') return { kind: 'unknown', reason: 'the batch answer had no response for this operation' };
    if (r.status >= 200 && r.status < 300) return { kind: 'done', status: r.status, headers: lowerKeys(r.headers), body: r.body };
    return { kind: 'failed', status: r.status, ...errorOf(r.body) };
  });
}
