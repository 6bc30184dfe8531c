// A config file this user cannot read (a ~/.config/vx left owned by root after `sudo vx`, or made
// unreadable) made every command exit 2, even one whose settings all came from the environment,
// as in CI. Now it is read only when it is needed: a command that has everything from flags and
// environment variables runs, with one warning; one that needs the file (a named profile, a
// setting the environment does not give, `profile list`) says why it cannot have it, exit 2.
// The refusal is simulated (tests may run as root, whom permissions do not stop).
import { describe, expect, it, vi } from 'vitest';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const denied = vi.hoisted(() => ({ files: new Set<string>() }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readFileSync = ((path: unknown, ...rest: unknown[]) => {
    if (denied.files.has(String(path))) throw Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), { code: 'EACCES' });
    return (fs.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

const env = offlineEnv();
const COMPANIES = 'http://127.0.0.1:9/erp/api/v2.0/companies';
const deny = (t: { configDir: string }) => denied.files.add(`${t.configDir}/config.json`);
const advice = (dir: string) => `; make it readable and writable for your user (after \`sudo vx\`: \`sudo chown -R "$USER" ${dir}\`) or point VX_CONFIG_DIR at a directory of your own`;

describe('an unreadable config file', () => {
  it('is not needed when the environment gives every setting: the command runs, with one warning', async () => {
    let dir = '';
    // no -o: the format is looked up in the profile (that lookup alone made it exit 2)
    const r = await runInProc(['erp', 'companies', 'list'], {
      env,
      setup: (t) => {
        dir = t.configDir;
        deny(t);
        t.http.stub('GET', COMPANIES, json(200, { value: [{ id: 'c1' }] }));
      },
    });
    expect(r.stderr).toBe(`warning: cannot read config file ${dir}/config.json (EACCES: permission denied): only flags and environment variables are used${advice(dir)}\n`);
    expect([r.code, JSON.parse(r.stdout)]).toEqual([0, [{ id: 'c1' }]]);
  });

  it('a setting the environment does not give: the read failure is the error (not "no credentials configured")', async () => {
    const { VX_ERP_TOKEN: _t, ...noToken } = env;
    let dir = '';
    const r = await runInProc(['erp', 'companies', 'list'], {
      env: noToken,
      setup: (t) => {
        dir = t.configDir;
        deny(t);
      },
    });
    expect(r.stderr).toBe(
      `warning: cannot read config file ${dir}/config.json (EACCES: permission denied): only flags and environment variables are used${advice(dir)}\n` +
        `vx: business-data bearer token is not in VX_ERP_TOKEN, and config file ${dir}/config.json, which may hold it, could not be read (EACCES: permission denied)\n`,
    );
    expect([r.code, r.http.requests]).toEqual([2, []]);
  });

  it('a named profile needs it: exit 2 with the read failure (not "no profile named")', async () => {
    let dir = '';
    const r = await runInProc(['-p', 'staging', 'erp', 'companies', 'list'], {
      env,
      setup: (t) => {
        dir = t.configDir;
        deny(t);
      },
    });
    expect(r.stderr).toBe(`vx: cannot read config file ${dir}/config.json: EACCES: permission denied, open '${dir}/config.json'${advice(dir)}\n`);
    expect([r.code, r.http.requests]).toEqual([2, []]);
  });

  it('auth status needs it (it reports the stored sign-ins): exit 2, not "not signed in"', async () => {
    let dir = '';
    const r = await runInProc(['auth', 'status'], {
      env,
      setup: (t) => {
        dir = t.configDir;
        deny(t);
      },
    });
    expect(r.stderr).toBe(`vx: cannot read config file ${dir}/config.json: EACCES: permission denied, open '${dir}/config.json'${advice(dir)}\n`);
    expect([r.code, r.stdout]).toEqual([2, '']);
  });

  it('profile list needs it: exit 2', async () => {
    let dir = '';
    const r = await runInProc(['profile', 'list'], {
      env,
      setup: (t) => {
        dir = t.configDir;
        deny(t);
      },
    });
    expect(r.stderr).toBe(`vx: cannot read config file ${dir}/config.json: EACCES: permission denied, open '${dir}/config.json'${advice(dir)}\n`);
    expect(r.code).toBe(2);
  });
});
