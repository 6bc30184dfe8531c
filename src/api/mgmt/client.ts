// What every management request shares: the endpoint, the bearer token, the provider namespace,
// the subscription (checked against its rule before anything is sent), the family's api-version,
// and lists that follow `nextLink` to the end. No terminal, no commander.
import type { Config } from '../../core/config/index.js';
import { ServiceError } from '../../core/errors.js';
import type { Authenticator, Http, HttpRequest, HttpResponse } from '../../core/http/index.js';
import type { Paced } from '../../core/pacer.js';
import { paginate } from '../../core/paging.js';
import { buildQuery, pathSegment, type QueryValue } from '../../core/url.js';
import { DEFAULT_NAMESPACE, MGMT_API_VERSION, MGMT_PROVIDER, type RuleName } from '../../model/mgmt.js';
import { authenticator } from '../auth/authenticator.js';
import { serviceBase } from '../service.js';
import { checkSegment } from './validate.js';

export type MgmtFamily = keyof typeof MGMT_API_VERSION;


/** Percent-encodes one path segment (values were checked against their rules before; core/url.ts refuses what would move the path). */
export const seg = (v: string, what = 'path segment'): string => pathSegment(v, what);

/** Where a setting's value came from, for messages: `--subscription`, `VX_SUBSCRIPTION`, `profile setting mgmt.subscription`. */
function sourceLabel(config: Config, key: string, flagName: string, flag?: string): string {
  const r = config.resolve(key, flag);
  if (!r || r.source === 'flag') return flagName;
  if (r.source === 'env') return `${r.origin} (${flagName})`;
  return `profile setting ${key} (${flagName})`;
}

/**
 * The subscription: `--subscription` > VX_SUBSCRIPTION > profile, checked as a GUID before anything
 * is sent. The health and quota specs only say "a string", but every subscription id is a GUID:
 * `abc` would only buy a 404 from the service (the emulator keeps the spec's looser rule).
 */
export function resolveSubscription(config: Config, flag: string | undefined): string {
  const value = config.require('mgmt.subscription', flag, 'the subscription id (--subscription)');
  return checkSegment('subscriptionUuid', value, `subscription id from ${sourceLabel(config, 'mgmt.subscription', '--subscription', flag)}`);
}

/**
 * A setting that becomes a path segment (`mgmt.provider`, `mgmt.location`): flag > env > profile,
 * checked against its rule; a broken one names where it came from (`VX_MGMT_PROVIDER (--provider)`,
 * `profile setting mgmt.location (--location)`), not only the flag the person may not have given.
 */
export function resolveSegment(config: Config, key: string, flag: string | undefined, flagName: string, rule: RuleName, what: string): string {
  const value = config.require(key, flag, `${what} (${flagName})`);
  const from = sourceLabel(config, key, flagName, flag);
  return checkSegment(rule, value, from);
}

export function resolveNamespace(config: Config): string {
  return config.checked('mgmt.namespace') || DEFAULT_NAMESPACE;
}

/** Adds `api-version` to a URL the service handed out (next link, Location) when it has none. */
export function withApiVersion(url: string, version: string | undefined): string {
  if (!version) return url;
  const u = new URL(url);
  if (u.searchParams.has('api-version')) return url;
  return `${url}${u.search ? '&' : '?'}api-version=${encodeURIComponent(version)}`;
}

export class MgmtClient {
  private constructor(
    private readonly http: Http,
    readonly base: string,
    readonly auth: Authenticator,
    readonly namespace: string,
  ) {}

  /** Resolves endpoint, namespace and token (a missing token is exit 3, nothing sent). */
  static async open(http: Http, config: Config): Promise<MgmtClient> {
    const base = serviceBase(config, 'mgmt');
    const ns = resolveNamespace(config);
    return new MgmtClient(http, base, await authenticator(config, 'mgmt', http), ns);
  }

  get dryRun(): boolean {
    return this.http.dryRun;
  }

  /** `Vendor.ResourceHealth`, `Vendor.Capacity`, `Vendor.ApiManagement` */
  provider(family: MgmtFamily): string {
    return `${this.namespace}.${MGMT_PROVIDER[family]}`;
  }

  /** base + path + `?api-version=<family's>` + the other query parameters */
  url(family: MgmtFamily, path: string, query: Record<string, QueryValue> = {}): string {
    return `${this.base}${path}${buildQuery({ 'api-version': MGMT_API_VERSION[family], ...query })}`;
  }

  /**
   * Pacing shared by every request of this client (core/pacer.ts), one unit a request: a 429 from
   * the resource manager then slows all of a run's concurrent requests, not just the one answered.
   */
  pacer?: Paced;

  send(req: HttpRequest): Promise<HttpResponse> {
    const pace = req.pace ?? (this.pacer ? { pacer: this.pacer, cost: 1 } : undefined);
    return this.http.send({ ...req, pace, auth: this.auth });
  }

  /** Records a request for --dry-run without sending it. */
  plan(req: HttpRequest): void {
    this.http.plan({ ...req, auth: this.auth });
  }

  /**
   * Every item of a list, following `nextLink` (absent, null or empty ends it); `max` caps the
   * total. A next link without an api-version gets the one of the first request.
   */
  async *list<T>(url: string, max?: number): AsyncGenerator<T> {
    const version = new URL(url).searchParams.get('api-version') ?? undefined;
    for await (const item of paginate<unknown>(url, async (u) => (await this.send({ method: 'GET', url: withApiVersion(u, version) })).json(), { max, nextKey: 'nextLink' })) {
      // every item of these lists is a resource (an object); anything else would surface later as
      // an unreadable TypeError from the table or the sort
      if (!item || typeof item !== 'object' || Array.isArray(item)) {
        throw new ServiceError(`the service listed an item that is not a resource: ${String(JSON.stringify(item)).slice(0, 60)} (in the list at ${url})`);
      }
      yield item as T;
    }
  }
}
