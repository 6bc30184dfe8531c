// Attacks on vx's guarantees, one test each, against the built bin/vx.js and the emulator (or a
// small loopback server where the emulator cannot misbehave the right way). docs/reliability.md
// names the guarantee each holds.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { RecordingClock } from '../helpers/fake-clock.js';

const e2e = useEmulator();
const VS = ['--resource-group', 'web', '--service', 'contoso-api'];
const QUOTA = ['--provider', 'Vendor.Compute', '--location', 'eastus'];

describe('1. dot segments never move a request to another resource', () => {
  const cases: [string, string[]][] = [
    ['version-sets delete ..', ['mgmt', 'version-sets', 'delete', '..', ...VS, '--yes']],
    ['version-sets delete .', ['mgmt', 'version-sets', 'delete', '.', ...VS, '--yes']],
    ['version-sets update ..', ['mgmt', 'version-sets', 'update', '..', ...VS, '--display-name', 'x', '--yes']],
    ['version-sets get %2e%2e', ['mgmt', 'version-sets', 'get', '%2e%2e', ...VS]],
    ['--resource-group ..', ['mgmt', 'version-sets', 'list', '--resource-group', '..', '--service', 'contoso-api']],
    ['--subscription ..', ['mgmt', 'quota', 'get', 'cores', ...QUOTA, '--subscription', '..']],
    ['quota set ..', ['mgmt', 'quota', 'set', '..', ...QUOTA, '--limit', '5', '--yes']],
    ['quota requests get ..', ['mgmt', 'quota', 'requests', 'get', '..', ...QUOTA]],
    ['erp refresh --target ..', ['erp', 'refresh', '--project', '1', '--source', 'a', '--target', '..', '--yes']],
    ['erp refresh --source .%2E', ['erp', 'refresh', '--project', '1', '--source', '.%2E', '--target', 'b', '--yes']],
    ['erp refresh --project a/b', ['erp', 'refresh', '--project', 'a/b', '--source', 'a', '--target', 'b', '--yes']],
    ['vx api with /../', ['api', 'GET', '/api/v2.0/../../mgmt/x', '--service', 'erp']],
    ['vx api with %2e%2e', ['api', 'GET', '/api/v2.0/%2e%2e/x', '--service', 'erp']],
  ];
  for (const [name, argv] of cases) {
    it(`${name}: exit 2, nothing sent (also with --dry-run)`, async () => {
      const r = await e2e.run(argv);
      expect(r.stderr).toMatch(/^vx: .*(would move the request to another resource|would split it|dot segment|fit in one URL path segment|must be a UUID).*nothing was sent\n$/);
      expect(r.code).toBe(2);
      const d = await e2e.run([...argv, '--dry-run']);
      expect(d.code).toBe(2);
      expect(d.stdout).toBe('');
      expect(e2e.emu.count()).toBe(0);
    });
  }

  it('--dry-run shows the URL exactly as it is sent', async () => {
    const r = await e2e.run(['erp', 'currencies', 'list', '--filter', "code eq 'EUR'", '--dry-run']);
    expect(r.code).toBe(0);
    const [planned] = JSON.parse(r.stdout);
    expect(planned.url).toContain('$filter=code%20eq%20%27EUR%27');
    expect(planned.url).toBe(new URL(planned.url).href);
  });

  it('an ERP key ".." stays a key (looked up in a $filter or quoted in parentheses), never a path step', async () => {
    const r = await e2e.run(['erp', 'currencies', 'get', '..']);
    expect(r.code).toBe(4);
    expect(e2e.emu.log.map((e) => e.path)).toEqual([expect.stringMatching(/\/currencies(\('\.\.'\)|\?\$filter=code%20eq%20%27\.\.%27.*)$/)]);
  });
});

