// The holes of issue 13 (a hostile review), one test each, against the built bin/vx.js and the
// emulator (or a small loopback server where the emulator cannot misbehave the right way).
// docs/reliability.md, "Issue 13", lists each case with its test.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

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
      expect(r.stderr).toMatch(/^vx: .*(would move the request to another resource|would split it|dot segment|fit in one URL path segment).*nothing was sent\n$/);
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
      expect(JSON.parse(show.stdout)).toMatchObject({ profile: 'toString', settings: { output: 'yaml' } });
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
