import { isUtf8 } from 'node:buffer';
import { authenticator } from '../api/auth/authenticator.js';
import { serviceBase } from '../api/service.js';
import type { Ctx } from '../core/context.js';
import type { ApiOptions } from './api.js';
import { UsageError } from '../core/errors.js';
import { readBodyArg } from '../core/input.js';
import { jsonErrorWithoutText } from '../core/json.js';
import { paginate } from '../core/paging.js';

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

export async function run(ctx: Ctx, opts: ApiOptions, methodArg: string, path: string): Promise<void> {
  const method = methodArg.toUpperCase();
  if (!METHODS.has(method)) throw new UsageError(`invalid method "${methodArg}"; use one of ${[...METHODS].join(', ')}`);
  const extra = parseHeaders(opts.header);
  const base = serviceBase(ctx.config, opts.service);
  const url = resolveApiUrl(base, path);
  let body: string | undefined;
  const auth = await authenticator(ctx.config, opts.service, ctx.http);
  const headers: Record<string, string> = {};
  if (opts.data !== undefined) {
    body = await readBodyArg(opts.data, ctx.io.stdin);
    // the contract's --data is JSON (every service takes JSON): a typo is caught before sending and
    // valid JSON is sent byte for byte. A body of another type is sent as is when its type is named
    // with -H 'Content-Type: ...'.
    const typed = Object.entries(extra).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    if (typed === undefined || /json/i.test(typed)) {
      try {
        JSON.parse(body);
      } catch (e) {
        const where = opts.data === '-' || opts.data === '@-' ? 'standard input' : opts.data.startsWith('@') ? opts.data.slice(1) : undefined;
        throw new UsageError(`--data${where ? `: ${where}` : ''} is not valid JSON (${jsonErrorWithoutText(body, e as Error)}); to send another type, name it with -H 'Content-Type: <type>'`);
      }
      if (typed === undefined) headers['Content-Type'] = opts.service === 'translator' ? 'application/json; charset=UTF-8' : 'application/json';
    }
  }
  if (opts.service === 'lcs') headers['x-vendor-version'] ??= '2017-09-15';
  Object.assign(headers, extra);
  if (opts.paginate) {
    if (method !== 'GET') throw new UsageError('--paginate works with GET only');
    const items: unknown[] = [];
    let first = true;
    const page = async (u: string) => {
      const body = (await ctx.http.send({ method, url: u, auth, headers })).json();
      // a single resource asked for with --paginate is the caller's mistake, not a failure of the service
      // (a "value" that is there but not an array is a malformed list: the service's fault, told by paginate)
      if (first && !(body && typeof body === 'object' && !Array.isArray(body) && 'value' in body)) {
        throw new UsageError('--paginate reads lists (a "value" array and its next links); this answer is not one: leave out --paginate (the request itself was sent and succeeded)');
      }
      first = false;
      return body;
    };
    for await (const item of paginate(url, page)) items.push(item);
    await ctx.print(items);
    return;
  }
  if (method === 'HEAD') ctx.noQuery('HEAD: its answer has no body');
  const res = await ctx.http.send({ method, url, auth, headers, body });
  if (!res.body.length) return;
  const ct = res.headers['content-type'] ?? '';
  // JSON when it says so (malformed, it is an error); an answer of no declared text type that
  // parses as JSON is JSON too; a text answer is text, whatever its first character
  if (/json/i.test(ct)) {
    await ctx.print(res.json());
    return;
  }
  if (!TEXTUAL.test(ct) && /^\s*[[{]/.test(res.text)) {
    let value: unknown;
    try {
      value = res.json();
    } catch {
      /* not JSON: written as received below */
    }
    if (value !== undefined) {
      await ctx.print(value);
      return;
    }
  }
  // not JSON: --query has nothing to apply to (refused, not ignored: the request was made, the
  // answer is not printed); -o none prints nothing; text is printed as text, anything else (a
  // PDF, bytes in another charset) byte for byte
  if (ctx.globals.query !== undefined) {
    throw new UsageError(`--query needs a JSON answer; this one is ${ct.split(';')[0].trim() || 'of no declared type'} (${res.body.length} bytes), not shown (the request itself was sent and succeeded)`);
  }
  if (ctx.explicitFormat() === 'none') return;
  if ((!ct || TEXTUAL.test(ct)) && isUtf8(res.body)) await ctx.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
  else {
    // bytes that are not text (a PDF, application/octet-stream) would garble a terminal (as curl,
    // refused there; a pipe or a redirection gets them byte for byte); text in another charset is
    // written as it came
    if (ctx.stdoutIsTTY && (!TEXTUAL.test(ct) || res.body.includes(0))) {
      throw new UsageError(
        `the answer is binary (${ct.split(';')[0].trim() || 'of no declared type'}, ${res.body.length} bytes), not shown on the terminal: redirect it to a file (vx api ... > answer.bin) or pipe it (the request itself was sent and succeeded)`,
      );
    }
    await ctx.write(res.body);
  }
}

/** media types whose bodies are text (printed as text, with a final line feed) */
const TEXTUAL = /^\s*text\/|[/+](xml|yaml|csv|javascript|ecmascript|html|x-www-form-urlencoded)\b/i;
