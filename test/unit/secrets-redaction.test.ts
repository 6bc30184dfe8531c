// Where secrets can surface: typed secrets echoed by usage errors,
// credential forms the redaction did not know, run in-process (test/helpers/inproc.ts).
import { chmodSync, closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearSecrets, redact, redactHeaders } from '../../src/core/redact.js';
import { json } from '../helpers/httpmock.js';
import { fixedAuth } from '../helpers/authenticator.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const env = offlineEnv();

/** A fresh directory of this test file's. */
function scratch(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `vx-sec-${prefix}-`));
}
const SECRET = 'Sekr3tValue-9f8e7d';

describe('a secret typed where vx did not expect it is not echoed by the usage error', () => {
  // `--token=<secret>` (the spelling of gh, az, curl-like tools) names no vx option: commander's
  // message quoted the whole word, value included, into stderr (a CI log)
  const cases: [string[], string][] = [
    [['erp', 'companies', 'list', `--token=${SECRET}`], "vx: unknown option '--token=…' (its value is not shown) (run `vx erp companies list --help` for usage)"],
    [[`--password=${SECRET}`, 'erp', 'companies', 'list'], "vx: unknown option '--password=…' (its value is not shown) (run `vx --help` for usage)"],
    [['translate', 'hi', '--to', 'de', `--key=${SECRET}`], "vx: unknown option '--key=…' (its value is not shown) (run `vx translate --help` for usage)"],
    [['--', `--token=${SECRET}`], "vx: unknown command '--token=…' (its value is not shown) (run `vx --help` for usage)"],
  ];
  for (const [args, line] of cases) {
    it(args.join(' ').replace(/=.*/, ''), async () => {
      const r = await runInProc(args, { env });
      expect(r.stderr).toBe(`${line}\n`);
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
    });
  }

  it('an unknown option without a value is named as before', async () => {
    const r = await runInProc(['erp', 'companies', 'list', '--token'], { env });
    expect(r.stderr).toBe("vx: unknown option '--token' (run `vx erp companies list --help` for usage)\n");
  });

  // `az config set core.output=table` is how az spells it: `vx profile set translator.key=<key>`
  // answered 'unknown setting "translator.key=<key>"' with the key in it
  it('profile set <key>=<value> says how to write it, the value not shown, nothing stored', async () => {
    const r = await runInProc(['profile', 'set', `translator.key=${SECRET}`], { env });
    expect(r.stderr).toBe('vx: "translator.key=…": give the value as its own argument: vx profile set translator.key <value> (or on standard input); nothing was stored\n');
    expect(r.code).toBe(2);
    const shown = await runInProc(['profile', 'show', '-o', 'json'], { env });
    expect(shown.stdout).not.toContain(SECRET);
  });

  it('an unknown setting written with = is named without what follows the =', async () => {
    const r = await runInProc(['profile', 'set', `translator.secret=${SECRET}`], { env });
    expect(r.stderr).toMatch(/^vx: unknown setting "translator\.secret=…"; known settings: translator\.endpoint, /);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.code).toBe(2);
  });
});

