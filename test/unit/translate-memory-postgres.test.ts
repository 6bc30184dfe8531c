// The PostgreSQL memory: its URL read as libpq reads it (defaults from the run's environment, the
// password from the URL, PGPASSWORD or the password file, TLS per sslmode, the password never in
// how the memory is named); and against a real server (skipped, saying so, without one): the
// schema created on first use and versioned, the same keys and values as the file (NUL and all),
// the password asked for only when the server wants one, TLS as sslmode says, a role that may
// only read, a server out of reach at the start (one line naming host and port, exit 7), and a
// connection lost mid-run (the run goes on, counting what it could not store).
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyOptions, TranslationMemory } from '../../src/api/translator/memory/index.js';
import { pgSettings, passwordFile } from '../../src/api/translator/memory/pg-settings.js';
import { SCHEMA_VERSION } from '../../src/api/translator/memory/pg-schema.js';
import type { PgPool, PgPoolClient, PgQuery } from '../../src/api/translator/memory/pg-driver.js';
import { PgStore } from '../../src/api/translator/memory/store-pg.js';
import { AuthError, EXIT, UnavailableError, UsageError } from '../../src/core/errors.js';
import { redact } from '../../src/core/redact.js';
import { freshDatabase, NO_PG, PG_URL, sql, urlOf } from '../helpers/postgres.js';
import { closedPort, removeDir, tempDir } from '../helpers/vx.js';

const dir = tempDir('vx-tm-pg-');
afterAll(() => removeDir(dir));
const de = (text: string) => ({ translations: [{ text, to: 'de' }] });

