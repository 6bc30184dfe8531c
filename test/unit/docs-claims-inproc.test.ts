// What the documentation and --help say about vx, held against the program (in-process, nothing sent):
// a setting the contract's table leaves out, or a help text promising what the command refuses,
// is a claim a user cannot rely on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const ROOT = join(import.meta.dirname, '..', '..');
const contract = readFileSync(join(ROOT, 'docs', 'cli-contract.md'), 'utf8');
const env = offlineEnv();

describe('the configuration table of docs/cli-contract.md', () => {
  it('lists every setting that has an environment variable, with its profile key', async () => {
    const { SETTINGS } = await import('../../src/api/settings.js');
    const table = contract.slice(contract.indexOf('## Configuration'), contract.indexOf('## Output'));
    for (const d of SETTINGS.filter((x) => !x.internal && x.env)) {
      const row = table.split('\n').find((l) => l.startsWith(`| \`${d.env}\` |`));
      expect(row, `${d.env} (${d.key}) is not in the configuration table of docs/cli-contract.md`).toBeDefined();
      expect(row).toContain(`\`${d.key}\``);
    }
  });
});

describe('quota apply --help', () => {
  it('does not offer several subscriptions or locations: the run takes one of each', async () => {
    const help = await runInProc(['mgmt', 'quota', 'apply', '--help'], { env });
    expect(help.code).toBe(0);
    const options = help.stdout.slice(help.stdout.indexOf('Options:'), help.stdout.indexOf('Global Options:')).replace(/\s+/g, ' ');
    expect(options).not.toMatch(/repeat or comma-separate/);
    expect(options).toMatch(/--subscription <id> subscription of the entries that name none \(one;/);
    expect(options).toMatch(/--location <loc> location of the entries that name none \(one;/);
    const two = await runInProc(['mgmt', 'quota', 'apply', '-f', '-', '--location', 'eastus,westeurope', '--yes'], { env, stdin: 'quotas: []\n' });
    expect(two.code).toBe(2);
    expect(two.stderr).toBe('vx: quota apply takes one --subscription and one --location as defaults for the manifest; put the others in its entries; nothing was sent\n');
    expect(two.http.requests).toEqual([]);
  });
});

describe('an accepted option does something', () => {
  it('quota set --no-wait refuses the options that only follow the request (as erp refresh without --wait)', async () => {
    for (const [flag, value] of [['--poll-interval', '5'], ['--wait-timeout', '60']]) {
      const r = await runInProc(['mgmt', 'quota', 'set', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus', '--limit', '150', '--no-wait', flag!, value!, '--yes'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`vx: ${flag} has no effect with --no-wait (vx does not follow the request); leave one of them out; nothing was sent\n`);
      expect(r.http.requests).toEqual([]);
    }
  });

  it('a delete or bound action of one <id> refuses the $batch options instead of ignoring them', async () => {
    const cases: [string[], string][] = [
      [['erp', 'sales-orders', 'ship-and-invoice', 'S-ORD101001', '--atomic'], '--atomic'],
      [['erp', 'sales-orders', 'ship-and-invoice', 'S-ORD101001', '--concurrency', '3'], '--concurrency'],
      [['erp', 'currencies', 'delete', 'EUR', '--batch-size', '5'], '--batch-size'],
      [['erp', 'sales-quotes', 'send', '0000100f-0000-4000-8000-0000000f0001', '--atomic'], '--atomic'],
    ];
    for (const [argv, flag] of cases) {
      const r = await runInProc([...argv, '--yes'], { env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toBe(`vx: ${flag} works with --filter or --ids only (one <id> is one request, not a $batch); nothing was sent\n`);
      expect(r.http.requests).toEqual([]);
    }
    const both = await runInProc(['erp', 'currencies', 'delete', 'EUR', '--filter', "code eq 'EUR'", '--yes'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('vx: name the records with exactly one of <id>, --filter <odata> and --ids <file|->\n');
  });

  it('auth login refuses the options its way of signing in never reads', async () => {
    const cases: [string[], string][] = [
      [['--with-token', '--tenant', 'contoso.example'], '--tenant cannot be used with --with-token, which stores the token as given'],
      [['--with-token', '--client-id', 'app', '--scope', 's', '--wait', '10'], '--client-id, --scope, --wait cannot be used with --with-token, which stores the token as given'],
      [['--client-credentials', '--client-id', 'app', '--tenant', 'contoso.example', '--wait', '10'], '--wait cannot be used with --client-credentials, which signs in with one token request (--wait is for the browser and device sign-ins)'],
    ];
    for (const [flags, message] of cases) {
      const r = await runInProc(['auth', 'login', '--service', 'erp', ...flags], { env, stdin: 'token' });
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr).toBe(`vx: ${message}; nothing was sent\n`);
      expect(r.http.requests).toEqual([]);
    }
  });

  it('health watch --once refuses --interval (one poll has nothing to wait between)', async () => {
    const r = await runInProc(['mgmt', 'health', 'watch', '--once', '--interval', '120'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: --interval has no effect with --once (one poll, then exit); leave one of them out; nothing was sent\n');
    expect(r.http.requests).toEqual([]);
  });
});

describe('vx help <command path>', () => {
  it('shows the help of the command the words name, at any depth', async () => {
    for (const [argv, usage] of [
      [['help', 'erp', 'sales-orders'], 'Usage: vx erp sales-orders|salesorders [options] [command]\n'],
      [['help', 'erp', 'sales-orders', 'list'], 'Usage: vx erp sales-orders list [options]\n'],
      [['erp', 'help', 'salesorders', 'list'], 'Usage: vx erp sales-orders list [options]\n'],
      [['help', 'translate', 'file'], 'Usage: vx translate file [options] <source...>\n'],
      [['help', 'erp'], 'Usage: vx erp [options] [command]\n'],
    ] as const) {
      const r = await runInProc(argv, { env });
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout.startsWith(usage), argv.join(' ')).toBe(true);
      expect(r.stderr).toBe('');
    }
  });

  it('a word that names no command is a one-line usage error', async () => {
    const r = await runInProc(['help', 'erp', 'nosuch'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("vx: unknown command 'nosuch' (run `vx erp --help` for usage)\n");
  });
});

describe('--query applies wherever there is a result', () => {
  it('vx version -q picks from the record (it was ignored: the text form was printed)', async () => {
    const r = await runInProc(['version', '-q', 'node'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(process.version)}\n`);
    const text = await runInProc(['version', '-q', 'node', '-o', 'text'], { env });
    expect(text.stdout).toBe(`${process.version}\n`);
    const plain = await runInProc(['version'], { env });
    expect(plain.stdout).toMatch(/^vx version \S+\nnode v\d+\.\d+\.\d+ \(\w+ \w+\)\n$/);
  });

  it('mgmt health check -q picks from its record (it was ignored: the plugin line was printed)', async () => {
    const r = await runInProc(['mgmt', 'health', 'check', '-q', 'status'], {
      env,
      setup: (t) => t.http.stub('GET', /\/providers\/Vendor\.ResourceHealth\/events\?/, json(200, { value: [] })),
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('"OK"\n');
    expect(r.code).toBe(0);
  });

  it('commands whose output is no JSON result refuse --query instead of ignoring it, and an -o given to them', async () => {
    const cases = [
      [['translate', 'memory', 'export', '--memory', 'x.tm'], 'memory export (it writes TMX)'],
      [['auth', 'token', '--service', 'erp'], 'auth token (it prints the credential itself)'],
      [['completion', 'bash'], 'completion (it writes a shell script)'],
      [['erp', 'sales-orders', 'related', '0000100e-0000-4000-8000-0000000e0001', 'pdfDocument', '--out', 'x.pdf'], 'related pdfDocument --out (it saves the document itself)'],
      [['emulator', 'start', '--port', '0'], 'emulator start (it prints `export` lines for a shell)'],
    ] as const;
    for (const [argv, what] of cases) {
      const r = await runInProc([...argv, '-q', 'x'], { env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toBe(`vx: --query does not apply to ${what}; nothing was done\n`);
      expect(r.stdout).toBe('');
      expect(r.http.requests).toEqual([]);
    }
    // -o was accepted and ignored there (`vx completion bash -o json` printed the script); VX_OUTPUT,
    // a default for every command, still applies where it can and is not refused
    for (const [argv, what] of cases) {
      const r = await runInProc([...argv, '-o', 'yaml'], { env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toBe(`vx: -o/--output does not apply to ${what}; nothing was done\n`);
      expect(r.stdout).toBe('');
      expect(r.http.requests).toEqual([]);
    }
    const script = await runInProc(['completion', 'bash'], { env: { ...env, VX_OUTPUT: 'yaml' } });
    expect([script.code, script.stderr, script.stdout.startsWith('# bash completion for vx')]).toEqual([0, '', true]);
  });
});

describe('profile set refuses a value every command would refuse at use', () => {
  it('mgmt.provider, mgmt.location, mgmt.namespace, erp.actionNamespace, the sign-in tenants', async () => {
    for (const [key, value, expected] of [
      ['mgmt.provider', 'Vendor/Compute', 'a resource provider id: dotted names such as Vendor.Compute'],
      ['mgmt.location', 'east us', 'a location: a region name of letters, digits and hyphens such as eastus'],
      ['mgmt.namespace', 'a/b', 'a name like Vendor (letters and digits, dotted parts allowed)'],
      ['erp.actionNamespace', 'Vendor NAV', 'dotted names like Vendor.NAV'],
      ['auth.tenant', 'contoso/x', 'a tenant id or domain name (letters, digits, . _ -)'],
      ['mgmt.tenant', 'a b', 'a tenant id or domain name (letters, digits, . _ -)'],
    ] as const) {
      const r = await runInProc(['profile', 'set', key, value], { env });
      expect(r.code, key).toBe(2);
      expect(r.stderr).toBe(`vx: invalid value "${value}" for ${key}: expected ${expected}\n`);
    }
    for (const [key, value] of [['mgmt.provider', 'Vendor.Compute'], ['mgmt.location', 'westus2'], ['mgmt.namespace', 'Acme'], ['erp.actionNamespace', 'Acme.NAV'], ['auth.tenant', 'contoso.onmicrosoft.com']] as const) {
      const r = await runInProc(['profile', 'set', key, value], { env });
      expect(r.code, `${key} ${value}`).toBe(0);
    }
  });

  it('a bad value from a variable names the variable (not only the profile key) at use', async () => {
    const r = await runInProc(['--dry-run', 'erp', 'currencies', 'delete', '--filter', "code eq 'EUR'", '--yes'], { env: { ...env, VX_ERP_BATCH_SIZE: '500' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: invalid value "500" for VX_ERP_BATCH_SIZE (the erp.batchSize setting): expected a whole number from 1 to 100\n');
    const rate = await runInProc(['--dry-run', 'erp', 'currencies', 'delete', '--filter', "code eq 'EUR'", '--yes'], { env: { ...env, VX_ERP_RATE_LIMIT: 'fast' } });
    expect(rate.stderr).toBe('vx: invalid value "fast" for VX_ERP_RATE_LIMIT (the erp.rateLimit setting): expected <requests>/<seconds>, e.g. 6000/300\n');
    const tr = await runInProc(['translate', '--to', 'de', 'x'], { env: { ...env, VX_TRANSLATE_MAX_RATE: 'abc' } });
    expect(tr.stderr).toBe('vx: invalid value "abc" for VX_TRANSLATE_MAX_RATE (the translate.maxRate setting): expected a whole number of characters from 1, e.g. 2000000\n');
  });

  it('a namespace from a variable that breaks its rule names the variable', async () => {
    const mg = await runInProc(['mgmt', 'quota', 'get', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus'], { env: { ...env, VX_MGMT_NAMESPACE: 'a/b' } });
    expect(mg.code).toBe(2);
    expect(mg.stderr).toBe('vx: invalid value "a/b" for VX_MGMT_NAMESPACE (the mgmt.namespace setting): expected a name like Vendor (letters and digits, dotted parts allowed)\n');
    const erp = await runInProc(['erp', 'sales-orders', 'ship-and-invoice', '0000100e-0000-4000-8000-0000000e0001'], { env: { ...env, VX_ERP_ACTION_NAMESPACE: 'Vendor NAV' } });
    expect(erp.code).toBe(2);
    expect(erp.stderr).toBe('vx: invalid value "Vendor NAV" for VX_ERP_ACTION_NAMESPACE (the erp.actionNamespace setting): expected dotted names like Vendor.NAV\n');
    expect(erp.http.requests).toEqual([]);
  });

  it('translate --out with -o none is refused before anything is billed (it wrote an empty file)', async () => {
    const r = await runInProc(['translate', '--to', 'de', 'hello', '--out', 'never-written.txt', '-o', 'none'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: --out with -o none would write an empty file: choose a format for it (text, json, ...) or leave out --out (nothing was sent)\n');
    expect(r.http.requests).toEqual([]);
  });
});
