// The one door to the network: one keep-alive connection pool per process, per-request timeouts,
// one retry policy, --debug traces with secrets redacted, and --dry-run.
//
// Two transports sit behind it. Direct connections use node:http/node:https (node-transport.ts):
// loading undici costs more start-up than a whole GET is allowed. When a proxy is configured
// (HTTPS_PROXY, HTTP_PROXY, any case), the one undici EnvHttpProxyAgent of the process carries every
// request (undici-transport.ts), so proxies and NO_PROXY behave exactly as undici defines them.
// VX_HTTP_CLIENT=undici|node forces either one.
import { InterruptedError, isVxError, ServiceError } from '../errors.js';
import type { Ticket } from '../pacer.js';
import { redact } from '../redact.js';
import { Attempts } from './attempts.js';
import { Aborter, NodeTransport, type RawResponse } from './node-transport.js';
import { checkPath, encode } from './outgoing.js';
import { DryRunHalt, describeRequest } from './plan.js';
import { chooseTransport } from './proxy.js';
import { readBody, toResponse } from './response.js';
import type { HttpOptions, HttpRequest, HttpResponse, RequestDescription, Transport, TransportRequest } from './types.js';
import { UndiciTransport } from './undici-transport.js';
import { monotonicMs } from '../clock.js';

export type { Authenticator } from './auth.js';
export { USER_AGENT, VERSION } from './outgoing.js';
export { DryRunHalt } from './plan.js';
export { isIdempotent, parseRetryAfter, retryDelay } from './policy.js';
export { allowHttpFrom, chooseTransport } from './proxy.js';
export type { HttpObserver, HttpOptions, HttpRequest, HttpResponse, Transport, TransportRequest, TransportResponse } from './types.js';

/** A failure thrown by the deadline, as the transports' own timeouts are. */
function timedOutError(message: string): Error {
  const err = new Error(message) as NodeJS.ErrnoException;
  err.code = 'ETIMEDOUT';
  return err;
}

export class Http {
  private readonly node: NodeTransport;
  private readonly undici: UndiciTransport;
  /** the requests out under each caller signal: one listener per signal, not one per request */
  private readonly watched = new WeakMap<AbortSignal, Set<Aborter>>();
  readonly transport: 'undici' | 'node';
  /** requests recorded in dry-run mode */
  readonly planned: RequestDescription[] = [];

  constructor(readonly opts: HttpOptions = {}) {
    this.transport = chooseTransport(opts.env ?? {});
    this.node = new NodeTransport(opts.connections);
    this.undici = new UndiciTransport(opts);
  }

  get dryRun(): boolean {
    return Boolean(this.opts.dryRun);
  }

  /** Closes the pool so the process can exit at once. */
  async close(): Promise<void> {
    this.node.close();
    await this.undici.close();
  }

  describe(req: HttpRequest): RequestDescription {
    return describeRequest(req, this.opts.allowHttp);
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
    checkPath(req.url);
    if (!this.opts.observer) return this.sendWithRetries(req);
    try {
      return await this.sendWithRetries(req);
    } finally {
      this.opts.observer.settled();
    }
  }

  private async sendWithRetries(req: HttpRequest): Promise<HttpResponse> {
    const shown = req.auth?.headers();
    const { headers, body } = encode(req, this.opts.allowHttp, shown);
    const run = new Attempts(req, headers, this.opts, (line) => this.trace(line));
    await run.applyCredential(shown);
    for (;;) {
      if (run.signal?.aborted) throw new InterruptedError();
      const ticket: Ticket | undefined = req.pace ? await req.pace.pacer.acquire(req.pace.cost, run.signal) : undefined;
      try {
        const started = monotonicMs();
        run.traceRequest(body);
        let res: HttpResponse;
        try {
          res = await this.onceObserved(run.method, req.url, run.headers, body, run.signal);
        } catch (err) {
          await run.failed(err, Math.round(monotonicMs() - started));
          continue;
        }
        const ms = Math.round(monotonicMs() - started);
        this.opts.exchanged?.({ method: run.method, url: req.url, status: res.status, ms, requestId: res.requestId });
        run.traceResponse(res, ms);
        const done = await run.answered(res, ticket);
        if (done) return done;
      } finally {
        // a ticket the service neither accepted nor throttled (a failure, another status) goes back unlearned
        if (ticket) req.pace!.pacer.released?.(ticket);
      }
    }
  }

  /** `once` with the observer told when no answer came for a while (every second after the first notice). */
  private async onceObserved(method: string, url: string, headers: Record<string, string>, body: string | Uint8Array | undefined, signal: AbortSignal | undefined): Promise<HttpResponse> {
    const observer = this.opts.observer;
    if (!observer) return this.once(method, url, headers, body, signal);
    const started = monotonicMs();
    const timeoutMs = this.opts.timeoutMs ?? 60_000;
    let tick: NodeJS.Timeout | undefined;
    const notify = () => observer.waiting({ method, url, elapsedMs: Math.round(monotonicMs() - started), timeoutMs });
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

  /** One attempt, under its deadline and the caller's signal. */
  private async once(method: string, url: string, headers: Record<string, string>, body: string | Uint8Array | undefined, signal: AbortSignal | undefined): Promise<HttpResponse> {
    const timeout = this.opts.timeoutMs ?? 60_000;
    // loading the transport is start-up work, not part of the exchange the timeout bounds
    if (this.transport === 'undici') await this.undici.agent();
    // one switch thrown by the deadline or by the caller's signal
    const aborter = new Aborter();
    const deadline = setTimeout(() => aborter.abort(new DOMException('timed out', 'TimeoutError')), timeout);
    const watchers = signal ? this.watch(signal, aborter) : undefined;
    try {
      return await this.exchange(method, url, headers, body, signal, aborter, timeout);
    } finally {
      clearTimeout(deadline);
      watchers?.delete(aborter);
    }
  }

  /** Aborts `aborter` with the caller's signal: one listener per signal, whatever the number of requests under it. */
  private watch(signal: AbortSignal, aborter: Aborter): Set<Aborter> | undefined {
    if (signal.aborted) {
      aborter.abort(signal.reason);
      return undefined;
    }
    let watchers = this.watched.get(signal);
    if (!watchers) {
      const set = new Set<Aborter>();
      watchers = set;
      this.watched.set(signal, set);
      signal.addEventListener('abort', () => {
        for (const a of set) a.abort(signal.reason);
      }, { once: true });
    }
    watchers.add(aborter);
    return watchers;
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
          ? await this.undici.request(method, url, headers, body, aborter.signal())
          : await this.node.request(method, url, headers, body, aborter, timeout);
    } catch (e) {
      if (timedOut()) throw timedOutError(`timed out after ${timeout} ms`);
      throw e;
    }
    const max = this.opts.maxBodyBytes ?? 256 * 1024 * 1024;
    let buf: Buffer;
    try {
      buf = await readBody(r.body, max, () => new ServiceError(`${method} ${redact(url)}: response larger than ${max} bytes; refused`));
    } catch (e) {
      if (isVxError(e)) throw e;
      if (timedOut()) throw timedOutError(`timed out after ${timeout} ms while reading the response`);
      throw e;
    }
    return toResponse(r, buf, method, url);
  }
}
