// The business-data service's OData JSON `$batch` and its per-user rate limit, written from the
// platform's documentation:
// - `POST {prefix}/api/<v>/$batch` with `{"requests":[{id, method, url, headers, body}]}` answers
//   200 `{"responses":[{id, status, headers, body}]}` in request order; the status of the batch
//   says only that it was read, each operation has its own.
// - Operations run in order; by default the first failing operation ends the batch (the answer
//   holds the responses up to and including it); `Prefer: odata.continue-on-error` runs them all.
// - `Isolation: snapshot` runs the batch as one transaction: when an operation fails, every change
//   the batch made is rolled back (the answer still shows each operation's own status).
// - At most 100 operations: more is a 400 with the service's own message.
// - Each user (credential) may send `requests` per `windowSeconds` (6,000 per 5 minutes on the
//   real service); beyond that 429 with Retry-After. Off unless the emulator is started with a
//   rate limit. A $batch counts as one request.
import { BATCH_MAX_OPERATIONS } from '../../model/erp/index.js';
import { EmuError, type EmuReply, type EmuRequest, type Route } from '../server/index.js';

interface BatchOp {
  id?: unknown;
  method?: unknown;
  url?: unknown;
  headers?: unknown;
  body?: unknown;
}

interface BatchResponse {
  id: string | null;
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

const ODATA_HEADERS = { 'content-type': 'application/json; odata.metadata=minimal; odata.streaming=true', 'odata-version': '4.0' };

function header(req: EmuRequest, name: string): string {
  const v = req.headers[name];
  return (Array.isArray(v) ? v.join(',') : v ?? '').trim();
}

/** The path below the family prefix an operation's url names (relative to `/api/<v>/`, absolute path, or absolute URL). */
function opPath(req: EmuRequest, url: string): { path: string; url: URL } | undefined {
  const prefix = req.family.prefix;
  let u: URL;
  try {
    if (/^https?:\/\//i.test(url)) u = new URL(url);
    else if (url.startsWith('/')) u = new URL(url, 'http://batch.invalid');
    else u = new URL(`${prefix}/api/${req.params.v}/${url}`, 'http://batch.invalid');
  } catch {
    return undefined;
  }
  if (u.pathname !== prefix && !u.pathname.startsWith(`${prefix}/`)) return undefined;
  return { path: u.pathname.slice(prefix.length) || '/', url: u };
}

type OpFail = (status: number, code: string, message: string) => BatchResponse;

async function runOp(req: EmuRequest, routes: readonly (Route & { re: RegExp })[], op: BatchOp): Promise<BatchResponse> {
  const id = typeof op.id === 'string' || typeof op.id === 'number' ? String(op.id) : null;
  const fail: OpFail = (status, code, message) => ({
    id,
    status,
    headers: { ...ODATA_HEADERS },
    body: req.family.errorBody(status, code, message, { requestId: req.requestId }),
  });
  const method = typeof op.method === 'string' ? op.method.toUpperCase() : '';
  if (!['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(method)) return fail(400, 'BadRequest', `The operation's method '${String(op.method)}' is not supported in a batch`);
  if (typeof op.url !== 'string' || !op.url) return fail(400, 'BadRequest', "The operation has no 'url'");
  const target = opPath(req, op.url);
  if (!target) return fail(404, req.family.codes.notFound, `The operation's url '${op.url}' is not a resource of this service`);
  if (/\/\$batch$/.test(target.path)) return fail(400, 'BadRequest', 'A batch may not contain another batch');
  let matched = false;
  for (const r of routes) {
    const m = r.re.exec(target.path);
    if (!m) continue;
    matched = true;
    if (r.method !== method) continue;
    try {
      return replyOf(req, id, target.path, await r.handler(subRequest(req, op, method, target, m)));
    } catch (e) {
      if (e instanceof EmuError) return fail(e.status, e.code, e.message);
      throw e;
    }
  }
  return matched ? fail(405, req.family.codes.methodNotAllowed ?? 'BadRequest', `The method ${method} is not allowed on ${target.path}.`) : fail(404, req.family.codes.notFound, `The requested resource ${target.path} was not found.`);
}

/** The request an operation of the batch makes to the route it names: its own method, URL, headers and body. */
function subRequest(req: EmuRequest, op: BatchOp, method: string, target: { path: string; url: URL }, m: RegExpExecArray): EmuRequest {
  const headers: Record<string, string> = {};
  if (op.headers && typeof op.headers === 'object') for (const [k, v] of Object.entries(op.headers as Record<string, unknown>)) if (typeof v === 'string') headers[k.toLowerCase()] = v;
  if (req.headers.host) headers.host = String(req.headers.host);
  const text = op.body === undefined ? '' : typeof op.body === 'string' ? op.body : JSON.stringify(op.body);
  return {
    ...req,
    method,
    path: target.path,
    url: target.url,
    query: target.url.searchParams,
    headers,
    body: Buffer.from(text),
    text,
    json: <T>() => {
      if (op.body === undefined) throw new EmuError(400, req.family.codes.badJson, 'The request body is empty; a JSON body is required.');
      if (typeof op.body === 'string') {
        try {
          return JSON.parse(op.body) as T;
        } catch {
          throw new EmuError(400, req.family.codes.badJson, 'The request body is not valid JSON.');
        }
      }
      return op.body as T;
    },
    params: { ...(m.groups ?? {}) },
  };
}

/** A route's reply as the batch's response for the operation (a create's Location as the service gives it). */
function replyOf(req: EmuRequest, id: string | null, path: string, reply: EmuReply): BatchResponse {
  const out: BatchResponse = { id, status: reply.status, headers: { ...(reply.body !== undefined ? ODATA_HEADERS : {}) } };
  for (const [k, v] of Object.entries(reply.headers ?? {})) out.headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  if (reply.status === 201 && reply.body && typeof reply.body === 'object' && 'id' in reply.body) {
    out.headers.location = `http://${req.headers.host ?? '127.0.0.1'}${req.family.prefix}${path}(${String((reply.body as { id: unknown }).id)})`;
  }
  if (reply.body !== undefined) out.body = reply.body;
  return out;
}

/** The `$batch` route over the family's other routes. */
export function batchRoute(routes: readonly Route[]): Route {
  const compiled = routes.map((r) => ({ ...r, re: r.path instanceof RegExp ? r.path : new RegExp('^$') }));
  return {
    method: 'POST',
    path: /^\/api\/(?<v>v\d+\.\d+)\/\$batch$/,
    handler: async (req) => {
      const ct = header(req, 'content-type').toLowerCase();
      if (ct && !ct.startsWith('application/json')) {
        throw new EmuError(400, 'BadRequest', `The content type '${ct}' is not supported here; send the JSON batch format (Content-Type: application/json)`);
      }
      const body = req.json<{ requests?: unknown }>();
      if (!body || typeof body !== 'object' || !Array.isArray(body.requests)) throw new EmuError(400, req.family.codes.badJson, "The batch body must be a JSON object with a 'requests' array");
      const ops = body.requests as BatchOp[];
      if (ops.length > BATCH_MAX_OPERATIONS) {
        throw new EmuError(400, 'Unknown', `The current batch message contains too many parts. A maximum number of '${BATCH_MAX_OPERATIONS}' query operations and change sets are allowed in a batch message`);
      }
      const snapshot = header(req, 'isolation').toLowerCase() === 'snapshot';
      const continueOnError = /odata\.continue-on-error/i.test(header(req, 'prefer'));
      const saved = snapshot ? structuredClone(req.emulator.state.erp) : undefined;
      const responses: BatchResponse[] = [];
      let failed = false;
      for (const op of ops) {
        const r = await runOp(req, compiled, op && typeof op === 'object' ? op : {});
        responses.push(r);
        if (r.status >= 400) {
          failed = true;
          if (snapshot || !continueOnError) break;
        }
      }
      if (saved && failed) req.emulator.state.erp = saved; // saved: set when snapshot
      return { status: 200, headers: { 'odata-version': '4.0' }, body: { responses } };
    },
  };
}

/** "6000/300": requests per window of seconds. */
export function parseRateLimit(spec: string): { requests: number; windowSeconds: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*s?\s*$/.exec(spec);
  if (!m || Number(m[1]) < 1 || Number(m[2]) <= 0) throw new Error(`invalid rate limit "${spec}": expected <requests>/<seconds>, e.g. 6000/300`);
  return { requests: Number(m[1]), windowSeconds: Number(m[2]) };
}

/** Wraps the routes so that each user (credential) gets 429 + Retry-After beyond the emulator's rate limit. */
export function rateLimited(routes: readonly Route[]): Route[] {
  return routes.map((r) => ({
    ...r,
    handler: (req: EmuRequest) => {
      const spec = req.emulator.opts.rateLimit;
      if (spec) {
        const { requests, windowSeconds } = parseRateLimit(spec);
        // on the emulated clock (an advance opens the window) and forgotten by a reset
        const users = req.emulator.userRequests;
        const user = req.credential ?? 'anonymous';
        const now = req.emulator.now();
        const from = now - windowSeconds * 1000;
        const seen = (users.get(user) ?? []).filter((t) => t > from);
        users.set(user, seen);
        if (seen.length >= requests) {
          const wait = Math.max(1, Math.ceil((seen[0] + windowSeconds * 1000 - now) / 1000));
          throw new EmuError(429, req.family.codes.throttled, `The rate limit of ${requests} requests per ${windowSeconds} seconds for this user has been exceeded. Try again in ${wait} seconds`, {
            'retry-after': String(wait),
          });
        }
        seen.push(now);
      }
      return r.handler(req);
    },
  }));
}

/** The routes of the business-data family with `$batch`, under the per-user rate limit. */
export function withBatch(routes: readonly Route[]): Route[] {
  return rateLimited([...routes, batchRoute(routes)]);
}
