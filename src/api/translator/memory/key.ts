// The key model of the translation memory: one entry per (source text, target and options), keys
// UTF-8 text:
//
//   key   \x01 + options id + the source text              (texts of up to 600 UTF-16 units)
//         \x03 + options id + SHA-256 of the text's UTF-16, hex (longer texts, and ill-formed ones)
//
// The text in the key needs no hashing and no check on a hit. The options id (16 hex digits of
// SHA-256 of the canonical options) names a record (\x02 + id) holding those options: from (or
// detected, with suggestedFrom), to, textType, category, profanity action and marker, alignment
// and sentence-length flags, fromScript, the toScript of that target, allowFallback. Key \x00
// "format" marks the store as a vx translation memory; key \x05 "solo", while it is there, marks
// the file as used by a run alone (solo.ts). The values are codec.ts's.
import { createHash } from 'node:crypto';
import type { TranslateParams } from '../options.js';

export const FORMAT = 'vx-translation-memory 2';

export const META = '\u0000format';
export const ENTRY = '\u0001';
export const OPTIONS = '\u0002';
export const HASHED = '\u0003';
/** the ranges of entry keys, in key order: [start, end) */
export const ENTRY_RANGES: readonly (readonly [string, string])[] = [
  [ENTRY, OPTIONS],
  [HASHED, '\u0004'],
];
/** the longest source text kept in the key itself: 3 UTF-8 bytes a unit at most, within LMDB's 1,978-byte keys */
const KEY_TEXT_MAX = 600;

/** The options of one target, as the key sees them (defaults spelled out, ineffective ones dropped). */
export interface KeyOptions {
  /** the source language, or '' when the service detects it */
  from: string;
  /** suggestedFrom, only when the source is detected */
  suggestedFrom: string;
  to: string;
  textType: string;
  category: string;
  profanityAction: string;
  profanityMarker: string;
  alignment: boolean;
  sentenceLength: boolean;
  fromScript: string;
  toScript: string;
  allowFallback: boolean;
}

/** The key options of each target of a request, in --to order. */
export function keyOptions(p: TranslateParams): KeyOptions[] {
  const lower = (s: string | undefined) => (s ?? '').toLowerCase();
  const action = p.profanityAction ?? 'NoAction';
  const category = p.category === undefined || p.category.toLowerCase() === 'general' ? '' : p.category;
  return p.to.map((to, i) => ({
    from: lower(p.from),
    suggestedFrom: p.from ? '' : lower(p.suggestedFrom),
    to: lower(to),
    textType: p.textType ?? 'plain',
    category,
    profanityAction: action,
    profanityMarker: action === 'Marked' ? (p.profanityMarker ?? 'Asterisk') : '',
    alignment: p.includeAlignment === true,
    sentenceLength: p.includeSentenceLength === true,
    fromScript: p.fromScript ?? '',
    toScript: p.toScript?.[i] ?? '',
    // without a category the service's general system answers either way
    allowFallback: category ? p.allowFallback !== false : true,
  }));
}

/** The options id: 8 bytes of SHA-256 of the canonical options, hex. */
export function optionsId(o: KeyOptions): string {
  return createHash('sha256').update(canonical(o)).digest('hex').slice(0, 16);
}

export function canonical(o: KeyOptions): string {
  return JSON.stringify([o.from, o.suggestedFrom, o.to, o.textType, o.category, o.profanityAction, o.profanityMarker, o.alignment, o.sentenceLength, o.fromScript, o.toScript, o.allowFallback]);
}

export function fromCanonical(s: string): KeyOptions {
  const a = JSON.parse(s) as unknown[];
  const [from, suggestedFrom, to, textType, category, profanityAction, profanityMarker, alignment, sentenceLength, fromScript, toScript, allowFallback] = a;
  return { from, suggestedFrom, to, textType, category, profanityAction, profanityMarker, alignment, sentenceLength, fromScript, toScript, allowFallback } as KeyOptions;
}

/** The entry key of `text` under options `id`: the text itself, or its hash when it is long or ill-formed. */
export function entryKey(id: string, text: string): string {
  return text.length <= KEY_TEXT_MAX && isWellFormed(text) ? ENTRY + id + text : HASHED + id + createHash('sha256').update(text, 'utf16le').digest('hex');
}

/**
 * The entry key of `text` under options `id` translated with a glossary's terms (`applied`: the
 * terms and their translations that applied to it, see api/translator/glossary): hashed with
 * them, so that a changed term sends again exactly the texts that hold it (the value keeps the text).
 */
function glossaryKey(id: string, text: string, applied: string): string {
  return HASHED + id + createHash('sha256').update(`${text}\u0000glossary\u0000${applied}`, 'utf16le').digest('hex');
}

/** The entry keys of a memory's options ids: with a run's glossary, those of the texts its terms applied to hold them. */
export class EntryKeys {
  /** options id -> its target language (what a glossary applied depends on it) */
  private readonly targetOf = new Map<string, string>();
  /** what of a run's glossary applied to a text for a target */
  applied?: (text: string, to: string) => string | undefined;

  target(id: string, to: string): void {
    this.targetOf.set(id, to);
  }

  of(id: string, text: string): string {
    const terms = this.applied?.(text, this.targetOf.get(id) ?? '');
    return terms === undefined ? entryKey(id, text) : glossaryKey(id, text, terms);
  }
}

/** whether an entry key holds its source text (else the text's hash, and the value holds the text) */
export function textKeyed(key: string): boolean {
  return key[0] === ENTRY;
}

/** where an entry key's source text (or hash) begins: after the kind and the 16-digit options id */
export const ID_END = 17;

/** no lone surrogate (UTF-8 would turn it into U+FFFD: two texts, one key) */
const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
