// The CLI contract (docs/cli-contract.md) item by item, against the built CLI and the emulator with
// exact stderr lines, exit codes and the emulator's request log ("nothing sent").
// docs/reliability.md, "The contract, item by item", maps each item to its tests.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { closedPort, removeDir, tempDir, type RunOptions } from '../helpers/vx.js';

const e2e = useEmulator();
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** the translator's request id format (TRAN.<node>.<4 hex>.<MMDD>T<HHMM>.<6 hex>) */
const TRAN_ID = 'TRAN\\.EMU1\\.[0-9A-F]{4}\\.\\d{4}T\\d{4}\\.[0-9A-F]{6}';
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** vx with its own empty config directory (profiles are per test). */
async function withConfig<T>(fn: (run: (args: string[], o?: RunOptions) => ReturnType<E2ERun>, dir: string) => Promise<T>): Promise<T> {
  const dir = join(tempDir(), 'vx');
  try {
    return await fn((args, o = {}) => e2e.run(args, { ...o, configDir: dir }), dir);
  } finally {
    removeDir(join(dir, '..'));
  }
}
type E2ERun = typeof e2e.run;

function writeConfig(dir: string, data: unknown): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(data), { mode: 0o600 });
}


describe('usage errors from the command parser: one vx line naming the command, exit 2, nothing sent', () => {
  // every parser error runs in-process (unit/contract-usage-inproc); this one proves the real process's exit code
  const cases: [string, string[], string][] = [
    ['unknown option', ['translate', '--bogus', 'hi', '--to', 'de'], "vx: unknown option '--bogus' (run `vx translate --help` for usage)"],
  ];
  for (const [name, args, line] of cases) {
    it(name, async () => {
      const r = await e2e.run(args);
      expect(r.stderr).toBe(`${line}\n`);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(2);
      expect(e2e.emu.log).toEqual([]);
    });
  }

  it('help is unchanged: vx --help on stdout exit 0; a group without its subcommand shows its help on stderr, exit 2', async () => {
    const h = await e2e.run(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/^Usage: vx \[options\] \[command\]\n/);
    expect(h.stderr).toBe('');
    const g = await e2e.run(['erp']);
    expect(g.code).toBe(2);
    expect(g.stdout).toBe('');
    expect(g.stderr).toMatch(/^Usage: vx erp \[options\] \[command\]\n/);
    const hc = await e2e.run(['help', 'erp']);
    expect(hc.code).toBe(0);
    expect(hc.stdout).toMatch(/^Usage: vx erp /);
  });
});

