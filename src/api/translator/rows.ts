// The shapes a translation result is shown in: table/tsv rows (one per item and target) and the
// `text` lines. Pure functions of the results; the CLI picks the format and writes them.
import { terminalText } from '../../core/errors.js';
import type { Column } from '../../core/output/index.js';
import { findLanguage, type TranslateResult } from '../../model/translator.js';
import type { TranslateParams } from './options.js';

/** One table/tsv/csv row per item and target. */
export interface Row {
  input: string;
  detected?: string;
  score?: string;
  to: string;
  translation: string;
  transliteration?: string;
  alignment?: string;
  sentences?: string;
}

export function columnsFor(p: TranslateParams): Column[] {
  const cols: Column[] = [{ header: 'input', get: 'input' }];
  if (!p.from) cols.push({ header: 'detected', get: 'detected' }, { header: 'score', get: 'score', align: 'right' });
  cols.push({ header: 'to', get: 'to' }, { header: 'translation', get: 'translation' });
  if (p.toScript) cols.push({ header: 'transliteration', get: 'transliteration' });
  if (p.includeAlignment) cols.push({ header: 'alignment', get: 'alignment' });
  if (p.includeSentenceLength) cols.push({ header: 'sentence lengths', get: 'sentences' });
  return cols;
}

/** The rows of one result; `repeatInput`: the input on every row (tsv, csv) or on the first only (table). */
export function rowsOf(input: string, r: TranslateResult, repeatInput: boolean): Row[] {
  return (r.translations ?? []).map((t, i) => ({
    input: i === 0 || repeatInput ? input : '',
    detected: r.detectedLanguage?.language,
    score: typeof r.detectedLanguage?.score === 'number' ? r.detectedLanguage.score.toFixed(2) : undefined,
    to: t.to,
    translation: t.text,
    transliteration: t.transliteration?.text,
    alignment: t.alignment?.proj,
    sentences: t.sentLen ? `${(t.sentLen.srcSentLen ?? []).join(',')} -> ${(t.sentLen.transSentLen ?? []).join(',')}` : undefined,
  }));
}

/**
 * `text`: the translation, one line per item; with several targets `<lang>\t<text>` lines in --to
 * order; the transliteration as one more column when it was asked (`transliterated`: --to-script;
 * a service that sends one unasked adds no column). With `oneLine` (every mode but --whole) a
 * translation is written as tsv writes a cell: `\` as `\\`, a line break `\n` (`\r`), other
 * control characters `\uXXXX`, and a tab `\t` when a column follows it (the transliteration): line
 * N is always item N, and every line reads back to exactly one text.
 */
export function textOf(r: TranslateResult, several: boolean, oneLine = true, transliterated = false): string {
  let s = '';
  const cell = !oneLine ? terminalText : transliterated ? (x: string) => escapeOneLine(x).replace(/\t/g, '\\t') : escapeOneLine;
  for (const t of r.translations ?? []) {
    s += several ? `${t.to}\t${cell(t.text)}` : cell(t.text);
    if (transliterated) s += `\t${cell(t.transliteration?.text ?? '')}`;
    s += '\n';
  }
  return s;
}

/**
 * The `text` lines of consecutive results, as textOf writes each, in one string: the common case
 * (one target, one line per item, no transliteration) without a call of textOf per item.
 */
export function textsOf(results: readonly TranslateResult[], several: boolean, oneLine = true, transliterated = false): string {
  let s = '';
  for (const r of results) {
    const ts = r?.translations;
    const text = !several && oneLine && !transliterated && ts?.length === 1 ? ts[0]?.text : undefined;
    s += typeof text === 'string' ? `${escapeOneLine(text)}\n` : textOf(r, several, oneLine, transliterated);
  }
  return s;
}

/** what a one-line text escapes: the backslash, control characters, bidirectional overrides */
const TO_ESCAPE = /[\\\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** a text on one line, reversibly: `\\`, `\n`, `\r`, the rest as terminalText writes it (`\u001b`); a tab kept */
function escapeOneLine(text: string): string {
  // nearly every text has nothing to escape: one test, then nothing to do
  if (!TO_ESCAPE.test(text)) return text;
  return terminalText(text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n'));
}

/** two spellings of one supported language (`zh-cn` and `zh-Hans`) */
function sameLanguage(a: string, b: string): boolean {
  const ca = findLanguage(a);
  return ca !== undefined && ca === findLanguage(b);
}

/** What is wrong with a result's detected language, if anything: a language code and a score from 0 to 1 (never "NaN"). */
function detectionProblem(d: unknown): string | undefined {
  if (d === undefined) return undefined;
  const { language, score } = (d ?? {}) as { language?: unknown; score?: unknown };
  if (typeof language !== 'string' || !language) return `its detected language is ${JSON.stringify(language ?? null)}, not a language code`;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) return `the score of its detected language is ${JSON.stringify(score ?? null)}, not a number from 0 to 1`;
  return undefined;
}

/**
 * The first result that does not match its item: one translation per target, in --to order, each
 * with a text (a missing one would print "undefined" or shift every later line), and a detected
 * language that is one. Undefined when all match.
 */
export function mismatch(results: readonly TranslateResult[], to: readonly string[]): { index: number; why: string } | undefined {
  const lower = to.map((t) => t.toLowerCase());
  for (let i = 0; i < results.length; i++) {
    const ts = results[i]?.translations;
    if (!Array.isArray(ts)) return { index: i, why: 'it has no translations array' };
    if (ts.length !== to.length) return { index: i, why: `${ts.length} translation${ts.length === 1 ? '' : 's'} for ${to.length} target${to.length === 1 ? '' : 's'} (${to.join(', ')})` };
    for (let k = 0; k < ts.length; k++) {
      const t = ts[k];
      // the service writes the code as --to did, mostly: compare without lower-casing first; an
      // older code it still accepts comes back as the current one (zh-cn -> zh-Hans)
      if (typeof t?.to !== 'string' || (t.to !== to[k] && t.to.toLowerCase() !== lower[k] && !sameLanguage(t.to, to[k]))) {
        return { index: i, why: `translation ${k + 1} is to ${JSON.stringify(t?.to ?? null)}, expected ${to[k]} (the --to order)` };
      }
      if (typeof t.text !== 'string') return { index: i, why: `the translation to ${to[k]} has no text (${t.text === undefined ? 'missing' : JSON.stringify(t.text)})` };
    }
    const detected = detectionProblem(results[i]!.detectedLanguage);
    if (detected) return { index: i, why: detected };
  }
  return undefined;
}
