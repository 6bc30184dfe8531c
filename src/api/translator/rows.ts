// The shapes a translation result is shown in: table/tsv rows (one per item and target) and the
// `text` lines. Pure functions of the results; the CLI picks the format and writes them.
import type { Column } from '../../core/output.js';
import type { TranslateResult } from '../../spec/translator.js';
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

/** `text`: the translation, one line per item; with several targets `<lang>\t<text>` lines in --to order; the transliteration as one more column when asked. */
export function textOf(r: TranslateResult, several: boolean): string {
  let s = '';
  for (const t of r.translations ?? []) {
    s += several ? `${t.to}\t${t.text}` : t.text;
    if (t.transliteration) s += `\t${t.transliteration.text}`;
    s += '\n';
  }
  return s;
}

