// The CLI contract's usage errors (docs/cli-contract.md), run in-process (test/helpers/inproc.ts): the
// command parser's errors as one vx line naming the command, exit 2, and empty per-family options;
// nothing sent (the httpmock registry has no stubs). e2e/cli-contract keeps one
// spawned parser case and help for the exit code of the real process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const env = offlineEnv();

describe('usage errors from the command parser: one vx line naming the command, exit 2, nothing sent', () => {
  const cases: [string, string[], string][] = [
    ['unknown option', ['translate', '--bogus', 'hi', '--to', 'de'], "vx: unknown option '--bogus' (run `vx translate --help` for usage)"],
    ['unknown option before the command', ['--bogus', 'erp', 'companies', 'list'], "vx: unknown option '--bogus' (run `vx --help` for usage)"],
    ['unknown command', ['bogus'], "vx: unknown command 'bogus' (run `vx --help` for usage)"],
    ['unknown command with a suggestion', ['translat', 'hi'], "vx: unknown command 'translat' (did you mean translate?) (run `vx --help` for usage)"],
    ['unknown subcommand', ['erp', 'salesorders', 'lst'], "vx: unknown command 'lst' (did you mean list?) (run `vx erp sales-orders --help` for usage)"],
    ['missing argument', ['erp', 'sales-orders', 'get'], "vx: missing required argument 'id' (run `vx erp sales-orders get --help` for usage)"],
    ['excess arguments', ['profile', 'use', 'a', 'b'], "vx: too many arguments for 'use': expected 1 argument but got 2 (run `vx profile use --help` for usage)"],
    ['invalid choice of an argument', ['completion', 'tcsh'], "vx: command-argument value 'tcsh' is invalid for argument 'shell'; allowed: bash, zsh, fish, powershell (run `vx completion --help` for usage)"],
    ['invalid choice of an option', ['api', 'GET', '/x', '--service', 'ftp'], "vx: option '--service <name>' argument 'ftp' is invalid; allowed: translator, erp, lcs, mgmt (run `vx api --help` for usage)"],
    ['option without its value', ['translate', 'hi', '--to'], "vx: option '--to <lang>' argument missing (run `vx translate --help` for usage)"],
    ['missing mandatory option', ['api', 'GET', '/x'], "vx: required option '--service <name>' not specified (run `vx api --help` for usage)"],
    ['control characters typed are shown escaped', ['\u001b[31mx'], "vx: unknown command '\\u001b[31mx' (run `vx --help` for usage)"],
  ];
  for (const [name, args, line] of cases) {
    it(name, async () => {
      const r = await runInProc(args, { env });
      expect(r.stderr).toBe(`${line}\n`);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
    });
  }
});

describe('per-family options', () => {
  const cases: [string[], string][] = [
    [['mgmt', 'version-sets', 'list', '--resource-group', 'web', '--service', 'contoso-api', '--subscription', ''], 'the subscription id (--subscription)'],
    [['erp', 'currencies', 'list', '--company', ''], 'the company (--company)'],
    [['mgmt', 'quota', 'get', 'cores', '--provider', 'Vendor.Compute', '--location', ''], 'the location (--location)'],
  ];
  for (const [args, what] of cases) {
    it(`an empty ${what} (a script passing an unset variable) is an error, not the default from env or profile`, async () => {
      const r = await runInProc(args, { env });
      expect(r.stderr).toBe(`vx: ${what} was given as an empty value; leave the option out to use the environment or profile setting (nothing was sent)\n`);
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
    });
  }
});

