// The manifest of `quota apply`: desired limits as YAML or JSON, checked whole before anything is
// sent. A broken entry is a UsageError (exit 2) that names the entry and the rule.
import { UsageError } from '../../core/errors.js';
import { checkRule, INT32_MAX, RULES, type Rule } from '../../model/mgmt.js';

export interface ManifestEntry {
  /** 1-based position in the manifest, for messages */
  index: number;
  subscription: string;
  provider: string;
  location: string;
  name: string;
  limit: number;
  allowDecrease: boolean;
}

/** What the manifest falls back to for fields an entry leaves out (flags, environment, profile). */
export interface ManifestDefaults {
  subscription?: string;
  provider?: string;
  location?: string;
}

const ENTRY_KEYS = ['subscription', 'provider', 'location', 'name', 'limit', 'allowDecrease'] as const;
const TOP_KEYS = ['quotas', 'subscription', 'provider', 'location', 'allowDecrease'] as const;

const FIELD_RULES: Record<string, Rule> = {
  // a UUID, as --subscription of every mgmt command (a typo would otherwise be read as a 404 row)
  subscription: RULES.subscriptionUuid,
  provider: RULES.providerId,
  location: RULES.location,
  name: RULES.resourceName,
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses YAML or JSON (YAML 1.2 reads JSON); a syntax error names the source and the line. */
export async function parseManifestText(text: string, source: string): Promise<unknown> {
  if (!text.trim()) throw new UsageError(`the manifest ${source} is empty; nothing was sent`);
  const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  const YAML = mod.default ?? mod;
  const doc = YAML.parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line;
    throw new UsageError(`the manifest ${source} is not valid YAML or JSON${line ? ` (line ${line})` : ''}: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}; nothing was sent`);
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // aliases that expand a few lines into millions of values ("billion laughs"): refused, not read
    const why = /alias/i.test((e as Error).message) ? 'its aliases expand too much (more than 100 uses of an alias, counted as they expand)' : (e as Error).message.split('\n')[0];
    throw new UsageError(`the manifest ${source} cannot be read: ${why}; nothing was sent`);
  }
}

function label(entry: Record<string, unknown>, index: number): string {
  const name = typeof entry.name === 'string' ? entry.name : undefined;
  const loc = typeof entry.location === 'string' ? entry.location : undefined;
  return `entry ${index}${name ? ` (${name}${loc ? ` in ${loc}` : ''})` : ''}`;
}

/**
 * Checks a parsed manifest: a list of entries, or `{quotas: [...]}` with top-level
 * `subscription`, `provider`, `location`, `allowDecrease` for the entries that leave them out.
 */
export function checkManifest(value: unknown, source: string, defaults: ManifestDefaults = {}): ManifestEntry[] {
  const fail = (m: string) => new UsageError(`the manifest ${source}: ${m}; nothing was sent`);
  let list: unknown;
  let top: Record<string, unknown> = {};
  if (Array.isArray(value)) list = value;
  else if (isObject(value)) {
    for (const k of Object.keys(value)) if (!(TOP_KEYS as readonly string[]).includes(k)) throw fail(`unknown key "${k}" at the top (allowed: ${TOP_KEYS.join(', ')})`);
    if (!('quotas' in value)) throw fail('no "quotas" list');
    list = value.quotas;
    top = value;
  } else throw fail('expected a list of quotas or an object with a "quotas" list');
  if (!Array.isArray(list)) throw fail('"quotas" must be a list');
  if (!list.length) throw fail('the list of quotas is empty');
  if (top.allowDecrease !== undefined && typeof top.allowDecrease !== 'boolean') throw fail('"allowDecrease" at the top must be true or false');
  const entries: ManifestEntry[] = [];
  const seen = new Map<string, number>();
  list.forEach((raw, i) => {
    const index = i + 1;
    if (!isObject(raw)) throw fail(`entry ${index} must be an object with ${ENTRY_KEYS.join(', ')}`);
    const where = label(raw, index);
    for (const k of Object.keys(raw)) if (!(ENTRY_KEYS as readonly string[]).includes(k)) throw fail(`${where}: unknown key "${k}" (allowed: ${ENTRY_KEYS.join(', ')})`);
    const field = (k: 'subscription' | 'provider' | 'location' | 'name'): string => {
      const v = raw[k] ?? top[k] ?? (k === 'name' ? undefined : defaults[k]);
      if (v === undefined || v === null) {
        const how = k === 'name' ? '' : ` (or at the top, or --${k}${k === 'subscription' ? ' / VX_SUBSCRIPTION' : ` / VX_MGMT_${k.toUpperCase()}`})`;
        throw fail(`${where}: "${k}" is missing${how}`);
      }
      if (typeof v !== 'string') throw fail(`${where}: "${k}" must be a string, not ${JSON.stringify(v)}`);
      const broken = checkRule(FIELD_RULES[k], v);
      if (broken) throw fail(`${where}: "${k}" ${JSON.stringify(v)}: the ${FIELD_RULES[k].label} ${broken}`);
      return v;
    };
    const subscription = field('subscription');
    const provider = field('provider');
    const location = field('location');
    const name = field('name');
    const limit = raw.limit;
    if (limit === undefined) throw fail(`${where}: "limit" is missing`);
    if (typeof limit !== 'number' || !Number.isInteger(limit)) throw fail(`${where}: "limit" must be a whole number, not ${JSON.stringify(limit)}`);
    if (limit < 0) throw fail(`${where}: "limit" ${limit} is negative`);
    if (limit > INT32_MAX) throw fail(`${where}: "limit" ${limit} is above ${INT32_MAX} (a 32-bit integer)`);
    const allow = raw.allowDecrease ?? top.allowDecrease ?? false;
    if (typeof allow !== 'boolean') throw fail(`${where}: "allowDecrease" must be true or false`);
    const key = [subscription, provider, location, name].join('\u0000').toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) throw fail(`entries ${first} and ${index} both set ${name} of ${provider} in ${location} (subscription ${subscription}); keep one`);
    seen.set(key, index);
    entries.push({ index, subscription, provider, location, name, limit, allowDecrease: allow });
  });
  return entries;
}
