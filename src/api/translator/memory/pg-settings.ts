// Where a PostgreSQL memory is and how to reach it, from its URL as libpq reads one:
// postgres://user[:password]@host[:port]/database[?sslmode=...] (also postgresql://). What the URL
// leaves out comes from the environment the run was given (PGUSER, PGPORT, PGDATABASE; never the
// process's own), as psql would take it: the password from the URL, else PGPASSWORD, else the
// password file (PGPASSFILE, else ~/.pgpass; ignored when others may read it, as libpq ignores it).
// TLS per sslmode, as libpq: disable, allow and prefer (TLS when the server offers it, unverified),
// require (unverified, unless a root certificate is there: then as verify-ca), verify-ca (the
// chain), verify-full (the chain and the host name). The password is never part of how the memory
// is named (`display`), and is registered as a secret (every message and trace masks it).
import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { UsageError } from '../../../core/errors.js';
import { addSecret } from '../../../core/redact.js';
import type { Env } from './checks.js';

/** whether a --memory value names a PostgreSQL memory rather than a file */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location.trim());
}

export type SslMode = 'disable' | 'allow' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';
const SSL_MODES: readonly SslMode[] = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];
/** the URL's parameters vx reads (libpq has more; one it does not know is refused, not ignored) */
const PARAMETERS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'connect_timeout', 'application_name'];

/** What the TLS handshake checks (node:tls options), or false for none. */
export type TlsOptions = false | { rejectUnauthorized: boolean; ca?: string; cert?: string; key?: string; servername?: string; checkServerIdentity?: (host: string, cert: PeerCertificate) => Error | undefined };

export interface PgSettings {
  host: string;
  port: number;
  user: string;
  database: string;
  /** the password, when the URL, PGPASSWORD or the password file has one */
  password?: string;
  sslmode: SslMode;
  /** the TLS to ask for first; `fallback`: plain when the server offers no TLS (allow, prefer) */
  tls: TlsOptions;
  fallback: boolean;
  connectTimeoutMs?: number;
  applicationName: string;
  /** the memory as messages name it: the URL without its password */
  display: string;
}

function bad(url: string, why: string): UsageError {
  return new UsageError(`translation memory ${url}: ${why}`);
}

/** The URL without the password (the one thing of it never shown). */
function withoutPassword(raw: string): string {
  return raw.trim().replace(/^(postgres(?:ql)?:\/\/)([^@/?#]*)@/i, (_, scheme: string, info: string) => `${scheme}${info.split(':')[0]}@`);
}

/** Reads a --memory URL (see the top of this file); a malformed one is a usage error naming it (without its password). */
export function pgSettings(raw: string, env: Env = {}): PgSettings {
  const shown = withoutPassword(raw);
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw bad(shown, 'not a valid URL (postgres://user@host:port/database?sslmode=require)');
  }
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw bad(shown, 'a %-escape in it is not valid');
    }
  };
  for (const k of u.searchParams.keys()) if (!PARAMETERS.includes(k)) throw bad(shown, `unknown parameter ${k} (vx reads ${PARAMETERS.join(', ')})`);
  const host = decode(u.hostname).replace(/^\[(.*)\]$/, '$1') || env.PGHOST || 'localhost';
  if (host.startsWith('/')) throw bad(shown, 'a Unix socket is not supported: give a host name or address');
  const portText = u.port || env.PGPORT || '5432';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) throw bad(shown, `invalid port ${portText}`);
  const user = decode(u.username) || env.PGUSER || osUser();
  const database = decode(u.pathname.replace(/^\//, '')) || env.PGDATABASE || user;
  const sslmode = (u.searchParams.get('sslmode') ?? env.PGSSLMODE ?? 'prefer') as SslMode;
  if (!SSL_MODES.includes(sslmode)) throw bad(shown, `invalid sslmode ${sslmode} (one of ${SSL_MODES.join(', ')})`);
  const timeout = u.searchParams.get('connect_timeout') ?? env.PGCONNECT_TIMEOUT;
  if (timeout !== undefined && !/^\d+$/.test(timeout)) throw bad(shown, `invalid connect_timeout ${timeout} (whole seconds)`);
  const password = (u.password ? decode(u.password) : undefined) ?? (env.PGPASSWORD || undefined) ?? passwordFile(env, { host, port, database, user });
  addSecret(password);
  const settings: PgSettings = {
    host,
    port,
    user,
    database,
    password,
    sslmode,
    tls: false,
    fallback: sslmode === 'allow' || sslmode === 'prefer',
    connectTimeoutMs: timeout === undefined || timeout === '0' ? undefined : Number(timeout) * 1000,
    applicationName: u.searchParams.get('application_name') ?? 'vx',
    display: shown,
  };
  settings.tls = tlsOptions(settings, u.searchParams, env, shown);
  return settings;
}

/** Whether two URLs name one database (the same host, port and database, whoever connects and however). */
export function sameDatabase(a: string, b: string, env: Env = {}): boolean {
  const at = (url: string) => {
    const s = pgSettings(url, env);
    return `${s.host.toLowerCase()}:${s.port}/${s.database}`;
  };
  return at(a) === at(b);
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'postgres';
  }
}

