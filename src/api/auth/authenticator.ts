// How a request to a service proves who sends it (core/http's Authenticator, one per kind of
// credential): the subscription key (and optional region) of a key family, or a bearer token. A token
// from a stored sign-in that expires is kept current through a long run (a watch, a poll, a bulk
// import): renewed before a request once it has expired, and once after a 401.
import type { Config } from '../../core/config/index.js';
import { AuthError, UsageError } from '../../core/errors.js';
import type { Authenticator, Http } from '../../core/http/index.js';
import { addSecret } from '../../core/redact.js';
import { credentialHeaders, familyOf, type OAuthFamilyName } from '../../model/families.js';
import { credentialKey, type ServiceName } from '../service.js';

/**
 * The authenticator of a service's requests. A missing credential is exit 3, and so is a stored
 * sign-in that has expired (before any request is sent) unless a stored refresh token renews it.
 * The command's Http carries a renewal, traced and timed like any request.
 */
export async function authenticator(config: Config, service: ServiceName, http: Http): Promise<Authenticator> {
  const advice = signInAdvice(config, service);
  const family = familyOf(service);
  const { auth } = family;
  const value = checkedCredential(config, service, await credential(config, service, http));
  addSecret(value);
  if (auth.kind === 'key') return fixed(credentialHeaders(family, value, config), advice, [auth.header]);
  return (await storedSignIn(config, service, value, advice, http)) ?? fixed(credentialHeaders(family, value, config), advice, ['Authorization']);
}

/** A credential that does not change during a run (a key, a token from the environment or set by hand). */
function fixed(headers: Record<string, string>, advice: string, secretHeaders: string[]): Authenticator {
  const current = Promise.resolve(headers);
  return { headers: () => headers, apply: () => current, renew: async () => undefined, advice, secretHeaders };
}

/**
 * The bearer token of a stored sign-in that expires, kept current: before a request an expired token
 * is renewed (or refused with "sign in again", as at the start); a 401 renews it once. One renewal at
 * a time per run: the requests in flight wait for it and share its token. Undefined when the token is
 * not such a sign-in.
 */
async function storedSignIn(config: Config, service: ServiceName, token: string, advice: string, http: Http): Promise<Authenticator | undefined> {
  if (config.resolve(credentialKey(service))?.source !== 'profile') return undefined;
  const { storedOwner, storedSignIn, isOAuthFamily, EXPIRY_SKEW_MS } = await import('./credentials.js');
  const owner = storedOwner(config, service);
  if (!owner || !isOAuthFamily(owner) || !storedSignIn(config, owner)) return undefined;
  let inUse = token;
  let expiresAt = Date.parse(storedSignIn(config, owner)?.expiresAt ?? '');
  let pending: Promise<string | undefined> | undefined;
  const once = (renewal: () => Promise<string | undefined>) =>
    (pending ??= renewal()
      .then((t) => {
        if (t) [inUse, expiresAt] = [t, Date.parse(storedSignIn(config, owner)?.expiresAt ?? '')];
        return t;
      })
      .finally(() => (pending = undefined)));
  const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
  return {
    headers: () => bearer(inUse),
    async apply() {
      if (expiresAt - EXPIRY_SKEW_MS <= Date.now() || pending) await once(() => credential(config, service, http));
      return bearer(inUse);
    },
    async renew(sent) {
      const refused = (sent.authorization ?? '').replace(/^Bearer\s+/i, '');
      if (refused !== inUse) return bearer(inUse); // renewed meanwhile by another request of this run
      const { renewRefused } = await import('./renew.js');
      const t = await once(() => renewRefused(config, owner, refused, http));
      return t ? bearer(t) : undefined;
    },
    advice,
    secretHeaders: ['Authorization'],
  };
}

/**
 * A credential a header cannot carry, named by where it came from (a key file with Windows line
 * endings gives `VX_TRANSLATOR_KEY=$(cat key.txt)` a trailing CR): refused before anything is
 * sent, never shown. (The header check alone said "the Vendor-Subscription-Key header ...".)
 */
function checkedCredential(config: Config, service: ServiceName, value: string): string {
  if (!/[^\x21-\x7e]/.test(value)) return value;
  const r = config.resolve(familyOf(service).credential);
  const from = r?.source === 'env' ? r.origin : `the ${service} credential stored in profile "${config.profileName()}"`;
  throw new UsageError(
    `${from} holds a character a credential cannot carry (a line ending such as a carriage return, another control character, a space or one beyond ASCII); correct it (nothing was sent)`,
  );
}

/**
 * What to do about a refused credential: sign in again, unless it came from an environment
 * variable, which wins over any sign-in (a new one would change nothing while it is set).
 */
function signInAdvice(config: Config, service: ServiceName): string {
  const login = `\`vx auth login --service ${service}\``;
  const r = config.resolve(familyOf(service).credential);
  return r?.source === 'env' ? `the credential came from ${r.origin}, which wins over any sign-in: correct it, or unset it and sign in with ${login}` : `sign in again with ${login}`;
}

/**
 * The credential of a service (flag > env > profile), checked for expiry when it is a stored
 * sign-in: an expired one is renewed with its refresh token (or, for a client-credentials sign-in,
 * with the client secret from VX_CLIENT_SECRET / auth.clientSecret) when there is one, else refused.
 */
export async function credential(config: Config, service: ServiceName, http: Http): Promise<string> {
  const key = familyOf(service).credential;
  const r = config.resolve(key);
  if (!r) return config.require(key);
  if (r.source !== 'profile') return r.value;
  const { storedOwner, storedSignIn, isExpired, renewalMeans } = await import('./credentials.js');
  const owner = storedOwner(config, service);
  if (!owner) return r.value;
  const record = storedSignIn(config, owner);
  if (!record || !isExpired(record)) return r.value;
  const means = renewalMeans(config, owner, record);
  if (means && !http.dryRun) {
    const { renew } = await import('./renew.js');
    return renew(config, owner as OAuthFamilyName, means, record, http);
  }
  if (means) return r.value; // --dry-run: nothing is sent, the renewal included
  throw new AuthError(
    `the ${owner} sign-in stored in profile "${config.profileName()}" expired at ${record.expiresAt}; sign in again with \`vx auth login --service ${owner}\``,
  );
}
