// Where each service lives and how a request to it is authenticated. The only place that turns
// settings into base URLs and credential headers; every family client goes through it.
import type { Config } from '../core/config.js';
import { AuthError, UsageError } from '../core/errors.js';
import { CREDENTIAL_RENEWER, SIGN_IN_SERVICE, type CredentialRenewer, type Http } from '../core/http/index.js';
import { normalizeBase } from '../core/url.js';
import { FAMILY_NAMES, familyOf, type FamilyName } from '../model/families.js';

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
    const key = checkedCredential(config, service, await credential(config, service, http));
    const region = auth.region && config.get(auth.region.setting);
    return region ? { ...tag, [auth.header]: key, [auth.region!.header]: region } : { ...tag, [auth.header]: key };
  }
  const token = checkedCredential(config, service, await credential(config, service, http));
  const renewer = await storedSignInRenewer(config, service, token, http);
  return { ...tag, ...(renewer ? { [CREDENTIAL_RENEWER]: renewer } : {}), Authorization: `Bearer ${token}` };
}

/**
 * For a token from a stored sign-in that expires: what keeps it current through a long run (see
 * core/http.ts CREDENTIAL_RENEWER). Before each request, an expired token is renewed (or refused
 * with "sign in again", as at the start); a 401 renews it once. One renewal at a time per run: the
 * requests in flight wait for it and share its token.
 */
async function storedSignInRenewer(config: Config, service: ServiceName, token: string, http?: Http): Promise<CredentialRenewer | undefined> {
  if (config.resolve(credentialKey(service))?.source !== 'profile') return undefined;
  const { storedOwner, storedSignIn, isOAuthFamily, EXPIRY_SKEW_MS } = await import('./auth/credentials.js');
  const owner = storedOwner(config, service);
  if (!owner || !isOAuthFamily(owner) || !storedSignIn(config, owner)) return undefined;
  let inUse = token;
  // the tokens this run was given: a request carrying another one (vx api -H) is not touched
  const ours = new Set([token]);
  const sentToken = (sent: Record<string, string>) => (sent.authorization ?? '').replace(/^Bearer\s+/i, '');
  let expiresAt = Date.parse(storedSignIn(config, owner)?.expiresAt ?? '');
  let pending: Promise<string | undefined> | undefined;
  const once = (renewal: () => Promise<string | undefined>) =>
    (pending ??= renewal()
      .then((t) => {
        if (t) {
          [inUse, expiresAt] = [t, Date.parse(storedSignIn(config, owner)?.expiresAt ?? '')];
          ours.add(t);
        }
        return t;
      })
      .finally(() => (pending = undefined)));
  const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
  return {
    async current(sent) {
      if (!ours.has(sentToken(sent))) return undefined;
      // the headers a client made at the start still carry the first token: always the one in use
      if (expiresAt - EXPIRY_SKEW_MS <= Date.now() || pending) await once(() => credential(config, service, http));
      return bearer(inUse);
    },
    async refused(sent) {
      const refused = sentToken(sent);
      if (!ours.has(refused)) return undefined;
      if (refused !== inUse) return bearer(inUse); // renewed meanwhile by another request of this run
      const { renewRefused } = await import('./auth/renew.js');
      const t = await once(() => renewRefused(config, owner, refused, http));
      return t ? bearer(t) : undefined;
    },
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