describe('global options', () => {
  it('an invalid VX_OUTPUT says where it came from', async () => {
    const r = await runInProc(['erp', 'companies', 'list'], { env: { ...env, VX_OUTPUT: 'xml' } });
    expect(r.stderr).toBe('vx: invalid output format "xml" (from VX_OUTPUT); allowed: json, yaml, table, wide, tsv, csv, ndjson, text, none\n');
    expect(r.code).toBe(2);
    expect(r.http.requests).toEqual([]);
  });

  // `-p "$PROFILE"` with the variable unset ran against the active profile (production, say), and
  // `-q "$Q"` printed the whole result: both are refused as an empty --subscription is
  for (const [args, flag] of [
    [['-p', '', 'erp', 'companies', 'list'], '-p/--profile'],
    [['erp', 'companies', 'list', '--profile='], '-p/--profile'],
    [['erp', 'companies', 'list', '-q', ''], '-q/--query'],
  ] as const) {
    it(`an empty ${flag} (${args.join(' ')})`, async () => {
      const r = await runInProc(args, { env });
      expect(r.stderr).toBe(`vx: ${flag} was given as an empty value; leave it out to use the default (nothing was sent)\n`);
      expect([r.code, r.stdout, r.http.requests]).toEqual([2, '', []]);
    });
  }

  // an unknown VX_HTTP_CLIENT was silently ignored (the default transport ran), where every other
  // variable vx reads is checked
  it('an unknown VX_HTTP_CLIENT is a usage error naming the variable and its values', async () => {
    const r = await runInProc(['erp', 'companies', 'list'], { env: { ...env, VX_HTTP_CLIENT: 'curl' } });
    expect(r.stderr).toBe('vx: invalid value "curl" for VX_HTTP_CLIENT: expected undici or node\n');
    expect(r.code).toBe(2);
    expect(r.http.requests).toEqual([]);
  });

  it('VX_HTTP_CLIENT in any case, or empty (unset), is accepted', async () => {
    for (const value of ['NODE', 'Undici', '']) {
      const r = await runInProc(['profile', 'list', '-o', 'json'], { env: { ...env, VX_HTTP_CLIENT: value } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
  });

  // documented knobs read with Number(): "abc" became NaN and silently meant "no limit"
  for (const [name, value, rule] of [
    ['VX_MAX_RESPONSE_BYTES', '10MB', 'a whole number from 1 to 9007199254740991'],
    ['VX_BACKOFF_BASE_MS', 'fast', 'a whole number from 0 to 60000'],
    ['VX_WAITING_AFTER_MS', '-1', 'a whole number from 0 to 86400000'],
  ] as const) {
    it(`an invalid ${name} is a usage error`, async () => {
      const r = await runInProc(['erp', 'companies', 'list'], { env: { ...env, [name]: value } });
      expect(r.stderr).toBe(`vx: invalid value "${value}" for ${name}: expected ${rule}\n`);
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
    });
  }
});

// `vx emulator exec vx erp companies list --timeout 1 -p prod` without `--`: the outer vx took
// every global option, and the command ran without them (exit 0 where -p nosuch is exit 2)
describe('emulator exec without --: every global option it would swallow is refused', () => {
  const cases: [string[], string][] = [
    [['-p', 'prod'], '--profile'],
    [['--timeout', '1'], '--timeout'],
    [['--retries', '0'], '--retries'],
    [['--verbose'], '--verbose'],
    [['--debug'], '--debug'],
    [['--no-color'], '--no-color'],
    [['--no-pager'], '--no-pager'],
    [['--timeout', '1', '--verbose'], '--verbose, --timeout'],
  ];
  for (const [opts, named] of cases) {
    it(opts.join(' '), async () => {
      const r = await runInProc(['emulator', 'exec', 'vx', 'erp', 'companies', 'list', ...opts], { env });
      // (--debug adds the stack after the line)
      expect([r.code, r.stdout, r.stderr.split('\n')[0]]).toEqual([2, '', `vx: ${named} would be read by \`vx emulator exec\` itself, not by vx; put the command after --: vx emulator exec -- vx ...`]);
    });
  }
});

// `translate sync --check` reads and reports; every option that only shapes what is sent or
// written was accepted and ignored (a CI line with --budget or --memory looked like it mattered)
describe('translate sync --check refuses the options it would ignore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vx-check-'));
  const src = join(dir, 'en.json');
  writeFileSync(src, '{"hello":"Hello"}\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cases: [string[], string][] = [
    [['--budget', '5'], '--budget has'],
    [['--memory', join(dir, 'tm')], '--memory has'],
    [['--concurrency', '2'], '--concurrency has'],
    [['--trace-id', '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f'], '--trace-id has'],
    [['--max-chars-per-minute', '1000'], '--max-chars-per-minute has'],
    [['--category', 'general'], '--category has'],
    [['--protect', 'X\\d+'], '--protect has'],
    [['--fuzzy'], '--fuzzy has'],
    [['--state', 'translated'], '--state has'],
    [['--dry-run'], '--dry-run has'],
    [['--budget', '5', '--memory', join(dir, 'tm')], '--memory, --budget have'],
  ];
  for (const [extra, named] of cases) {
    it(extra.join(' '), async () => {
      const r = await runInProc(['translate', 'sync', src, '--to', 'de', '--check', ...extra], { env });
      expect(r.stderr).toBe(`vx: ${named} no effect with --check, which sends nothing and writes nothing: leave ${named.endsWith('have') ? 'them' : 'it'} out\n`);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
    });
  }

  it('without them --check still lists what is missing (exit 9)', async () => {
    const r = await runInProc(['translate', 'sync', src, '--to', 'de', '--check', '--from', 'en', '-o', 'json'], { env });
    expect(JSON.parse(r.stdout)).toEqual([{ source: src, language: 'de', target: join(dir, 'de.json'), unit: 'hello', line: 1, status: 'missing' }]);
    expect(r.code).toBe(9);
  });
});

