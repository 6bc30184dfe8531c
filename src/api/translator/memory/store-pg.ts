// The translation memory's shared store: PostgreSQL, through node-postgres (the `pg` package,
// loaded only when such a memory is used), so that every machine of a team (CI runners, laptops)
// pays once for a text. The same keys and values as the embedded store (key.ts, codec.ts), in one
// table (pg-schema.ts): a row per key, its value, or, while a run translates it, the run's claim
// and its lease instead (store.ts's contract). Every operation is one statement, one round trip
// for a whole batch (`= ANY($1)`, a multi-row INSERT ... ON CONFLICT over unnest), through a pool
// of a few connections; the lease is measured by the server's clock, the same for every machine.
//
// A memory that goes away during a run (the network, a restart of the server) does not stop the
// run when it was opened to go on without it (`whenLost: 'go-on'`, for translation runs): it is
// then a memory that holds nothing and keeps nothing, the texts are sent as without a memory, and
// the answers it could not store are counted (see lost). The memory commands fail instead.
import { AuthError, UnavailableError, UsageError, isVxError } from '../../../core/errors.js';
import type { Env } from './checks.js';
import { ownerGone } from './claims.js';
import { pgSettings, type PgSettings, type TlsOptions } from './pg-settings.js';
import { prepareSchema, TABLE } from './pg-schema.js';
import type { ClaimState, MemoryStore, StoredPair } from './store.js';
import type { PgClient, PgModule, PgPool, PgResult } from './pg-driver.js';


/** connections at most (a run asks for lookups, claims and writes at once: one each, and one for renewals) */
export const POOL_MAX = 4;
/** how long a connection may take before the memory counts as unreachable (connect_timeout overrides it) */
const CONNECT_TIMEOUT_MS = 10_000;
/** how long one statement may take before its connection counts as lost */
const QUERY_TIMEOUT_MS = 60_000;
/** pairs a scan reads at once */
const PAGE = 1000;

/**
 * PostgreSQL's text holds no NUL, which the memory's values (and its format mark's key) hold: NUL
 * is written as ESC 0 and ESC itself as ESC f (ESC: U+001F, the unit separator).
 */
const ESC = '\u001f';
const NEEDS_ESCAPE = /[\0\u001f]/;
const escapeText = (s: string): string => (NEEDS_ESCAPE.test(s) ? s.replace(/[\0\u001f]/g, (c) => (c === '\0' ? `${ESC}0` : `${ESC}f`)) : s);
const unescapeText = (s: string): string => (s.includes(ESC) ? s.replace(/\u001f([0f])/g, (_, c: string) => (c === '0' ? '\0' : ESC)) : s);

export interface OpenPgOptions {
  readOnly?: boolean;
  /** false: a database without a memory is an error, not a new memory (prune) */
  create?: boolean;
  env?: Env;
  /** 'go-on': a memory lost during a run is then one that holds nothing (see the top of this file) */
  whenLost?: 'fail' | 'go-on';
  /** says something once (a role that may only read; the memory lost during the run) */
  note?: (message: string) => void;
  /** a line of the --debug trace */
  debug?: (message: string) => void;
}

/** Errors that mean the connection is gone (or never came): class 08, a server shutting down, the socket's. */
function connectionLost(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string' && (/^08/.test(code) || ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code))) return true;
  return /Connection terminated|connection timeout|timeout exceeded|Query read timeout|Client has encountered a connection error/i.test((e as Error)?.message ?? '');
}

/** a deadlock or a serialization failure: the statement may simply run again */
const transient = (e: unknown) => ['40P01', '40001'].includes((e as { code?: string })?.code ?? '');

/** The reason of an error in a few words (the socket's code, the server's message). */
function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { code?: string };
  const byCode: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ENOTFOUND: 'no such host',
    EAI_AGAIN: 'no such host (DNS did not answer)',
  };
  const m = (err?.message ?? String(e)).replace(/\s+/g, ' ').trim();
  return (err?.code && byCode[err.code]) || m || 'unknown error';
}

