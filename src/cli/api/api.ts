// `vx api <method> <path>`: the request built by api/raw.ts, sent, and its answer printed as JSON,
// as text, or byte for byte.
import { isUtf8 } from 'node:buffer';
import { rawList, rawRequest } from '../../api/raw.js';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import type { HttpResponse } from '../../core/http/index.js';
import { readBodyArg } from '../../core/input.js';
import type { ApiOptions } from './options.js';

/** media types whose bodies are text (printed as text, with a final line feed) */
const TEXTUAL = /^\s*text\/|[/+](xml|yaml|csv|javascript|ecmascript|html|x-www-form-urlencoded)\b/i;

export async function run(ctx: Ctx, opts: ApiOptions, method: string, path: string): Promise<void> {
  const data = opts.data;
  const req = await rawRequest(ctx.config, ctx.http, {
    service: opts.service,
    method,
    path,
    header: opts.header,
    body: data === undefined ? undefined : () => readBodyArg(data, ctx.io.stdin),
    bodyFrom: data === '-' || data === '@-' ? 'standard input' : data?.startsWith('@') ? data.slice(1) : undefined,
  });
  if (opts.paginate) {
    await ctx.print(await rawList(ctx.http, req));
    return;
  }
  if (req.method === 'HEAD') ctx.noQuery('HEAD: its answer has no body');
  const res = await ctx.http.send(req);
  if (!res.body.length) return;
  await printAnswer(ctx, res);
}

/**
 * JSON when it says so (malformed, it is an error); an answer of no declared text type that parses
 * as JSON is JSON too; a text answer is text, whatever its first character.
 */
async function printAnswer(ctx: Ctx, res: HttpResponse): Promise<void> {
  const ct = res.headers['content-type'] ?? '';
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
  await printOther(ctx, res, ct);
}

/**
 * Not JSON: --query has nothing to apply to (refused, not ignored: the request was made, the
 * answer is not printed); -o none prints nothing; text is printed as text, anything else (a PDF,
 * bytes in another charset) byte for byte.
 */
async function printOther(ctx: Ctx, res: HttpResponse, ct: string): Promise<void> {
  if (ctx.globals.query !== undefined) {
    throw new UsageError(`--query needs a JSON answer; this one is ${ct.split(';')[0].trim() || 'of no declared type'} (${res.body.length} bytes), not shown (the request itself was sent and succeeded)`);
  }
  if (ctx.explicitFormat() === 'none') return;
  if ((!ct || TEXTUAL.test(ct)) && isUtf8(res.body)) {
    await ctx.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
    return;
  }
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
