// What the memory holds of a text for each target, whole or in part, and how the parts and a fresh
// answer make one result (in --to order).
import type { TranslateResult, Translation } from '../../../model/translator.js';

/** What is stored for each target of a text: whole, in part (with `parts`), or nothing. */
export function toRecall(found: (TranslateResult | undefined)[], parts: boolean): Recall | undefined {
  const missing: number[] = [];
  found.forEach((p, k) => p || missing.push(k));
  if (!missing.length) return { result: joinParts(found as TranslateResult[]) };
  return parts && missing.length < found.length ? { parts: found, missing } : undefined;
}

/** The result of an item for every target from what is stored for each (in --to order): the first one's item fields, each one's translation. */
export function joinParts(parts: readonly TranslateResult[]): TranslateResult {
  return { ...parts[0], translations: parts.map((p) => p.translations[0]) };
}

/**
 * The result for every target of an item partly answered by the memory: the stored parts (in --to
 * order; undefined where missing) and the service's answer `fresh` for the missing targets (in
 * `missing` order). What the item carries beside its translations (detectedLanguage, sourceText)
 * comes from the answer; the translations are in --to order, as one request for all would give.
 */
export function completeResult(parts: readonly (TranslateResult | undefined)[], missing: readonly number[], fresh: TranslateResult): TranslateResult {
  const translations = parts.map((p) => p?.translations[0]);
  missing.forEach((k, j) => (translations[k] = fresh.translations[j]));
  return { ...fresh, translations: translations as Translation[] };
}

/**
 * What the memory holds of a text for each target (`ids` in --to order): the whole result when
 * every target is there; when some are, the stored parts (undefined where one is missing) and the
 * indexes of the missing targets, which alone need sending (see completeResult).
 */
export type Recall = { result: TranslateResult } | { parts: (TranslateResult | undefined)[]; missing: number[] };

/**
 * What a claim of a text gives (see claim): the whole result (answered meanwhile), the stored parts
 * and the missing targets this run now holds and sends, or 'held' (another run is translating it).
 */
export type Claimed = Recall | 'held';