describe('-p/--profile and VX_PROFILE name a profile that must exist (as aws: "The config profile (x) could not be found")', () => {
  it('-p nosuch and VX_PROFILE=nosuch: exit 2, naming the existing profiles, nothing sent', async () => {
    await withConfig(async (run, dir) => {
      const none = await run(['-p', 'nosuch', 'erp', 'companies', 'list']);
      expect(none.stderr).toBe('vx: no profile named "nosuch" (from --profile); no profile exists yet; create it with `vx -p nosuch profile set <key> <value>` or `vx -p nosuch auth login`\n');
      expect(none.code).toBe(2);
      writeConfig(dir, { profiles: { staging: { 'erp.company': 'x' }, prod: {} } });
      const flag = await run(['-p', 'nosuch', 'translate', 'hi', '--to', 'de']);
      expect(flag.stderr).toBe('vx: no profile named "nosuch" (from --profile); existing profiles: prod, staging; create it with `vx -p nosuch profile set <key> <value>` or `vx -p nosuch auth login`\n');
      expect(flag.code).toBe(2);
      const env = await run(['mgmt', 'health', 'events', 'list'], { env: { VX_PROFILE: 'nosuch' } });
      expect(env.stderr).toBe('vx: no profile named "nosuch" (from VX_PROFILE); existing profiles: prod, staging; create it with `vx -p nosuch profile set <key> <value>` or `vx -p nosuch auth login`\n');
      expect(env.code).toBe(2);
      for (const args of [['profile', 'show'], ['profile', 'list'], ['auth', 'status'], ['api', 'GET', '/x', '--service', 'erp'], ['--dry-run', 'erp', 'companies', 'list']]) {
        const r = await run(['-p', 'nosuch', ...args]);
        expect([args.join(' '), r.code]).toEqual([args.join(' '), 2]);
        expect(r.stderr).toMatch(/^vx: no profile named "nosuch" \(from --profile\); existing profiles: prod, staging;/);
        expect(r.stdout).toBe('');
      }
      const badName = await run(['-p', 'bad name', 'erp', 'companies', 'list']);
      expect(badName.stderr).toBe('vx: no profile named "bad name" (from --profile); existing profiles: prod, staging; a profile name is a letter or digit followed by up to 63 letters, digits, dots, underscores or dashes\n');
      expect(badName.code).toBe(2);
      expect(e2e.emu.log).toEqual([]);
      // the flag wins over VX_PROFILE: an existing -p with a wrong VX_PROFILE works
      const ok = await run(['-p', 'prod', 'erp', 'companies', 'list', '-o', 'json'], { env: { VX_PROFILE: 'nosuch' } });
      expect(ok.code).toBe(0);
    });
  });

  it('the implicit "default" profile need not exist (settings from the environment), even when named', async () => {
    await withConfig(async (run) => {
      const implicit = await run(['erp', 'companies', 'list', '-o', 'json']);
      expect(implicit.code).toBe(0);
      expect(implicit.stderr).toBe('');
      const named = await run(['-p', 'default', 'erp', 'companies', 'list', '-o', 'json'], { env: { VX_PROFILE: 'default' } });
      expect(named.code).toBe(0);
    });
  });

  it('commands that create the profile accept a new name (profile set, auth login); completion never reads one', async () => {
    await withConfig(async (run, dir) => {
      const set = await run(['-p', 'new', 'profile', 'set', 'erp.company', '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f']);
      expect(set.stderr).toBe('set erp.company in profile "new"\n');
      expect(set.code).toBe(0);
      const login = await run(['-p', 'ci', 'auth', 'login', '--service', 'mgmt', '--with-token', '--no-verify'], { input: 'tok-123', env: { VX_MGMT_TOKEN: undefined } });
      expect(login.code).toBe(0);
      expect(login.stderr).toBe('signed in to mgmt (token) in profile "ci"; expiry unknown; not checked (--no-verify)\n');
      const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
      expect(Object.keys(stored.profiles).sort()).toEqual(['ci', 'new']);
      expect(stored.profiles.new).toEqual({ 'erp.company': '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f' });
      expect(stored.profiles.ci['mgmt.token']).toBe('tok-123');
      // and then they exist
      expect((await run(['-p', 'new', 'profile', 'show', '-o', 'json'])).code).toBe(0);
      // commands that never read a profile do not care: completion (shell start-up files)
      const comp = await run(['-p', 'nosuch', 'completion', 'bash']);
      expect(comp.code).toBe(0);
      expect(comp.stdout).toMatch(/^# bash completion for vx/);
    });
  });

  it('profile use of a missing profile is an error (it used to create and activate an empty one)', async () => {
    await withConfig(async (run, dir) => {
      writeConfig(dir, { profiles: { staging: { 'erp.company': 'x' } } });
      const before = readFileSync(join(dir, 'config.json'), 'utf8');
      const r = await run(['profile', 'use', 'nosuch']);
      expect(r.stderr).toBe('vx: no profile named "nosuch"; existing profiles: staging; create it with `vx -p nosuch profile set <key> <value>` or `vx -p nosuch auth login`\n');
      expect(r.code).toBe(2);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
      const ok = await run(['profile', 'use', 'staging']);
      expect(ok.stderr).toBe('active profile is now "staging"\n');
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).activeProfile).toBe('staging');
      const del = await run(['profile', 'delete', 'ghost', '--yes']);
      expect(del.stderr).toBe('vx: no profile named "ghost"; existing profiles: staging\n');
      expect(del.code).toBe(2);
    });
  });

  it('--dry-run changes no config: profile set/unset/use/delete and auth logout say what they would do', async () => {
    await withConfig(async (run, dir) => {
      writeConfig(dir, { profiles: { a: { 'erp.company': 'x', 'mgmt.token': 'tok-9' }, b: {} } });
      const before = readFileSync(join(dir, 'config.json'), 'utf8');
      const cases: [string[], string][] = [
        [['-p', 'a', 'profile', 'set', 'erp.company', '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f'], 'dry run: nothing was changed (would set erp.company in profile "a")'],
        [['-p', 'new', 'profile', 'set', 'erp.company', '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f'], 'dry run: nothing was changed (would set erp.company in profile "new")'],
        [['-p', 'a', 'profile', 'unset', 'erp.company'], 'dry run: nothing was changed (erp.company would be removed from profile "a")'],
        [['profile', 'use', 'b'], 'dry run: nothing was changed (would make "b" the active profile)'],
        [['profile', 'delete', 'a'], 'dry run: nothing was changed (would delete profile "a")'],
        [['-p', 'a', 'auth', 'logout', '--service', 'mgmt'], 'dry run: nothing was changed (would remove the stored credentials of mgmt from profile "a")'],
      ];
      for (const [args, line] of cases) {
        const r = await run(['--dry-run', ...args], { env: { VX_MGMT_TOKEN: undefined } });
        expect([args.join(' '), r.code, r.stderr, r.stdout]).toEqual([args.join(' '), 0, `${line}\n`, '']);
      }
      const bad = await run(['--dry-run', 'profile', 'set', 'output', 'xml']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe('vx: invalid value "xml" for output; allowed: json, yaml, table, wide, tsv, csv, ndjson, text, none\n');
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    });
  });
});

