// A stored sign-in through a long run (a watch, a poll, a bulk import): the token the client took
// at the start is renewed when it expires mid-run, and once after a 401, with one renewal shared
// by the requests in flight; a renewal that cannot be made leaves the 401 and its advice.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fingerprint } from '../../src/api/auth/credentials.js';
import { authenticator } from '../../src/api/auth/authenticator.js';
import { SETTINGS } from '../../src/api/settings.js';
import { Config } from '../../src/core/config/index.js';
import { AuthError } from '../../src/core/errors.js';
import { Http } from '../../src/core/http/index.js';
import { HttpMock, json } from '../helpers/httpmock.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const BASE = 'http://127.0.0.1:9';
const TOKEN_URL = `${BASE}/auth/common/oauth2/token`;
const API = `${BASE}/erp/api/v2.0/companies`;
const START = Date.parse('2026-06-01T10:00:00Z');

let dir: string;
beforeEach(() => {
  dir = tempDir();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
  removeDir(dir);
});

async function signedIn(opts: { refreshToken?: string } = { refreshToken: 'rt-1' }): Promise<Config> {
  const config = new Config(SETTINGS, { dir, env: {} });
  const record = { method: 'device-code', expiresAt: new Date(START + 3600_000).toISOString(), fingerprint: fingerprint('tok-1'), clientId: 'vx-cli', tenant: 'common', at: new Date(START).toISOString() };
  await config.setMany({
    'erp.prefix': `${BASE}/erp`,
    'auth.url': `${BASE}/auth`,
    'erp.token': 'tok-1',
    'erp.signIn': JSON.stringify(record),
    'erp.refreshToken': opts.refreshToken,
  });
  return new Config(SETTINGS, { dir, env: {} });
}

/** The token endpoint hands out tok-2, tok-3, ... with rotated refresh tokens; the API accepts the tokens in `valid`. */
function service(valid: Set<string>) {
  const mock = new HttpMock();
  let n = 1;
  mock.stub(
    'POST',
    TOKEN_URL,
    () => {
      n++;
      valid.add(`tok-${n}`);
      return json(200, { token_type: 'Bearer', access_token: `tok-${n}`, expires_in: 3600, refresh_token: `rt-${n}` });
    },
    100,
  );
  mock.stub('GET', API, (req) => (valid.has(req.headers.authorization?.replace('Bearer ', '') ?? '') ? json(200, { value: [] }) : json(401, { error: { code: 'Authentication_InvalidCredentials', message: 'The access token has expired.' } })), 100);
  const sent = () => mock.requests.map((r) => (r.method === 'POST' ? 'renew' : r.headers.authorization));
  return { mock, sent };
}

const stored = (key: string) => new Config(SETTINGS, { dir, env: {} }).profile()[key];

describe('a stored sign-in during a long run', () => {
  it('an access token that expires mid-run is renewed before the next request, once, and stored', async () => {
    const config = await signedIn();
    const { mock, sent } = service(new Set(['tok-1']));
    const http = new Http({ transport: mock.transport });
    const auth = await authenticator(config, 'erp', http);
    await http.send({ method: 'GET', url: API, auth });
    vi.setSystemTime(START + 3600_000 - 10_000); // within the 30 s before the stated expiry
    await http.send({ method: 'GET', url: API, auth });
    await http.send({ method: 'GET', url: API, auth });
    expect(sent()).toEqual(['Bearer tok-1', 'renew', 'Bearer tok-2', 'Bearer tok-2']);
    expect(mock.requests[1].text).toContain('refresh_token=rt-1');
    expect([stored('erp.token'), stored('erp.refreshToken')]).toEqual(['tok-2', 'rt-2']);
  });

  it('requests in flight when it expires share one renewal (a refresh token works once)', async () => {
    const config = await signedIn();
    const { mock, sent } = service(new Set(['tok-1']));
    const http = new Http({ transport: mock.transport });
    const auth = await authenticator(config, 'erp', http);
    vi.setSystemTime(START + 7200_000);
    await Promise.all(Array.from({ length: 5 }, () => http.send({ method: 'GET', url: API, auth })));
    expect(sent().filter((s) => s === 'renew')).toHaveLength(1);
    expect(sent().filter((s) => s === 'Bearer tok-2')).toHaveLength(5);
  });

  it('a 401 to a token that has not expired by this clock renews it and sends the request once more', async () => {
    const config = await signedIn();
    const valid = new Set(['tok-1']);
    const { mock, sent } = service(valid);
    const http = new Http({ transport: mock.transport });
    const auth = await authenticator(config, 'erp', http);
    await http.send({ method: 'GET', url: API, auth });
    valid.delete('tok-1'); // revoked, or the clocks disagree
    await http.send({ method: 'GET', url: API, auth });
    await http.send({ method: 'GET', url: API, auth });
    expect(sent()).toEqual(['Bearer tok-1', 'Bearer tok-1', 'renew', 'Bearer tok-2', 'Bearer tok-2']);
    expect(mock.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'POST', 'GET', 'GET']);
    expect(stored('erp.token')).toBe('tok-2');
  });

  it('a request that carries a credential of its own (vx api -H Authorization) is left alone, expired sign-in or 401', async () => {
    const config = await signedIn();
    const { mock, sent } = service(new Set(['tok-1']));
    const http = new Http({ transport: mock.transport });
    const auth = await authenticator(config, 'erp', http);
    const headers = { authorization: 'Bearer mine' };
    const refused = await http.send({ method: 'GET', url: API, auth, headers }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthError);
    vi.setSystemTime(START + 7200_000);
    await http.send({ method: 'GET', url: API, auth, headers }).catch(() => undefined);
    expect(sent()).toEqual(['Bearer mine', 'Bearer mine']);
    expect(stored('erp.token')).toBe('tok-1');
  });

  it('without a refresh token: an expiry mid-run is "sign in again" (exit 3) before the request; a 401 stays a 401 with its advice', async () => {
    const config = await signedIn({});
    const valid = new Set(['tok-1']);
    const { mock, sent } = service(valid);
    const http = new Http({ transport: mock.transport });
    const auth = await authenticator(config, 'erp', http);
    valid.delete('tok-1');
    const refused = await http.send({ method: 'GET', url: API, auth }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as AuthError).hint).toBe('sign in again with `vx auth login --service erp`');
    vi.setSystemTime(START + 7200_000);
    const expired = await http.send({ method: 'GET', url: API, auth }).catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(AuthError);
    expect((expired as Error).message).toMatch(/^the erp sign-in stored in profile "default" expired at 2026-06-01T11:00:00\.000Z; sign in again with `vx auth login --service erp`$/);
    expect(sent()).toEqual(['Bearer tok-1']);
  });
});

describe('token requests obey the command, not a timeout of openid-client', () => {
  it('Ctrl-C stops a token request at once (it ran on for openid-client\'s own 30 s), and the config lock is released', async () => {
    vi.useRealTimers();
    const config = await signedIn();
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const transport = (_req: unknown, signal: AbortSignal) =>
      new Promise<never>((_resolve, reject) => {
        seen = signal;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    const http = new Http({ transport, signal: controller.signal, retries: 0 });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START + 7200_000); // expired: the renewal is the first request
    const started = performance.now();
    const pending = authenticator(config, 'erp', http).catch((e: unknown) => e);
    for (let i = 0; i < 100 && !seen; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toBeDefined();
    controller.abort();
    const err = await pending;
    expect((err as Error).constructor.name).toBe('InterruptedError');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  }, 15_000);
});
