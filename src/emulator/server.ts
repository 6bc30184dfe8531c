// The emulator's HTTP server: families under path prefixes, each with its own authentication and
// error shape; in-memory state (optionally persisted); a request log; fault injection. It is a
// product feature (a sandbox) and the test bed. It imports nothing from cli/ or api/.
import { randomUUID } from 'node:crypto';
import { renameSync, writeFileSync, readFileSync, existsSync, unlinkSync } from 'node:fs';
import { lockStateFile } from './state-lock.js';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AuthState } from './auth.js';
import type { ErpState } from './erp/seed.js';
import type { LcsState } from './lcs/index.js';
import type { MgmtState } from './mgmt/state.js';
import type { TranslatorState } from './translator.js';
import { parseFaults, pickFault, type FaultSpec } from './faults.js';
import { kindOf, type StateCheck } from './state-check.js';
import { emulatorEnv, type FamilyName as ServiceFamily } from '../model/families.js';

/** the service families of the registry, and the emulator's own sign-in family */
export type FamilyName = ServiceFamily | 'auth';

export interface EmuRequest {
  method: string;
  /** path below the family prefix, without the query, percent-decoding NOT applied */
  path: string;
  url: URL;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** parses the body as JSON; malformed JSON is answered with the family's 400 */
  json<T = unknown>(): T;
  params: Record<string, string>;
  family: FamilyDef;
  emulator: Emulator;
  requestId: string;
  /** the bearer token or key the request carried (after authentication) */
  credential?: string;
}

export interface EmuReply {
  status: number;
  headers?: Record<string, string | number | string[]>;
  /** JSON body */
  body?: unknown;
  /** raw body (bytes or text), sent as is */
  raw?: Buffer | string;
}

/** Thrown by handlers: rendered with the family's error shape. */
export class EmuError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface Route {
  method: string;
  /** `{name}` matches one segment part (no `/`, `(` or `)`), `{name*}` any run of characters */
  path: string | RegExp;
  handler: (req: EmuRequest) => EmuReply | Promise<EmuReply>;
  /** default true */
  auth?: boolean;
}

export interface FamilyCodes {
  unauthorized: string;
  notFound: string;
  badRequest: string;
  badJson: string;
  tooLarge: string;
  throttled: string;
  unavailable: string;
  internal: string;
  methodNotAllowed?: string;
  /** the code of an injected fault's status, when the family derives codes from the status */
  forStatus?: (status: number) => string;
  /** codes of other statuses an injected fault may answer (403, 409, 412 ...) */
  byStatus?: Readonly<Record<number, string>>;
}

/** The error code an injected fault answering `status` carries in `codes`' family. */
export function faultCode(codes: FamilyCodes, status: number): string {
  const named: Record<number, string | undefined> = { 400: codes.badRequest, 401: codes.unauthorized, 404: codes.notFound, 405: codes.methodNotAllowed, 413: codes.tooLarge, 429: codes.throttled };
  return (
    codes.forStatus?.(status) ??
    codes.byStatus?.[status] ??
    named[status] ??
    (status >= 503 ? codes.unavailable : status >= 500 ? codes.internal : codes.badRequest)
  );
}

export interface FamilyDef {
  name: FamilyName;
  /** the service's message for an error code an injected fault names (`403001:1x`) */
  faultMessage?: (code: string) => string | undefined;
  prefix: string;
  auth: 'key' | 'bearer' | 'none';
  codes: FamilyCodes;
  /** the family's error body */
  errorBody(status: number, code: string, message: string, req: { requestId: string; path?: string }, extra?: Record<string, unknown>): unknown;
  requestIdHeader: string;
  /** the family's own request id format (default: a GUID) */
  newRequestId?(now: Date): string;
  /** headers every answer of the family carries (the real service's CORS and transport headers) */
  headers?: Readonly<Record<string, string>>;
  /** the largest request body the family's real service accepts (413 above it); EmulatorOptions.maxBodyBytes wins */
  maxBodyBytes?: number;
  routes: Route[];
  /** fresh state for this family */
  seed?(): unknown;
  /** what is wrong with this family's entry of a --state file, or undefined (state-check.ts) */
  checkState?: StateCheck;
}

