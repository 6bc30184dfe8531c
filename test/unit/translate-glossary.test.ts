// Glossaries: the readers (TBX with several languages and forbidden terms, CSV/TSV, YAML/JSON maps,
// bad files named in one line), the table for a run's languages, and term matching (case, whole
// words, overlaps, punctuation, CJK without spaces, right-to-left, placeholders and markup).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readGlossary } from '../../src/api/translator/glossary/read.js';
import { termTable, type TermTable } from '../../src/api/translator/glossary/terms.js';
import { forbiddenTerms, markupChars, markText, missingTerms, stripMarkup, TermMatcher } from '../../src/api/translator/glossary/match.js';
import { countChars } from '../../src/model/translator.js';
import { GlossaryRun } from '../../src/api/translator/glossary/session.js';
import { pendingItems } from '../../src/api/translator/session.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const dir = tempDir('vx-glossary-');
afterAll(() => removeDir(dir));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const table = (entries: Record<string, Record<string, string>>, to = ['de']): TermTable => ({
  file: 'g',
  entries: Object.entries(entries).map(([term, tr]) => ({ term, to: to.map((l) => tr[l]) })),
  forbidden: to.map(() => []),
});
const found = (t: TermTable, text: string, html = false) => new TermMatcher(t).find(text, html).map((h) => text.slice(h.start, h.end));

