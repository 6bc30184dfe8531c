// The service families vx speaks to, as data: the one list that --service choices, `auth`, the
// settings table (`profile set --help`, api/settings.ts), `emulator start`'s printed environment
// and the emulator's routing derive from. Pure data: imported at start-up by cli/ (keep it
// small), and by api/ and emulator/.
//
// A fifth family is an entry here, its client in src/api/<family>/ and its routes in
// src/emulator/<family>/ (test/unit/families.test.ts adds one).

import { checkRule, RULES, type Rule } from './mgmt.js';

/** A family's name, as --service takes it and as its settings are prefixed. */
export type FamilyName = 'translator' | 'erp' | 'lcs' | 'mgmt';

/** A setting of the contract: profile key, environment variable, secrecy (core/config's SettingDef). */
export interface FamilySetting {
  key: string;
  env?: string;
  secret?: boolean;
  default?: string;
  description: string;
  choices?: readonly string[];
  url?: boolean;
  /** the form a value must have (see core/config's SettingDef) */
  check?: (value: string) => string | undefined;
  credential?: boolean;
  fallback?: string;
  internal?: boolean;
}

/** The check of a setting that is an id the services take only as a GUID (a company, a subscription). */
function guid(v: string): string | undefined {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) ? undefined : 'a GUID (8-4-4-4-12 hexadecimal digits)';
}

/**
 * The check of erp.prefix: the address before `/api/<version>/...`, which vx adds per entity set.
 * The URL people copy from the API's documentation (`…/Production/api/v2.0`, or with
 * `/companies(…)`) would send every request to `…/api/v2.0/api/v2.0/…`: a 404 that reads as
 * "not found".
 */
