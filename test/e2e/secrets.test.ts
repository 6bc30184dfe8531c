// Secrets sweep: distinctive secrets (translator key, erp/lcs/mgmt tokens, client secret, refresh
// tokens) in the environment AND in the profile; commands of every family, each plain, with
// --debug, --dry-run and --verbose, and failing with 401, 500, connection refused and a timeout.
// No secret — nor its URL-encoded, base64 or base64url form, nor its distinctive tail — may
// appear on stdout, on stderr, or in any file vx wrote other than the config file (the config
// dir, the working directory, HOME, TMPDIR and --out files are scanned). The one documented
// exception: `vx auth token` to a pipe prints the credential, and exactly that.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGuid } from '../../src/emulator/erp/seed.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runVxInProc } from '../helpers/inproc.js';
import { filesUnder, openLane, type Lane } from '../helpers/lanes.js';
import { removeDir, tempDir, type RunResult } from '../helpers/vx.js';

const ENV = {
  VX_TRANSLATOR_KEY: 'envKEYtranslator4q7Zc1',
  VX_ERP_TOKEN: 'envTOKerp8Jd2kWq9x',
  VX_LCS_TOKEN: 'envTOKlcs3Lm6pRt0v',
  VX_MGMT_TOKEN: 'envTOKmgmt5Gh1sYu7b',
  VX_CLIENT_SECRET: 'envCLIsecret2Nf8Hq4',
};
/** valid for the emulator (registered as issued tokens), used when the environment has none */
const PROFILE = {
  'translator.key': 'profKEYtranslator9Xw2',
  'erp.token': 'profTOKerp6Vb3Nm8',
  'lcs.token': 'profTOKlcs1Qa5Zs2',
  'mgmt.token': 'profTOKmgmt7Ty4Ui0',
  'auth.clientSecret': 'profCLIsecret3Rk9Pl',
  'erp.refreshToken': 'profREFerp4Jh8Gf1',
  'lcs.refreshToken': 'profREFlcs2Dc6Xs9',
  'mgmt.refreshToken': 'profREFmgmt8Wq3Ea5',
};
/** a profile whose credentials the emulator refuses (401) */
const WRONG = {
  'translator.key': 'wrongKEYtranslator0Aq',
  'erp.token': 'wrongTOKerp5Sd2',
  'lcs.token': 'wrongTOKlcs7Fg4',
  'mgmt.token': 'wrongTOKmgmt1Hj6',
  'auth.clientSecret': 'wrongCLIsecret8Kl3',
  'erp.refreshToken': 'wrongREFerp9Zx7',
};
const SECRETS = [...Object.values(ENV), ...Object.values(PROFILE), ...Object.values(WRONG)];

/** every form a secret could leak in */
function forms(s: string): string[] {
  return [s, encodeURIComponent(s), Buffer.from(s).toString('base64').replace(/=+$/, ''), Buffer.from(s).toString('base64url'), s.slice(-8)];
}
const FORMS = SECRETS.map((s) => ({ s, forms: forms(s) }));
function leaks(text: string): string[] {
  return FORMS.filter(({ forms: f }) => f.some((x) => text.includes(x))).map(({ s }) => s);
}

const ORDER = seedGuid(14, 1);
const CURRENCY = seedGuid(11, 2);
const SCOPE = ['--provider', 'Vendor.Compute', '--location', 'eastus'];
const VS = ['--resource-group', 'web', '--service', 'contoso-api'];