export interface LogEntry {
  family: FamilyName | 'control' | 'unknown';
  method: string;
  path: string;
  status: number;
  fault?: string;
  time: number;
  /** the request headers and body (first 64 KiB as text), so tests can check exact payloads */
  headers?: IncomingHttpHeaders;
  body?: string;
  /** the body was let go to keep the log within its byte budget */
  bodyDropped?: boolean;
}

export interface EmulatorOptions {
  families: FamilyDef[];
  faults?: string;
  statePath?: string;
  /** the subscription key the translator accepts */
  key?: string;
  /** the bearer token erp/lcs/mgmt accept */
  token?: string;
  maxBodyBytes?: number;
  /** the request log keeps the last this many requests (default 10,000) */
  logLimit?: number;
  /** and at most this many bytes of their bodies, dropping the oldest bodies first (default 32 MiB) */
  logBodyBytes?: number;
  /** the business-data service's per-user rate limit, "<requests>/<seconds>" (e.g. 6000/300); off when absent */
  rateLimit?: string;
  /** told once when saving --state starts failing (stateError says why) */
  onStateError?: (message: string) => void;
}

interface CompiledRoute extends Route {
  re: RegExp;
}

function compile(path: string | RegExp): RegExp {
  if (path instanceof RegExp) return path;
  let src = '';
  let i = 0;
  while (i < path.length) {
    const m = /^\{(\w+)(\*?)\}/.exec(path.slice(i));
    if (m) {
      src += m[2] ? `(?<${m[1]}>.+?)` : `(?<${m[1]}>[^/()]+?)`;
      i += m[0].length;
    } else {
      src += path[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i++;
    }
  }
  return new RegExp(`^${src}$`);
}

/**
 * The emulator's state: one entry per family, made by its seed (or read from --state). A family
 * left out of the emulator has no entry; the typed ones are those tests and routes read.
 */
export interface EmulatorState {
  auth: AuthState;
  erp: ErpState;
  lcs: LcsState;
  mgmt: MgmtState;
  translator: TranslatorState;
  [family: string]: unknown;
}

/**
 * The entry of a --state file beside the families that holds the emulated clock (how far it runs
 * ahead of the real one): without it a restart put the clock back, health events that had
 * appeared were gone and the refresh window counted operations of the emulated future.
 */
const CLOCK_KEY = 'clock';

export const DEFAULT_KEY = 'emulator-key';
export const DEFAULT_TOKEN = 'emulator-token';

export class Emulator {
  readonly families: FamilyDef[];
  private routes = new Map<FamilyName, CompiledRoute[]>();
  state = {} as EmulatorState;
  readonly log: LogEntry[] = [];
  faults: FaultSpec;
  readonly key: string;
  readonly token: string;
  /** tokens issued by the auth family: token -> expiry (ms since epoch) */
  readonly tokens = new Map<string, { expiresAt: number; scope?: string; refresh?: boolean }>();
  private server: Server | undefined;
  private sockets = new Set<Socket>();
  private saveTimer: NodeJS.Timeout | undefined;
  /** why the last save of --state failed ("cannot save the state to <path>: <why>"); cleared by a save that succeeds */
  stateError: string | undefined;
  url = '';

  constructor(readonly opts: EmulatorOptions) {
    this.families = opts.families;
    this.key = opts.key ?? DEFAULT_KEY;
    this.token = opts.token ?? DEFAULT_TOKEN;
    this.faults = parseFaults(opts.faults ?? '');
    for (const f of this.families) this.routes.set(f.name, f.routes.map((r) => ({ ...r, re: compile(r.path) })));
    this.reset();
    // two emulators on one --state each saved their own state over the other's: the changes made
    // through the first were lost without a word when the second saved
    if (opts.statePath) this.unlockState = lockStateFile(opts.statePath);
    if (opts.statePath && existsSync(opts.statePath)) {
      try {
        const text = readFileSync(opts.statePath, 'utf8');
        // an empty file (mktemp's) holds nothing to lose: it starts seeded, as a missing one does
        const saved: unknown = text.trim() ? JSON.parse(text) : {};
        const problem = this.stateProblem(saved);
        if (problem) throw new Error(problem);
        const byFamily = saved as Record<string, unknown>;
        const state: Record<string, unknown> = this.state;
        for (const f of this.families) if (byFamily[f.name] !== undefined) state[f.name] = byFamily[f.name];
        const clock = byFamily[CLOCK_KEY] as { offsetSeconds: number } | undefined;
        if (clock) this.clockOffsetMs = clock.offsetSeconds * 1000;
      } catch (e) {
        this.releaseState();
        // never the piece of the file V8 quotes in its message (a --state naming the wrong file: a .env)
        const message = e instanceof SyntaxError ? e.message.replace(/,\s*(?:\.\.\.)?"[\s\S]*$/, '') : (e as Error).message;
        throw new Error(`cannot load emulator state from ${opts.statePath}: ${message}`);
      }
    }
  }

  /**
   * What is wrong with the content of a --state file, or undefined: an object with an entry per
   * family (any may be left out: it starts seeded), each of its family's shape. A file of another
   * kind (an array, another tool's JSON) is refused rather than taken, served with 500s and then
   * overwritten by the first change.
   */
  private stateProblem(saved: unknown): string | undefined {
    const names = this.families.map((f) => f.name).join(', ');
    if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return `expected a JSON object with an entry per family (${names}), got ${kindOf(saved)}`;
    const other = Object.keys(saved).find((k) => k !== CLOCK_KEY && !this.families.some((f) => f.name === k));
    if (other !== undefined) return `${JSON.stringify(other)} is not a family of the emulator (${names}): is it an emulator state file?`;
    const clock = (saved as Record<string, unknown>)[CLOCK_KEY];
    if (clock !== undefined) {
      const offset = typeof clock === 'object' && clock !== null && !Array.isArray(clock) ? (clock as Record<string, unknown>).offsetSeconds : undefined;
      if (typeof offset !== 'number' || !Number.isFinite(offset) || offset < 0) return `${CLOCK_KEY}: expected {"offsetSeconds": <seconds, 0 or more>}, got ${offset === undefined ? kindOf(clock) : kindOf(offset)}`;
    }
    for (const f of this.families) {
      const v = (saved as Record<string, unknown>)[f.name];
      if (v === undefined) continue;
      const why = f.checkState ? f.checkState(v, f.name) : undefined;
      if (why) return why;
    }
    return undefined;
  }

  /** the entries of the log that hold a body, oldest first, and the bytes those bodies take */
  private readonly bodies: LogEntry[] = [];
  private bodyBytes = 0;

  /**
   * Adds a request to the log: a ring of the last `logLimit` requests (a long-running emulator
   * under load must not grow without bound).
   */
  private record(entry: LogEntry): void {
    this.log.push(entry);
    const limit = this.opts.logLimit ?? 10_000;
    if (this.log.length > limit) {
      for (const gone of this.log.splice(0, this.log.length - limit)) this.dropBody(gone);
      while (this.bodies.length && this.bodies[0].body === undefined) this.bodies.shift();
    }
  }

  /** Keeps a request body in the log within the byte budget: the oldest bodies go first. */
  private keepBody(entry: LogEntry, text: string): void {
    entry.body = text;
    this.bodies.push(entry);
    this.bodyBytes += text.length;
    const budget = this.opts.logBodyBytes ?? 32 * 1024 * 1024;
    while (this.bodyBytes > budget && this.bodies.length > 1) this.dropBody(this.bodies.shift()!);
  }

  private dropBody(e: LogEntry): void {
    if (e.body === undefined) return;
    this.bodyBytes -= e.body.length;
    e.body = undefined;
    e.bodyDropped = true;
  }

  /** bumped by reset(), so that work begun before a reset cannot land in the fresh state */
  private generation = 0;

  /** the business-data rate limit's window: each user's request times (emulated ms), cleared by reset() */
  readonly userRequests = new Map<string, number[]>();

  /** how far the emulated clock runs ahead of the real one (advanced by tests and sandbox users) */
  private clockOffsetMs = 0;

  /** The emulated time (ms since epoch): the real clock plus every advance since the last reset. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** Moves the emulated clock forward (never back): health events appear, change and resolve with it. */
  advanceClock(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`the clock moves forward only: ${ms} ms`);
    this.clockOffsetMs += ms;
    this.changed();
  }

  /** Back to the seed data; clears the request log. */
  reset(): void {
    // requests still in flight (a slow answer the client gave up on) belong to the old state
    this.generation += 1;
    const state: Record<string, unknown> = {};
    this.clockOffsetMs = 0;
    for (const f of this.families) state[f.name] = f.seed ? f.seed() : {};
    this.state = state as EmulatorState;
    this.log.length = 0;
    this.bodies.length = 0;
    this.bodyBytes = 0;
    this.tokens.clear();
    this.userRequests.clear();
  }

  setFaults(spec: string): void {
    this.faults = parseFaults(spec);
  }

  /** Requests counted per family/method/path pattern, for tests that prove "nothing sent" or "sent once". */
  count(filter: Partial<Pick<LogEntry, 'family' | 'method'>> & { path?: string | RegExp } = {}): number {
    return this.log.filter(
      (e) =>
        e.family !== 'control' &&
        (!filter.family || e.family === filter.family) &&
        (!filter.method || e.method === filter.method) &&
        (!filter.path || (typeof filter.path === 'string' ? e.path.includes(filter.path) : filter.path.test(e.path))),
    ).length;
  }

  issueToken(ttlSeconds: number, scope?: string): string {
    const token = `emu.${randomUUID().replace(/-/g, '')}`;
    this.tokens.set(token, { expiresAt: Date.now() + ttlSeconds * 1000, scope });
    return token;
  }

  /** The environment variables that point vx at this emulator. */
  env(): Record<string, string> {
    return emulatorEnv(this.url, { key: this.key, token: this.token }, this.state as Record<string, Record<string, unknown> | undefined>);
  }

  async listen(port = 4010, host = '127.0.0.1'): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 5000;
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    server.on('clientError', (_err, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const addr = server.address() as AddressInfo;
    const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.url = `http://${h}:${addr.port}`;
    return this.url;
  }

  /** lets go of the --state file (another emulator may then take it); undefined once let go */
  private unlockState: (() => void) | undefined;

  /** Lets go of the --state file without saving it (an emulator that failed to start). */
  releaseState(): void {
    this.unlockState?.();
    this.unlockState = undefined;
  }

  async close(): Promise<void> {
    this.saveState();
    this.releaseState();
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    for (const sock of this.sockets) sock.destroy();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** Marks state as changed: written to --state (atomically) before the answer goes out, or shortly after for a change outside a request. */
  changed(): void {
    if (!this.opts.statePath || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.saveState(), 50);
    this.saveTimer.unref();
  }

  /** Saves --state now if a change waits to be saved. */
  private saveNow(): void {
    if (this.saveTimer) this.saveState();
  }

  /**
   * Saves --state, a failure kept in stateError (and told once) instead of thrown: the emulator
   * serves on with its state in memory, and a later change tries again.
   */
  private saveState(): void {
    try {
      this.flushState();
      this.stateError = undefined;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const told = this.stateError !== undefined;
      this.stateError = `cannot save the state to ${this.opts.statePath}: ${err.code === 'ENOENT' ? 'its directory is gone' : err.code === 'ENOSPC' ? 'no space left on the device' : err.code === 'EACCES' ? 'permission denied' : err.message}`;
      if (!told) this.opts.onStateError?.(this.stateError);
    }
  }

  flushState(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.opts.statePath) return;
    // a random name created with O_EXCL: a --state in a shared directory (/tmp) cannot be made to
    // write through a symbolic link planted at a predictable temporary name
    const tmp = `${this.opts.statePath}.${randomUUID()}.tmp`;
    try {
      // the clock with the families: the health events, the refresh and rate windows run on it
      writeFileSync(tmp, JSON.stringify({ ...this.state, [CLOCK_KEY]: { offsetSeconds: this.clockOffsetMs / 1000 } }, null, 1), { flag: 'wx' });
      renameSync(tmp, this.opts.statePath);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        try {
          unlinkSync(tmp);
        } catch {
          /* never created */
        }
      }
      throw e;
    }
  }

  private family(path: string): { family: FamilyDef; rest: string } | undefined {
    for (const f of this.families) {
      if (path === f.prefix || path.startsWith(`${f.prefix}/`)) return { family: f, rest: path.slice(f.prefix.length) || '/' };
    }
    return undefined;
  }

  private send(res: ServerResponse, reply: EmuReply, extraHeaders: Record<string, string>): void {
    const headers: Record<string, string | number | string[]> = { ...extraHeaders, ...(reply.headers ?? {}) };
    let payload: Buffer | undefined;
    if (reply.raw !== undefined) payload = Buffer.isBuffer(reply.raw) ? reply.raw : Buffer.from(reply.raw);
    else if (reply.body !== undefined) {
      payload = Buffer.from(JSON.stringify(reply.body));
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
    if (payload) headers['content-length'] = payload.length;
    else if (reply.status !== 204 && reply.status !== 304) headers['content-length'] = 0;
    res.writeHead(reply.status, headers);
    res.end(payload);
  }

  private async readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(c as Buffer);
    }
    return tooLarge ? 'too-large' : Buffer.concat(chunks);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const generation = this.generation;
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    const entry: LogEntry = { family: 'unknown', method, path: `${url.pathname}${url.search}`, status: 0, time: Date.now() };
    let requestId: string = randomUUID();
    try {
      // a web page can reach a loopback port too: by DNS rebinding (its own name made to resolve to
      // 127.0.0.1) it would read the answers, and its name would go into the links built from Host
      const host = foreignHost(req.headers.host);
      if (host !== undefined) {
        await this.readBody(req, 1 << 20);
        return this.send(res, { status: 421, body: { error: { code: 'MisdirectedRequest', message: `the emulator answers requests for this machine only (Host 127.0.0.1, localhost or ::1, with its port); not for ${host.slice(0, 200)}` } } }, {});
      }
      if (url.pathname.startsWith('/_emulator/')) {
        entry.family = 'control';
        this.record(entry);
        const body = await this.readBody(req, 1 << 20);
        // a page of another origin can send a plain POST here without asking (no CORS preflight)
        if (foreignOrigin(req.headers.origin)) {
          entry.status = 403;
          return this.send(res, { status: 403, body: { error: { code: 'Forbidden', message: 'the control routes do not take requests from a web page of another machine (Origin)' } } }, {});
        }
        // (a body over 1 MiB was taken as empty: PUT /_emulator/faults cleared every fault, 204)
        if (body === 'too-large') {
          entry.status = 413;
          return this.send(res, { status: 413, body: { error: { code: 'TooLarge', message: 'the control routes take bodies of 1 MiB at most' } } }, {});
        }
        const reply = this.control(method, url.pathname, body);
        this.saveNow();
        entry.status = reply.status;
        return this.send(res, reply, {});
      }
      const found = this.family(url.pathname);
      if (!found) {
        const body = await this.readBody(req, 1 << 20);
        void body;
        entry.status = 404;
        this.record(entry);
        return this.send(res, { status: 404, body: { error: { code: 'NotFound', message: `no emulated service at ${url.pathname}; families live under ${this.families.map((f) => f.prefix).join(', ').replace(/, ([^,]*)$/, ' and $1')}` } } }, {});
      }
      const { family, rest } = found;
      entry.family = family.name;
      entry.path = `${rest}${url.search}`;
      this.record(entry);
      if (family.newRequestId) requestId = family.newRequestId(new Date());
      const idHeaders = { ...family.headers, [family.requestIdHeader]: requestId };
      const fail = (status: number, code: string, message: string, headers: Record<string, string> = {}, extra?: Record<string, unknown>) => {
        entry.status = status;
        this.send(res, { status, headers, body: family.errorBody(status, code, message, { requestId, path: rest }, extra) }, idHeaders);
      };

      const raw = await this.readBody(req, this.opts.maxBodyBytes ?? family.maxBodyBytes ?? 16 * 1024 * 1024);
      entry.headers = req.headers;
      if (raw !== 'too-large' && raw.length) this.keepBody(entry, raw.subarray(0, 65_536).toString('utf8'));

      // fault injection (never on the identity endpoints)
      const fault = family.name === 'auth' ? undefined : pickFault(this.faults, family.name, method);
      if (fault) {
        entry.fault = fault.kind;
        if (fault.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
        // (a reset of the emulator while this request waited drops it too: it never reaches the new state)
        if (fault.kind === 'reset' || generation !== this.generation) {
          entry.status = -1;
          req.socket.destroy();
          return;
        }
        if (fault.kind === 'hang') {
          entry.status = -2;
          return; // never answered; the client's timeout decides
        }
        if (fault.status) {
          const code = fault.code ?? faultCode(family.codes, fault.status);
          const headers: Record<string, string> = fault.status === 429 || fault.status === 503 ? { 'retry-after': String(this.faults.retryAfter) } : {};
          const message = (fault.code && family.faultMessage?.(fault.code)) || `emulated fault: HTTP ${fault.status}`;
          return fail(fault.status, code, message, headers);
        }
      }
      if (raw === 'too-large') return fail(413, family.codes.tooLarge, 'The request body is too large.');

      // route
      const routes = this.routes.get(family.name) ?? [];
      let params: Record<string, string> | undefined;
      let route: CompiledRoute | undefined;
      let pathMatched = false;
      /** the methods the path answers, for the Allow header of a 405 (RFC 9110: it must be there) */
      const allowed = new Set<string>();
      for (const r of routes) {
        const m = r.re.exec(rest);
        if (!m) continue;
        pathMatched = true;
        allowed.add(r.method);
        if (r.method === 'GET') allowed.add('HEAD');
        if (r.method !== method && !(r.method === 'GET' && method === 'HEAD')) continue;
        route = r;
        params = { ...(m.groups ?? {}) };
        break;
      }
      if (!route) {
        if (pathMatched) return fail(405, family.codes.methodNotAllowed ?? family.codes.badRequest, `The method ${method} is not allowed on ${rest}.`, { Allow: [...allowed].join(', ') });
        return fail(404, family.codes.notFound, `The requested resource ${rest} was not found.`);
      }

      // authentication
      let credential: string | undefined;
      if (route.auth !== false && family.auth !== 'none') {
        const check = this.authenticate(family, req.headers);
        if (check.ok !== true) return fail(401, family.codes.unauthorized, check.message);
        credential = check.credential;
      }

      const bodyText = raw.toString('utf8');
      const emuReq: EmuRequest = {
        method,
        path: rest,
        url,
        query: url.searchParams,
        headers: req.headers,
        body: raw,
        text: bodyText,
        json: <T>() => {
          if (!bodyText.trim()) throw new EmuError(400, family.codes.badJson, 'The request body is empty; a JSON body is required.');
          try {
            return JSON.parse(bodyText) as T;
          } catch {
            throw new EmuError(400, family.codes.badJson, 'The request body is not valid JSON.');
          }
        },
        params: params ?? {},
        family,
        emulator: this,
        requestId,
        credential,
      };
      let reply: EmuReply;
      try {
        reply = await route.handler(emuReq);
      } catch (e) {
        if (e instanceof EmuError) return fail(e.status, e.code, e.message, e.headers, e.extra);
        throw e;
      }
      entry.status = reply.status;
      if (method !== 'GET' && method !== 'HEAD' && reply.status < 400) this.changed();
      // saved before the client is told: a change answered and then lost with the process (kill -9,
      // a crash, a CI runner tearing the job down) was lost without a word
      this.saveNow();
      if (fault?.kind === 'reset-after') {
        // the work is done, but the answer is lost: an ambiguous failure for the client
        entry.status = -1;
        req.socket.destroy();
        return;
      }
      if (method === 'HEAD') reply = { ...reply, body: undefined, raw: undefined };
      return this.send(res, reply, idHeaders);
    } catch (e) {
      entry.status = 500;
      if (!res.headersSent) {
        const f = this.family(url.pathname)?.family;
        const body = f ? f.errorBody(500, f.codes.internal, `emulator error: ${(e as Error).message}`, { requestId }) : { error: { code: 'InternalError', message: (e as Error).message } };
        this.send(res, { status: 500, body }, {});
      } else res.destroy();
    }
  }

  private authenticate(family: FamilyDef, headers: IncomingHttpHeaders): { ok: true; credential: string } | { ok: false; message: string } {
    if (family.auth === 'key') {
      const key = headers['vendor-subscription-key'];
      const auth = headers.authorization;
      if (typeof key === 'string' && key.length) {
        return key === this.key ? { ok: true, credential: key } : { ok: false, message: 'The request is not authorized because credentials are missing or invalid.' };
      }
      if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) {
        const t = auth.replace(/^Bearer\s+/i, '');
        if (this.tokenValid(t)) return { ok: true, credential: t };
      }
      return { ok: false, message: 'The request is not authorized because credentials are missing or invalid.' };
    }
    const auth = headers.authorization;
    if (typeof auth !== 'string' || !/^Bearer\s+\S/i.test(auth)) return { ok: false, message: 'The request has no bearer token in the Authorization header.' };
    const t = auth.replace(/^Bearer\s+/i, '').trim();
    const issued = this.tokens.get(t);
    if (issued && issued.expiresAt <= Date.now()) return { ok: false, message: 'The access token has expired.' };
    if (!this.tokenValid(t)) return { ok: false, message: 'The access token is invalid.' };
    return { ok: true, credential: t };
  }

  private tokenValid(t: string): boolean {
    if (t === this.token) return true;
    const issued = this.tokens.get(t);
    return Boolean(issued && !issued.refresh && issued.expiresAt > Date.now());
  }

  private control(method: string, path: string, body: Buffer): EmuReply {
    if (method === 'GET' && path === '/_emulator/health') return { status: 200, body: { status: 'ok', families: this.families.map((f) => f.prefix) } };
    // anyone on the machine can read this: credentials (keys, tokens, secrets) are shown masked
    if (method === 'GET' && path === '/_emulator/requests') return { status: 200, body: this.log.filter((e) => e.family !== 'control').map(redactEntry) };
    if (method === 'GET' && path === '/_emulator/state') return { status: 200, body: this.state };
    if (method === 'POST' && path === '/_emulator/reset') {
      this.reset();
      this.changed();
      return { status: 204 };
    }
    if (path === '/_emulator/clock' && (method === 'GET' || method === 'POST')) {
      if (method === 'POST') {
        let advance: unknown;
        try {
          advance = (JSON.parse(body.toString('utf8') || '{}') as { advanceSeconds?: unknown }).advanceSeconds;
        } catch {
          advance = undefined;
        }
        if (typeof advance !== 'number' || !Number.isFinite(advance) || advance < 0) {
          return { status: 400, body: { error: { code: 'InvalidClock', message: 'expected a body {"advanceSeconds": <seconds, 0 or more>}: the clock moves forward only' } } };
        }
        this.advanceClock(advance * 1000);
      }
      return { status: 200, body: { now: new Date(this.now()).toISOString(), offsetSeconds: this.clockOffsetMs / 1000 } };
    }
    if (method === 'PUT' && path === '/_emulator/faults') {
      try {
        this.setFaults(body.toString('utf8').trim());
      } catch (e) {
        return { status: 400, body: { error: { code: 'InvalidFaults', message: (e as Error).message } } };
      }
      return { status: 204 };
    }
    return { status: 404, body: { error: { code: 'NotFound', message: 'control endpoints: GET /_emulator/health, GET /_emulator/requests, GET /_emulator/state, POST /_emulator/reset, PUT /_emulator/faults, GET|POST /_emulator/clock' } } };
  }
}

