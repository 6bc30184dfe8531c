// What goes out: the headers and body of a request as the transports send them, checked first (a
// header value HTTP forbids, a credential over plain http to another machine, a dot segment).
import { UsageError } from '../errors.js';
import { stringifyExact } from '../json.js';
import { isCredentialHeader, redact } from '../redact.js';
import { dotSegmentIn, isLoopbackHost, sentUrl } from '../url.js';
import type { HttpRequest } from './types.js';

declare const __VX_VERSION__: string;
export const VERSION: string = typeof __VX_VERSION__ === 'string' ? __VX_VERSION__ : '0.0.0-dev';
export const USER_AGENT = `vx/${VERSION}`;

/** what HTTP does not allow in a header value (node:http's own test): control characters but tab */
const BAD_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The headers (names in lower case: the user agent, the credential's, then the request's own) and
 * the body as a transport sends them. `credential`: the authenticator's headers (default: as they stand).
 */
export function encode(
  req: HttpRequest,
  allowHttp: boolean | undefined,
  credential = req.auth?.headers(),
): { headers: Record<string, string>; body?: string | Uint8Array } {
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
  for (const [k, v] of [...Object.entries(credential ?? {}), ...Object.entries(req.headers ?? {})]) {
    if (v === undefined) continue;
    // a CR/LF (or another character HTTP forbids) from a setting or --header: bad input, refused here
    // for every transport alike (node:http threw exit 1, undici "network error" exit 8); the
    // value itself is never shown (it may be a key)
    if (BAD_HEADER_VALUE.test(v)) throw new UsageError(`the ${k} header holds a character a header cannot carry (a line break or another control character, or one beyond Latin-1); nothing was sent`);
    headers[k.toLowerCase()] = v;
  }
  checkCleartext(req, headers, allowHttp);
  return { headers, body };
}

/**
 * Refuses to send a credential (a key or token header, or a stored sign-in) over plain http to a
 * host other than this machine, where anyone on the way can read it: an endpoint typed or copied
 * with http:// sent the key in clear without a word. The emulator (loopback) is fine;
 * VX_ALLOW_HTTP=1 allows the rest, for a server without TLS on purpose.
 */
function checkCleartext(req: HttpRequest, headers: Record<string, string>, allowHttp: boolean | undefined): void {
  if (allowHttp || !req.url.startsWith('http:')) return;
  let u: URL;
  try {
    u = new URL(req.url);
  } catch {
    return; // said by the transport
  }
  if (isLoopbackHost(u.hostname)) return;
  if (!req.auth && !Object.keys(headers).some(isCredentialHeader)) return;
  throw new UsageError(`${req.method.toUpperCase()} ${redact(req.url)}: the endpoint is plain http to another machine, and vx sends credentials (keys, tokens) only over https (plain http only to this machine: 127.0.0.1, ::1, localhost); nothing was sent`, {
    hint: 'use the https address of the service; to send credentials in clear anyway (a server without TLS on a network you trust), set VX_ALLOW_HTTP=1',
  });
}

/**
 * Refuses a URL whose path holds a dot segment: node:http and undici collapse it, so the request
 * would reach another resource than the one named (the families build their paths with
 * core/url.ts pathSegment, which refuses such values with a better message; this catches the rest).
 */
export function checkPath(url: string): void {
  const dot = dotSegmentIn(url);
  if (dot !== undefined) {
    throw new UsageError(
      `${redact(url)}: the path holds the dot segment "${dot}", which would be sent as ${redact(sentUrl(url))} (another resource); nothing was sent`,
    );
  }
}