// per-family options (an empty --subscription, --company, --location): unit/contract-usage-inproc

describe('global options', () => {
  it('-o wins over an invalid VX_OUTPUT (the invalid one alone: unit/contract-usage-inproc)', async () => {
    const ok = await e2e.run(['erp', 'companies', 'list', '-o', 'json'], { env: { VX_OUTPUT: 'xml' } });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).length).toBeGreaterThan(0);
  });

  it('--dry-run of version-sets update shows exactly the requests update sends: the GET and the PUT with If-Match', async () => {
    const S = ['--resource-group', 'web', '--service', 'contoso-api'];
    const r = await e2e.run(['--dry-run', 'mgmt', 'version-sets', 'update', 'orders', ...S, '--display-name', 'Orders v2']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const url = `${e2e.env.VX_MGMT_ENDPOINT}/subscriptions/${e2e.env.VX_SUBSCRIPTION}/resourceGroups/web/providers/Vendor.ApiManagement/service/contoso-api/apiVersionSets/orders?api-version=2024-05-01`;
    expect(JSON.parse(r.stdout)).toEqual([
      { method: 'GET', url, headers: { 'user-agent': 'vx/0.1.0', authorization: 'Bearer ***' } },
      {
        method: 'PUT',
        url,
        headers: { 'user-agent': 'vx/0.1.0', 'content-type': 'application/json', authorization: 'Bearer ***', 'if-match': '<ETag of a fresh GET>' },
        body: { properties: { displayName: 'Orders v2', '<other properties>': '<as returned by the GET>' } },
      },
    ]);
    expect(e2e.emu.log).toEqual([]);
    // and the methods are the ones update really uses
    const real = await e2e.run(['mgmt', 'version-sets', 'update', 'orders', ...S, '--display-name', 'Orders v2', '-o', 'json']);
    expect(real.code).toBe(0);
    expect(e2e.emu.log.map((l) => `${l.method} ${l.path.replace(/\?.*/, '')}`)).toEqual([
      `GET /subscriptions/${e2e.env.VX_SUBSCRIPTION}/resourceGroups/web/providers/Vendor.ApiManagement/service/contoso-api/apiVersionSets/orders`,
      `PUT /subscriptions/${e2e.env.VX_SUBSCRIPTION}/resourceGroups/web/providers/Vendor.ApiManagement/service/contoso-api/apiVersionSets/orders`,
    ]);
    expect(JSON.parse(e2e.emu.log[1].body!)).toEqual({ properties: { displayName: 'Orders v2', versioningScheme: 'Segment', description: 'Order API' } });
  });
});

