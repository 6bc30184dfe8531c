// A translation memory the whole team shares, in PostgreSQL, end to end against the emulator
// (in-process) and a real server (skipped, saying so, without one): vx translate, translate
// file|sync and the memory commands with a postgres:// memory as with a file (a second run sends
// nothing; the profile setting); runs at once into one database send each text once; memory copy
// between the stores and back, byte for byte; a server out of reach at the start (exit 7, nothing
// sent; --memory-optional goes on, saying so); one lost mid-run (the run finishes, saying how many
// answers were not stored); a role that may only read (lookups only, said once); the password
// never printed (--debug, errors, profile show, what the memory commands print).
import { spawnSync } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { freshDatabase, NO_PG, PG_URL, sql, urlOf } from '../helpers/postgres.js';
import { baseEnv, BIN, closedPort, removeDir, ROOT, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const dir = tempDir('vx-tm-pg-e2e-');
afterAll(() => removeDir(dir));

interface Call {
  texts: string[];
}
const calls = () => (e2e.emu.state.translator as { calls: Call[] }).calls;
const sentTexts = () => calls().flatMap((c) => c.texts);

function file(name: string, lines: string[]): string {
  const p = join(dir, name);
  writeFileSync(p, lines.map((l) => `${l}\n`).join(''));
  return p;
}


describe('the PostgreSQL client is loaded only for a PostgreSQL memory', () => {
  it('vx --help does not load it; a postgres:// memory does (the process is the subject: spawned, with a loader hook listing what it loads)', async () => {
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(process.env.VX_TEST_LOADED, url + '\\n'); return next(url, context); }\n`);
    const register = join(dir, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
    const loaded = (args: string[]) => {
      const list = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
      spawnSync(process.execPath, ['--import', register, BIN, ...args], { env: { ...baseEnv(join(dir, 'cfg')), VX_TEST_LOADED: list }, encoding: 'utf8' });
      return existsSync(list) ? readFileSync(list, 'utf8').split('\n').filter(Boolean) : [];
    };
    const help = loaded(['--help']);
    expect(help.length).toBeGreaterThan(0);
    expect(help.filter((u) => /\/vendor\/pg\.js$/.test(u))).toEqual([]);
    const port = await closedPort();
    expect(loaded(['translate', 'memory', 'stats', '--memory', `postgres://u@127.0.0.1:${port}/db`]).filter((u) => /\/vendor\/pg\.js$/.test(u))).toHaveLength(1);
  });
});

describe('a PostgreSQL memory URL in a profile', () => {
  it('profile show and get never print its password: the table and -o json, from the profile or VX_TRANSLATE_MEMORY', async () => {
    const url = 'postgres://ci:pw-in-profile-7@db.example:5432/l10n?sslmode=require';
    expect((await e2e.run(['profile', 'set', 'translate.memory', url])).code).toBe(0);
    try {
      const table = await e2e.run(['profile', 'show', '-o', 'table']);
      expect(table.stdout).toMatch(/^translate\.memory\s+postgres:\/\/\*\*\*@db\.example:5432\/l10n\?sslmode=require\s+profile$/m);
      const json = await e2e.run(['profile', 'show', '-o', 'json']);
      expect((JSON.parse(json.stdout) as { settings: { key: string }[] }).settings.find((r) => r.key === 'translate.memory')).toEqual({ key: 'translate.memory', value: 'postgres://***@db.example:5432/l10n?sslmode=require', source: 'profile' });
      const get = await e2e.run(['profile', 'get', 'translate.memory']);
      expect(get.stdout).toBe('postgres://***@db.example:5432/l10n?sslmode=require\n');
      const env = await e2e.run(['profile', 'show', '-o', 'table'], { env: { VX_TRANSLATE_MEMORY: url.replace('pw-in-profile-7', 'pw-in-env-8') } });
      expect(env.stdout).toMatch(/^translate\.memory\s+postgres:\/\/\*\*\*@db\.example:5432\/l10n\?sslmode=require\s+env VX_TRANSLATE_MEMORY$/m);
      for (const r of [table, json, get, env]) expect(r.stdout + r.stderr).not.toMatch(/pw-in-/);
    } finally {
      await e2e.run(['profile', 'unset', 'translate.memory']);
    }
  });
});

