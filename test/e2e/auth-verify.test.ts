// auth login tries what it stores (one cheap request per family, unless --no-verify); auth status
// --check tries every credential; a 401 from any command ends with the command that signs in again.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN } from '../../src/emulator/index.js';
import { useAuthEmulator } from '../helpers/auth.js';

const t = useAuthEmulator();
const sent = () => t.emu.log.map((l) => `${l.family} ${l.method} ${l.path.replace(/\?.*/, '')} ${l.status}`);

describe('auth login checks before storing', () => {
  it('a wrong translator key: exit 3, nothing stored, the probe named', async () => {
    const r = await t.run(['auth', 'login', '--service', 'translator', '--with-key'], { input: 'wrong-key' });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'vx: the translator service refused this key (HTTP 401 401000) when translating an empty text (bills nothing); nothing was stored. Check the key, or store it unchecked with --no-verify\n',
    );
    expect(t.profile()).toEqual({});
    expect(sent()).toEqual(['translator POST /translate 401']);
    // the probe bills nothing: one item with no characters
    expect(t.emu.log[0]!.body).toBe('[{"Text":""}]');
  });

  it('a good token per family is stored, and the message says which request checked it', async () => {
    const cases: [string, string][] = [
      ['erp', 'checked by listing one company (HTTP 200)'],
      ['lcs', 'checked by reading the status of a placeholder operation (HTTP 200)'],
      ['mgmt', 'checked by listing the health events of a subscription (HTTP 200)'],
    ];
    for (const [service, said] of cases) {
      const r = await t.run(['auth', 'login', '--service', service, '--with-token'], { input: DEFAULT_TOKEN });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(`signed in to ${service} (token) in profile "default"; expiry unknown; ${said}\n`);
      expect(t.profile()[`${service}.token`]).toBe(DEFAULT_TOKEN);
    }
    expect(sent()).toEqual([
      expect.stringMatching(/^erp GET \/api\/v2\.0\/companies 200$/),
      expect.stringMatching(/^lcs GET \/databasemovement\/v1\/fetchstatus\/project\/0\/environment\/0\/operationactivity\/0{8}-0{4}-0{4}-0{4}-0{12} 200$/),
      expect.stringMatching(/^mgmt GET \/subscriptions\/[0-9a-f-]+\/providers\/Vendor\.ResourceHealth\/events 200$/),
    ]);
  });

  it('a bad bearer token: exit 3 and nothing stored; --no-verify stores it without a request', async () => {
    const r = await t.run(['auth', 'login', '--service', 'mgmt', '--with-token'], { input: 'not-a-token' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^vx: the mgmt service refused this token \(HTTP 401 \S+\) when listing the health events of a subscription; nothing was stored\./);
    expect(t.profile()).toEqual({});
    t.emu.log.length = 0;
    const unchecked = await t.run(['auth', 'login', '--service', 'mgmt', '--with-token', '--no-verify'], { input: 'not-a-token' });
    expect(unchecked.code).toBe(0);
    expect(unchecked.stderr).toBe('signed in to mgmt (token) in profile "default"; expiry unknown; not checked (--no-verify)\n');
    expect(t.emu.log).toEqual([]);
  });

  it('without the endpoint configured the key is stored and the message says it was not checked', async () => {
    const r = await t.run(['auth', 'login', '--service', 'translator', '--with-key'], { input: 'any-key', env: { VX_TRANSLATOR_ENDPOINT: undefined } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('signed in to translator (subscription key) in profile "default"; not checked: translator.endpoint is not set\n');
  });

  it('when the service cannot be asked (a 503, no connection) nothing is stored and it says so and what to do (was the bare error)', async () => {
    t.emu.setFaults('503:1');
    const down = await t.run(['auth', 'login', '--service', 'erp', '--with-token', '--retries', '0'], { input: DEFAULT_TOKEN });
    t.emu.setFaults('');
    expect(down.stderr).toMatch(
      /^vx: HTTP 503 .*\nthe erp token could not be tried, so it was not stored: run the same `vx auth login` again once the service answers, or add --no-verify to store it untried\n$/,
    );
    expect(down.code).toBe(7);
    const refused = await t.run(['auth', 'login', '--service', 'mgmt', '--with-token', '--retries', '0'], { input: DEFAULT_TOKEN, env: { VX_MGMT_ENDPOINT: 'http://127.0.0.1:1/mgmt' } });
    expect(refused.stderr).toMatch(/^vx: GET http:\/\/127\.0\.0\.1:1\/mgmt\/\S+: connect ECONNREFUSED 127\.0\.0\.1:1\nthe mgmt token could not be tried, so it was not stored: /);
    expect(refused.code).toBe(8);
    expect(t.profile()).toEqual({});
  });
});

describe('auth status --check', () => {
  it('tries each stored credential: ok, refused (exit 3 naming the sign-in), not signed in', async () => {
    await t.run(['auth', 'login', '--service', 'translator', '--with-key'], { input: 'emulator-key' });
    await t.run(['auth', 'login', '--service', 'erp', '--with-token', '--no-verify'], { input: 'revoked-token' });
    await t.run(['auth', 'login', '--service', 'mgmt', '--with-token'], { input: DEFAULT_TOKEN });
    const r = await t.run(['auth', 'status', '--check', '-o', 'json']);
    expect(r.code).toBe(3);
    const rows = JSON.parse(r.stdout) as { service: string; status: string; check: string }[];
    // the status agrees with the check (it said "signed in" beside "refused (HTTP 401)")
    expect(Object.fromEntries(rows.map((x) => [x.service, x.status]))).toEqual({ translator: 'signed in', erp: 'refused', lcs: 'refused', mgmt: 'signed in' });
    expect(Object.fromEntries(rows.map((x) => [x.service, x.check]))).toEqual({
      translator: 'ok (HTTP 200)',
      erp: expect.stringMatching(/^refused \(HTTP 401 \S+\)$/),
      lcs: expect.stringMatching(/^refused \(HTTP 401 \S+\)$/), // lcs falls back to the erp token
      mgmt: 'ok (HTTP 200)',
    });
    expect(r.stderr).toBe(
      'vx: the stored credential of erp, lcs was refused; sign in again with `vx auth login --service erp`, `vx auth login --service lcs`\n',
    );
    const plain = await t.run(['auth', 'status', '-o', 'json']);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout)[0].check).toBeUndefined();
  });
});