let n = 0;
/** The sweep's commands; a function so that each run gets fresh names. */
const COMMANDS: (() => string[])[] = [
  () => ['translate', '--to', 'de', 'Good morning'],
  () => ['translate', '--to', 'de,fr', '-f', 'input.txt', '--out', `out-${++n}.txt`],
  () => ['erp', 'companies', 'list'],
  () => ['erp', 'currencies', 'get', CURRENCY],
  () => ['erp', 'currencies', 'create', '--set', `code=S${++n}`],
  () => ['erp', 'sales-orders', 'update', ORDER, '--set', 'discountAmount=1'],
  () => ['erp', 'currencies', 'delete', CURRENCY, '--yes'],
  () => ['erp', 'sales-orders', 'related', ORDER, 'salesOrderLines', '--out', `lines-${++n}.json`],
  () => ['erp', 'refresh', '--project', '9', '--source', 'prod-1', '--target', 'uat-1', '--yes'],
  () => ['mgmt', 'health', 'events', 'list'],
  () => ['mgmt', 'quota', 'get', 'cores', ...SCOPE],
  () => ['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', String(150 + (++n % 50)), '--yes', '--no-wait'],
  () => ['mgmt', 'version-sets', 'list', ...VS],
  () => ['mgmt', 'version-sets', 'create', `sweep-${++n}`, ...VS, '--display-name', 'Sweep', '--scheme', 'Segment'],
  () => ['auth', 'status'],
  () => ['auth', 'status', '-o', 'json'],
  () => ['profile', 'show'],
  () => ['profile', 'show', '-o', 'json'],
  () => ['profile', 'list', '-o', 'yaml'],
  () => ['api', 'GET', '/api/v2.0/companies', '--service', 'erp'],
  () => ['api', 'POST', '/translate?api-version=3.0&to=de', '--service', 'translator', '--data', '[{"Text":"hi"}]'],
  () => ['api', 'GET', `/subscriptions/${'x'}/providers/Vendor.ResourceHealth/events?api-version=2024-02-01`, '--service', 'mgmt', '--paginate'],
  () => ['api', 'GET', '/databasemovement/v1/fetchstatus/project/9/environment/uat-1/operationactivity/x', '--service', 'lcs', '-H', 'X-Trace: 1'],
  () => ['completion', 'bash'],
];

const CONFIG = JSON.stringify({ activeProfile: 'default', profiles: { default: PROFILE, wrong: WRONG } }, null, 2);

let lanes: Lane[];
let home: string;
let tmp: string;
beforeAll(async () => {
  lanes = await Promise.all([openLane({ key: ENV.VX_TRANSLATOR_KEY, token: ENV.VX_ERP_TOKEN }), openLane({ key: ENV.VX_TRANSLATOR_KEY, token: ENV.VX_ERP_TOKEN })]);
  home = tempDir('vx-rel-home-');
  tmp = tempDir('vx-rel-tmp-');
  for (const l of lanes) {
    writeFileSync(join(l.cwd, 'input.txt'), 'Good morning\nGood night\n');
    mkdirSync(l.configDir, { recursive: true });
    // the config file is written by the test; vx may tighten its mode but must keep its secrets as they are
    writeFileSync(join(l.configDir, 'config.json'), CONFIG, { mode: 0o600 });
  }
});
afterAll(async () => {
  await Promise.all(lanes.map((l) => l.close()));
  removeDir(home);
  removeDir(tmp);
});

/** Back to the seed data with the secrets the emulator should accept. */
function prepare(lane: Lane): void {
  lane.emu.reset();
  lane.emu.setFaults('');
  const far = Date.now() + 3_600_000;
  for (const t of [ENV.VX_LCS_TOKEN, ENV.VX_MGMT_TOKEN, PROFILE['erp.token'], PROFILE['lcs.token'], PROFILE['mgmt.token']]) lane.emu.tokens.set(t, { expiresAt: far });
}

type Mode = 'env' | 'profile' | 'wrong' | 'refused' | '500' | 'timeout';

function envFor(lane: Lane, mode: Mode): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...lane.emu.env(), ...ENV, HOME: home, TMPDIR: tmp, VX_MGMT_PROVIDER: 'Vendor.Compute', VX_MGMT_LOCATION: 'eastus' };
  if (mode !== 'env' && mode !== '500' && mode !== 'timeout' && mode !== 'refused') for (const k of Object.keys(ENV)) env[k] = undefined;
  if (mode === 'wrong') env.VX_PROFILE = 'wrong';
  if (mode === 'refused') for (const k of ['VX_TRANSLATOR_ENDPOINT', 'VX_ERP_PREFIX', 'VX_LCS_ENDPOINT', 'VX_MGMT_ENDPOINT']) env[k] = 'http://127.0.0.1:9/svc';
  return env;
}

interface Outcome {
  args: string[];
  mode: Mode;
  r: RunResult;
}

async function sweep(lane: Lane, args: string[], mode: Mode): Promise<Outcome> {
  prepare(lane);
  if (mode === '500') lane.emu.setFaults('500:1');
  if (mode === 'timeout') lane.emu.setFaults('latency:1500');
  const extra = mode === 'timeout' ? ['--timeout', '0.1', '--retries', '0'] : mode === 'env' || mode === 'profile' ? [] : ['--retries', '0'];
  const r = await lane.run([...extra, ...args], { env: envFor(lane, mode), timeoutMs: 20_000 });
  return { args, mode, r };
}

