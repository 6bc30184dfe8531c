// Where each service lives and how a request to it is authenticated. The only place that turns
// settings into base URLs and credential headers; every family client goes through it.
import type { Config } from '../core/config.js';
import { AuthError } from '../core/errors.js';
import { SIGN_IN_SERVICE, type Http } from '../core/http.js';
import { normalizeBase } from '../core/url.js';
import { FAMILY_NAMES, familyOf, type FamilyName } from '../spec/families.js';

export const SERVICES = FAMILY_NAMES;
export type ServiceName = FamilyName;

/** the setting holding a service's base URL */
export function endpointKey(service: ServiceName): string {
  return familyOf(service).endpoint;
}

export function credentialKey(service: ServiceName): string {
  return familyOf(service).credential;
}

/** The configured base URL of a service, without a trailing slash. */
export function serviceBase(config: Config, service: ServiceName, flag?: string): string {
  const key = familyOf(service).endpoint;
  return normalizeBase(config.require(key, flag), key);
}

/**
 * The headers that authenticate a request to a service: the subscription key (and optional
 * region) for the translator, a bearer token for the others. A missing credential is exit 3, and
 * so is a stored sign-in that has expired (before any request is sent) unless a stored refresh
 * token renews it. Pass the command's Http so a refresh is traced and timed like any request.
 */
export async function authHeaders(config: Config, service: ServiceName, http?: Http): Promise<Record<string, string>> {
  // the symbol travels with the headers (spread copies it) and carries what a 401 should advise
  const tag = { [SIGN_IN_SERVICE]: signInAdvice(config, service) } as Record<string, string>;
  const { auth } = familyOf(service);
  if (auth.kind === 'key') {
    const key = await credential(config, service, http);
    const region = auth.region && config.get(auth.region.setting);
    return region ? { ...tag, [auth.header]: key, [auth.region!.header]: region } : { ...tag, [auth.header]: key };
  }
  return { ...tag, Authorization: `Bearer ${await credential(config, service, http)}` };
}

/**
 * What to do about a refused credential: sign in again, unless it came from an environment
 * variable, which wins over any sign-in (a new one would change nothing while it is set).
 */
export function signInAdvice(config: Config, service: ServiceName): string {
  const login = `\`vx auth login --service ${service}\``;
  const r = config.resolve(familyOf(service).credential);
  return r?.source === 'env' ? `the credential came from ${r.origin}, which wins over any sign-in: correct it, or unset it and sign in with ${login}` : `sign in again with ${login}`;
}

/**
 * The credential of a service (flag > env > profile), checked for expiry when it is a stored
 * sign-in: an expired one is renewed with its refresh token (or, for a client-credentials sign-in,
 * with the client secret from VX_CLIENT_SECRET / auth.clientSecret) when there is one, else refused.
 */
export async function credential(config: Config, service: ServiceName, http?: Http): Promise<string> {
  const key = familyOf(service).credential;
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