describe('PostgreSQL memory URL', () => {
  it('reads host, port, user, database and sslmode; what it leaves out comes from the run environment, never the process', () => {
    const s = pgSettings('postgres://ci@db.example:6543/l10n?sslmode=disable', {});
    expect(s).toMatchObject({ host: 'db.example', port: 6543, user: 'ci', database: 'l10n', sslmode: 'disable', tls: false, display: 'postgres://ci@db.example:6543/l10n?sslmode=disable' });
    const d = pgSettings('postgresql://db.example', { PGUSER: 'envuser', PGPORT: '5433', PGDATABASE: 'envdb', PGSSLMODE: 'require', HOME: dir });
    expect(d).toMatchObject({ host: 'db.example', port: 5433, user: 'envuser', database: 'envdb', sslmode: 'require', tls: { rejectUnauthorized: false } });
    // libpq's default: TLS when the server offers it, else plain
    expect(pgSettings('postgres://u@h/db', { HOME: dir })).toMatchObject({ sslmode: 'prefer', fallback: true, port: 5432 });
    expect(pgSettings('postgres://u@[::1]:7000/db', {}).host).toBe('::1');
  });

  it('refuses what it cannot read in one line naming the URL without its password', () => {
    const bad = (url: string) => {
      try {
        pgSettings(url, {});
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(bad('postgres://u:s3cret-pw@h/db?sslmode=maybe')).toBe('translation memory postgres://u@h/db?sslmode=maybe: invalid sslmode maybe (one of disable, allow, prefer, require, verify-ca, verify-full)');
    expect(bad('postgres://u:s3cret-pw@h/db?target_session_attrs=any')).toBe('translation memory postgres://u@h/db?target_session_attrs=any: unknown parameter target_session_attrs (vx reads sslmode, sslrootcert, sslcert, sslkey, connect_timeout, application_name)');
    expect(bad('postgres://u@h:99999/db')).toMatch(/^translation memory postgres:\/\/u@h:99999\/db: /);
  });

  it('the password: the URL, else PGPASSWORD, else the password file (libpq rules), never in the memory name; a file others may read is ignored', () => {
    const pgpass = join(dir, 'pgpass');
    writeFileSync(pgpass, ['# comment', 'other:5432:*:ci:wrong', 'db.example:*:l10n:ci:from\\:file\\\\x', '*:*:*:*:any'].join('\n'));
    chmodSync(pgpass, 0o600);
    const env = { PGPASSFILE: pgpass };
    expect(pgSettings('postgres://ci:from%40url@db.example/l10n', { ...env, PGPASSWORD: 'from-env' }).password).toBe('from@url');
    expect(pgSettings('postgres://ci@db.example/l10n', { ...env, PGPASSWORD: 'from-env' }).password).toBe('from-env');
    expect(pgSettings('postgres://ci@db.example/l10n', env).password).toBe('from:file\\x');
    expect(pgSettings('postgres://someone@else.example/db', env).password).toBe('any');
    const s = pgSettings('postgres://ci:from%40url@db.example/l10n', env);
    expect(s.display).toBe('postgres://ci@db.example/l10n');
    // registered as a secret: any message masks it
    expect(redact('failed with from@url in it')).toBe('failed with *** in it');
    chmodSync(pgpass, 0o644);
    expect(passwordFile(env, { host: 'db.example', port: 5432, database: 'l10n', user: 'ci' })).toBeUndefined();
    // ~/.pgpass of the run's HOME
    writeFileSync(join(dir, '.pgpass'), 'h:5432:db:u:home-pw\n', { mode: 0o600 });
    expect(pgSettings('postgres://u@h/db', { HOME: dir }).password).toBe('home-pw');
  });

  it('TLS per sslmode: verify-full checks the chain and the name, verify-ca the chain, require neither unless a root certificate is there', () => {
    const ca = join(dir, 'root.crt');
    writeFileSync(ca, 'CERT');
    const env = { HOME: join(dir, 'nohome') };
    expect(pgSettings(`postgres://u@h/db?sslmode=verify-full&sslrootcert=${ca}`, env).tls).toEqual({ rejectUnauthorized: true, ca: 'CERT', servername: 'h' });
    const verifyCa = pgSettings(`postgres://u@h/db?sslmode=verify-ca&sslrootcert=${ca}`, env).tls as { checkServerIdentity?: unknown };
    expect(verifyCa).toMatchObject({ rejectUnauthorized: true, ca: 'CERT' });
    expect(typeof verifyCa.checkServerIdentity).toBe('function');
    expect(pgSettings('postgres://u@h/db?sslmode=require', env).tls).toEqual({ rejectUnauthorized: false });
    expect(pgSettings(`postgres://u@h/db?sslmode=require&sslrootcert=${ca}`, env).tls).toMatchObject({ rejectUnauthorized: true, ca: 'CERT' });
    expect(pgSettings('postgres://u@h/db?sslmode=verify-full&sslrootcert=system', env).tls).toEqual({ rejectUnauthorized: true, servername: 'h' });
    expect(() => pgSettings('postgres://u@h/db?sslmode=verify-full&sslrootcert=/no/such.crt', env)).toThrow('translation memory postgres://u@h/db?sslmode=verify-full&sslrootcert=/no/such.crt: cannot read sslrootcert /no/such.crt: ENOENT');
  });
});


describe('PostgreSQL memory, the server out of reach at the start', () => {
  it('one line naming host and port, exit 7', async () => {
    const port = await closedPort();
    const err = await TranslationMemory.open(`postgres://u:pw-never-shown@127.0.0.1:${port}/db?sslmode=disable`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).exitCode).toBe(EXIT.unavailable);
    expect((err as Error).message).toBe(`translation memory postgres://u@127.0.0.1:${port}/db?sslmode=disable: cannot reach PostgreSQL at 127.0.0.1:${port}: connection refused`);
  });
});

describe('PostgreSQL memory, through a connection pooler', () => {
  it('the startup message holds only parameters PgBouncer accepts (it refuses a connection with any other, such as options)', async () => {
    const params: Record<string, string> = {};
    const server = createServer((socket) => {
      socket.once('data', (b: Buffer) => {
        // length, protocol 3.0, then name NUL value NUL ... NUL
        const fields = b.subarray(8, b.readInt32BE(0) - 1).toString('utf8').split('\0');
        for (let i = 0; i + 1 < fields.length; i += 2) params[fields[i]] = fields[i + 1];
        socket.destroy();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await TranslationMemory.open(`postgres://ci@127.0.0.1:${port}/l10n?sslmode=disable`).catch(() => undefined);
    await new Promise((r) => server.close(r));
    expect(params).toEqual({ user: 'ci', database: 'l10n', application_name: 'vx', client_encoding: 'UTF8' });
  });

  it('in transaction mode (the name of a prepared statement does not hold from one statement to the next): statements go unnamed, nothing is lost', async () => {
    const sent: PgQuery[] = [];
    const client: PgPoolClient = {
      query: async (q: PgQuery) => {
        sent.push(q);
        if (q.name) throw Object.assign(new Error(`prepared statement "${q.name}" does not exist`), { code: '26000' });
        return { rows: q.text.startsWith('SELECT key') ? [{ key: 'k', value: 'v' }] : [] };
      },
      release: () => undefined,
      on: () => undefined,
      removeListener: () => undefined,
    };
    const pool: PgPool = { connect: async () => client, end: async () => undefined, on: () => undefined };
    const debug: string[] = [];
    const store = new PgStore(pool, pgSettings('postgres://u@h/db?sslmode=disable', {}), true, false, { whenLost: 'go-on', debug: (m) => debug.push(m) });
    expect(await store.getMany(['k', 'x'])).toEqual(['v', undefined]);
    await store.write(['x', 'y']);
    expect(store.lost).toBeUndefined();
    expect(sent.map((q) => q.name)).toEqual(['vx-get', undefined, undefined]);
    expect(debug).toEqual(['translation memory: prepared statements do not hold (a pooler in transaction mode?): statements go unnamed']);
  });
});

describe.runIf(PG_URL)('PostgreSQL memory, against a server', () => {
  it('creates its schema on first use, versioned; the same keys and values as the file, NUL and all', async () => {
    const url = await freshDatabase();
    const m = await TranslationMemory.open(url);
    expect(await sql('SELECT version FROM vx_translation_memory_migrations', [], url)).toEqual([{ version: SCHEMA_VERSION }]);
    const ids = m.idsFor(keyOptions({ to: ['de'] }));
    const odd = 'a\0b\u001fc \u{1F600} é';
    m.store(ids, odd, de(`x\0y\u001fz`));
    m.store(ids, 'x'.repeat(700), de('long'));
    await m.close();
    const again = await TranslationMemory.open(url);
    expect(await again.lookupMany(ids, [odd, 'x'.repeat(700), 'none'])).toEqual([de(`x\0y\u001fz`), de('long'), undefined]);
    const file = await TranslationMemory.open(join(dir, 'same.tm'));
    expect(await again.copyTo(file)).toBe(2);
    const pairs = async (mem: TranslationMemory) => (await collect(mem.entries())).map((e) => [e.key, e.source, e.result]);
    expect(await pairs(file)).toEqual(await pairs(again));
    await file.close();
    await again.close();
  });

  it('a schema newer than this vx knows is a clear error, and nothing is changed', async () => {
    const url = await freshDatabase();
    await (await TranslationMemory.open(url)).close();
    await sql(`INSERT INTO vx_translation_memory_migrations (version) VALUES (${SCHEMA_VERSION + 1})`, [], url);
    const err = await TranslationMemory.open(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`translation memory ${url}: its schema is version ${SCHEMA_VERSION + 1}, newer than this vx knows (${SCHEMA_VERSION}): use a newer vx; nothing was changed`);
  });

  it('runs that start at once on an empty database create the schema once', async () => {
    const url = await freshDatabase();
    const all = await Promise.all([1, 2, 3, 4].map(() => TranslationMemory.open(url)));
    expect(await sql('SELECT version FROM vx_translation_memory_migrations', [], url)).toEqual([{ version: SCHEMA_VERSION }]);
    await Promise.all(all.map((m) => m.close()));
  });

  it('a read-only open of a database without a memory holds nothing and creates nothing', async () => {
    const url = await freshDatabase();
    const m = await TranslationMemory.open(url, { readOnly: true });
    expect((await m.stats()).entries).toBe(0);
    await m.close();
    expect(await sql(`SELECT to_regclass('vx_translation_memory')::text AS t`, [], url)).toEqual([{ t: null }]);
    await expect(TranslationMemory.open(url, { create: false })).rejects.toThrow(`translation memory ${url}: holds no translation memory (no vx_translation_memory table)`);
  });

  it('a role that may only read: a run looks up only, said once; a command that writes is refused', async () => {
    const url = await freshDatabase();
    const w = await TranslationMemory.open(url);
    const ids = w.idsFor(keyOptions({ to: ['de'] }));
    w.store(ids, 'Save', de('Speichern'));
    await w.close();
    const db = new URL(url).pathname.slice(1);
    await sql(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vx_test_reader') THEN CREATE ROLE vx_test_reader LOGIN; END IF; END $$`);
    await sql(`GRANT SELECT ON vx_translation_memory, vx_translation_memory_migrations TO vx_test_reader`, [], url);
    const reader = urlOf({ user: 'vx_test_reader', database: db });
    const notes: string[] = [];
    const r = await TranslationMemory.open(reader, { readOnlyRole: 'lookups-only', note: (m) => notes.push(m) });
    expect(notes).toEqual([`translation memory ${reader}: the role may only read it: lookups only, no answer of this run is stored`]);
    expect(await r.claim(ids, ['Save', 'Open'])).toEqual([{ result: de('Speichern') }, { parts: [undefined], missing: [0] }]);
    r.store(ids, 'Open', de('Öffnen'));
    await r.close();
    expect(await sql(`SELECT count(*)::int AS n FROM vx_translation_memory WHERE value IS NOT NULL AND key LIKE '%Open'`, [], url)).toEqual([{ n: 0 }]);
    await expect(TranslationMemory.open(reader)).rejects.toThrow(`translation memory ${reader}: it may only be read (the role may not write it); nothing was changed`);
  });

  it('the password is asked for only when the server wants one: from the URL or the run environment; none, a wrong one, or a role barred from the database is exit 3 naming host and port, never the password', async () => {
    const url = await freshDatabase();
    const db = new URL(url).pathname.slice(1);
    await sql(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vx_test_password') THEN CREATE ROLE vx_test_password LOGIN; END IF; END $$`);
    await sql(`ALTER ROLE vx_test_password PASSWORD 'pw-right-1'`);
    await sql(`GRANT ALL ON SCHEMA public TO vx_test_password`, [], url);
    const { hostname: host, port } = new URL(url);
    const at = (password?: string) => urlOf({ user: 'vx_test_password', password, database: db });
    await (await TranslationMemory.open(at('pw-right-1'))).close();
    await (await TranslationMemory.open(at(), { env: { PGPASSWORD: 'pw-right-1' } })).close();
    const none = await TranslationMemory.open(at(), { env: { HOME: dir, PGPASSFILE: join(dir, 'none') } }).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(AuthError);
    expect((none as Error).message).toBe(`translation memory ${at()}: PostgreSQL at ${host}:${port} asks for a password: give it in the URL, PGPASSWORD or ~/.pgpass`);
    const wrong = await TranslationMemory.open(at('pw-wrong-2')).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(AuthError);
    expect((wrong as Error).message).toBe(`translation memory ${at()}: password authentication failed for user "vx_test_password" (PostgreSQL at ${host}:${port})`);
    expect(`${(wrong as Error).message} ${(wrong as Error).stack}`).not.toContain('pw-wrong-2');
    // a role without CONNECT on the database is refused too (exit 3), not a server out of reach
    await sql(`REVOKE CONNECT ON DATABASE ${db} FROM PUBLIC`);
    const barred = await TranslationMemory.open(at('pw-right-1')).catch((e: unknown) => e);
    expect(barred).toBeInstanceOf(AuthError);
    expect((barred as Error).message).toBe(`translation memory ${at()}: permission denied for database "${db}" (PostgreSQL at ${host}:${port})`);
  });

  it.runIf(process.env.VX_TEST_PG_CA)('TLS as sslmode says: verify-full with the root certificate; disable is plain', async () => {
    const url = await freshDatabase();
    const ca = process.env.VX_TEST_PG_CA!;
    const tlsOf = async (query: string) => {
      const name = `vx-tls-${Math.random().toString(36).slice(2)}`;
      const m = await TranslationMemory.open(urlOf({ query: `${query}&application_name=${name}` }, url));
      const [row] = await sql(`SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = $1`, [name]);
      await m.close();
      return row?.ssl;
    };
    expect(await tlsOf(`?sslmode=verify-full&sslrootcert=${ca}`)).toBe(true);
    expect(await tlsOf('?sslmode=require')).toBe(true);
    expect(await tlsOf('?sslmode=disable')).toBe(false);
    // a certificate vx cannot trust: verify-full without the root
    const err = await TranslationMemory.open(urlOf({ query: '?sslmode=verify-full&sslrootcert=system' }, url)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/: the TLS certificate of 127\.0\.0\.1:\d+ is not trusted \(sslmode=verify-full\): /);
  });
});

describe.runIf(PG_URL)('PostgreSQL memory, the connection lost during a run', () => {
  let proxy: Server;
  const sockets = new Set<Socket>();
  let proxyPort = 0;
  beforeAll(async () => {
    const target = new URL(PG_URL!);
    proxy = createServer((client) => {
      const server = connect(Number(target.port), target.hostname);
      client.pipe(server).pipe(client);
      for (const s of [client, server]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => sockets.delete(s));
      }
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyPort = (proxy.address() as { port: number }).port;
  });
  afterAll(() => new Promise((r) => proxy.close(r)));

  it('a run goes on without it: lookups miss, claims are its own, answers are counted as not stored; said once', async () => {
    const url = await freshDatabase();
    const viaProxy = urlOf({}, url).replace(/:\d+\//, `:${proxyPort}/`);
    const notes: string[] = [];
    const m = await TranslationMemory.open(viaProxy, { whenLost: 'go-on', note: (n) => notes.push(n) });
    const ids = m.idsFor(keyOptions({ to: ['de'] }));
    m.store(ids, 'Save', de('Speichern'));
    await m.flush();
    // the network goes: every connection cut, none let in again
    proxy.close();
    for (const s of sockets) s.destroy();
    expect(await m.lookupMany(ids, ['Save'])).toEqual([undefined]);
    expect(await m.claim(ids, ['Open'])).toEqual([{ parts: [undefined], missing: [0] }]);
    m.store(ids, 'Open', de('Öffnen'));
    m.store(ids, 'Quit', de('Beenden'));
    await m.close();
    expect(m.lost).toMatchObject({ notStored: 2 });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(new RegExp(`^translation memory postgres://postgres@127\\.0\\.0\\.1:${proxyPort}/\\w+\\?sslmode=disable: lost \\(.+\\); the run goes on without it, sending what it would have answered$`));
  });
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

if (!PG_URL) describe.skip(`PostgreSQL memory against a server: ${NO_PG}`, () => it('skipped', () => undefined));