/** 127.0.0.0/8, ::1, localhost and its subdomains (which browsers keep on this machine) */
function loopbackName(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The host name of a Host header that names another machine; undefined for this one (or none: HTTP/1.0). */
function foreignHost(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const hostname = header.replace(/:\d*$/, '');
  return loopbackName(hostname) ? undefined : hostname;
}

/** Whether an Origin header names a page served elsewhere than this machine. */
function foreignOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return false;
  try {
    return !loopbackName(new URL(origin).hostname);
  } catch {
    return true; // `null` (a sandboxed page, a file) or garbage
  }
}

/** headers whose whole value is a credential */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'vendor-subscription-key', 'ocp-apim-subscription-key', 'cookie', 'x-api-key']);
/** form fields and JSON members that carry a credential (token requests, client secrets) */
const SECRET_FIELDS = 'client_secret|client_assertion|refresh_token|access_token|id_token|code|code_verifier|device_code|password|assertion';
const SECRET_FORM = new RegExp(`((?:^|&)(?:${SECRET_FIELDS})=)[^&]*`, 'g');
const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_FIELDS}|subscription-key|key|token)=)[^&]*`, 'gi');
const SECRET_JSON = new RegExp(`("(?:${SECRET_FIELDS}|key|token)"\\s*:\\s*")(?:[^"\\\\]|\\\\.)*"`, 'g');

/** A log entry as `/_emulator/requests` shows it: credentials masked (`Bearer ***`, `***`). */
export function redactEntry(e: LogEntry): LogEntry {
  const out: LogEntry = { ...e };
  if (e.headers) {
    const h: IncomingHttpHeaders = {};
    for (const [k, v] of Object.entries(e.headers)) {
      if (!SECRET_HEADERS.has(k) || v === undefined) h[k] = v;
      else h[k] = String(v).replace(/^(\w+\s+)?.*$/s, (_, scheme: string | undefined) => `${scheme ?? ''}***`);
    }
    out.headers = h;
  }
  if (e.body !== undefined) out.body = e.body.replace(SECRET_FORM, '$1***').replace(SECRET_JSON, '$1***"');
  out.path = e.path.replace(SECRET_QUERY, '$1***');
  return out;
}