/** What a failure to connect says: one line naming the memory, the host and the port, with the exit code of its kind. */
function connectError(s: PgSettings, e: unknown): Error {
  if (isVxError(e)) return e;
  const at = `${s.host}:${s.port}`;
  const code = (e as { code?: string })?.code ?? '';
  const say = (why: string) => `translation memory ${s.display}: ${why}`;
  // the password or the role refused (28...), or a role without CONNECT on the database (42501)
  if (/^28/.test(code) || code === '42501') return new AuthError(say(`${reason(e)} (PostgreSQL at ${at})`));
  if (code === '3D000') return new UsageError(say(`${reason(e)} (PostgreSQL at ${at})`));
  if (/does not support SSL/i.test((e as Error)?.message ?? '')) return new UsageError(say(`the server at ${at} offers no TLS, which sslmode=${s.sslmode} asks for`));
  if (/certificate|self.signed|altnames|Hostname\/IP/i.test((e as Error)?.message ?? '')) return new UsageError(say(`the TLS certificate of ${at} is not trusted (sslmode=${s.sslmode}): ${reason(e)}`));
  return new UnavailableError(say(`cannot reach PostgreSQL at ${at}: ${reason(e)}`));
}

async function loadPg(display: string): Promise<PgModule> {
  try {
    const mod = (await import('pg')) as unknown as PgModule & { default?: PgModule };
    return mod.Pool ? mod : mod.default!;
  } catch (e) {
    throw new UsageError(`translation memory ${display}: the PostgreSQL client (pg) cannot be loaded: ${(e as Error).message}`);
  }
}

/** node-postgres's settings of a connection: every one given (so that it reads none of the process's PG* variables). */
function clientConfig(s: PgSettings, tls: TlsOptions): Record<string, unknown> {
  return {
    host: s.host,
    port: s.port,
    user: s.user,
    database: s.database,
    // asked for only when the server wants one
    password: async () => {
      if (s.password === undefined) throw new AuthError(`translation memory ${s.display}: PostgreSQL at ${s.host}:${s.port} asks for a password: give it in the URL, PGPASSWORD or ~/.pgpass`);
      return s.password;
    },
    ssl: tls,
    application_name: s.applicationName,
    client_encoding: 'UTF8',
    connectionTimeoutMillis: s.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
  };
}

