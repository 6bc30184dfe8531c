// Pure logic of sign-in: expiry records, JWT expiry, fragment parsing, authority resolution.
import { describe, expect, it } from 'vitest';
import { authority } from '../../src/api/auth/authority.js';
import { authorizeUrl, parseFragment } from '../../src/api/auth/browser.js';
import { EXPIRY_SKEW_MS, fingerprint, isExpired, jwtExpiry, parseSignIn } from '../../src/api/auth/credentials.js';
import { SETTINGS } from '../../src/api/settings.js';
import { platformBrowser } from '../../src/api/auth/sign-in.js';
import { Config } from '../../src/core/config/index.js';
import { AuthError, UsageError } from '../../src/core/errors.js';
import { redact } from '../../src/core/redact.js';
import { tempDir } from '../helpers/vx.js';

const jwt = (payload: object) => ['{"alg":"none"}', JSON.stringify(payload)].map((s) => Buffer.from(s).toString('base64url')).join('.') + '.sig';

describe('sign-in records', () => {
  it('an expiry counts from 30 s before the stated time; no expiry never expires', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const at = (ms: number) => ({ method: 'browser' as const, fingerprint: 'x', at: '', expiresAt: new Date(now + ms).toISOString() });
    expect(isExpired(at(EXPIRY_SKEW_MS + 1000), now)).toBe(false);
    expect(isExpired(at(EXPIRY_SKEW_MS), now)).toBe(true);
    expect(isExpired(at(-1), now)).toBe(true);
    expect(isExpired({ method: 'token', fingerprint: 'x', at: '' }, now)).toBe(false);
    expect(isExpired(undefined, now)).toBe(false);
  });

  it('reads the exp claim of a JWT and nothing else', () => {
    expect(jwtExpiry(jwt({ exp: 1_800_000_000 }))?.toISOString()).toBe('2027-01-15T08:00:00.000Z');
    expect(jwtExpiry(jwt({ nbf: 1 }))).toBeUndefined();
    expect(jwtExpiry(jwt({ exp: 'soon' }))).toBeUndefined();
    expect(jwtExpiry('emu.abcdef')).toBeUndefined();
    expect(jwtExpiry('a.!!!.c')).toBeUndefined();
  });

  it('parses only well-formed records; fingerprints differ per secret and do not reveal it', () => {
    expect(parseSignIn('{"method":"browser","fingerprint":"ab"}')).toEqual({ method: 'browser', fingerprint: 'ab' });
    expect(parseSignIn('{"method":"browser"}')).toBeUndefined();
    expect(parseSignIn('not json')).toBeUndefined();
    expect(parseSignIn(undefined)).toBeUndefined();
    expect(fingerprint('token-a')).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint('token-a')).not.toBe(fingerprint('token-b'));
  });
});

describe('the browser answer', () => {
  it('accepts a matching state and reads token and expiry', () => {
    expect(parseFragment('#access_token=tok-123456&token_type=Bearer&expires_in=3599&state=s1', 's1')).toEqual({ accessToken: 'tok-123456', expiresIn: 3599 });
    expect(parseFragment('access_token=tok-123456&state=s1', 's1')).toEqual({ accessToken: 'tok-123456', expiresIn: undefined });
  });

  it('refuses a wrong or missing state before anything else, an error answer, no token, another token type', () => {
    expect(() => parseFragment('access_token=t&state=s2', 's1')).toThrow(/does not carry the state/);
    expect(() => parseFragment('error=access_denied&state=s2', 's1')).toThrow(/does not carry the state/);
    expect(() => parseFragment('access_token=t', 's1')).toThrow(AuthError);
    expect(() => parseFragment('error=access_denied&error_description=No&state=s1', 's1')).toThrow('sign-in failed: access_denied: No');
    expect(() => parseFragment('state=s1', 's1')).toThrow('carries no access_token');
    expect(() => parseFragment('access_token=t&token_type=mac&state=s1', 's1')).toThrow('unsupported token_type "mac"');
  });
});