describe('redaction of credential forms it did not know', () => {
  beforeEach(() => clearSecrets());

  // new URL() accepts an unencoded @ in the password (the last @ ends the user information):
  // only the part before the first @ was masked
  it('user information whose password holds an unencoded @ is masked whole', () => {
    expect(redact('GET https://bob:p@ssw0rdX@erp.example.com/erp/api: refused')).toBe('GET https://***@erp.example.com/erp/api: refused');
    expect(redact('https://bob:pw@h/x and mail a@b.example')).toBe('https://***@h/x and mail a@b.example');
    expect(redact('see https://h.example/a@b')).toBe('see https://h.example/a@b');
  });

  it('credential headers spelled with underscores, run together or as Authorization after a prefix', () => {
    const out = redactHeaders({ 'X-Authorization': 'tok-1', api_key: 'k1', x_api_key: 'k2', accesstoken: 't2', AccessKey: 'k3', sessionid: 's1', privatekey: 'p1', 'X-Auth': 'a1', 'content-type': 'application/json', 'If-Match': '*' });
    expect(out).toEqual({ 'X-Authorization': '***', api_key: '***', x_api_key: '***', accesstoken: '***', AccessKey: '***', sessionid: '***', privatekey: '***', 'X-Auth': '***', 'content-type': 'application/json', 'If-Match': '*' });
  });

  it('JSON credential fields in camelCase (clientSecret, accessToken, refreshToken, secret, ...)', () => {
    expect(redact('{"clientSecret":"c1","accessToken":"a1","refreshToken":"r1","idToken":"i1","secret":"s1","sasToken":"t1","privateKey":"p1","connectionString":"Endpoint=sb://x;SharedAccessKey=k","name":"n","tokenCount":3}')).toBe(
      '{"clientSecret":"***","accessToken":"***","refreshToken":"***","idToken":"***","secret":"***","sasToken":"***","privateKey":"***","connectionString":"***","name":"n","tokenCount":3}',
    );
  });

  // `vx api POST .../listKeys --debug`: the answer's keys were printed whole in the trace (stderr, a CI log)
  it('the keys a management API lists: primaryKey, secondaryKey, key1, key2, primaryConnectionString, primaryMasterKey', () => {
    expect(redact('{"primaryKey":"a1","secondaryKey":"a2","key1":"a3","key2":"a4","primaryConnectionString":"Endpoint=x","secondaryConnectionString":"y","primaryMasterKey":"m1","primaryReadonlyMasterKey":"m2","accountKey":"a5","partitionKey":"p","keyName":"key1"}')).toBe(
      '{"primaryKey":"***","secondaryKey":"***","key1":"***","key2":"***","primaryConnectionString":"***","secondaryConnectionString":"***","primaryMasterKey":"***","primaryReadonlyMasterKey":"***","accountKey":"***","partitionKey":"p","keyName":"key1"}',
    );
  });

  it('query parameters key=, secret=, api_key= and client_assertion=, and storage keys in connection strings', () => {
    expect(redact('https://h/x?key=AIzaSyA1&secret=s2&api_key=k3&client_assertion=a.b.c&$skiptoken=5&monkey=1')).toBe('https://h/x?key=***&secret=***&api_key=***&client_assertion=***&$skiptoken=5&monkey=1');
    expect(redact('DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc+def/ghi==;EndpointSuffix=core')).toBe('DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=***;EndpointSuffix=core');
    expect(redact('Endpoint=sb://ns/;SharedAccessKeyName=root;SharedAccessKey=xyz=')).toBe('Endpoint=sb://ns/;SharedAccessKeyName=root;SharedAccessKey=***');
    // a --set on a field named key is an OData value, not a query: left readable
    expect(redact('unknown field key in "--set key=value"')).toBe('unknown field key in "--set key=value"');
  });

  it('a Basic credential after Authorization in a text', () => {
    expect(redact('Authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe('Authorization: Basic ***');
    expect(redact('{"authorization":"Basic dXNlcjpwYXNz"}')).toBe('{"authorization":"***"}');
    expect(redact('Basic information')).toBe('Basic information');
  });
});

// an endpoint typed or copied with http:// sent the key or token in clear, without a word; the
// sign-in address (auth.url) was already refused so (docs/auth.md)
describe('credentials never go over plain http to another machine unless VX_ALLOW_HTTP=1', () => {
  const remote = { ...env, VX_ERP_PREFIX: 'http://erp.example.test/erp', VX_TRANSLATOR_ENDPOINT: 'http://tr.example.test' };
  const line = (method: string, url: string) =>
    `vx: ${method} ${url}: the endpoint is plain http to another machine, and vx sends credentials (keys, tokens) only over https (plain http only to this machine: 127.0.0.1, ::1, localhost); nothing was sent\n` +
    'use the https address of the service; to send credentials in clear anyway (a server without TLS on a network you trust), set VX_ALLOW_HTTP=1\n';

  it('a bearer token (erp), also in --dry-run: exit 2, nothing sent', async () => {
    for (const extra of [[], ['--dry-run']]) {
      const r = await runInProc(['erp', 'companies', 'list', ...extra], { env: remote });
      expect(r.stderr).toBe(line('GET', 'http://erp.example.test/erp/api/v2.0/companies'));
      expect(r.stdout).toBe('');
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
    }
  });

  it('a subscription key (translator), and a credential given with vx api -H', async () => {
    const t = await runInProc(['translate', 'hello', '--to', 'de'], { env: remote });
    expect(t.stderr).toContain('vx: POST http://tr.example.test/translate?api-version=3.0&to=de: the endpoint is plain http to another machine');
    expect(t.code).toBe(2);
    expect(t.http.requests).toEqual([]);
    const a = await runInProc(['api', 'GET', '/api/v2.0/companies', '--service', 'erp', '-H', 'X-Api-Key: k'], { env: remote });
    expect(a.stderr).toBe(line('GET', 'http://erp.example.test/erp/api/v2.0/companies'));
    expect(a.http.requests).toEqual([]);
  });

  it('VX_ALLOW_HTTP=1 sends them; https and loopback http need nothing; a bad VX_ALLOW_HTTP is exit 2', async () => {
    const ok = await runInProc(['erp', 'companies', 'list', '-o', 'json'], {
      env: { ...remote, VX_ALLOW_HTTP: '1' },
      setup: (t) => t.http.stub('GET', 'http://erp.example.test/erp/api/v2.0/companies', json(200, { value: [] })),
    });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.http.requests[0]!.headers.authorization).toBe('Bearer test-token');
    const tls = await runInProc(['erp', 'companies', 'list', '-o', 'json'], {
      env: { ...env, VX_ERP_PREFIX: 'https://erp.example.test/erp' },
      setup: (t) => t.http.stub('GET', 'https://erp.example.test/erp/api/v2.0/companies', json(200, { value: [] })),
    });
    expect(tls.code).toBe(0);
    const bad = await runInProc(['erp', 'companies', 'list'], { env: { ...remote, VX_ALLOW_HTTP: 'sure' } });
    expect(bad.stderr).toBe('vx: invalid value "sure" for VX_ALLOW_HTTP: expected 1 or 0\n');
    expect(bad.code).toBe(2);
  });
});

// the journal's name is predictable (<file>.vx-journal): in a shared directory (/tmp) another user
// could plant a link there to a file of this user that does not exist yet, and the import
// created that file (with the journal's lines) wherever the link pointed
describe('erp import: a journal name held by a dangling symbolic link is not followed', () => {
  it('exit 2, nothing sent, nothing created where the link points', async () => {
    const dir = scratch('journal');
    const input = join(dir, 'people.csv');
    writeFileSync(input, 'code,displayName\nSP1,Ann\n');
    const victim = join(dir, 'authorized_keys');
    symlinkSync(victim, `${input}.vx-journal`);
    const r = await runInProc(['erp', 'salespeople', 'import', '--file', input, '--yes'], { env });
    expect(r.stderr).toBe(`vx: cannot create the journal ${input}.vx-journal: a symbolic link to a file that does not exist is there (another user's, in a shared directory?); remove it, or name another file with --journal\n`);
    expect(r.code).toBe(2);
    expect(r.http.requests).toEqual([]);
    expect(existsSync(victim)).toBe(false);
  });
});

// HTTPS_PROXY=proxy.corp:8080 (no scheme, as curl accepts) or a mistyped address: exit 8 "network
// error: Invalid URL protocol ..." or exit 1 "Invalid URL", naming neither the variable nor the fix
describe('a proxy variable that is not an http(s) address', () => {
  it('is exit 2 naming the variable (never its value), nothing sent', async () => {
    const { Http } = await import('../../src/core/http/index.js');
    const { UsageError } = await import('../../src/core/errors.js');
    for (const [name, value] of [
      ['HTTPS_PROXY', `user:${SECRET}@proxy.corp:8080`],
      ['https_proxy', `http://user:${SECRET}@[bad`],
      ['HTTP_PROXY', 'socks5://127.0.0.1:1080'],
    ]) {
      const http = new Http({ retries: 0, env: { [name]: value } });
      const e = await http.send({ method: 'GET', url: 'http://127.0.0.1:9/x' }).catch((x: unknown) => x);
      expect(e, name).toBeInstanceOf(UsageError);
      expect((e as Error).message).toBe(`${name} is not a proxy address vx can use: expected http://host:port, with user:password@ before the host when the proxy asks for them (its value is not shown); nothing was sent`);
      await http.close();
    }
  });
});

// a target replaced by vx kept the mode of the file it replaced, set-user-ID and set-group-ID bits
// included: `--out` over a setuid program (as root: a root-owned setuid file) made the new
// content a setuid program. The permission bits are kept, those three bits are not.
describe('a file vx replaces keeps its permissions but never set-user-ID, set-group-ID or sticky', () => {
  it('--out (atomicFileSink) and translate file targets', async () => {
    const { atomicFileSink } = await import('../../src/core/output/index.js');
    const dir = scratch('mode');
    const out = join(dir, 'tool');
    writeFileSync(out, 'old');
    chmodSync(out, 0o6755);
    const sink = await atomicFileSink(out);
    await sink.write('new');
    await sink.commit();
    expect(statSync(out).mode & 0o7777).toBe(0o755);

    writeFileSync(join(dir, 'en.json'), '{ "a": "One" }\n');
    writeFileSync(join(dir, 'de.json'), '{ "a": "Eins" }\n');
    chmodSync(join(dir, 'de.json'), 0o4640);
    const r = await runInProc(['translate', 'file', join(dir, 'en.json'), '--to', 'de'], {
      env,
      setup: (t) => void t.http.stub('POST', /\/translate\?/, (req) => json(200, (JSON.parse(req.text) as { Text: string }[]).map((i) => ({ translations: [{ to: 'de', text: `[de] ${i.Text}` }] })))),
    });
    expect(r.code).toBe(0);
    expect(statSync(join(dir, 'de.json')).mode & 0o7777).toBe(0o640);
  });
});

// the readable lines of `health watch` (and its -o text strings) wrote the service's fields as they
// came: a title holding terminal escapes (OSC 52 writes the clipboard, OSC 8 hides a link, CSI
// clears the screen) drove the terminal, and a line break split one news into two lines
describe('health watch lines show the service text escaped, one line per news', () => {
  const event = {
    id: '/subscriptions/7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f/providers/Vendor.ResourceHealth/events/TRK-1',
    name: 'TRK-1',
    properties: { eventType: 'ServiceIssue', eventLevel: 'Warning', status: 'Active', lastUpdateTime: '2026-11-24T10:00:00Z', title: 'Outage\u001b]52;c;cm0gLXJmIH4=\u0007\nFAKE: all clear\u001b[2J' },
  };
  const setup = (t: import('../helpers/ctx.js').TestCtx) => void t.http.stub('GET', /\/events\?/, json(200, { value: [event] }));
  it('-o table', async () => {
    const r = await runInProc(['mgmt', 'health', 'watch', '--once', '-o', 'table'], { env, setup });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Outage\\u001b]52;c;cm0gLXJmIH4=\\u0007\\nFAKE: all clear\\u001b[2J\n');
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
  });
  it('-o text with a --query that picks the title', async () => {
    const r = await runInProc(['mgmt', 'health', 'watch', '--once', '-o', 'text', '-q', 'event.properties.title'], { env, setup });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Outage\\u001b]52;c;cm0gLXJmIH4=\\u0007\nFAKE: all clear\\u001b[2J\n');
  });
});

// the message of a failed $batch operation, which vx puts in an import's per-row results on stdout,
// came from the service's error body without redaction, where
// an error of a whole request is redacted (errorFromResponse)
describe('the error of a $batch operation is redacted like the error of a request', () => {
  beforeEach(() => clearSecrets());
  it('a $batch operation error echoing the token or a key', async () => {
    const { BatchClient } = await import('../../src/api/erp/batch.js');
    const { addSecret } = await import('../../src/core/redact.js');
    addSecret('tok-Secret-4711');
    const root = 'http://127.0.0.1:1/api/v2.0/';
    const responses = [{ id: '1', status: 401, body: { error: { code: 'Authentication_InvalidCredentials', message: 'token tok-Secret-4711 rejected; retry with ?api-key=k-99887766' } } }];
    const http = { send: async () => ({ headers: {}, json: () => ({ responses }) }) } as unknown as import('../../src/core/http/index.js').Http;
    const [r] = await new BatchClient(http, root, fixedAuth({ Authorization: 'Bearer tok-Secret-4711' })).send([{ method: 'POST', url: `${root}companies(1)/salespeoplePurchasers`, body: { code: 'C1' } }]);
    expect(r).toMatchObject({ kind: 'failed', status: 401, message: 'token *** rejected; retry with ?api-key=***' });
  });
});

describe('Ctx.debug', () => {
  beforeEach(() => clearSecrets());
  // its comment said "secrets redacted"; it handed the line to the trace as it was
  it('redacts like the rest of the --debug trace', async () => {
    const { testCtx } = await import('../helpers/ctx.js');
    const { addSecret } = await import('../../src/core/redact.js');
    addSecret('key-Secret-31337');
    const t = testCtx({ globals: { debug: true } });
    t.ctx.debug('batch 1: X-RequestId key-Secret-31337, https://bob:pw@h/x');
    expect(t.stderr.text).toBe('[debug] batch 1: X-RequestId ***, https://***@h/x\n');
  });
});

// the emulator's (and the service's) error for an OData key written code='X' came out as
// `HTTP 400 Bad Request: {"error":{"code":"BadRequest","message":"The key \"code=***" ...}}`: the
// OAuth `code=` pattern took the quoted OData literal and the backslash of the escaped quote after
// it, which broke the body's JSON, so the service's code and message were lost too
describe('redaction of code= and other form fields leaves OData literals and JSON escapes alone', () => {
  beforeEach(() => clearSecrets());
  it('redact', () => {
    expect(redact(`{"message":"The key \\"code='ZZP'\\" is not a GUID"}`)).toBe(`{"message":"The key \\"code='ZZP'\\" is not a GUID"}`);
    expect(redact('{"message":"see ?access_token=abc123\\" there"}')).toBe('{"message":"see ?access_token=***\\" there"}');
    expect(redact('code=abc&x=1')).toBe('code=***&x=1');
    // a quoted value of another field is still a secret
    expect(redact("the password='hunter2' is too weak")).toBe('the password=*** is too weak');
  });
  it('the error line keeps the service code and message', async () => {
    const { errorFromResponse } = await import('../../src/core/errors.js');
    const e = errorFromResponse(400, `{"error":{"code":"BadRequest","message":"The key \\"code='ZZP'\\" is not a GUID or a quoted string."}}`, {});
    expect(e.message).toBe(`HTTP 400 Bad Request BadRequest: The key "code='ZZP'" is not a GUID or a quoted string.`);
  });
});

// `vx api POST ... --data @/dev/zero` (or `yes | vx ... --data -`, an import --file naming a device
// or a FIFO that never ends) read on without bound: 2.7 GB of memory after 8 s, then more, never
// an answer. A whole input is read up to what JavaScript can hold as a text (500 MiB): beyond,
// exit 2 at once, nothing sent; a regular file larger than that is refused by its size unread.
describe('inputs read whole are bounded', () => {
  it('a device, a pipe, standard input: refused past the bound, as they are read', async () => {
    const { readTextFile, readAllStdin, readAllBytes } = await import('../../src/core/input.js');
    const { Readable } = await import('node:stream');
    const endless = () => Readable.from((function* () { for (;;) yield Buffer.alloc(64 * 1024); })());
    await expect(readTextFile('/dev/zero', 1 << 20)).rejects.toThrow('/dev/zero is larger than 1 MiB, more than vx reads whole; nothing was sent');
    await expect(readAllStdin(endless(), 1 << 20)).rejects.toThrow('standard input is larger than 1 MiB, more than vx reads whole; nothing was sent');
    await expect(readAllBytes('/dev/zero', endless, 1 << 20)).rejects.toThrow('/dev/zero is larger than 1 MiB');
    await expect(readAllBytes('-', endless, 1 << 20)).rejects.toThrow('standard input is larger than 1 MiB');
    expect((await readAllStdin(Readable.from([Buffer.from('{"a":1}')]), 1 << 20))).toBe('{"a":1}');
  });
  it('a regular file over the bound is refused by its size, unread (a sparse 600 MiB file)', async () => {
    const big = join(scratch('big'), 'big.json');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 600 * 1024 * 1024);
    closeSync(fd);
    const r = await runInProc(['api', 'POST', '/api/v2.0/companies', '--service', 'erp', '--data', `@${big}`], { env });
    expect(r.stderr).toBe(`vx: ${big} is larger than 500 MiB, more than vx reads whole; nothing was sent\n`);
    expect(r.code).toBe(2);
    expect(r.http.requests).toEqual([]);
  });
});

