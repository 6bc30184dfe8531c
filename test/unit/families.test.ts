// The registry of service families (src/model/families.ts) is the one list: a fifth family, here
// "geo" (OAuth, served by the emulator under /geo), added to the registry alone shows up in
// --service choices, `auth login`'s list, the settings (`profile set --help`, env variables),
// the request headers, `emulator start`'s printed environment and the emulator's routing. Its
// own files would be its client (api/geo/: serviceBase + authenticator, as below) and its emulator
// routes (emulator/geo.ts: the FamilyDef below); nothing else changes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FamilyDef as ServiceFamily } from '../../src/model/families.js';
import { Http } from '../../src/core/http/index.js';

const GEO: ServiceFamily<string> = {
  name: 'geo',
  title: 'geo (maps)',
  auth: { kind: 'oauth' },
  endpoint: 'geo.endpoint',
  credential: 'geo.token',
  settings: [
    { key: 'geo.endpoint', env: 'VX_GEO_ENDPOINT', description: 'maps endpoint', url: true },
    { key: 'geo.token', env: 'VX_GEO_TOKEN', secret: true, credential: true, description: 'maps bearer token' },
  ],
  errorShape: 'error-object',
  probe: { what: 'reading one tile', method: 'GET', path: () => '/tiles/0' },
  emulator: { prefix: '/geo' },
};

/** the real modules, loaded with the registry holding a fifth family */
async function withGeo() {
  vi.resetModules();
  vi.doMock('../../src/model/families.js', async (importOriginal) => {
    const real = await importOriginal<typeof import('../../src/model/families.js')>();
    const FAMILIES = [...real.FAMILIES, GEO] as typeof real.FAMILIES;
    return {
      ...real,
      FAMILIES,
      FAMILY_NAMES: FAMILIES.map((f) => f.name),
      familyOf: (name: string) => FAMILIES.find((f) => f.name === name)!,
      allSettings: () => real.allSettings(FAMILIES),
      emulatorEnv: (url: string, creds: { key: string; token: string }, state: Record<string, Record<string, unknown> | undefined>) => real.emulatorEnv(url, creds, state, FAMILIES),
    };
  });
  return {
    program: await import('../../src/cli/program.js'),
    settings: await import('../../src/api/settings.js'),
    service: await import('../../src/api/service.js'),
    auth: await import('../../src/api/auth/authenticator.js'),
    credentials: await import('../../src/api/auth/credentials.js'),
    config: await import('../../src/core/config/index.js'),
    emulator: await import('../../src/emulator/index.js'),
    families: await import('../../src/model/families.js'),
  };
}

afterEach(() => {
  vi.doUnmock('../../src/model/families.js');
  vi.resetModules();
});

