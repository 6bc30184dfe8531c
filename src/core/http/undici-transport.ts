// The proxied transport: the one undici EnvHttpProxyAgent of the process, so that proxies and
// NO_PROXY behave exactly as undici defines them. undici loads at the first request it carries.
import type { Dispatcher } from 'undici';
import type { Env } from '../env.js';
import { MAX_HEADER_BYTES, type RawResponse } from './node-transport.js';
import { checkProxyVariables } from './proxy.js';

export class UndiciTransport {
  private dispatcher: Dispatcher | undefined;
  private undici: typeof import('undici') | undefined;

  constructor(private readonly opts: { timeoutMs?: number; connections?: number; env?: Env }) {}

  /** Loads undici and makes the agent (start-up work, outside the time a request is allowed). */
  async agent(): Promise<{ undici: typeof import('undici'); dispatcher: Dispatcher }> {
    if (!this.undici) {
      const mod = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
      this.undici = mod.default ?? mod;
    }
    if (!this.dispatcher) {
      const env = this.opts.env ?? {};
      checkProxyVariables(env);
      const timeout = this.opts.timeoutMs ?? 60_000;
      // TLS verification is always on, whatever NODE_TLS_REJECT_UNAUTHORIZED says; extra CAs come
      // from NODE_EXTRA_CA_CERTS (read by Node into the default trust store).
      const tls = { rejectUnauthorized: true };
      this.dispatcher = new this.undici.EnvHttpProxyAgent({
        // the run's environment, read as undici reads process.env (lower case first), which it
        // reads for whatever it is not given
        httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
        httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
        noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
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

  async request(method: string, url: string, headers: Record<string, string>, body: string | Uint8Array | undefined, signal: AbortSignal): Promise<RawResponse> {
    const { undici, dispatcher } = await this.agent();
    const r = await undici.request(url, { method: method as Dispatcher.HttpMethod, headers, body, dispatcher, signal });
    return { statusCode: r.statusCode, headers: r.headers, body: r.body };
  }

  async close(): Promise<void> {
    const d = this.dispatcher;
    this.dispatcher = undefined;
    if (d) await d.destroy().catch(() => undefined);
  }
}
