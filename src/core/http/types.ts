// The shapes of the HTTP door: a request, its answer, the options of a client, the transport seam
// and what an observer of retries and waits is told.
import type { Env } from '../env.js';
import type { Paced } from '../pacer.js';
import type { Authenticator } from './auth.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string | undefined>;
  /** how the request proves who sends it: its headers go out with the request's own (which win) */
  auth?: Authenticator;
  /** a string or bytes; objects are sent as JSON */
  body?: string | Uint8Array | object;
  /** the caller declares that repeating this POST/PATCH is harmless (translate does) */
  idempotent?: boolean;
  /** a short label for messages about an unknown outcome, e.g. "create currency" */
  describe?: string;
  /** how to find out whether an ambiguous non-idempotent request took effect */
  checkHint?: string;
  /** statuses that are not errors for this call (e.g. 404 for an existence check) */
  okStatuses?: number[];
  signal?: AbortSignal;
  /**
   * pacing shared with the other requests of a run (see core/pacer.ts): each attempt waits for its
   * turn to spend `cost` units; a 429 teaches the pacer and is retried after its Retry-After
   * without counting against --retries (a request that is only throttled is never given up)
   */
  pace?: { pacer: Paced; cost: number };
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /**
   * parses the body as JSON; a malformed body is a ServiceError, never a crash. Numbers a double
   * cannot hold come back as ExactNumber unless `exact` is false (translate's hot path)
   */
  json<T = unknown>(exact?: boolean): T;
  requestId?: string;
  url: string;
  /**
   * true when an earlier attempt of this request may have reached the service and done its work
   * (a lost answer, a timeout, a 5xx other than 503): a 200 from a repeated PUT may then be the
   * first attempt's own result rather than something that was there before
   */
  afterLostAttempt?: boolean;
}

export interface HttpOptions {
  /** the environment: the proxy variables and VX_HTTP_CLIENT (none when absent) */
  env?: Env;
  timeoutMs?: number;
  retries?: number;
  debug?: (line: string) => void;
  dryRun?: boolean;
  signal?: AbortSignal;
  /** for tests: the backoff base and cap */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** how many connections per origin (sized to the caller's concurrency) */
  connections?: number;
  /** responses larger than this are refused */
  maxBodyBytes?: number;
  /** injected clock/sleep/random for tests */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** told about retries and long waits, for a line of progress (rendered by the caller) */
  observer?: HttpObserver;
  /** told of every answer as it arrives (--verbose prints each at once: nothing is held until the end) */
  exchanged?: (x: Exchange) => void;
  /** after how long without an answer `observer.waiting` is first called (default 5 s), then every second */
  waitingAfterMs?: number;
  /**
   * Send credentials over plain http to a host other than this machine (VX_ALLOW_HTTP=1): an
   * on-premises server without TLS, on purpose. Otherwise refused, nothing sent.
   */
  allowHttp?: boolean;
  /**
   * The seam for tests (test/helpers/httpmock.ts): one exchange without a network. Retries,
   * timeouts, tracing, redaction and error mapping around it stay the real ones.
   */
  transport?: Transport;
}

/** One answered attempt: its timing and the service's request id. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  ms: number;
  requestId?: string;
}

/** One request as a transport sends it, and what it answers. */
export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}
export interface TransportResponse {
  status: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: string | Uint8Array;
}
export type Transport = (req: TransportRequest, signal: AbortSignal) => Promise<TransportResponse>;

/** A retry about to wait: what failed, how long until the next attempt, which attempt that is. */
export interface RetryEvent {
  method: string;
  url: string;
  /** the HTTP status that is retried */
  status?: number;
  /** or the network failure, in words ("connection refused", "no answer in 60 s") */
  failure?: string;
  delayMs: number;
  /** the number of the next attempt (2 for the first retry); absent for a throttled wait that does not count */
  attempt?: number;
  /** how many attempts there are in all (1 + --retries) */
  attempts: number;
}

/** A request still without an answer. */
export interface WaitEvent {
  method: string;
  url: string;
  elapsedMs: number;
  timeoutMs: number;
}

export interface HttpObserver {
  retrying(e: RetryEvent): void;
  waiting(e: WaitEvent): void;
  /** a request ended (answered, failed or given up): a progress line about it can go */
  settled(): void;
}

/** The request as --dry-run prints it: method, url, headers with secrets redacted, body. */
export interface RequestDescription {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}
