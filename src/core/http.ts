// The one door to the network: one keep-alive connection pool per process, per-request timeouts,
// one retry policy, --debug traces with secrets redacted, and --dry-run.
//
// Two transports sit behind it. Direct connections use node:http/node:https with a keep-alive
// agent sized to the caller's concurrency: loading undici costs 100-170 ms of start-up on these
// machines (its JavaScript and llhttp's WebAssembly), more than a whole GET is allowed. When a
// proxy is configured (HTTPS_PROXY, HTTP_PROXY, any case), the one undici EnvHttpProxyAgent of the
// process carries every request, so proxies and NO_PROXY behave exactly as undici defines them.
// VX_HTTP_CLIENT=undici|node forces either one.
import type { Dispatcher } from 'undici';
import * as nodeHttp from 'node:http';
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import {
  NetworkError,
  ServiceError,
  ThrottledError,
  UnavailableError,
  VxError,
  errorFromResponse,
  InterruptedError,
  isVxError,
  UsageError,
  requestIdOf,
  statusText,
  clip,
  MAX_CODE,
  MAX_MESSAGE,
} from './errors.js';
import type { Paced, Ticket } from './pacer.js';
import { isCredentialHeader, redact, redactHeaders } from './redact.js';
import { parseExact, stringifyExact } from './json.js';
import { sleep as defaultSleep } from './sleep.js';
import { dotSegmentIn, isLoopbackHost, sentUrl } from './url.js';

declare const __VX_VERSION__: string;
export const VERSION: string = typeof __VX_VERSION__ === 'string' ? __VX_VERSION__ : '0.0.0-dev';
export const USER_AGENT = `vx/${VERSION}`;

/**
 * Set (by api/service.ts) on the credential headers of a service, and kept by spreading them into
 * a request's headers: its value is the advice a 401 answer ends with (how to sign in again).
 */
export const SIGN_IN_SERVICE = Symbol('vx.signInService');

/**
 * Set (by api/service.ts) beside SIGN_IN_SERVICE when the credential is a stored sign-in that can
 * expire: it keeps the token current during a long run (a watch, a poll, a bulk import), so a run
 * that outlives its access token goes on with a renewed one instead of ending with a 401.
 */
export const CREDENTIAL_RENEWER = Symbol('vx.credentialRenewer');

export interface CredentialRenewer {
  /**
   * Before a request with `sent`: the headers of the credential in use, renewed first when it has
   * expired (or AuthError when it cannot be); undefined when `sent` carries a credential of its own
   * (`vx api -H 'Authorization: ...'`), which is left alone
   */
  current(sent: Record<string, string>): Promise<Record<string, string> | undefined>;
  /** after a 401 to a request sent with `sent`: headers with a renewed credential to send it once more, or undefined */
  refused(sent: Record<string, string>): Promise<Record<string, string> | undefined>;
}

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string | undefined>;
  /** a string or bytes; objects are sent as JSON */
  body?: string | Uint8Array | object;
  /** the caller declares that repeating this POST/PATCH is harmless (translate does) */
  idempotent?: boolean;
  /** a short label for messages about an unknown outcome, e.g. "create currency" */
  describe?: string;
  /** how to find out whether an ambiguous non-idempotent request took effect */
  checkHint?: string;
  /** statuses that are not errors for this call (e.g. 404 for an existence check) */
  okStatuses?: number[];
  signal?: AbortSignal;
  /**
   * pacing shared with the other requests of a run (see core/pacer.ts): each attempt waits for its
   * turn to spend `cost` units; a 429 teaches the pacer and is retried after its Retry-After
   * without counting against --retries (a request that is only throttled is never given up)
   */
  pace?: { pacer: Paced; cost: number };
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /**
   * parses the body as JSON; a malformed body is a ServiceError, never a crash. Numbers a double
   * cannot hold come back as ExactNumber unless `exact` is false (translate's hot path)
   */
  json<T = unknown>(exact?: boolean): T;
  requestId?: string;
  url: string;
  /**
   * true when an earlier attempt of this request may have reached the service and done its work
   * (a lost answer, a timeout, a 5xx other than 503): a 200 from a repeated PUT may then be the
   * first attempt's own result rather than something that was there before
   */
  afterLostAttempt?: boolean;
}

