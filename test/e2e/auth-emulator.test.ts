// The emulator's identity endpoints, spoken to directly as an OAuth 2.0 client would.
import { describe, expect, it } from 'vitest';
import { EMULATOR_CLIENT_SECRET } from '../../src/emulator/auth.js';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const auth = () => e2e.env.VX_AUTH_URL;
const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${auth()}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form) });

describe('emulated identity endpoints', () => {
  it('authorize redirects only to a loopback redirect_uri, with the token in the fragment', async () => {
    const q = (redirect: string) => `${auth()}/common/oauth2/authorize?${new URLSearchParams({ client_id: 'c', response_type: 'token', redirect_uri: redirect, scope: 'user_impersonation', state: 's 1' })}`;
    const bad = await fetch(q('http://example.com/cb'), { redirect: 'manual' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('loopback') });
    const ok = await fetch(q('http://127.0.0.1:9/cb'), { redirect: 'manual' });
    expect(ok.status).toBe(302);
    const loc = new URL(ok.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}`).toBe('http://127.0.0.1:9/cb');
    const f = new URLSearchParams(loc.hash.slice(1));
    expect(Object.fromEntries(f)).toEqual({ access_token: expect.stringMatching(/^emu\./), token_type: 'Bearer', expires_in: '3600', scope: 'user_impersonation', state: 's 1' });
    const code = await fetch(q('http://127.0.0.1:9/cb').replace('response_type=token', 'response_type=code'), { redirect: 'manual' });
    expect(new URLSearchParams(new URL(code.headers.get('location')!).hash.slice(1)).get('error')).toBe('unsupported_response_type');
  });

  it('issued tokens work on every family until they expire', async () => {
    const r = await post('/contoso/oauth2/token', { grant_type: 'client_credentials', client_id: 'a', client_secret: EMULATOR_CLIENT_SECRET, scope: 'x' });
    const { access_token } = await r.json();
    const companies = () => fetch(`${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies`, { headers: { authorization: `Bearer ${access_token}` } });
    expect((await companies()).status).toBe(200);
    e2e.emu.tokens.get(access_token)!.expiresAt = Date.now() - 1;
    const expired = await companies();
    expect(expired.status).toBe(401);
    expect((await expired.json()).error.message).toContain('The access token has expired');
  });

  it('token endpoint: device code pending/approved, refresh rotation, client authentication, grant checks', async () => {
    const d = await (await post('/common/oauth2/devicecode', { client_id: 'c', scope: 'user_impersonation' })).json();
    expect(d).toMatchObject({ user_code: expect.stringMatching(/^[0-9A-F]{4}-[0-9A-F]{4}$/), verification_uri: `${auth()}/device`, interval: 1, expires_in: 900 });
    const poll = () => post('/common/oauth2/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: 'c', device_code: d.device_code });
    const pending = await poll();
    expect(pending.status).toBe(400);
    expect((await pending.json()).error).toBe('authorization_pending');
    expect((await fetch(d.verification_uri_complete)).status).toBe(200);
    const done = await (await poll()).json();
    expect(done).toMatchObject({ token_type: 'Bearer', expires_in: 3600, refresh_token: expect.stringMatching(/^emu-refresh\./) });
    expect((await poll()).status).toBe(400); // used once

    const refresh = () => post('/common/oauth2/token', { grant_type: 'refresh_token', client_id: 'c', refresh_token: done.refresh_token });
    const renewed = await (await refresh()).json();
    expect(renewed.access_token).not.toBe(done.access_token);
    const reused = await refresh();
    expect([reused.status, (await reused.json()).error]).toEqual([400, 'invalid_grant']);
    // a refresh token is not an access token
    const asBearer = await fetch(`${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies`, { headers: { authorization: `Bearer ${renewed.refresh_token}` } });
    expect(asBearer.status).toBe(401);

    const basic = await post('/contoso/oauth2/token', { grant_type: 'client_credentials', scope: 'x' }, { authorization: `Basic ${Buffer.from(`a:${EMULATOR_CLIENT_SECRET}`).toString('base64')}` });
    expect(basic.status).toBe(200);
    const wrong = await post('/contoso/oauth2/token', { grant_type: 'client_credentials', client_id: 'a', client_secret: 'nope', scope: 'x' });
    expect([wrong.status, (await wrong.json()).error]).toEqual([401, 'invalid_client']);
    const common = await post('/common/oauth2/token', { grant_type: 'client_credentials', client_id: 'a', client_secret: EMULATOR_CLIENT_SECRET, scope: 'x' });
    expect([common.status, (await common.json()).error]).toEqual([400, 'invalid_request']);
    const grant = await post('/common/oauth2/token', { grant_type: 'password', client_id: 'a' });
    expect((await grant.json()).error).toBe('unsupported_grant_type');
    const json = await fetch(`${auth()}/common/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
  });
});
