// Glossaries published by open-source projects (test/fixtures/glossary/real/SOURCES.md), read as
// vx reads any: a TBX 3 term base exported from MultiTerm (namespaced, preferred, admitted,
// deprecated and superseded terms, English, Spanish and Zulu), and freeCodeCamp's Crowdin glossary
// (a CSV whose header names languages by name, with description and part-of-speech columns).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readGlossary } from '../../src/api/translator/glossary/read.js';
import { termTable } from '../../src/api/translator/glossary/terms.js';
import { forbiddenTerms, missingTerms, TermMatcher } from '../../src/api/translator/glossary/match.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const REAL = 'test/fixtures/glossary/real';
const ASTRONOMY = `${REAL}/termate/Example_Astronomy_DCA_VALID.tbx`;
const FCC = `${REAL}/freecodecamp/docs.csv`;
const dir = tempDir('vx-glossary-real-');
afterAll(() => removeDir(dir));

describe('a TBX 3 term base (termate: Example_Astronomy_DCA_VALID.tbx)', () => {
  it('every conceptEntry is a concept, its terms per language with the preferred one first and the deprecated and superseded ones apart', async () => {
    const g = await readGlossary(ASTRONOMY);
    expect(g.concepts).toHaveLength(45);
    const first = g.concepts[0];
    expect([...first.terms]).toEqual([
      ['en', ['open cluster']],
      ['es', ['cúmulo abierto']],
    ]);
    // <termNote type="administrativeStatus">supersededTerm-admn-sts</termNote>
    expect([...first.forbidden]).toEqual([['en', ['galactic cluster']]]);
    const cno = g.concepts.find((c) => c.terms.get('en')?.[0] === 'CNO cycle')!;
    expect(cno.terms.get('en')).toEqual(['CNO cycle', 'carbon-nitrogen cycle', 'carbon-nitrogen-oxygen cycle', 'Bethe-Weizsäcker-cycle', 'CN cycle']);
    expect(cno.terms.get('es')).toEqual(['ciclo del carbono-nitrógeno', 'ciclo CNO']);
    expect([...cno.forbidden]).toEqual([
      ['en', ['carbon cycle']],
      ['es', ['ciclo del carbono-nitrógeno-oxígeno', 'ciclo del carbono']],
    ]);
    // the file's Zulu sections hold its bibliography's keys (as MultiTerm exported them)
    expect(g.concepts.filter((c) => c.terms.has('zu')).map((c) => c.terms.get('zu')![0])).toEqual(['Bally2005', 'Cambridge2007', 'Merriam-Webster2002', 'Oxford2007', 'Moore2003', 'Oxford2003']);
  });

  it('the table from English to Spanish: each English term, synonyms and deprecated ones too, asks for the preferred Spanish term', async () => {
    const t = termTable(await readGlossary(ASTRONOMY), 'en', ['es', 'zu']);
    expect(t.entries).toHaveLength(55);
    const to = (term: string) => t.entries.find((e) => e.term === term)?.to;
    expect(to('open cluster')).toEqual(['cúmulo abierto', undefined]);
    expect(to('galactic cluster')).toEqual(['cúmulo abierto', undefined]);
    expect(to('Milky Way')).toEqual(['Galaxia', undefined]);
    expect(to('GRB')).toEqual(['explosión de rayos gamma', undefined]);
    expect(to('carbon cycle')).toEqual(['ciclo del carbono-nitrógeno', undefined]);
    expect(to('event horizon')).toEqual(['horizonte de sucesos', undefined]);
    expect(t.forbidden).toEqual([['ciclo del carbono-nitrógeno-oxígeno', 'ciclo del carbono'], []]);
    // from Spanish to English: the superseded and deprecated English terms are the ones a translation must not use
    const back = termTable(await readGlossary(ASTRONOMY), 'es', ['en']);
    expect(back.entries.find((e) => e.term === 'agujero negro')?.to).toEqual(['black hole']);
    expect(back.forbidden).toEqual([['galactic cluster', 'carbon cycle']]);
  });

  it('its terms are found in a sentence, the longest where they overlap; a translation is checked against them', async () => {
    const m = new TermMatcher(termTable(await readGlossary(ASTRONOMY), 'en', ['es']));
    const text = 'A black hole forms after a supernova in the Milky Way Galaxy, not in a galactic cluster.';
    const hits = m.find(text, false);
    expect(hits.map((h) => [h.start, h.end, h.entry.term, h.entry.to[0]])).toEqual([
      [2, 12, 'black hole', 'agujero negro'],
      [27, 36, 'supernova', 'supernova'],
      [44, 60, 'Milky Way Galaxy', 'Galaxia'],
      [71, 87, 'galactic cluster', 'cúmulo abierto'],
    ]);
    const es = 'Un agujero negro se forma tras una supernova en la Galaxia, no en un cúmulo abierto.';
    expect(missingTerms(hits, 0, es)).toEqual([]);
    expect(missingTerms(hits, 0, 'Un agujero negro se forma tras una supernova en la Vía Láctea.')).toEqual(['the term "Milky Way Galaxy" is not translated as "Galaxia"', 'the term "galactic cluster" is not translated as "cúmulo abierto"']);
    expect(forbiddenTerms(m.table, 0, 'El ciclo del carbono, no el ciclo CNO.')).toEqual(['the forbidden term "ciclo del carbono"']);
  });
});

