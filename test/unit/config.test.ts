// Precedence (flag > env > profile > default), masking, file modes and the corrupt-file report.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Config, maskSecret, type SettingDef } from '../../src/core/config/index.js';
import { SETTINGS } from '../../src/api/settings.js';
import { AuthError, UsageError } from '../../src/core/errors.js';
import { clearSecrets, redact } from '../../src/core/redact.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const DEFS: SettingDef[] = [
  { key: 'svc.endpoint', env: 'T_ENDPOINT', description: 'service endpoint' },
  { key: 'svc.key', env: 'T_KEY', secret: true, credential: true, description: 'service key' },
  { key: 'svc.ns', env: 'T_NS', default: 'Vendor', description: 'namespace' },
  { key: 'other.token', env: 'T_OTHER', secret: true, fallback: 'svc.key', description: 'other token' },
  { key: 'output', description: 'format', choices: ['json', 'table'] },
];
const dirs: string[] = [];
function fresh(): string {
  const d = tempDir();
  dirs.push(d);
  return join(d, 'cfg');
}
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
  clearSecrets();
});

describe('precedence', () => {
  it('flag > env > profile > default, with the source reported', async () => {
    const dir = fresh();
    await new Config(DEFS, { dir, env: {} }).set('svc.endpoint', 'http://profile', 'default');
    await new Config(DEFS, { dir, env: {} }).set('svc.ns', 'FromProfile', 'default');
    const env = { T_ENDPOINT: 'http://env' };
    const c = new Config(DEFS, { dir, env });
    expect(c.resolve('svc.endpoint', 'http://flag')).toEqual({ value: 'http://flag', source: 'flag' });
    expect(c.resolve('svc.endpoint')).toEqual({ value: 'http://env', source: 'env', origin: 'T_ENDPOINT' });
    expect(new Config(DEFS, { dir, env: {} }).resolve('svc.endpoint')).toEqual({ value: 'http://profile', source: 'profile', origin: 'default' });
    expect(new Config(DEFS, { dir: fresh(), env: {} }).resolve('svc.ns')).toEqual({ value: 'Vendor', source: 'default' });
    expect(c.resolve('svc.ns')?.source).toBe('profile');
    // an empty environment variable does not count; an empty flag is an error, never a silent
    // fall-back to another subscription or company ("--subscription $UNSET")
    expect(new Config(DEFS, { dir, env: { T_ENDPOINT: '' } }).resolve('svc.endpoint')?.value).toBe('http://profile');
    expect(() => new Config(DEFS, { dir, env: {} }).resolve('svc.endpoint', '')).toThrow(UsageError);
    expect(() => new Config(DEFS, { dir, env: {} }).require('svc.endpoint', '', 'the endpoint (--endpoint)')).toThrow(
      'the endpoint (--endpoint) was given as an empty value; leave the option out to use the environment or profile setting (nothing was sent)',
    );
  });

  it('profile selection: flag > VX_PROFILE > active profile > "default"', async () => {
    const dir = fresh();
    const w = new Config(DEFS, { dir, env: {} });
    await w.set('svc.endpoint', 'http://a', 'a');
    await w.set('svc.endpoint', 'http://b', 'b');
    await w.set('svc.endpoint', 'http://c', 'c');
    await w.use('b');
    expect(new Config(DEFS, { dir, env: {} }).get('svc.endpoint')).toBe('http://b');
    expect(new Config(DEFS, { dir, env: { VX_PROFILE: 'c' } }).get('svc.endpoint')).toBe('http://c');
    expect(new Config(DEFS, { dir, env: { VX_PROFILE: 'c' }, profileFlag: 'a' }).get('svc.endpoint')).toBe('http://a');
  });

  it('a named profile must exist (checkProfile, use); the implicit default need not', async () => {
    const dir = fresh();
    const w = new Config(DEFS, { dir, env: {} });
    await expect(w.use('a')).rejects.toThrow(new UsageError('no profile named "a"; no profile exists yet; create it with `vx -p a profile set <key> <value>` or `vx -p a auth login`'));
    await w.set('svc.endpoint', 'http://a', 'a');
    expect(() => new Config(DEFS, { dir, env: {}, profileFlag: 'b' }).checkProfile()).toThrow('no profile named "b" (from --profile); existing profiles: a;');
    expect(() => new Config(DEFS, { dir, env: { VX_PROFILE: 'b' } }).checkProfile()).toThrow('no profile named "b" (from VX_PROFILE); existing profiles: a;');
    expect(() => new Config(DEFS, { dir, env: { VX_PROFILE: 'b' }, profileFlag: 'a' }).checkProfile()).not.toThrow();
    expect(() => new Config(DEFS, { dir, env: { VX_PROFILE: 'default' } }).checkProfile()).not.toThrow();
    expect(() => new Config(DEFS, { dir: fresh(), env: {} }).checkProfile()).not.toThrow();
    await w.use('a');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).activeProfile).toBe('a');
  });

  it('a fallback setting is consulted last; missing credentials are exit 3, other settings exit 2', () => {
    const c = new Config(DEFS, { dir: fresh(), env: { T_KEY: 'key-value-1' } });
    expect(c.resolve('other.token')).toEqual({ value: 'key-value-1', source: 'env', origin: 'T_KEY' });
    const empty = new Config(DEFS, { dir: fresh(), env: {} });
    expect(() => empty.require('svc.key')).toThrow(AuthError);
    expect(() => empty.require('svc.key')).toThrow(/service key is not set; set T_KEY or run `vx profile set svc.key <value>`/);
    expect(() => empty.require('svc.endpoint')).toThrow(UsageError);
  });

  it('secrets from env and profile are registered for redaction and masked in display', async () => {
    const dir = fresh();
    await new Config(DEFS, { dir, env: {} }).set('svc.key', 'stored-secret-1');
    const c = new Config(DEFS, { dir, env: { T_OTHER: 'env-secret-2' } });
    expect(c.showProfile()).toEqual({ 'svc.key': '********' });
    c.get('other.token');
    expect(redact('stored-secret-1 env-secret-2')).toBe('*** ***');
    expect(maskSecret('x')).toBe('********');
    expect(maskSecret('')).toBe('');
  });

  it('validates keys, choices and profile names', async () => {
    const c = new Config(DEFS, { dir: fresh(), env: {} });
    await expect(c.set('nope', 'x')).rejects.toThrow(/unknown setting "nope"; known settings: svc.endpoint/);
    await expect(c.set('output', 'xml')).rejects.toThrow(/invalid value "xml" for output; allowed: json, table/);
    await expect(c.set('svc.ns', 'x', '../evil')).rejects.toThrow(/invalid profile name/);
    await expect(c.deleteProfile('ghost')).rejects.toThrow(/no profile named "ghost"/);
  });

  it("refuses what a setting's use would refuse: the erp bulk settings (batch size, concurrency, rate limit)", async () => {
    const c = new Config(SETTINGS, { dir: fresh(), env: {} });
    await expect(c.set('erp.batchSize', '500')).rejects.toThrow(/^invalid value "500" for erp.batchSize: expected a whole number from 1 to 100$/);
    await expect(c.set('erp.concurrency', '0')).rejects.toThrow(/^invalid value "0" for erp.concurrency: expected a whole number from 1 to 64$/);
    for (const v of ['bogus', '0/300', '6000/0', '6000', '6000/300/1']) await expect(c.set('erp.rateLimit', v), v).rejects.toThrow(`invalid value "${v}" for erp.rateLimit: expected <requests>/<seconds>, e.g. 6000/300`);
    for (const v of ['0', 'fast', '1.5', '99999999999999999999']) await expect(c.set('translate.maxRate', v), v).rejects.toThrow(`invalid value "${v}" for translate.maxRate: expected a whole number of characters from 1, e.g. 2000000`);
    await c.set('translate.maxRate', '2,000,000');
    for (const [k, v] of [['erp.batchSize', '100'], ['erp.concurrency', '5'], ['erp.rateLimit', '600/60s'], ['erp.rateLimit', '6000 / 300']]) await c.set(k, v);
    expect(c.get('erp.rateLimit')).toBe('6000 / 300');
  });
});

