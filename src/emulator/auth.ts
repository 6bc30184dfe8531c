// Identity endpoints of the emulator, under {auth_url} = <emulator>/auth:
//   GET  /{tenant}/oauth2/authorize   implicit flow (response_type=token): auto-approves and
//                                     redirects (302) to the loopback redirect_uri with
//                                     #access_token=...&token_type=Bearer&expires_in=...&scope=...&state=...
//   POST /{tenant}/oauth2/devicecode  device authorization (RFC 8628)
//   GET  /device?user_code=...        the page a person opens to approve a device code
//   POST /{tenant}/oauth2/token       grants: device_code, client_credentials, refresh_token
// Issued access tokens are accepted by the translator, erp, lcs and mgmt families until they
// expire. `state.auth.tokenTtl` (seconds, default 3600) sets the lifetime of new tokens.
import { randomBytes, randomUUID } from 'node:crypto';
import { EmuError, type EmuReply, type EmuRequest, type FamilyDef } from './server/index.js';
import { anyObject, number, recordOf, shape } from './state-check.js';

/** the client secret the emulator's token endpoint accepts for the client credentials grant */
export const EMULATOR_CLIENT_SECRET = 'emulator-secret';
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

interface DeviceEntry {
  userCode: string;
  clientId: string;
  scope: string;
  expiresAt: number;
  approved: boolean;
}

export interface AuthState {
  /** lifetime of new access tokens in seconds */
  tokenTtl: number;
  /** lifetime of new refresh tokens in seconds */
  refreshTtl: number;
  /** polling interval announced for device codes, in seconds */
  deviceInterval: number;
  devices: Record<string, DeviceEntry>;
}

/**
 * The auth state, its device codes kept out of `GET /_emulator/state` and --state files: a device
 * code is a credential (whoever polls with it once the code is approved gets the tokens), and
 * anyone on the machine can read those
 */
function st(req: EmuRequest): AuthState {
  return hideDevices(req.emulator.state.auth as AuthState);
}

function hideDevices(s: AuthState): AuthState {
  if (!s.devices || Object.prototype.propertyIsEnumerable.call(s, 'devices')) {
    Object.defineProperty(s, 'devices', { value: s.devices ?? {}, enumerable: false, writable: true });
  }
  return s;
}

const oauthError = (status: number, code: string, description: string) => new EmuError(status, code, description);

function isLoopbackRedirect(uri: string): boolean {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  return u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]') && !u.hash;
}

function newToken(): string {
  return `emu.${randomBytes(24).toString('base64url')}`;
}

/** Issues an access token (and optionally a refresh token) the other families accept. */
function issue(req: EmuRequest, scope: string, withRefresh: boolean): Record<string, unknown> {
  const s = st(req);
  const accessToken = newToken();
  const now = Date.now();
  req.emulator.tokens.set(accessToken, { expiresAt: now + s.tokenTtl * 1000, scope });
  const body: Record<string, unknown> = { token_type: 'Bearer', access_token: accessToken, expires_in: s.tokenTtl, scope };
  if (withRefresh) {
    const refreshToken = `emu-refresh.${randomBytes(24).toString('base64url')}`;
    req.emulator.tokens.set(refreshToken, { expiresAt: now + s.refreshTtl * 1000, scope, refresh: true });
    body.refresh_token = refreshToken;
  }
  return body;
}

function authorize(req: EmuRequest): EmuReply {
  const q = req.query;
  const redirectUri = q.get('redirect_uri') ?? '';
  if (!redirectUri || !isLoopbackRedirect(redirectUri)) {
    throw oauthError(400, 'invalid_request', 'redirect_uri must be an http loopback address (127.0.0.1, localhost or [::1]) without a fragment.');
  }
  if (!q.get('client_id')) throw oauthError(400, 'invalid_request', 'client_id is required.');
  const back = (params: Record<string, string>): EmuReply => {
    const state = q.get('state');
    const fragment = new URLSearchParams({ ...params, ...(state !== null ? { state } : {}) });
    return { status: 302, headers: { location: `${redirectUri}#${fragment.toString()}`, 'cache-control': 'no-store' } };
  };
  if (q.get('response_type') !== 'token') {
    return back({ error: 'unsupported_response_type', error_description: 'Only response_type=token (implicit flow) is supported here.' });
  }
  const scope = q.get('scope');
  if (!scope) return back({ error: 'invalid_scope', error_description: 'scope is required (user_impersonation).' });
  const t = issue(req, scope, false);
  return back({ access_token: String(t.access_token), token_type: 'Bearer', expires_in: String(t.expires_in), scope });
}

function form(req: EmuRequest): URLSearchParams {
  const ct = String(req.headers['content-type'] ?? '');
  if (!ct.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw oauthError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.');
  }
  return new URLSearchParams(req.text);
}

/** client_id and client_secret from the body (client_secret_post) or HTTP Basic. */
function clientOf(req: EmuRequest, body: URLSearchParams): { id?: string; secret?: string } {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Basic\s+/i.test(auth)) {
    const decoded = Buffer.from(auth.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i > 0) return { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
  }
  return { id: body.get('client_id') ?? undefined, secret: body.get('client_secret') ?? undefined };
}

