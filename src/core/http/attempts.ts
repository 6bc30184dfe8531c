// One request through its attempts: what a failure or an answer means under the retry policy (wait
// and try again, renew the credential once, or give up with the error of its class).
import {
  errorFromResponse,
  InterruptedError,
  isVxError,
  NetworkError,
  statusText,
  ThrottledError,
  UnavailableError,
  type VxError,
} from '../errors.js';
import type { Ticket } from '../pacer.js';
import { redact, redactHeaders } from '../redact.js';
import { sleep as defaultSleep } from '../sleep.js';
import type { Authenticator } from './auth.js';
import {
  cappedRetryAfter,
  failureWords,
  isIdempotent,
  MAX_RETRY_AFTER_MS,
  NETWORK_CODES,
  NOTHING_DONE_STATUS,
  RETRYABLE_STATUS,
  retryDelay,
  SAFE_NETWORK_CODES,
  TLS_TRUST_CODES,
} from './policy.js';
import { proxyAuthHint } from './proxy.js';
import { errorInSuccess, lowerHeaders } from './response.js';
import type { HttpOptions, HttpRequest, HttpResponse } from './types.js';

function truncate(s: string, n = 2000): string {
  return s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s;
}

type Failure = NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };

/**
 * Whether the request's own headers replace every credential header of its authenticator
 * (`vx api -H 'Authorization: ...'`): that credential is the caller's, and is neither renewed nor
 * sent again with another.
 */
function ownCredential(req: HttpRequest): boolean {
  if (!req.auth || !req.headers) return false;
  const given = new Set(Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [k.toLowerCase()])));
  return req.auth.secretHeaders.every((name) => given.has(name.toLowerCase()));
}

export class Attempts {
  readonly method: string;
  readonly signal: AbortSignal | undefined;
  private readonly idempotent: boolean;
  private readonly maxRetries: number;
  /** the authenticator that puts its credential in (not when the request carries its own) */
  private readonly auth: Authenticator | undefined;
  /** the retry about to be made (0: the first attempt) */
  attempt = 0;
  /** an earlier attempt may have reached the service and done its work */
  private lost = false;
  // 429s of a paced request since the run last made progress (see throttled())
  private throttledTries = 0;
  private throttledAt = -1;
  /** a 401 with a stored sign-in: renewed and sent once more (a 401 means the request was not carried out) */
  private renewedAfter401 = false;

  constructor(
    readonly req: HttpRequest,
    /** the headers of the next attempt */
    public headers: Record<string, string>,
    private readonly opts: HttpOptions,
    private readonly trace: (line: string) => void,
  ) {
    this.method = req.method.toUpperCase();
    this.idempotent = isIdempotent(req);
    this.maxRetries = Math.max(0, opts.retries ?? 4);
    this.signal = req.signal ?? opts.signal;
    this.auth = req.auth && !ownCredential(req) ? req.auth : undefined;
  }

  /**
   * Puts the credential in use in the headers (a stored sign-in renewed first when it has expired).
   * Called once the request has passed its checks: a request refused by them sends no renewal.
   */
  async applyCredential(shown: Record<string, string> | undefined): Promise<void> {
    if (!this.auth) return;
    const current = await this.auth.apply();
    if (current !== shown) this.headers = { ...this.headers, ...lowerHeaders(current) };
  }

  /** --debug: the attempt about to go out, secrets masked. */
  traceRequest(body: string | Uint8Array | undefined): void {
    if (!this.opts.debug) return;
    this.trace(`> ${this.method} ${this.req.url}${this.attempt ? ` (retry ${this.attempt})` : ''}`);
    for (const [k, v] of Object.entries(redactHeaders(this.headers, this.req.auth?.secretHeaders))) this.trace(`> ${k}: ${v}`);
    // redacted before it is cut: a secret cut in two would no longer be recognised
    if (body !== undefined) this.trace(`> ${truncate(typeof body === 'string' ? redact(body) : `<${body.byteLength} bytes>`)}`);
  }

  /** --debug: the answer, secrets masked. */
  traceResponse(res: HttpResponse, ms: number): void {
    if (!this.opts.debug) return;
    this.trace(`< ${res.status} (${ms} ms)`);
    for (const [k, v] of Object.entries(redactHeaders(res.headers))) this.trace(`< ${k}: ${v}`);
    if (res.body.length) this.trace(`< ${truncate(redact(res.text))}`);
  }