describe('glossary files', () => {
  it('TBX: several languages, the preferred term as the translation, deprecated and superseded terms forbidden', async () => {
    const g = await readGlossary('test/fixtures/glossary/terms.tbx');
    const t = termTable(g, 'en', ['de', 'fr', 'ar']);
    expect(t.entries).toEqual([
      { term: 'account statement', to: ['Kontoauszug', 'relevé de compte', undefined] },
      { term: 'Contoso Cloud', to: ['Contoso Cloud', undefined, 'سحابة كونتوسو'] },
      { term: 'invoice', to: [undefined, 'facture', undefined] },
    ]);
    expect(t.forbidden).toEqual([['Kontoübersicht', 'Contoso-Wolke'], [], []]);
  });

  it('CSV and TSV: a header of language codes, an empty cell is no entry, quoted cells', async () => {
    const csv = await readGlossary(file('g.csv', 'en,de,fr\n"account statement",Kontoauszug,"relevé de compte"\ninvoice,,facture\n"Save, then exit","Speichern, dann beenden",\n'));
    expect(termTable(csv, 'en', ['de', 'fr']).entries).toEqual([
      { term: 'account statement', to: ['Kontoauszug', 'relevé de compte'] },
      { term: 'invoice', to: [undefined, 'facture'] },
      { term: 'Save, then exit', to: ['Speichern, dann beenden', undefined] },
    ]);
    const tsv = await readGlossary(file('g.tsv', 'de\ten\nKontoauszug\taccount statement\n'));
    // the source language is any column: here the second
    expect(termTable(tsv, 'en', ['de']).entries).toEqual([{ term: 'account statement', to: ['Kontoauszug'] }]);
  });

  it('a table without quotes is read as one with them: a byte order mark, CRLF and CR line ends, blank and empty-celled lines', async () => {
    const rows = ['en,de,fr', '', 'account statement,Kontoauszug,relevé de compte', ' , ,', 'invoice,,facture', 'Save then exit , Speichern, '];
    const want = [
      { term: 'account statement', to: ['Kontoauszug', 'relevé de compte'] },
      { term: 'invoice', to: [undefined, 'facture'] },
      { term: 'Save then exit', to: ['Speichern', undefined] },
    ];
    for (const eol of ['\n', '\r\n', '\r']) {
      const plain = await readGlossary(file(`p${eol.length}${eol.charCodeAt(0)}.csv`, `\ufeff${rows.join(eol)}${eol}`));
      expect(termTable(plain, 'en', ['de', 'fr']).entries).toEqual(want);
    }
    // the same with a quoted cell goes through the RFC 4180 reader
    const quoted = await readGlossary(file('q.csv', `${rows.join('\n').replace('invoice', '"invoice"')}\n`));
    expect(termTable(quoted, 'en', ['de', 'fr']).entries).toEqual(want);
  });

  it("bilingual tables as other services write them: DeepL's export (languages on each row), term pairs without a header (DeepL's and Google's entries), a source and a target column (Weblate)", async () => {
    // DeepL's export: term, translation, source language, target language (and a relevance)
    const deepl = await readGlossary(file('deepl.csv', '"account statement",Kontoauszug,EN,DE\ninvoice,Rechnung,EN,DE,0.93\n"Save, then exit","Speichern, dann beenden",EN,DE\nfacture,invoice,FR,EN\n'));
    expect(termTable(deepl, 'en-US', ['de', 'fr']).entries).toEqual([
      { term: 'account statement', to: ['Kontoauszug', undefined] },
      { term: 'invoice', to: ['Rechnung', 'facture'] },
      { term: 'Save, then exit', to: ['Speichern, dann beenden', undefined] },
    ]);
    // (a first term that looks like a header's cells: still DeepL's rows)
    const colon = await readGlossary(file('deepl2.csv', 'Note: draft,Hinweis: Entwurf,EN,DE\nAPI,API,EN,DE\n'));
    expect(termTable(colon, 'en', ['de']).entries).toEqual([
      { term: 'Note: draft', to: ['Hinweis: Entwurf'] },
      { term: 'API', to: ['API'] },
    ]);
    // pairs without a header: in the run's source language and its one target
    const pairs = await readGlossary(file('pairs.csv', 'account statement,Kontoauszug\n"Save, then exit","Speichern, dann beenden"\n'));
    expect(termTable(pairs, 'en', ['de-CH'])).toEqual({
      file: join(dir, 'pairs.csv'),
      entries: [
        { term: 'account statement', to: ['Kontoauszug'] },
        { term: 'Save, then exit', to: ['Speichern, dann beenden'] },
      ],
      forbidden: [[]],
    });
    const tsv = await readGlossary(file('pairs.tsv', 'account statement\tKontoauszug\n'));
    expect(termTable(tsv, 'en', ['de']).entries).toEqual([{ term: 'account statement', to: ['Kontoauszug'] }]);
    expect(() => termTable(pairs, 'en', ['de', 'fr'])).toThrow(
      `glossary ${join(dir, 'pairs.csv')}: it pairs each term with one translation and names no language: translate into one language at a time with it (this run: de, fr), or give it a header row of language codes (en,de)`,
    );
    // Weblate's bilingual CSV: source and target, its other columns not read
    const weblate = await readGlossary(file('weblate.csv', 'location,source,target,id,fuzzy,context,translator_comments,developer_comments\n,account statement,Kontoauszug,,False,,,bank\n,invoice,,,False,,,\n'));
    expect(termTable(weblate, 'en', ['de']).entries).toEqual([{ term: 'account statement', to: ['Kontoauszug'] }]);
    const named = await readGlossary(file('named.csv', 'Source term,Target term,comment\nfile,Datei,UI label\n'));
    expect(termTable(named, 'en', ['de']).entries).toEqual([{ term: 'file', to: ['Datei'] }]);
    // a first row with a language code in it is a header, and refused as one when the rest is not
    expect(((await readGlossary(file('h2.csv', 'en,Notes\na,b\n')).catch((e: Error) => e)) as Error).message).toMatch(/column 2 of the header is "Notes", not a language code/);
  });

  it('YAML and JSON maps: keys in the source language; an empty translation is none', async () => {
    const y = await readGlossary(file('g.yaml', 'account statement:\n  de: Kontoauszug\n  fr: ""\ninvoice:\n  fr: facture\n'));
    expect(termTable(y, 'en', ['de', 'fr']).entries).toEqual([
      { term: 'account statement', to: ['Kontoauszug', undefined] },
      { term: 'invoice', to: [undefined, 'facture'] },
    ]);
    const j = await readGlossary(file('g.json', '{"Konto": {"en": "account"}}'));
    expect(termTable(j, 'de', ['en-GB']).entries).toEqual([{ term: 'Konto', to: ['account'] }]);
  });

  it('a file vx cannot use is one line naming it and what is wrong', async () => {
    const bad = async (name: string, text?: string) => {
      const p = text === undefined ? join(dir, name) : file(name, text);
      const e = (await readGlossary(p).catch((x: Error) => x)) as Error & { exitCode: number };
      expect(e.exitCode).toBe(2);
      expect(e.message).not.toContain('\n');
      return e.message;
    };
    expect(await bad('none.tbx')).toBe(`glossary ${join(dir, 'none.tbx')}: no such file`);
    expect(await bad('g.txt', 'x')).toMatch(/unknown kind of file/);
    expect(await bad('b.tbx', '<martif><text><body><termEntry></body></martif>')).toMatch(/^glossary .*b\.tbx: not well-formed XML \(\d+:\d+: /);
    expect(await bad('e.tbx', '<martif/>')).toMatch(/no termEntry/);
    expect(await bad('h.csv', 'en,Notes\na,b\n')).toMatch(/column 2 of the header is "Notes", not a language code/);
    expect(await bad('r.csv', 'en,de\na,b,c\n')).toMatch(/line 2 has 3 cells, the header 2/);
    expect(await bad('d.csv', 'Description [en],Part of Speech [en]\nx,noun\n')).toMatch(/its header names no column of terms/);
    expect(await bad('m.json', '["a"]')).toMatch(/not a map of terms/);
    expect(await bad('v.yaml', 'a:\n  de: [1]\n')).toMatch(/the de translation of the term "a" is not a text/);
    expect(await bad('j.json', '{')).toMatch(/not valid JSON/);
    expect(await bad('dup.yaml', 'a:\n  de: x\nb:\n  de: y\na:\n  de: z\n')).toBe(`glossary ${join(dir, 'dup.yaml')}: the key "a" is given twice (line 5)`);
    expect(await bad('dup2.yaml', 'a:\n  de: x\n  fr: y\n  de: z\n')).toBe(`glossary ${join(dir, 'dup2.yaml')}: the key "de" is given twice (line 4)`);
    expect(await bad('y.yaml', 'a: [1\n')).toMatch(/^glossary .*y\.yaml: [A-Z]/);
    const tbx = await readGlossary('test/fixtures/glossary/terms.tbx');
    expect(() => termTable(tbx, 'ja', ['de'])).toThrow(/has no terms in the source language ja/);
    // a file whose reading would take more memory than the heap has left: refused before it is read
    const small = file('room.csv', 'en,de\naccount statement,Kontoauszug\n');
    expect(((await readGlossary(small, 1024).catch((e: Error) => e)) as Error).message).toBe(
      `glossary ${small}: reading its 1 MB takes about 1 MB of memory, more than node gives this process (1 MB free): cut it to the project's terms, or give node more (NODE_OPTIONS=--max-old-space-size=<MB>)`,
    );
    expect((await readGlossary(small, 60 * 40)).concepts).toHaveLength(1);
  });
});

describe('term matching', () => {
  it('is case-sensitive and by whole words', () => {
    const t = table({ Cloud: { de: 'Wolke' } });
    expect(found(t, 'Cloud, cloud, CLOUD, Clouds, MyCloud, Cloud_x, (Cloud).')).toEqual(['Cloud', 'Cloud']);
  });

  it('punctuation: apostrophes, periods and colons inside a word join it (Unicode word boundaries); at its edge they do not', () => {
    const t = table({ Contoso: { de: 'Contoso' } });
    expect(found(t, "Contoso's app")).toEqual([]);
    expect(found(t, 'see contoso.com and Contoso.com')).toEqual([]);
    expect(found(t, "Contoso. 'Contoso' Contoso: Contoso! «Contoso» Contoso-Pro")).toHaveLength(6);
    // the same boundaries Intl.Segmenter finds
    const seg = new Intl.Segmenter('en', { granularity: 'word' });
    for (const s of ["Contoso's app", 'Contoso.com', 'x Contoso.', 'Contoso:x', 'a_Contoso', 'Contoso-Pro', '3Contoso']) {
      expect(found(t, s).length, s).toBe([...seg.segment(s)].filter((w) => w.segment === 'Contoso').length);
    }
  });

  it('the longest term wins where terms overlap, the first of two as long', () => {
    const t = table({ account: { de: 'Konto' }, 'account statement': { de: 'Kontoauszug' }, 'statement balance due': { de: 'fälliger Saldo' }, 'balance sheet': { de: 'Bilanz' }, 'Open account': { de: 'Offenes Konto' } });
    expect(found(t, 'your account statement balance due')).toEqual(['account', 'statement balance due']);
    expect(found(t, 'account statement balance sheet')).toEqual(['account statement', 'balance sheet']);
    expect(found(t, 'the account statement')).toEqual(['account statement']);
    expect(found(t, 'Open account statement')).toEqual(['account statement']);
    expect(found(t, 'an account, an account statement')).toEqual(['account', 'account statement']);
  });

  it('finds what a search of every term at every position finds (many terms sharing long beginnings, random texts)', () => {
    // a seeded generator: the same cases each run
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const word = () => ['par', 'part', 'parts', 'pa', 'p1', 'part1', 'art', 'part-1', 'par-t', 'p_a'][rand(10)];
    const phrase = (words: number) => Array.from({ length: words }, word).join(' ');
    const word_ = /[A-Za-z0-9_]/;
    // the rules for these texts (ASCII letters, digits, `_`, `-` and spaces): a term starts and ends at a word's edge; of overlapping ones the longest, then the first
    const brute = (terms: readonly string[], text: string): string[] => {
      const all: { start: number; end: number }[] = [];
      for (let i = 0; i < text.length; i++) {
        if (i > 0 && word_.test(text[i - 1])) continue;
        for (const t of terms) if (text.startsWith(t, i) && !word_.test(text[i + t.length] ?? ' ')) all.push({ start: i, end: i + t.length });
      }
      const taken: typeof all = [];
      for (const h of [...all].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)) if (!taken.some((x) => h.start < x.end && x.start < h.end)) taken.push(h);
      return taken.sort((a, b) => a.start - b.start).map((h) => text.slice(h.start, h.end));
    };
    for (let round = 0; round < 400; round++) {
      const terms = [...new Set(Array.from({ length: 1 + rand(12) }, () => phrase(1 + rand(3))))];
      const t = table(Object.fromEntries(terms.map((x) => [x, { de: 'X' }])));
      const text = phrase(3 + rand(8));
      expect(found(t, text), `${JSON.stringify(terms)} in ${JSON.stringify(text)}`).toEqual(brute(terms, text));
    }
  });

  it('CJK without spaces: a term matches inside a run; a Latin term beside Han characters is a word', () => {
    const t = table({ 账户: { en: 'account' }, 账户余额: { en: 'account balance' }, Contoso: { en: 'Contoso' } }, ['en']);
    expect(found(t, '您的账户余额和账户已更新')).toEqual(['账户余额', '账户']);
    expect(found(t, '使用Contoso云')).toEqual(['Contoso']);
    const ja = table({ 請求書: { en: 'invoice' } }, ['en']);
    expect(found(ja, 'この請求書は')).toEqual(['請求書']);
  });

  it('right-to-left text: Arabic and Hebrew terms by whole words', () => {
    const t = table({ 'كشف الحساب': { en: 'account statement' }, חשבון: { en: 'account' } }, ['en']);
    expect(found(t, 'تم إرسال كشف الحساب، والحساب')).toEqual(['كشف الحساب']);
    expect(found(t, 'חשבון חדש, החשבון')).toEqual(['חשבון']);
    expect(markText('تم كشف الحساب.', new TermMatcher(t).find('تم كشف الحساب.', false), 0)).toBe('تم <mstrans:dictionary translation="account statement">كشف الحساب</mstrans:dictionary>.');
  });

  it('never inside placeholders, URLs, code, markup or notranslate elements; right next to a placeholder it matches', () => {
    const t = table({ name: { de: 'Name' }, Cloud: { de: 'Wolke' } });
    expect(found(t, '{name} {{name}} %1$s ${name} $t(name) `name` https://x.example/name name@example.com')).toEqual([]);
    expect(found(t, '{0}Cloud and Cloud{1}, %sCloud')).toEqual(['Cloud', 'Cloud', 'Cloud']);
    const html = '<p title="Cloud">Cloud <code>Cloud</code> <span class="notranslate">Cloud</span> <mstrans:dictionary translation="X">Cloud</mstrans:dictionary> &Cloud; Cloud</p>';
    expect(found(t, html, true)).toEqual(['Cloud', 'Cloud']);
    // a tag in plain text is markup too
    expect(found(t, '<b class="Cloud">Cloud</b>')).toEqual(['Cloud']);
  });

  it('a text that may hold a term is told by one search: every one find gives terms in, and not one that holds no unit a term begins with', () => {
    const t = table({ Cloud: { de: 'Wolke' }, 'Contoso Cloud': { de: 'Contoso-Wolke' }, 账户: { de: 'Konto' } });
    const m = new TermMatcher(t);
    const mayHold = (matcher: TermMatcher, ts: readonly string[]) => ts.flatMap((text, i) => (matcher.mayHold(text) ? [i] : []));
    const texts = ['Cloud first', 'none here', '', 'xCloud inside a word', 'a {0} placeholder', 'Contoso Cloud', '您的账户', 'plain', 'ends with Cloud', 'x', 'Cloud'];
    const may = mayHold(m, texts);
    // every text with terms is among them; a text that holds no unit a term begins with is not
    texts.forEach((text, i) => {
      if (m.find(text, false).length) expect(may).toContain(i);
    });
    expect(may).toEqual([0, 4, 5, 6, 8, 10]);
    expect(mayHold(m, [])).toEqual([]);
    expect(mayHold(m, ['', '', 'Cloud'])).toEqual([2]);
    expect(mayHold(new TermMatcher(table({})), texts)).toEqual([]);
  });

  it('marks per target, strips what the service left, finds missing and forbidden terms', () => {
    const t = table({ 'account statement': { de: 'Kontoauszug', fr: 'relevé & compte' } }, ['de', 'fr', 'it']);
    const text = 'Your account statement is ready';
    const hits = new TermMatcher(t).find(text, false);
    expect(markText(text, hits, 0)).toBe('Your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary> is ready');
    expect(markText(text, hits, 1)).toBe('Your <mstrans:dictionary translation="relevé &amp; compte">account statement</mstrans:dictionary> is ready');
    expect(markText(text, hits, 2)).toBeUndefined();
    // the billed characters of a marked text, counted without making it (code points: an emoji is one)
    const astral = table({ '🚀 launch': { de: 'Start 🚀' } });
    const rocket = 'Ready 🚀 launch, 🚀 launch 😀';
    const rocketHits = new TermMatcher(astral).find(rocket, false);
    expect(rocketHits.length).toBe(2);
    expect(countChars(rocket) + markupChars(rocketHits, 0)).toBe(countChars(markText(rocket, rocketHits, 0)!));
    expect(countChars(text) + markupChars(hits, 1)).toBe(countChars(markText(text, hits, 1)!));
    expect(markupChars(hits, 2)).toBe(0);
    expect(stripMarkup('a <mstrans:dictionary translation="relevé &amp; compte">x</mstrans:dictionary> b', false)).toBe('a relevé & compte b');
    expect(stripMarkup('a <mstrans:dictionary translation="relevé &amp; compte">x</mstrans:dictionary> b', true)).toBe('a relevé &amp; compte b');
    expect(missingTerms(hits, 0, 'Ihr Kontoauszug ist fertig')).toEqual([]);
    expect(missingTerms(hits, 0, 'Ihre Kontoübersicht ist fertig')).toEqual(['the term "account statement" is not translated as "Kontoauszug"']);
    expect(missingTerms(hits, 1, '<p>relevé &amp; compte</p>')).toEqual([]);
    const f: TermTable = { ...t, forbidden: [['Kontoübersicht'], [], []] };
    expect(forbiddenTerms(f, 0, 'Ihre Kontoübersicht ist fertig')).toEqual(['the forbidden term "Kontoübersicht"']);
    expect(forbiddenTerms(f, 0, 'Ihre Kontoübersichten')).toEqual([]);
  });
});

