// The standard OAuth 2.0 grants through openid-client (device code, client credentials, refresh
// token), configured without discovery from the authority URLs. Every request goes through the
// one HTTP door (core/http/) via openid-client's customFetch, so --debug traces them redacted,
// --timeout/--retries apply and --dry-run sends nothing. openid-client is loaded on first use (a
// bare dynamic import, so the build keeps it out of the start-up file).
import type * as OpenId from 'openid-client';
import { AuthError, errorFromResponse, InterruptedError, VxError } from '../../core/errors.js';
import type { Http } from '../../core/http/index.js';
import { addSecret, redact } from '../../core/redact.js';
import { oauthAdvice, type Authority } from './authority.js';
import type { Obtained } from './credentials.js';

let loaded: typeof OpenId | undefined;
async function openid(): Promise<typeof OpenId> {
  return (loaded ??= await import('openid-client'));
}

async function configuration(auth: Authority, http: Http, secret?: string): Promise<OpenId.Configuration> {
  const client = await openid();
  const config = new client.Configuration(
    { issuer: `${auth.authUrl}/${auth.tenant}`, token_endpoint: auth.tokenUrl, device_authorization_endpoint: auth.deviceCodeUrl },
    auth.clientId,
    undefined,
    secret !== undefined ? client.ClientSecretPost(secret) : client.None(),
  );
  if (auth.insecure) client.allowInsecureRequests(config);
  // no request timeout of openid-client's own (30 s): its signal replaced the command's, so a token
  // endpoint slower than 30 s was "interrupted" (exit 130) whatever --timeout said, and Ctrl-C did
  // not stop a token request (a renewal left the config lock behind). --timeout and Ctrl-C apply
  // through core/http like for any request; the device code deadline still comes as the signal
  config.timeout = 0;
  config[client.customFetch] = async (url, options) => {
    const headers: Record<string, string> = {};
    new Headers(options.headers as HeadersInit).forEach((v, k) => (headers[k] = v));
    delete headers['user-agent']; // vx's own
    const body = options.body === undefined || options.body === null ? undefined : typeof options.body === 'string' ? options.body : String(options.body);
    const res = await http.send({
      method: options.method ?? 'GET',
      url,
      headers,
      body,
      signal: options.signal ?? undefined,
      describe: 'sign-in request',
      // OAuth errors (authorization_pending, invalid_client...) are answers for openid-client to read
      okStatuses: Array.from({ length: 100 }, (_, i) => 400 + i),
    });
    // an answer that is no OAuth error (a 404 page of a wrong auth.url, a proxy's 403): openid-client
    // would say only "unexpected HTTP response status code"; say which address answered what
    const check = `check the sign-in address (VX_AUTH_URL or auth.url: ${redact(auth.authUrl)}) and the tenant (${auth.tenant})`;
    if (res.status >= 400 && !isOAuthError(res.text)) {
      const error = errorFromResponse(res.status, res.text, res.headers);
      error.message = `${options.method ?? 'GET'} ${redact(url)}: ${error.message}`;
      error.hint = check;
      throw error;
    }
    // a 200 that is no JSON (a proxy's login page): was "unexpected response content-type"
    if (res.status < 300 && res.body.length) {
      try {
        res.json();
      } catch (e) {
        if (e instanceof VxError) e.hint = check;
        throw e;
      }
    }
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) out.set(k, v);
    return new Response(res.status === 204 || res.status === 304 ? null : new Uint8Array(res.body), { status: res.status, headers: out });
  };
  return config;
}

/** Whether a body is an OAuth 2.0 error answer ({"error": "invalid_grant", ...}), for openid-client to read. */
function isOAuthError(text: string): boolean {
  try {
    const v = JSON.parse(text) as { error?: unknown };
    return typeof v?.error === 'string';
  } catch {
    return false;
  }
}

/** Turns whatever openid-client throws into a VxError with the server's OAuth error. */
function explain(e: unknown, what: string): never {
  // openid-client wraps what the fetch threw (a network error, an interruption, --dry-run's halt)
  for (let c: unknown = e, i = 0; c && i < 5; c = (c as { cause?: unknown }).cause, i++) if (c instanceof VxError) throw c;
  const err = e as { name?: string; error?: string; error_description?: string; message?: string; code?: string; cause?: unknown };
  if (err?.name === 'AbortError' || err?.name === 'TimeoutError') throw new InterruptedError();
  if (err?.error) {
    const hint = oauthAdvice(err.error);
    throw new AuthError(`${what} failed: ${err.error}${err.error_description ? `: ${err.error_description}` : ''}`, { code: err.error, hint });
  }
  throw new AuthError(`${what} failed: ${err?.message ?? String(e)}`);
}

function obtained(t: OpenId.TokenEndpointResponse & OpenId.TokenEndpointResponseHelpers): Obtained {
  addSecret(t.access_token);
  addSecret(t.refresh_token);
  return { accessToken: t.access_token, expiresIn: t.expiresIn(), refreshToken: t.refresh_token };
}

export interface DeviceCodePrompt {
  userCode: string;
  verificationUri: string;
  verificationUriComplete?: string;
  expiresIn: number;
  message?: string;
}

/** Device authorization (RFC 8628): announces the code, then polls until approved, expired or aborted. */
export async function deviceCodeGrant(
  auth: Authority,
  http: Http,
  onCode: (p: DeviceCodePrompt) => void,
  signal: AbortSignal,
): Promise<Obtained> {
  const client = await openid();
  const config = await configuration(auth, http);
  let d: OpenId.DeviceAuthorizationResponse;
  try {
    d = await client.initiateDeviceAuthorization(config, { scope: auth.scope });
  } catch (e) {
    explain(e, 'device code sign-in');
  }
  addSecret(d.device_code);
  onCode({
    userCode: d.user_code,
    verificationUri: d.verification_uri,
    verificationUriComplete: d.verification_uri_complete,
    expiresIn: d.expires_in,
    message: typeof d.message === 'string' ? d.message : undefined,
  });
  try {
    return obtained(await client.pollDeviceAuthorizationGrant(config, d, undefined, { signal }));
  } catch (e) {
    if (signal.aborted) throw signal.reason instanceof VxError ? signal.reason : new InterruptedError();
    explain(e, 'device code sign-in');
  }
}

export async function clientCredentialsGrant(auth: Authority, http: Http, secret: string): Promise<Obtained> {
  addSecret(secret);
  try {
    const client = await openid();
    return obtained(await client.clientCredentialsGrant(await configuration(auth, http, secret), { scope: auth.scope }));
  } catch (e) {
    explain(e, 'client credentials sign-in');
  }
}

export async function refreshTokenGrant(auth: Authority, http: Http, refreshToken: string): Promise<Obtained> {
  addSecret(refreshToken);
  try {
    const client = await openid();
    return obtained(await client.refreshTokenGrant(await configuration(auth, http), refreshToken, { scope: auth.scope }));
  } catch (e) {
    explain(e, 'refreshing the token');
  }
}