// `VX_PROFILE=a vx profile use b` said "active profile is now b" while every later command in that
// environment went on using "a" (the variable wins over the stored choice)
describe('profile use while VX_PROFILE names another profile', () => {
  it('says the variable still wins in this environment', async () => {
    const setup = async (configDir?: string) => {
      const a = await runInProc(['-p', 'a', 'profile', 'set', 'erp.company', '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f'], { env: { VX_CONFIG_DIR: configDir! } });
      expect(a.code).toBe(0);
      const b = await runInProc(['-p', 'b', 'profile', 'set', 'erp.company', '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f'], { env: { VX_CONFIG_DIR: configDir! } });
      expect(b.code).toBe(0);
    };
    const dir = mkdtempSync(join(tmpdir(), 'vx-use-'));
    await setup(dir);
    const r = await runInProc(['profile', 'use', 'b'], { env: { VX_CONFIG_DIR: dir, VX_PROFILE: 'a' } });
    expect([r.code, r.stderr]).toEqual([0, 'active profile is now "b"\nwarning: VX_PROFILE=a still selects profile "a" in this environment; unset it to use "b"\n']);
    const same = await runInProc(['profile', 'use', 'a'], { env: { VX_CONFIG_DIR: dir, VX_PROFILE: 'a' } });
    expect([same.code, same.stderr]).toEqual([0, 'active profile is now "a"\n']);
  });
});

// translate's own options (parsed wherever they stand) reached the memory commands and were
// ignored: `vx translate memory stats --to de` printed every language's stats, export --concurrency 8
describe('translate memory commands refuse the options of translate they do not take', () => {
  for (const [argv, flag, cmd] of [
    [['translate', 'memory', 'stats', '--memory', 'x.tm', '--to', 'de'], '--to', 'translate memory stats'],
    [['translate', '--concurrency', '8', 'memory', 'export', '--memory', 'x.tm'], '--concurrency', 'translate memory export'],
    [['translate', 'memory', 'import', 'a.tmx', '--memory', 'x.tm', '--text-type', 'html'], '--text-type', 'translate memory import'],
    [['translate', 'memory', 'prune', '--memory', 'x.tm', '--all', '--budget', '5'], '--budget', 'translate memory prune'],
  ] as const) {
    it(argv.join(' '), async () => {
      const r = await runInProc(argv, { env });
      expect(r.stderr).toBe(`vx: ${flag} does not apply to vx ${cmd}; nothing was done\n`);
      expect([r.code, r.stdout]).toEqual([2, '']);
    });
  }
});