describe("freeCodeCamp's Crowdin glossary (crowdin-glossaries: glossaries/docs.csv)", () => {
  it('as published its header names languages by name (Term:English): refused in one line that says how to name them', async () => {
    const e = (await readGlossary(FCC).catch((x: Error) => x)) as Error & { exitCode: number };
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(`glossary ${FCC}: column 1 of the header is "Term:English": "English" is not a language code (name the language by its code: Term [en] or Term:en)`);
  });

  it("with the header Crowdin's scheme of the project gives it (Term [en], Description [en], Part of Speech [en]), its rows are read: descriptions and parts of speech are no terms", async () => {
    // glossaries/_config.json: the column of each field per language code, as the project uploads the file to Crowdin
    const scheme = JSON.parse(readFileSync(`${REAL}/freecodecamp/_config.json`, 'utf8')) as Record<string, number>;
    const field: Record<string, string> = { term: 'Term', description: 'Description', partOfSpeech: 'Part of Speech' };
    const header: string[] = [];
    for (const [key, column] of Object.entries(scheme)) {
      const [f, lang] = key.split('_');
      header[column] = `${field[f]} [${lang}]`;
    }
    expect(header).toHaveLength(99);
    expect(header.slice(75, 79)).toEqual(['Term [si]', 'Description [si]', 'Term [es-EM]', 'Description [es-EM]']);
    const text = readFileSync(FCC, 'utf8');
    writeFileSync(join(dir, 'docs.csv'), header.join(',') + text.slice(text.indexOf('\n')));
    const read = await readGlossary(join(dir, 'docs.csv'));
    expect(read.concepts).toHaveLength(38);
    // es-EM (Crowdin's "Spanish (Modern)") serves --to es
    const t = termTable(read, 'en', ['uk', 'pt-BR', 'es', 'ru']);
    expect(t.entries.filter((e) => e.to.some((x) => x !== undefined))).toHaveLength(24);
    const to = (term: string) => t.entries.find((e) => e.term === term)?.to;
    expect(to('user stories')).toEqual(['Історія користувача', 'histórias de usuário', 'Historia de usuario', undefined]);
    expect(to('pull-request')).toEqual(['пул реквест', 'pull-requests', 'solicitudes de extracción', undefined]);
    expect(to('child')).toEqual(['дочірній елемент', undefined, undefined, 'дочерний элемент']);
    expect(to('Staging')).toEqual([undefined, 'fase de preparo', undefined, undefined]);
    expect(to('curriculum')).toEqual(['навчальна програма', undefined, 'currículo', undefined]);
    // "Looks Good To Me" is LGTM's English description, not a term
    expect(read.concepts.some((c) => [...c.terms.values()].flat().includes('Looks Good To Me'))).toBe(false);
    const m = new TermMatcher(t);
    const hits = m.find('Open a pull-request against the curriculum repository.', false);
    expect(hits.map((h) => [h.start, h.end, h.entry.term])).toEqual([
      [7, 19, 'pull-request'],
      [32, 42, 'curriculum'],
      [43, 53, 'repository'],
    ]);
  });
});

describe("a DeepL glossary's entries (SRTranslator: glossary/glossary.csv, English to Chinese)", () => {
  const SRT = `${REAL}/srtranslator/glossary.csv`;

  it("term pairs without a header: the run's source language and its one target; a term given twice is one entry; with two targets it is refused", async () => {
    const g = await readGlossary(SRT);
    expect(g.concepts).toHaveLength(191);
    const t = termTable(g, 'en', ['zh-Hans']);
    // "RLHF,RLHF" is on two lines
    expect(t.entries).toHaveLength(190);
    const to = (term: string) => t.entries.find((e) => e.term === term)?.to;
    expect(to('Activation Function')).toEqual(['激活函数']);
    expect(to('Open AI')).toEqual(['OpenAI']);
    expect(to('Play Ground')).toEqual(['PlayGround']);
    expect(to('o1')).toEqual(['o1']);
    expect(t.entries.at(-1)).toEqual({ term: 'Sparse Attention', to: ['稀疏注意力'] });
    const m = new TermMatcher(t);
    // case-sensitive and whole words: "fine-tune" is no term, "o1" inside "o1-mini" loses to the longer term
    const text = 'We fine-tune o1-mini with LoRA and RLHF, then Fine-tuning with a Learning Rate of 1e-4.';
    expect(m.find(text, false).map((h) => [h.start, h.end, h.entry.term, h.entry.to[0]])).toEqual([
      [13, 20, 'o1-mini', 'o1-mini'],
      [26, 30, 'LoRA', 'LoRA'],
      [35, 39, 'RLHF', 'RLHF'],
      [46, 57, 'Fine-tuning', '微调'],
      [65, 78, 'Learning Rate', '学习率'],
    ]);
    expect(() => termTable(g, 'en', ['zh-Hans', 'ja'])).toThrow(/it pairs each term with one translation and names no language/);
  });
});
