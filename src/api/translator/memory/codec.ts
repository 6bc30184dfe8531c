// The values of the translation memory, UTF-8 text:
//
//   S<stored>\0<to>\0<translation>                    the result {translations:[{text,to}]}
//   D<stored>\0<language>\0<score>\0<to>\0<translation> the same with detectedLanguage first
//   J<stored>\0<the result as JSON>                    any other result
//   H<stored>\0<JSON [source text, result]>           (under a hashed key)
//
// <stored> is unix seconds. The compact values need no JSON parse for the common answers (hits
// cost ~1 µs, not ~6). A result stored for one target holds the item-level fields
// (detectedLanguage, sourceText) as the service sent them, so a hit for every target of an item
// rebuilds exactly what the service returned.
import type { TranslateResult, Translation } from '../../../model/translator.js';

export interface Decoded {
  stored: number;
  result: TranslateResult;
  /** the source text, under a hashed key */
  source?: string;
}

/** The stored form of `result` (see the top of this file); `source` under a hashed key. */
export function encodeValue(stored: number, result: TranslateResult, source?: string): string {
  if (source !== undefined) return `H${stored}\0${JSON.stringify([source, result])}`;
  const t = result.translations?.length === 1 ? result.translations[0] : undefined;
  if (t && exactly(t, 'text', 'to') && typeof t.text === 'string' && typeof t.to === 'string' && !t.to.includes('\0')) {
    if (exactly(result, 'translations')) return `S${stored}\0${t.to}\0${t.text}`;
    const d = result.detectedLanguage;
    if (exactly(result, 'detectedLanguage', 'translations') && d && exactly(d, 'language', 'score') && typeof d.language === 'string' && !d.language.includes('\0') && typeof d.score === 'number' && Number.isFinite(d.score)) {
      return `D${stored}\0${d.language}\0${d.score}\0${t.to}\0${t.text}`;
    }
  }
  return `J${stored}\0${JSON.stringify(result)}`;
}

/** whether `o` has exactly these own keys, in this order (the order JSON output keeps) */
function exactly(o: object, ...keys: string[]): boolean {
  const k = Object.keys(o);
  if (k.length !== keys.length) return false;
  for (let i = 0; i < k.length; i++) if (k[i] !== keys[i]) return false;
  return true;
}

/** The entry a stored value holds, or undefined when it is not one vx wrote. */
export function decodeValue(v: string): Decoded | undefined {
  const a = v.indexOf('\0');
  if (a < 2) return undefined;
  const stored = Number(v.slice(1, a));
  if (!Number.isInteger(stored)) return undefined;
  switch (v.charCodeAt(0)) {
    case 0x53 /* S */: {
      const b = v.indexOf('\0', a + 1);
      if (b < 0) return undefined;
      return { stored, result: { translations: [{ text: v.slice(b + 1), to: v.slice(a + 1, b) }] } };
    }
    case 0x44 /* D */: {
      const b = v.indexOf('\0', a + 1);
      const c = b < 0 ? -1 : v.indexOf('\0', b + 1);
      const d = c < 0 ? -1 : v.indexOf('\0', c + 1);
      if (d < 0) return undefined;
      const score = Number(v.slice(b + 1, c));
      return { stored, result: { detectedLanguage: { language: v.slice(a + 1, b), score }, translations: [{ text: v.slice(d + 1), to: v.slice(c + 1, d) }] } };
    }
    case 0x4a /* J */:
    case 0x48 /* H */: {
      try {
        const j = JSON.parse(v.slice(a + 1)) as unknown;
        if (v.charCodeAt(0) === 0x4a) return isResult(j) ? { stored, result: j } : undefined;
        return Array.isArray(j) && j.length === 2 && typeof j[0] === 'string' && isResult(j[1]) ? { stored, source: j[0], result: j[1] } : undefined;
      } catch {
        return undefined;
      }
    }
    default:
      return undefined;
  }
}

function isResult(j: unknown): j is TranslateResult {
  const ts = typeof j === 'object' && j !== null ? (j as TranslateResult).translations : undefined;
  // an entry holds one target's translation, with its text (an entry without one is a miss: the
  // text is sent again rather than answered with nothing)
  return Array.isArray(ts) && ts.length > 0 && ts.every(hasText);
}

/** A translation with the text and language a hit is answered with. */
export function hasText(t: Translation | undefined): t is Translation {
  return typeof t?.text === 'string' && typeof t.to === 'string';
}
