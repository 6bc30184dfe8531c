// An answer as the run holds it while the text stays in memory. The service's common answer,
// `{translations: [{text, to}, ...]}` to the run's targets in order and nothing else, takes three
// objects per text (~130 bytes beside the translations); the run holds only the translated
// strings instead (one target: the string; several: an array of them) and makes the answer again
// when an item is handed out; with the detected language the service adds when no source language
// was given (`{detectedLanguage: {language, score}, translations: [...]}`), one object holds the
// language, its score and the strings. The target codes and the order of `text` and `to` are
// those of the run's first such answer; an answer of any other shape (a transliteration, an
// alignment, sentence lengths, keys in another order, a target code written otherwise) is held
// whole, as it came.
import type { TranslateResult, Translation } from '../../../model/translator.js';

/** An answer held by the run: the translated string(s) of the common shape (with its detected language), or the answer itself. */
export type Held = string | readonly string[] | Detected | TranslateResult;

/** The translated string(s) of an answer of the common shape with the language the service detected. */
class Detected {
  constructor(
    readonly language: string,
    readonly score: number,
    readonly texts: string | readonly string[],
  ) {}
}

// The answers made again are instances of classes, not object literals: V8 counts the objects a
// literal makes, and when enough of them outlive a collection (answers wait for their turn in the
// output) it throws away the code that makes them, mid-run, to make them in the old generation.
// An instance has the same own keys, in the same order, as the literal it stands for.

/** `{translations}` */
class CommonAnswer implements TranslateResult {
  constructor(public translations: Translation[]) {}
}

/** `{detectedLanguage: {language, score}, translations}` */
class DetectedAnswer implements TranslateResult {
  constructor(
    public detectedLanguage: { language: string; score: number },
    public translations: Translation[],
  ) {}
}

class Language {
  constructor(
    public language: string,
    public score: number,
  ) {}
}

/** `{text, to}` */
class TextTo implements Translation {
  constructor(
    public text: string,
    public to: string,
  ) {}
}

/** `{to, text}` */
class ToText implements Translation {
  constructor(
    public to: string,
    public text: string,
  ) {}
}

/** whether `o` has exactly the own enumerable keys `a` then `b` (the order the output keeps), without making an array of them */
function keysAre(o: object, a: string, b?: string): boolean {
  let n = 0;
  for (const k in o) {
    if (n === 0 ? k !== a : n !== 1 || k !== b) return false;
    n++;
  }
  return n === (b === undefined ? 1 : 2);
}

/** One run's way of holding answers: the target codes of the common shape are those of the first answer that has it. */
export class Holder {
  private codes?: readonly string[];
  /** the translations' keys are `to`, `text` (else `text`, `to`) */
  private toFirst = false;

  /** `result` as the run holds it (see Held). */
  hold(result: TranslateResult): Held {
    if (keysAre(result, 'translations')) return this.texts(result.translations) ?? result;
    const d = result.detectedLanguage;
    if (!keysAre(result, 'detectedLanguage', 'translations') || typeof d !== 'object' || d === null || !keysAre(d, 'language', 'score')) return result;
    if (typeof d.language !== 'string' || typeof d.score !== 'number') return result;
    const texts = this.texts(result.translations);
    return texts === undefined ? result : new Detected(d.language, d.score, texts);
  }

  /** the translated string(s) of `ts`, when they are of the common shape */
  private texts(ts: Translation[]): string | string[] | undefined {
    if (!Array.isArray(ts) || ts.length === 0) return undefined;
    let codes = this.codes;
    if (codes === undefined) {
      this.toFirst = typeof ts[0] === 'object' && ts[0] !== null && keysAre(ts[0], 'to', 'text');
      if (!ts.every((t) => this.plain(t))) return undefined;
      codes = this.codes = ts.map((t) => t.to);
    }
    if (ts.length !== codes.length) return undefined;
    if (ts.length === 1) {
      const t = ts[0];
      return this.plain(t) && t.to === codes[0] ? t.text : undefined;
    }
    const texts = new Array<string>(ts.length);
    for (let k = 0; k < ts.length; k++) {
      const t = ts[k];
      if (!this.plain(t) || t.to !== codes[k]) return undefined;
      texts[k] = t.text;
    }
    return texts;
  }

  /** The answer `held` stands for (a new object each time for the common shape). */
  result(held: Held): TranslateResult {
    if (typeof held === 'string' || isTexts(held)) return new CommonAnswer(this.translations(held));
    if (held instanceof Detected) return new DetectedAnswer(new Language(held.language, held.score), this.translations(held.texts));
    return held;
  }

  private translations(texts: string | readonly string[]): Translation[] {
    const codes = this.codes!;
    if (typeof texts === 'string') {
      // (not an array literal: see CommonAnswer)
      const one = new Array<Translation>(1);
      one[0] = this.translation(texts, codes[0]);
      return one;
    }
    const translations = new Array<Translation>(texts.length);
    for (let k = 0; k < texts.length; k++) translations[k] = this.translation(texts[k], codes[k]);
    return translations;
  }

  private translation(text: string, to: string): Translation {
    return this.toFirst ? new ToText(to, text) : new TextTo(text, to);
  }

  private plain(t: Translation | undefined): t is Translation {
    return typeof t === 'object' && t !== null && (this.toFirst ? keysAre(t, 'to', 'text') : keysAre(t, 'text', 'to')) && typeof t.text === 'string' && typeof t.to === 'string';
  }
}

function isTexts(held: Held): held is readonly string[] {
  return Array.isArray(held);
}

/** an array's object and its elements' header (bytes, beside 8 bytes an element) */
export const ARRAY = 56;
/** an object's header (bytes, beside 8 bytes a field), and a number's box */
const OBJECT = 24;
const NUMBER = 16;

/**
 * The heap a string takes, about (bytes): V8 keeps a string whose characters are all Latin-1 in
 * one byte a character, any other in two; a header, and the characters rounded up to 8 bytes.
 */
export function textBytes(s: string): number {
  const chars = BEYOND_LATIN1.test(s) ? s.length * 2 : s.length;
  return 16 + ((chars + 7) & ~7);
}

const BEYOND_LATIN1 = /[^\0-\xff]/;

/** The heap a held answer takes, about (bytes): its strings, and its objects when held whole. */
export function heldBytes(held: Held): number {
  if (typeof held === 'string') return textBytes(held);
  if (held instanceof Detected) return OBJECT + 3 * 8 + NUMBER + textBytes(held.language) + heldBytes(held.texts);
  return valueBytes(held);
}

function valueBytes(v: unknown): number {
  if (typeof v === 'string') return textBytes(v);
  if (typeof v === 'number') return NUMBER;
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  let bytes = 0;
  if (Array.isArray(v)) {
    for (const x of v as unknown[]) bytes += valueBytes(x);
    return ARRAY + 8 * v.length + bytes;
  }
  for (const k in v) {
    n++;
    bytes += valueBytes((v as Record<string, unknown>)[k]);
  }
  return OBJECT + 8 * n + bytes;
}
