// The service families vx speaks to, as data: the one list that --service choices, `auth`, the
// settings table (`profile set --help`, api/settings.ts), `emulator start`'s printed environment
// and the emulator's routing derive from. Pure data: imported at start-up by cli/ (keep it
// small), and by api/ and emulator/.
//
// A fifth family is an entry here, its client in src/api/<family>/ and its routes in
// src/emulator/<family>/ (test/unit/families.test.ts adds one).

import { LCS_VERSION, LCS_VERSION_HEADER } from './lcs.js';
import { checkRule, DEFAULT_NAMESPACE, MGMT_API_VERSION, MGMT_PROVIDER, RULES, type Rule } from './mgmt.js';
import { TRANSLATE_PATH, TRANSLATOR_API_VERSION } from './translator.js';

/** A setting of the contract: profile key, environment variable, secrecy (core/config.ts reads them). */
export interface SettingDef {
  key: string;
  env?: string;
  secret?: boolean;
  default?: string;
  description: string;
  /** allowed values, checked by `profile set` */
  choices?: readonly string[];
  /** an endpoint: `profile set` refuses what every request would refuse (not an absolute http(s) URL) */
  url?: boolean;
  /** what `profile set` refuses, as every use of the setting would: the form expected, or undefined when the value is fine */
  check?: (value: string) => string | undefined;
  /** a credential: its absence is an authentication error (exit 3) rather than a usage error */
  credential?: boolean;
  /** another setting consulted when this one has no value (e.g. lcs.token falls back to erp.token) */
  fallback?: string;
  /**
   * a record vx writes itself (`vx auth login`: refresh token, sign-in record), not a setting a
   * person sets: left out of `profile set|unset`, their help and completion, and `profile show`'s
   * table (which sums the records up as one line per family)
   */
  internal?: boolean;
}

/** The settings of the profile as the registry's functions read them (core/config.ts's Config is one). */
export interface SettingReader {
  get(key: string): string | undefined;
  /** the value, refused (a usage error) when it breaks the setting's form */
  checked(key: string): string | undefined;
}

/** The check of a setting that is an id the services take only as a GUID (a company, a subscription). */
function guid(v: string): string | undefined {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) ? undefined : 'a GUID (8-4-4-4-12 hexadecimal digits)';
}

/** The check of erp.company: a company's id, or its name (one line of text). */
function companyRef(v: string): string | undefined {
  return v.trim() && !/\p{Cc}/u.test(v) ? undefined : "a company's id (a GUID) or its name";
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
 * as it does a subscription that is not a GUID): the rules of model/mgmt.ts for the quota defaults, the
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

/** The cheapest request that tries a credential (`auth login`, `auth status --check`): it reads only, or bills nothing. */
export interface ProbeDef {
  /** what the request does, for messages: "listing one company" */
  what: string;
  method: 'GET' | 'POST';
  /** the path after the endpoint, with its query */
  path(settings: SettingReader): string;
  /** a body, sent as JSON (the request changes nothing, so it is declared idempotent) */
  body?: object;
}

const ZERO_GUID = '00000000-0000-0000-0000-000000000000';

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
  settings: readonly SettingDef[];
  /** the error body the service answers with (core/errors.ts parseErrorBody reads every one) */
  errorShape: 'error-object' | 'error-object-or-flat';
  /** what every request to it carries unless the caller says otherwise (a raw `vx api` request too) */
  requests?: {
    /** the Content-Type of a JSON body (default application/json) */
    jsonType?: string;
    /** headers of its own (the API version the database refresh requires) */
    headers?: Readonly<Record<string, string>>;
  };
  probe: ProbeDef;
  emulator: {
    /** where the emulator serves it: {url}{prefix} is the endpoint it prints */
    prefix: string;
    /** more variables `emulator start` prints: variable -> the field of the family's seed state holding the value */
    seeded?: Readonly<Record<string, string>>;
    /** its error codes are 6 digits, the status and 3 more (403001): `--faults 403001:1x` answers one */
    sixDigitCodes?: boolean;
    /** `--faults rate:N` (`emulator start --rate`) throttles the characters it bills a second */
    charRate?: boolean;
  };
}

/** An entry of the registry, its name and kind of sign-in kept as literal types (FamilyName derives from them). */
function family<const N extends string, const K extends 'key' | 'oauth'>(def: FamilyDef<N> & { auth: { kind: K } }): FamilyDef<N> & { auth: { kind: K } } {
  return def;
}

