// The database refresh (lcs) operation and the status of its operation activity.
import type { Config } from '../../core/config/index.js';
import { ServiceError, UsageError } from '../../core/errors.js';
import type { Authenticator, Http } from '../../core/http/index.js';
import { isGuid } from '../../model/erp/index.js';
import { LCS_VERSION, LCS_VERSION_HEADER, OPERATION_DONE, OPERATION_FAILED } from '../../model/lcs.js';
import { pathSegment as seg } from '../../core/url.js';
import { authenticator } from '../auth/authenticator.js';
import { serviceBase } from '../service.js';

export interface RefreshResult {
  IsSuccess: boolean;
  OperationActivityId?: string | null;
  ErrorMessage?: string | null;
  VersionEOL?: string | null;
  [k: string]: unknown;
}

export interface OperationStatus {
  IsSuccess?: boolean;
  OperationStatus?: string;
  ErrorMessage?: string | null;
  [k: string]: unknown;
}

export interface RefreshTarget {
  project: string;
  source: string;
  target: string;
}

/** The ids of a refresh as given: none empty, and the target not the source. Nothing is sent. */
export function checkRefreshTarget(t: RefreshTarget): void {
  for (const k of ['project', 'source', 'target'] as const) if (!t[k]?.trim()) throw new UsageError(`--${k} may not be empty`);
  // (environment ids are GUIDs: the same one in another case is the same environment)
  if (t.source === t.target || (isGuid(t.source) && t.source.toLowerCase() === t.target.toLowerCase())) {
    throw new UsageError('--source and --target are the same environment');
  }
}

/** The command that reads an operation's status (printed when a refresh starts and when a wait is interrupted). */
export function statusCommand(project: string, environment: string, activity: string): string {
  const q = (v: string) => (/^[\w.:@/-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  return `vx erp refresh status ${q(activity)} --project ${q(project)} --environment ${q(environment)}`;
}

export class LcsClient {
  private constructor(
    private readonly http: Http,
    readonly base: string,
    readonly auth: Authenticator,
  ) {}

  static async open(http: Http, config: Config): Promise<LcsClient> {
    const base = serviceBase(config, 'lcs');
    return new LcsClient(http, base, await authenticator(config, 'lcs', http));
  }

  refreshUrl(t: RefreshTarget): string {
    return `${this.base}/databasemovement/v1/refresh/project/${seg(t.project, '--project')}/source/${seg(t.source, '--source')}/target/${seg(t.target, '--target')}`;
  }

  statusUrl(project: string, environment: string, activity: string): string {
    return `${this.base}/databasemovement/v1/fetchstatus/project/${seg(project, '--project')}/environment/${seg(environment, 'environment')}/operationactivity/${seg(activity, 'operation activity id')}`;
  }

  /**
   * Starts a refresh: a non-idempotent POST without a body (with the spec's `Content-Type:
   * application/json` all the same), never repeated after an ambiguous failure.
   */
  async refresh(t: RefreshTarget): Promise<RefreshResult> {
    const res = await this.http.send({
      method: 'POST',
      url: this.refreshUrl(t),
      auth: this.auth,
      headers: { [LCS_VERSION_HEADER]: LCS_VERSION, 'Content-Type': 'application/json' },
      describe: `database refresh of ${t.target} from ${t.source}`,
      checkHint: 'the environment history of the project in the lifecycle services portal',
    });
    const body = res.json<RefreshResult>();
    if (!body || typeof body !== 'object' || typeof body.IsSuccess !== 'boolean') throw new ServiceError('the refresh answer has no IsSuccess field');
    return body;
  }

  /**
   * One read of an operation's status. A refresh runs for hours, longer than an access token
   * lives: the request carries the stored sign-in's authenticator (api/auth/authenticator.ts), so an expired token is
   * renewed before a read instead of failing the wait with a 401.
   */
  async status(project: string, environment: string, activity: string): Promise<{ body: OperationStatus; retryAfter?: string }> {
    const res = await this.http.send({ method: 'GET', url: this.statusUrl(project, environment, activity), auth: this.auth, headers: { [LCS_VERSION_HEADER]: LCS_VERSION } });
    return { body: res.json<OperationStatus>(), retryAfter: res.headers['retry-after'] };
  }
}

export type Outcome = 'done' | 'failed' | 'running';

export function outcomeOf(status: string | undefined): Outcome {
  if (status && (OPERATION_DONE as readonly string[]).includes(status)) return 'done';
  if (status && (OPERATION_FAILED as readonly string[]).includes(status)) return 'failed';
  return 'running';
}
