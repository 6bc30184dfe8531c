// Stored sign-ins in use: every family works from the profile alone, expired tokens are refused
// before any request (or renewed with the refresh token), status/logout/token, and no secret is
// ever shown (status, --debug, errors).
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EMULATOR_CLIENT_SECRET } from '../../src/emulator/auth.js';
import { DEVICE_URL, drive, useAuthEmulator, waitForStderr } from '../helpers/auth.js';
import { runVxInProc } from '../helpers/inproc.js';

const t = useAuthEmulator();
// the device code sign-ins here only set up a stored sign-in: polled every 50 ms, not every second
// (auth-login.test.ts drives the device code flow itself)
beforeEach(() => {
  t.emu.state.auth.deviceInterval = 0.05;
});
// these tests set up stored sign-ins (some already expired, tokenTtl 0): stored without the check login makes
const ccArgs = (service: string) => ['auth', 'login', '--service', service, '--with-secret', '--client-id', 'ci-app', '--tenant', 'contoso', '--no-verify'];
const loginCc = async (service: string) => {
  const r = await t.run(ccArgs(service), { input: EMULATOR_CLIENT_SECRET });
  expect(r.code, r.stderr).toBe(0);
};
const loginDevice = async (service: string) => {
  const { result } = await drive(t, ['auth', 'login', '--service', service, '--device-code', '--no-verify'], async (child) => {
    const [, url] = await waitForStderr(child, DEVICE_URL);
    await fetch(url);
  });
  expect(result.code, result.stderr).toBe(0);
};
const probe = async (service: string, env: Record<string, string | undefined> = {}) => {
  const r = await t.run(['api', 'GET', '/_probe', '--service', service], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).credential as string;
};
const refreshArgs = ['erp', 'refresh', '--project', '1234', '--source', 'prod-1', '--target', 'uat-1', '--yes'];
const secretsOf = (p: Record<string, string>) => Object.entries(p).filter(([k]) => /\.(token|key|refreshToken)$/.test(k)).map(([, v]) => v);

describe('a signed-in profile', () => {
  it('makes every family work with no environment variables at all', async () => {
    const dir = t.configDir;
    // the environment of a bare shell: baseEnv alone (vx reads its environment only through the factory)
    const bare = (args: string[], input?: string) => runVxInProc(args, { configDir: dir, input });
    const env = t.env;
    for (const [k, v] of [
      ['translator.endpoint', env.VX_TRANSLATOR_ENDPOINT],
      ['erp.prefix', env.VX_ERP_PREFIX],
      ['erp.company', env.VX_ERP_COMPANY],
      ['lcs.endpoint', env.VX_LCS_ENDPOINT],
      ['mgmt.endpoint', env.VX_MGMT_ENDPOINT],
      ['mgmt.subscription', env.VX_SUBSCRIPTION],
      ['auth.url', env.VX_AUTH_URL],
    ]) {
      expect((await bare(['profile', 'set', k, v])).code).toBe(0);
    }
    expect((await bare(['auth', 'login', '--service', 'translator', '--with-key'], 'emulator-key')).code).toBe(0);
    for (const s of ['erp', 'lcs', 'mgmt']) expect((await bare(ccArgs(s), EMULATOR_CLIENT_SECRET)).code).toBe(0);
    const p = t.profile();

    const companies = await bare(['erp', 'companies', 'list']);
    expect(companies.stderr).toBe('');
    expect(companies.code).toBe(0);
    expect(JSON.parse(companies.stdout).length).toBeGreaterThan(0);
    const orders = await bare(['erp', 'sales-orders', 'list', '--top', '2']);
    expect(JSON.parse(orders.stdout)).toHaveLength(2);
    const refresh = await bare(refreshArgs);
    expect(JSON.parse(refresh.stdout).IsSuccess).toBe(true);
    const translated = await bare(['translate', '--to', 'de', 'Good morning']);
    expect([translated.code, translated.stderr, translated.stdout]).toEqual([0, '', '[de] Ĝööð ɱöŕñîñĝ\n']);
    const quota = await bare(['mgmt', 'quota', 'get', 'cores', '--provider', 'Vendor.Compute', '--location', 'westeurope', '-o', 'json']);
    expect([quota.code, quota.stderr]).toEqual([0, '']);
    expect(JSON.parse(quota.stdout).name).toBe('cores');
    const events = await bare(['mgmt', 'health', 'events', 'list', '-o', 'json']);
    expect([events.code, events.stderr]).toEqual([0, '']);
    expect(JSON.parse(events.stdout).length).toBeGreaterThan(0);
    for (const [service, key] of [
      ['translator', 'translator.key'],
      ['lcs', 'lcs.token'],
      ['mgmt', 'mgmt.token'],
      ['erp', 'erp.token'],
    ]) {
      const r = await bare(['api', 'GET', '/_probe', '--service', service]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).credential).toBe(p[key]);
    }
    expect(t.emu.log.filter((l) => l.family !== 'auth').every((l) => l.status < 400)).toBe(true);
  });

  it('lcs falls back to the erp sign-in; a flag-less env variable still wins over the profile', async () => {
    await loginCc('erp');
    const p = t.profile();
    expect(await probe('lcs')).toBe(p['erp.token']);
    expect(await probe('erp', { VX_ERP_TOKEN: 'emulator-token' })).toBe('emulator-token');
    const status = await t.run(['auth', 'status', '-o', 'json'], { env: { VX_MGMT_TOKEN: 'emulator-token' } });
    const rows = JSON.parse(status.stdout);
    expect(rows.find((r: any) => r.service === 'lcs')).toMatchObject({ status: 'signed in', method: 'client-credentials', source: 'profile "default" (erp token)' });
    expect(rows.find((r: any) => r.service === 'mgmt')).toMatchObject({ status: 'signed in', method: 'token', source: 'env VX_MGMT_TOKEN', storage: 'environment' });
  });
});