const REGISTRY = [
  family({
    name: 'translator',
    title: 'translator (subscription key)',
    auth: { kind: 'key', header: 'Vendor-Subscription-Key', region: { setting: 'translator.region', header: 'Vendor-Subscription-Region' } },
    endpoint: 'translator.endpoint',
    credential: 'translator.key',
    settings: [
      { key: 'translator.endpoint', env: 'VX_TRANSLATOR_ENDPOINT', description: 'translator endpoint ({base_url})', url: true },
      { key: 'translator.key', env: 'VX_TRANSLATOR_KEY', secret: true, credential: true, description: 'translator subscription key' },
      { key: 'translator.region', env: 'VX_TRANSLATOR_REGION', description: 'translator region (sent as Vendor-Subscription-Region)' },
      { key: 'translate.memory', env: 'VX_TRANSLATE_MEMORY', description: 'translation memory used by every `vx translate` (as --memory): a file (created when missing) or a postgres:// URL' },
      { key: 'translate.maxRate', env: 'VX_TRANSLATE_MAX_RATE', description: 'billed characters a minute the translator subscription allows (as --max-chars-per-minute; e.g. 33300 on the free tier)', check: characters(1) },
      { key: 'translate.glossary', env: 'VX_TRANSLATE_GLOSSARY', description: 'glossary file used by every `vx translate` (TBX, CSV, TSV, YAML or JSON; as --glossary)' },
      { key: 'translate.skipKeys', env: 'VX_TRANSLATE_SKIP_KEYS', description: 'keys of locale files never sent by `vx translate file|sync` (globs, comma-separated: meta.*,**.url; as --skip-keys)' },
    ],
    errorShape: 'error-object',
    requests: { jsonType: 'application/json; charset=UTF-8' },
    probe: { what: 'translating an empty text (bills nothing)', method: 'POST', path: () => `${TRANSLATE_PATH}?api-version=${TRANSLATOR_API_VERSION}&to=en`, body: [{ Text: '' }] },
    emulator: { prefix: '/translator', sixDigitCodes: true, charRate: true },
  }),
  family({
    name: 'erp',
    title: 'erp (business data)',
    auth: { kind: 'oauth' },
    endpoint: 'erp.prefix',
    credential: 'erp.token',
    settings: [
      { key: 'erp.prefix', env: 'VX_ERP_PREFIX', description: 'business-data address prefix ({erp_prefix}), the address before /api/v2.0', url: true, check: erpPrefixProblem },
      { key: 'erp.company', env: 'VX_ERP_COMPANY', description: 'default company: its id, or its name (looked up with one read)', check: companyRef },
      { key: 'erp.token', env: 'VX_ERP_TOKEN', secret: true, credential: true, description: 'business-data bearer token' },
      { key: 'erp.actionNamespace', env: 'VX_ERP_ACTION_NAMESPACE', default: 'Vendor.NAV', description: 'namespace of bound actions', check: dottedName(/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/, 'dotted names like Vendor.NAV') },
      { key: 'erp.batchSize', env: 'VX_ERP_BATCH_SIZE', default: '100', description: 'operations per $batch request of import and bulk actions (1-100; the service allows 100)', check: wholeNumber(1, 100) },
      { key: 'erp.concurrency', env: 'VX_ERP_CONCURRENCY', default: '5', description: '$batch requests in flight at once (the service works on 5 requests of a user at once)', check: wholeNumber(1, 64) },
      { key: 'erp.rateLimit', env: 'VX_ERP_RATE_LIMIT', default: '6000/300', description: 'requests/seconds one user may send (the service: 6000 per 5 minutes); bulk commands stay under it', check: (v) => (parseRateLimit(v) ? undefined : RATE_LIMIT_FORM) },
    ],
    errorShape: 'error-object',
    probe: { what: 'listing one company', method: 'GET', path: () => '/api/v2.0/companies?$top=1' },
    emulator: { prefix: '/erp', seeded: { VX_ERP_COMPANY: 'defaultCompany' } },
  }),
  family({
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
    requests: { headers: { [LCS_VERSION_HEADER]: LCS_VERSION } },
    probe: { what: 'reading the status of a placeholder operation', method: 'GET', path: () => `/databasemovement/v1/fetchstatus/project/0/environment/0/operationactivity/${ZERO_GUID}` },
    emulator: { prefix: '/lcs' },
  }),
  family({
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
    probe: {
      what: 'listing the health events of a subscription',
      method: 'GET',
      // any subscription will do: the resource manager refuses a bad token (401) before it looks
      path: (s) =>
        `/subscriptions/${encodeURIComponent(s.get('mgmt.subscription') || ZERO_GUID)}/providers/${s.checked('mgmt.namespace') || DEFAULT_NAMESPACE}.${MGMT_PROVIDER.health}/events?api-version=${MGMT_API_VERSION.health}`,
    },
    emulator: { prefix: '/mgmt', seeded: { VX_SUBSCRIPTION: 'defaultSubscription' } },
  }),
];