describe('a fifth service family added to the registry only', () => {
  it('is a --service choice of api and every auth command, and an OAuth family of auth login', async () => {
    const { program, credentials } = await withGeo();
    const root = program.buildProgram();
    const choices = (path: string[]) => {
      let c = root;
      for (const w of path) c = c.commands.find((s) => s.name() === w)!;
      return c.options.find((o) => o.long === '--service')?.argChoices;
    };
    for (const path of [['api'], ['auth', 'login'], ['auth', 'status'], ['auth', 'logout'], ['auth', 'token']]) {
      expect([path.join(' '), choices(path)]).toEqual([path.join(' '), ['translator', 'erp', 'lcs', 'mgmt', 'geo']]);
    }
    expect(credentials.OAUTH_FAMILIES).toEqual(['erp', 'lcs', 'mgmt', 'geo']);
  });

  it('has its settings with their variables, and the sign-in settings of an OAuth family, in profile set --help', async () => {
    const { program, settings } = await withGeo();
    const keys = settings.SETTINGS.map((s) => s.key);
    expect(keys).toEqual(expect.arrayContaining(['geo.endpoint', 'geo.token', 'geo.tenant', 'geo.clientId', 'geo.scope', 'geo.refreshToken', 'geo.signIn']));
    // its own settings come after mgmt's, before the general sign-in ones
    expect(keys.indexOf('geo.endpoint')).toBe(keys.indexOf('mgmt.namespace') + 1);
    const set = program.buildProgram(['profile', 'set']).commands.find((c) => c.name() === 'profile')!.commands.find((c) => c.name() === 'set')!;
    let text = '';
    set.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
    set.outputHelp();
    expect(text).toMatch(/^ {2}geo\.endpoint +env VX_GEO_ENDPOINT$/m);
    expect(text).toMatch(/^ {2}geo\.token +env VX_GEO_TOKEN, secret$/m);
    expect(text).toMatch(/^ {2}geo\.scope +default user_impersonation$/m);
  });

  it('is reached at its endpoint with a bearer token from its setting', async () => {
    const { service, auth, config, settings } = await withGeo();
    const cfg = new config.Config(settings.SETTINGS, { dir: '/nonexistent-vx-test', env: { VX_GEO_ENDPOINT: 'http://127.0.0.1:9/geo/', VX_GEO_TOKEN: 'geo-token' } });
    expect(service.serviceBase(cfg, 'geo' as never)).toBe('http://127.0.0.1:9/geo');
    expect(Object.fromEntries(Object.entries((await auth.authenticator(cfg, 'geo' as never, new Http())).headers()))).toEqual({ Authorization: 'Bearer geo-token' });
  });

  it("is served by the emulator under its prefix and printed by emulator start's environment", async () => {
    const { emulator, families } = await withGeo();
    // what emulator/geo.ts would export: its routes, its prefix from the registry
    const geoEmulator = {
      name: 'geo',
      prefix: families.familyOf('geo' as never).emulator.prefix,
      auth: 'bearer',
      requestIdHeader: 'request-id',
      codes: { unauthorized: 'Unauthorized', notFound: 'NotFound', badRequest: 'BadRequest', badJson: 'BadRequest', tooLarge: 'TooLarge', throttled: 'Throttled', unavailable: 'Unavailable', internal: 'Internal' },
      errorBody: (_status: number, code: string, message: string) => ({ error: { code, message } }),
      routes: [{ method: 'GET', path: '/tiles/{z}', handler: (req: { params: Record<string, string> }) => ({ status: 200, body: { z: req.params.z } }) }],
    } as unknown as import('../../src/emulator/server/index.js').FamilyDef;
    const emu = new emulator.Emulator({ families: [...emulator.allFamilies(), geoEmulator] });
    await emu.listen(0, '127.0.0.1');
    try {
      const env = emu.env();
      expect(env.VX_GEO_ENDPOINT).toBe(`${emu.url}/geo`);
      expect(env.VX_GEO_TOKEN).toBe(emu.token);
      // the four families keep their variables, in order, then geo's, then the sign-in address
      expect(Object.keys(env)).toEqual([
        'VX_TRANSLATOR_ENDPOINT', 'VX_TRANSLATOR_KEY', 'VX_ERP_PREFIX', 'VX_ERP_TOKEN', 'VX_ERP_COMPANY', 'VX_LCS_ENDPOINT', 'VX_LCS_TOKEN',
        'VX_MGMT_ENDPOINT', 'VX_MGMT_TOKEN', 'VX_SUBSCRIPTION', 'VX_GEO_ENDPOINT', 'VX_GEO_TOKEN', 'VX_AUTH_URL',
      ]);
      const ok = await fetch(`${env.VX_GEO_ENDPOINT}/tiles/7`, { headers: { authorization: `Bearer ${env.VX_GEO_TOKEN}` } });
      expect([ok.status, await ok.json()]).toEqual([200, { z: '7' }]);
      const refused = await fetch(`${env.VX_GEO_ENDPOINT}/tiles/7`);
      expect(refused.status).toBe(401);
      const nowhere = await fetch(`${emu.url}/nowhere`);
      expect(((await nowhere.json()) as { error: { message: string } }).error.message).toBe('no emulated service at /nowhere; families live under /translator, /erp, /lcs, /mgmt, /auth and /geo');
    } finally {
      await emu.close();
    }
  });
});
