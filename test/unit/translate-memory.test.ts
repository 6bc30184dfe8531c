// The translation memory (LMDB) and its TMX 1.4 exchange: the key sees exactly what changes the
// answer, a multi-target hit rebuilds the service's result byte for byte, entries survive a reopen,
// a file that is not a memory is refused naming the path and left untouched, and TMX import checks
// the whole file first (bad XML or a bad language code names the line; nothing is imported).
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeValue, encodeValue, entryKey, keyOptions, optionsId, TranslationMemory, type MemoryEntry } from '../../src/api/translator/memory/index.js';
import type { TranslateParams } from '../../src/api/translator/options.js';
import type { TranslateResult, Translation } from '../../src/model/translator.js';
import { readTmx, TmxError, tmxHeader, tmxUnit, TMX_FOOTER } from '../../src/api/translator/tmx.js';
import { UsageError } from '../../src/core/errors.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const dir = tempDir('vx-tm-');
afterAll(() => removeDir(dir));
const ids = (p: TranslateParams) => keyOptions(p).map(optionsId);

describe('memory key', () => {
  it('spells out defaults and drops what the service ignores', () => {
    expect(ids({ to: ['de'] })).toEqual(ids({ to: ['DE'], textType: 'plain', profanityAction: 'NoAction', category: 'general', allowFallback: false }));
    expect(ids({ to: ['de'], profanityMarker: 'Tag' })).toEqual(ids({ to: ['de'] }));
    expect(ids({ to: ['de'], from: 'en', suggestedFrom: 'fr' })).toEqual(ids({ to: ['de'], from: 'en' }));
    expect(ids({ to: ['de'], profanityAction: 'Marked' })).toEqual(ids({ to: ['de'], profanityAction: 'Marked', profanityMarker: 'Asterisk' }));
  });
  it('tells apart everything that changes the answer', () => {
    const variants: TranslateParams[] = [
      { to: ['de'] },
      { to: ['fr'] },
      { to: ['de'], from: 'en' },
      { to: ['de'], suggestedFrom: 'fr' },
      { to: ['de'], textType: 'html' },
      { to: ['de'], category: 'x-TECH' },
      { to: ['de'], category: 'x-TECH', allowFallback: false },
      { to: ['de'], profanityAction: 'Deleted' },
      { to: ['de'], profanityAction: 'Marked' },
      { to: ['de'], profanityAction: 'Marked', profanityMarker: 'Tag' },
      { to: ['de'], includeAlignment: true },
      { to: ['de'], includeSentenceLength: true },
      { to: ['de'], fromScript: 'Latn' },
      { to: ['de'], toScript: ['Cyrl'] },
    ];
    const all = variants.map((v) => ids(v)[0]);
    expect(new Set(all).size).toBe(variants.length);
    expect(entryKey(all[0], 'a')).not.toBe(entryKey(all[0], 'b'));
    // one id per target: --to de,fr shares its de entries with --to de
    expect(ids({ to: ['de', 'fr'] })).toEqual([...ids({ to: ['de'] }), ...ids({ to: ['fr'] })]);
  });
});