type Registered = (typeof REGISTRY)[number];
/** A family's name, as --service takes it and as its settings are prefixed. */
export type FamilyName = Registered['name'];
/** The families signed in to with OAuth (a bearer token), as a type. */
export type OAuthFamilyName = Extract<Registered, { auth: { kind: 'oauth' } }>['name'];

export const FAMILIES: readonly FamilyDef[] = REGISTRY;

/** --service choices, in order */
export const FAMILY_NAMES: readonly FamilyName[] = FAMILIES.map((f) => f.name);

export function familyOf(name: FamilyName, families: readonly FamilyDef[] = FAMILIES): FamilyDef {
  return families.find((f) => f.name === name)!;
}

/** What the family's credential is called in messages: a subscription `key` or a bearer `token`. */
export function credentialNoun(f: FamilyDef<string>): 'key' | 'token' {
  return f.auth.kind === 'key' ? 'key' : 'token';
}

/** The headers that carry a credential of the family: its key (and region, when set) or a bearer token. */
export function credentialHeaders(f: FamilyDef<string>, credential: string, settings: Pick<SettingReader, 'get'>): Record<string, string> {
  if (f.auth.kind === 'oauth') return { Authorization: `Bearer ${credential}` };
  const region = f.auth.region && settings.get(f.auth.region.setting);
  return region ? { [f.auth.header]: credential, [f.auth.region!.header]: region } : { [f.auth.header]: credential };
}

/**
 * The family whose credential this family's falls back to when it has none of its own (lcs uses
 * the erp sign-in: its credential setting's `fallback`), if any.
 */
export function credentialFallback(name: FamilyName, families: readonly FamilyDef<string>[] = FAMILIES): FamilyName | undefined {
  const f = families.find((x) => x.name === name);
  const fallback = f?.settings.find((s) => s.key === f.credential)?.fallback;
  return fallback ? (families.find((o) => o.credential === fallback)?.name as FamilyName | undefined) : undefined;
}

/** The families signed in to with OAuth (`vx auth login` without --with-key). */
export function oauthFamilies<N extends string>(families: readonly FamilyDef<N>[]): N[] {
  return families.filter((f) => f.auth.kind === 'oauth').map((f) => f.name);
}

/**
 * Every setting of the contract, in the order of `profile set --help`: each family's own, the
 * sign-in settings, the per-family sign-in settings and records, the output format.
 */
export function allSettings(families: readonly FamilyDef<string>[] = FAMILIES): SettingDef[] {
  return [
    ...families.flatMap((f) => f.settings),
    { key: 'auth.url', env: 'VX_AUTH_URL', description: 'sign-in address ({auth_url})', url: true },
    { key: 'auth.tenant', env: 'VX_TENANT', default: 'common', description: 'directory (tenant) for sign-in; per family: <family>.tenant', check: tenant },
    { key: 'auth.clientId', env: 'VX_CLIENT_ID', default: 'vx-cli', description: 'application (client) id for sign-in; per family: <family>.clientId' },
    { key: 'auth.browser', env: 'VX_BROWSER', description: 'command that opens the sign-in address (the address is appended); `none` never opens one' },
    { key: 'auth.clientSecret', env: 'VX_CLIENT_SECRET', secret: true, description: 'client secret for `vx auth login --client-credentials` (prefer the environment)' },
    ...oauthFamilies(families).flatMap((f): SettingDef[] => [
      { key: `${f}.tenant`, description: `tenant for ${f} sign-in (default auth.tenant)`, check: tenant },
      { key: `${f}.clientId`, description: `client id for ${f} sign-in (default auth.clientId)` },
      { key: `${f}.scope`, default: 'user_impersonation', description: `scope requested at ${f} sign-in` },
      { key: `${f}.refreshToken`, secret: true, internal: true, description: `refresh token from \`vx auth login\` (${f})` },
      { key: `${f}.signIn`, internal: true, description: `how the stored ${f} token was obtained and when it expires (written by \`vx auth login\`)` },
    ]),
    ...families
      .filter((f) => f.auth.kind === 'key')
      .map((f): SettingDef => ({ key: `${f.name}.signIn`, internal: true, description: `how the stored ${f.name} key was stored (written by \`vx auth login\`)` })),
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
