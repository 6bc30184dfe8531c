// Plural forms per target language for the formats that spell them out by CLDR category (Android
// <plurals>, Apple .stringsdict and String Catalog variations, ICU plurals of Flutter ARB): the
// categories come from Intl.PluralRules (CLDR data), never from a hand-kept list.
import type { Piece } from './piece.js';
import type { TranslationPair } from './types.js';

/** CLDR's plural categories, in their conventional order */
const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;

const categoryCache = new Map<string, string[]>();

/** The plural categories of a language (cardinal or ordinal), as Intl knows them. */
export function pluralCategories(lang: string, ordinal = false): string[] {
  const key = `${lang}/${ordinal}`;
  const cached = categoryCache.get(key);
  if (cached) return [...cached];
  let cats: string[];
  try {
    cats = new Intl.PluralRules(lang, { type: ordinal ? 'ordinal' : 'cardinal' }).resolvedOptions().pluralCategories as string[];
  } catch {
    cats = ['one', 'other'];
  }
  const out = CATEGORIES.filter((c) => cats.includes(c));
  categoryCache.set(key, out);
  return [...out];
}

/**
 * The forms a target language gets, each with the index (in `source`, the source's categories in
 * its order) of the form it is translated from: the same category, else `other` (else the last).
 */
export function formsFor(lang: string, source: readonly string[], ordinal = false): { cat: string; from: number }[] {
  const other = source.includes('other') ? source.indexOf('other') : source.length - 1;
  return pluralCategories(lang, ordinal).map((cat) => ({ cat, from: source.includes(cat) ? source.indexOf(cat) : other }));
}

/** the categories of one number in most languages: a form for them may leave the number out ("one file") */
const SINGLE = new Set(['zero', 'one', 'two']);

/**
 * A unit's translated forms beside the source forms they come from (`forms`: per translated form,
 * its category and source form, as formsFor gives them); without forms, or when the counts
 * differ, by index (the last source form for the forms past it).
 */
export function formPairs(parts: readonly Piece[][], translations: readonly Piece[][], forms?: readonly { cat: string; from: number }[]): TranslationPair[] {
  if (forms && forms.length === translations.length) {
    return translations.map((t, i) => ({ source: parts[forms[i].from], translation: t, ...(parts.length > 1 && SINGLE.has(forms[i].cat) ? { mayOmit: true } : {}) }));
  }
  return translations.map((t, i) => ({ source: parts[Math.min(i, parts.length - 1)], translation: t }));
}