export interface HttpOptions {
  timeoutMs?: number;
  retries?: number;
  debug?: (line: string) => void;
  dryRun?: boolean;
  signal?: AbortSignal;
  /** for tests: the backoff base and cap */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** how many connections per origin (sized to the caller's concurrency) */
  connections?: number;
  /** responses larger than this are refused */
  maxBodyBytes?: number;
  /** injected clock/sleep/random for tests */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** told about retries and long waits, for a line of progress (rendered by the caller) */
  observer?: HttpObserver;
  /** after how long without an answer `observer.waiting` is first called (default 5 s), then every second */
  waitingAfterMs?: number;
  /**
   * Send credentials over plain http to a host other than this machine (VX_ALLOW_HTTP=1): an
   * on-premises server without TLS, on purpose. Otherwise refused, nothing sent.
   */
  allowHttp?: boolean;
  /**
   * The seam for tests (test/helpers/httpmock.ts): one exchange without a network. Retries,
   * timeouts, tracing, redaction and error mapping around it stay the real ones.
   */
  transport?: Transport;
}

/** One request as a transport sends it, and what it answers. */
export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}
export interface TransportResponse {
  status: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: string | Uint8Array;
}
export type Transport = (req: TransportRequest, signal: AbortSignal) => Promise<TransportResponse>;

/** A retry about to wait: what failed, how long until the next attempt, which attempt that is. */
export interface RetryEvent {
  method: string;
  url: string;
  /** the HTTP status that is retried */
  status?: number;
  /** or the network failure, in words ("connection refused", "no answer in 60 s") */
  failure?: string;
  delayMs: number;
  /** the number of the next attempt (2 for the first retry); absent for a throttled wait that does not count */
  attempt?: number;
  /** how many attempts there are in all (1 + --retries) */
  attempts: number;
}

/** A request still without an answer. */
export interface WaitEvent {
  method: string;
  url: string;
  elapsedMs: number;
  timeoutMs: number;
}

export interface HttpObserver {
  retrying(e: RetryEvent): void;
  waiting(e: WaitEvent): void;
  /** a request ended (answered, failed or given up): a progress line about it can go */
  settled(): void;
}

/** A network failure in a few words for a progress line. */
function failureWords(code: string, timedOut: boolean, ms: number): string {
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
const SAFE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
/**
 * errors that mean the exchange failed on the network (anything else is a bug and is not retried);
 * HPE_* (node:http) and HTTPParserError (undici) are a reply that is not HTTP (a malformed status line
 * or header): the request went out
 */
const NETWORK_CODES =
  /^(HPE_|HTTPParserError|ECONNRESET|ECONNREFUSED|ECONNABORTED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ENETDOWN|ETIMEDOUT|EPIPE|EPROTO|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|UND_ERR_(SOCKET|CONNECT_TIMEOUT|HEADERS_TIMEOUT|BODY_TIMEOUT|CLOSED|DESTROYED|RESPONSE_STATUS|REQ_CONTENT_LENGTH_MISMATCH|RES_CONTENT_LENGTH_MISMATCH|INFO))/;
const MAX_RETRY_AFTER_MS = 120_000;
/** what HTTP does not allow in a header value (node:http's own test): control characters but tab */
const BAD_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
/**
 * response headers accepted (Node's default is 16 KiB): the translator's X-MT-System has one entry
 * per translation, so a full request of 1,000 items to two targets answers about 20 KiB of it
 */
const MAX_HEADER_BYTES = 1024 * 1024;
/** certificate verification failures: permanent, and the request never left the client */
const TLS_TRUST_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_)/;

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
function cappedRetryAfter(res: Pick<HttpResponse, 'headers'>): number | undefined {
  const ra = parseRetryAfter(res.headers['retry-after']);
  return ra === undefined ? undefined : Math.min(ra, MAX_RETRY_AFTER_MS);
}

export function isIdempotent(req: Pick<HttpRequest, 'method' | 'idempotent'>): boolean {
  return req.idempotent === true || IDEMPOTENT_METHODS.has(req.method.toUpperCase());
}

