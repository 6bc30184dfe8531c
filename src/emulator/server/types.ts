// The emulator's framework as its families see it: a request and its reply, the error a handler
// throws, routes, a family's definition, the request log's entries, the options of an emulator.
import type { IncomingHttpHeaders } from 'node:http';
import type { FamilyName as ServiceFamily } from '../../model/families.js';
import type { FaultSpec } from '../faults.js';
import type { StateCheck } from '../state-check.js';

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
  emulator: EmulatorHandle;
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
  /** fresh state for this family, its times counted from `now` (the emulated time, ms since epoch) */
  seed?(now: number): unknown;
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
  /** the time the emulated clock starts from, ms since epoch (default Date.now; tests hold it still) */
  clock?: () => number;
}

/** The state of every family, by family name (each family reads its own entry, as its seed made it). */
export type FamilyStates = Record<string, unknown>;

/** What a route handler may use of the emulator that serves it. */
export interface EmulatorHandle {
  state: FamilyStates;
  readonly url: string;
  readonly opts: EmulatorOptions;
  readonly faults: FaultSpec;
  /** tokens issued by the auth family: token -> expiry (ms since epoch) */
  readonly tokens: Map<string, IssuedToken>;
  /** the business-data rate limit's window: each user's request times (emulated ms) */
  readonly userRequests: Map<string, number[]>;
  /** the emulated time (ms since epoch) */
  now(): number;
  /** marks the state as changed (saved to --state) */
  changed(): void;
}

export interface IssuedToken {
  expiresAt: number;
  scope?: string;
  refresh?: boolean;
}
