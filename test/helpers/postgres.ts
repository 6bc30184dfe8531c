// The PostgreSQL server of the shared-memory tests: .ci/run starts a throwaway one and exports its
// URL as VX_TEST_PG_URL (locally: `eval "$(bash .ci/postgres.sh)"`). Without it, the tests that
// need it are skipped, saying so. Each test gets a database of its own.
import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';

/** the server's URL (a superuser, trust authentication on 127.0.0.1), when there is one */
export const PG_URL = process.env.VX_TEST_PG_URL || undefined;

/** why the PostgreSQL tests are skipped, for the skip's name */
export const NO_PG = 'needs PostgreSQL: VX_TEST_PG_URL is not set (.ci/run starts a server; locally: eval "$(bash .ci/postgres.sh)")';
// said where a run shows it (a skipped test's name is shown only by the verbose reporter)
if (!PG_URL) console.warn(`the tests of the PostgreSQL memory are skipped: ${NO_PG}`);

interface Pg {
  Client: new (o: { connectionString: string }) => { connect(): Promise<void>; query(sql: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>; end(): Promise<void> };
}

async function pg(): Promise<Pg> {
  const m = (await import('pg')) as Pg & { default?: Pg };
  return m.Client ? m : m.default!;
}

/** Runs SQL on a database of the test server (the server's own by default). */
export async function sql(text: string, values: unknown[] = [], url = PG_URL!): Promise<Record<string, unknown>[]> {
  const { Client } = await pg();
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** `url` with another user (and password) and database */
export function urlOf(opts: { user?: string; password?: string; database?: string; query?: string }, url = PG_URL!): string {
  const u = new URL(url);
  if (opts.user) u.username = opts.user;
  if (opts.password !== undefined) u.password = opts.password;
  if (opts.database) u.pathname = `/${opts.database}`;
  if (opts.query !== undefined) u.search = opts.query;
  return u.toString();
}

const made: string[] = [];
afterAll(async () => {
  if (!PG_URL) return;
  for (const db of made.splice(0)) await sql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
});

/** A new, empty database (dropped after the test file): its URL. */
export async function freshDatabase(): Promise<string> {
  const name = `vx_test_${randomBytes(6).toString('hex')}`;
  await sql(`CREATE DATABASE ${name}`);
  made.push(name);
  return urlOf({ database: name });
}