  private label(): string {
    return this.req.describe ?? `${this.method} ${redact(this.req.url)}`;
  }

  private async wait(delay: number): Promise<void> {
    await (this.opts.sleep ?? defaultSleep)(delay, this.signal);
  }

  /** The next attempt's wait by backoff (or the server's Retry-After), told to the trace and the observer. */
  private async backoff(event: { status?: number; failure?: string }, retryAfter?: string): Promise<void> {
    const delay = retryDelay(this.attempt, retryAfter, { baseMs: this.opts.backoffBaseMs, capMs: this.opts.backoffCapMs, random: this.opts.random });
    this.trace(`retrying in ${delay} ms`);
    this.opts.observer?.retrying({ method: this.method, url: this.req.url, ...event, delayMs: delay, attempt: this.attempt + 2, attempts: this.maxRetries + 1 });
    await this.wait(delay);
    this.attempt++;
  }

  /** An attempt that got no answer: waits for the next one when the policy allows it, else throws the error of its class. */
  async failed(err: unknown, ms: number): Promise<void> {
    const e = err as Failure;
    const code = String(e.code ?? e.cause?.code ?? e.name);
    this.refuseHopeless(err, code, ms);
    const nothingSent = SAFE_NETWORK_CODES.has(code);
    const timedOut = /Timeout|TIMEDOUT|aborted/i.test(code) || e.name === 'TimeoutError';
    const what = timedOut
      ? `timed out after ${ms} ms`
      : /^(HPE_|HTTPParserError)/.test(code)
        ? `the answer was not valid HTTP (${e.message}; ${code})`
        : `${e.message}${code && !e.message?.includes(code) ? ` (${code})` : ''}`;
    if (this.idempotent || nothingSent) {
      if (!nothingSent) this.lost = true;
      if (this.attempt < this.maxRetries) return this.backoff({ failure: failureWords(code, timedOut, ms) });
      throw new NetworkError(`${this.method} ${redact(this.req.url)}: ${what}${this.attempt ? ` (after ${this.attempt + 1} attempts)` : ''}`);
    }
    throw new NetworkError(
      `${this.label()}: ${what}; the outcome is unknown (the request may or may not have taken effect) and it was not repeated` +
        (this.req.checkHint ? `; check with: ${this.req.checkHint}` : ''),
    );
  }

  /** Throws what no retry can help: Ctrl-C, an error of vx's own, an untrusted certificate, a proxy's refusal, a bug. */
  private refuseHopeless(err: unknown, code: string, ms: number): void {
    const e = err as Failure;
    if (this.signal?.aborted) {
      // Ctrl-C while a non-idempotent request was out: it may have reached the service
      if (!this.idempotent) {
        throw new InterruptedError(
          `interrupted while waiting for the answer to ${this.label()}; the outcome is unknown (it may or may not have taken effect)` +
            (this.req.checkHint ? `; check with: ${this.req.checkHint}` : ''),
        );
      }
      throw new InterruptedError();
    }
    if (isVxError(err)) throw err;
    this.trace(`< ${code} after ${ms} ms: ${e.message}`);
    if (TLS_TRUST_CODES.test(code)) {
      // retrying cannot help, and nothing reached the server
      throw new NetworkError(`${this.method} ${redact(this.req.url)}: the server's TLS certificate is not trusted (${code}: ${e.message}); nothing was sent`, {
        hint: 'if it is signed by a private CA, point NODE_EXTRA_CA_CERTS at that CA certificate (PEM); vx never turns verification off',
      });
    }
    // undici's proxy agent: the proxy refused the tunnel (CONNECT) to the service
    const proxied = /^Proxy response \((\d{3})\)/.exec(e.message ?? '');
    if (proxied) {
      const status = Number(proxied[1]);
      throw new NetworkError(
        `${this.method} ${redact(this.req.url)}: the proxy refused to connect to the service (HTTP ${status}${statusText(status) ? ` ${statusText(status)}` : ''}); nothing was sent`,
        status === 407 ? { hint: proxyAuthHint(this.req.url, this.opts.env ?? {}) } : {},
      );
    }
    if (!NETWORK_CODES.test(code) && e.name !== 'TimeoutError') throw err;
  }