// a --state naming the wrong file (`--state .env`, a slip of the TAB) that is not JSON was quoted
// by V8's message: 'Unexpected token 'V', "VX_MGMT_TO"... is not valid JSON', the start of the
// file (a secret) on stderr; the config file's errors already leave the quote out
describe('a state file that is not JSON is named with where, never with a piece of it', () => {
  it('health watch --state', async () => {
    const file = join(scratch('state'), '.env');
    writeFileSync(file, 'SK_live_9f8e7d6c5b4a\n');
    const r = await runInProc(['mgmt', 'health', 'watch', '--once', '--state', file], { env });
    expect(r.stderr).toBe(`vx: the state file ${file} is corrupt (not JSON: Unexpected token 'S'); it was left as it is: repair it, or move it away to start over (every current event is then reported again); nothing was sent\n`);
    expect(r.code).toBe(2);
  });
});

// the same quote from a file given as data by mistake (`--data @.env`, an import --file)
describe('JSON read from a file named by mistake is refused without a piece of it', () => {
  it('vx api --data @.env, erp create --data @.env, erp import --file rows.json', async () => {
    const dir = scratch('data');
    const dotenv = join(dir, '.env');
    writeFileSync(dotenv, 'SK_live_9f8e7d6c5b4a=1\n');
    const rows = join(dir, 'rows.json');
    writeFileSync(rows, 'SK_live_9f8e7d6c5b4a=1\n');
    const cases: [string[], string][] = [
      [['api', 'POST', '/x', '--service', 'erp', '--data', `@${dotenv}`], `vx: --data: ${dotenv} is not valid JSON (Unexpected token 'S'); to send another type, name it with -H 'Content-Type: <type>'\n`],
      [['erp', 'currencies', 'create', '--data', `@${dotenv}`], `vx: --data: ${dotenv} is not valid JSON (Unexpected token 'S')\n`],
      [['erp', 'currencies', 'import', '--file', rows, '--yes'], `vx: ${rows}: not valid JSON: Unexpected token 'S'\n`],
    ];
    for (const [args, line] of cases) {
      const r = await runInProc(args, { env });
      expect(r.stderr, args[0]).toBe(line);
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
    }
  });
});