function deviceCode(req: EmuRequest): EmuReply {
  const body = form(req);
  const clientId = body.get('client_id');
  if (!clientId) throw oauthError(400, 'invalid_request', 'client_id is required.');
  const scope = body.get('scope');
  if (!scope) throw oauthError(400, 'invalid_scope', 'scope is required (user_impersonation).');
  const s = st(req);
  const code = randomUUID();
  const userCode = `${randomBytes(2).toString('hex')}-${randomBytes(2).toString('hex')}`.toUpperCase();
  const expiresIn = 900;
  s.devices[code] = { userCode, clientId, scope, expiresAt: Date.now() + expiresIn * 1000, approved: false };
  const base = `${req.emulator.url}/auth/device`;
  return {
    status: 200,
    headers: { 'cache-control': 'no-store' },
    body: {
      device_code: code,
      user_code: userCode,
      verification_uri: base,
      verification_uri_complete: `${base}?user_code=${encodeURIComponent(userCode)}`,
      expires_in: expiresIn,
      interval: s.deviceInterval,
      message: `To sign in, open ${base} and enter the code ${userCode}.`,
    },
  };
}

/** The page a person opens: with ?user_code= it approves that code (auto-approve). */
function devicePage(req: EmuRequest): EmuReply {
  const userCode = (req.query.get('user_code') ?? '').trim().toUpperCase();
  const html = (title: string, text: string) => ({
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    raw: `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`,
  });
  if (!userCode) return html('Device sign-in', 'Enter the code shown by the application: <form><input name="user_code"><button>Continue</button></form>');
  const entry = Object.values(st(req).devices).find((d) => d.userCode === userCode && d.expiresAt > Date.now());
  if (!entry) return { ...html('Unknown code', 'The code is unknown or expired.'), status: 400 };
  entry.approved = true;
  return html('Signed in', 'You are signed in; return to the application.');
}

function token(req: EmuRequest): EmuReply {
  const body = form(req);
  const grant = body.get('grant_type');
  const client = clientOf(req, body);
  const ok = (b: Record<string, unknown>): EmuReply => ({ status: 200, headers: { 'cache-control': 'no-store', pragma: 'no-cache' }, body: b });
  if (!client.id) throw oauthError(400, 'invalid_request', 'client_id is required.');
  switch (grant) {
    case 'client_credentials': {
      if (req.params.tenant === 'common' || req.params.tenant === 'organizations') {
        throw oauthError(400, 'invalid_request', 'The client credentials grant needs a specific tenant, not "common".');
      }
      if (client.secret !== EMULATOR_CLIENT_SECRET) throw oauthError(401, 'invalid_client', 'The client secret is invalid.');
      const scope = body.get('scope');
      if (!scope) throw oauthError(400, 'invalid_scope', 'scope is required.');
      return ok(issue(req, scope, false));
    }
    case DEVICE_CODE_GRANT: {
      const code = body.get('device_code') ?? '';
      const s = st(req);
      const entry = s.devices[code];
      if (!entry || entry.clientId !== client.id) throw oauthError(400, 'invalid_grant', 'The device code is unknown.');
      if (entry.expiresAt <= Date.now()) {
        delete s.devices[code];
        throw oauthError(400, 'expired_token', 'The device code has expired.');
      }
      if (!entry.approved) throw oauthError(400, 'authorization_pending', 'The user has not yet finished signing in.');
      delete s.devices[code];
      return ok(issue(req, entry.scope, true));
    }
    case 'refresh_token': {
      const rt = body.get('refresh_token') ?? '';
      const entry = req.emulator.tokens.get(rt);
      if (!entry?.refresh || entry.expiresAt <= Date.now()) throw oauthError(400, 'invalid_grant', 'The refresh token is invalid or expired.');
      req.emulator.tokens.delete(rt); // rotation: a refresh token is used once
      return ok(issue(req, entry.scope ?? body.get('scope') ?? 'user_impersonation', true));
    }
    default:
      throw oauthError(400, 'unsupported_grant_type', `The grant type "${grant ?? ''}" is not supported.`);
  }
}

export function authFamily(): FamilyDef {
  return {
    name: 'auth',
    prefix: '/auth',
    auth: 'none',
    requestIdHeader: 'x-request-id',
    codes: {
      unauthorized: 'invalid_client',
      notFound: 'not_found',
      badRequest: 'invalid_request',
      badJson: 'invalid_request',
      tooLarge: 'invalid_request',
      throttled: 'temporarily_unavailable',
      unavailable: 'temporarily_unavailable',
      internal: 'server_error',
    },
    // OAuth 2.0 error response
    errorBody: (_s, code, message) => ({ error: code, error_description: message }),
    seed: (): AuthState => hideDevices({ tokenTtl: 3600, refreshTtl: 90 * 24 * 3600, deviceInterval: 1 } as AuthState),
    checkState: shape({ tokenTtl: number, refreshTtl: number, deviceInterval: number, devices: recordOf(anyObject) }, ['devices']),
    routes: [
      { method: 'GET', path: '/{tenant}/oauth2/authorize', handler: authorize },
      { method: 'POST', path: '/{tenant}/oauth2/devicecode', handler: deviceCode },
      { method: 'POST', path: '/{tenant}/oauth2/token', handler: token },
      { method: 'GET', path: '/device', handler: devicePage },
    ],
  };
}
