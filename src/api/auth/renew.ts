// Renews an expired stored sign-in, with its refresh token or (client credentials) the client
// secret at hand, and stores the new tokens.
import type { Config } from '../../core/config.js';
import { AuthError, VxError } from '../../core/errors.js';
import { Http } from '../../core/http.js';
import { authority } from './authority.js';
import { saveCredential, type OAuthFamily, type SignInRecord } from './credentials.js';
import { clientCredentialsGrant, refreshTokenGrant } from './oidc.js';

export async function renew(
  config: Config,
  family: OAuthFamily,
  using: { refreshToken?: string; clientSecret?: string },
  record: SignInRecord,
  http?: Http,
): Promise<string> {
  const client = http ?? new Http({});
  try {
    const auth = authority(config, family, { clientId: record.clientId, tenant: record.tenant });
    const got = using.refreshToken ? await refreshTokenGrant(auth, client, using.refreshToken) : await clientCredentialsGrant(auth, client, using.clientSecret ?? '');
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
  } finally {
    if (!http) await client.close();
  }
}