describe('authority', () => {
  const config = (profile: Record<string, string>, env: Record<string, string> = {}) => {
    const dir = tempDir();
    const c = new Config(SETTINGS, { dir, env: { VX_AUTH_URL: 'http://127.0.0.1:4010/auth/', ...env } });
    (c as unknown as { data: unknown }).data = { profiles: { default: profile } };
    return c;
  };

  it('builds the authority URLs under {auth_url}/{tenant}/oauth2 with defaults', () => {
    const a = authority(config({}), 'mgmt');
    expect(a).toMatchObject({
      tenant: 'common',
      clientId: 'vx-cli',
      scope: 'user_impersonation',
      authorizeUrl: 'http://127.0.0.1:4010/auth/common/oauth2/authorize',
      deviceCodeUrl: 'http://127.0.0.1:4010/auth/common/oauth2/devicecode',
      tokenUrl: 'http://127.0.0.1:4010/auth/common/oauth2/token',
      insecure: true,
    });
    expect(authorizeUrl(a, 'http://127.0.0.1:5/callback', 'st')).toBe(
      'http://127.0.0.1:4010/auth/common/oauth2/authorize?client_id=vx-cli&response_type=token&redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcallback&scope=user_impersonation&state=st',
    );
  });

  it('flag > env > family profile key > auth.* profile key > default', () => {
    const profile = { 'auth.tenant': 'general', 'erp.tenant': 'erp-tenant', 'auth.clientId': 'general-app' };
    expect(authority(config(profile), 'erp')).toMatchObject({ tenant: 'erp-tenant', clientId: 'general-app' });
    expect(authority(config(profile), 'mgmt')).toMatchObject({ tenant: 'general' });
    expect(authority(config(profile, { VX_TENANT: 'env-tenant' }), 'erp')).toMatchObject({ tenant: 'env-tenant' });
    expect(authority(config(profile, { VX_TENANT: 'env-tenant' }), 'erp', { tenant: 'flag-tenant' })).toMatchObject({ tenant: 'flag-tenant' });
    expect(authority(config({ 'lcs.scope': 'https://lcs.example/.default' }), 'lcs').scope).toBe('https://lcs.example/.default');
  });

  it('refuses plain http to a non-loopback host, a malformed tenant and a missing auth.url', () => {
    expect(() => authority(config({}, { VX_AUTH_URL: 'http://login.example.com' }), 'erp')).toThrow(UsageError);
    expect(authority(config({}, { VX_AUTH_URL: 'https://login.example.com' }), 'erp').insecure).toBe(false);
    expect(() => authority(config({}), 'erp', { tenant: '../x' })).toThrow('invalid tenant "../x"');
    const noUrl = new Config(SETTINGS, { dir: tempDir(), env: {} });
    expect(() => authority(noUrl, 'erp')).toThrow(/auth\.url|sign-in address/);
  });
});

describe('redaction of sign-in traffic', () => {
  it('masks secrets in form bodies and token responses but keeps the user code readable', () => {
    expect(redact('grant_type=client_credentials&client_id=a&client_secret=s3cr3t')).toBe('grant_type=client_credentials&client_id=a&client_secret=***');
    expect(redact('device_code=dc-1&grant_type=x')).toBe('device_code=***&grant_type=x');
    expect(redact('{"access_token":"abc","refresh_token":"def","user_code":"AB-CD"}')).toBe('{"access_token":"***","refresh_token":"***","user_code":"AB-CD"}');
    expect(redact('open http://h/device?user_code=AB-CD)')).toBe('open http://h/device?user_code=AB-CD)');
  });
});

describe('whether a browser can be opened for the person', () => {
  it('a display (X forwarding too), or macOS/Windows at their own screen; not macOS/Windows over SSH (open would show it on the far screen)', () => {
    expect(platformBrowser('linux', {})).toBe(false);
    expect(platformBrowser('linux', { DISPLAY: 'localhost:10.0', SSH_CONNECTION: '10.0.0.2 5000 10.0.0.1 22' })).toBe(true);
    expect(platformBrowser('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(platformBrowser('darwin', {})).toBe(true);
    expect(platformBrowser('win32', {})).toBe(true);
    expect(platformBrowser('darwin', { SSH_CONNECTION: '10.0.0.2 5000 10.0.0.1 22' })).toBe(false);
    expect(platformBrowser('win32', { SSH_TTY: '/dev/pts/1' })).toBe(false);
  });
});