// HOME=/tmp (some CI runners): another user who made /tmp/.config/vx first (mode 0755: not
// writable by others, so it passed) with a config.json naming their own endpoint got the token of
// every vx run there (VX_ERP_TOKEN from the environment went to that endpoint). As ssh does with
// its files: a config directory or file owned by another user (not root) is refused.
describe('a config directory or file of another user is not used', () => {
  it('it counts as unreadable: a setting only it could give is exit 2, nothing sent; flags and VX_* variables go on with a warning', async () => {
    const { vi } = await import('vitest');
    const { chownSync, mkdirSync } = await import('node:fs');
    const real = process.getuid!();
    // as root, the files are given to nobody and vx runs as uid 1000; otherwise vx runs as uid+1
    const other = real === 0 ? 65534 : real;
    const me = real === 0 ? 1000 : real + 1;
    const spy = vi.spyOn(process, 'getuid').mockReturnValue(me);
    try {
      const dir = join(scratch('owner'), 'vx');
      mkdirSync(dir, { mode: 0o755 });
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { 'erp.prefix': 'https://attacker.example/erp' } } }), { mode: 0o644 });
      if (real === 0) {
        chownSync(dir, other, other);
        chownSync(join(dir, 'config.json'), other, other);
      }
      const r = await runInProc(['erp', 'companies', 'list'], { env: { ...env, VX_ERP_PREFIX: undefined as unknown as string, VX_CONFIG_DIR: dir } });
      expect(r.stderr).toContain(`config file ${join(dir, 'config.json')}`);
      expect(r.stderr).toContain(`its directory belongs to another user (uid ${other})`);
      expect(r.stderr).not.toContain('attacker');
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
      const ok = await runInProc(['erp', 'companies', 'list', '-o', 'json'], {
        env: { ...env, VX_CONFIG_DIR: dir },
        setup: (t) => void t.http.stub('GET', /\/companies$/, json(200, { value: [] })),
      });
      expect(ok.stderr).not.toContain('attacker');
      expect(ok.code).toBe(0);
      expect(ok.http.requests.map((q) => new URL(q.url).host)).toEqual(['127.0.0.1:9']);
    } finally {
      spy.mockRestore();
    }
  });
});
