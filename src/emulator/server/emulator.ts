// The emulator's HTTP server: families under path prefixes, each with its own authentication and
// error shape; in-memory state (optionally persisted); a request log; fault injection. It is a
// product feature (a sandbox) and the test bed. It imports nothing from cli/ or api/.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { emulatorEnv } from '../../model/families.js';
import { parseFaults, pickFault, type FaultSpec } from '../faults.js';
import { control } from './control.js';
import { authenticate } from './credentials.js';
import { foreignHost, foreignOrigin } from './guard.js';
import { plainError, readBody, send } from './http.js';
import { RequestLog } from './request-log.js';
import { compileRoutes, findRoute, type CompiledRoute } from './routes.js';
import { readStateFile, saveProblem, writeStateFile } from './state-file.js';
import { lockStateFile } from './state-lock.js';
import { EmuError, faultCode, type EmulatorHandle, type EmulatorOptions, type EmuReply, type EmuRequest, type FamilyDef, type FamilyName, type FamilyStates, type IssuedToken, type LogEntry } from './types.js';

export const DEFAULT_KEY = 'emulator-key';
export const DEFAULT_TOKEN = 'emulator-token';

/** One request on its way through the emulator. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: URL;
  entry: LogEntry;
  /** the reset generation it arrived in */
  generation: number;
  requestId: string;
}

/** A family's request after the checks common to all: its family, path, body and the fault it draws. */
interface FamilyExchange extends Exchange {
  family: FamilyDef;
  rest: string;
  raw: Buffer;
  fault: ReturnType<typeof pickFault>;
  idHeaders: Record<string, string>;
  fail: (status: number, code: string, message: string, headers?: Record<string, string>, extra?: Record<string, unknown>) => void;
}

/** `S`: the state of the families, typed as the caller knows them (emulator/index.ts). */
export class Emulator<S extends FamilyStates = FamilyStates> implements EmulatorHandle {
  readonly families: FamilyDef[];
  private routes = new Map<FamilyName, CompiledRoute[]>();
  state = {} as S;
  private readonly requests: RequestLog;
  faults: FaultSpec;
  readonly key: string;
  readonly token: string;
  /** tokens issued by the auth family: token -> expiry (ms since epoch) */
  readonly tokens = new Map<string, IssuedToken>();
  /** the business-data rate limit's window: each user's request times (emulated ms), cleared by reset() */
  readonly userRequests = new Map<string, number[]>();
  private server: Server | undefined;
  private sockets = new Set<Socket>();
  private saveTimer: NodeJS.Timeout | undefined;
  /** why the last save of --state failed ("cannot save the state to <path>: <why>"); cleared by a save that succeeds */
  stateError: string | undefined;
  url = '';
  /** bumped by reset(), so that work begun before a reset cannot land in the fresh state */
  private generation = 0;
  /** how far the emulated clock runs ahead of the real one (advanced by tests and sandbox users) */
  clockOffsetMs = 0;
  /** lets go of the --state file (another emulator may then take it); undefined once let go */
  private unlockState: (() => void) | undefined;

  constructor(readonly opts: EmulatorOptions) {
    this.families = opts.families;
    this.key = opts.key ?? DEFAULT_KEY;
    this.token = opts.token ?? DEFAULT_TOKEN;
    this.faults = parseFaults(opts.faults ?? '');
    this.requests = new RequestLog(opts);
    for (const f of this.families) this.routes.set(f.name, compileRoutes(f.routes));
    this.reset();
    // two emulators on one --state each saved their own state over the other's: the changes made
    // through the first were lost without a word when the second saved
    if (opts.statePath) this.unlockState = lockStateFile(opts.statePath);
    if (opts.statePath && existsSync(opts.statePath)) {
      try {
        const saved = readStateFile(opts.statePath, this.families);
        Object.assign(this.state, saved.states);
        if (saved.clockOffsetMs !== undefined) this.clockOffsetMs = saved.clockOffsetMs;
      } catch (e) {
        this.releaseState();
        throw e;
      }
    }
  }

