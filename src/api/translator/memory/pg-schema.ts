// The PostgreSQL memory's tables, created on first use and versioned: vx_translation_memory holds
// the entries (and the claims of the texts runs are translating), vx_translation_memory_migrations
// the schema versions applied. A first use creates them, under an advisory lock (runs starting at
// once on an empty database do it once); a database whose schema is newer than this vx knows is
// refused, never changed.
import { UsageError } from '../../../core/errors.js';
import type { PgClient } from './pg-driver.js';

export const TABLE = 'vx_translation_memory';
export const MIGRATIONS = 'vx_translation_memory_migrations';

/**
 * The steps of each schema version. Version 1: one row per key (key.ts: the kind, the options id,
 * the text or its hash), the value (codec.ts; NUL written as U+001F 0, see store-pg.ts), or, while a
 * run translates the text, no value but the run's claim and the end of its lease.
 */
const STEPS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE ${TABLE} (
      key text COLLATE "C" PRIMARY KEY,
      value text,
      claimed_by text,
      lease_until timestamptz,
      CONSTRAINT ${TABLE}_value_or_claim CHECK (value IS NOT NULL OR (claimed_by IS NOT NULL AND lease_until IS NOT NULL))
    )`,
    `COMMENT ON TABLE ${TABLE} IS 'vx translation memory: one row per (source text, target and options); see vx docs/translate.md'`,
  ],
];

/** the schema version this vx reads and writes */
export const SCHEMA_VERSION = STEPS.length;

/** the advisory lock first uses take turns on ('vx', 1) */
const LOCK = [0x7678, 1];

export interface SchemaState {
  /** the memory's table is there (a read-only open of a database without one: it holds nothing) */
  exists: boolean;
  /** the role may write it (insert, update, delete) */
  writable: boolean;
  version: number;
}

function bad(display: string, why: string): UsageError {
  return new UsageError(`translation memory ${display}: ${why}`);
}

async function versionOf(c: PgClient, display: string): Promise<{ version: number; table: boolean }> {
  const { rows } = await c.query(`SELECT to_regclass($1) IS NOT NULL AS m, to_regclass($2) IS NOT NULL AS t`, [MIGRATIONS, TABLE]);
  const { m, t } = rows[0] as { m: boolean; t: boolean };
  if (!m && t) throw bad(display, `a table ${TABLE} that vx did not make is in the way; vx does not change it`);
  if (!m) return { version: 0, table: false };
  const v = await c.query(`SELECT coalesce(max(version), 0) AS v FROM ${MIGRATIONS}`);
  return { version: Number((v.rows[0] as { v: number }).v), table: t };
}

/**
 * Creates or upgrades the tables unless `readOnly`, and says what is there. A newer schema is a
 * usage error; a role that may not create tables is told so in one line.
 */
export async function prepareSchema(c: PgClient, display: string, opts: { readOnly?: boolean; create?: boolean }): Promise<SchemaState> {
  let { version, table } = await versionOf(c, display);
  if (version > SCHEMA_VERSION) throw bad(display, `its schema is version ${version}, newer than this vx knows (${SCHEMA_VERSION}): use a newer vx; nothing was changed`);
  if (version < SCHEMA_VERSION) {
    if (opts.readOnly && version === 0) return { exists: false, writable: false, version };
    if (opts.readOnly) throw bad(display, `its schema is version ${version}, older than this vx reads (${SCHEMA_VERSION}): a run that writes it upgrades it`);
    if (opts.create === false && version === 0) throw bad(display, `holds no translation memory (no ${TABLE} table)`);
    version = await migrate(c, display);
    table = true;
  }
  const { rows } = await c.query(`SELECT has_table_privilege($1, 'INSERT') AND has_table_privilege($1, 'UPDATE') AND has_table_privilege($1, 'DELETE') AS w`, [TABLE]);
  return { exists: table, writable: (rows[0] as { w: boolean }).w === true, version };
}

/** Applies the missing steps in one transaction, under the advisory lock; returns the version now there. */
async function migrate(c: PgClient, display: string): Promise<number> {
  try {
    await c.query('BEGIN');
    await c.query('SELECT pg_advisory_xact_lock($1, $2)', LOCK);
    await c.query(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL DEFAULT current_user)`);
    // another run may have done it while this one waited for the lock
    const { version } = await versionOf(c, display);
    if (version > SCHEMA_VERSION) throw bad(display, `its schema is version ${version}, newer than this vx knows (${SCHEMA_VERSION}): use a newer vx; nothing was changed`);
    for (let v = version + 1; v <= SCHEMA_VERSION; v++) {
      for (const sql of STEPS[v - 1]) await c.query(sql);
      await c.query(`INSERT INTO ${MIGRATIONS} (version) VALUES ($1)`, [v]);
    }
    await c.query('COMMIT');
    return SCHEMA_VERSION;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    if ((e as { code?: string }).code === '42501') {
      throw bad(display, `cannot create its tables: ${(e as Error).message} (a role that may create tables makes them once: see "A memory for a team" in docs/translate.md)`);
    }
    throw e;
  }
}
