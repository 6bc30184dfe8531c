// YAML and JSON glossaries: a map of source terms, each to a map of language -> translation
// (`{ "account statement": { "de": "Kontoauszug", "fr": "relevé de compte" } }`); an empty
// translation is none for that language. The keys are in the run's source language.
import { LANGUAGE_CODE } from '../../../model/translator.js';
import { addTerm, badGlossary, newConcept, SOURCE, type Glossary } from './types.js';

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The YAML document as JS values. A key given twice in a map is refused, naming its line: checked
 * here, one set of keys a map, where the parser's own check (uniqueKeys) compares each key with
 * every key before it (a glossary of 100,000 terms: a minute).
 */
async function parseYaml(text: string, file: string): Promise<unknown> {
  const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  const Y = mod.default ?? mod;
  const lines = new Y.LineCounter();
  const doc = Y.parseDocument(text, { uniqueKeys: false, lineCounter: lines });
  const err = doc.errors[0];
  if (err) throw badGlossary(file, err.message.split('\n')[0]);
  const twice = (node: unknown): void => {
    if (!Y.isMap(node)) return;
    const seen = new Set<unknown>();
    for (const item of node.items) {
      const key = Y.isScalar(item.key) ? item.key.value : item.key;
      if (seen.has(key)) {
        const at = Y.isNode(item.key) && item.key.range ? lines.linePos(item.key.range[0]) : undefined;
        throw badGlossary(file, `the key ${JSON.stringify(key)} is given twice${at ? ` (line ${at.line})` : ''}`);
      }
      seen.add(key);
      twice(item.value);
    }
  };
  twice(doc.contents);
  return doc.toJS();
}

export async function readMap(text: string, file: string, json: boolean): Promise<Glossary> {
  let v: unknown;
  if (json) {
    try {
      v = JSON.parse(text.replace(/^\ufeff/, ''));
    } catch (e) {
      throw badGlossary(file, `not valid JSON (${(e as Error).message})`);
    }
  } else v = await parseYaml(text, file);
  if (v === null || v === undefined) return { file, concepts: [] };
  if (!isMap(v)) throw badGlossary(file, 'not a map of terms (expected { "<term>": { "<lang>": "<translation>" } })');
  const concepts = Object.entries(v).map(([term, tr]) => {
    const name = JSON.stringify(term);
    if (!isMap(tr)) throw badGlossary(file, `the term ${name} is not a map of languages to translations`);
    const c = newConcept();
    addTerm(c, SOURCE, term);
    for (const [lang, t] of Object.entries(tr)) {
      if (!LANGUAGE_CODE.test(lang)) throw badGlossary(file, `the term ${name} has ${JSON.stringify(lang)}, not a language code`);
      if (t === null || t === undefined) continue;
      if (typeof t !== 'string') throw badGlossary(file, `the ${lang} translation of the term ${name} is not a text`);
      addTerm(c, lang, t);
    }
    return c;
  });
  return { file, concepts };
}
