// The direct transport: node:http and node:https with a keep-alive agent sized to the caller's
// concurrency. Loading undici costs 100-170 ms of start-up on these machines (its JavaScript and
// llhttp's WebAssembly), more than a whole GET is allowed: without a proxy this one carries requests.
import * as nodeHttp from 'node:http';
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import { NetworkError } from '../errors.js';
import { redact } from '../redact.js';

/**
 * response headers accepted (Node's default is 16 KiB): the translator's X-MT-System has one entry
 * per translation, so a full request of 1,000 items to two targets answers about 20 KiB of it
 */
export const MAX_HEADER_BYTES = 1024 * 1024;

export interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: import('node:stream').Readable;
}

/**
 * A per-request abort switch (the deadline or the caller's signal) without the costs of an
 * AbortController and an EventTarget listener per request, which measured ~4 ms per 100 pages.
 */
export class Aborter {
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

/** node:http's agents, one per scheme, made at the first request. */
export class NodeTransport {
  private agents: { http?: HttpAgent; https?: HttpAgent } = {};
  private nodeHttps: typeof import('node:https') | undefined;

  constructor(private readonly connections = 16) {}

  async request(
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
    const agent = (this.agents[key] ??= new mod.Agent({ keepAlive: true, maxSockets: this.connections, keepAliveMsecs: 10_000, rejectUnauthorized: true }));
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

  close(): void {
    this.agents.http?.destroy();
    this.agents.https?.destroy();
    this.agents = {};
  }
}
