// The query parameters of translate: checked and normalised from what the user typed (a bad
// value is a usage error, so nothing is sent), then written as the query string in a fixed order.
import { UsageError } from '../../core/errors.js';
import { buildQuery, type QueryValue } from '../../core/url.js';
import {
  canonicalScript,
  findLanguage,
  GUID,
  LANGUAGE_CODE,
  PROFANITY_ACTIONS,
  PROFANITY_MARKERS,
  SCRIPT_CODE,
  TEXT_TYPES,
  TRANSLATOR_API_VERSION,
  type ProfanityAction,
  type ProfanityMarker,
  type TextType,
} from '../../model/translator.js';

/** What the command line gives (strings as typed). */
export interface TranslateFlags {
  to?: string[];
  from?: string;
  textType?: string;
  category?: string;
  profanityAction?: string;
  profanityMarker?: string;
  alignment?: boolean;
  sentenceLength?: boolean;
  suggestedFrom?: string;
  fromScript?: string;
  toScript?: string[];
  /** commander's `--no-fallback` gives fallback=false */
  fallback?: boolean;
  traceId?: string;
}

/** The checked parameters of a translate request. */
export interface TranslateParams {
  to: string[];
  from?: string;
  textType?: TextType;
  category?: string;
  profanityAction?: ProfanityAction;
  profanityMarker?: ProfanityMarker;
  includeAlignment?: boolean;
  includeSentenceLength?: boolean;
  suggestedFrom?: string;
  fromScript?: string;
  toScript?: string[];
  /** only false is sent (true is the service's default) */
  allowFallback?: boolean;
  /** one ClientTraceId for every request; else a fresh GUID per request */
  traceId?: string;
}

/** `--to de --to fr,it` -> ['de', 'fr', 'it'] */
export function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim());
}

function enumValue<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  if (!found) throw new UsageError(`invalid value "${value}" for ${flag}: allowed ${allowed.join(', ')}`);
  return found;
}

export function language(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!LANGUAGE_CODE.test(v)) throw new UsageError(`invalid language code "${value}" for ${flag}: expected a code like de, pt-PT or zh-Hans`);
  return v;
}

function script(flag: string, value: string): string {
  const v = value.trim();
  if (!SCRIPT_CODE.test(v)) throw new UsageError(`invalid script code "${value}" for ${flag}: expected a four-letter ISO 15924 code like Latn, Cyrl or Arab`);
  return canonicalScript(v);
}

/** Checks every flag against the spec; throws a UsageError naming the flag and the allowed values. */
export function parseParams(flags: TranslateFlags): TranslateParams {
  const to = splitList(flags.to);
  if (to.length === 0) throw new UsageError('--to is required: the target language(s), e.g. --to de or --to de,fr');
  // one language under two codes (zh-Hans, zh-cn) would be translated and billed twice
  const seen = new Map<string, string>();
  for (const t of to) {
    if (t === '') throw new UsageError('--to has an empty language code');
    language('--to', t);
    const key = findLanguage(t) ?? t.toLowerCase();
    const before = seen.get(key);
    if (before !== undefined) {
      throw new UsageError(before.toLowerCase() === t.toLowerCase() ? `--to names ${t} twice` : `--to names ${key} twice (as ${before} and as ${t})`);
    }
    seen.set(key, t);
  }
  const params: TranslateParams = { to };
  params.from = language('--from', flags.from);
  params.suggestedFrom = language('--suggested-from', flags.suggestedFrom);
  params.textType = enumValue('--text-type', flags.textType, TEXT_TYPES);
  params.profanityAction = enumValue('--profanity-action', flags.profanityAction, PROFANITY_ACTIONS);
  params.profanityMarker = enumValue('--profanity-marker', flags.profanityMarker, PROFANITY_MARKERS);
  if (flags.category !== undefined) {
    const c = flags.category.trim();
    if (!c || /[\s\p{Cc}]/u.test(c)) throw new UsageError(`invalid value "${flags.category}" for --category: expected a category id without spaces (default: general)`);
    params.category = c;
  }
  if (flags.alignment) params.includeAlignment = true;
  if (flags.sentenceLength) params.includeSentenceLength = true;
  if (flags.fromScript !== undefined) params.fromScript = script('--from-script', flags.fromScript);
  if (flags.toScript !== undefined) {
    const scripts = splitList(flags.toScript).map((s) => script('--to-script', s));
    if (scripts.length !== to.length) {
      throw new UsageError(`--to-script needs one script per --to language: ${scripts.length} given for ${to.length} target${to.length > 1 ? 's' : ''} (${to.join(', ')})`);
    }
    params.toScript = scripts;
  }
  if (flags.fallback === false) params.allowFallback = false;
  if (flags.traceId !== undefined) {
    if (!GUID.test(flags.traceId.trim())) throw new UsageError(`invalid value "${flags.traceId}" for --trace-id: expected a GUID like 0f8fad5b-d9cb-469f-a165-70867728950e`);
    params.traceId = flags.traceId.trim().toLowerCase();
  }
  return params;
}

/**
 * Parameters the service accepts but ignores in this combination (it answers as if they were
 * absent): vx sends them as given, so a script that always passes the same flags keeps working,
 * and says at a terminal that they have no effect.
 */
export function ineffectiveParams(p: TranslateParams): string[] {
  const notes: string[] = [];
  if (p.from && p.suggestedFrom) notes.push(`--suggested-from ${p.suggestedFrom} has no effect with --from ${p.from}: it is used only when the source language is detected`);
  if (p.includeAlignment && p.textType === 'html') notes.push('--alignment has no effect with --text-type html: the service produces no alignment for HTML (the alignment fields are empty)');
  if (p.profanityMarker && p.profanityAction !== 'Marked') {
    notes.push(`--profanity-marker ${p.profanityMarker} has no effect without --profanity-action Marked`);
  }
  return notes;
}

/** The query string of a translate request: api-version first, then the parameters in spec order. */
export function translateQuery(p: TranslateParams): string {
  const q: Record<string, QueryValue> = {
    'api-version': TRANSLATOR_API_VERSION,
    to: p.to,
    from: p.from,
    textType: p.textType,
    category: p.category,
    profanityAction: p.profanityAction,
    profanityMarker: p.profanityMarker,
    includeAlignment: p.includeAlignment ? 'true' : undefined,
    includeSentenceLength: p.includeSentenceLength ? 'true' : undefined,
    suggestedFrom: p.suggestedFrom,
    fromScript: p.fromScript,
    toScript: p.toScript,
    allowFallback: p.allowFallback === false ? 'false' : undefined,
  };
  return buildQuery(q);
}

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;

export function parseConcurrency(v: string | undefined): number {
  if (v === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || n < 1 || n > MAX_CONCURRENCY) {
    throw new UsageError(`invalid value "${v}" for --concurrency: expected a whole number from 1 to ${MAX_CONCURRENCY}`);
  }
  return n;
}
