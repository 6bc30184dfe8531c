// A raw request to a service (`vx api`): the method, the path resolved against the family's
// endpoint, its credential, the caller's headers and a body, with the family's own defaults from
// the registry (the type of a JSON body, the headers every request carries).
import type { Config } from '../core/config/index.js';
import { UsageError } from '../core/errors.js';
import type { Http, HttpRequest } from '../core/http/index.js';
import { jsonErrorWithoutText } from '../core/json.js';
import { paginate } from '../core/paging.js';
import { familyOf } from '../model/families.js';
import { authenticator } from './auth/authenticator.js';
import { serviceBase, type ServiceName } from './service.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Headers that frame the request, which vx writes itself: a Content-Length that disagrees with the
 * body left the service waiting for bytes (a "timeout" after every retry) or made it read the rest
 * of the body as the next request on the connection; Expect is refused by one transport (undici,
 * used behind a proxy) as a "network error".
 */
const OWN_HEADERS: Record<string, string> = {
  'content-length': 'vx sets it from the request itself (the body, the connection)',
  'transfer-encoding': 'vx sets it from the request itself (the body, the connection)',
  expect: 'vx sends the body at once and does not wait for 100 Continue',
};

/** The leading header-name characters of `text`, and `…` for the rest (which may be a secret). */
function headerNameOf(text: string): string {
  const name = /^[!#$%&'*+.^_`|~0-9A-Za-z-]*/.exec(text)![0];
  return name.length === text.length ? text : `${name}…`;
}

export function parseHeaders(list: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    // a malformed header is often a credential written with the wrong separator (X-Api-Key=$KEY):
    // the message names what looks like its name and never repeats the rest
    if (i <= 0) throw new UsageError(`invalid --header "${headerNameOf(h)}": expected key:value`);
    const k = h.slice(0, i).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k)) throw new UsageError(`invalid header name "${headerNameOf(k)}"`);
    const why = OWN_HEADERS[k.toLowerCase()];
    if (why) throw new UsageError(`--header ${k}: ${why}; leave it out`);
    out[k] = h.slice(i + 1).trim();
  }
  return out;
}

/** Resolves the path against the service's base; an absolute URL must be on the same origin. */
export function resolveApiUrl(base: string, path: string): string {
  if (!path.trim()) throw new UsageError('the path is empty (an unset variable?): give a path such as /api/v2.0/companies; nothing was sent');
  // a URL parser drops tabs and line endings silently (`$(cat path.txt)` with a CRLF)
  if (/[\x00-\x1f\x7f]/.test(path)) throw new UsageError(`the path ${JSON.stringify(path)} holds a control character (a line ending?); nothing was sent`);
  if (/^https?:\/\//i.test(path)) {
    let u: URL;
    try {
      u = new URL(path);
    } catch {
      throw new UsageError(`invalid URL ${JSON.stringify(path)}: give a path such as /api/v2.0/companies or an absolute URL on the configured endpoint`);
    }
    if (u.origin !== new URL(base).origin) {
      throw new UsageError(`${path} is not on the configured endpoint ${new URL(base).origin}; vx sends credentials only there`);
    }
    return u.toString();
  }
  return `${base}${path.startsWith('/') ? '' : '/'}${path}`;
}

export interface RawRequest {
  service: ServiceName;
  method: string;
  path: string;
  /** `-H key:value`, as given */
  header?: string[];
  /** reads the body (--data), once the request is otherwise known to be good */
  body?: () => Promise<string>;
  /** where the body came from, for messages: `standard input`, a file name; undefined for text on the line */
  bodyFrom?: string;
}

/**
 * The request `vx api` sends. The contract's --data is JSON (every service takes JSON): a typo is
 * caught before sending and valid JSON is sent byte for byte. A body of another type is sent as
 * is when its type is named with -H 'Content-Type: ...'.
 */
export async function rawRequest(config: Config, http: Http, r: RawRequest): Promise<HttpRequest & { headers: Record<string, string> }> {
  const method = r.method.toUpperCase();
  if (!METHODS.has(method)) throw new UsageError(`invalid method "${r.method}"; use one of ${[...METHODS].join(', ')}`);
  const extra = parseHeaders(r.header);
  const url = resolveApiUrl(serviceBase(config, r.service), r.path);
  const auth = await authenticator(config, r.service, http);
  const headers: Record<string, string> = {};
  const { requests } = familyOf(r.service);
  let body: string | undefined;
  if (r.body) {
    body = await r.body();
    const typed = Object.entries(extra).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    if (typed === undefined || /json/i.test(typed)) {
      try {
        JSON.parse(body);
      } catch (e) {
        throw new UsageError(`--data${r.bodyFrom ? `: ${r.bodyFrom}` : ''} is not valid JSON (${jsonErrorWithoutText(body, e as Error)}); to send another type, name it with -H 'Content-Type: <type>'`);
      }
      if (typed === undefined) headers['Content-Type'] = requests?.jsonType ?? 'application/json';
    }
  }
  for (const [k, v] of Object.entries(requests?.headers ?? {})) headers[k] ??= v;
  Object.assign(headers, extra);
  return { method, url, auth, headers, body };
}

/** `vx api --paginate`: every item of a list, following its next links. */
export async function rawList(http: Http, req: HttpRequest & { headers: Record<string, string> }): Promise<unknown[]> {
  if (req.method !== 'GET') throw new UsageError('--paginate works with GET only');
  const items: unknown[] = [];
  let first = true;
  const page = async (u: string) => {
    const body = (await http.send({ method: req.method, url: u, auth: req.auth, headers: req.headers })).json();
    // a single resource asked for with --paginate is the caller's mistake, not a failure of the service
    // (a "value" that is there but not an array is a malformed list: the service's fault, told by paginate)
    if (first && !(body && typeof body === 'object' && !Array.isArray(body) && 'value' in body)) {
      throw new UsageError('--paginate reads lists (a "value" array and its next links); this answer is not one: leave out --paginate (the request itself was sent and succeeded)');
    }
    first = false;
    return body;
  };
  for await (const item of paginate(req.url, page)) items.push(item);
  return items;
}