describe('a PostgreSQL memory out of reach at the start', () => {
  it('one line naming host and port, exit 7, nothing sent; --memory-optional goes on without it, saying so', async () => {
    const port = await closedPort();
    const url = `postgres://ci:pw-never-printed@127.0.0.1:${port}/l10n?sslmode=disable`;
    const input = file('unreachable.txt', ['Hello', 'Goodbye']);
    const r = await e2e.run(['translate', '--to', 'de', '-f', input, '--memory', url]);
    expect(r.code).toBe(7);
    expect(r.stderr).toBe(`vx: translation memory postgres://***@127.0.0.1:${port}/l10n?sslmode=disable: cannot reach PostgreSQL at 127.0.0.1:${port}: connection refused\n`);
    expect(calls()).toEqual([]);
    const opt = await e2e.run(['translate', '--to', 'de', '-f', input, '--memory', url, '--memory-optional']);
    expect(opt.code).toBe(0);
    expect(opt.stderr).toBe(
      `warning: translation memory postgres://***@127.0.0.1:${port}/l10n?sslmode=disable: cannot reach PostgreSQL at 127.0.0.1:${port}: connection refused; going on without it (--memory-optional): every text is sent, no answer is stored\n`,
    );
    expect(sentTexts()).toEqual(['Hello', 'Goodbye']);
    expect(opt.stdout.split('\n')).toHaveLength(3);
  });
});