/** The request as --dry-run prints it: method, url, headers with secrets redacted, body. */
export interface RequestDescription {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export class DryRunHalt extends VxError {
  override readonly exitCode = 0;
  constructor() {
    super('dry run');
  }
}

function truncate(s: string, n = 2000): string {
  return s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s;
}

function lowerHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The proxy variable undici's EnvHttpProxyAgent uses for `url` (lower case first; https falls back to the http proxy). */
function proxyVariable(url: string, env: NodeJS.ProcessEnv = process.env): { name: string; value: string } | undefined {
  const names = url.startsWith('https:') ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  for (const name of names) if (env[name]?.trim()) return { name, value: env[name]!.trim() };
  return undefined;
}

/** What to do about a 407 to the tunnel: give the proxy a user and password, or check the ones given (never shown). */
function proxyAuthHint(url: string, env: NodeJS.ProcessEnv = process.env): string {
  const proxy = proxyVariable(url, env);
  let withUser = false;
  try {
    withUser = Boolean(proxy && new URL(proxy.value).username);
  } catch {
    /* not a URL: undici refused it earlier */
  }
  return proxy && withUser
    ? `the proxy refused the user and password in ${proxy.name}: check them (an @, :, / or % inside them must be percent-encoded)`
    : 'the proxy asks for a user and password: put them in its address in HTTPS_PROXY or HTTP_PROXY, as user:password@ before its host';
}

/**
 * The transport a process uses: undici when a proxy is configured or forced, else node:http.
 * VX_HTTP_CLIENT (any case; empty is unset) forces one; another value is a usage error, not ignored.
 */
export function chooseTransport(env: NodeJS.ProcessEnv = process.env): 'undici' | 'node' {
  const forced = env.VX_HTTP_CLIENT?.trim().toLowerCase();
  if (forced === 'undici' || forced === 'node') return forced;
  if (forced) throw new UsageError(`invalid value "${env.VX_HTTP_CLIENT}" for VX_HTTP_CLIENT: expected undici or node`);
  const proxy = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((k) => Boolean(env[k]?.trim()));
  return proxy ? 'undici' : 'node';
}

/**
 * The proxy variables undici's EnvHttpProxyAgent reads (lower case first), checked before it is
 * made: one that is not an http(s) URL (`proxy.corp:8080` without a scheme, a mistyped address)
 * was a false "network error" (exit 8) or a bare "Invalid URL" (exit 1). Its value is never
 * shown: it may hold the proxy's password.
 */
export function checkProxyVariables(env: NodeJS.ProcessEnv = process.env): void {
  for (const names of [['http_proxy', 'HTTP_PROXY'], ['https_proxy', 'HTTPS_PROXY']]) {
    const name = names.find((n) => env[n] !== undefined);
    const value = name && env[name];
    if (!value) continue;
    let ok = false;
    try {
      const u = new URL(value);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname);
    } catch {
      ok = false;
    }
    if (!ok) {
      throw new UsageError(`${name} is not a proxy address vx can use: expected http://host:port, with user:password@ before the host when the proxy asks for them (its value is not shown); nothing was sent`);
    }
  }
}

/** VX_ALLOW_HTTP: 1 (or true, yes) lets credentials go over plain http to other machines; 0, false, no or unset does not. */
export function allowHttpFrom(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.VX_ALLOW_HTTP?.trim().toLowerCase();
  if (!v || v === '0' || v === 'false' || v === 'no') return false;
  if (v === '1' || v === 'true' || v === 'yes') return true;
  throw new UsageError(`invalid value "${env.VX_ALLOW_HTTP}" for VX_ALLOW_HTTP: expected 1 or 0`);
}

interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: import('node:stream').Readable;
}

/**
 * A per-request abort switch (the deadline or the caller's signal) without the costs of an
 * AbortController and an EventTarget listener per request, which measured ~4 ms per 100 pages.
 */
class Aborter {
  aborted = false;
  reason: unknown;
  private fn?: (reason: unknown) => void;

  /** the transport's way to stop the request (called at once when already aborted) */
  onAbort(fn: (reason: unknown) => void): void {
    if (this.aborted) fn(this.reason);
    else this.fn = fn;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.fn?.(reason);
  }

  /** an AbortSignal for APIs that need one (undici) */
  signal(): AbortSignal {
    const ac = new AbortController();
    this.onAbort((r) => ac.abort(r));
    return ac.signal;
  }
}

function abortError(): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/**
 * Reads a response body whole with plain 'data' events (cheaper per page than async iteration
 * over the stream); more than `max` bytes destroys the stream and rejects with `tooLarge()`.
 */
function readBody(body: import('node:stream').Readable, max: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      reject(e);
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > max) {
        fail(tooLarge());
        body.destroy();
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    });
    body.once('error', fail);
    body.once('close', () => {
      if (!settled) fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    });
  });
}