describe('memory store', () => {
  const result = { detectedLanguage: { language: 'en', score: 1 }, translations: [{ text: '[de] x', to: 'de', alignment: { proj: '0:0-5:5' } }, { text: '[fr] x', to: 'fr', alignment: { proj: '0:0-5:5' } }], sourceText: { text: 'x' } };

  it('stores per target, rebuilds a multi-target result exactly, and keeps it across a reopen', async () => {
    const path = join(dir, 'a.tm');
    const params: TranslateParams = { to: ['de', 'fr'], includeAlignment: true };
    let m = await TranslationMemory.open(path);
    const k = m.idsFor(keyOptions(params));
    expect(await m.lookup(k, 'x')).toBeUndefined();
    m.store(k, 'x', result, 1_700_000_000);
    await m.close();
    m = await TranslationMemory.open(path);
    expect(JSON.stringify(await m.lookup(k, 'x'))).toBe(JSON.stringify(result));
    // one target alone is a hit too; another option is not
    const [de] = m.idsFor(keyOptions({ to: ['de'], includeAlignment: true }));
    expect(await m.lookup([de], 'x')).toEqual({ ...result, translations: [result.translations[0]] });
    expect(await m.lookup(m.idsFor(keyOptions({ to: ['de'] })), 'x')).toBeUndefined();
    const stats = await m.stats();
    expect(stats).toMatchObject({ entries: 2, pairs: { 'auto>de': 1, 'auto>fr': 1 }, oldest: 1_700_000_000, newest: 1_700_000_000 });
    expect(await m.prune((e) => e.options.to === 'fr')).toBe(1);
    expect((await m.stats()).entries).toBe(1);
    await m.close();
  });

  it('a translation without its text is not stored, and one stored so (a memory written before) is a miss, not an answer', async () => {
    const path = join(dir, 'notext.tm');
    const m = await TranslationMemory.open(path);
    const k = m.idsFor(keyOptions({ to: ['de', 'fr'], from: 'en' }));
    m.store(k, 'x', { translations: [{ to: 'de' } as unknown as Translation, { text: '[fr] x', to: 'fr' }] });
    m.store(k, 'y', { translations: [{ text: 7, to: 'de' } as unknown as Translation, { text: '[fr] y', to: 'fr' }] });
    await m.flush();
    expect(await m.lookup([k[0]], 'x')).toBeUndefined();
    expect(await m.lookup([k[0]], 'y')).toBeUndefined();
    expect(await m.lookup([k[1]], 'x')).toEqual({ translations: [{ text: '[fr] x', to: 'fr' }] });
    // what an older vx stored so: read as a miss (sent again), never as an answer without text
    expect(decodeValue('J1700000000\0{"translations":[{"to":"de"}]}')).toBeUndefined();
    expect(decodeValue('J1700000000\0{"translations":[{"to":"de","text":"ok"}]}')).toEqual({ stored: 1_700_000_000, result: { translations: [{ to: 'de', text: 'ok' }] } });
    await m.close();
  });

  it('keeps the common answers in a compact form and every other one as JSON, each read back exactly', () => {
    const forms: [TranslateResult, string][] = [
      [{ translations: [{ text: 'Hallo\0 Welt', to: 'de' }] }, 'S1700000000\0de\0Hallo\0 Welt'],
      [{ detectedLanguage: { language: 'en', score: 0.97 }, translations: [{ text: 'Bonjour', to: 'fr' }] }, 'D1700000000\0en\u00000.97\0fr\0Bonjour'],
      // other key orders, more fields, other types: JSON, as the service wrote them
      [{ translations: [{ to: 'de', text: 'Hallo' }] }, 'J1700000000\0{"translations":[{"to":"de","text":"Hallo"}]}'],
      [{ translations: [{ text: 'Hallo', to: 'de', alignment: { proj: '0:4-0:4' } }] }, 'J1700000000\0{"translations":[{"text":"Hallo","to":"de","alignment":{"proj":"0:4-0:4"}}]}'],
      [{ detectedLanguage: { language: 'en', score: 1 }, translations: [{ text: 'x', to: 'de' }], sourceText: { text: 'x' } }, 'J1700000000\0{"detectedLanguage":{"language":"en","score":1},"translations":[{"text":"x","to":"de"}],"sourceText":{"text":"x"}}'],
    ];
    for (const [result, stored] of forms) {
      expect(encodeValue(1_700_000_000, result)).toBe(stored);
      expect(JSON.stringify(decodeValue(stored)?.result)).toBe(JSON.stringify(result));
      expect(decodeValue(stored)?.stored).toBe(1_700_000_000);
    }
    expect(decodeValue(encodeValue(5, forms[0][0], 'long source'))).toEqual({ stored: 5, source: 'long source', result: forms[0][0] });
    for (const bad of ['', 'S', 'Sx\0de\0y', 'X1\0y', 'S1\0de', 'J1\0{', 'J1\0{"no":1}', 'H1\0["a"]']) expect(decodeValue(bad)).toBeUndefined();
  });

  it('keys short texts by the text itself, long or ill-formed ones by their hash, and answers both', async () => {
    const [id] = ids({ to: ['de'] });
    expect(entryKey(id, 'Save')).toBe(`\u0001${id}Save`);
    const long = 'x'.repeat(601);
    const lone = 'a\ud800b';
    expect(entryKey(id, long)).toMatch(new RegExp(`^\u0003${id}[0-9a-f]{64}$`));
    expect(entryKey(id, lone)).not.toBe(entryKey(id, 'a\ud801b'));
    const m = await TranslationMemory.open(join(dir, 'keys.tm'));
    const k = m.idsFor(keyOptions({ to: ['de'] }));
    const texts = ['Save', '', 'ümlaut 😀 文字', long, lone, 'a\ud801b', 'x'.repeat(600)];
    texts.forEach((t, i) => m.store(k, t, { translations: [{ text: `#${i}`, to: 'de' }] }));
    await m.flush();
    for (const [i, t] of texts.entries()) expect(await m.lookup(k, t)).toEqual({ translations: [{ text: `#${i}`, to: 'de' }] });
    expect(await m.lookup(k, 'x'.repeat(602))).toBeUndefined();
    const sources: string[] = [];
    for await (const e of m.entries()) sources.push(e.source);
    expect(sources.sort()).toEqual([...texts].sort());
    await m.close();
  });

  it.runIf(process.platform === 'linux')('lets go of its mapped pages by reopening the store: what was stored and what is queued survive it', async () => {
    const m = await TranslationMemory.open(join(dir, 'relieve.tm'));
    const k = m.idsFor(keyOptions({ to: ['de'] }));
    for (let i = 0; i < 2000; i++) m.store(k, `line ${i}`, { translations: [{ text: `Zeile ${i}`, to: 'de' }] });
    await m.commit();
    m.store(k, 'queued', { translations: [{ text: 'wartet', to: 'de' }] });
    // a commit asked for while the store is reopened waits for it
    const before = (m as unknown as { backend: { db: object } }).backend.db;
    const relieved = m.relieve(-Infinity);
    expect(m.remapping).toBeDefined(); // the queued writes are committed by the reopen itself
    const committing = (async () => {
      await new Promise((r) => setImmediate(r));
      m.store(k, 'during', { translations: [{ text: 'während', to: 'de' }] });
      await m.commit();
    })();
    await relieved;
    expect((m as unknown as { backend: { db: object } }).backend.db).not.toBe(before);
    await committing;
    await m.flush();
    expect(await m.lookup(k, 'line 1999')).toEqual({ translations: [{ text: 'Zeile 1999', to: 'de' }] });
    expect(await m.lookup(k, 'queued')).toEqual({ translations: [{ text: 'wartet', to: 'de' }] });
    expect(await m.lookup(k, 'during')).toEqual({ translations: [{ text: 'während', to: 'de' }] });
    expect((await m.stats()).entries).toBe(2002);
    await m.close();
  });

  it.runIf(process.platform === 'linux')('a memory file smaller than what its pages may take is left mapped whole (a reopen would only map it again)', async () => {
    const m = await TranslationMemory.open(join(dir, 'relieve-small.tm'));
    const k = m.idsFor(keyOptions({ to: ['de'] }));
    const texts = Array.from({ length: 2000 }, (_, i) => `line ${i}`);
    for (const t of texts) m.store(k, t, { translations: [{ text: t, to: 'de' }] });
    await m.flush();
    // its pages mapped: more than 1 kB past the limit, and the file (~200 kB) stays mapped
    expect((await m.lookupMany(k, texts)).filter(Boolean)).toHaveLength(2000);
    const backend = (m as unknown as { backend: { db: object } }).backend;
    const before = backend.db;
    await m.relieve(1);
    expect(backend.db).toBe(before);
    await m.relieve(-Infinity);
    expect(backend.db).not.toBe(before);
    await m.close();
  });

  it.runIf(process.platform === 'linux')('a commit asked for while the reopen makes the queued writes durable waits for the reopen (lmdb-js cut it off: "Database is closed")', async () => {
    const m = await TranslationMemory.open(join(dir, 'relieve-race.tm'));
    const k = m.idsFor(keyOptions({ to: ['de'] }));
    m.store(k, 'first', { translations: [{ text: 'erste', to: 'de' }] });
    await m.commit();
    m.store(k, 'queued', { translations: [{ text: 'wartet', to: 'de' }] });
    // the run answers a batch (and commits it) just as the reopen's sync to disk is done
    const db = (m as unknown as { backend: { db: { flushed: PromiseLike<unknown> } } }).backend.db;
    const flushed = db.flushed;
    let committed: Promise<void> | undefined;
    const answered = () => {
      m.store(k, 'during', { translations: [{ text: 'während', to: 'de' }] });
      committed = m.commit();
    };
    Object.defineProperty(db, 'flushed', { configurable: true, get: () => Promise.resolve(flushed).then(answered) });
    const relieved = m.relieve(-Infinity);
    await relieved;
    await committed;
    await m.flush();
    expect(await m.lookup(k, 'queued')).toEqual({ translations: [{ text: 'wartet', to: 'de' }] });
    expect(await m.lookup(k, 'during')).toEqual({ translations: [{ text: 'während', to: 'de' }] });
    await m.close();
  });

  it('opened through a symbolic link, takes the lock of the file itself (so writers through the link and the file take turns)', async () => {
    const real = join(dir, 'real.tm');
    const link = join(dir, 'link.tm');
    const k = ids({ to: ['de'], from: 'en' });
    const a = await TranslationMemory.open(real);
    symlinkSync(real, link);
    const b = await TranslationMemory.open(link);
    expect(b.path).toBe(link);
    b.store(k, 'via link', { translations: [{ text: 'über den Link', to: 'de' }] });
    await b.close();
    expect(existsSync(`${link}-lock`)).toBe(false);
    expect(await a.lookup(k, 'via link')).toEqual({ translations: [{ text: 'über den Link', to: 'de' }] });
    await a.close();
  });

  it('refuses a file that is not a memory, naming it, and leaves it as it was', async () => {
    const other = join(dir, 'notes.txt');
    writeFileSync(other, 'hello, this is not a database\n'.repeat(10));
    await expect(TranslationMemory.open(other)).rejects.toThrow(new UsageError(`translation memory ${other}: not a translation memory (another format, or damaged); vx does not overwrite it`));
    expect(readFileSync(other, 'utf8')).toBe('hello, this is not a database\n'.repeat(10));
    // an LMDB file of another program
    const foreign = join(dir, 'foreign.mdb');
    const { open } = await import('lmdb');
    const db = open({ path: foreign, noSubdir: true });
    await db.put('k', 'v');
    await db.close();
    await expect(TranslationMemory.open(foreign)).rejects.toThrow(`translation memory ${foreign}: not a translation memory (an LMDB file of another program); vx does not change it`);
    // a memory of the first format (SHA-256 keys, JSON values): refused by name, left as it was
    const v1 = join(dir, 'v1.tm');
    const old = open({ path: v1, noSubdir: true, encoding: 'binary', keyEncoding: 'binary' });
    await old.put(Buffer.from('\u0000format'), Buffer.from('vx-translation-memory 1'));
    await old.put(Buffer.from([1, 2, 3]), Buffer.from('["x",1,"a",{}]'));
    await old.close();
    const before = readFileSync(v1);
    await expect(TranslationMemory.open(v1)).rejects.toThrow(`translation memory ${v1}: not a translation memory of this version ("vx-translation-memory 1")`);
    expect(readFileSync(v1).equals(before)).toBe(true);
    // a memory whose data pages were damaged
    const damaged = join(dir, 'damaged.tm');
    const m = await TranslationMemory.open(damaged);
    await m.close();
    const bytes = readFileSync(damaged);
    bytes.fill(0xff, 16, 32);
    writeFileSync(damaged, bytes);
    await expect(TranslationMemory.open(damaged)).rejects.toThrow(/^translation memory .*damaged\.tm: not a translation memory \(another format, or damaged\)/);
    await expect(TranslationMemory.open(join(dir, 'none.tm'), { readOnly: true })).rejects.toThrow(`translation memory ${join(dir, 'none.tm')}: no such file`);
    await expect(TranslationMemory.open(join(dir, 'no-such-dir', 'x.tm'))).rejects.toThrow(/^translation memory .*x\.tm: cannot create it: /);
    await expect(TranslationMemory.open(join(other, 'x.tm'))).rejects.toThrow(`translation memory ${join(other, 'x.tm')}: cannot create it: ${other} is not a directory`);
  });

  it('refuses a memory cut short or with a broken header before LMDB maps it (which would crash the process), and leaves it as it was', async () => {
    const good = join(dir, 'good.tm');
    const m = await TranslationMemory.open(good);
    const k = m.idsFor(keyOptions({ to: ['de'] }));
    for (let i = 0; i < 3000; i++) m.store(k, `line ${i}`, { translations: [{ text: `Zeile ${i}`, to: 'de' }] });
    await m.flush();
    await m.close();
    const bytes = readFileSync(good);
    const pages = bytes.length / 4096;
    expect(pages).toBeGreaterThan(10);
    // the meta page LMDB would use: the one with the higher txnid (MDB_meta after a 24-byte page header)
    const txnid = (p: number) => bytes.readBigUInt64LE(p * 4096 + 24 + 128);
    const last = txnid(1) > txnid(0) ? 1 : 0;
    const variant = (name: string, change: (b: Buffer) => Buffer) => {
      const f = join(dir, name);
      writeFileSync(f, change(Buffer.from(bytes)));
      return { f, before: readFileSync(f) };
    };
    const cases = [
      // a copy cut short (SIGBUS when a page past the end is read)
      [variant('cut.tm', (b) => b.subarray(0, 4 * 4096)), `damaged (it has 4 pages of the ${pages} its header counts: cut short?)`],
      [variant('cut-one.tm', (b) => b.subarray(0, b.length - 4096)), `damaged (it has ${pages - 1} pages of the ${pages} its header counts: cut short?)`],
      // a meta page whose flag is gone: LMDB would take the file for a new one and crash
      [variant('flag.tm', (b) => (b.writeUInt16LE(0, 18), b)), 'not a translation memory (another format, or damaged)'],
      [variant('magic1.tm', (b) => (b.writeUInt32LE(0, 4096 + 24), b)), 'not a translation memory (another format, or damaged)'],
      // the main tree's root past the last page (SIGSEGV)
      [variant('root.tm', (b) => (b.writeBigUInt64LE(BigInt(pages + 50), last * 4096 + 24 + 64 + 48), b)), 'damaged (its header names pages it does not have)'],
      [variant('depth.tm', (b) => (b.writeUInt16LE(0, last * 4096 + 24 + 30 + 48), b)), 'damaged (its header names pages it does not have)'],
    ] as const;
    for (const [{ f, before }, why] of cases) {
      await expect(TranslationMemory.open(f), f).rejects.toThrow(new UsageError(`translation memory ${f}: ${why}; vx does not overwrite it`));
      await expect(TranslationMemory.open(f, { readOnly: true })).rejects.toThrow(UsageError);
      expect(readFileSync(f).equals(before), f).toBe(true);
    }
    // the good one still opens and answers
    const again = await TranslationMemory.open(good, { readOnly: true });
    expect(await again.lookup(k, 'line 2999')).toEqual({ translations: [{ text: 'Zeile 2999', to: 'de' }] });
    await again.close();
  });
});

