// Renews an expired stored sign-in, with its refresh token or (client credentials) the client
// secret at hand, and stores the new tokens.
import type { Config } from '../../core/config/index.js';
import { AuthError, VxError } from '../../core/errors.js';
import type { Http } from '../../core/http/index.js';
import { authority } from './authority.js';
import { credentialKey } from '../service.js';
import { isExpired, renewalMeans, saveCredential, storedSignIn, type OAuthFamily, type SignInRecord } from './credentials.js';
import { clientCredentialsGrant, refreshTokenGrant } from './oidc.js';

/**
 * Renews under the config lock: a refresh token can be used once, so when several vx processes
 * find the same sign-in expired, the first renews it and the others, once they get the lock, find
 * the renewed token in the profile and use it instead of spending the used-up refresh token.
 */
export async function renew(
  config: Config,
  family: OAuthFamily,
  using: { refreshToken?: string; clientSecret?: string },
  record: SignInRecord,
  http: Http,
): Promise<string> {
  return config.exclusive(async () => {
    // read afresh under the lock: renewed meanwhile by another vx?
    const current = storedSignIn(config, family);
    const token = config.profile()[credentialKey(family)];
    if (current && token && !isExpired(current)) return token;
    return renewNow(config, family, (current && renewalMeans(config, family, current)) || using, current ?? record, http);
  });
}

/**
 * After the service refused `refused` (401) although its sign-in had not expired by this clock
 * (revoked, or the clocks disagree): renews it under the config lock, unless another vx already
 * stored a newer token. Undefined when it cannot be renewed (no refresh token or secret, or the
 * server refused the renewal): the 401 then stands, with its advice to sign in again.
 */
export async function renewRefused(config: Config, family: OAuthFamily, refused: string, http: Http): Promise<string | undefined> {
  return config.exclusive(async () => {
    const current = storedSignIn(config, family);
    const token = config.profile()[credentialKey(family)];
    if (!current || !token) return undefined; // signed out meanwhile
    if (token !== refused && !isExpired(current)) return token;
    const means = renewalMeans(config, family, current);
    if (!means) return undefined;
    try {
      return await renewNow(config, family, means, current, http);
    } catch (e) {
      if (e instanceof AuthError) return undefined;
      throw e;
    }
  });
}

/** Renews now, without the lock (under --dry-run: plans the grant's request, stores nothing). */
export async function renewNow(
  config: Config,
  family: OAuthFamily,
  using: { refreshToken?: string; clientSecret?: string },
  record: SignInRecord,
  http: Http,
): Promise<string> {
  try {
    const auth = authority(config, family, { clientId: record.clientId, tenant: record.tenant });
    const got = using.refreshToken ? await refreshTokenGrant(auth, http, using.refreshToken) : await clientCredentialsGrant(auth, http, using.clientSecret ?? '');
    await saveCredential(config, family, record.method, { ...got, refreshToken: got.refreshToken ?? using.refreshToken }, { clientId: auth.clientId, tenant: auth.tenant });
    return got.accessToken;
  } catch (e) {
    if (e instanceof AuthError) {
      throw new AuthError(
        `the ${family} sign-in stored in profile "${config.profileName()}" expired at ${record.expiresAt} and could not be renewed (${e.message}); sign in again with \`vx auth login --service ${family}\``,
        { code: e.code },
      );
    }
    throw e instanceof VxError ? e : new AuthError(String(e));
  }
}
