// API version sets (api-version 2024-05-01): list, get (with its ETag), create or replace (PUT),
// update as read + merge + PUT with If-Match, and delete with If-Match.
import { ConflictError, UsageError, VxError } from '../../core/errors.js';
import type { QueryValue } from '../../core/url.js';
import type { VersioningScheme } from '../../model/mgmt.js';
import { seg, type MgmtClient } from './client.js';
import { checkSegment } from './validate.js';

export interface VersionSetProps {
  displayName?: string;
  versioningScheme?: VersioningScheme | string;
  description?: string;
  versionHeaderName?: string;
  versionQueryName?: string;
  [k: string]: unknown;
}

export interface VersionSet {
  id?: string;
  name?: string;
  type?: string;
  properties?: VersionSetProps;
  [k: string]: unknown;
}

export interface ServiceScope {
  subscription: string;
  resourceGroup: string;
  service: string;
}

/** the placeholder used in --dry-run where the ETag of a fresh read would go */
export const ETAG_PLACEHOLDER = '<ETag of a fresh GET>';

export function versionSetUrl(c: MgmtClient, s: ServiceScope, id?: string, query: Record<string, QueryValue> = {}): string {
  const path = `/subscriptions/${seg(s.subscription)}/resourceGroups/${seg(s.resourceGroup)}/providers/${c.provider('versionSets')}/service/${seg(s.service)}/apiVersionSets${id === undefined ? '' : `/${seg(id)}`}`;
  return c.url('versionSets', path, query);
}

export function listVersionSets(c: MgmtClient, s: ServiceScope, q: { filter?: string; top?: number; skip?: number }): AsyncGenerator<VersionSet> {
  return c.list<VersionSet>(versionSetUrl(c, s, undefined, { $filter: q.filter, $top: q.top, $skip: q.skip }), q.top);
}

export async function getVersionSet(c: MgmtClient, s: ServiceScope, id: string): Promise<{ body: VersionSet; etag?: string }> {
  const res = await c.send({ method: 'GET', url: versionSetUrl(c, s, id) });
  return { body: res.json<VersionSet>(), etag: res.headers.etag };
}

/** A stale ETag (412, or 409) becomes a conflict that says what happened. */
async function conflictMessage<T>(id: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ConflictError) {
      throw new ConflictError(`the version set ${id} was changed by someone else since its ETag was read; it was left as it was. Read it again and retry (${e.message})`, {
        status: e.status,
        code: e.code,
        requestId: e.requestId,
      });
    }
    throw e;
  }
}

/** PUT: creates (201) or replaces (200). With `ifMatch` only when the ETag still matches. */
export async function putVersionSet(c: MgmtClient, s: ServiceScope, id: string, properties: VersionSetProps, ifMatch?: string): Promise<{ status: number; body: VersionSet; etag?: string; afterLostAttempt?: boolean }> {
  const res = await conflictMessage(id, () =>
    c.send({ method: 'PUT', url: versionSetUrl(c, s, id), headers: ifMatch ? { 'If-Match': ifMatch } : {}, body: { properties } }),
  );
  return { status: res.status, body: res.body.length ? res.json<VersionSet>() : {}, etag: res.headers.etag, afterLostAttempt: res.afterLostAttempt };
}

export async function deleteVersionSet(c: MgmtClient, s: ServiceScope, id: string, ifMatch: string): Promise<void> {
  await conflictMessage(id, () => c.send({ method: 'DELETE', url: versionSetUrl(c, s, id), headers: { 'If-Match': ifMatch } }));
}

/**
 * The ETag to send: the given one, else the ETag header of `read` (a read already made) or of a
 * fresh GET (a placeholder in --dry-run).
 */
export async function currentEtag(c: MgmtClient, s: ServiceScope, id: string, given?: string, read?: { etag?: string }): Promise<string> {
  if (given) return given;
  if (c.dryRun) {
    c.plan({ method: 'GET', url: versionSetUrl(c, s, id) });
    return ETAG_PLACEHOLDER;
  }
  const { etag } = read ?? (await getVersionSet(c, s, id));
  if (!etag) throw new UsageError(`the version set ${id} came without an ETag; pass --if-match <etag> (or --if-match '*')`);
  return etag;
}

/**
 * The properties to PUT on update: the current ones with the given changes laid over them. A field
 * the user did not touch is kept as it is; a change to `undefined` leaves the field alone; a change
 * to `null` removes it.
 */