describe('TMX 1.4', () => {
  const entry = (source: string, to: string, text: string): MemoryEntry => ({
    options: { ...keyOptions({ to: [to], from: 'en' })[0] },
    stored: 1_700_000_000,
    source,
    result: { translations: [{ text, to }] },
  });

  it('round-trips vx entries exactly, with markup and awkward characters escaped', async () => {
    const entries = [entry('Tom & "Jerry" <b>', 'de', '[de] Töm & <b>'), entry('a\r\nb', 'fr', 'x\u0001y'), entry('\u001b[31mError\u001b[0m\f\uFFFF\uD800', 'de', '[de] \u001b[31mÉŕŕöŕ\uFFFE')];
    const file = join(dir, 'out.tmx');
    writeFileSync(file, tmxHeader('1.0.0') + entries.map(tmxUnit).join('') + TMX_FOOTER);
    const back: MemoryEntry[] = [];
    expect(await readTmx(file, (e) => void back.push(e))).toBe(3);
    expect(back[0]).toEqual(entries[0]);
    // the result comes back exact from its property; the <seg> shows U+FFFD for what XML cannot carry
    expect(back[1]).toEqual(entries[1]);
    // and so does a source the <seg> cannot carry (an escape sequence of a log line, a lone surrogate)
    expect(back[2]).toEqual(entries[2]);
    expect(readFileSync(file, 'utf8')).toContain('<seg>\uFFFD[31mError\uFFFD[0m\uFFFD\uFFFD\uFFFD</seg>');
    expect(readFileSync(file, 'utf8')).toContain('<seg>x\uFFFDy</seg>');
    expect(readFileSync(file, 'utf8')).toContain('<seg>a&#13;\nb</seg>');
    expect(readFileSync(file, 'utf8')).toContain('<tu srclang="en" creationdate="20231114T221320Z">');
  });

  it('an HTML entry (a locale file unit as translate file sends it) is exported with TMX inline codes a CAT tool reads, and still round-trips exactly', async () => {
    const html: MemoryEntry = {
      options: { ...keyOptions({ to: ['de'], from: 'en', textType: 'html' })[0] },
      stored: 1_700_000_000,
      source: 'Hello <span class="notranslate">{{name}}</span>, <b>5</b> new &amp; <span class="notranslate">%1$s</span><br/>',
      result: { translations: [{ text: 'Hallo <span class="notranslate">{{name}}</span>, <b>5</b> neue &amp; <span class="notranslate">%1$s</span><br/>', to: 'de' }] },
    };
    const unit = tmxUnit(html);
    // placeholders are <ph> with their text (numbered alike in source and target), tags <ph> with their code, entities their character
    expect(unit).toContain(
      '<tuv xml:lang="en"><seg>Hello <ph x="1">{{name}}</ph>, <ph x="2">&lt;b&gt;</ph>5<ph x="3">&lt;/b&gt;</ph> new &amp; <ph x="4">%1$s</ph><ph x="5">&lt;br/&gt;</ph></seg></tuv>',
    );
    expect(unit).toContain(
      '<tuv xml:lang="de"><seg>Hallo <ph x="1">{{name}}</ph>, <ph x="2">&lt;b&gt;</ph>5<ph x="3">&lt;/b&gt;</ph> neue &amp; <ph x="4">%1$s</ph><ph x="5">&lt;br/&gt;</ph></seg></tuv>',
    );
    expect(unit).not.toContain('notranslate&quot;&gt;{{name}}&lt;/span&gt;</seg>');
    const file = join(dir, 'html.tmx');
    writeFileSync(file, tmxHeader('1.0.0') + unit + TMX_FOOTER);
    const back: MemoryEntry[] = [];
    await readTmx(file, (e) => void back.push(e));
    expect(back).toEqual([html]);
    // another tool reading the segments sees the unit's text: `Hello {{name}}, <b>5</b> new & %1$s<br/>`
    writeFileSync(file, tmxHeader('1.0.0') + unit.replace(/ *<prop[^\n]*\n/g, '') + TMX_FOOTER);
    const foreign: MemoryEntry[] = [];
    await readTmx(file, (e) => void foreign.push(e));
    expect(foreign.map((e) => [e.options.textType, e.source, e.result.translations[0].text])).toEqual([
      ['plain', 'Hello {{name}}, <b>5</b> new & %1$s<br/>', 'Hallo {{name}}, <b>5</b> neue & %1$s<br/>'],
    ]);
  });

  it('takes an exported file edited by hand as the key sees it: languages in any case, other fields refused naming the line', async () => {
    const unit = tmxUnit(entry('Hello', 'de', 'Hallo'));
    const file = join(dir, 'edited.tmx');
    writeFileSync(file, tmxHeader('1.0.0') + unit.replace('[&quot;en&quot;,&quot;&quot;,&quot;de&quot;', '[&quot;EN&quot;,&quot;&quot;,&quot;DE&quot;') + TMX_FOOTER);
    const back: MemoryEntry[] = [];
    await readTmx(file, (e) => void back.push(e));
    expect(back).toEqual([entry('Hello', 'de', 'Hallo')]);
    // a result without its translation's text would print "undefined" on every hit
    writeFileSync(file, tmxHeader('1.0.0') + unit.replace('&quot;text&quot;:&quot;Hallo&quot;', '&quot;txt&quot;:&quot;Hallo&quot;') + TMX_FOOTER);
    await expect(readTmx(file, () => undefined)).rejects.toThrow(new TmxError(5, 'the x-vx-options, x-vx-result or x-vx-source property is not one written by vx translate memory export'));
    writeFileSync(file, tmxHeader('1.0.0') + unit.replace('false,false', '&quot;false&quot;,false') + TMX_FOOTER);
    await expect(readTmx(file, () => undefined)).rejects.toThrow(new TmxError(5, 'the x-vx-options property is not one written by vx translate memory export (12 strings and flags)'));
  });

  it('reads TMX of other tools: one entry per target, from the srclang', async () => {
    const file = join(dir, 'other.tmx');
    writeFileSync(
      file,
      `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en-US" datatype="plaintext" segtype="sentence" adminlang="en" creationtool="x" creationtoolversion="1" o-tmf="x"/>
<body>
<tu tuid="1"><tuv xml:lang="en-US"><seg>Save <ph x="1">%s</ph> file</seg></tuv><tuv xml:lang="de-DE"><seg>Datei speichern</seg></tuv><tuv xml:lang="fr"><seg><![CDATA[Enregistrer]]></seg></tuv></tu>
<tu><tuv xml:lang="en-US"><seg>Click <hi type="b">here</hi> for <bpt i="1">&lt;b&gt;</bpt>bold<ept i="1">&lt;/b&gt;</ept></seg></tuv><tuv xml:lang="de-DE"><seg><hi>Hier</hi> für <bpt i="1">&lt;b&gt;</bpt>fett<ept i="1">&lt;/b&gt;</ept></seg></tuv></tu>
<tu srclang="en-GB"><tuv xml:lang="en"><seg>Colour</seg></tuv><tuv xml:lang="en-US"><seg>Color</seg></tuv><tuv xml:lang="de-CH"><seg>Farbe</seg></tuv><tuv xml:lang="de-AT"><seg>Farb</seg></tuv><tuv xml:lang="zh-CN"><seg>颜色</seg></tuv><tuv xml:lang="pt-PT"><seg>Cor</seg></tuv><tuv xml:lang="xx-YY"><seg>?</seg></tuv></tu>
</body></tmx>`,
    );
    const back: MemoryEntry[] = [];
    await readTmx(file, (e) => void back.push(e), { now: 42 });
    // inline markup's text is the segment's: the native code of ph/bpt/ept (what stood in the original), the text of hi;
    // languages are the service's (a run --from en --to de finds them): one entry per language, the first
    expect(back.map((e) => [e.options.from, e.options.to, e.source, e.result.translations[0], e.stored])).toEqual([
      ['en', 'de', 'Save %s file', { text: 'Datei speichern', to: 'de' }, 42],
      ['en', 'fr', 'Save %s file', { text: 'Enregistrer', to: 'fr' }, 42],
      ['en', 'de', 'Click here for <b>bold</b>', { text: 'Hier für <b>fett</b>', to: 'de' }, 42],
      ['en', 'de', 'Colour', { text: 'Farbe', to: 'de' }, 42],
      ['en', 'zh-hans', 'Colour', { text: '颜色', to: 'zh-Hans' }, 42],
      ['en', 'pt-pt', 'Colour', { text: 'Cor', to: 'pt-PT' }, 42],
      ['en', 'xx-yy', 'Colour', { text: '?', to: 'xx-YY' }, 42],
    ]);
    expect(back[0].options).toEqual(keyOptions({ from: 'en', to: ['de'] })[0]);
  });

  it('an empty target segment of another tool (not translated yet) is skipped and counted, not stored as a translation into nothing', async () => {
    const file = join(dir, 'empty.tmx');
    writeFileSync(
      file,
      `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en"/><body>\n` +
        `<tu><tuv xml:lang="en"><seg>Open</seg></tuv><tuv xml:lang="de"><seg></seg></tuv><tuv xml:lang="de-AT"><seg>Öffnen</seg></tuv><tuv xml:lang="fr"><seg>  </seg></tuv></tu>\n` +
        `<tu><tuv xml:lang="en"><seg> </seg></tuv><tuv xml:lang="de"><seg> </seg></tuv></tu>\n</body></tmx>\n`,
    );
    const back: MemoryEntry[] = [];
    const skipped = { emptyTargets: 0 };
    expect(await readTmx(file, (e) => void back.push(e), { now: 42, skipped })).toBe(2);
    // the de-AT translation answers de (the empty de before it does not take its place); an empty text may stay empty
    expect(back.map((e) => [e.source, e.result.translations[0]])).toEqual([
      ['Open', { text: 'Öffnen', to: 'de' }],
      [' ', { text: ' ', to: 'de' }],
    ]);
    expect(skipped).toEqual({ emptyTargets: 2 });
  });

  it('a file whose header says srclang="*all*" names the source of units without one with --from, else is refused naming the line and the option', async () => {
    const file = join(dir, 'all.tmx');
    writeFileSync(
      file,
      '<?xml version="1.0"?>\n<tmx version="1.4"><header srclang="*all*"/><body>\n' +
        '<tu><tuv xml:lang="en-US"><seg>Open</seg></tuv><tuv xml:lang="de-DE"><seg>Öffnen</seg></tuv></tu>\n' +
        '<tu srclang="de-DE"><tuv xml:lang="en-US"><seg>Close</seg></tuv><tuv xml:lang="de-DE"><seg>Schließen</seg></tuv></tu>\n</body></tmx>\n',
    );
    await expect(readTmx(file, () => undefined)).rejects.toThrow(new TmxError(3, 'no source language: the <tu> has no srclang and the header names none (srclang="*all*"); give it with --from <lang>'));
    const back: MemoryEntry[] = [];
    await readTmx(file, (e) => void back.push(e), { from: 'en-US' });
    // --from is for the units the file names no source for: the second names its own
    expect(back.map((e) => [e.options.from, e.options.to, e.source, e.result.translations[0].text])).toEqual([
      ['en', 'de', 'Open', 'Öffnen'],
      ['de', 'en', 'Schließen', 'Close'],
    ]);
  });

  it('reads TMX 1.1 to 1.3 as well (the same structure; 1.1 names languages with lang); refuses 2.0', async () => {
    const file = join(dir, 'old.tmx');
    const tmx = (version: string, lang: string) =>
      `<?xml version="1.0"?>\n<tmx version="${version}"><header srclang="EN-US" creationtool="Trados" creationtoolversion="5" segtype="sentence" o-tmf="TW4Win 2.0 Format" adminlang="EN-US" datatype="rtf"/><body>\n` +
      `<tu><tuv ${lang}="EN-US"><seg>Save <ut>{\\b}</ut>all</seg></tuv><tuv ${lang}="DE-DE"><seg>Alle speichern</seg></tuv></tu>\n</body></tmx>\n`;
    for (const [version, lang] of [['1.1', 'lang'], ['1.2', 'xml:lang'], ['1.3', 'xml:lang']]) {
      writeFileSync(file, tmx(version, lang));
      const back: MemoryEntry[] = [];
      await readTmx(file, (e) => void back.push(e));
      expect(back.map((e) => [e.options.from, e.options.to, e.source, e.result.translations[0].text]), version).toEqual([['en', 'de', 'Save {\\b}all', 'Alle speichern']]);
    }
    writeFileSync(file, tmx('2.0', 'xml:lang'));
    await expect(readTmx(file, () => undefined)).rejects.toThrow(new TmxError(2, 'TMX version 2.0; vx reads TMX 1.1 to 1.4'));
  });

  it('reads the entities a file declares in its DOCTYPE (saxes reads no DTD); one it does not declare names its line', async () => {
    const file = join(dir, 'entities.tmx');
    const tmx = (use: string) =>
      `<?xml version="1.0"?>\n<!DOCTYPE tmx SYSTEM "tmx14.dtd" [\n  <!ENTITY nbsp "&#160;">\n  <!ENTITY co 'ACME &amp; Co'>\n]>\n<tmx version="1.4"><header srclang="en"/><body>\n<tu><tuv xml:lang="en"><seg>${use}</seg></tuv><tuv xml:lang="de"><seg>x</seg></tuv></tu>\n</body></tmx>\n`;
    writeFileSync(file, tmx('10&nbsp;km by &co;'));
    const back: string[] = [];
    await readTmx(file, (e) => void back.push(e.source));
    expect(back).toEqual(['10\u00a0km by ACME & Co']);
    writeFileSync(file, tmx('&copy; 2026'));
    await expect(readTmx(file, () => undefined)).rejects.toThrow(new TmxError(7, 'undefined entity'));
  });

  it('reads UTF-16 (with a byte order mark) and the encoding the XML declaration names; bytes that are not UTF-8 name their line', async () => {
    const tmx = (encoding: string, seg: string) =>
      `<?xml version="1.0" encoding="${encoding}"?>\n<tmx version="1.4"><header srclang="en"/>\n<body>\n<tu><tuv xml:lang="en"><seg>${seg}</seg></tuv><tuv xml:lang="de"><seg>x</seg></tuv></tu>\n</body></tmx>\n`;
    const read = async (name: string, bytes: Buffer) => {
      const f = join(dir, name);
      writeFileSync(f, bytes);
      const back: string[] = [];
      await readTmx(f, (e) => void back.push(e.source));
      return back;
    };
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tmx('UTF-16', 'Grüße 😀'), 'utf16le')]);
    expect(await read('le.tmx', le)).toEqual(['Grüße 😀']);
    const be = Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(tmx('UTF-16', 'Grüße 😀'), 'utf16le').swap16()]));
    expect(await read('be.tmx', be)).toEqual(['Grüße 😀']);
    expect(await read('bom8.tmx', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(tmx('UTF-8', 'Grüße'))]))).toEqual(['Grüße']);
    expect(await read('latin1.tmx', Buffer.from(tmx('ISO-8859-1', 'Grüße'), 'latin1'))).toEqual(['Grüße']);
    await expect(read('bad8.tmx', Buffer.from(tmx('UTF-8', 'Grüße'), 'latin1'))).rejects.toThrow(
      'line 4: not valid UTF-8 (save the file as UTF-8, or name its encoding in the XML declaration: <?xml version="1.0" encoding="ISO-8859-1"?>)',
    );
    await expect(read('ebcdic.tmx', Buffer.from(tmx('X-NO-SUCH', 'a')))).rejects.toThrow('line 1: the encoding "X-NO-SUCH" is not one vx reads (save the file as UTF-8)');
  });

  it('names the line of bad XML or a bad language code', async () => {
    const bad = (name: string, body: string) => {
      const f = join(dir, name);
      writeFileSync(f, `<?xml version="1.0"?>\n<tmx version="1.4">\n<header srclang="en"/>\n<body>\n${body}\n</body>\n</tmx>\n`);
      return readTmx(f, () => undefined);
    };
    await expect(bad('a.tmx', '<tu><tuv xml:lang="en"><seg>a</seg></tuv>\n<tuv xml:lang="de"><seg>b</tuv></tu>')).rejects.toThrow(/^line 6: /);
    await expect(bad('b.tmx', '<tu>\n<tuv xml:lang="en"><seg>a</seg></tuv>\n<tuv xml:lang="d e"><seg>b</seg></tuv></tu>')).rejects.toThrow('line 7: the <tuv> language (xml:lang) "d e" is not a language code (expected a code like en, de or pt-PT)');
    await expect(bad('e.tmx', '<tu><tuv xml:lang="en"><seg>a &nbsp; b</seg></tuv></tu>')).rejects.toThrow(new TmxError(5, 'undefined entity'));
    await expect(bad('c.tmx', '<tu srclang="english"><tuv xml:lang="en"><seg>a</seg></tuv></tu>')).rejects.toThrow('line 5: the source language (srclang) "english" is not a language code (expected a code like en, de or pt-PT)');
    const f = join(dir, 'd.tmx');
    writeFileSync(f, '{"not": "xml"}');
    await expect(readTmx(f, () => undefined)).rejects.toThrow(/^line 1: /);
  });
});
