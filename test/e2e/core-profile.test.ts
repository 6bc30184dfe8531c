// vx profile: every subcommand, secrets masked everywhere, precedence shown, config file safety.
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runVxInProc } from '../helpers/inproc.js';
import { removeDir, tempDir, type RunOptions } from '../helpers/vx.js';

const SECRET = 'sk-profile-secret-7f3a9c';
const dirs: string[] = [];
function cfg(): { dir: string; run: (args: string[], o?: RunOptions) => ReturnType<typeof runVxInProc> } {
  const dir = join(tempDir(), 'vx');
  dirs.push(dir);
  return { dir, run: (args, o = {}) => runVxInProc(args, { ...o, configDir: dir }) };
}
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(join(d, '..'));
});
const clean = (r: { stdout: string; stderr: string }) => {
  expect(r.stdout).not.toContain(SECRET);
  expect(r.stderr).not.toContain(SECRET);
};

describe('vx profile', () => {
  it('set (value from stdin), show, list, use, unset, delete — secrets masked', async () => {
    const { dir, run } = cfg();
    const s1 = await run(['profile', 'set', 'translator.key'], { input: `${SECRET}\n` });
    expect(s1.code).toBe(0);
    expect(s1.stderr).toBe('set translator.key in profile "default"\n');
    expect(s1.stdout).toBe('');
    const s2 = await run(['profile', 'set', 'translator.endpoint', 'http://127.0.0.1:4010/translator']);
    expect(s2.code).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(stored).toEqual({ profiles: { default: { 'translator.key': SECRET, 'translator.endpoint': 'http://127.0.0.1:4010/translator' } } });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const json = await run(['profile', 'show', '-o', 'json']);
    const shown = JSON.parse(json.stdout);
    expect(shown).toMatchObject({ profile: 'default', active: true });
    // every setting's effective value and its source, as the table shows them
    expect(shown.settings.filter((r: { source: string | null }) => r.source === 'profile')).toEqual([
      { key: 'translator.endpoint', value: 'http://127.0.0.1:4010/translator', source: 'profile' },
      { key: 'translator.key', value: '********', source: 'profile' },
    ]);
    clean(json);

    // table: the effective value of every setting and where it comes from
    const table = await run(['profile', 'show', '-o', 'table'], { env: { VX_TRANSLATOR_ENDPOINT: 'http://127.0.0.1:9/t' } });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^translator\.key\s+\*{8}\s+profile$/m);
    expect(table.stdout).toMatch(/^translator\.endpoint\s+http:\/\/127\.0\.0\.1:9\/t\s+env VX_TRANSLATOR_ENDPOINT$/m);
    expect(table.stdout).toMatch(/^mgmt\.namespace\s+Vendor\s+default$/m);
    clean(table);
    const yaml = await run(['profile', 'show', '-o', 'yaml']);
    clean(yaml);
    const tsv = await run(['profile', 'show', '-o', 'tsv']);
    clean(tsv);

    const lit = await run(['-p', 'staging', 'profile', 'set', 'erp.token', SECRET]);
    expect(lit.code).toBe(0);
    expect(lit.stderr).toMatch(/warning: a secret given on the command line may be kept in your shell history/);
    clean(lit);
    expect((await run(['profile', 'use', 'staging'])).stderr).toBe('active profile is now "staging"\n');
    // a profile that does not exist is not created by `use`: exit 2, the config untouched
    const cfgBefore = readFileSync(join(dir, 'config.json'), 'utf8');
    const ghost = await run(['profile', 'use', 'ghost']);
    expect(ghost.code).toBe(2);
    expect(ghost.stderr).toBe('vx: no profile named "ghost"; existing profiles: default, staging; create it with `vx -p ghost profile set <key> <value>` or `vx -p ghost auth login`\n');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(cfgBefore);
    const list = await run(['profile', 'list', '-o', 'json']);
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'default', active: false, settings: 2 },
      { name: 'staging', active: true, settings: 1 },
    ]);
    const listTable = await run(['profile', 'list', '-o', 'table']);
    expect(listTable.stdout).toBe('NAME     ACTIVE  SETTINGS\ndefault                 2\nstaging  *              1\n');
    const other = await run(['profile', 'show', 'default', '-o', 'json']);
    expect(JSON.parse(other.stdout).active).toBe(false);
    expect((await run(['profile', 'show', 'ghost'])).code).toBe(2);

    const un = await run(['profile', 'unset', 'erp.token']);
    expect(un.stderr).toBe('removed erp.token from profile "staging"\n');
    expect((await run(['profile', 'unset', 'erp.token'])).stderr).toBe('erp.token was not set in profile "staging"\n');

    const noYes = await run(['profile', 'delete', 'default']);
    expect(noYes.code).toBe(2);
    // a local change: nothing was changed (there is nothing to send)
    expect(noYes.stderr).toBe('vx: Delete profile "default" and the credentials stored in it: confirmation needed; pass --yes to proceed without a terminal (nothing was changed)\n');
    const del = await run(['profile', 'delete', 'default', '--yes']);
    expect(del.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ activeProfile: 'staging', profiles: { staging: {} } });
  });

  it('profile values apply unless env or flag override them (precedence end to end)', async () => {
    const { run } = cfg();
    await run(['profile', 'set', 'output', 'yaml']);
    await run(['profile', 'set', 'translator.region', 'westeurope']);
    const y = await run(['profile', 'show']);
    expect(y.stdout).toMatch(/^profile: default\n/);
    const e = await run(['profile', 'show'], { env: { VX_OUTPUT: 'json' } });
    expect(JSON.parse(e.stdout).profile).toBe('default');
    const f = await run(['profile', 'show', '-o', 'tsv'], { env: { VX_OUTPUT: 'json' } });
    expect(f.stdout).toMatch(/^translator\.region\twesteurope\tprofile$/m);
    const bad = await run(['profile', 'set', 'output', 'xml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('vx: invalid value "xml" for output; allowed: json, yaml, table, wide, tsv, csv, ndjson, text, none\n');
  });

  it('an endpoint that is not an absolute http(s) URL is refused by profile set (exit 2, nothing stored), as every request would refuse it', async () => {
    const { dir, run } = cfg();
    for (const [key, value, why] of [
      ['erp.prefix', 'notaurl', 'expected an absolute http(s) URL'],
      ['mgmt.endpoint', 'ftp://127.0.0.1/mgmt', 'expected an http(s) URL'],
      ['translator.endpoint', 'http://127.0.0.1:4010/t?x=1', 'it may not carry a query or fragment'],
    ]) {
      const r = await run(['profile', 'set', key, value]);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `vx: invalid ${key} "${value}": ${why}\n`]);
    }
    const dry = await run(['--dry-run', 'profile', 'set', 'auth.url', 'localhost:4010']);
    expect(dry.code).toBe(2);
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
    const ok = await run(['profile', 'set', 'erp.prefix', 'http://127.0.0.1:4010/erp/']);
    expect([ok.code, ok.stderr]).toEqual([0, 'set erp.prefix in profile "default"\n']);
  });

  it('a subscription id that is not a GUID is refused by profile set (every command would refuse it); a company may be named', async () => {
    const { dir, run } = cfg();
    const r = await run(['profile', 'set', 'mgmt.subscription', 'CRONUS USA']);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `vx: invalid value "CRONUS USA" for mgmt.subscription: expected a GUID (8-4-4-4-12 hexadecimal digits)\n`]);
    const c = await run(['profile', 'set', 'erp.company', 'CRONUS\tUSA']);
    expect([c.code, c.stdout, c.stderr]).toEqual([2, '', `vx: invalid value "CRONUS\\tUSA" for erp.company: expected a company's id (a GUID) or its name\n`]);
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
    const ok = await run(['profile', 'set', 'erp.company', '5F1B6A3E-0C4D-4E2A-9B7F-1A2B3C4D5E6F']);
    expect([ok.code, ok.stderr]).toEqual([0, 'set erp.company in profile "default"\n']);
  });

  it('an empty value (profile set erp.company "$UNSET") is refused, not stored as an empty setting', async () => {
    const { dir, run } = cfg();
    for (const value of ['', '  ']) {
      const r = await run(['-p', 'staging', 'profile', 'set', 'erp.company', value]);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'vx: empty value for erp.company; to remove the setting use `vx profile unset erp.company`\n']);
    }
    const blank = await run(['profile', 'set', 'translator.key'], { input: ' \n' });
    expect([blank.code, blank.stderr]).toEqual([2, 'vx: no value given for translator.key\n']);
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });

  it('empty stdin for a value is a usage error', async () => {
    const { run } = cfg();
    const r = await run(['profile', 'set', 'erp.token'], { input: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: no value given for erp.token\n');
  });

  it('a corrupt config is reported with its path (exit 2) and left untouched, by reads and writes', async () => {
    const { dir, run } = cfg();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, 'config.json');
    const text = '{"profiles": {"default": {"erp.token": "abc"';
    writeFileSync(path, text, { mode: 0o600 });
    const mtime = statSync(path).mtimeMs;
    for (const args of [['profile', 'list'], ['profile', 'set', 'erp.company', '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f'], ['profile', 'use', 'other'], ['api', 'GET', '/x', '--service', 'erp']]) {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^vx: config file ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON \\(.*\\); fix it or remove it — vx leaves it untouched\\n$`));
    }
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(statSync(path).mtimeMs).toBe(mtime);
  });
});
