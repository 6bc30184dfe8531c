// An answer as the door hands it on: the body read whole (bounded), headers in lower case, JSON
// read exactly, and an error the service reported with a 2xx status found.
import { clip, MAX_CODE, MAX_MESSAGE, requestIdOf, ServiceError } from '../errors.js';
import { parseExact } from '../json.js';
import { redact } from '../redact.js';
import type { RawResponse } from './node-transport.js';
import type { HttpResponse } from './types.js';

export function lowerHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * Reads a response body whole with plain 'data' events (cheaper per page than async iteration
 * over the stream); more than `max` bytes destroys the stream and rejects with `tooLarge()`.
 */
export function readBody(body: import('node:stream').Readable, max: number, tooLarge: () => Error): Promise<Buffer> {
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
export function errorInSuccess(res: HttpResponse, method: string): ServiceError | undefined {
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

/**
 * An answer read whole. A class, not an object literal with a getter and closures: with such
 * literals a list's records outlived two scavenges and were promoted to V8's old generation (~3 MB
 * a list of 100 pages of 100 records, and a full collection every few lists); with the class not.
 */
class Answer implements HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly requestId: string | undefined;
  afterLostAttempt?: boolean;
  private decoded: string | undefined;

  constructor(
    r: RawResponse,
    readonly body: Buffer,
    private readonly method: string,
    readonly url: string,
  ) {
    this.status = r.statusCode;
    const h = lowerHeaders(r.headers);
    this.headers = h;
    this.requestId = requestIdOf((name) => h[name]);
  }

  get text(): string {
    const buf = this.body;
    // a UTF-8 byte order mark is dropped, as the WHATWG decoders (fetch's json(), TextDecoder) do
    return (this.decoded ??= buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.toString('utf8', 3) : buf.toString('utf8'));
  }

  json<T>(exact = true): T {
    const t = this.text;
    try {
      // numbers a double cannot hold are kept exact (core/json.ts)
      return (exact ? parseExact(t) : JSON.parse(t)) as T;
    } catch (e) {
      const { status, method, url } = this;
      if (e instanceof RangeError) {
        throw new ServiceError(`HTTP ${status} from ${method} ${redact(url)}: the response nests too deeply for vx to read (${e.message})`, {
          status,
          requestId: this.requestId,
        });
      }
      const ct = this.headers['content-type'] ?? 'no content type';
      // redacted before it is cut (a token answer cut short must not show the start of the token)
      const shown = redact(t.trim());
      const peek = shown.slice(0, 60).replace(/\s+/g, ' ');
      throw new ServiceError(
        `HTTP ${status} from ${method} ${redact(url)}: the response is not valid JSON (${ct}${peek ? `: "${peek}${shown.length > 60 ? '…' : ''}"` : ', empty body'})`,
        { status, requestId: this.requestId },
      );
    }
  }
}

/** The answer to `method url`: `buf` is its body, read whole. */
export function toResponse(r: RawResponse, buf: Buffer, method: string, url: string): HttpResponse {
  return new Answer(r, buf, method, url);
}