describe('expired sign-ins', () => {
  it('are refused with "sign in again" (exit 3) before any request, for erp, lcs and mgmt commands', async () => {
    t.emu.state.auth.tokenTtl = 0;
    for (const s of ['erp', 'lcs', 'mgmt']) await loginCc(s);
    t.emu.log.length = 0;
    const cases: [string[], string][] = [
      [['erp', 'companies', 'list'], 'erp'],
      [['erp', 'sales-orders', 'get', '0000100e-0000-4000-8000-0000000e0001'], 'erp'],
      [refreshArgs, 'lcs'],
      [['api', 'GET', '/_probe', '--service', 'mgmt'], 'mgmt'],
      [['api', 'GET', '/_probe', '--service', 'erp'], 'erp'],
      [['auth', 'token', '--service', 'mgmt'], 'mgmt'],
    ];
    for (const [args, family] of cases) {
      const r = await t.run(args);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(`^vx: the ${family} sign-in stored in profile "default" expired at 20\\S+; sign in again with \`vx auth login --service ${family}\`\\n$`),
      );
    }
    expect(t.emu.log).toEqual([]);
    const status = await t.run(['auth', 'status', '--service', 'erp', '-o', 'json']);
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ service: 'erp', status: 'expired', renewable: false });
  });

  it('four runs at once with the same expired sign-in: one renews it under the config lock, the others use the renewed token (issue 13, item 6)', async () => {
    t.emu.state.auth.tokenTtl = 0;
    await loginDevice('erp');
    t.emu.state.auth.tokenTtl = 3600;
    t.emu.log.length = 0;
    const runs = await Promise.all(Array.from({ length: 4 }, () => t.run(['erp', 'companies', 'list', '-o', 'none'])));
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, '']);
    // refresh tokens are single-use: exactly one renewal
    expect(t.emu.count({ family: 'auth', method: 'POST' })).toBe(1);
    expect(t.emu.count({ family: 'erp', method: 'GET' })).toBe(4);
    const after = t.profile();
    expect(JSON.parse(after['erp.signIn']).expiresAt > new Date().toISOString()).toBe(true);
    expect(t.emu.tokens.get(after['erp.token'])).toBeDefined();
  });

  it('are renewed with the stored refresh token, once, before the request; the new tokens are stored', async () => {
    t.emu.state.auth.tokenTtl = 0;
    await loginDevice('erp');
    const before = t.profile();
    t.emu.state.auth.tokenTtl = 3600;
    t.emu.log.length = 0;
    const r = await t.run(['erp', 'companies', 'list', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(t.emu.log.map((l) => `${l.family} ${l.method} ${l.path}`)).toEqual(['auth POST /common/oauth2/token', 'erp GET /api/v2.0/companies']);
    const after = t.profile();
    expect(after['erp.token']).not.toBe(before['erp.token']);
    expect(after['erp.refreshToken']).not.toBe(before['erp.refreshToken']);
    expect(JSON.parse(after['erp.signIn'])).toMatchObject({ method: 'device-code' });
    for (const secret of [...secretsOf(before), ...secretsOf(after)]) expect(r.stderr).not.toContain(secret);
    expect(r.stderr).toContain('refresh_token=***');
    expect(r.stderr).toContain('authorization: Bearer ***');

    t.emu.log.length = 0;
    expect((await t.run(['erp', 'companies', 'list'])).code).toBe(0);
    expect(t.emu.log.map((l) => l.family)).toEqual(['erp']);
  });

  it('erp refresh --wait renews a stored lcs sign-in that expires during the wait, between two status reads (a refresh outlives a token)', async () => {
    // vx takes a token for expired 30 s before its end: these live 1 s in vx's eyes, 31 s in the emulator's
    t.emu.state.auth.tokenTtl = 31;
    await loginDevice('lcs');
    t.emu.log.length = 0;
    const r = await t.run([...refreshArgs, '--wait', '--poll-interval', '1.5']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).OperationStatus).toBe('Completed');
    const lcs = t.emu.log.filter((l) => l.family === 'lcs');
    expect(lcs.map((l) => l.method)).toEqual(['POST', 'GET', 'GET', 'GET']);
    const bearer = (l: (typeof lcs)[number]) => String(l.headers?.authorization);
    // the last read, 3 s after the POST, went with a renewed token, not the one the POST used
    expect(bearer(lcs[3])).not.toBe(bearer(lcs[0]));
    expect(bearer(lcs[3])).toBe(`Bearer ${t.profile()['lcs.token']}`);
    expect(t.emu.count({ family: 'auth', method: 'POST' })).toBeGreaterThanOrEqual(1);
  });

  it('mgmt commands renew through the command HTTP door: traced with --debug, and not at all with --dry-run', async () => {
    t.emu.state.auth.tokenTtl = 0;
    await loginDevice('mgmt');
    const before = t.profile();
    t.emu.state.auth.tokenTtl = 3600;
    t.emu.log.length = 0;
    // --dry-run sends nothing, the renewal included, and stores nothing
    const dry = await t.run(['mgmt', 'quota', 'set', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus', '--limit', '150', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).map((p: any) => p.method)).toEqual(['GET', 'GET', 'PATCH']);
    expect(t.emu.log).toEqual([]);
    expect(t.profile()).toEqual(before);
    // --debug shows the renewal like any other request (secrets masked)
    const r = await t.run(['mgmt', 'health', 'events', 'list', '--top', '1', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(t.emu.log.map((l) => `${l.family} ${l.method} ${l.path.replace(/\?.*/, '')}`)).toEqual([
      'auth POST /common/oauth2/token',
      `mgmt GET /subscriptions/${t.env.VX_SUBSCRIPTION}/providers/Vendor.ResourceHealth/events`,
    ]);
    expect(r.stderr).toMatch(/\[debug\] > POST http:\/\/127\.0\.0\.1:\d+\/auth\/common\/oauth2\/token\n/);
    expect(r.stderr).toContain('refresh_token=***');
    for (const secret of [...secretsOf(before), ...secretsOf(t.profile())]) expect(r.stderr).not.toContain(secret);
  });

  it('from client credentials are renewed when the client secret is at hand (VX_CLIENT_SECRET), else refused', async () => {
    t.emu.state.auth.tokenTtl = 0;
    await loginCc('mgmt');
    t.emu.state.auth.tokenTtl = 3600;
    const old = t.profile()['mgmt.token'];
    t.emu.log.length = 0;
    const refused = await t.run(['api', 'GET', '/_probe', '--service', 'mgmt']);
    expect(refused.code).toBe(3);
    expect(t.emu.log).toEqual([]);
    const status = await t.run(['auth', 'status', '--service', 'mgmt'], { env: { VX_CLIENT_SECRET: EMULATOR_CLIENT_SECRET } });
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ status: 'expired', renewable: true });
    const ok = await t.run(['api', 'GET', '/_probe', '--service', 'mgmt', '--debug'], { env: { VX_CLIENT_SECRET: EMULATOR_CLIENT_SECRET } });
    expect(ok.code, ok.stderr).toBe(0);
    expect(t.emu.log.map((l) => `${l.family} ${l.method} ${l.path}`)).toEqual(['auth POST /contoso/oauth2/token', 'mgmt GET /_probe']);
    const fresh = t.profile()['mgmt.token'];
    expect(fresh).not.toBe(old);
    expect(JSON.parse(ok.stdout).credential).toBe(fresh);
    expect(JSON.parse(t.profile()['mgmt.signIn'])).toMatchObject({ method: 'client-credentials', clientId: 'ci-app', tenant: 'contoso' });
    for (const secret of [old, fresh, EMULATOR_CLIENT_SECRET]) expect(ok.stderr).not.toContain(secret);
  });

  it('that cannot be renewed are refused (exit 3) with zero requests to the service', async () => {
    t.emu.state.auth.tokenTtl = 0;
    await loginDevice('mgmt');
    const status = await t.run(['auth', 'status', '--service', 'mgmt']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ status: 'expired', renewable: true });
    t.emu.tokens.clear(); // the refresh token is revoked
    t.emu.log.length = 0;
    const r = await t.run(['api', 'GET', '/_probe', '--service', 'mgmt']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^vx: the mgmt sign-in stored in profile "default" expired at \S+ and could not be renewed \(refreshing the token failed: invalid_grant: The refresh token is invalid or expired\.\); sign in again with `vx auth login --service mgmt`\n$/);
    expect(t.emu.log.map((l) => l.family)).toEqual(['auth']);
  });

  it('an expiry belongs to the token it was recorded for: a token set by hand afterwards is not refused', async () => {
    t.emu.state.auth.tokenTtl = 0;
    await loginCc('erp');
    expect((await t.run(['erp', 'companies', 'list'])).code).toBe(3);
    expect((await t.run(['profile', 'set', 'erp.token', 'emulator-token'])).code).toBe(0);
    const r = await t.run(['erp', 'companies', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const status = JSON.parse((await t.run(['auth', 'status', '--service', 'erp'])).stdout)[0];
    expect(status).toMatchObject({ status: 'signed in', method: 'token', expiresAt: null, source: 'profile "default"' });
  });

  it('a token the service no longer accepts gives the service 401 as exit 3', async () => {
    await loginCc('mgmt');
    for (const v of t.emu.tokens.values()) v.expiresAt = Date.now() - 1000;
    const r = await t.run(['api', 'GET', '/_probe', '--service', 'mgmt']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^vx: HTTP 401 Unauthorized AuthenticationFailed: The access token has expired\./);
  });

  it('a watch that outlives its access token goes on: renewed with the refresh token, the refused poll sent once more', async () => {
    await loginDevice('mgmt');
    const first = t.profile()['mgmt.token'];
    t.emu.log.length = 0;
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 300 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(done()).toBe(true);
    };
    const { result, driven } = await drive(t, ['mgmt', 'health', 'watch', '--interval', '1', '-o', 'ndjson'], async (child) => {
      await until(() => t.emu.count({ family: 'mgmt' }) >= 1);
      t.emu.tokens.get(first)!.expiresAt = Date.now() - 1; // the service now refuses it (expired there, or revoked)
      await until(() => t.emu.log.some((l, i) => l.family === 'mgmt' && l.status === 200 && t.emu.log.slice(0, i).some((a) => a.family === 'auth')));
      child.kill('SIGINT');
    });
    expect(driven).toBeUndefined();
    expect([result.code, result.stderr]).toEqual([130, 'vx: interrupted\n']);
    const seen = t.emu.log.map((l) => `${l.family} ${l.status}`);
    const refused = seen.indexOf('mgmt 401');
    expect(refused).toBeGreaterThan(0);
    expect(seen.slice(refused, refused + 3)).toEqual(['mgmt 401', 'auth 200', 'mgmt 200']);
    expect(t.emu.count({ family: 'auth' })).toBe(1);
    const renewed = t.profile()['mgmt.token'];
    expect(renewed).not.toBe(first);
    expect(t.emu.tokens.get(renewed)).toBeDefined();
  });
});

describe('auth status, logout and token', () => {
  it('status shows per service whether, how and until when, and where it is stored, never a secret', async () => {
    await t.run(['auth', 'login', '--service', 'translator', '--with-key'], { input: 'emulator-key' });
    await loginDevice('erp');
    await loginCc('mgmt');
    const p = t.profile();
    const json = await t.run(['auth', 'status']);
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.stdout);
    expect(rows.map((r: any) => [r.service, r.status, r.method, r.renewable])).toEqual([
      ['translator', 'signed in', 'key', false],
      ['erp', 'signed in', 'device-code', true],
      ['lcs', 'signed in', 'device-code', true],
      ['mgmt', 'signed in', 'client-credentials', false],
    ]);
    expect(rows[1].expiresAt).toBe(JSON.parse(p['erp.signIn']).expiresAt);
    expect(rows[0].storage).toBe(`file ${t.configDir}/config.json`);
    const table = await t.run(['auth', 'status', '-o', 'table']);
    expect(table.stdout).toMatch(/^SERVICE +STATUS +METHOD +EXPIRES +SOURCE\n/);
    expect(table.stdout).toMatch(/\nmgmt +signed in +client-credentials +20\S+ +profile "default"\n/);
    expect(table.stderr).toBe(`stored credentials live in ${t.configDir}/config.json (file mode 0600 in a 0700 directory); the OS keyring is not used\n`);
    // a file made readable by others (copied or restored by hand): said as it is, with a warning (was "0600" whatever it was)
    chmodSync(join(t.configDir, 'config.json'), 0o644);
    const loose = await t.run(['auth', 'status', '-o', 'table']);
    expect(loose.stderr).toBe(
      `stored credentials live in ${t.configDir}/config.json (file mode 0644 in a 0700 directory); the OS keyring is not used\n` +
        `warning: ${t.configDir}/config.json can be read by other users (mode 0644) and holds credentials: run \`chmod 600 ${t.configDir}/config.json\`\n`,
    );
    expect((await t.run(['auth', 'status', '-o', 'json'])).stderr).toContain('can be read by other users (mode 0644)');
    chmodSync(join(t.configDir, 'config.json'), 0o600);
    const debug = await t.run(['auth', 'status', '--debug', '-o', 'yaml']);
    for (const out of [json, table, debug]) {
      for (const secret of [...secretsOf(p), EMULATOR_CLIENT_SECRET]) {
        expect(out.stdout).not.toContain(secret);
        expect(out.stderr).not.toContain(secret);
      }
    }
    const none = await t.run(['auth', 'status', '--service', 'lcs'], { env: {} });
    expect(none.code).toBe(0);
  });

  it('status --check with an expired erp sign-in that lcs falls back to renews it once and checks both (the second renewal spent the used refresh token: exit 3)', async () => {
    t.emu.state.auth.tokenTtl = 0;
    await loginDevice('erp');
    t.emu.state.auth.tokenTtl = 3600;
    t.emu.log.length = 0;
    const r = await t.run(['auth', 'status', '--check', '-o', 'json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const rows = JSON.parse(r.stdout);
    expect(rows.filter((x: any) => x.service === 'erp' || x.service === 'lcs').map((x: any) => x.check)).toEqual(['ok (HTTP 200)', 'ok (HTTP 200)']);
    // renewed by the check: signed in again, until the new expiry
    const erp = rows.find((x: any) => x.service === 'erp');
    expect(erp.status).toBe('signed in');
    expect(Date.parse(erp.expiresAt)).toBeGreaterThan(Date.now());
    expect(t.emu.count({ family: 'auth', method: 'POST' })).toBe(1);
  });

  it('status --service exits 3 when not signed in', async () => {
    const r = await t.run(['auth', 'status', '--service', 'mgmt']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual([{ service: 'mgmt', status: 'not signed in', method: null, expiresAt: null, renewable: false, source: null, storage: null }]);
    expect(r.stderr).toBe('vx: not signed in to mgmt; run `vx auth login --service mgmt`\n');
  });

  it('logout removes the stored credentials of one service or all; commands then exit 3', async () => {
    await t.run(['auth', 'login', '--service', 'translator', '--with-key'], { input: 'emulator-key' });
    await loginDevice('erp');
    await loginCc('mgmt');
    const one = await t.run(['auth', 'logout', '--service', 'mgmt']);
    expect(one.code).toBe(0);
    expect(one.stderr).toBe('signed out of mgmt in profile "default" (stored credentials removed)\n');
    expect(Object.keys(t.profile()).sort()).toEqual(['erp.refreshToken', 'erp.signIn', 'erp.token', 'translator.key', 'translator.signIn']);
    const again = await t.run(['auth', 'logout', '--service', 'mgmt'], { env: { VX_MGMT_TOKEN: 'x-token' } });
    expect(again.stderr).toBe('no stored credentials for mgmt in profile "default"\nwarning: VX_MGMT_TOKEN is still set in the environment and is used for mgmt\n');
    // lcs has no sign-in of its own: it goes on with the erp one, and logout says so (was silent)
    const lcs = await t.run(['auth', 'logout', '--service', 'lcs']);
    expect([lcs.code, lcs.stderr]).toEqual([
      0,
      'no stored credentials for lcs in profile "default"\nwarning: lcs still uses the erp sign-in of profile "default", which it falls back to; `vx auth logout --service erp` removes that\n',
    ]);
    const all = await t.run(['auth', 'logout']);
    expect(all.stderr).toBe('signed out of translator, erp in profile "default" (stored credentials removed)\n');
    expect(t.profile()).toEqual({});
    t.emu.log.length = 0;
    const r = await t.run(['erp', 'companies', 'list']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no credentials configured');
    expect(t.emu.log).toEqual([]);
  });

  it('token prints the current credential for piping, renewing it when needed', async () => {
    await t.run(['auth', 'login', '--service', 'translator', '--with-key'], { input: 'emulator-key' });
    const key = await t.run(['auth', 'token', '--service', 'translator']);
    expect(key).toMatchObject({ code: 0, stdout: 'emulator-key\n', stderr: '' });
    t.emu.state.auth.tokenTtl = 0;
    await loginDevice('lcs');
    t.emu.state.auth.tokenTtl = 3600;
    const old = t.profile()['lcs.token'];
    const r = await t.run(['auth', 'token', '--service', 'lcs']);
    expect(r.code).toBe(0);
    const fresh = t.profile()['lcs.token'];
    expect(fresh).not.toBe(old);
    expect(r.stdout).toBe(`${fresh}\n`);
    const missing = await t.run(['auth', 'token']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--service <name>' not specified");
    const none = await t.run(['auth', 'token', '--service', 'mgmt']);
    expect(none.code).toBe(3);
  });

  // --dry-run printed the stored token as if valid, although it had expired (a renewal would have
  // replaced it), and printed a secret where the contract asks for the requests: now stdout has the
  // requests only (the renewal, its refresh token masked), stderr says what would be printed
  it('token --dry-run prints the requests it would send (the renewal of an expired sign-in), never the credential', async () => {
    await t.run(['auth', 'login', '--service', 'translator', '--with-key'], { input: 'emulator-key' });
    t.emu.state.auth.tokenTtl = 0;
    await loginDevice('lcs');
    t.emu.state.auth.tokenTtl = 3600;
    const before = t.profile();
    t.emu.log.length = 0;
    const dry = await t.run(['auth', 'token', '--service', 'lcs', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { method: string; url: string; body: string }[];
    expect(plan.map((p) => `${p.method} ${new URL(p.url).pathname}`)).toEqual(['POST /auth/common/oauth2/token']);
    expect(plan[0].body).toContain('grant_type=refresh_token');
    expect(plan[0].body).toContain('refresh_token=***');
    expect(dry.stderr).toMatch(/^dry run: the lcs sign-in stored in profile "default" expired at 20\S+; vx would renew it with the request above, store the new token and print it; nothing was sent or stored\n$/);
    for (const secret of secretsOf(before)) expect(dry.stdout + dry.stderr).not.toContain(secret);
    expect(t.emu.log).toEqual([]);
    expect(t.profile()).toEqual(before);

    const key = await t.run(['auth', 'token', '--service', 'translator', '--dry-run']);
    expect(key).toMatchObject({ code: 0, stdout: '', stderr: 'dry run: vx would print the translator key stored in profile "default" (nothing to send)\n' });
    const env = await t.run(['auth', 'token', '--service', 'mgmt', '--dry-run'], { env: { VX_MGMT_TOKEN: 'env-token-0123456789' } });
    expect(env).toMatchObject({ code: 0, stdout: '', stderr: 'dry run: vx would print the mgmt token from VX_MGMT_TOKEN (nothing to send)\n' });
  });
});

describe('profiles', () => {
  it('login, status and logout act on the selected profile only', async () => {
    const key = await t.run(['-p', 'staging', 'auth', 'login', '--service', 'translator', '--with-key', '--no-verify'], { input: 'staging-key' });
    expect(key.stderr).toBe('signed in to translator (subscription key) in profile "staging"; not checked (--no-verify)\n');
    await t.run(['auth', 'login', '--service', 'translator', '--with-key'], { input: 'emulator-key' });
    expect(await probe('translator')).toBe('emulator-key');
    const staging = await t.run(['auth', 'token', '--service', 'translator'], { env: { VX_PROFILE: 'staging' } });
    expect(staging.stdout).toBe('staging-key\n');
    expect((await t.run(['-p', 'staging', 'auth', 'logout'])).stderr).toBe('signed out of translator in profile "staging" (stored credentials removed)\n');
    expect(t.profile()['translator.key']).toBe('emulator-key');
    const status = await t.run(['-p', 'staging', 'auth', 'status', '--service', 'translator']);
    expect(status.code).toBe(3);
  });
});
