// TBX glossaries (ISO 30042, TermBase eXchange): one concept per termEntry (TBX 2, conceptEntry in
// TBX 3), its terms per language in langSet (langSec) with xml:lang, each term in a tig or ntig
// (termSec). A termNote of type administrativeStatus ranks it: preferredTerm-admn-sts first,
// admitted (or none) next, deprecatedTerm-admn-sts and supersededTerm-admn-sts are forbidden:
// never the translation asked for, and reported when a translation uses one (vx translate check).
// Read with saxes, the conforming parser of vx's XML formats: a malformed file is refused with its
// line and column.
import { addTerm, badGlossary, newConcept, type Concept, type Glossary } from './types.js';

const ENTRY = new Set(['termEntry', 'conceptEntry']);
const LANG = new Set(['langSet', 'langSec']);
const TERM_GROUP = new Set(['tig', 'ntig', 'termSec']);

/** 0 preferred, 1 admitted or unsaid, 2 forbidden */
function rank(status: string): number {
  const s = status.trim().toLowerCase();
  if (/deprecated|superseded|forbidden/.test(s)) return 2;
  return s.startsWith('preferred') ? 0 : 1;
}

interface Reading {
  concept?: Concept;
  lang?: string;
  /** the terms of the language being read, with their rank */
  found: { term: string; rank: number }[];
  term?: { text: string; status: string };
  /** collecting the text of a term (depth of elements inside it) or of an administrativeStatus note */
  inTerm: number;
  inStatus: boolean;
}

/** The language's terms into the concept: preferred first, forbidden apart. */
function closeLang(r: Reading): void {
  const found = r.found.sort((a, b) => a.rank - b.rank);
  for (const f of found) addTerm(r.concept!, r.lang!, f.term, f.rank === 2);
  r.found = [];
  r.lang = undefined;
}

export async function readTbx(text: string, file: string): Promise<Glossary> {
  const { SaxesParser } = await import('saxes');
  const parser = new SaxesParser({ xmlns: false });
  const concepts: Concept[] = [];
  const r: Reading = { found: [], inTerm: 0, inStatus: false };
  let entries = 0;
  parser.on('opentag', (tag) => {
    const name = tag.name;
    if (r.inTerm) r.inTerm++;
    else if (ENTRY.has(name)) {
      r.concept = newConcept();
      entries++;
    } else if (LANG.has(name) && r.concept) {
      const lang = (tag.attributes['xml:lang'] ?? tag.attributes.lang) as string | undefined;
      if (!lang?.trim()) throw badGlossary(file, `line ${parser.line}: a ${name} without xml:lang`);
      r.lang = lang.trim();
    } else if (TERM_GROUP.has(name) && r.lang) r.term = { text: '', status: '' };
    else if (name === 'term' && r.term) r.inTerm = 1;
    else if (name === 'termNote' && r.term && tag.attributes.type === 'administrativeStatus') r.inStatus = true;
  });
  parser.on('text', (t) => {
    if (r.inTerm && r.term) r.term.text += t;
    else if (r.inStatus && r.term) r.term.status += t;
  });
  parser.on('cdata', (t) => {
    if (r.inTerm && r.term) r.term.text += t;
  });
  parser.on('closetag', (tag) => {
    const name = tag.name;
    if (r.inTerm) {
      r.inTerm--;
      return;
    }
    if (name === 'termNote') r.inStatus = false;
    else if (TERM_GROUP.has(name) && r.term) {
      r.found.push({ term: r.term.text, rank: rank(r.term.status) });
      r.term = undefined;
    } else if (LANG.has(name) && r.lang) closeLang(r);
    else if (ENTRY.has(name) && r.concept) {
      concepts.push(r.concept);
      r.concept = undefined;
    }
  });
  try {
    parser.write(text.replace(/^\ufeff/, '')).close();
  } catch (e) {
    if ((e as Error).message.startsWith('glossary ')) throw e;
    throw badGlossary(file, `not well-formed XML (${(e as Error).message.split('\n')[0]})`);
  }
  if (!entries) throw badGlossary(file, 'no termEntry (a TBX file holds its concepts in termEntry, or conceptEntry in TBX 3)');
  return { file, concepts };
}
