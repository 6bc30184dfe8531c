// vx profile show / get / use, in-process: the effective values with their sources, the same in
// every format; the credential records auth login keeps never printed; `-p t1 profile show` and
// `profile show t1` alike; the implicit default profile can be made active again.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProc } from '../helpers/inproc.js';

const SIGN_IN = JSON.stringify({ method: 'device code', expiresAt: '2999-01-01T00:00:00Z', fingerprint: 'eyJsecret', at: '2026-01-01T00:00:00Z' });

function configDir(store: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'vx-profile-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(store), { mode: 0o600 });
  return dir;
}

const run = (dir: string, argv: string[], env: Record<string, string> = {}) => runInProc(argv, { env: { VX_CONFIG_DIR: dir, ...env } });

describe('profile use default', () => {
  it('makes the implicit default profile active again, as profile list shows it', async () => {
    const dir = configDir({ profiles: { emu: { 'erp.company': 'c1' } } });
    expect((await run(dir, ['profile', 'use', 'emu'])).code).toBe(0);
    const back = await run(dir, ['profile', 'use', 'default']);
    expect(back.code).toBe(0);
    expect(back.stderr).toBe('active profile is now "default"\n');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ profiles: { emu: { 'erp.company': 'c1' } } });
    const list = await run(dir, ['profile', 'list', '-o', 'json']);
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'default', active: true, settings: 0 },
      { name: 'emu', active: false, settings: 1 },
    ]);
    expect((await run(dir, ['profile', 'use', 'default', '--dry-run'])).code).toBe(0);
  });
});

describe('profile show', () => {
  const store = { profiles: { default: { 'translator.key': 'k-123456', 'erp.signIn': SIGN_IN, 'erp.refreshToken': 'r-secret' }, t1: { 'erp.company': 'c-t1' } } };

  it('-o json and yaml: the rows of the table (effective value, source), never the sign-in record', async () => {
    const dir = configDir(store);
    const env = { VX_TRANSLATOR_ENDPOINT: 'http://127.0.0.1:9/t' };
    const json = await run(dir, ['profile', 'show', '-o', 'json'], env);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.profile).toBe('default');
    expect(doc.active).toBe(true);
    const byKey = Object.fromEntries(doc.settings.map((r: { key: string }) => [r.key, r]));
    expect(byKey['translator.endpoint']).toEqual({ key: 'translator.endpoint', value: 'http://127.0.0.1:9/t', source: 'env VX_TRANSLATOR_ENDPOINT' });
    expect(byKey['translator.key']).toEqual({ key: 'translator.key', value: '********', source: 'profile' });
    expect(byKey['mgmt.namespace']).toEqual({ key: 'mgmt.namespace', value: 'Vendor', source: 'default' });
    expect(byKey['erp.token']).toEqual({ key: 'erp.token', value: null, source: null });
    expect(byKey['erp sign-in']).toEqual({ key: 'erp sign-in', value: 'device code, until 2999-01-01 00:00Z, renewable', source: 'auth login' });
    for (const out of [json.stdout, (await run(dir, ['profile', 'show', '-o', 'yaml'], env)).stdout]) {
      expect(out).not.toMatch(/signIn|refreshToken|eyJsecret|r-secret|k-123456/);
    }
    // the table shows the same rows
    const tsv = await run(dir, ['profile', 'show', '-o', 'tsv'], env);
    expect(tsv.stdout).toContain('translator.endpoint\thttp://127.0.0.1:9/t\tenv VX_TRANSLATOR_ENDPOINT\n');
    expect(tsv.stdout).toContain('erp sign-in\tdevice code, until 2999-01-01 00:00Z, renewable\tauth login\n');
  });

  it('-p t1 profile show and profile show t1 agree: the same rows, and t1 is not the active profile', async () => {
    const dir = configDir(store);
    const env = { VX_ERP_TOKEN: 'env-token' };
    const a = await run(dir, ['-p', 't1', 'profile', 'show', '-o', 'json'], env);
    const b = await run(dir, ['profile', 'show', 't1', '-o', 'json'], env);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const doc = JSON.parse(a.stdout);
    expect(doc).toMatchObject({ profile: 't1', active: false });
    const byKey = Object.fromEntries(doc.settings.map((r: { key: string }) => [r.key, r]));
    expect(byKey['erp.company']).toEqual({ key: 'erp.company', value: 'c-t1', source: 'profile' });
    // what a command run with -p t1 would use: the environment wins over the profile
    expect(byKey['erp.token']).toEqual({ key: 'erp.token', value: '********', source: 'env VX_ERP_TOKEN' });
    expect(byKey['translator.key']).toEqual({ key: 'translator.key', value: null, source: null });
    const table = await run(dir, ['profile', 'show', 't1', '-o', 'tsv'], env);
    expect(table.stdout).toContain('erp.company\tc-t1\tprofile\n');
  });
});

describe('profile get', () => {
  const store = { activeProfile: 't1', profiles: { t1: { 'erp.company': 'c-t1', 'erp.token': 'secret-token' }, t2: { 'erp.company': 'c-t2' } } };

  it('prints the effective value alone; --show-source adds where it comes from', async () => {
    const dir = configDir(store);
    const g = await run(dir, ['profile', 'get', 'erp.company']);
    expect(g).toMatchObject({ code: 0, stdout: 'c-t1\n', stderr: '' });
    expect((await run(dir, ['-p', 't2', 'profile', 'get', 'erp.company'])).stdout).toBe('c-t2\n');
    expect((await run(dir, ['profile', 'get', 'erp.company', '--show-source'], { VX_ERP_COMPANY: 'c-env' })).stdout).toBe('c-env\tenv VX_ERP_COMPANY\n');
    expect((await run(dir, ['profile', 'get', 'mgmt.namespace', '--show-source'])).stdout).toBe('Vendor\tdefault\n');
    const json = await run(dir, ['profile', 'get', 'erp.company', '--show-source', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual({ key: 'erp.company', value: 'c-t1', source: 'profile' });
    expect(JSON.parse((await run(dir, ['profile', 'get', 'erp.company', '-o', 'json'])).stdout)).toBe('c-t1');
  });

  it('a secret is masked; a setting without a value is exit 1 with nothing on stdout; an unknown or internal key exit 2', async () => {
    const dir = configDir(store);
    expect((await run(dir, ['profile', 'get', 'erp.token'])).stdout).toBe('********\n');
    const none = await run(dir, ['profile', 'get', 'mgmt.subscription']);
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toBe('vx: mgmt.subscription has no value in profile "t1" nor from VX_SUBSCRIPTION; set it with `vx profile set mgmt.subscription <value>`\n');
    expect((await run(dir, ['profile', 'get', 'erp.nope'])).code).toBe(2);
    const internal = await run(dir, ['profile', 'get', 'erp.signIn']);
    expect(internal.code).toBe(2);
    expect(internal.stderr).toMatch(/^vx: erp\.signIn is a credential record that `vx auth login` writes/);
  });
});
