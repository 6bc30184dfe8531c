// `vx auth status`: per family, whether and how the profile is signed in, where the credential
// comes from and when it expires (never the credential itself); with --check, each one tried.
import { statSync } from 'node:fs';
import type { Config } from '../../core/config/index.js';
import { isVxError } from '../../core/errors.js';
import type { Http } from '../../core/http/index.js';
import { credentialNoun, familyOf } from '../../model/families.js';
import { credentialKey, type ServiceName } from '../service.js';
import { credential } from './authenticator.js';
import { isExpired, jwtExpiry, parseSignIn, renewalMeans, storedOwner, storedSignIn } from './credentials.js';
import { answered, verifyCredential } from './verify.js';

export interface StatusRow {
  service: ServiceName;
  /** with --check, what the check found: 'refused' when the service refused the credential */
  status: 'signed in' | 'expired' | 'not signed in' | 'refused';
  method: string | null;
  expiresAt: string | null;
  renewable: boolean;
  source: string | null;
  storage: string | null;
  /** with --check: ok, refused (HTTP 401), or why it could not be checked */
  check?: string;
}

/** A credential from the environment (or a flag): a token's expiry is read from the token itself. */
function environmentRow(base: StatusRow, r: { value: string; source: string; origin?: string }): StatusRow {
  const noun = credentialNoun(familyOf(base.service));
  const exp = noun === 'key' ? undefined : jwtExpiry(r.value);
  const expired = exp ? exp.getTime() <= Date.now() : false;
  return {
    ...base,
    status: expired ? 'expired' : 'signed in',
    method: noun,
    expiresAt: exp?.toISOString() ?? null,
    source: r.source === 'env' ? `env ${r.origin}` : r.source,
    storage: 'environment',
  };
}

export function statusRows(config: Config, services: readonly ServiceName[]): StatusRow[] {
  return services.map((service): StatusRow => {
    const r = config.resolve(credentialKey(service));
    const base: StatusRow = { service, status: 'not signed in', method: null, expiresAt: null, renewable: false, source: null, storage: null };
    if (!r) return base;
    if (r.source !== 'profile') return environmentRow(base, r);
    const owner = storedOwner(config, service) ?? service;
    const record = storedSignIn(config, owner);
    const renewable = Boolean(renewalMeans(config, owner, record));
    return {
      ...base,
      status: isExpired(record) ? 'expired' : 'signed in',
      method: record?.method ?? credentialNoun(familyOf(service)),
      expiresAt: record?.expiresAt ?? null,
      renewable,
      source: `profile "${config.profileName()}"${owner !== service ? ` (${owner} token)` : ''}`,
      storage: `file ${config.path}`,
    };
  });
}

/**
 * `status --check`: each credential tried with its family's probe; the row's status follows what
 * the check found. Returns the first failure that
 * was not an answer (no connection, a timeout, a 5xx), to end with after the table is printed.
 */
export async function checkRows(config: Config, http: Http, rows: StatusRow[]): Promise<unknown> {
  let failure: unknown;
  await Promise.all(
    rows.map(async (row) => {
      if (row.status === 'not signed in') return void (row.check = 'not signed in');
      try {
        const v = await verifyCredential(http, config, row.service, await credential(config, row.service, http));
        row.check = v.accepted ? `ok (${answered(v)})` : `refused (${answered(v)})`;
        // the status says what the check found: a refused credential is not "signed in", and an
        // expired sign-in the check renewed is signed in again, until its new expiry
        if (!v.accepted) row.status = 'refused';
        else if (row.status === 'expired') Object.assign(row, statusRows(config, [row.service])[0], { check: row.check });
      } catch (e) {
        row.check = `not checked: ${isVxError(e) ? e.message : String(e)}`;
        failure ??= e;
      }
    }),
  );
  return failure;
}

/** The permission bits of the config file and its directory, when the file exists. */
export function storageModes(path: string, dir: string): { file: number; dir: number } | undefined {
  try {
    return { file: statSync(path).mode & 0o777, dir: statSync(dir).mode & 0o777 };
  } catch {
    return undefined;
  }
}

/**
 * The credential records `vx auth login` keeps in a profile (a sign-in record, a refresh token),
 * one line per family: how it signed in, until when, and whether it can renew; never the values.
 */
export function signInRows(stored: Record<string, string>): { key: string; value: string; source: string }[] {
  const rows: { key: string; value: string; source: string }[] = [];
  for (const family of new Set(Object.keys(stored).filter((k) => /\.(signIn|refreshToken)$/.test(k)).map((k) => k.split('.')[0]!))) {
    const record = parseSignIn(stored[`${family}.signIn`]);
    const parts = [record?.method ?? 'signed in'];
    const at = record?.expiresAt ? Date.parse(record.expiresAt) : NaN;
    if (Number.isFinite(at)) parts.push(`${at <= Date.now() ? 'expired' : 'until'} ${new Date(at).toISOString().slice(0, 16).replace('T', ' ')}Z`);
    if (stored[`${family}.refreshToken`] !== undefined) parts.push('renewable');
    rows.push({ key: `${family} sign-in`, value: parts.join(', '), source: 'auth login' });
  }
  return rows;
}
