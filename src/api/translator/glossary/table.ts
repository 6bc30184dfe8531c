// CSV and TSV glossaries: a header row of language codes (`en,de,fr`), then one concept a row,
// one term a cell; an empty cell is no term for that language. Read with papaparse (RFC 4180:
// quoted cells may hold the separator, quotes and line breaks).
import { LANGUAGE_CODE } from '../../../model/translator.js';
import { addTerm, badGlossary, newConcept, type Glossary } from './types.js';

type Papa = typeof import('papaparse');

async function papa(): Promise<Papa> {
  const mod = (await import('papaparse')) as { default?: Papa } & Papa;
  return mod.default ?? mod;
}

export async function readTable(text: string, file: string, delimiter: ',' | '\t'): Promise<Glossary> {
  const parsed = (await papa()).parse<string[]>(text.replace(/^\ufeff/, ''), { delimiter, skipEmptyLines: 'greedy' });
  const err = parsed.errors[0];
  if (err) throw badGlossary(file, `line ${(err.row ?? 0) + 1}: ${err.message}`);
  const [header, ...rows] = parsed.data;
  if (!header) throw badGlossary(file, 'it is empty (a header row of language codes comes first: en,de,fr)');
  const langs = header.map((h, i) => {
    const code = h.trim();
    if (!LANGUAGE_CODE.test(code)) throw badGlossary(file, `column ${i + 1} of the header is ${JSON.stringify(code)}, not a language code (the header names each column's language: en,de,fr)`);
    return code;
  });
  const seen = new Set<string>();
  for (const l of langs) {
    if (seen.has(l.toLowerCase())) throw badGlossary(file, `the header names ${l} twice`);
    seen.add(l.toLowerCase());
  }
  const concepts = rows.map((row, r) => {
    if (row.length > langs.length) throw badGlossary(file, `line ${r + 2} has ${row.length} cells, the header ${langs.length}`);
    const c = newConcept();
    row.forEach((cell, i) => addTerm(c, langs[i], cell));
    return c;
  });
  return { file, concepts };
}