function home(env: Env): string {
  return env.HOME || homedir();
}

/** A file the URL names for TLS, read (a missing one is a usage error naming it). */
function readTlsFile(shown: string, what: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw bad(shown, `cannot read ${what} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** The TLS options of sslmode (see the top of this file). */
function tlsOptions(s: PgSettings, q: URLSearchParams, env: Env, shown: string): TlsOptions {
  if (s.sslmode === 'disable') return false;
  const client = {
    ...(q.get('sslcert') ? { cert: readTlsFile(shown, 'sslcert', q.get('sslcert')!) } : {}),
    ...(q.get('sslkey') ? { key: readTlsFile(shown, 'sslkey', q.get('sslkey')!) } : {}),
  };
  // sslrootcert=system: the system's roots (Node's); else the file, else ~/.postgresql/root.crt when there
  const rootPath = q.get('sslrootcert') ?? env.PGSSLROOTCERT ?? join(home(env), '.postgresql', 'root.crt');
  const given = q.get('sslrootcert') !== null || env.PGSSLROOTCERT !== undefined;
  const hasRoot = rootPath !== 'system' && (given || isFile(rootPath));
  const ca = hasRoot ? readTlsFile(shown, 'sslrootcert', rootPath) : undefined;
  if (s.sslmode === 'allow' || s.sslmode === 'prefer' || (s.sslmode === 'require' && !ca)) return { rejectUnauthorized: false, ...client };
  if (s.sslmode === 'verify-full') {
    // the name checked is the host's (an address is checked against the certificate's addresses;
    // TLS sends no address as a server name)
    const name = isIP(s.host) ? { checkServerIdentity: (_: string, cert: PeerCertificate) => checkServerIdentity(s.host, cert) } : { servername: s.host };
    return { rejectUnauthorized: true, ...(ca ? { ca } : {}), ...name, ...client };
  }
  // verify-ca (and require with a root certificate): the chain, not the name
  return { rejectUnauthorized: true, ...(ca ? { ca } : {}), checkServerIdentity: () => undefined, ...client };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The password the password file holds for this connection (libpq's rules: lines
 * host:port:database:user:password, `*` matches anything, `\` escapes `:` and `\`, the first
 * line that matches wins; a file others may read or write is ignored).
 */
export function passwordFile(env: Env, want: { host: string; port: number; database: string; user: string }): string | undefined {
  const path = env.PGPASSFILE || join(home(env), '.pgpass');
  let text: string;
  try {
    const st = statSync(path);
    if (!st.isFile() || (process.platform !== 'win32' && st.mode & 0o077)) return undefined;
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const wanted = [want.host, String(want.port), want.database, want.user];
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    const fields = splitFields(line);
    if (fields.length < 5) continue;
    if (wanted.every((w, i) => fields[i] === '*' || fields[i] === w)) return fields[4];
  }
  return undefined;
}

function splitFields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && i + 1 < line.length) cur += line[++i];
    else if (c === ':' && out.length < 4) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}