describe('a run with a glossary', () => {
  // 20,000 texts measured before the first is checked: what 19 requests in flight and the next
  // batch may hold (vx translate --concurrency 19)
  const texts = Array.from({ length: 20_000 }, (_, i) => `Line ${i}: your account statement`);
  const run = (window?: number) => {
    const g = new GlossaryRun(new TermMatcher(table({ 'account statement': { de: 'Kontoauszug' } })), false, ['de']);
    if (window !== undefined) g.window(window);
    let finds = 0;
    const find = g.matcher.find.bind(g.matcher);
    g.matcher.find = (text, html) => (finds++, find(text, html));
    for (let i = 0; i < texts.length; i += 1000) g.measure(texts.slice(i, i + 1000), ['de']);
    const before = finds;
    const problems = g.problems(texts.slice(0, 1000), texts.slice(0, 1000).map((t) => ({ translations: [{ text: t.replace('account statement', 'Kontoauszug'), to: 'de' }] })));
    return { problems, again: finds - before };
  };

  it('finds each text measured as many requests ago as its requests in flight hold, without searching it again', () => {
    expect(run(pendingItems(19))).toEqual({ problems: [], again: 0 });
    // kept for fewer texts (the default, 16,384): the first ones are searched again (same answer)
    expect(run()).toEqual({ problems: [], again: 1000 });
  });
});
