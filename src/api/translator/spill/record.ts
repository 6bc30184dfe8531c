// A spilled text and its answer as one string (written as UTF-8): the text's length in UTF-16
// units, ';', the text, then the result. The results of the common shapes are joined by NULs
// (`{translations:[{text,to}...]}`, with `detectedLanguage` first or not), so that spilling a
// million answers costs no JSON; any other result is JSON, as is one with a NUL in a field.
import type { TranslateResult, Translation } from '../../../model/translator.js';

/** whether `o` has exactly these own keys, in this order (the order the output keeps) */
function exactly(o: object, a: string, b?: string): boolean {
  const k = Object.keys(o);
  return k.length === (b === undefined ? 1 : 2) && k[0] === a && (b === undefined || k[1] === b);
}

const plain = (s: unknown): s is string => typeof s === 'string' && !s.includes('\0');

/** the translations joined by NULs (to, text, to, text...), or undefined when one is not a plain {text, to} */
function joined(ts: readonly Translation[]): string | undefined {
  let out = '';
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i];
    if (!t || !exactly(t, 'text', 'to') || !plain(t.text) || !plain(t.to)) return undefined;
    out += `${i ? '\0' : ''}${t.to}\0${t.text}`;
  }
  return out;
}

function encodeResult(r: TranslateResult): string {
  const ts = r.translations;
  if (Array.isArray(ts) && ts.length) {
    const d = r.detectedLanguage;
    if (exactly(r, 'translations')) {
      const j = joined(ts);
      if (j !== undefined) return `T${j}`;
    } else if (exactly(r, 'detectedLanguage', 'translations') && d && exactly(d, 'language', 'score') && plain(d.language) && typeof d.score === 'number' && Number.isFinite(d.score)) {
      const j = joined(ts);
      if (j !== undefined) return `D${d.language}\0${d.score}\0${j}`;
    }
  }
  return `J${JSON.stringify(r)}`;
}

function decodeResult(s: string): TranslateResult {
  if (s[0] === 'J') return JSON.parse(s.slice(1)) as TranslateResult;
  const f = s.slice(1).split('\0');
  let at = 0;
  let detectedLanguage: TranslateResult['detectedLanguage'];
  if (s[0] === 'D') {
    detectedLanguage = { language: f[0], score: Number(f[1]) };
    at = 2;
  }
  const translations: Translation[] = [];
  for (; at < f.length; at += 2) translations.push({ text: f[at + 1], to: f[at] });
  return detectedLanguage ? { detectedLanguage, translations } : { translations };
}

/** The record of `text` and its result (none: the text only, as an estimate spills it). */
export function encodeRecord(text: string, result: TranslateResult | undefined): string {
  return `${text.length};${text}${result ? encodeResult(result) : ''}`;
}

/** The record's result, when it has one. */
export function decodeRecord(record: string): TranslateResult | undefined {
  const semi = record.indexOf(';');
  const end = semi + 1 + Number(record.slice(0, semi));
  return end < record.length ? decodeResult(record.slice(end)) : undefined;
}

/** Whether `record` is the record of `text` (compared without decoding its result). */
export function recordOf(record: string, text: string): boolean {
  const semi = record.indexOf(';');
  return Number(record.slice(0, semi)) === text.length && record.startsWith(text, semi + 1);
}