describe('13. profile names that are Object.prototype members', () => {
  it('toString, constructor, hasOwnProperty do not exist until created, and then work like any name', async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'vx-rel13-'));
    try {
      const run = (argv: string[]) => e2e.run(argv, { configDir: dir });
      expect((await run(['profile', 'set', 'output', 'json'])).code).toBe(0);
      for (const name of ['toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
        const use = await run(['profile', 'use', name]);
        expect(use.stderr).toMatch(new RegExp(`^vx: no profile named "${name}"; existing profiles: default`));
        expect(use.code).toBe(2);
        const del = await run(['profile', 'delete', name, '--yes']);
        expect(del.stderr).toMatch(new RegExp(`^vx: no profile named "${name}"`));
        expect(del.code).toBe(2);
        const show = await run(['-p', name, 'profile', 'show']);
        expect(show.code).toBe(2);
      }
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ profiles: { default: { output: 'json' } } });
      expect((await run(['-p', 'toString', 'profile', 'set', 'output', 'yaml'])).code).toBe(0);
      const show = await run(['-p', 'toString', 'profile', 'show', '-o', 'json']);
      expect(JSON.parse(show.stdout)).toMatchObject({ profile: 'toString', settings: expect.arrayContaining([{ key: 'output', value: 'yaml', source: 'profile' }]) });
      const list = await run(['profile', 'list', '-o', 'json']);
      expect(JSON.parse(list.stdout).map((p: { name: string; settings: number }) => [p.name, p.settings])).toEqual([['default', 1], ['toString', 1]]);
      expect((await run(['profile', 'delete', 'toString', '--yes'])).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('10. the config directory: modes set only on what vx creates; a directory others can write is refused', () => {
  it('a shared 1777 directory keeps its mode and is refused (exit 2, explained, nothing written); 0755 is used as it is', async () => {
    const { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const root = mkdtempSync(join(tmpdir(), 'vx-rel10-'));
    try {
      const shared = join(root, 'shared');
      const { mkdirSync } = await import('node:fs');
      mkdirSync(shared);
      chmodSync(shared, 0o1777);
      const r = await e2e.run(['profile', 'set', 'output', 'json'], { configDir: shared });
      expect(r.stderr).toMatch(/^vx: config directory .*shared is writable by other users \(mode 1777\); vx keeps credentials there .*chmod go-w\)\n$/);
      expect(r.code).toBe(2);
      expect(statSync(shared).mode & 0o7777).toBe(0o1777);
      expect(existsSync(join(shared, 'config.json'))).toBe(false);
      // a file planted there is not read either
      writeFileSync(join(shared, 'config.json'), JSON.stringify({ profiles: { default: { 'erp.prefix': 'http://127.0.0.1:9/erp' } } }));
      const read = await e2e.run(['profile', 'show'], { configDir: shared });
      expect(read.code).toBe(2);
      expect(read.stderr).toMatch(/writable by other users \(mode 1777\)/);
      const group = join(root, 'group');
      mkdirSync(group);
      chmodSync(group, 0o770);
      expect((await e2e.run(['profile', 'set', 'output', 'json'], { configDir: group })).code).toBe(2);
      expect(statSync(group).mode & 0o7777).toBe(0o770);
      const own = join(root, 'own');
      mkdirSync(own);
      chmodSync(own, 0o755);
      expect((await e2e.run(['profile', 'set', 'output', 'json'], { configDir: own })).code).toBe(0);
      expect(statSync(own).mode & 0o7777).toBe(0o755);
      expect(statSync(join(own, 'config.json')).mode & 0o777).toBe(0o600);
      const fresh = join(root, 'a', 'b');
      expect((await e2e.run(['profile', 'set', 'output', 'json'], { configDir: fresh })).code).toBe(0);
      expect(statSync(fresh).mode & 0o7777).toBe(0o700);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('14. a full disk on --out after the requests were made', () => {
  it('exit 1 (not 2 "nothing was sent"), saying what was sent', async () => {
    const r = await e2e.run(['translate', 'Good morning', 'Good night', '--to', 'de', '--out', '/dev/full']);
    expect(r.stderr).toBe('vx: cannot write /dev/full: no space left on the device; the output is incomplete\nsent: 1 request (22 billed characters); arguments 1-2 were translated\n');
    expect(r.code).toBe(1);
    expect(e2e.emu.count({ family: 'translator' })).toBe(1);
  });
});

describe('14. a password in an endpoint URL', () => {
  it('is never printed: not in --dry-run, not in errors, not in --debug', async () => {
    const prefix = e2e.env.VX_ERP_PREFIX.replace('http://', 'http://alice:pw-Secret-991@');
    const dry = await e2e.run(['erp', 'companies', 'list', '--dry-run'], { env: { VX_ERP_PREFIX: prefix } });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)[0].url).toMatch(/^http:\/\/\*\*\*@127\.0\.0\.1:\d+\/erp\/api\//);
    const down = await e2e.run(['erp', 'companies', 'list', '--retries', '0', '--debug'], { env: { VX_ERP_PREFIX: 'http://alice:pw-Secret-991@127.0.0.1:9/erp' } });
    expect(down.code).toBe(8);
    expect(down.stderr).toContain('http://***@127.0.0.1:9/erp/');
    for (const r of [dry, down]) expect(r.stdout + r.stderr).not.toMatch(/pw-Secret-991|alice/);
  });
});

describe('5. a 404 to the repeat of a delete whose answer was lost', () => {
  it('is done, and vx says so (exit 0); the record is gone; a plain 404 stays exit 4', async () => {
    const before = await e2e.run(['erp', 'currencies', 'get', 'EUR', '-o', 'json']);
    expect(before.code).toBe(0);
    e2e.emu.setFaults('erp/DELETE/reset-after:1x');
    const r = await e2e.run(['erp', 'currencies', 'delete', 'EUR', '--yes']);
    expect(r.stderr).toMatch(/^vx: deleted currency .*EUR.* \(the answer to the first attempt was lost; the repeated DELETE found it gone\)\n$|^deleted currency .*EUR.* \(the answer to the first attempt was lost; the repeated DELETE found it gone\)\n$/);
    expect(r.code).toBe(0);
    expect(e2e.emu.count({ family: 'erp', method: 'DELETE' })).toBe(2);
    e2e.emu.setFaults('');
    expect((await e2e.run(['erp', 'currencies', 'get', 'EUR'])).code).toBe(4);
    const id = JSON.parse(before.stdout).id;
    const again = await e2e.run(['erp', 'currencies', 'delete', id, '--yes', '--force']);
    expect(again.code).toBe(4);
  });
});

describe('8. a malformed HTTP reply to a create', () => {
  it('is an unknown outcome: exit 8, the URL-free label, not repeated, the check command printed', async () => {
    const net = await import('node:net');
    let requests = 0;
    const server = net.createServer((sock) => {
      sock.on('data', (d) => {
        if (/^(POST|GET|PUT|PATCH|DELETE) /.test(d.toString())) requests++;
        sock.end('HTTP/1.1 201 Created\r\nContent-Length: abc\r\n\r\n{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as import('node:net').AddressInfo).port;
    try {
      for (const client of ['node', 'undici']) {
        requests = 0;
        const r = await e2e.run(['erp', 'currencies', 'create', '--data', '{"code":"XR1","displayName":"X"}'], {
          env: { VX_ERP_PREFIX: `http://127.0.0.1:${port}/erp`, VX_HTTP_CLIENT: client },
        });
        expect(r.stderr).toMatch(
          /^vx: create currency: the answer was not valid HTTP \(.*(HPE_INVALID_CONTENT_LENGTH|HTTPParserError)\); the outcome is unknown \(the request may or may not have taken effect\) and it was not repeated; check with: vx erp currencies list --filter "code eq 'XR1'"\n$/,
        );
        expect(r.code).toBe(8);
        expect(requests).toBe(1);
      }
      // a read meeting the same reply is repeated, then exit 8 with its URL
      requests = 0;
      const g = await e2e.run(['erp', 'companies', 'list', '--retries', '2'], { env: { VX_ERP_PREFIX: `http://127.0.0.1:${port}/erp` } });
      expect(g.stderr).toMatch(/^vx: GET http:\/\/127\.0\.0\.1:\d+\/erp\/api\/.*: the answer was not valid HTTP \(.*\) \(after 3 attempts\)\n$/);
      expect(g.code).toBe(8);
      expect(requests).toBe(3);
    } finally {
      server.close();
    }
  });
});

/** A loopback server answering every request with `body` (JSON) and counting them. */
async function fixedServer(body: () => unknown, headers: Record<string, string> = {}): Promise<{ url: string; count: () => number; close: () => void }> {
  const http = await import('node:http');
  let n = 0;
  const server = http.createServer((req, res) => {
    n++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body()));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`, count: () => n, close: () => server.close() };
}

describe('2. translate -o text stays aligned with its input', () => {
  const tr = (to: string, text: unknown) => ({ to, text });
  const cases: [string, string[], unknown[], RegExp][] = [
    ['an empty translations array', ['--to', 'de'], [{ translations: [tr('de', 'A')] }, { translations: [] }, { translations: [tr('de', 'C')] }], /for argument 2 does not match the request: 0 translations for 1 target \(de\)/],
    ['a missing text', ['--to', 'de'], [{ translations: [tr('de', 'A')] }, { translations: [{ to: 'de' }] }, { translations: [tr('de', 'C')] }], /for argument 2 does not match the request: the translation to de has no text \(missing\)/],
    ['a null text', ['--to', 'de'], [{ translations: [tr('de', 'A')] }, { translations: [tr('de', 'B')] }, { translations: [tr('de', null)] }], /for argument 3 does not match the request: the translation to de has no text \(null\)/],
    ['targets out of --to order', ['--to', 'de,fr'], [{ translations: [tr('fr', 'A'), tr('de', 'A')] }, { translations: [tr('de', 'B'), tr('fr', 'B')] }, { translations: [tr('de', 'C'), tr('fr', 'C')] }], /for argument 1 does not match the request: translation 1 is to "fr", expected de \(the --to order\)/],
    ['a detected language\'s score "NaN"', ['--to', 'de'], [{ translations: [tr('de', 'A')] }, { detectedLanguage: { language: 'en', score: 'NaN' }, translations: [tr('de', 'B')] }, { translations: [tr('de', 'C')] }], /for argument 2 does not match the request: the score of its detected language is "NaN", not a number from 0 to 1/],
    ['one translation too many', ['--to', 'de'], [{ translations: [tr('de', 'A'), tr('fr', 'A')] }, { translations: [tr('de', 'B')] }, { translations: [tr('de', 'C')] }], /for argument 1 does not match the request: 2 translations for 1 target \(de\)/],
  ];
  for (const [name, flags, results, message] of cases) {
    it(`${name}: exit 1 naming the item, nothing misaligned written`, async () => {
      const s = await fixedServer(() => results);
      try {
        const r = await e2e.run(['translate', 'a', 'b', 'c', ...flags, '-o', 'text', '--retries', '0'], { env: { VX_TRANSLATOR_ENDPOINT: s.url } });
        expect(r.stderr).toMatch(new RegExp(`^vx: the service's answer ${message.source}; nothing of it was written \\(client trace id [0-9a-f-]{36}\\)\\n`));
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        expect(s.count()).toBe(1);
      } finally {
        s.close();
      }
    });
  }

  it('a line break inside a translation is written escaped: line N is item N', async () => {
    const s = await fixedServer(() => [{ translations: [tr('de', 'A\nA2')] }, { translations: [tr('de', 'B\r\nB2')] }, { translations: [tr('de', 'C')] }]);
    try {
      const r = await e2e.run(['translate', 'a', 'b', 'c', '--to', 'de', '-o', 'text'], { env: { VX_TRANSLATOR_ENDPOINT: s.url } });
      expect(r.stdout).toBe('A\\nA2\nB\\r\\nB2\nC\n');
      expect(r.code).toBe(0);
    } finally {
      s.close();
    }
  });
});

describe('9. escape sequences from the service never reach the terminal raw', () => {
  // (a currency name holds at most 30 characters)
  const HOSTILE = '\u001b]8;;http://e.vl/\u0007c\u001b[2J\rX\u009b1m';
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  it('table, tsv, text and --debug escape them; json keeps the payload exact', async () => {
    const c = await e2e.run(['erp', 'currencies', 'create', '--data', JSON.stringify({ code: 'ESC', displayName: HOSTILE })]);
    expect(c.stderr).toBe('');
    expect(c.code).toBe(0);
    for (const o of ['table', 'tsv', 'text']) {
      const r = await e2e.run(['erp', 'currencies', 'list', '--filter', "code eq 'ESC'", '-o', o]);
      expect(r.code).toBe(0);
      expect(r.stdout, o).not.toMatch(RAW);
      expect(r.stdout, o).toContain('\\u001b]8;;http://e.vl/\\u0007c\\u001b[2J\\rX\\u009b1m');
    }
    const one = await e2e.run(['erp', 'currencies', 'get', 'ESC', '-o', 'table']);
    expect(one.stdout).not.toMatch(RAW);
    const dbg = await e2e.run(['erp', 'currencies', 'list', '--filter', "code eq 'ESC'", '-o', 'none', '--debug']);
    expect(dbg.code).toBe(0);
    expect(dbg.stderr).toContain('\\u001b[2J');
    expect(dbg.stderr).not.toMatch(RAW);
    const json = await e2e.run(['erp', 'currencies', 'get', 'ESC', '-o', 'json']);
    expect(JSON.parse(json.stdout).displayName).toBe(HOSTILE);
    const tr = await fixedServer(() => [{ translations: [{ to: 'de', text: `A${HOSTILE}` }] }]);
    try {
      const t = await e2e.run(['translate', 'a', '--to', 'de'], { env: { VX_TRANSLATOR_ENDPOINT: tr.url } });
      expect(t.stdout).not.toMatch(RAW);
      expect(t.stdout).toBe('A\\u001b]8;;http://e.vl/\\u0007c\\u001b[2J\\rX\\u009b1m\n');
    } finally {
      tr.close();
    }
  });
});

describe('12. following a quota request that never ends, with Retry-After: 0', () => {
  it('polls no faster than 1 s (growing), stops at --wait-timeout with the request id and how to follow it', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.state.mgmt.pollsToFinish = 1_000_000;
    // the waits and the deadline on a fake clock that records each wait, with the status reads answered when it began
    const clock = new RecordingClock(() => e2e.emu.count({ family: 'mgmt', method: 'GET', path: 'serviceLimitsRequests/' }));
    const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...QUOTA, '--limit', '150', '--yes', '--wait-timeout', '3'], { env: { VX_POLL_FLOOR_MS: undefined }, clock });
    const id = /quota request ([0-9a-f-]{36}) was submitted; follow it with: vx mgmt quota requests get \1 --provider Vendor\.Compute --location eastus --subscription [0-9a-f-]{36} --wait\n/.exec(r.stderr)?.[1];
    expect(id, r.stderr).toBeDefined();
    expect(r.stderr).toMatch(/\nvx: quota request [0-9a-f-]{36} did not end within --wait-timeout 3 s \(last state InProgress, [234] status reads\); the change was accepted and goes on\n$/);
    expect(r.code).toBe(1);
    // the status reads: at 1 s, 2.5 s and 3 s (the deadline), never a tight loop
    expect(clock.waits.filter((w) => w.ms > 0)).toEqual([
      { ms: 1000, at: 0 },
      { ms: 1500, at: 1 },
      { ms: 500, at: 2 },
    ]);
    const reads = e2e.emu.count({ family: 'mgmt', method: 'GET', path: 'serviceLimitsRequests/' });
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(4);
    expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
  });

  it('--wait-timeout is checked before anything is sent', async () => {
    for (const v of ['0', '-1', 'abc', '', '86401']) {
      const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...QUOTA, '--limit', '150', '--yes', '--wait-timeout', v]);
      expect(r.stderr).toBe(`vx: invalid --wait-timeout "${v}": expected seconds from 1 to 86400; nothing was sent\n`);
      expect(r.code).toBe(2);
    }
    expect(e2e.emu.count()).toBe(0);
  });
});

describe('14. smaller holes', () => {
  it('a JWT whose exp is out of range is a token without a known expiry, never "Invalid time value"', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'vx-rel14-'));
    try {
      for (const exp of [1e20, -1e300, 8.64e12 + 1]) {
        const jwt = `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.c2ln`;
        const env = { VX_ERP_TOKEN: undefined };
        const set = await e2e.run(['auth', 'login', '--service', 'erp', '--with-token', '--no-verify'], { configDir: dir, input: `${jwt}\n`, env });
        expect([set.code, set.stderr]).toEqual([0, expect.not.stringMatching(/Invalid time value|RangeError/)]);
        const status = await e2e.run(['auth', 'status', '-o', 'json'], { configDir: dir, env });
        expect(status.stderr).not.toMatch(/Invalid time value/);
        expect(status.code).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('14. numbers, nesting and error bodies', () => {
  const BIG = '{"value":[{"code":"BIG","amountRoundingPrecision":12345678901234567890.5,"id":9007199254740993,"small":0.1,"rate":0.12345678901234567891}]}';
  it('numbers beyond double precision are printed exactly as the service sent them (json, ndjson, table, tsv)', async () => {
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(BIG);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/erp`;
    try {
      const raw = await e2e.run(['api', 'GET', '/x', '--service', 'erp'], { env: { VX_ERP_PREFIX: url } });
      expect(raw.stdout.replace(/\s+/g, '')).toBe(BIG);
      const list = await e2e.run(['erp', 'currencies', 'list', '-o', 'ndjson'], { env: { VX_ERP_PREFIX: url } });
      expect(list.stdout).toBe('{"code":"BIG","amountRoundingPrecision":12345678901234567890.5,"id":9007199254740993,"small":0.1,"rate":0.12345678901234567891}\n');
      for (const o of ['tsv', 'table']) {
        const r = await e2e.run(['erp', 'currencies', 'list', '-o', o], { env: { VX_ERP_PREFIX: url } });
        expect(r.stdout, o).toContain('12345678901234567890.5');
        if (o === 'tsv') expect(r.stdout, o).toContain('9007199254740993');
      }
    } finally {
      server.close();
    }
  });

  it('--set and --data numbers beyond double precision are sent exactly as given', async () => {
    const set = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=BG1', '--set', 'displayName=Big', '--set', 'amountRoundingPrecision=0.12345678901234567891', '--dry-run']);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('"amountRoundingPrecision": 0.12345678901234567891');
    await e2e.run(['erp', 'currencies', 'create', '--data', '{"code":"BG2","displayName":"Big","amountRoundingPrecision":12345678901234567890.25}']);
    expect(e2e.emu.log.find((e) => e.method === 'POST')!.body).toBe('{"code":"BG2","displayName":"Big","amountRoundingPrecision":12345678901234567890.25}');
  });

  it('200,000 levels of nesting: one line, the right exit code, never "Maximum call stack size exceeded" alone', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(deep);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/erp`;
    try {
      const r = await e2e.run(['api', 'GET', '/x', '--service', 'erp', '-o', 'table'], { env: { VX_ERP_PREFIX: url } });
      expect(r.stderr).toMatch(/^vx: .*nests too deeply.*\n$/);
      expect(r.code).toBe(1);
    } finally {
      server.close();
    }
    const data = await e2e.run(["erp", "currencies", "create", "--data", "-"], { input: `{"code":${deep}}` });
    expect(data.stderr).toMatch(/^vx: --data field "code": expected text .*\(got a value nested too deeply to show\)\n$/);
    expect(data.code).toBe(2);
    expect(e2e.emu.count()).toBe(0);
  });

  it('a 200 whose body is the {"error": ...} shape is a service error (exit 1), not a success', async () => {
    const s = await fixedServer(() => ({ error: { code: 'Internal_ServerError', message: 'Something failed' } }));
    try {
      const r = await e2e.run(['erp', 'companies', 'list'], { env: { VX_ERP_PREFIX: `${s.url}/erp` } });
      expect(r.stderr).toMatch(/^vx: HTTP 200 from GET http:\/\/127\.0\.0\.1:\d+\/erp\/api\/v2\.0\/companies carried an error instead of a result: Internal_ServerError: Something failed\n$/);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
    } finally {
      s.close();
    }
  });
});