  /**
   * An answer: the response when it is the result, undefined when the request is to be sent again
   * (after the wait), else the error of its class is thrown.
   */
  async answered(res: HttpResponse, ticket: Ticket | undefined): Promise<HttpResponse | undefined> {
    const { req } = this;
    if ((res.status >= 200 && res.status < 300) || req.okStatuses?.includes(res.status)) {
      if (ticket) req.pace!.pacer.accepted(ticket);
      // (an okStatuses answer such as a 404 carries its error body by right)
      const hidden = res.status < 300 ? errorInSuccess(res, this.method) : undefined;
      if (hidden) throw hidden;
      if (this.lost) res.afterLostAttempt = true;
      return res;
    }
    if (ticket && (await this.throttled(res, ticket))) return undefined;
    const canRetry = RETRYABLE_STATUS.has(res.status) && (this.idempotent || NOTHING_DONE_STATUS.has(res.status));
    if (canRetry && !NOTHING_DONE_STATUS.has(res.status)) this.lost = true;
    if (canRetry && this.attempt < this.maxRetries) {
      await this.backoff({ status: res.status }, res.headers['retry-after']);
      return undefined;
    }
    if (res.status === 401 && this.auth && !this.renewedAfter401) {
      this.renewedAfter401 = true;
      const fresh = await this.auth.renew(this.headers);
      if (fresh) {
        this.headers = { ...this.headers, ...lowerHeaders(fresh) };
        this.trace('the credential was refused; sending once more with the renewed sign-in');
        return undefined;
      }
    }
    throw this.statusError(res);
  }

  /**
   * A paced request answered 429: the pacer learns the rate and says when to try again (true, after
   * the wait). While the run makes progress (a request of the run was accepted since this one was
   * last throttled) a 429 does not count against --retries, so a line that is only throttled is
   * never given up; a service that answers nothing but 429 meets --retries as the contract says
   * (exit 6, "429 after all retries"; at once with --retries 0). False for another status.
   */
  private async throttled(res: HttpResponse, ticket: Ticket): Promise<boolean> {
    if (res.status !== 429) return false;
    const { pacer } = this.req.pace!;
    const progress = pacer.stats?.().accepted ?? 0;
    if (progress > this.throttledAt) {
      if (this.throttledAt >= 0) this.throttledTries = 0;
      this.throttledAt = progress;
    }
    if (this.throttledTries++ < this.maxRetries) {
      const delay = Math.round(Math.min(pacer.throttled(ticket, cappedRetryAfter(res)), MAX_RETRY_AFTER_MS));
      this.trace(`throttled; retrying in ${delay} ms`);
      this.opts.observer?.retrying({ method: this.method, url: this.req.url, status: res.status, delayMs: delay, attempts: this.maxRetries + 1 });
      await this.wait(delay);
      return true;
    }
    // given up: the ticket goes back to the pacer (what it learns still counts), no other retry
    pacer.throttled(ticket, cappedRetryAfter(res));
    const error = errorFromResponse(res.status, res.text, res.headers);
    error.retryAfterMs = cappedRetryAfter(res);
    if (this.throttledTries > 1) error.message += ` (after ${this.throttledTries} attempts)`;
    throw error;
  }

  /** The error of an answer given up on, with the advice it needs. */
  private statusError(res: HttpResponse): VxError {
    const { method } = this;
    const error = errorFromResponse(res.status, res.text, res.headers);
    error.retryAfterMs = cappedRetryAfter(res);
    const advice = this.req.auth?.advice;
    if (res.status === 401 && advice && !error.hint) error.hint = advice;
    // the answer to a repeat is not the whole story: the attempt whose answer was lost may have
    // done the work (a 404 to a repeated DELETE, a 412 to a repeated PUT); not for a POST its
    // caller declared harmless to repeat (a translation, a read such as fetchEventDetails)
    if (this.lost && !error.hint && method !== 'GET' && method !== 'HEAD' && this.req.idempotent !== true) {
      error.hint = `an earlier attempt of this ${method} got no answer and may have been carried out: check before repeating it`;
    }
    if (this.attempt > 0 && (error instanceof ThrottledError || error instanceof UnavailableError)) {
      error.message += ` (after ${this.attempt + 1} attempts)`;
    }
    return error;
  }
}