describe('a 401 from any command', () => {
  it('ends with the command that signs in again to that family (a stored credential)', async () => {
    for (const family of ['erp', 'mgmt', 'translator'] as const) {
      await t.run(['auth', 'login', '--service', family, family === 'translator' ? '--with-key' : '--with-token', '--no-verify'], { input: 'revoked' });
    }
    for (const [args, env, family] of [
      [['erp', 'companies', 'list'], {}, 'erp'],
      [['mgmt', 'health', 'events', 'list'], { VX_SUBSCRIPTION: t.env.VX_SUBSCRIPTION }, 'mgmt'],
      [['translate', '--to', 'de', 'Hello'], {}, 'translator'],
      [['api', 'GET', '/api/v2.0/companies', '--service', 'erp'], {}, 'erp'],
    ] as const) {
      const r = await t.run([...args], { env });
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr.trimEnd().split('\n').at(-1), args.join(' ')).toBe(`sign in again with \`vx auth login --service ${family}\``);
    }
  });

  it('names the environment variable when the credential came from one (it wins over any sign-in)', async () => {
    await t.run(['auth', 'login', '--service', 'erp', '--with-token'], { input: DEFAULT_TOKEN });
    for (const [args, env, variable, family] of [
      [['erp', 'companies', 'list'], { VX_ERP_TOKEN: 'expired' }, 'VX_ERP_TOKEN', 'erp'],
      [['mgmt', 'health', 'events', 'list'], { VX_MGMT_TOKEN: 'expired', VX_SUBSCRIPTION: t.env.VX_SUBSCRIPTION }, 'VX_MGMT_TOKEN', 'mgmt'],
      [['translate', '--to', 'de', 'Hello'], { VX_TRANSLATOR_KEY: 'wrong' }, 'VX_TRANSLATOR_KEY', 'translator'],
      [['api', 'GET', '/api/v2.0/companies', '--service', 'erp'], { VX_ERP_TOKEN: 'expired' }, 'VX_ERP_TOKEN', 'erp'],
    ] as const) {
      const r = await t.run([...args], { env });
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr.trimEnd().split('\n').at(-1), args.join(' ')).toBe(
        `the credential came from ${variable}, which wins over any sign-in: correct it, or unset it and sign in with \`vx auth login --service ${family}\``,
      );
    }
  });
});

describe('auth status --check of a credential from the environment', () => {
  it('names the variable instead of "the stored credential" (exit 3)', async () => {
    await t.run(['auth', 'login', '--service', 'erp', '--with-token'], { input: DEFAULT_TOKEN });
    const r = await t.run(['auth', 'status', '--check', '--service', 'erp', '-o', 'json'], { env: { VX_ERP_TOKEN: 'revoked' } });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ service: 'erp', source: 'env VX_ERP_TOKEN', check: expect.stringMatching(/^refused \(HTTP 401 \S+\)$/) });
    expect(r.stderr).toBe(
      'vx: the credential of erp from VX_ERP_TOKEN was refused; it wins over any sign-in: correct it, or unset it and sign in with `vx auth login --service erp`\n',
    );
  });
});
