// Known secrets in env and profile; a broad set of commands with and without --debug, --dry-run
// and failing requests: no secret in stdout, stderr, or any file vx wrote other than the config.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runVxInProc } from '../helpers/inproc.js';
import { removeDir, tempDir, type RunResult } from '../helpers/vx.js';

const KEY = 'key-SECRET-translator-3c1d';
const TOKEN = 'tok-SECRET-bearer-9a7f2e61';
const PROFILE = { 'translator.key': 'pkey-SECRET-5e2a', 'erp.token': 'ptok-SECRET-erp-71b0', 'mgmt.token': 'ptok-SECRET-mgmt-c44d', 'lcs.token': 'ptok-SECRET-lcs-0e9f' };
const CLIENT_SECRET = 'cs-SECRET-client-6d0a4b';
const SECRETS = [KEY, TOKEN, CLIENT_SECRET, ...Object.values(PROFILE)];
const ORDER = '0000100e-0000-4000-8000-0000000e0001';

let emu: Emulator;
let root: string;
let configDir: string;
let cwd: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, key: KEY, token: TOKEN });
  root = tempDir();
  configDir = join(root, 'cfg');
  cwd = join(root, 'cwd');
  mkdirSync(configDir, { mode: 0o700 });
  mkdirSync(cwd);
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: PROFILE } }), { mode: 0o600 });
});
afterAll(async () => {
  await emu.close();
  removeDir(root);
});

function leaks(text: string): string[] {
  return SECRETS.filter((s) => text.includes(s) || text.includes(encodeURIComponent(s)) || text.includes(Buffer.from(s).toString('base64')));
}

const COMMANDS: string[][] = [
  ['api', 'GET', '/api/v2.0/companies', '--service', 'erp'],
  ['api', 'POST', '/translate?api-version=3.0&to=de', '--service', 'translator', '--data', '[{"Text":"hi"}]'],
  ['api', 'GET', '/subscriptions/x/providers', '--service', 'mgmt'],
  ['api', 'GET', '/databasemovement/v1/fetchstatus/project/1/environment/e/operationactivity/a', '--service', 'lcs'],
  ['api', 'GET', `/nothing?key=${KEY}&token=${TOKEN}`, '--service', 'erp'],
  ['erp', 'companies', 'list'],
  ['erp', 'sales-orders', 'list', '--top', '2', '-o', 'table'],
  ['erp', 'currencies', 'create', '--set', 'code=XSE'],
  ['erp', 'sales-orders', 'update', ORDER, '--set', 'discountAmount=1'],
  ['--verbose', 'erp', 'sales-orders', 'get', ORDER],
  ['translate', '--to', 'de', '--to', 'fr', 'Good morning'],
  ['--verbose', 'translate', '--to', 'de', '-o', 'json', 'hello'],
  ['mgmt', 'health', 'events', 'list'],
  ['mgmt', 'quota', 'get', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus'],
  ['mgmt', 'version-sets', 'list', '--resource-group', 'rg-none', '--service', 'svc-none'],
  ['auth', 'status', '-o', 'json'],
  // a wrong client secret: the sign-in fails with the server's error
  ['auth', 'login', '--service', 'mgmt', '--client-credentials', '--client-id', 'ci-app', '--tenant', 'contoso'],
];
const PROFILE_COMMANDS: string[][] = [['profile', 'show'], ['profile', 'show', '-o', 'json'], ['profile', 'show', '-o', 'yaml'], ['profile', 'list']];

describe('secrets never leak', () => {
  it('across commands, --debug, --dry-run and failing requests', async () => {
    const envValid = { ...emu.env(), VX_CLIENT_SECRET: CLIENT_SECRET };
    const envProfileOnly: Record<string, string | undefined> = { ...envValid, VX_TRANSLATOR_KEY: undefined, VX_ERP_TOKEN: undefined, VX_MGMT_TOKEN: undefined, VX_LCS_TOKEN: undefined };
    const runs: { args: string[]; env: Record<string, string | undefined> }[] = [];
    for (const c of COMMANDS) {
      // --debug prints everything a plain run does and more; --dry-run for the raw requests
      runs.push({ args: ['--debug', ...c], env: envValid });
      if (c[0] === 'api' || c[0] === 'translate') runs.push({ args: ['--dry-run', ...c], env: envValid });
      // profile credentials: 401s (the URL that carries the env secrets is left out: vx cannot know them then)
      if (!c.some((a) => a.includes(KEY))) runs.push({ args: ['--debug', '--retries', '0', ...c], env: envProfileOnly });
    }
    for (const c of PROFILE_COMMANDS) runs.push({ args: c, env: envValid }, { args: ['--debug', ...c], env: envProfileOnly });
    runs.push({ args: ['--debug', '--retries', '0', 'erp', 'companies', 'list'], env: { ...envValid, VX_ERP_PREFIX: 'http://127.0.0.1:9/erp' } });

    const results: { args: string[]; r: RunResult }[] = [];
    for (let i = 0; i < runs.length; i += 4) {
      const batch = runs.slice(i, i + 4);
      results.push(...(await Promise.all(batch.map(async (x) => ({ args: x.args, r: await runVxInProc(x.args, { env: x.env, configDir, cwd }) })))));
    }
    const codes = new Set<number | null>();
    for (const { args, r } of results) {
      codes.add(r.code);
      expect(leaks(r.stdout), `stdout of vx ${args.join(' ')}`).toEqual([]);
      expect(leaks(r.stderr), `stderr of vx ${args.join(' ')}`).toEqual([]);
    }
    // the sweep covered successes, usage/auth failures, not found and network errors
    for (const c of [0, 3, 4, 8]) expect(codes).toContain(c);
    expect(results.length).toBeGreaterThan(25);
    const debugged = results.filter((x) => x.args[0] === '--debug').map((x) => x.r.stderr).join('\n');
    expect(debugged).toContain('authorization: Bearer ***');
    expect(debugged).toContain('vendor-subscription-key: ***');

    // files: nothing but config.json in the config dir, nothing at all in the working directory
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
    expect(files(configDir)).toEqual([join(configDir, 'config.json')]);
    expect(files(cwd)).toEqual([]);
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'))).toEqual({ profiles: { default: PROFILE } });
  }, 120_000);
});