const ERROR_BODY = /^\s*\{\s*"error"\s*:\s*\{/;

/**
 * A 2xx answer whose body is the error shape every family defines (`{"error": {"code", "message"}}`,
 * and nothing else but annotations): a failure the service reported with the wrong status. It is a
 * service error (exit 1) naming the code and message, not a success with an odd payload.
 */
function errorInSuccess(res: HttpResponse, method: string): ServiceError | undefined {
  if (res.body.length < 12 || res.body[0] === 0x5b /* [ */ || !ERROR_BODY.test(res.body.subarray(0, 64).toString('latin1'))) return undefined;
  let body: { error?: { code?: unknown; message?: unknown } };
  try {
    body = JSON.parse(res.text);
  } catch {
    return undefined;
  }
  const e = body.error;
  if (!e || typeof e !== 'object' || Object.keys(body).some((k) => k !== 'error' && !k.startsWith('@'))) return undefined;
  // redacted before they are cut (a secret cut in two is not recognised)
  const code = clip(typeof e.code === 'string' ? redact(e.code) : undefined, MAX_CODE);
  const message = clip(typeof e.message === 'string' ? redact(e.message) : undefined, MAX_MESSAGE);
  if (code === undefined && message === undefined) return undefined;
  return new ServiceError(
    `HTTP ${res.status} from ${method} ${redact(res.url)} carried an error instead of a result: ${[code, message].filter(Boolean).join(': ')}${res.requestId ? ` (request id ${res.requestId})` : ''}`,
    { status: res.status, code, requestId: res.requestId },
  );
}

export class Http {
  private dispatcher: Dispatcher | undefined;
  private undici: typeof import('undici') | undefined;
  private agents: { http?: HttpAgent; https?: HttpAgent } = {};
  /** the requests out under each caller signal: one listener per signal, not one per request */
  private readonly watched = new WeakMap<AbortSignal, Set<Aborter>>();
  private nodeHttps: typeof import('node:https') | undefined;
  readonly transport = chooseTransport();
  /** requests recorded in dry-run mode */
  readonly planned: RequestDescription[] = [];
  /** every response's timing and request id, for --verbose */
  readonly exchanges: { method: string; url: string; status: number; ms: number; requestId?: string }[] = [];

  constructor(readonly opts: HttpOptions = {}) {}

  get dryRun(): boolean {
    return Boolean(this.opts.dryRun);
  }

  private async agent(): Promise<{ undici: typeof import('undici'); dispatcher: Dispatcher }> {
    if (!this.undici) {
      const mod = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
      this.undici = mod.default ?? mod;
    }
    if (!this.dispatcher) {
      checkProxyVariables();
      const timeout = this.opts.timeoutMs ?? 60_000;
      // TLS verification is always on, whatever NODE_TLS_REJECT_UNAUTHORIZED says; extra CAs come
      // from NODE_EXTRA_CA_CERTS (read by Node into the default trust store).
      const tls = { rejectUnauthorized: true };
      this.dispatcher = new this.undici.EnvHttpProxyAgent({
        connect: tls,
        requestTls: tls,
        proxyTls: tls,
        connections: this.opts.connections ?? 16,
        maxHeaderSize: MAX_HEADER_BYTES,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        connectTimeout: Math.min(timeout, 30_000),
        keepAliveTimeout: 10_000,
      });
    }
    return { undici: this.undici, dispatcher: this.dispatcher };
  }

  /** Closes the pool so the process can exit at once. */
  async close(): Promise<void> {
    const d = this.dispatcher;
    this.dispatcher = undefined;
    this.agents.http?.destroy();
    this.agents.https?.destroy();
    this.agents = {};
    if (d) await d.destroy().catch(() => undefined);
  }

  private async nodeRequest(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    aborter: Aborter,
    timeout: number,
  ): Promise<RawResponse> {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    if (!secure && u.protocol !== 'http:') throw new NetworkError(`${method} ${redact(url)}: unsupported protocol ${u.protocol}`);
    // node:https (TLS, crypto) only when an https address is used
    if (secure) this.nodeHttps ??= await import('node:https');
    const mod = secure ? this.nodeHttps! : nodeHttp;
    const key = secure ? 'https' : 'http';
    // rejectUnauthorized: TLS verification stays on whatever NODE_TLS_REJECT_UNAUTHORIZED says
    const agent = (this.agents[key] ??= new mod.Agent({ keepAlive: true, maxSockets: this.opts.connections ?? 16, keepAliveMsecs: 10_000, rejectUnauthorized: true }));
    const h: Record<string, string> = { ...headers };
    // a text body goes out as bytes: node:http writes a string through writev's string path, which
    // measured ~2x the CPU of the conversion plus a buffer write (~10 ms per 100 $batch requests
    // of 100 operations); the length comes with it
    const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    if (data !== undefined) h['content-length'] = String(data.byteLength);
    return new Promise<RawResponse>((resolve, reject) => {
      const req = mod.request(u, { method, headers: h, agent, maxHeaderSize: MAX_HEADER_BYTES });
      // the deadline or the caller stops the request (and its response, once it is being read)
      aborter.onAbort(() => req.destroy(abortError()));
      // a connection that does not complete within the timeout (the signal covers the rest); a
      // reused keep-alive socket is connected already and needs no timer
      req.once('socket', (socket) => {
        if (!socket.connecting) return;
        const ms = Math.min(timeout, 30_000);
        const t = setTimeout(() => {
          const err = new Error(`connect timed out after ${ms} ms`) as NodeJS.ErrnoException;
          err.code = 'UND_ERR_CONNECT_TIMEOUT';
          req.destroy(err);
        }, ms);
        const clear = () => clearTimeout(t);
        socket.once('connect', clear);
        req.once('close', clear);
      });
      req.on('error', reject);
      req.on('response', (res: IncomingMessage) => {
        res.on('error', () => undefined);
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      req.end(data);
    });
  }

  private async undiciRequest(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal,
  ): Promise<RawResponse> {
    const { undici, dispatcher } = await this.agent();
    const r = await undici.request(url, { method: method as Dispatcher.HttpMethod, headers, body, dispatcher, signal });
    return { statusCode: r.statusCode, headers: r.headers, body: r.body };
  }

  private encode(req: HttpRequest): { headers: Record<string, string>; body?: string | Uint8Array } {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT };
    let body: string | Uint8Array | undefined;
    if (req.body !== undefined) {
      if (typeof req.body === 'string' || req.body instanceof Uint8Array) body = req.body;
      else {
        // numbers a double cannot hold (ExactNumber) go out as written
        body = stringifyExact(req.body);
        headers['content-type'] = 'application/json';
      }
    }
    for (const [k, v] of Object.entries(req.headers ?? {})) {
      if (v === undefined) continue;
      // a CR/LF (or another character HTTP forbids) from a setting or --header: bad input, refused here
      // for every transport alike (node:http threw exit 1, undici "network error" exit 8); the
      // value itself is never shown (it may be a key)
      if (BAD_HEADER_VALUE.test(v)) throw new UsageError(`the ${k} header holds a character a header cannot carry (a line break or another control character, or one beyond Latin-1); nothing was sent`);
      headers[k.toLowerCase()] = v;
    }
    this.checkCleartext(req, headers);
    return { headers, body };
  }

  /**
   * Refuses to send a credential (a key or token header, or a stored sign-in) over plain http to a
   * host other than this machine, where anyone on the way can read it: an endpoint typed or copied
   * with http:// sent the key in clear without a word. The emulator (loopback) is fine;
   * VX_ALLOW_HTTP=1 allows the rest, for a server without TLS on purpose.
   */
  private checkCleartext(req: HttpRequest, headers: Record<string, string>): void {
    if (this.opts.allowHttp || !req.url.startsWith('http:')) return;
    let u: URL;
    try {
      u = new URL(req.url);
    } catch {
      return; // said by the transport
    }
    if (isLoopbackHost(u.hostname)) return;
    const renewer = (req.headers as Record<symbol, unknown> | undefined)?.[CREDENTIAL_RENEWER];
    if (!renewer && !Object.keys(headers).some(isCredentialHeader)) return;
    throw new UsageError(`${req.method.toUpperCase()} ${redact(req.url)}: the endpoint is plain http to another machine, and vx sends credentials (keys, tokens) only over https (plain http only to this machine: 127.0.0.1, ::1, localhost); nothing was sent`, {
      hint: 'use the https address of the service; to send credentials in clear anyway (a server without TLS on a network you trust), set VX_ALLOW_HTTP=1',
    });
  }

  /**
   * Refuses a URL whose path holds a dot segment: node:http and undici collapse it, so the request
   * would reach another resource than the one named (the families build their paths with
   * core/url.ts pathSegment, which refuses such values with a better message; this catches the rest).
   */
  private checkPath(url: string): void {
    const dot = dotSegmentIn(url);
    if (dot !== undefined) {
      throw new UsageError(
        `${redact(url)}: the path holds the dot segment "${dot}", which would be sent as ${redact(sentUrl(url))} (another resource); nothing was sent`,
      );
    }
  }

  describe(req: HttpRequest): RequestDescription {
    this.checkPath(req.url);
    const { headers, body } = this.encode(req);
    // the URL exactly as it would go out (percent-encoding as the transports apply it)
    const d: RequestDescription = { method: req.method.toUpperCase(), url: redact(sentUrl(req.url)), headers: redactHeaders(headers) };
    if (body !== undefined) {
      const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
      try {
        d.body = parseExact(redact(text));
      } catch {
        d.body = redact(text);
      }
    }
    return d;
  }

  /** Records a request for --dry-run without sending it. */
  plan(req: HttpRequest): void {
    this.planned.push(this.describe(req));
  }

  private trace(line: string): void {
    this.opts.debug?.(redact(line));
  }

  /**
   * Sends a request, retrying what the policy allows. Returns 2xx responses (and okStatuses);
   * every other outcome is thrown as the VxError of its class.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    if (this.opts.dryRun) {
      this.plan(req);
      throw new DryRunHalt();
    }
    this.checkPath(req.url);
    if (!this.opts.observer) return this.sendWithRetries(req);
    try {
      return await this.sendWithRetries(req);
    } finally {
      this.opts.observer.settled();
    }
  }

  /** `once` with the observer told when no answer came for a while (every second after the first notice). */
  private async onceObserved(method: string, url: string, headers: Record<string, string>, body: string | Uint8Array | undefined, signal: AbortSignal | undefined): Promise<HttpResponse> {
    const observer = this.opts.observer;
    if (!observer) return this.once(method, url, headers, body, signal);
    const started = performance.now();
    const timeoutMs = this.opts.timeoutMs ?? 60_000;
    let tick: NodeJS.Timeout | undefined;
    const notify = () => observer.waiting({ method, url, elapsedMs: Math.round(performance.now() - started), timeoutMs });
    const first = setTimeout(() => {
      notify();
      tick = setInterval(notify, 1000);
      tick.unref();
    }, this.opts.waitingAfterMs ?? 5000);
    first.unref();
    try {
      return await this.once(method, url, headers, body, signal);
    } finally {
      clearTimeout(first);
      if (tick) clearInterval(tick);
    }
  }

  private async sendWithRetries(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method.toUpperCase();
    const idempotent = isIdempotent(req);
    const maxRetries = Math.max(0, this.opts.retries ?? 4);
    const sleep = this.opts.sleep ?? defaultSleep;
    const encoded = this.encode(req);
    const body = encoded.body;
    let headers = encoded.headers;
    const signal = req.signal ?? this.opts.signal;
    const renewer = (req.headers as Record<symbol, unknown> | undefined)?.[CREDENTIAL_RENEWER] as CredentialRenewer | undefined;
    if (renewer) headers = { ...headers, ...lowerHeaders((await renewer.current(headers)) ?? {}) };
    // a 401 with a stored sign-in: renewed and sent once more (a 401 means the request was not carried out)
    let renewedAfter401 = false;
    let attempt = 0;
    let lost = false;
    // 429s of a paced request since the run last made progress (see below)
    let throttledTries = 0;
    let throttledAt = -1;
    for (;;) {
      if (signal?.aborted) throw new InterruptedError();
      const ticket: Ticket | undefined = req.pace ? await req.pace.pacer.acquire(req.pace.cost, signal) : undefined;
      try {
        const started = performance.now();
        if (this.opts.debug) {
          this.trace(`> ${method} ${req.url}${attempt ? ` (retry ${attempt})` : ''}`);
          for (const [k, v] of Object.entries(redactHeaders(headers))) this.trace(`> ${k}: ${v}`);
          // redacted before it is cut: a secret cut in two would no longer be recognised
          if (body !== undefined) this.trace(`> ${truncate(typeof body === 'string' ? redact(body) : `<${body.byteLength} bytes>`)}`);
        }
        let res: HttpResponse;
        try {
          res = await this.onceObserved(method, req.url, headers, body, signal);
        } catch (err) {
          const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
          const code = e.code ?? e.cause?.code ?? e.name;
          const ms = Math.round(performance.now() - started);
          if (signal?.aborted) {
            // Ctrl-C while a non-idempotent request was out: it may have reached the service
            if (!idempotent) {
              throw new InterruptedError(
                `interrupted while waiting for the answer to ${req.describe ?? `${method} ${redact(req.url)}`}; the outcome is unknown (it may or may not have taken effect)` +
                  (req.checkHint ? `; check with: ${req.checkHint}` : ''),
              );
            }
            throw new InterruptedError();
          }
          if (isVxError(err)) throw err;
          this.trace(`< ${code} after ${ms} ms: ${e.message}`);
          if (TLS_TRUST_CODES.test(String(code))) {
            // retrying cannot help, and nothing reached the server
            throw new NetworkError(
              `${method} ${redact(req.url)}: the server's TLS certificate is not trusted (${code}: ${e.message}); nothing was sent`,
              { hint: 'if it is signed by a private CA, point NODE_EXTRA_CA_CERTS at that CA certificate (PEM); vx never turns verification off' },
            );
          }
          // undici's proxy agent: the proxy refused the tunnel (CONNECT) to the service
          const proxied = /^Proxy response \((\d{3})\)/.exec(e.message ?? '');
          if (proxied) {
            const status = Number(proxied[1]);
            throw new NetworkError(
              `${method} ${redact(req.url)}: the proxy refused to connect to the service (HTTP ${status}${statusText(status) ? ` ${statusText(status)}` : ''}); nothing was sent`,
              status === 407 ? { hint: proxyAuthHint(req.url) } : {},
            );
          }
          if (!NETWORK_CODES.test(String(code)) && e.name !== 'TimeoutError') throw err;
          const nothingSent = SAFE_NETWORK_CODES.has(String(code));
          const timedOut = /Timeout|TIMEDOUT|aborted/i.test(String(code)) || e.name === 'TimeoutError';
          const what = timedOut
            ? `timed out after ${ms} ms`
            : /^(HPE_|HTTPParserError)/.test(String(code))
              ? `the answer was not valid HTTP (${e.message}; ${code})`
              : `${e.message}${code && !e.message?.includes(String(code)) ? ` (${code})` : ''}`;
          if (idempotent || nothingSent) {
            if (!nothingSent) lost = true;
            if (attempt < maxRetries) {
              const delay = retryDelay(attempt, undefined, { baseMs: this.opts.backoffBaseMs, capMs: this.opts.backoffCapMs, random: this.opts.random });
              this.trace(`retrying in ${delay} ms`);
              this.opts.observer?.retrying({ method, url: req.url, failure: failureWords(String(code), timedOut, ms), delayMs: delay, attempt: attempt + 2, attempts: maxRetries + 1 });
              await sleep(delay, signal);
              attempt++;
              continue;
            }
            throw new NetworkError(`${method} ${redact(req.url)}: ${what}${attempt ? ` (after ${attempt + 1} attempts)` : ''}`);
          }
          const label = req.describe ?? `${method} ${redact(req.url)}`;
          throw new NetworkError(
            `${label}: ${what}; the outcome is unknown (the request may or may not have taken effect) and it was not repeated` +
              (req.checkHint ? `; check with: ${req.checkHint}` : ''),
          );
        }
        const ms = Math.round(performance.now() - started);
        this.exchanges.push({ method, url: req.url, status: res.status, ms, requestId: res.requestId });
        if (this.opts.debug) {
          this.trace(`< ${res.status} (${ms} ms)`);
          for (const [k, v] of Object.entries(redactHeaders(res.headers))) this.trace(`< ${k}: ${v}`);
          if (res.body.length) this.trace(`< ${truncate(redact(res.text))}`);
        }
        if ((res.status >= 200 && res.status < 300) || req.okStatuses?.includes(res.status)) {
          if (ticket) req.pace!.pacer.accepted(ticket);
          // (an okStatuses answer such as a 404 carries its error body by right)
          const hidden = res.status < 300 ? errorInSuccess(res, method) : undefined;
          if (hidden) throw hidden;
          if (lost) res.afterLostAttempt = true;
          return res;
        }
        // throttled: the pacer learns the rate and says when to try again. While the run makes
        // progress (a request of the run was accepted since this one was last throttled) a 429 does
        // not count against --retries, so a line that is only throttled is never given up; a service
        // that answers nothing but 429 meets --retries as the contract says (exit 6, "429 after all
        // retries"; at once with --retries 0)
        const progress = ticket ? (req.pace!.pacer.stats?.().accepted ?? 0) : 0;
        if (ticket && res.status === 429 && progress > throttledAt) {
          if (throttledAt >= 0) throttledTries = 0;
          throttledAt = progress;
        }
        if (ticket && res.status === 429 && throttledTries++ < maxRetries) {
          const delay = Math.round(Math.min(req.pace!.pacer.throttled(ticket, cappedRetryAfter(res)), MAX_RETRY_AFTER_MS));
          this.trace(`throttled; retrying in ${delay} ms`);
          this.opts.observer?.retrying({ method, url: req.url, status: res.status, delayMs: delay, attempts: maxRetries + 1 });
          await sleep(delay, signal);
          continue;
        }
        if (ticket && res.status === 429) {
          // given up: the ticket goes back to the pacer (what it learns still counts), no other retry
          req.pace!.pacer.throttled(ticket, cappedRetryAfter(res));
          const error = errorFromResponse(res.status, res.text, res.headers);
          error.retryAfterMs = cappedRetryAfter(res);
          if (throttledTries > 1) error.message += ` (after ${throttledTries} attempts)`;
          throw error;
        }
        const canRetry = RETRYABLE_STATUS.has(res.status) && (idempotent || NOTHING_DONE_STATUS.has(res.status));
        if (canRetry && !NOTHING_DONE_STATUS.has(res.status)) lost = true;
        if (canRetry && attempt < maxRetries) {
          const delay = retryDelay(attempt, res.headers['retry-after'], {
            baseMs: this.opts.backoffBaseMs,
            capMs: this.opts.backoffCapMs,
            random: this.opts.random,
          });
          this.trace(`retrying in ${delay} ms`);
          this.opts.observer?.retrying({ method, url: req.url, status: res.status, delayMs: delay, attempt: attempt + 2, attempts: maxRetries + 1 });
          await sleep(delay, signal);
          attempt++;
          continue;
        }
        if (res.status === 401 && renewer && !renewedAfter401) {
          renewedAfter401 = true;
          const fresh = await renewer.refused(headers);
          if (fresh) {
            headers = { ...headers, ...lowerHeaders(fresh) };
            this.trace('the credential was refused; sending once more with the renewed sign-in');
            continue;
          }
        }
        const error = errorFromResponse(res.status, res.text, res.headers);
        error.retryAfterMs = cappedRetryAfter(res);
        const advice = (req.headers as Record<symbol, unknown> | undefined)?.[SIGN_IN_SERVICE];
        if (res.status === 401 && typeof advice === 'string' && !error.hint) error.hint = advice;
        // the answer to a repeat is not the whole story: the attempt whose answer was lost may have
        // done the work (a 404 to a repeated DELETE, a 412 to a repeated PUT); not for a POST its
        // caller declared harmless to repeat (a translation, a read such as fetchEventDetails)
        if (lost && !error.hint && method !== 'GET' && method !== 'HEAD' && req.idempotent !== true) error.hint = `an earlier attempt of this ${method} got no answer and may have been carried out: check before repeating it`;
        if (attempt > 0 && (error instanceof ThrottledError || error instanceof UnavailableError)) {
          error.message += ` (after ${attempt + 1} attempts)`;
        }
        throw error;
      } finally {
        // a ticket the service neither accepted nor throttled (a failure, another status) goes back unlearned
        if (ticket) req.pace!.pacer.released?.(ticket);
      }
    }
  }

  private async once(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal | undefined,
  ): Promise<HttpResponse> {
    const timeout = this.opts.timeoutMs ?? 60_000;
    // loading the transport is start-up work, not part of the exchange the timeout bounds
    if (this.transport === 'undici') await this.agent();
    // one switch thrown by the deadline or by the caller's signal
    const aborter = new Aborter();
    const deadline = setTimeout(() => aborter.abort(new DOMException('timed out', 'TimeoutError')), timeout);
    let watchers: Set<Aborter> | undefined;
    if (signal) {
      if (signal.aborted) aborter.abort(signal.reason);
      else {
        watchers = this.watched.get(signal);
        if (!watchers) {
          const set = new Set<Aborter>();
          watchers = set;
          this.watched.set(signal, set);
          signal.addEventListener('abort', () => {
            for (const a of set) a.abort(signal.reason);
          }, { once: true });
        }
        watchers.add(aborter);
      }
    }
    try {
      return await this.exchange(method, url, headers, body, signal, aborter, timeout);
    } finally {
      clearTimeout(deadline);
      watchers?.delete(aborter);
    }
  }

  private async viaTransport(transport: Transport, req: TransportRequest, signal: AbortSignal): Promise<RawResponse> {
    const { Readable } = await import('node:stream');
    const res = await transport(req, signal);
    const body = res.body === undefined ? Buffer.alloc(0) : Buffer.from(res.body);
    return { statusCode: res.status, headers: res.headers ?? {}, body: Readable.from([body]) };
  }

  private async exchange(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal | undefined,
    aborter: Aborter,
    timeout: number,
  ): Promise<HttpResponse> {
    // thrown by the deadline (the only other thrower is the caller's signal, which is then aborted)
    const timedOut = () => aborter.aborted && !signal?.aborted;
    let r: RawResponse;
    try {
      r = this.opts.transport
        ? await this.viaTransport(this.opts.transport, { method, url, headers, body }, aborter.signal())
        : this.transport === 'undici'
          ? await this.undiciRequest(method, url, headers, body, aborter.signal())
          : await this.nodeRequest(method, url, headers, body, aborter, timeout);
    } catch (e) {
      if (timedOut()) {
        const err = new Error(`timed out after ${timeout} ms`) as NodeJS.ErrnoException;
        err.code = 'ETIMEDOUT';
        throw err;
      }
      throw e;
    }
    const max = this.opts.maxBodyBytes ?? 256 * 1024 * 1024;
    let buf: Buffer;
    try {
      buf = await readBody(r.body, max, () => new ServiceError(`${method} ${redact(url)}: response larger than ${max} bytes; refused`));
    } catch (e) {
      if (isVxError(e)) throw e;
      if (timedOut()) {
        const err = new Error(`timed out after ${timeout} ms while reading the response`) as NodeJS.ErrnoException;
        err.code = 'ETIMEDOUT';
        throw err;
      }
      throw e;
    }
    const h = lowerHeaders(r.headers);
    let text: string | undefined;
    const res: HttpResponse = {
      status: r.statusCode,
      headers: h,
      body: buf,
      url,
      get text() {
        // a UTF-8 byte order mark is dropped, as the WHATWG decoders (fetch's json(), TextDecoder) do
        return (text ??= buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.toString('utf8', 3) : buf.toString('utf8'));
      },
      requestId: requestIdOf((name) => h[name]),
      json<T>(exact = true): T {
        const t = res.text;
        try {
          // numbers a double cannot hold are kept exact (core/json.ts)
          return (exact ? parseExact(t) : JSON.parse(t)) as T;
        } catch (e) {
          if (e instanceof RangeError) {
            throw new ServiceError(`HTTP ${r.statusCode} from ${method} ${redact(url)}: the response nests too deeply for vx to read (${e.message})`, {
              status: r.statusCode,
              requestId: res.requestId,
            });
          }
          const ct = h['content-type'] ?? 'no content type';
          // redacted before it is cut (a token answer cut short must not show the start of the token)
          const shown = redact(t.trim());
          const peek = shown.slice(0, 60).replace(/\s+/g, ' ');
          throw new ServiceError(
            `HTTP ${r.statusCode} from ${method} ${redact(url)}: the response is not valid JSON (${ct}${peek ? `: "${peek}${shown.length > 60 ? '…' : ''}"` : ', empty body'})`,
            { status: r.statusCode, requestId: res.requestId },
          );
        }
      },
    };
    return res;
  }
}
