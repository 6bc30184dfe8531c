// Where and as whom a family signs in: the authority URLs under {auth_url}/{tenant}/oauth2/ and
// the client id, tenant and scope. Precedence for each: flag > environment (VX_TENANT,
// VX_CLIENT_ID) > the family's profile key (erp.tenant) > the profile's auth.* key > default.
import type { Config } from '../../core/config/index.js';
import { UsageError } from '../../core/errors.js';
import { isLoopbackHost, normalizeBase, pathSegment } from '../../core/url.js';
import type { OAuthFamily } from './credentials.js';

export interface Authority {
  family: OAuthFamily;
  authUrl: string;
  tenant: string;
  clientId: string;
  scope: string;
  authorizeUrl: string;
  deviceCodeUrl: string;
  tokenUrl: string;
  /** plain http is allowed only to a loopback address */
  insecure: boolean;
}

/** flag > env (of the auth.* key) > profile <family>.<name> > profile auth.<name> > default */
function pick(config: Config, family: OAuthFamily, name: 'tenant' | 'clientId', flag?: string): string {
  if (flag !== undefined) return given(flag, name === 'tenant' ? '--tenant' : '--client-id');
  const general = config.resolve(`auth.${name}`);
  if (general?.source === 'env') return general.value;
  return config.get(`${family}.${name}`) ?? general?.value ?? '';
}

/** A flag given as an empty value ("--tenant $UNSET") is refused, never taken as "use the default". */
function given(flag: string, name: string): string {
  if (!flag.trim()) throw new UsageError(`${name} was given as an empty value; leave the option out to use the environment or profile setting (nothing was sent)`);
  return flag;
}

export function authority(config: Config, family: OAuthFamily, flags: { tenant?: string; clientId?: string; scope?: string } = {}): Authority {
  const authUrl = normalizeBase(config.require('auth.url'), 'auth.url');
  const u = new URL(authUrl);
  const insecure = u.protocol === 'http:';
  if (insecure && !isLoopbackHost(u.hostname)) {
    throw new UsageError(`auth.url ${authUrl} must use https (plain http is accepted only for a loopback address)`);
  }
  const tenant = pick(config, family, 'tenant', flags.tenant);
  const clientId = pick(config, family, 'clientId', flags.clientId);
  if (!/^[A-Za-z0-9._-]+$/.test(tenant)) throw new UsageError(`invalid tenant "${tenant}": expected a tenant id or domain name`);
  if (!clientId) throw new UsageError('no client id: pass --client-id or set auth.clientId');
  const scope = (flags.scope !== undefined ? given(flags.scope, '--scope') : config.get(`${family}.scope`)) || 'user_impersonation';
  const base = `${authUrl}/${pathSegment(tenant, 'tenant')}/oauth2`;
  return {
    family,
    authUrl,
    tenant,
    clientId,
    scope,
    authorizeUrl: `${base}/authorize`,
    deviceCodeUrl: `${base}/devicecode`,
    tokenUrl: `${base}/token`,
    insecure,
  };
}

/** What to do about the OAuth errors a sign-in meets (RFC 6749 5.2, RFC 8628 3.5). */
const OAUTH_ADVICE: Record<string, string> = {
  invalid_client: 'check the application (client) id (--client-id, VX_CLIENT_ID or auth.clientId) and, for --client-credentials, its secret (VX_CLIENT_SECRET or --with-secret)',
  unauthorized_client: 'this application (client id) may not sign in this way: check --client-id, or ask an administrator of the tenant',
  invalid_scope: 'check the scope (--scope or <service>.scope; default user_impersonation)',
  invalid_request: 'check the tenant (--tenant, VX_TENANT or auth.tenant) and the client id',
  access_denied: 'the sign-in was declined; run the same `vx auth login` again to retry',
  expired_token: 'the code was not entered in time; run the same `vx auth login` again and enter the new code',
};

export function oauthAdvice(error: string): string | undefined {
  return Object.hasOwn(OAUTH_ADVICE, error) ? OAUTH_ADVICE[error] : undefined;
}
