// An httpmock-like stub registry (after gh's pkg/httpmock) plugged into core/http's transport seam:
// each stub answers the requests it matches; `verify()` fails the test when a stub was never used,
// and a request no stub matches fails at once (nothing reaches a network).
import type { Transport, TransportRequest, TransportResponse } from '../../src/core/http/index.js';

type Reply = TransportResponse | ((req: TransportRequest & { text: string }) => TransportResponse | Promise<TransportResponse>);

interface Stub {
  method: string;
  url: string | RegExp;
  reply: Reply;
  /** how many requests it may answer (default 1) */
  times: number;
  used: number;
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): TransportResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

export class HttpMock {
  private readonly stubs: Stub[] = [];
  /** every request sent, in order */
  readonly requests: (TransportRequest & { text: string })[] = [];

  /** Answers `method` on `url` (exact, or a pattern) `times` times. */
  stub(method: string, url: string | RegExp, reply: Reply, times = 1): this {
    this.stubs.push({ method: method.toUpperCase(), url, reply, times, used: 0 });
    return this;
  }

  readonly transport: Transport = async (req) => {
    const text = req.body === undefined ? '' : typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString('utf8');
    const seen = { ...req, text };
    this.requests.push(seen);
    const stub = this.stubs.find((s) => s.used < s.times && s.method === req.method && (typeof s.url === 'string' ? s.url === req.url : s.url.test(req.url)));
    if (!stub) throw new Error(`httpmock: no stub for ${req.method} ${req.url}`);
    stub.used++;
    return typeof stub.reply === 'function' ? stub.reply(seen) : stub.reply;
  };

  /** Throws when a stub answered fewer requests than it was registered for. */
  verify(): void {
    const unused = this.stubs.filter((s) => s.used < s.times);
    if (unused.length) throw new Error(`httpmock: stubs never used: ${unused.map((s) => `${s.method} ${s.url} (${s.used}/${s.times})`).join(', ')}`);
  }
}

/**
 * The stubs registered in the worker and not yet checked (test/helpers/ctx.ts adds, test/setup.ts
 * checks after each test). On globalThis: one list for a worker, whichever module instance asks.
 */
export function registeredMocks(): HttpMock[] {
  return ((globalThis as { __vxHttpMocks?: HttpMock[] }).__vxHttpMocks ??= []);
}
