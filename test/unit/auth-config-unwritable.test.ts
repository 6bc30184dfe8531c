// A sign-in whose result could not be stored (the config directory is not writable for this user,
// e.g. left owned by root after `sudo vx`) is refused before it begins: exit 2, one line saying
// what to do, nothing sent, no browser or device code to go through for nothing. The directory's
// refusal is simulated (tests may run as root, whom permissions do not stop).
import { describe, expect, it, vi } from 'vitest';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const denied = vi.hoisted(() => ({ dirs: new Set<string>() }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const accessSync: typeof fs.accessSync = (path, mode) => {
    if (denied.dirs.has(String(path)) && mode !== undefined && mode & fs.constants.W_OK) {
      throw Object.assign(new Error(`EACCES: permission denied, access '${String(path)}'`), { code: 'EACCES' });
    }
    return fs.accessSync(path, mode);
  };
  return { ...fs, default: { ...fs, accessSync }, accessSync };
});

const { VX_ERP_TOKEN: _t, VX_LCS_TOKEN: _l, VX_MGMT_TOKEN: _m, VX_TRANSLATOR_KEY: _k, ...env } = offlineEnv();

describe('auth login with a config directory this user cannot write', () => {
  const flows: [string, string[], { stdin?: string; env?: Record<string, string> }][] = [
    ['browser', ['--service', 'erp', '--no-browser', '--wait', '1'], {}],
    ['device code', ['--service', 'mgmt', '--device-code', '--wait', '1'], {}],
    ['client credentials', ['--service', 'erp', '--client-credentials', '--client-id', 'app', '--tenant', 'contoso'], { env: { VX_CLIENT_SECRET: 'cs-0123456789' } }],
    ['token from stdin', ['--service', 'lcs', '--with-token'], { stdin: 'tok-0123456789' }],
    ['translator key', ['--service', 'translator', '--with-key'], { stdin: 'key-0123456789' }],
  ];
  for (const [name, args, o] of flows) {
    it(`${name}: refused before anything is sent or asked (exit 2)`, async () => {
      let dir = '';
      const r = await runInProc(['auth', 'login', ...args], {
        env: { ...env, ...o.env },
        stdin: o.stdin,
        setup: (t) => {
          dir = t.configDir;
          denied.dirs.add(dir);
        },
      });
      expect(r.stderr).toBe(
        `vx: cannot store credentials: config directory ${dir} is not writable (EACCES); make it readable and writable for your user (after \`sudo vx\`: \`sudo chown -R "$USER" ${dir}\`) or point VX_CONFIG_DIR at a directory of your own; nothing was sent\n`,
      );
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
    });
  }

  it('--dry-run still prints what would be sent (it stores nothing)', async () => {
    const r = await runInProc(['--dry-run', 'auth', 'login', '--service', 'mgmt', '--device-code'], { env, setup: (t) => denied.dirs.add(t.configDir) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9/auth/common/oauth2/devicecode' });
  });
});