describe('errors name the HTTP status, the service code and message, the request id; exit codes', () => {
  // spec 1-translator.md: the error code is the 3-digit status followed by 3 digits
  const translator: [number, number, string][] = [
    [429, 6, 'Too Many Requests'],
    [500, 7, 'Internal Server Error'],
    [503, 7, 'Service Unavailable'],
    [408, 7, 'Request Timeout'],
  ];
  for (const [status, exit, text] of translator) {
    it(`translator ${status}: code ${status}000, exit ${exit}`, async () => {
      e2e.emu.setFaults(`translator/${status}:1,retry-after:0`);
      const r = await e2e.run(['translate', 'hi', '--to', 'de', '--retries', '0']);
      expect(r.code).toBe(exit);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(`^vx: HTTP ${status} ${text} ${status}000: emulated fault: HTTP ${status} \\(request id ${TRAN_ID}\\) \\(client trace id ${UUID}\\)\\nnot translated: argument 1\\n$`),
      );
      expect(e2e.emu.count({ family: 'translator' })).toBe(1);
    });
  }

  it('the request id in the message is the one the service sent (X-RequestId), and the retries are said', async () => {
    e2e.emu.setFaults('translator/503:1,retry-after:0');
    const r = await e2e.run(['translate', 'hi', '--to', 'de', '--retries', '1', '--debug']);
    expect(r.code).toBe(7);
    const ids = [...r.stderr.matchAll(/\[debug\] < x-requestid: (\S+)/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    expect(r.stderr).toContain(`vx: HTTP 503 Service Unavailable 503000: emulated fault: HTTP 503 (request id ${ids[1]}) (after 2 attempts) (client trace id `);
  });

  it('exit codes 0-8 end to end', async () => {
    const cases: [string, string[], number, RegExp, Record<string, string | undefined>?, string?][] = [
      ['0 success', ['erp', 'companies', 'list', '-o', 'none'], 0, /^$/],
      ['1 service failure (400)', ['mgmt', 'health', 'events', 'list', '--filter', 'bogus eq'], 1, new RegExp(`^vx: HTTP 400 Bad Request InvalidFilter: .* \\(request id ${UUID}\\)\\n$`)],
      ['2 usage', ['erp', 'companies', 'list', '--bogus'], 2, /^vx: unknown option '--bogus' \(run `vx erp companies list --help` for usage\)\n$/],
      ['3 no credentials', ['mgmt', 'health', 'events', 'list'], 3, /^vx: no credentials configured: management bearer token is not set; set VX_MGMT_TOKEN or run `vx profile set mgmt.token <value>`, or sign in with `vx auth login --service mgmt`\n$/, { VX_MGMT_TOKEN: undefined }],
      ['3 401', ['mgmt', 'health', 'events', 'list'], 3, new RegExp(`^vx: HTTP 401 Unauthorized AuthenticationFailed: .* \\(request id ${UUID}\\)\\nthe credential came from VX_MGMT_TOKEN, which wins over any sign-in: correct it, or unset it and sign in with \`vx auth login --service mgmt\`\\n$`), { VX_MGMT_TOKEN: 'wrong' }],
      ['3 403', ['erp', 'companies', 'list'], 3, new RegExp(`^vx: HTTP 403 Forbidden \\S+: emulated fault: HTTP 403.* \\(request id ${UUID}\\)\\n$`), {}, 'erp/403:1'],
      ['4 404', ['erp', 'currencies', 'get', '0000dead-0000-4000-8000-000000000000'], 4, new RegExp(`^vx: HTTP 404 Not Found BadRequest_NotFound: The currencies record '0000dead-0000-4000-8000-000000000000' does not exist\\. CorrelationId: ${UUID}\\. \\(request id ${UUID}\\)\\n$`)],
      ['5 409', ['erp', 'companies', 'list'], 5, new RegExp(`^vx: HTTP 409 Conflict \\S+: emulated fault: HTTP 409.* \\(request id ${UUID}\\)\\n$`), {}, 'erp/409:1'],
      ['6 429', ['erp', 'companies', 'list', '--retries', '0'], 6, new RegExp(`^vx: HTTP 429 Too Many Requests \\S+: emulated fault: HTTP 429.* \\(request id ${UUID}\\)\\n$`), {}, 'erp/429:1,retry-after:0'],
      ['7 408', ['erp', 'companies', 'list', '--retries', '0'], 7, new RegExp(`^vx: HTTP 408 Request Timeout \\S+: emulated fault: HTTP 408.* \\(request id ${UUID}\\)\\n$`), {}, 'erp/408:1'],
      ['7 502', ['erp', 'companies', 'list', '--retries', '0'], 7, new RegExp(`^vx: HTTP 502 Bad Gateway \\S+: emulated fault: HTTP 502.* \\(request id ${UUID}\\)\\n$`), {}, 'erp/502:1'],
      ['7 504 after all retries', ['mgmt', 'health', 'events', 'list', '--retries', '2'], 7, new RegExp(`^vx: HTTP 504 Gateway Timeout ServiceUnavailable: emulated fault: HTTP 504 \\(request id ${UUID}\\) \\(after 3 attempts\\)\\n$`), {}, 'mgmt/504:1'],
      ['7 503', ['mgmt', 'health', 'events', 'list', '--retries', '0'], 7, new RegExp(`^vx: HTTP 503 Service Unavailable ServiceUnavailable: emulated fault: HTTP 503 \\(request id ${UUID}\\)\\n$`), {}, 'mgmt/503:1,retry-after:0'],
    ];
    for (const [name, args, code, re, env, faults] of cases) {
      e2e.emu.setFaults(faults ?? '');
      const r = await e2e.run(args, { env: env ?? {} });
      expect([name, r.code]).toEqual([name, code]);
      expect(r.stderr, name).toMatch(re);
    }
    e2e.emu.setFaults('');
    const port = await closedPort();
    const net = await e2e.run(['erp', 'companies', 'list', '--retries', '0'], { env: { VX_ERP_PREFIX: `http://127.0.0.1:${port}/erp` } });
    expect(net.code).toBe(8);
    expect(net.stderr).toBe(`vx: GET http://127.0.0.1:${port}/erp/api/v2.0/companies: connect ECONNREFUSED 127.0.0.1:${port}\n`);
  });

  it('412 on an ETag mismatch exits 5, naming status, code, message and request id', async () => {
    const id = JSON.parse((await e2e.run(['erp', 'currencies', 'list', '--top', '1', '-o', 'json'])).stdout)[0].id;
    const r = await e2e.run(['erp', 'currencies', 'update', id, '--set', 'displayName=Y', '--if-match', 'W/"stale"']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(new RegExp(`^vx: the currency ${id} was changed by someone else since its ETag was read; it was left as it was\\. Read it again and retry \\(HTTP 412 Precondition Failed Request_EntityChanged: .* \\(request id ${UUID}\\)\\)\\n$`));
  });

  it('LCS without credentials: the hint says VX_LCS_TOKEN falls back to VX_ERP_TOKEN/erp.token; exit 3, nothing sent', async () => {
    const r = await e2e.run(['erp', 'refresh', '--project', '1', '--source', 'a', '--target', 'b', '--yes'], { env: { VX_LCS_TOKEN: undefined, VX_ERP_TOKEN: undefined } });
    expect(r.stderr).toBe(
      'vx: no credentials configured: database refresh bearer token is not set; set VX_LCS_TOKEN (falls back to VX_ERP_TOKEN/erp.token) or run `vx profile set lcs.token <value>`, or sign in with `vx auth login --service lcs`\n',
    );
    expect(r.code).toBe(3);
    expect(e2e.emu.log).toEqual([]);
    // and the fallback works: the ERP token alone is used for the refresh
    const fb = await e2e.run(['erp', 'refresh', '--project', '1', '--source', 'a', '--target', 'b', '--yes'], { env: { VX_LCS_TOKEN: undefined } });
    expect(fb.code).toBe(0);
    expect(e2e.emu.log[0].headers?.authorization).toBe(`Bearer ${e2e.env.VX_ERP_TOKEN}`);
  });
});

describe('vx api --data <json|@file|->', () => {
  it('text that is not JSON is a usage error before sending unless -H names another Content-Type; JSON is sent byte for byte', async () => {
    const bad = await e2e.run(['api', 'POST', '/x', '--service', 'erp', '--data', '{bad']);
    expect(bad.stderr).toBe("vx: --data is not valid JSON (Expected property name or '}' at line 1, column 2); to send another type, name it with -H 'Content-Type: <type>'\n");
    expect(bad.code).toBe(2);
    const dir = tempDir();
    try {
      const f = join(dir, 'body.txt');
      writeFileSync(f, 'code=X\n');
      const file = await e2e.run(['api', 'POST', '/x', '--service', 'erp', '--data', `@${f}`]);
      expect(file.stderr).toMatch(new RegExp(`^vx: --data: ${esc(f)} is not valid JSON \\(.*\\); to send another type, name it with -H 'Content-Type: <type>'\\n$`));
      expect(file.code).toBe(2);
      const stdin = await e2e.run(['api', 'POST', '/x', '--service', 'erp', '--data', '-'], { input: 'hello' });
      expect(stdin.stderr).toMatch(/^vx: --data: standard input is not valid JSON \(.*\); to send another type/);
      expect(stdin.code).toBe(2);
      expect(existsSync(f)).toBe(true);
    } finally {
      removeDir(dir);
    }
    expect(e2e.emu.log).toEqual([]);
    // a JSON content type named by hand is checked too; another type is sent as is (data-input.test.ts)
    const jsonCt = await e2e.run(['api', 'POST', '/x', '--service', 'erp', '--data', 'x=1', '-H', 'Content-Type: application/json']);
    expect(jsonCt.code).toBe(2);
    expect(e2e.emu.log).toEqual([]);
    const ok = await e2e.run(['api', 'POST', '/x', '--service', 'erp', '--data', ' {"a": 1}\n']);
    expect(ok.code).toBe(4);
    expect(e2e.emu.log[0].body).toBe(' {"a": 1}\n');
    expect(e2e.emu.log[0].headers?.['content-type']).toBe('application/json');
    e2e.emu.reset();
    const lit = await e2e.run(['erp', 'currencies', 'create', '--data', '{bad']);
    expect(lit.stderr).toBe("vx: --data is not valid JSON (Expected property name or '}' at line 1, column 2)\n");
    expect(lit.code).toBe(2);
    expect(e2e.emu.log).toEqual([]);
  });
});