/** Runs `jobs` two at a time, one per lane. */
async function runAll(jobs: { args: string[]; mode: Mode }[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (let i = 0; i < jobs.length; i += 2) {
    out.push(...(await Promise.all(jobs.slice(i, i + 2).map((j, k) => sweep(lanes[k], j.args, j.mode)))));
  }
  return out;
}

function expectClean(results: Outcome[]): void {
  for (const { args, mode, r } of results) {
    const where = `[${mode}] vx ${args.join(' ')} (exit ${r.code})`;
    expect(leaks(r.stdout), `stdout of ${where}`).toEqual([]);
    expect(leaks(r.stderr), `stderr of ${where}`).toEqual([]);
  }
}

describe('no secret leaks', () => {
  it('every family, plain and with --debug, --dry-run, --verbose; env and profile credentials', async () => {
    const jobs: { args: string[]; mode: Mode }[] = [];
    for (const c of COMMANDS) {
      for (const flags of [[], ['--debug'], ['--dry-run'], ['--verbose']]) jobs.push({ args: [...flags, ...c()], mode: 'env' });
      jobs.push({ args: ['--debug', '--verbose', ...c()], mode: 'profile' });
    }
    const results = await runAll(jobs);
    expectClean(results);
    // the sweep did reach the services: successes in both credential sources, and traced headers
    const ok = (mode: Mode) => results.filter((x) => x.mode === mode && x.r.code === 0).length;
    expect(ok('env')).toBeGreaterThan(COMMANDS.length * 3);
    expect(ok('profile')).toBeGreaterThan(COMMANDS.length / 2);
    const traces = results.filter((x) => x.args.includes('--debug')).map((x) => x.r.stderr).join('\n');
    expect(traces).toContain('authorization: Bearer ***');
    expect(traces).toContain('vendor-subscription-key: ***');
    const planned = results.filter((x) => x.args[0] === '--dry-run' && x.r.code === 0).map((x) => x.r.stdout).join('\n');
    expect(planned).toContain('"authorization": "Bearer ***"');
  }, 300_000);

  it('failing requests: 401, 500, connection refused and a timeout, with --debug and --verbose', async () => {
    const jobs: { args: string[]; mode: Mode }[] = [];
    // mode by mode: the two lanes wait out their timeouts side by side
    for (const mode of ['wrong', '500', 'refused', 'timeout'] as const) {
      for (const c of COMMANDS) if (c()[0] !== 'profile' && c()[0] !== 'completion') jobs.push({ args: ['--debug', '--verbose', ...c()], mode });
    }
    const results = await runAll(jobs);
    expectClean(results);
    const codes = (mode: Mode) => new Set(results.filter((x) => x.mode === mode).map((x) => x.r.code));
    expect(codes('wrong')).toContain(3);
    expect(codes('500')).toContain(7);
    expect(codes('refused')).toContain(8);
    expect(codes('timeout')).toContain(8);
  }, 300_000);

  it('vx auth token to a pipe prints the credential and only that (the documented exception)', async () => {
    const lane = lanes[0];
    const cases: [string, string, Mode][] = [
      ['translator', ENV.VX_TRANSLATOR_KEY, 'env'],
      ['erp', ENV.VX_ERP_TOKEN, 'env'],
      ['lcs', ENV.VX_LCS_TOKEN, 'env'],
      ['mgmt', ENV.VX_MGMT_TOKEN, 'env'],
      ['erp', PROFILE['erp.token'], 'profile'],
      ['mgmt', PROFILE['mgmt.token'], 'profile'],
    ];
    for (const [service, secret, mode] of cases) {
      prepare(lane);
      const r = await lane.run(['auth', 'token', '--service', service], { env: envFor(lane, mode) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${secret}\n`);
      expect(r.stderr).toBe('');
      // with --debug nothing about it goes to stderr either
      const d = await lane.run(['--debug', 'auth', 'token', '--service', service], { env: envFor(lane, mode) });
      expect(d.stdout).toBe(`${secret}\n`);
      expect(leaks(d.stderr)).toEqual([]);
    }
  });

  it('files: only config.json holds secrets, and it is unchanged; nothing else in the config dir, HOME or TMPDIR carries one', async () => {
    for (const lane of lanes) {
      const cfg = join(lane.configDir, 'config.json');
      const now = JSON.parse(readFileSync(cfg, 'utf8'));
      expect(now.profiles.default).toEqual(PROFILE);
      expect(now.profiles.wrong).toEqual(WRONG);
      for (const f of filesUnder(lane.configDir)) if (f !== cfg) expect(leaks(readFileSync(f, 'latin1')), f).toEqual([]);
      // --out files and anything else in the working directory
      const written = filesUnder(lane.cwd).filter((f) => !f.endsWith('input.txt'));
      expect(written.some((f) => /out-\d+\.txt$/.test(f))).toBe(true);
      for (const f of written) expect(leaks(readFileSync(f, 'latin1')), f).toEqual([]);
    }
    for (const f of [...filesUnder(home), ...filesUnder(tmp)]) expect(leaks(readFileSync(f, 'latin1')), f).toEqual([]);
  });
});

describe('the sweep can fail', () => {
  it('finds a secret in each form', () => {
    const s = ENV.VX_ERP_TOKEN;
    for (const f of forms(s)) expect(leaks(`x ${f} y`)).toEqual([s]);
    expect(leaks('Bearer ***')).toEqual([]);
  });
});

describe('signing in leaks nothing either', () => {
  it('client credentials with --debug --verbose: neither the client secret nor the issued token shows', async () => {
    const { EMULATOR_CLIENT_SECRET } = await import('../../src/emulator/auth.js');
    const lane = lanes[0];
    prepare(lane);
    const env = { ...envFor(lane, 'env'), VX_CLIENT_SECRET: EMULATOR_CLIENT_SECRET, VX_PROFILE: 'signin' };
    const r = await lane.run(['--debug', '--verbose', 'auth', 'login', '--service', 'mgmt', '--client-credentials', '--client-id', 'ci-app', '--tenant', 'contoso'], { env });
    expect(r.code, r.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(lane.configDir, 'config.json'), 'utf8')).profiles.signin['mgmt.token'] as string;
    expect(stored).toMatch(/^emu\./);
    const issued = [EMULATOR_CLIENT_SECRET, stored];
    for (const s of issued) for (const f of forms(s).slice(0, 4)) expect(`${r.stdout}\n${r.stderr}`).not.toContain(f);
    // the trace shows the exchange with the values masked
    expect(r.stderr).toMatch(/client_secret=\*\*\*|"access_token": ?"\*\*\*"|access_token/);
    // using it: a traced request carries it masked
    const use = await lane.run(['--debug', 'mgmt', 'health', 'events', 'list'], { env: { ...env, VX_MGMT_TOKEN: undefined } });
    expect(use.code, use.stderr).toBe(0);
    for (const f of forms(stored).slice(0, 4)) expect(`${use.stdout}\n${use.stderr}`).not.toContain(f);
  });

  it('a token or key given on stdin (--with-token, --with-key) with --debug is not echoed', async () => {
    const lane = lanes[1];
    prepare(lane);
    const env = { ...envFor(lane, 'profile'), VX_PROFILE: 'stdin' };
    const token = 'stdinTOKlcs6Yh2Qp8';
    const t = await lane.run(['--debug', 'auth', 'login', '--service', 'lcs', '--with-token', '--no-verify'], { env, input: `${token}\n` });
    expect(t.code, t.stderr).toBe(0);
    const k = await lane.run(['--debug', 'auth', 'login', '--service', 'translator', '--with-key'], { env, input: `${ENV.VX_TRANSLATOR_KEY}\n` });
    expect(k.code, k.stderr).toBe(0);
    for (const r of [t, k]) expect(leaks(`${r.stdout}\n${r.stderr}`)).toEqual([]);
    for (const f of forms(token)) expect(`${t.stdout}\n${t.stderr}`).not.toContain(f);
    // and `profile set` of a secret does not echo it
    const set = await lane.run(['profile', 'set', 'erp.token', 'setTOKerp3Mn7Bv1'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(`${set.stdout}${set.stderr}`).not.toContain('setTOKerp3Mn7Bv1');
    const show = await lane.run(['profile', 'show', 'stdin', '-o', 'json'], { env });
    expect(show.stdout).not.toContain('setTOKerp3Mn7Bv1');
    expect(show.stdout).not.toContain(token);
  });
});

// A second sweep with the emulator's own credentials replaced by known ones: a broad set of commands
// with and without --debug, --dry-run and failing requests; no secret in stdout, stderr, or any file
// vx wrote other than the config.
describe('secrets never leak', () => {
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
