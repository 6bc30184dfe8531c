// Stored credentials of a profile: the token (or translator key) under the family's credential
// key, the refresh token, and a small sign-in record (method, expiry, a fingerprint of the token
// it belongs to). Pure functions plus the writes through core/config; no network, no terminal.
import { createHash } from 'node:crypto';
import type { Config } from '../../core/config/index.js';
import { addSecret } from '../../core/redact.js';
import { credentialFallback, FAMILIES, oauthFamilies, type OAuthFamilyName } from '../../model/families.js';
import { credentialKey, type ServiceName } from '../service.js';

/** the families signed in to with OAuth (the registry says which) */
export type OAuthFamily = OAuthFamilyName;
export const OAUTH_FAMILIES = oauthFamilies(FAMILIES) as readonly OAuthFamily[];

export type SignInMethod = 'key' | 'browser' | 'device-code' | 'client-credentials' | 'token';

export interface SignInRecord {
  method: SignInMethod;
  /** ISO time; absent when unknown (a pasted opaque token or a key) */
  expiresAt?: string;
  /** sha256 prefix of the credential this record describes (a token set by hand is not covered) */
  fingerprint: string;
  /** the client id and tenant used, for refreshing */
  clientId?: string;
  tenant?: string;
  at: string;
}

/** An access token is treated as expired this long before its stated expiry. */
export const EXPIRY_SKEW_MS = 30_000;

export function isOAuthFamily(s: string): s is OAuthFamily {
  return (OAUTH_FAMILIES as readonly string[]).includes(s);
}

export function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

export const signInKey = (service: ServiceName) => `${service}.signIn`;
export const refreshKey = (family: OAuthFamily) => `${family}.refreshToken`;

export function parseSignIn(text: string | undefined): SignInRecord | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as SignInRecord;
    return v && typeof v === 'object' && typeof v.method === 'string' && typeof v.fingerprint === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The expiry of a JWT access token (its `exp` claim), when the token is one. */
export function jwtExpiry(token: string): Date | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { exp?: unknown };
    if (typeof payload.exp !== 'number') return undefined;
    // an exp outside what a Date can hold (1e20, -1e300) is no expiry at all, not "Invalid time value"
    const d = new Date(payload.exp * 1000);
    return Number.isFinite(d.getTime()) ? d : undefined;
  } catch {
    return undefined;
  }
}

export function isExpired(record: SignInRecord | undefined, now = Date.now()): boolean {
  if (!record?.expiresAt) return false;
  const t = Date.parse(record.expiresAt);
  return Number.isFinite(t) && t - EXPIRY_SKEW_MS <= now;
}

/** Where a profile-stored credential of `service` lives: its own key, or the one it falls back to (the registry's: lcs -> erp). */
export function storedOwner(config: Config, service: ServiceName): ServiceName | undefined {
  const p = config.profile();
  if (p[credentialKey(service)]) return service;
  const fallback = credentialFallback(service);
  return fallback && p[credentialKey(fallback)] ? fallback : undefined;
}

/** The sign-in record of the stored credential of `owner`, when it describes the stored value. */
export function storedSignIn(config: Config, owner: ServiceName): SignInRecord | undefined {
  const p = config.profile();
  const value = p[credentialKey(owner)];
  const record = parseSignIn(p[signInKey(owner)]);
  return value && record && record.fingerprint === fingerprint(value) ? record : undefined;
}

export interface Obtained {
  accessToken: string;
  /** seconds */
  expiresIn?: number;
  refreshToken?: string;
}

/** Stores a credential in the active profile (one write; a missing refresh token removes an old one). */
export async function saveCredential(
  config: Config,
  service: ServiceName,
  method: SignInMethod,
  got: Obtained,
  extra: { clientId?: string; tenant?: string; now?: number } = {},
): Promise<SignInRecord> {
  addSecret(got.accessToken);
  addSecret(got.refreshToken);
  const now = extra.now ?? Date.now();
  const stated =
    got.expiresIn !== undefined && Number.isFinite(got.expiresIn) ? new Date(now + got.expiresIn * 1000) : method === 'key' ? undefined : jwtExpiry(got.accessToken);
  // an expires_in beyond what a Date holds is no stated expiry (never "Invalid time value")
  const expiry = stated && Number.isFinite(stated.getTime()) ? stated : undefined;
  const record: SignInRecord = {
    method,
    ...(expiry ? { expiresAt: expiry.toISOString() } : {}),
    fingerprint: fingerprint(got.accessToken),
    ...(extra.clientId ? { clientId: extra.clientId } : {}),
    ...(extra.tenant ? { tenant: extra.tenant } : {}),
    at: new Date(now).toISOString(),
  };
  const values: Record<string, string | undefined> = {
    [credentialKey(service)]: got.accessToken,
    [signInKey(service)]: JSON.stringify(record),
  };
  if (isOAuthFamily(service)) values[refreshKey(service)] = got.refreshToken;
  await config.setMany(values);
  return record;
}

/** Removes the stored credentials of the given services from the active profile; returns those that had any. */
export async function removeCredentials(config: Config, services: readonly ServiceName[], dryRun = false): Promise<ServiceName[]> {
  const p = config.profile();
  const removed: ServiceName[] = [];
  const values: Record<string, undefined> = {};
  for (const s of services) {
    const keys = [credentialKey(s), signInKey(s), ...(isOAuthFamily(s) ? [refreshKey(s)] : [])];
    if (keys.some((k) => p[k] !== undefined)) removed.push(s);
    for (const k of keys) values[k] = undefined;
  }
  if (removed.length && !dryRun) await config.setMany(values);
  return removed;
}

/** What can renew an expired stored sign-in: its refresh token, or for an application sign-in the client secret at hand. */
export function renewalMeans(config: Config, owner: ServiceName, record: SignInRecord | undefined): { refreshToken?: string; clientSecret?: string } | undefined {
  if (!isOAuthFamily(owner) || !record) return undefined;
  const refreshToken = config.profile()[refreshKey(owner)];
  if (refreshToken) return { refreshToken };
  const clientSecret = record.method === 'client-credentials' ? config.get('auth.clientSecret') : undefined;
  return clientSecret ? { clientSecret } : undefined;
}
