// What every operation of the emulated management APIs shares: the state, the errors of the
// family (each API its own shape), the api-version and path-parameter checks, subscriptions,
// paging links, $filter and whole-number query parameters, the If-Match header.
import { checkInt32, checkRule, MGMT_API_VERSION, type Rule } from '../../model/mgmt.js';
import { applyFilter, ODataError } from '../erp/odata.js';
import { EmuError, type EmuRequest } from '../server/index.js';
import type { MgmtState } from './state.js';

export function mgmtErrorBody(status: number, code: string, message: string, req: { requestId: string; path?: string }, extra: Record<string, unknown> = {}): unknown {
  const path = req.path ?? '';
  if (/\/providers\/[^/]+\.ResourceHealth\//i.test(path)) return { code, message, details: '' };
  if (/\/providers\/[^/]+\.Capacity\//i.test(path)) return { error: { code, message, details: [] } };
  return { error: { code, message, target: typeof extra.target === 'string' ? extra.target : '', details: [], additionalInfo: [] } };
}

type Family = keyof typeof MGMT_API_VERSION;

export const st = (req: EmuRequest): MgmtState => req.emulator.state.mgmt as MgmtState;
export const bad = (code: string, message: string, target?: string) => new EmuError(400, code, message, {}, target ? { target } : {});
export const notFound = (code: string, message: string) => new EmuError(404, code, message);

export function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw bad('InvalidUri', `The path segment "${s}" is not correctly percent-encoded.`);
  }
}

/** The api-version the family requires; missing or another one is a 400 like the real service. */
export function apiVersion(req: EmuRequest, family: Family): void {
  const v = req.query.get('api-version');
  const want = MGMT_API_VERSION[family];
  if (!v) throw bad('MissingApiVersionParameter', "The api-version query parameter (?api-version=) is required for all requests.");
  if (v !== want) throw bad('InvalidApiVersionParameter', `The api-version '${v}' is invalid. The supported versions are '${want}'.`);
}

/** A path parameter checked against its rule: 400 naming the parameter. */
export function param(req: EmuRequest, name: string, rule: Rule, target = name): string {
  const v = decode(req.params[name] ?? '');
  const broken = checkRule(rule, v);
  if (broken) throw bad('ValidationError', `The ${rule.label} '${v}' is invalid: it ${broken}.`, target);
  return v;
}

export function knownSubscription(req: EmuRequest, sub: string): void {
  if (!st(req).subscriptions.some((s) => s.toLowerCase() === sub.toLowerCase())) throw notFound('SubscriptionNotFound', `The subscription '${sub}' could not be found.`);
}

export function origin(req: EmuRequest): string {
  return `http://${req.headers.host ?? '127.0.0.1'}${req.family.prefix}`;
}

/** The request's own URL (below the emulator origin) with some query parameters replaced. */
export function selfUrl(req: EmuRequest, set: Record<string, string | undefined>): string {
  const q = new URLSearchParams(req.query);
  for (const [k, v] of Object.entries(set)) {
    if (v === undefined) q.delete(k);
    else q.set(k, v);
  }
  // `$skipToken`, `$top`, `$skip` keep their `$` as the spec shows them (`...?$skipToken=<token>`)
  return `${origin(req)}${req.path}?${q.toString().replace(/%24/g, '$')}`;
}

export function filterRows<T>(rows: T[], filter: string | null, expand: (r: T) => Record<string, unknown>[], fields: string[], code: string): T[] {
  if (filter === null) return rows;
  if (!filter.trim()) throw bad(code, 'The $filter expression is empty.');
  const isField = (n: string) => fields.includes(n);
  try {
    return rows.filter((r) => applyFilter(expand(r), filter, isField).length > 0);
  } catch (e) {
    if (e instanceof ODataError) throw bad(code, `Invalid $filter '${filter}': ${e.message}`);
    throw e;
  }
}

export function int(req: EmuRequest, name: string, min: number, code: string): number | undefined {
  const v = req.query.get(name);
  if (v === null) return undefined;
  const r = checkInt32(v, min);
  if (r.error) throw bad(code, `The value '${v}' of ${name} is invalid: it ${r.error}.`, name);
  return r.value;
}

export function ifMatchOf(req: EmuRequest): string | undefined {
  const h = req.headers['if-match'];
  return typeof h === 'string' ? h : undefined;
}
