// vx auth login: every flow against the emulator's identity endpoints, driven as a browser or a
// person would, and the refusals (state mismatch, foreign origin, timeout, bad input).
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMULATOR_CLIENT_SECRET } from '../../src/emulator/auth.js';
import { deliverFragment, DEVICE_URL, drive, followAuthorize, SIGN_IN_URL, useAuthEmulator, waitForStderr } from '../helpers/auth.js';

const t = useAuthEmulator();
const signIn = (p: Record<string, string>, service: string) => JSON.parse(p[`${service}.signIn`]);
const tokenCalls = () => t.emu.log.filter((l) => l.family === 'auth').map((l) => `${l.method} ${l.path.replace(/\?.*/, '')}`);

describe('browser sign-in (implicit flow with a loopback listener)', () => {
  it('prints the address, receives the token from the fragment delivered by the page, checks state and stores it with its expiry', async () => {
    const { result, driven } = await drive(t, ['auth', 'login', '--service', 'mgmt'], async (child) => {
      const [, url] = await waitForStderr(child, SIGN_IN_URL);
      const u = new URL(url);
      expect(u.pathname).toBe('/auth/common/oauth2/authorize');
      expect(Object.fromEntries(u.searchParams)).toEqual({
        client_id: 'vx-cli',
        response_type: 'token',
        redirect_uri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
        scope: 'user_impersonation',
        state: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      });
      const back = await followAuthorize(url);
      expect(back.origin).toBe(new URL(u.searchParams.get('redirect_uri')!).origin);
      const frag = new URLSearchParams(back.hash.slice(1));
      expect(frag.get('state')).toBe(u.searchParams.get('state'));
      expect(frag.get('expires_in')).toBe('3600');
      const answer = await deliverFragment(back);
      expect(answer).toEqual({ status: 200, text: 'You are signed in to vx. You can close this window.' });
    });
    expect(driven).toBeUndefined();
    expect(result.stderr).toContain('Open this address in a browser on this machine to sign in to mgmt (tenant common)');
    expect(result.stderr).toMatch(/signed in to mgmt \(browser sign-in\) in profile "default"; expires 20\d\d-/);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const p = t.profile();
    expect(p['mgmt.token']).toMatch(/^emu\./);
    expect(t.emu.tokens.get(p['mgmt.token'])).toBeDefined();
    const record = signIn(p, 'mgmt');
    expect(record).toMatchObject({ method: 'browser', clientId: 'vx-cli', tenant: 'common' });
    expect(Math.abs(Date.parse(record.expiresAt) - (Date.now() + 3600_000))).toBeLessThan(60_000);
    expect(p['mgmt.refreshToken']).toBeUndefined();
    expect(result.stderr).not.toContain(p['mgmt.token']);
    // the profile file holding the token: 0600 in a 0700 directory
    expect(statSync(join(t.configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(t.configDir).mode & 0o777).toBe(0o700);
  });

  it('honours --tenant, --client-id and --scope, and the profile settings per family', async () => {
    await t.run(['profile', 'set', 'erp.scope', 'https://erp.example/user_impersonation']);
    await t.run(['profile', 'set', 'erp.tenant', 'contoso']);
    const { result } = await drive(t, ['auth', 'login', '--service', 'erp', '--client-id', 'app-7'], async (child) => {
      const [, url] = await waitForStderr(child, SIGN_IN_URL);
      const u = new URL(url);
      expect(u.pathname).toBe('/auth/contoso/oauth2/authorize');
      expect(u.searchParams.get('client_id')).toBe('app-7');
      expect(u.searchParams.get('scope')).toBe('https://erp.example/user_impersonation');
      await deliverFragment(await followAuthorize(url));
    });
    expect(result.code).toBe(0);
    expect(signIn(t.profile(), 'erp')).toMatchObject({ clientId: 'app-7', tenant: 'contoso' });

    // flag > env > profile
    const { result: r2 } = await drive(
      t,
      ['auth', 'login', '--service', 'erp', '--tenant', 'fabrikam'],
      async (child) => {
        const [, url] = await waitForStderr(child, SIGN_IN_URL);
        expect(new URL(url).pathname).toBe('/auth/fabrikam/oauth2/authorize');
        expect(new URL(url).searchParams.get('client_id')).toBe('env-app');
        await deliverFragment(await followAuthorize(url));
      },
      { env: { VX_TENANT: 'from-env', VX_CLIENT_ID: 'env-app' } },
    );
    expect(r2.code).toBe(0);
  });

  it('refuses an answer whose state does not match: exit 3, nothing stored', async () => {
    const { result } = await drive(t, ['auth', 'login', '--service', 'erp'], async (child) => {
      const [, url] = await waitForStderr(child, SIGN_IN_URL);
      const back = await followAuthorize(url);
      const forged = new URLSearchParams(back.hash.slice(1));
      forged.set('state', 'not-the-state');
      const answer = await deliverFragment(back, forged.toString());
      expect(answer.status).toBe(400);
      expect(answer.text).toContain('does not carry the state of this sign-in');
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('vx: sign-in refused: the answer does not carry the state of this sign-in (a stale or forged redirect); nothing was stored; run the same `vx auth login` again\n');
    expect(t.profile()['erp.token']).toBeUndefined();
  });

  it('refuses a delivery from another origin and still accepts the page', async () => {
    const { result } = await drive(t, ['auth', 'login', '--service', 'erp'], async (child) => {
      const [, url] = await waitForStderr(child, SIGN_IN_URL);
      const back = await followAuthorize(url);
      const foreign = await deliverFragment(back, undefined, 'http://127.0.0.2:8080');
      expect(foreign.status).toBe(403);
      expect((await deliverFragment(back)).status).toBe(200);
    });
    expect(result.code).toBe(0);
    expect(t.profile()['erp.token']).toMatch(/^emu\./);
  });

  it('reports an error answer of the authorization server (exit 3)', async () => {
    const { result } = await drive(t, ['auth', 'login', '--service', 'mgmt'], async (child) => {
      const [, url] = await waitForStderr(child, SIGN_IN_URL);
      const back = await followAuthorize(url);
      const state = new URLSearchParams(back.hash.slice(1)).get('state')!;
      await deliverFragment(back, new URLSearchParams({ error: 'access_denied', error_description: 'The user declined.', state }).toString());
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('vx: sign-in failed: access_denied: The user declined.\nthe sign-in was declined; run the same `vx auth login` again to retry\n');
    expect(t.profile()['mgmt.token']).toBeUndefined();
  });

  it('times out after --wait seconds without an answer: exit 3, nothing stored, listener closed', async () => {
    let callback = '';
    const started = Date.now();
    const { result } = await drive(t, ['auth', 'login', '--service', 'mgmt', '--wait', '1'], async (child) => {
      const [, url] = await waitForStderr(child, SIGN_IN_URL);
      callback = new URL(url).searchParams.get('redirect_uri')!;
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('vx: sign-in timed out after 1 s without an answer from the browser; nothing was stored');
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(fetch(callback)).rejects.toThrow();
    expect(t.profile()['mgmt.token']).toBeUndefined();
  });

  it('opens the browser with VX_BROWSER (a command given the address)', async () => {
    const { writeFileSync, readFileSync, mkdtempSync, rmSync, existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'vx-browser-'));
    const script = join(dir, 'browser.mjs');
    const seen = join(dir, 'seen.txt');
    writeFileSync(script, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(seen)}, process.argv[2]);`);
    const { result } = await drive(
      t,
      ['auth', 'login', '--service', 'lcs'],
      async (child) => {
        await waitForStderr(child, SIGN_IN_URL);
        for (let i = 0; i < 100; i++) {
          try {
            const url = readFileSync(seen, 'utf8');
            if (url) return void (await deliverFragment(await followAuthorize(url)));
          } catch {
            /* not yet */
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error('the browser command was not run');
      },
      { env: { VX_BROWSER: `${process.execPath} ${script}` } },
    );
    expect(result.stderr).toContain('Opening your browser to sign in to lcs');
    expect(result.code).toBe(0);

    // --no-browser: the command is not run, the address is printed
    rmSync(seen, { force: true });
    const { result: quiet } = await drive(
      t,
      ['auth', 'login', '--service', 'lcs', '--no-browser', '--wait', '1'],
      async (child) => void (await waitForStderr(child, SIGN_IN_URL)),
      { env: { VX_BROWSER: `${process.execPath} ${script}` } },
    );
    expect(quiet.code).toBe(3);
    expect(quiet.stderr).toContain('Open this address in a browser on this machine to sign in to lcs');
    expect(existsSync(seen)).toBe(false);
  });

  it('prints the address when no browser can be opened: no display and no browser command, or a command that cannot start', async () => {
    // no VX_BROWSER, no DISPLAY/WAYLAND_DISPLAY (the spawned environment has neither) and no terminal
    // (a CI job that forgot its flags): refused at once instead of waiting --wait seconds for nothing
    const ci = await t.run(['auth', 'login', '--service', 'mgmt'], { env: { VX_BROWSER: undefined } });
    expect([ci.code, ci.stderr]).toEqual([
      2,
      'vx: no terminal and no browser here to sign in to mgmt with: in CI use --client-credentials (or --with-token); to sign in from another machine use --device-code, or --no-browser to print the address; nothing was sent\n',
    ]);
    // --no-browser asks for the address: printed
    const plain = await t.run(['auth', 'login', '--service', 'mgmt', '--wait', '1', '--no-browser'], { env: { VX_BROWSER: undefined } });
    expect(plain.code).toBe(3);
    expect(plain.stderr).toMatch(
      /^Open this address in a browser on this machine to sign in to mgmt \(tenant common\):\n {2}http:\/\/127\.0\.0\.1:\d+\/auth\/common\/oauth2\/authorize\?client_id=vx-cli&response_type=token&redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback&scope=user_impersonation&state=[A-Za-z0-9_-]{22}\n\(it returns to 127\.0\.0\.1 here; without a browser on this machine, e\.g\. over SSH, press Ctrl-C and run `vx auth login --service mgmt --device-code`\)\nWaiting up to 1 s for the browser… \(Ctrl-C to cancel\)\nvx: sign-in timed out after 1 s without an answer from the browser; nothing was stored; on a machine without a browser \(over SSH\), sign in with `vx auth login --service mgmt --device-code`\n$/,
    );
    const broken = await t.run(['auth', 'login', '--service', 'mgmt', '--wait', '1'], { env: { VX_BROWSER: '/nonexistent/browser --flag' } });
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(/^Opening your browser to sign in to mgmt \(tenant common\):\n {2}http:\/\/127\.0\.0\.1:\d+\/auth\/common\/oauth2\/authorize\?\S+\n/);
    expect(broken.stderr).toContain('could not start /nonexistent/browser; open the address above yourself\n');
    expect(t.profile()).toEqual({});
  });

  // a real browser runs the callback page's script (skipped where no Chromium is installed)
  const chromium = ['chromium', 'chromium-browser'].flatMap((n) => (process.env.PATH ?? '').split(':').map((d) => `${d}/${n}`)).find((p) => existsSync(p));
  it.skipIf(!chromium)('completes in a headless Chromium: authorize redirect, callback page, fragment delivered by its script', async () => {
    const r = await t.run(['auth', 'login', '--service', 'mgmt', '--wait', '60'], {
      env: { VX_BROWSER: `${chromium} --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 --dump-dom` },
      timeoutMs: 70_000,
    });
    expect(r.stderr).toContain('Opening your browser to sign in to mgmt');
    expect(r.code).toBe(0);
    expect(t.profile()['mgmt.token']).toMatch(/^emu\./);
  }, 80_000);

  it('--dry-run prints the authorize request and listens for nothing', async () => {
    const r = await t.run(['auth', 'login', '--service', 'mgmt', '--dry-run']);
    expect(r.code).toBe(0);
    const [req] = JSON.parse(r.stdout);
    expect(req.method).toBe('GET');
    expect(req.url).toContain('/auth/common/oauth2/authorize?client_id=vx-cli&response_type=token');
    expect(t.emu.log).toEqual([]);
    expect(t.profile()).toEqual({});
  });
});

describe('device code sign-in', () => {
  it('shows the code and address, polls until the person approves, stores token and refresh token', async () => {
    // polled every 50 ms, not every second (only where the sign-in succeeds: a run stopped while it
    // polls may leave a poll on its way, which the next test's request log would see)
    t.emu.state.auth.deviceInterval = 0.05;
    const { result } = await drive(t, ['auth', 'login', '--service', 'erp', '--device-code'], async (child) => {
      const [, url] = await waitForStderr(child, DEVICE_URL);
      const page = await fetch(url);
      expect(await page.text()).toContain('You are signed in');
    });
    expect(result.stderr).toMatch(/To sign in to erp, open http:\/\/127\.0\.0\.1:\d+\/auth\/device and enter the code [0-9A-F]{4}-[0-9A-F]{4}\n/);
    expect(result.stderr).toMatch(/signed in to erp \(device code\) in profile "default"; expires .*, renews automatically/);
    expect(result.code).toBe(0);
    const p = t.profile();
    expect(p['erp.token']).toMatch(/^emu\./);
    expect(p['erp.refreshToken']).toMatch(/^emu-refresh\./);
    expect(signIn(p, 'erp').method).toBe('device-code');
    const calls = tokenCalls();
    expect(calls[0]).toBe('POST /common/oauth2/devicecode');
    expect(calls.filter((c) => c === 'POST /common/oauth2/token').length).toBeGreaterThanOrEqual(1);
    expect(calls.at(-1)).toBe('POST /common/oauth2/token');
  });

  it('gives up after --wait seconds when nobody approves (exit 3, nothing stored)', async () => {
    const r = await t.run(['auth', 'login', '--service', 'erp', '--device-code', '--wait', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('vx: device code sign-in timed out after 1 s; nothing was stored');
    expect(t.profile()['erp.token']).toBeUndefined();
  });
});

describe('client credentials sign-in', () => {
  it('posts client id, secret (from VX_CLIENT_SECRET) and scope to the tenant token endpoint and stores the token', async () => {
    const r = await t.run(['auth', 'login', '--service', 'mgmt', '--client-credentials', '--client-id', 'ci-app', '--tenant', 'contoso'], {
      env: { VX_CLIENT_SECRET: EMULATOR_CLIENT_SECRET },
    });
    expect(r.stderr).toMatch(/^signed in to mgmt \(client credentials\) in profile "default"; expires 20/);
    expect(r.code).toBe(0);
    expect(tokenCalls()).toEqual(['POST /contoso/oauth2/token']);
    expect(signIn(t.profile(), 'mgmt')).toMatchObject({ method: 'client-credentials', clientId: 'ci-app', tenant: 'contoso' });
    expect(JSON.stringify(t.profile())).not.toContain(EMULATOR_CLIENT_SECRET);
  });

  it('reads the secret from stdin with --with-secret; a wrong secret is exit 3 with the server error', async () => {
    const ok = await t.run(['auth', 'login', '--service', 'erp', '--with-secret', '--client-id', 'ci-app', '--tenant', 'contoso'], { input: `${EMULATOR_CLIENT_SECRET}\n` });
    expect(ok.code).toBe(0);
    const bad = await t.run(['auth', 'login', '--service', 'erp', '--with-secret', '--client-id', 'ci-app', '--tenant', 'contoso'], { input: 'wrong-secret' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toBe(
      'vx: client credentials sign-in failed: invalid_client: The client secret is invalid.\n' +
        'check the application (client) id (--client-id, VX_CLIENT_ID or auth.clientId) and, for --client-credentials, its secret (VX_CLIENT_SECRET or --with-secret)\n',
    );
  });

  it('a sign-in address that answers with no OAuth error (a 404 page) names the address, the status and what to check (was "unexpected HTTP response status code")', async () => {
    const erp = t.env.VX_ERP_PREFIX;
    const cc = await t.run(['auth', 'login', '--service', 'erp', '--client-credentials', '--client-id', 'ci-app', '--tenant', 'contoso'], {
      env: { VX_CLIENT_SECRET: EMULATOR_CLIENT_SECRET, VX_AUTH_URL: erp },
    });
    expect(cc.stderr).toMatch(
      new RegExp(`^vx: POST ${erp}/contoso/oauth2/token: HTTP 404 Not Found BadRequest_NotFound: .*\ncheck the sign-in address \\(VX_AUTH_URL or auth\\.url: ${erp}\\) and the tenant \\(contoso\\)\n$`),
    );
    expect(cc.code).toBe(4);
    const dc = await t.run(['auth', 'login', '--service', 'mgmt', '--device-code', '--wait', '5'], { env: { VX_AUTH_URL: erp } });
    expect(dc.stderr).toMatch(new RegExp(`^vx: POST ${erp}/common/oauth2/devicecode: HTTP 404 Not Found .*\ncheck the sign-in address`));
    expect(dc.code).toBe(4);
    expect(cc.stderr + dc.stderr).not.toContain(EMULATOR_CLIENT_SECRET);
    expect(t.profile()).toEqual({});
    // a 200 that is no JSON: a proxy's login page (was "unexpected response content-type", exit 3)
    const page = createServer((_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Proxy sign-in</title>'));
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    try {
      const authUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/auth`;
      const html = await t.run(['auth', 'login', '--service', 'erp', '--device-code'], { env: { VX_AUTH_URL: authUrl } });
      expect(html.stderr).toBe(
        `vx: HTTP 200 from POST ${authUrl}/common/oauth2/devicecode: the response is not valid JSON (text/html: "<!doctype html><title>Proxy sign-in</title>")\n` +
          `check the sign-in address (VX_AUTH_URL or auth.url: ${authUrl}) and the tenant (common)\n`,
      );
      expect(html.code).toBe(1);
    } finally {
      await new Promise<void>((r) => page.close(() => r()));
    }
  });

  it('refuses before sending anything without a tenant, a client id or a secret (exit 2)', async () => {
    const env = { VX_CLIENT_SECRET: EMULATOR_CLIENT_SECRET };
    const noTenant = await t.run(['auth', 'login', '--service', 'mgmt', '--client-credentials', '--client-id', 'ci-app'], { env });
    expect(noTenant.code).toBe(2);
    expect(noTenant.stderr).toContain('needs a specific tenant, not "common"');
    const noId = await t.run(['auth', 'login', '--service', 'mgmt', '--client-credentials', '--tenant', 'contoso'], { env });
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('needs the application id');
    const noSecret = await t.run(['auth', 'login', '--service', 'mgmt', '--client-credentials', '--client-id', 'a', '--tenant', 'contoso']);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('no client secret: set VX_CLIENT_SECRET or pipe it with --with-secret');
    // an empty value ("--tenant $UNSET") is refused, not taken as the default (was: a device-code sign-in as vx-cli)
    for (const [flag, rest] of [
      ['--tenant', ['--client-credentials', '--client-id', 'a']],
      ['--client-id', ['--device-code', '--wait', '1']],
      ['--scope', ['--device-code', '--wait', '1']],
    ] as const) {
      const empty = await t.run(['auth', 'login', '--service', 'mgmt', ...rest, flag, ''], { env });
      expect(empty.stderr).toBe(`vx: ${flag} was given as an empty value; leave the option out to use the environment or profile setting (nothing was sent)\n`);
      expect(empty.code).toBe(2);
    }
    expect(t.emu.log).toEqual([]);
  });
});

describe('key and token from stdin', () => {
  it('--with-key stores the translator key; --with-token stores a bearer token (expiry from a JWT exp claim)', async () => {
    const key = await t.run(['auth', 'login', '--service', 'translator', '--with-key'], { input: 'emulator-key\n' });
    expect(key.code).toBe(0);
    expect(key.stderr).toBe('signed in to translator (subscription key) in profile "default"; checked by translating an empty text (bills nothing) (HTTP 200)\n');
    expect(t.profile()['translator.key']).toBe('emulator-key');

    const exp = Math.floor(Date.now() / 1000) + 7200;
    const jwt = ['{"alg":"none"}', JSON.stringify({ exp, aud: 'x' }), ''].map((s) => Buffer.from(s).toString('base64url')).join('.') + 'sig';
    const tok = await t.run(['auth', 'login', '--service', 'lcs', '--with-token', '--no-verify'], { input: jwt });
    expect(tok.code).toBe(0);
    expect(signIn(t.profile(), 'lcs')).toMatchObject({ method: 'token', expiresAt: new Date(exp * 1000).toISOString() });

    const opaque = await t.run(['auth', 'login', '--service', 'erp', '--with-token', '--no-verify'], { input: 'opaque-token-value' });
    expect(opaque.stderr).toContain('expiry unknown; not checked (--no-verify)');
    expect(signIn(t.profile(), 'erp').expiresAt).toBeUndefined();
    // the key was tried with one translation of nothing; --no-verify sent nothing
    expect(t.emu.log.map((l) => `${l.family} ${l.method} ${l.path}`)).toEqual(['translator POST /translate?api-version=3.0&to=en']);
  });

  it('rejects empty input, wrong flags for the family, combined flows and a missing --service without a terminal (exit 2)', async () => {
    const cases: [string[], string, string?][] = [
      [['--service', 'translator', '--with-key'], 'standard input is empty'],
      [['--service', 'erp', '--with-token'], 'standard input is empty', '  \n'],
      [['--service', 'erp', '--with-token'], 'contains white space', 'two words'],
      // stored with --no-verify, these made every later command fail (a header cannot carry them)
      [['--service', 'erp', '--with-token', '--no-verify'], '--with-token: the token on standard input holds a character a credential cannot carry (a control character, a space or one beyond ASCII); nothing was stored', '\x1b[31mtok-0123'],
      [['--service', 'translator', '--with-key', '--no-verify'], '--with-key: the subscription key on standard input holds a character a credential cannot carry', 'key\u20130123'],
      [['--service', 'erp', '--with-key'], '--with-key is for the translator'],
      [['--service', 'translator', '--device-code'], 'cannot be used with the translator'],
      [['--service', 'mgmt', '--device-code', '--with-token'], 'choose one way to sign in'],
      [['--service', 'translator'], 'no terminal to ask for the key: pipe it with --with-key'],
      [[], '--service is required without a terminal'],
      [['--service', 'erp', '--wait', '0'], 'invalid value "0" for --wait'],
      [['--service', 'nope'], "argument 'nope' is invalid"],
    ];
    for (const [args, message, input] of cases) {
      const r = await t.run(['auth', 'login', ...args], { input });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(t.emu.log).toEqual([]);
    expect(t.profile()).toEqual({});
  });

  it('warns when an environment variable overrides the stored credential', async () => {
    const r = await t.run(['auth', 'login', '--service', 'mgmt', '--with-token', '--no-verify'], { input: 'stored-token', env: { VX_MGMT_TOKEN: 'env-token' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: VX_MGMT_TOKEN is set and takes precedence over the stored credential');
  });
});

describe('sign-in requests go through the one HTTP door', () => {
  it('--dry-run prints the token request with the secret masked and sends nothing', async () => {
    const r = await t.run(['auth', 'login', '--service', 'erp', '--with-secret', '--client-id', 'ci-app', '--tenant', 'contoso', '--dry-run'], {
      input: EMULATOR_CLIENT_SECRET,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        method: 'POST',
        url: `${t.env.VX_AUTH_URL}/contoso/oauth2/token`,
        headers: { 'user-agent': expect.stringMatching(/^vx\//), accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
        body: 'scope=user_impersonation&grant_type=client_credentials&client_id=ci-app&client_secret=***',
      },
    ]);
    expect(r.stdout + r.stderr).not.toContain(EMULATOR_CLIENT_SECRET);
    expect(t.emu.log).toEqual([]);
    expect(t.profile()).toEqual({});
  });

  it('--dry-run of a key or token from stdin prints the request that would try it, masked (printed nothing); --no-verify plans none', async () => {
    const erp = await t.run(['auth', 'login', '--service', 'erp', '--with-token', '--dry-run'], { input: 'tok-dry-run-0123' });
    expect([erp.code, erp.stderr]).toEqual([0, 'dry run: nothing was stored\n']);
    expect(JSON.parse(erp.stdout)).toEqual([
      { method: 'GET', url: `${t.env.VX_ERP_PREFIX}/api/v2.0/companies?$top=1`, headers: { 'user-agent': expect.stringMatching(/^vx\//), authorization: 'Bearer ***' } },
    ]);
    const key = await t.run(['auth', 'login', '--service', 'translator', '--with-key', '--dry-run'], { input: 'key-dry-run-0123' });
    expect(key.code).toBe(0);
    expect(JSON.parse(key.stdout)).toMatchObject([{ method: 'POST', url: `${t.env.VX_TRANSLATOR_ENDPOINT}/translate?api-version=3.0&to=en`, headers: { 'vendor-subscription-key': '***' } }]);
    const unchecked = await t.run(['auth', 'login', '--service', 'erp', '--with-token', '--dry-run', '--no-verify'], { input: 'tok-dry-run-0123' });
    expect([unchecked.code, unchecked.stdout]).toEqual([0, '']);
    for (const r of [erp, key, unchecked]) expect(r.stdout + r.stderr).not.toMatch(/(tok|key)-dry-run/);
    expect(t.emu.log).toEqual([]);
    expect(t.profile()).toEqual({});
  });

  it('--debug traces the exchange without the secret or the tokens; a refused connection is exit 8', async () => {
    t.emu.state.auth.deviceInterval = 0.05;
    const { result: r } = await drive(t, ['auth', 'login', '--service', 'mgmt', '--device-code', '--debug'], async (child) => {
      const [, url] = await waitForStderr(child, DEVICE_URL);
      await fetch(url);
    });
    expect(r.code).toBe(0);
    for (const k of ['mgmt.token', 'mgmt.refreshToken']) expect(r.stderr).not.toContain(t.profile()[k]);
    expect(r.stderr).toContain('"refresh_token":"***"');
    expect(r.stderr).toMatch(/\[debug\] > POST http:\/\/127\.0\.0\.1:\d+\/auth\/common\/oauth2\/devicecode/);
    expect(r.stderr).toContain('"device_code":"***"');
    expect(r.stderr).toContain('device_code=***&grant_type=urn');
    const cc = await t.run([...['auth', 'login', '--service', 'mgmt', '--with-secret', '--client-id', 'ci-app', '--tenant', 'contoso'], '--debug'], { input: EMULATOR_CLIENT_SECRET });
    expect(cc.code).toBe(0);
    expect(cc.stderr).toContain('client_secret=***');
    expect(cc.stderr).toContain('"access_token":"***"');
    expect(cc.stderr).not.toContain(EMULATOR_CLIENT_SECRET);
    expect(cc.stderr).not.toContain(t.profile()['mgmt.token']);
    const down = await t.run(['auth', 'login', '--service', 'mgmt', '--device-code', '--retries', '0'], { env: { VX_AUTH_URL: 'http://127.0.0.1:1/auth' } });
    expect(down.code).toBe(8);
    expect(down.stderr).toBe('vx: POST http://127.0.0.1:1/auth/common/oauth2/devicecode: connect ECONNREFUSED 127.0.0.1:1\n');
  });

  it('Ctrl-C while polling for a device code is exit 130 and stores nothing', async () => {
    const { result } = await drive(t, ['auth', 'login', '--service', 'lcs', '--device-code'], async (child) => {
      await waitForStderr(child, DEVICE_URL);
      child.kill('SIGINT');
    });
    expect(result.code).toBe(130);
    expect(t.profile()).toEqual({});
  });

  it('without a sign-in address it is a usage error naming VX_AUTH_URL, nothing sent', async () => {
    const r = await t.run(['auth', 'login', '--service', 'erp', '--device-code'], { env: { VX_AUTH_URL: undefined } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: sign-in address ({auth_url}) is not set: set VX_AUTH_URL or run `vx profile set auth.url <value>`\n');
    const http = await t.run(['auth', 'login', '--service', 'erp', '--device-code'], { env: { VX_AUTH_URL: 'http://login.example.com' } });
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('must use https (plain http is accepted only for a loopback address)');
    expect(t.emu.log).toEqual([]);
  });

  it('Ctrl-C while waiting for the browser is exit 130 and stores nothing', async () => {
    const { result } = await drive(t, ['auth', 'login', '--service', 'erp'], async (child) => {
      await waitForStderr(child, SIGN_IN_URL);
      child.kill('SIGINT');
    });
    expect(result.code).toBe(130);
    expect(t.profile()).toEqual({});
  });
});