describe.runIf(PG_URL)('a PostgreSQL memory', () => {
  it('vx translate: a second run sends nothing and writes the same; the profile setting names it too; the password never printed', async () => {
    const url = await freshDatabase();
    const input = file('a.txt', ['Good morning', 'Hello', 'Good morning']);
    const first = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input, '--memory', url]);
    expect(first.code).toBe(0);
    expect(sentTexts()).toEqual(['Good morning', 'Hello']);
    e2e.emu.reset();
    await e2e.run(['profile', 'set', 'translate.memory', url]);
    const second = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input, '--verbose', '--debug']);
    await e2e.run(['profile', 'unset', 'translate.memory']);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(calls()).toEqual([]);
    expect(second.stderr).toMatch(/translation memory: PostgreSQL at 127\.0\.0\.1:\d+, database vx_test_\w+, user postgres, no TLS \(sslmode=disable\), schema version 1\n/);
    expect(second.stderr).toMatch(/memory hits: 2; duplicates not sent: 1; distinct texts sent: 0;/);
  });

  it('a password given in the URL or PGPASSWORD is never printed: not in --debug, not in errors', async () => {
    const url = await freshDatabase();
    const input = file('pw.txt', ['Hello']);
    const withPw = urlOf({ password: 'pw-s3cret-4' }, url);
    const r = await e2e.run(['translate', '--to', 'de', '-f', input, '--memory', withPw, '--debug']);
    expect(r.code).toBe(0);
    const bad = await e2e.run(['translate', 'memory', 'stats', '--memory', withPw.replace(/\/vx_test_\w+/, '/no_such_db'), '--debug'], { env: { PGPASSWORD: 'pw-s3cret-5' } });
    expect(bad.code).toBe(2);
    // (--debug adds the error's trace)
    expect(bad.stderr).toMatch(/^vx: translation memory postgres:\/\/\*\*\*@127\.0\.0\.1:\d+\/no_such_db\?sslmode=disable: database "no_such_db" does not exist \(PostgreSQL at 127\.0\.0\.1:\d+\)\n/);
    for (const out of [r.stdout, r.stderr, bad.stdout, bad.stderr]) expect(out).not.toMatch(/pw-s3cret/);
  });

  it('translate file|sync: a fresh checkout translated again comes from the memory', async () => {
    const url = await freshDatabase();
    const proj = join(dir, 'proj');
    mkdirSync(proj, { recursive: true });
    writeFileSync(join(proj, 'en.json'), readFileSync(join(ROOT, 'test', 'fixtures', 'files', 'en.json')));
    const first = await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '--memory', url, '-o', 'none'], { cwd: proj });
    expect(first.code).toBe(0);
    const n = calls().length;
    expect(n).toBeGreaterThan(0);
    const de = readFileSync(join(proj, 'de.json'), 'utf8');
    for (const f of ['de.json', 'en.json.vxlock']) (await import('node:fs')).rmSync(join(proj, f));
    const again = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de', '--memory', url, '--verbose', '-o', 'none'], { cwd: proj });
    expect(again.code).toBe(0);
    expect(calls()).toHaveLength(n);
    expect(again.stderr).toMatch(/sent 0 distinct texts in 0 requests; .*; memory hits: 12/);
    expect(readFileSync(join(proj, 'de.json'), 'utf8')).toBe(de);
  });

  it('memory stats, export, import, prune; memory copy to a file and back, byte for byte', async () => {
    const url = await freshDatabase();
    const input = file('cmd.txt', ['One', 'Two', 'Three']);
    expect((await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '-f', input, '--memory', url, '-o', 'none'])).code).toBe(0);
    const stats = await e2e.run(['translate', 'memory', 'stats', '--memory', url, '-o', 'json']);
    expect(JSON.parse(stats.stdout)).toMatchObject({ path: url, entries: 6, pairs: { 'en>de': 3, 'en>fr': 3 } });
    const tmx = join(dir, 'pg.tmx');
    expect((await e2e.run(['translate', 'memory', 'export', '--memory', url, '--out', tmx])).code).toBe(0);
    // into a file, and from it into a new database: the same export
    const tm = join(dir, 'copy.tm');
    const toFile = await e2e.run(['translate', 'memory', 'copy', url, tm, '-o', 'json']);
    expect([toFile.code, JSON.parse(toFile.stdout)]).toEqual([0, { copied: 6, from: url, to: tm }]);
    const url2 = await freshDatabase();
    const back = await e2e.run(['translate', 'memory', 'copy', tm, url2, '-o', 'json']);
    expect([back.code, JSON.parse(back.stdout)]).toEqual([0, { copied: 6, from: tm, to: url2 }]);
    const tmx2 = join(dir, 'pg2.tmx');
    expect((await e2e.run(['translate', 'memory', 'export', '--memory', url2, '--out', tmx2])).code).toBe(0);
    const body = (f: string) => readFileSync(f, 'utf8').replace(/creationdate="[^"]*"/, '');
    expect(body(tmx2)).toBe(body(tmx));
    const shown = url.replace('postgres@', '***@');
    expect((await e2e.run(['translate', 'memory', 'copy', url, url])).stderr).toBe(`vx: ${shown} and ${shown} are the same memory: nothing was copied\n`);
    // the same database however the URL says it (another user, no sslmode)
    const other = urlOf({ user: 'someone', query: '' }, url);
    expect((await e2e.run(['translate', 'memory', 'copy', url, other])).stderr).toBe(`vx: ${shown} and ${other.replace('someone@', '***@')} are the same memory: nothing was copied\n`);
    // import into a third, prune from it
    const url3 = await freshDatabase();
    // (a password in the URL is not printed: the server trusts the test's user and ignores it)
    const imp = await e2e.run(['translate', 'memory', 'import', tmx, '--memory', urlOf({ password: 'pw-import-9' }, url3), '-o', 'json']);
    expect([imp.code, JSON.parse(imp.stdout)]).toEqual([0, { imported: 6, memory: url3 }]);
    const pruned = await e2e.run(['translate', 'memory', 'prune', '--memory', url3, '--to', 'fr', '--yes', '-o', 'json']);
    expect([pruned.code, JSON.parse(pruned.stdout)]).toEqual([0, { removed: 3, remaining: 3, memory: url3 }]);
    // nothing sent for what the imported memory holds
    e2e.emu.reset();
    expect((await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input, '--memory', url3, '-o', 'none'])).code).toBe(0);
    expect(calls()).toEqual([]);
  });

  it('runs at once into one database (machines of a team) send each text once: the others wait for its answer; every output complete', async () => {
    const url = await freshDatabase();
    const shared = Array.from({ length: 300 }, (_, i) => `Shared string ${i}`);
    // each in an order of its own, with texts of its own
    const inputs = [0, 1, 2].map((k) => [...(k === 1 ? [...shared].reverse() : shared), ...Array.from({ length: 40 }, (_, i) => `Run ${k} string ${i}`)]);
    // a request takes long enough for every run to want the shared texts while another sends them
    e2e.emu.setFaults('latency:300');
    const results = await Promise.all(inputs.map((lines) => e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', url], { input: `${lines.join('\n')}\n` })));
    e2e.emu.setFaults('');
    expect(results.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
      [0, ''],
    ]);
    expect(sentTexts().length).toBe(300 + 3 * 40);
    expect(new Set(sentTexts()).size).toBe(300 + 3 * 40);
    // the same text has the same translation in every output, one line per input line
    const translated = new Map<string, string>();
    results.forEach((r, k) => {
      const out = r.stdout.split('\n').slice(0, -1);
      expect(out.length).toBe(inputs[k].length);
      out.forEach((t, i) => {
        expect(t).toBe(translated.get(inputs[k][i]) ?? t);
        translated.set(inputs[k][i], t);
      });
    });
    // no claim is left behind
    expect(await sql('SELECT count(*)::int AS n FROM vx_translation_memory WHERE value IS NULL', [], url)).toEqual([{ n: 0 }]);
  });

  it('a role that may only read: the run looks up, sends the rest, stores nothing, said once', async () => {
    const url = await freshDatabase();
    expect((await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Hello', '--memory', url, '-o', 'none'])).code).toBe(0);
    await sql(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vx_test_reader') THEN CREATE ROLE vx_test_reader LOGIN; END IF; END $$`);
    await sql(`GRANT SELECT ON vx_translation_memory, vx_translation_memory_migrations TO vx_test_reader`, [], url);
    const reader = urlOf({ user: 'vx_test_reader' }, url);
    e2e.emu.reset();
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', file('ro.txt', ['Hello', 'World', 'World']), '--memory', reader, '-o', 'none']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`warning: translation memory ${reader.replace('vx_test_reader@', '***@')}: the role may only read it: lookups only, no answer of this run is stored\n`);
    expect(sentTexts()).toEqual(['World']);
    const imp = await e2e.run(['translate', 'memory', 'prune', '--memory', reader, '--all', '--yes']);
    expect(imp.code).toBe(2);
    expect(imp.stderr).toBe(`vx: translation memory ${reader.replace('vx_test_reader@', '***@')}: it may only be read (the role may not write it); nothing was changed\n`);
  });
});

describe.runIf(PG_URL)('a PostgreSQL memory lost during a run', () => {
  let proxy: Server | undefined;
  const sockets = new Set<Socket>();
  afterAll(() => proxy?.close());

  it('the run finishes, paying as without a memory, and says how many answers were not stored', async () => {
    const url = await freshDatabase();
    const target = new URL(url);
    let cut = false;
    proxy = createServer((client) => {
      if (cut) return void client.destroy();
      const server = connect(Number(target.port), target.hostname);
      client.pipe(server).pipe(client);
      for (const s of [client, server]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => sockets.delete(s));
      }
    });
    await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', r));
    const via = url.replace(/:\d+\//, `:${(proxy.address() as { port: number }).port}/`);
    // the emulator answers the first request once the network to the database is gone
    let first = true;
    e2e.emu.setFaults('');
    const lines = Array.from({ length: 3000 }, (_, i) => `Line ${i}`);
    const input = file('lost.txt', lines);
    const hook = setInterval(() => {
      if (first && calls().length > 1) {
        first = false;
        cut = true;
        for (const s of sockets) s.destroy();
      }
    }, 1);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input, '--memory', via, '-o', 'none', '--concurrency', '1']);
    clearInterval(hook);
    expect(r.code).toBe(0);
    expect(new Set(sentTexts()).size).toBe(3000);
    const stored = Number((await sql('SELECT count(*)::int AS n FROM vx_translation_memory WHERE value IS NOT NULL AND key LIKE $1', ['\u0001%'], url))[0].n);
    const shown = via.replace('postgres@', '***@');
    expect(r.stderr).toMatch(new RegExp(`^warning: translation memory ${escape(shown)}: lost \\(.+\\); the run goes on without it, sending what it would have answered\\n`));
    const said = new RegExp(`\\nwarning: translation memory ${escape(shown)}: ([\\d,]+) answers were not stored \\(lost during the run: [^;]+(?:; ([\\d,]+) of them were being written as it was lost, and may be stored)?\\); the next run sends them again\\n$`).exec(r.stderr);
    expect(said).not.toBeNull();
    const [notStored, perhaps] = [said![1], said![2] ?? '0'].map((x) => Number(x.replace(/,/g, '')));
    // what it says is what the database holds: those perhaps stored are or are not
    expect(notStored).toBeGreaterThan(0);
    expect(3000 - stored).toBeLessThanOrEqual(notStored);
    expect(3000 - stored).toBeGreaterThanOrEqual(notStored - perhaps);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

if (!PG_URL) describe.skip(`a PostgreSQL memory, against a server: ${NO_PG}`, () => it('skipped', () => undefined));