export function erpPrefixProblem(v: string): string | undefined {
  const path = v.replace(/[?#].*$/s, '').replace(/\/+$/, '');
  const m = /\/api\/v\d+\.\d+(\/.*)?$/i.exec(path);
  if (!m) return undefined;
  return `the address before /api/<version> (vx adds /api/v2.0 or /api/v1.0 per entity set, and the company from --company or erp.company), e.g. ${path.slice(0, m.index) || 'https://<host>/<path>'}`;
}

/** The check of a setting that is a whole number from `min` to `max`. */
export function wholeNumber(min: number, max: number): (value: string) => string | undefined {
  return (v) => (/^\s*\d+\s*$/.test(v) && Number(v) >= min && Number(v) <= max ? undefined : `a whole number from ${min} to ${max}`);
}

/**
 * A count of characters as translate's settings and flags take it (commas and underscores allowed:
 * 2,000,000): the number, 'too large' past 2^53, undefined when it is not a whole number.
 */
export function characterCount(text: string): number | 'too large' | undefined {
  if (!/^\s*\d[\d,_]*\s*$/.test(text)) return undefined;
  const n = Number(text.trim().replace(/[,_]/g, ''));
  return Number.isSafeInteger(n) ? n : 'too large';
}

/** The check of a setting that is a count of characters from `min` (see characterCount). */
function characters(min: number): (value: string) => string | undefined {
  return (v) => {
    const n = characterCount(v);
    return typeof n === 'number' && n >= min ? undefined : `a whole number of characters from ${min}, e.g. 2000000`;
  };
}

/**
 * The checks of settings every command that reads them would refuse (profile set refuses them too,
 * as it does a company that is not a GUID): the rules of model/mgmt.ts for the quota defaults, the
 * names vx puts before a provider or a bound action.
 */
const mgmtRule = (rule: Rule, expected: string) => (v: string) => (checkRule(rule, v) ? expected : undefined);
const dottedName = (pattern: RegExp, expected: string) => (v: string) => (pattern.test(v) ? undefined : expected);
/** a sign-in tenant, placed in the sign-in address as one path segment (api/auth/authority.ts refuses others) */
const tenant = dottedName(/^[A-Za-z0-9._-]+$/, 'a tenant id or domain name (letters, digits, . _ -)');

export const RATE_LIMIT_FORM = '<requests>/<seconds>, e.g. 6000/300';

/** erp.rateLimit, `<requests>/<seconds>` (an `s` after the seconds allowed): what bulk runs pace under */
export function parseRateLimit(text: string): { requests: number; seconds: number } | undefined {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*s?\s*$/.exec(text);
  if (!m || Number(m[1]) < 1 || !(Number(m[2]) > 0)) return undefined;
  return { requests: Number(m[1]), seconds: Number(m[2]) };
}

export interface FamilyDef<N extends string = FamilyName> {
  name: N;
  /** how `vx auth login` offers it */
  title: string;
  /**
   * How a request is authenticated: a subscription key in a header (with an optional region
   * header), or an OAuth bearer token (`vx auth login`: browser, device code, client credentials).
   */
  auth: { kind: 'key'; header: string; region?: { setting: string; header: string } } | { kind: 'oauth' };
  /** the setting holding the base URL */
  endpoint: string;
  /** the setting holding the key or token */
  credential: string;
  /** the family's settings, in the order of `profile set --help` */
  settings: readonly FamilySetting[];
  /** the error body the service answers with (core/errors.ts parseErrorBody reads every one) */
  errorShape: 'error-object' | 'error-object-or-flat';
  emulator: {
    /** where the emulator serves it: {url}{prefix} is the endpoint it prints */
    prefix: string;
    /** more variables `emulator start` prints: variable -> the field of the family's seed state holding the value */
    seeded?: Readonly<Record<string, string>>;
  };
}

export const FAMILIES: readonly FamilyDef[] = [
  {
    name: 'translator',
    title: 'translator (subscription key)',
    auth: { kind: 'key', header: 'Vendor-Subscription-Key', region: { setting: 'translator.region', header: 'Vendor-Subscription-Region' } },
    endpoint: 'translator.endpoint',
    credential: 'translator.key',
    settings: [
      { key: 'translator.endpoint', env: 'VX_TRANSLATOR_ENDPOINT', description: 'translator endpoint ({base_url})', url: true },
      { key: 'translator.key', env: 'VX_TRANSLATOR_KEY', secret: true, credential: true, description: 'translator subscription key' },
      { key: 'translator.region', env: 'VX_TRANSLATOR_REGION', description: 'translator region (sent as Vendor-Subscription-Region)' },
      { key: 'translate.memory', env: 'VX_TRANSLATE_MEMORY', description: 'translation memory file used by every `vx translate` (as --memory; created when missing)' },
      { key: 'translate.maxRate', env: 'VX_TRANSLATE_MAX_RATE', description: 'billed characters a minute the translator subscription allows (as --max-chars-per-minute; e.g. 33300 on the free tier)', check: characters(1) },
    ],
    errorShape: 'error-object',
    emulator: { prefix: '/translator' },
  },
  {
    name: 'erp',
    title: 'erp (business data)',
    auth: { kind: 'oauth' },
    endpoint: 'erp.prefix',
    credential: 'erp.token',
    settings: [
      { key: 'erp.prefix', env: 'VX_ERP_PREFIX', description: 'business-data address prefix ({erp_prefix}), the address before /api/v2.0', url: true, check: erpPrefixProblem },
      { key: 'erp.company', env: 'VX_ERP_COMPANY', description: 'default company id', check: guid },
      { key: 'erp.token', env: 'VX_ERP_TOKEN', secret: true, credential: true, description: 'business-data bearer token' },
      { key: 'erp.actionNamespace', env: 'VX_ERP_ACTION_NAMESPACE', default: 'Vendor.NAV', description: 'namespace of bound actions', check: dottedName(/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/, 'dotted names like Vendor.NAV') },
      { key: 'erp.batchSize', env: 'VX_ERP_BATCH_SIZE', default: '100', description: 'operations per $batch request of import and bulk actions (1-100; the service allows 100)', check: wholeNumber(1, 100) },
      { key: 'erp.concurrency', env: 'VX_ERP_CONCURRENCY', default: '5', description: '$batch requests in flight at once (the service works on 5 requests of a user at once)', check: wholeNumber(1, 64) },
      { key: 'erp.rateLimit', env: 'VX_ERP_RATE_LIMIT', default: '6000/300', description: 'requests/seconds one user may send (the service: 6000 per 5 minutes); bulk commands stay under it', check: (v) => (parseRateLimit(v) ? undefined : RATE_LIMIT_FORM) },
    ],
    errorShape: 'error-object',
    emulator: { prefix: '/erp', seeded: { VX_ERP_COMPANY: 'defaultCompany' } },
  },
  {
    name: 'lcs',
    title: 'lcs (database refresh)',
    auth: { kind: 'oauth' },
    endpoint: 'lcs.endpoint',
    credential: 'lcs.token',
    settings: [
      { key: 'lcs.endpoint', env: 'VX_LCS_ENDPOINT', description: 'database refresh endpoint', url: true },
      { key: 'lcs.token', env: 'VX_LCS_TOKEN', secret: true, credential: true, fallback: 'erp.token', description: 'database refresh bearer token' },
    ],
    errorShape: 'error-object',
    emulator: { prefix: '/lcs' },
  },
  {
    name: 'mgmt',
    title: 'mgmt (resource management)',
    auth: { kind: 'oauth' },
    endpoint: 'mgmt.endpoint',
    credential: 'mgmt.token',
    settings: [
      { key: 'mgmt.endpoint', env: 'VX_MGMT_ENDPOINT', description: 'management endpoint ({mgmt_url})', url: true },
      { key: 'mgmt.token', env: 'VX_MGMT_TOKEN', secret: true, credential: true, description: 'management bearer token' },
      { key: 'mgmt.subscription', env: 'VX_SUBSCRIPTION', description: 'default subscription id', check: guid },
      { key: 'mgmt.provider', env: 'VX_MGMT_PROVIDER', description: 'default quota resource provider id (--provider), e.g. Vendor.Compute', check: mgmtRule(RULES.providerId, `a resource provider id: ${RULES.providerId.patternHelp}`) },
      { key: 'mgmt.location', env: 'VX_MGMT_LOCATION', description: 'default quota location (--location), e.g. eastus', check: mgmtRule(RULES.location, `a location: ${RULES.location.patternHelp}`) },
      { key: 'mgmt.namespace', env: 'VX_MGMT_NAMESPACE', default: 'Vendor', description: 'provider namespace prefix', check: dottedName(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/, 'a name like Vendor (letters and digits, dotted parts allowed)') },
    ],
    // quota and version sets answer {error:{...}}; health events a flat {code,message}
    errorShape: 'error-object-or-flat',
    emulator: { prefix: '/mgmt', seeded: { VX_SUBSCRIPTION: 'defaultSubscription' } },
  },
];

/** --service choices, in order */
export const FAMILY_NAMES: readonly FamilyName[] = FAMILIES.map((f) => f.name);

export function familyOf(name: FamilyName, families: readonly FamilyDef[] = FAMILIES): FamilyDef {
  return families.find((f) => f.name === name)!;
}

/** The families signed in to with OAuth (`vx auth login` without --with-key). */
export function oauthFamilies<N extends string>(families: readonly FamilyDef<N>[]): N[] {
  return families.filter((f) => f.auth.kind === 'oauth').map((f) => f.name);
}

/**
 * Every setting of the contract, in the order of `profile set --help`: each family's own, the
 * sign-in settings, the per-family sign-in settings and records, the output format.
 */
export function allSettings(families: readonly FamilyDef<string>[] = FAMILIES): FamilySetting[] {
  return [
    ...families.flatMap((f) => f.settings),
    { key: 'auth.url', env: 'VX_AUTH_URL', description: 'sign-in address ({auth_url})', url: true },
    { key: 'auth.tenant', env: 'VX_TENANT', default: 'common', description: 'directory (tenant) for sign-in; per family: <family>.tenant', check: tenant },
    { key: 'auth.clientId', env: 'VX_CLIENT_ID', default: 'vx-cli', description: 'application (client) id for sign-in; per family: <family>.clientId' },
    { key: 'auth.browser', env: 'VX_BROWSER', description: 'command that opens the sign-in address (the address is appended); `none` never opens one' },
    { key: 'auth.clientSecret', env: 'VX_CLIENT_SECRET', secret: true, description: 'client secret for `vx auth login --client-credentials` (prefer the environment)' },
    ...oauthFamilies(families).flatMap((f): FamilySetting[] => [
      { key: `${f}.tenant`, description: `tenant for ${f} sign-in (default auth.tenant)`, check: tenant },
      { key: `${f}.clientId`, description: `client id for ${f} sign-in (default auth.clientId)` },
      { key: `${f}.scope`, default: 'user_impersonation', description: `scope requested at ${f} sign-in` },
      { key: `${f}.refreshToken`, secret: true, internal: true, description: `refresh token from \`vx auth login\` (${f})` },
      { key: `${f}.signIn`, internal: true, description: `how the stored ${f} token was obtained and when it expires (written by \`vx auth login\`)` },
    ]),
    ...families
      .filter((f) => f.auth.kind === 'key')
      .map((f): FamilySetting => ({ key: `${f.name}.signIn`, internal: true, description: `how the stored ${f.name} key was stored (written by \`vx auth login\`)` })),
  ];
}

/**
 * The variables that point vx at an emulator at `url`, in order: per family its endpoint, its
 * credential (`key` or `token` by its auth kind) and its seeded defaults (read from `state`), then
 * the sign-in address.
 */
export function emulatorEnv(
  url: string,
  creds: { key: string; token: string },
  state: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>,
  families: readonly FamilyDef<string>[] = FAMILIES,
): Record<string, string> {
  const env: Record<string, string> = {};
  const envOf = (key: string) => families.flatMap((f) => f.settings).find((s) => s.key === key)?.env;
  for (const f of families) {
    env[envOf(f.endpoint)!] = `${url}${f.emulator.prefix}`;
    env[envOf(f.credential)!] = f.auth.kind === 'key' ? creds.key : creds.token;
    for (const [v, field] of Object.entries(f.emulator.seeded ?? {})) {
      const value = state[f.name]?.[field];
      env[v] = typeof value === 'string' ? value : '';
    }
  }
  env.VX_AUTH_URL = `${url}/auth`;
  return env;
}