describe('the file', () => {
  it('is written 0600 in a 0700 directory, even under umask 000', async () => {
    const old = process.umask(0);
    try {
      const dir = join(fresh(), 'nested');
      await new Config(DEFS, { dir, env: {} }).set('svc.key', 'k-123456');
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ profiles: { default: { 'svc.key': 'k-123456' } } });
    } finally {
      process.umask(old);
    }
  });

  it('tightens its own permissive file; refuses a directory others can write (its mode left alone)', async () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'config.json'), '{"profiles":{"x":{}}}', { mode: 0o666 });
    chmodSync(join(dir, 'config.json'), 0o666);
    await new Config(DEFS, { dir, env: {} }).use('x');
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    chmodSync(dir, 0o777);
    await expect(new Config(DEFS, { dir, env: {} }).use('x')).rejects.toThrow(/^config directory .* is writable by other users \(mode 0777\)/);
    expect(() => new Config(DEFS, { dir, env: {} }).store()).toThrow(/writable by other users/);
    expect(statSync(dir).mode & 0o777).toBe(0o777);
  });

  it('a corrupt file is reported with its path, never rewritten', async () => {
    for (const text of ['{"profiles": {', '[1,2]', '"x"']) {
      const dir = fresh();
      mkdirSync(dir, { recursive: true });
      const path = join(dir, 'config.json');
      writeFileSync(path, text);
      const before = statSync(path).mtimeMs;
      const c = new Config(DEFS, { dir, env: {} });
      expect(() => c.get('svc.endpoint')).toThrow(UsageError);
      expect(() => c.get('svc.endpoint')).toThrow(`config file ${path}`);
      await expect(new Config(DEFS, { dir, env: {} }).set('svc.endpoint', 'http://x')).rejects.toThrow(/leaves it untouched/);
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(statSync(path).mtimeMs).toBe(before);
    }
  });

  it('the report of a corrupt file never quotes the file (it holds tokens): it names line and column', () => {
    const cases: [string, RegExp][] = [
      // V8 quotes the text around an unexpected token: a token whose quotes were lost
      ['{"profiles": {"default": {\n  "erp.token": emu.OyDMuQk1UBy-ZNi06j5FB6\n}}}', /is not valid JSON \(Unexpected token 'e'\); fix it/],
      ['{"profiles": {"default": {\n  "erp.token": "emu.OyDMuQk1UBy-ZNi06j5FB6\n', /is not valid JSON \((Bad control character in string literal|Unterminated string) at line 2, column \d+\); fix it/],
      ['{"profiles": {"default": {\n  "erp.token": "emu.OyDMuQk1UBy-ZNi06j5FB6" "x"}}}', /is not valid JSON \(Expected ',' or '}' after property value at line 2, column 45\); fix it/],
      ['emu.OyDMuQk1UBy-ZNi06j5FB6', /is not valid JSON \(Unexpected token 'e'\); fix it/],
    ];
    for (const [text, expected] of cases) {
      const dir = fresh();
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'config.json'), text);
      let message = '';
      try {
        new Config(DEFS, { dir, env: {} }).get('svc.endpoint');
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(expected);
      expect(message).not.toMatch(/OyDM|emu\./);
    }
  });

  it('a credential a header cannot carry is refused by set, never shown (it made every later command fail)', async () => {
    const dir = fresh();
    const c = new Config(DEFS, { dir, env: {} });
    for (const bad of ['\x1b[31mk-0123', 'k\u20130123', 'two words', 'tab\tkey']) {
      const err = await c.set('svc.key', bad).catch((e: unknown) => e as Error);
      expect(err).toBeInstanceOf(UsageError);
      expect(err!.message).toBe('the value for svc.key holds a character a credential cannot carry (a control character, a space or one beyond ASCII); nothing was stored');
    }
    await c.set('svc.key', 'k-0123+/=_.~');
    expect(c.get('svc.key')).toBe('k-0123+/=_.~');
  });

  it('an empty file counts as no profiles; unset and delete keep the rest', async () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '  \n');
    const c = new Config(DEFS, { dir, env: {} });
    expect(c.listProfiles()).toEqual([{ name: 'default', active: true, settings: 0 }]);
    await c.setMany({ 'svc.endpoint': 'http://x', 'svc.ns': 'N' }, 'p1');
    await c.set('svc.endpoint', 'http://y', 'p2');
    expect(await c.unset('svc.ns', 'p1')).toBe(true);
    expect(await c.unset('svc.ns', 'p1')).toBe(false);
    await c.deleteProfile('p2');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ profiles: { p1: { 'svc.endpoint': 'http://x' } } });
  });
});

describe('the default config directory', () => {
  // the XDG base directory spec: a relative path in XDG_CONFIG_HOME is invalid and ignored (it put
  // the profiles, tokens included, below whatever directory vx was run from)
  it.skipIf(process.platform === 'win32' || process.platform === 'darwin')('XDG_CONFIG_HOME when absolute, else ~/.config', async () => {
    const { defaultConfigDir } = await import('../../src/core/config/index.js');
    const { homedir } = await import('node:os');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/x/cfg' })).toBe('/x/cfg/vx');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: 'cfg' })).toBe(join(homedir(), '.config', 'vx'));
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '' })).toBe(join(homedir(), '.config', 'vx'));
    expect(defaultConfigDir({ VX_CONFIG_DIR: 'rel', XDG_CONFIG_HOME: '/x' })).toBe('rel');
  });
});
