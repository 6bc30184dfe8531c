// Plural forms per target language for the formats that spell them out by CLDR category (Android
// <plurals>, Apple .stringsdict and String Catalog variations, ICU plurals of Flutter ARB): the
// categories come from Intl.PluralRules (CLDR data), never from a hand-kept list.
import { pluralCategories } from './json.js';

/**
 * The forms a target language gets, each with the index (in `source`, the source's categories in
 * its order) of the form it is translated from: the same category, else `other` (else the last).
 */
export function formsFor(lang: string, source: readonly string[], ordinal = false): { cat: string; from: number }[] {
  const other = source.includes('other') ? source.indexOf('other') : source.length - 1;
  return pluralCategories(lang, ordinal).map((cat) => ({ cat, from: source.includes(cat) ? source.indexOf(cat) : other }));
}
