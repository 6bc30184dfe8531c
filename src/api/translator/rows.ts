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
 * order; the transliteration as one more column when asked. With `oneLine` (every mode but
 * --whole) a line break inside a translation is written `\n` (`\r`), so line N of the output is
 * always item N.
 */
export function textOf(r: TranslateResult, several: boolean, oneLine = true): string {
  let s = '';
  const line = oneLine ? escapeBreaks : terminalText;
  for (const t of r.translations ?? []) {
    // the transliteration is one more column: a tab inside either text would shift it (written \t, as tsv does)
    const cell = t.transliteration ? (x: string) => line(x).replace(/\t/g, '\\t') : line;
    s += several ? `${t.to}\t${cell(t.text)}` : cell(t.text);
    if (t.transliteration) s += `\t${cell(t.transliteration.text)}`;
    s += '\n';
  }
  return s;
}


const BREAK = /\r\n|\r|\n/;
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** a text on one line: its line breaks written as `\n` / `\r`, other control characters escaped (terminalText) */
function escapeBreaks(text: string): string {
  // nearly every text has no control character at all: one test, then nothing to do
  if (!ANY_CONTROL.test(text)) return text;
  return terminalText(BREAK.test(text) ? text.replace(/\n/g, '\\n') : text);
}

/** two spellings of one supported language (`zh-cn` and `zh-Hans`) */
function sameLanguage(a: string, b: string): boolean {
  const ca = findLanguage(a);
  return ca !== undefined && ca === findLanguage(b);
}

/**
 * The first result that does not match its item: one translation per target, in --to order, each
 * with a text (a missing one would print "undefined" or shift every later line). Undefined when
 * all match.
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
  }
  return undefined;
}
