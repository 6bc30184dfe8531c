// CSV and TSV glossaries: a header row that names each column's language, then one concept a row,
// one term a cell; an empty cell is no term for that language. Read with papaparse (RFC 4180:
// quoted cells may hold the separator, quotes and line breaks). A header cell is a language code
// (`en,de,fr`), or a field of a language as Crowdin names it: `Term [en]` or `Term:en` is that
// language's terms, any other field (`Description [en]`, `Part of Speech [en]`, `Part:English`)
// says something of a term and is not read. A cell that is neither is refused, unless the file is
// one of the bilingual forms other services take: a header with `source` and `target` columns
// (Weblate's, translate-toolkit's, `source_term,target_term`; its other columns not read), or no
// header at all, a term and its translation a row (DeepL's and Google's glossary entries), with
// the source and target languages after them on every row (DeepL's export:
// `term,translation,EN,DE`, and its relevance). Two columns that name no language are in the run's
// source language and its one target.
import { LANGUAGE_CODE } from '../../../model/translator.js';
import { addTerm, badGlossary, newConcept, SOURCE, TARGET, type Concept, type Glossary } from './types.js';

type Papa = typeof import('papaparse');

async function papa(): Promise<Papa> {
  const mod = (await import('papaparse')) as { default?: Papa } & Papa;
  return mod.default ?? mod;
}

/** `Field [lang]` or `Field:lang` */
const FIELD = /^(.+?)\s*(?:\[\s*([^\]]*?)\s*\]|:\s*(.*?))$/;

/** The language of a header cell's terms, or undefined for a column that holds no terms. */
function columnLanguage(cell: string, i: number, file: string): string | undefined {
  const h = cell.trim();
  if (LANGUAGE_CODE.test(h)) return h;
  const m = FIELD.exec(h);
  if (!m) throw badGlossary(file, `column ${i + 1} of the header is ${JSON.stringify(h)}, not a language code (the header names each column's language: en,de,fr, or Term [en] and Description [en] as Crowdin writes them)`);
  if (m[1].toLowerCase() !== 'term') return undefined;
  const lang = m[2] ?? m[3];
  if (!LANGUAGE_CODE.test(lang)) throw badGlossary(file, `column ${i + 1} of the header is ${JSON.stringify(h)}: ${JSON.stringify(lang)} is not a language code (name the language by its code: Term [en] or Term:en)`);
  return lang;
}

export async function readTable(text: string, file: string, delimiter: ',' | '\t'): Promise<Glossary> {
  const parsed = (await papa()).parse<string[]>(text.replace(/^\ufeff/, ''), { delimiter, skipEmptyLines: 'greedy' });
  const err = parsed.errors[0];
  if (err) throw badGlossary(file, `line ${(err.row ?? 0) + 1}: ${err.message}`);
  const [header, ...rows] = parsed.data;
  if (!header) throw badGlossary(file, 'it is empty (a header row of language codes comes first: en,de,fr)');
  const bilingual = bilingualTable(parsed.data);
  if (bilingual) return { file, concepts: bilingual };
  const langs = header.map((h, i) => columnLanguage(h, i, file));
  const seen = new Set<string>();
  for (const l of langs) {
    if (l === undefined) continue;
    if (seen.has(l.toLowerCase())) throw badGlossary(file, `the header names ${l} twice`);
    seen.add(l.toLowerCase());
  }
  if (!seen.size) throw badGlossary(file, 'its header names no column of terms (language codes: en,de,fr, or Term [en])');
  const concepts = rows.map((row, r) => {
    if (row.length > langs.length) throw badGlossary(file, `line ${r + 2} has ${row.length} cells, the header ${langs.length}`);
    const c = newConcept();
    row.forEach((cell, i) => {
      const lang = langs[i];
      if (lang !== undefined) addTerm(c, lang, cell);
    });
    return c;
  });
  return { file, concepts };
}

/** the header of a bilingual table's columns: `source` and `target` (also `source_term`, `Target term`, `target-text`) */
const SOURCE_COLUMN = /^source(?:[ _-]?(?:term|text|phrase))?$/i;
const TARGET_COLUMN = /^target(?:[ _-]?(?:term|text|phrase))?$/i;

/** a concept of a term and its translation */
function pair(term: string, sourceLang: string, translation: string, targetLang: string): Concept {
  const c = newConcept();
  addTerm(c, sourceLang, term);
  addTerm(c, targetLang, translation);
  return c;
}

/**
 * The concepts of a bilingual table (see the top of this file), or undefined when `rows` (the
 * first one a header, if any) are not one. Rows of 4 or 5 cells, language codes in the third and
 * fourth, are DeepL's; otherwise a first row whose every cell is a language code or a Crowdin field
 * is a header, and so is a first row of two cells with a language code in it (`en,Notes`, refused
 * as one).
 */
function bilingualTable(rows: readonly string[][]): Concept[] | undefined {
  // (DeepL's first: its rows' terms may look like anything, its languages are where no header's terms are)
  const languages = (r: readonly string[]) => (r.length === 4 || r.length === 5) && LANGUAGE_CODE.test(r[2].trim()) && LANGUAGE_CODE.test(r[3].trim());
  if (rows.every(languages)) return rows.map((r) => pair(r[0], r[2].trim(), r[1], r[3].trim()));
  const first = rows[0].map((h) => h.trim());
  const named = (h: string) => LANGUAGE_CODE.test(h) || FIELD.test(h);
  if (first.every(named)) return undefined;
  const s = first.findIndex((h) => SOURCE_COLUMN.test(h));
  const t = first.findIndex((h) => TARGET_COLUMN.test(h));
  if (s >= 0 && t >= 0) return rows.slice(1).map((r) => pair(r[s] ?? '', SOURCE, r[t] ?? '', TARGET));
  if (!first.some(named) && rows.every((r) => r.length === 2)) return rows.map((r) => pair(r[0], SOURCE, r[1], TARGET));
  return undefined;
}