function newPool(pg: PgModule, s: PgSettings, tls: TlsOptions): PgPool {
  const pool = new pg.Pool({ ...clientConfig(s, tls), max: POOL_MAX, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
  // an idle connection the server closed: the pool drops it, the next statement opens another
  pool.on('error', () => undefined);
  return pool;
}

/** Sorted, without repeats: every statement takes its rows' locks in one order (two runs never deadlock on them). */
const sortedUnique = (keys: readonly string[]): string[] => [...new Set(keys)].sort();

const SQL = {
  get: `SELECT key, value FROM ${TABLE} WHERE key = ANY($1::text[]) AND value IS NOT NULL`,
  write: `WITH gone AS (DELETE FROM ${TABLE} WHERE key = ANY($3::text[]))
    INSERT INTO ${TABLE} (key, value) SELECT * FROM unnest($1::text[], $2::text[])
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, claimed_by = NULL, lease_until = NULL`,
  claim: `WITH taken AS (
      INSERT INTO ${TABLE} AS m (key, claimed_by, lease_until)
      SELECT k, $2, now() + $3 * interval '1 millisecond' FROM unnest($1::text[]) AS k
      ON CONFLICT (key) DO UPDATE SET claimed_by = excluded.claimed_by, lease_until = excluded.lease_until
      WHERE m.value IS NULL AND (m.claimed_by = excluded.claimed_by OR m.lease_until <= now() OR m.claimed_by = ANY($4::text[]))
      RETURNING m.key)
    SELECT key, NULL AS value, NULL AS owner FROM taken
    UNION ALL SELECT key, value, NULL FROM ${TABLE} WHERE key = ANY($1::text[]) AND value IS NOT NULL
    UNION ALL SELECT key, NULL, claimed_by FROM ${TABLE} WHERE key = ANY($1::text[]) AND value IS NULL AND key NOT IN (SELECT key FROM taken)`,
  release: `DELETE FROM ${TABLE} WHERE key = ANY($1::text[]) AND value IS NULL AND claimed_by = $2`,
  scan: `SELECT key, value FROM ${TABLE} WHERE key >= $1 AND key < $2 AND value IS NOT NULL ORDER BY key LIMIT ${PAGE}`,
  scanOn: `SELECT key, value FROM ${TABLE} WHERE key > $1 AND key < $2 AND value IS NOT NULL ORDER BY key LIMIT ${PAGE}`,
  hasKeys: `SELECT EXISTS (SELECT 1 FROM ${TABLE} WHERE value IS NOT NULL) AS e`,
  bytes: `SELECT pg_total_relation_size(to_regclass('${TABLE}'))::text AS b`,
};

/** The PostgreSQL store of a memory (see openPgStore). */
export class PgStore implements MemoryStore {
  /**
   * why the memory was lost during the run (whenLost 'go-on'), the answers it did not store since,
   * and how many of those were being written as it was lost (and may be stored after all)
   */
  lost?: { reason: string; notStored: number; perhapsStored: number };

  constructor(
    private readonly pool: PgPool,
    private readonly s: PgSettings,
    /** the table exists (a read-only open of a database without a memory has none: it holds nothing) */
    private readonly exists: boolean,
    /** the role may only read the memory */
    readonly readOnly: boolean,
    private readonly opts: OpenPgOptions,
  ) {}

  get path(): string {
    return this.s.display;
  }

  /**
   * statements go unnamed: a pooler in transaction mode (PgBouncer before 1.21, or without
   * max_prepared_statements) sends each statement to whichever server connection is free, where a
   * name this connection prepared is unknown (26000) or another's is already there (42P05)
   */
  private unnamed = false;

  /** Whether `e` says the statement's name did not hold (see unnamed): from now on they go unnamed. */
  private namesDidNotHold(e: unknown): boolean {
    if (this.unnamed || !['26000', '42P05'].includes((e as { code?: string })?.code ?? '')) return false;
    this.unnamed = true;
    this.opts.debug?.('translation memory: prepared statements do not hold (a pooler in transaction mode?): statements go unnamed');
    return true;
  }

  /**
   * Runs a statement (prepared once per connection, unless names do not hold: see unnamed), once
   * more when the connection broke or it deadlocked. A failure says whether the statement may have
   * been applied (`maybeApplied`): it was sent and the connection broke before the answer.
   */
  private async run(name: string, text: string, values: unknown[]): Promise<PgResult> {
    let sent = false;
    const once = async () => {
      const client = await this.pool.connect();
      // a connection that breaks under a statement also says so as an event: the statement's failure tells it
      const quiet = () => undefined;
      client.on('error', quiet);
      try {
        sent = true;
        const r = await client.query(this.unnamed ? { text, values } : { name, text, values });
        client.removeListener('error', quiet);
        client.release();
        return r;
      } catch (e) {
        // a broken connection leaves the pool
        if (connectionLost(e)) client.release(e as Error);
        else {
          client.removeListener('error', quiet);
          client.release();
        }
        throw e;
      }
    };
    let maybeApplied = false;
    try {
      return await once();
    } catch (e) {
      maybeApplied = sent && connectionLost(e);
      if (!connectionLost(e) && !transient(e) && !this.namesDidNotHold(e)) throw e;
      sent = false;
      try {
        return await once();
      } catch (e2) {
        if (e2 && typeof e2 === 'object') (e2 as { maybeApplied?: boolean }).maybeApplied = maybeApplied || (sent && connectionLost(e2));
        throw e2;
      }
    }
  }

  /**
   * Runs an operation of a run: a failure loses the memory (whenLost 'go-on': `orElse` answers,
   * given the failure when it is this operation's) or is the command's error (one line naming the
   * host and port, exit 7).
   */
  private async guarded<T>(op: () => Promise<T>, orElse: (failure?: unknown) => T): Promise<T> {
    if (this.lost) return orElse();
    try {
      return await op();
    } catch (e) {
      if (this.opts.whenLost !== 'go-on') throw this.failure(e);
      if (!this.lost) {
        this.lost = { reason: reason(e), notStored: 0, perhapsStored: 0 };
        this.opts.note?.(`translation memory ${this.path}: lost (${this.lost.reason}); the run goes on without it, sending what it would have answered`);
      }
      return orElse(e);
    }
  }

  private failure(e: unknown): Error {
    if (isVxError(e)) return e;
    if (connectionLost(e)) return new UnavailableError(`translation memory ${this.path}: lost the connection to PostgreSQL at ${this.s.host}:${this.s.port}: ${reason(e)}`);
    return new UnavailableError(`translation memory ${this.path}: PostgreSQL at ${this.s.host}:${this.s.port} failed: ${reason(e)}`);
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    const none = () => new Array<string | undefined>(keys.length).fill(undefined);
    if (!this.exists || !keys.length) return none();
    return this.guarded(async () => {
      const { rows } = await this.run('vx-get', SQL.get, [keys.map(escapeText)]);
      if (!rows.length) return none();
      const found = new Map<string, string>();
      for (const r of rows) found.set(unescapeText(r.key as string), unescapeText(r.value as string));
      return keys.map((k) => found.get(k));
    }, none);
  }

  async write(batch: readonly (string | undefined)[]): Promise<void> {
    // the last write of each key wins, as in a transaction that makes them one by one
    const last = new Map<string, string | undefined>();
    for (let i = 0; i < batch.length; i += 2) last.set(batch[i]!, batch[i + 1]);
    const puts: string[] = [];
    const gone: string[] = [];
    for (const k of [...last.keys()].sort()) (last.get(k) === undefined ? gone : puts).push(k);
    const lostAnswers = (failure?: unknown) => {
      // entries (\x01, \x03 keys), not the options records nor the mark
      const n = puts.filter((k) => k[0] === '\u0001' || k[0] === '\u0003').length;
      this.lost!.notStored += n;
      if ((failure as { maybeApplied?: boolean } | undefined)?.maybeApplied) this.lost!.perhapsStored += n;
    };
    await this.guarded(async () => {
      await this.run('vx-write', SQL.write, [puts.map(escapeText), puts.map((k) => escapeText(last.get(k)!)), gone.map(escapeText)]);
    }, lostAnswers);
  }

  async flushed(): Promise<void> {
    // a statement that returned is committed and durable (synchronous_commit)
  }

  async claim(keys: readonly string[], owner: string, leaseMs: number, writes?: readonly (string | undefined)[]): Promise<ClaimState[]> {
    // (the writes go first, in a statement of their own)
    if (writes?.length) await this.write(writes);
    const mine = (): ClaimState[] => keys.map(() => 'claimed');
    if (!keys.length) return [];
    const lease = Math.max(0, Math.round(leaseMs));
    return this.guarded(async () => {
      const state = new Map<string, ClaimState>();
      const held = new Map<string, string[]>();
      const take = async (which: readonly string[], gone: readonly string[]) => {
        const { rows } = await this.run('vx-claim', SQL.claim, [which.map(escapeText), owner, lease, gone]);
        for (const r of rows) {
          const key = unescapeText(r.key as string);
          if (r.owner !== null) (held.get(r.owner as string) ?? held.set(r.owner as string, []).get(r.owner as string)!).push(key);
          else state.set(key, r.value === null ? 'claimed' : { value: unescapeText(r.value as string) });
        }
      };
      await take(sortedUnique(keys), []);
      // the claims of a process of this machine that no longer runs are taken over at once (claims.ts: ownerGone)
      const gone = [...held.keys()].filter(ownerGone);
      if (gone.length) await take(sortedUnique(gone.flatMap((o) => held.get(o)!)), gone);
      return keys.map((k) => state.get(k) ?? 'held');
    }, mine);
  }

  async release(keys: readonly string[], owner: string): Promise<void> {
    if (!keys.length) return;
    await this.guarded(async () => {
      await this.run('vx-release', SQL.release, [sortedUnique(keys).map(escapeText), owner]);
    }, () => undefined);
  }

  async *scan(start: string, end: string): AsyncGenerator<readonly StoredPair[]> {
    if (!this.exists) return;
    // by key, a page after the last key read: removals behind it (prune) change nothing ahead
    let after: string | undefined;
    for (;;) {
      const from = escapeText(after ?? start);
      const { rows } = await this.guarded(
        () => this.run(after === undefined ? 'vx-scan' : 'vx-scan-on', after === undefined ? SQL.scan : SQL.scanOn, [from, escapeText(end)]),
        () => ({ rows: [] }) as PgResult,
      );
      if (!rows.length) return;
      const page = rows.map((r) => ({ key: unescapeText(r.key as string), value: unescapeText(r.value as string) }));
      yield page;
      if (rows.length < PAGE) return;
      after = page[page.length - 1].key;
    }
  }

  async hasKeys(): Promise<boolean> {
    if (!this.exists) return false;
    return this.guarded(async () => (await this.run('vx-has-keys', SQL.hasKeys, [])).rows[0]?.e === true, () => false);
  }

  async bytes(): Promise<number> {
    if (!this.exists) return 0;
    return this.guarded(async () => Number((await this.run('vx-bytes', SQL.bytes, [])).rows[0]?.b ?? 0), () => 0);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/**
 * Opens the memory in the PostgreSQL database `url` names: connects (a failure is one line naming
 * the host and port: exit 7 when it cannot be reached, 3 when the server refuses the user, 2 for
 * what the URL got wrong), creates or upgrades its tables unless read-only, and finds out whether
 * the role may write it.
 */
export async function openPgStore(url: string, opts: OpenPgOptions = {}): Promise<PgStore> {
  const s = pgSettings(url, opts.env);
  const pg = await loadPg(s.display);
  // the first connection on its own (the pool's come later): one that fails is closed at once, never
  // left waiting on a server that asked for a password none could give
  let tls = s.tls;
  let client: PgClient;
  try {
    client = await connectOnce(pg, s, tls);
  } catch (e) {
    // allow, prefer: plain when the server offers no TLS
    if (!s.fallback || !/does not support SSL/i.test((e as Error)?.message ?? '')) throw connectError(s, e);
    tls = false;
    try {
      client = await connectOnce(pg, s, tls);
    } catch (e2) {
      throw connectError(s, e2);
    }
  }
  let schema;
  try {
    schema = await prepareSchema(client, s.display, opts);
  } catch (e) {
    throw connectionLost(e) ? connectError(s, e) : e;
  } finally {
    await client.end().catch(() => undefined);
  }
  const { exists, writable, version } = schema;
  opts.debug?.(`translation memory: PostgreSQL at ${s.host}:${s.port}, database ${s.database}, user ${s.user}, ${tls ? 'TLS' : 'no TLS'} (sslmode=${s.sslmode}), schema version ${version}${writable ? '' : ', read only'}`);
  return new PgStore(newPool(pg, s, tls), s, exists, !writable, opts);
}

/** One connection outside the pool; on failure its socket is closed. */
async function connectOnce(pg: PgModule, s: PgSettings, tls: TlsOptions): Promise<PgClient> {
  const client = new pg.Client(clientConfig(s, tls));
  // (an error after connect, on a connection about to be closed, has nobody to tell)
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (e) {
    client.connection?.stream?.destroy();
    await client.end().catch(() => undefined);
    throw e;
  }
}