export function mergeProperties(current: VersionSetProps | undefined, changes: Record<string, string | null | undefined>): VersionSetProps {
  const out: VersionSetProps = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) continue;
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** What the scheme needs: Header a header name, Query a query parameter name. Returns the problem or undefined. */
export function schemeProblem(p: VersionSetProps): string | undefined {
  if (p.versioningScheme === 'Header' && !p.versionHeaderName) return '--scheme Header needs --header-name (the header that carries the version)';
  if (p.versioningScheme === 'Query' && !p.versionQueryName) return '--scheme Query needs --query-name (the query parameter that carries the version)';
  return undefined;
}

/** The fields a create or an update gives (the flags), before they are checked. */
export interface VersionSetFields {
  displayName?: string;
  scheme?: string;
  description?: string;
  headerName?: string;
  queryName?: string;
}

/** Checks the given fields; returns the changes (`null` removes a field: an empty description). */
export function fieldChanges(f: VersionSetFields): Record<string, string | null | undefined> {
  if (f.displayName !== undefined) checkSegment('displayName', f.displayName, '--display-name');
  if (f.headerName !== undefined) checkSegment('headerName', f.headerName, '--header-name');
  if (f.queryName !== undefined) checkSegment('queryName', f.queryName, '--query-name');
  if (f.headerName !== undefined && f.scheme !== undefined && f.scheme !== 'Header') throw new UsageError(`--header-name goes with --scheme Header, not ${f.scheme}; nothing was sent`);
  if (f.queryName !== undefined && f.scheme !== undefined && f.scheme !== 'Query') throw new UsageError(`--query-name goes with --scheme Query, not ${f.scheme}; nothing was sent`);
  return {
    displayName: f.displayName,
    versioningScheme: f.scheme,
    description: f.description === '' ? null : f.description,
    versionHeaderName: f.headerName,
    versionQueryName: f.queryName,
  };
}

/**
 * The properties an update PUTs: the read ones with the changes laid over them. A header (query)
 * name given for a set whose scheme stays another would be stored and never used: refused, as is
 * a scheme left without its name.
 */
export function updatedProperties(id: string, current: VersionSetProps | undefined, changes: Record<string, string | null | undefined>, schemeGiven: boolean): VersionSetProps {
  const props = mergeProperties(current, changes);
  for (const [flag, field, scheme] of [['--header-name', 'versionHeaderName', 'Header'], ['--query-name', 'versionQueryName', 'Query']] as const) {
    if (changes[field] !== undefined && !schemeGiven && props.versioningScheme !== scheme) {
      throw new UsageError(`${flag} goes with the ${scheme} scheme, and version set ${id} uses ${String(props.versioningScheme)}; add --scheme ${scheme} to switch it; the version set was left as it was`);
    }
  }
  const problem = schemeProblem(props);
  if (problem) throw new UsageError(`${problem}; the version set was left as it was`);
  return props;
}

/**
 * A create's PUT (no If-Match: nothing was there at the read) refused: the spec requires If-Match
 * to update a version set, so a set there now is refused rather than replaced. Either it is this
 * run's own (an earlier attempt's answer was lost, and the PUT repeated) — then it is the result
 * — or someone else's, created after the read: left as it is, exit 5. Any other refusal stands.
 */
export async function createRefused(c: MgmtClient, scope: ServiceScope, id: string, props: VersionSetProps, e: unknown): Promise<Awaited<ReturnType<typeof putVersionSet>>> {
  const refused = e instanceof VxError && (e.status === 400 || e.status === 409 || e.status === 412 || e.status === 428);
  if (!refused) throw e;
  const now = await getVersionSet(c, scope, id).catch(() => undefined);
  if (!now) throw e;
  const stored = now.body.properties ?? {};
  const same = Object.keys({ ...stored, ...props }).every((k) => (stored[k] ?? undefined) === (props[k] ?? undefined));
  if (!same) {
    throw new ConflictError(`version set ${id} was created by someone else after it was checked; it was left as it is (nothing was written): see it with \`vx mgmt version-sets get ${id}\`, change it with \`vx mgmt version-sets update ${id}\``, {
      status: e.status,
      code: e.code,
      requestId: e.requestId,
    });
  }
  return { status: 201, body: now.body, etag: now.etag, afterLostAttempt: true };
}