  /** the request log, oldest first (the last `logLimit` requests) */
  get log(): LogEntry[] {
    return this.requests.entries;
  }

  /** The emulated time (ms since epoch): the real clock plus every advance since the last reset. */
  now(): number {
    return (this.opts.clock ?? Date.now)() + this.clockOffsetMs;
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
    const state: FamilyStates = {};
    this.clockOffsetMs = 0;
    // one reading of the clock for every family: seeded times agree to the second
    const now = this.now();
    for (const f of this.families) state[f.name] = f.seed ? f.seed(now) : {};
    this.state = state as S;
    this.requests.clear();
    this.tokens.clear();
    this.userRequests.clear();
  }

  setFaults(spec: string): void {
    this.faults = parseFaults(spec);
  }

  /** Requests counted per family/method/path pattern, for tests that prove "nothing sent" or "sent once". */
  count(filter: Partial<Pick<LogEntry, 'family' | 'method'>> & { path?: string | RegExp } = {}): number {
    return this.requests.count(filter);
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
      const told = this.stateError !== undefined;
      this.stateError = saveProblem(this.opts.statePath!, e as NodeJS.ErrnoException);
      if (!told) this.opts.onStateError?.(this.stateError);
    }
  }

  flushState(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.opts.statePath) writeStateFile(this.opts.statePath, this.state, this.clockOffsetMs);
  }

  private family(path: string): { family: FamilyDef; rest: string } | undefined {
    for (const f of this.families) {
      if (path === f.prefix || path.startsWith(`${f.prefix}/`)) return { family: f, rest: path.slice(f.prefix.length) || '/' };
    }
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    const entry: LogEntry = { family: 'unknown', method, path: `${url.pathname}${url.search}`, status: 0, time: Date.now() };
    const x: Exchange = { req, res, method, url, entry, generation: this.generation, requestId: randomUUID() };
    try {
      // a web page can reach a loopback port too: by DNS rebinding (its own name made to resolve to
      // 127.0.0.1) it would read the answers, and its name would go into the links built from Host
      const host = foreignHost(req.headers.host);
      if (host !== undefined) {
        await readBody(req, 1 << 20);
        return send(res, plainError(421, 'MisdirectedRequest', `the emulator answers requests for this machine only (Host 127.0.0.1, localhost or ::1, with its port); not for ${host.slice(0, 200)}`), {});
      }
      if (url.pathname.startsWith('/_emulator/')) return await this.handleControl(x);
      const found = this.family(url.pathname);
      if (!found) {
        await readBody(req, 1 << 20);
        entry.status = 404;
        this.requests.record(entry);
        return send(res, plainError(404, 'NotFound', `no emulated service at ${url.pathname}; families live under ${this.families.map((f) => f.prefix).join(', ').replace(/, ([^,]*)$/, ' and $1')}`), {});
      }
      return await this.handleFamily(x, found.family, found.rest);
    } catch (e) {
      entry.status = 500;
      if (!res.headersSent) {
        const f = this.family(url.pathname)?.family;
        const body = f ? f.errorBody(500, f.codes.internal, `emulator error: ${(e as Error).message}`, { requestId: x.requestId }) : { error: { code: 'InternalError', message: (e as Error).message } };
        send(res, { status: 500, body }, {});
      } else res.destroy();
    }
  }

  private async handleControl({ req, res, method, url, entry }: Exchange): Promise<void> {
    entry.family = 'control';
    this.requests.record(entry);
    const body = await readBody(req, 1 << 20);
    // a page of another origin can send a plain POST here without asking (no CORS preflight)
    if (foreignOrigin(req.headers.origin)) {
      entry.status = 403;
      return send(res, plainError(403, 'Forbidden', 'the control routes do not take requests from a web page of another machine (Origin)'), {});
    }
    // (a body over 1 MiB was taken as empty: PUT /_emulator/faults cleared every fault, 204)
    if (body === 'too-large') {
      entry.status = 413;
      return send(res, plainError(413, 'TooLarge', 'the control routes take bodies of 1 MiB at most'), {});
    }
    const reply = control(this, method, url.pathname, body);
    this.saveNow();
    entry.status = reply.status;
    return send(res, reply, {});
  }

  /** A request to a family: logged with its body, then a fault it draws, then its route. */
  private async handleFamily(x: Exchange, family: FamilyDef, rest: string): Promise<void> {
    const { req, res, method, url, entry } = x;
    entry.family = family.name;
    entry.path = `${rest}${url.search}`;
    this.requests.record(entry);
    if (family.newRequestId) x.requestId = family.newRequestId(new Date());
    const idHeaders = { ...family.headers, [family.requestIdHeader]: x.requestId };
    const fail = (status: number, code: string, message: string, headers: Record<string, string> = {}, extra?: Record<string, unknown>) => {
      entry.status = status;
      send(res, { status, headers, body: family.errorBody(status, code, message, { requestId: x.requestId, path: rest }, extra) }, idHeaders);
    };
    const raw = await readBody(req, this.opts.maxBodyBytes ?? family.maxBodyBytes ?? 16 * 1024 * 1024);
    entry.headers = req.headers;
    if (raw !== 'too-large' && raw.length) this.requests.keepBody(entry, raw.subarray(0, 65_536).toString('utf8'));
    // fault injection (never on the identity endpoints)
    const fault = family.name === 'auth' ? undefined : pickFault(this.faults, family.name, method);
    if (fault) {
      entry.fault = fault.kind;
      if (fault.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
      // (a reset of the emulator while this request waited drops it too: it never reaches the new state)
      if (fault.kind === 'reset' || x.generation !== this.generation) {
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
    return this.route({ ...x, family, rest, raw, fault, idHeaders, fail });
  }

  /** The route of a family's request: found, authenticated, run, and its reply saved and sent. */
  private async route(x: FamilyExchange): Promise<void> {
    const { req, res, method, url, entry, family, rest, raw, fail } = x;
    const found = findRoute(this.routes.get(family.name) ?? [], method, rest);
    if (!('route' in found)) {
      if (found.allowed.size) return fail(405, family.codes.methodNotAllowed ?? family.codes.badRequest, `The method ${method} is not allowed on ${rest}.`, { Allow: [...found.allowed].join(', ') });
      return fail(404, family.codes.notFound, `The requested resource ${rest} was not found.`);
    }
    let credential: string | undefined;
    if (found.route.auth !== false && family.auth !== 'none') {
      const check = authenticate(family, req.headers, this);
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
      json: <T>() => parseJsonBody<T>(bodyText, family),
      params: found.params,
      family,
      emulator: this,
      requestId: x.requestId,
      credential,
    };
    let reply: EmuReply;
    try {
      reply = await found.route.handler(emuReq);
    } catch (e) {
      if (e instanceof EmuError) return fail(e.status, e.code, e.message, e.headers, e.extra);
      throw e;
    }
    entry.status = reply.status;
    if (method !== 'GET' && method !== 'HEAD' && reply.status < 400) this.changed();
    // saved before the client is told: a change answered and then lost with the process (kill -9,
    // a crash, a CI runner tearing the job down) was lost without a word
    this.saveNow();
    if (x.fault?.kind === 'reset-after') {
      // the work is done, but the answer is lost: an ambiguous failure for the client
      entry.status = -1;
      req.socket.destroy();
      return;
    }
    if (method === 'HEAD') reply = { ...reply, body: undefined, raw: undefined };
    return send(res, reply, x.idHeaders);
  }
}

/** A request body as JSON; empty or malformed JSON is the family's 400. */
function parseJsonBody<T>(text: string, family: FamilyDef): T {
  if (!text.trim()) throw new EmuError(400, family.codes.badJson, 'The request body is empty; a JSON body is required.');
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new EmuError(400, family.codes.badJson, 'The request body is not valid JSON.');
  }
}
