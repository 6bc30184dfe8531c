// Where each service lives and how a request to it is authenticated. The only place that turns
// settings into base URLs and credential headers; every family client goes through it.
import type { Config } from '../core/config.js';
import { AuthError } from '../core/errors.js';
import { SIGN_IN_SERVICE, type Http } from '../core/http.js';
import { normalizeBase } from '../core/url.js';

export const SERVICES = ['translator', 'erp', 'lcs', 'mgmt'] as const;
export type ServiceName = (typeof SERVICES)[number];

const ENDPOINT_KEY: Record<ServiceName, string> = {
  translator: 'translator.endpoint',
  erp: 'erp.prefix',
  lcs: 'lcs.endpoint',
  mgmt: 'mgmt.endpoint',
};

const CREDENTIAL_KEY: Record<ServiceName, string> = {
  translator: 'translator.key',
  erp: 'erp.token',
  lcs: 'lcs.token',
  mgmt: 'mgmt.token',
};

export function endpointKey(service: ServiceName): string {
  return ENDPOINT_KEY[service];
}

export function credentialKey(service: ServiceName): string {
  return CREDENTIAL_KEY[service];
}

/** The configured base URL of a service, without a trailing slash. */
export function serviceBase(config: Config, service: ServiceName, flag?: string): string {
  const key = ENDPOINT_KEY[service];
  return normalizeBase(config.require(key, flag), key);
}

/**
 * The headers that authenticate a request to a service: the subscription key (and optional
 * region) for the translator, a bearer token for the others. A missing credential is exit 3, and
 * so is a stored sign-in that has expired (before any request is sent) unless a stored refresh
 * token renews it. Pass the command's Http so a refresh is traced and timed like any request.
 */
export async function authHeaders(config: Config, service: ServiceName, http?: Http): Promise<Record<string, string>> {
  // the symbol travels with the headers (spread copies it) and names the sign-in a 401 points at
  const tag = { [SIGN_IN_SERVICE]: service } as Record<string, string>;
  if (service === 'translator') {
    const key = await credential(config, service, http);
    const region = config.get('translator.region');
    return region ? { ...tag, 'Vendor-Subscription-Key': key, 'Vendor-Subscription-Region': region } : { ...tag, 'Vendor-Subscription-Key': key };
  }
  return { ...tag, Authorization: `Bearer ${await credential(config, service, http)}` };
}

/**
 * The credential of a service (flag > env > profile), checked for expiry when it is a stored
 * sign-in: an expired one is renewed with its refresh token (or, for a client-credentials sign-in,
 * with the client secret from VX_CLIENT_SECRET / auth.clientSecret) when there is one, else refused.
 */
export async function credential(config: Config, service: ServiceName, http?: Http): Promise<string> {
  const key = CREDENTIAL_KEY[service];
  const r = config.resolve(key);
  if (!r) return config.require(key);
  if (r.source !== 'profile') return r.value;
  const { storedOwner, storedSignIn, isExpired, renewalMeans } = await import('./auth/credentials.js');
  const owner = storedOwner(config, service);
  if (!owner) return r.value;
  const record = storedSignIn(config, owner);
  if (!record || !isExpired(record)) return r.value;
  const means = renewalMeans(config, owner, record);
  if (means && !http?.dryRun) {
    const { renew } = await import('./auth/renew.js');
    return renew(config, owner as 'erp' | 'lcs' | 'mgmt', means, record, http);
  }
  if (means) return r.value; // --dry-run: nothing is sent, the renewal included
  throw new AuthError(
    `the ${owner} sign-in stored in profile "${config.profileName()}" expired at ${record.expiresAt}; sign in again with \`vx auth login --service ${owner}\``,
  );
}
