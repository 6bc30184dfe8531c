// Apple .strings and .stringsdict: real files (UTF-8 and UTF-16) translated through the emulator's
// pseudo-translation; .stringsdict targets read back by Python's plistlib (Apple's property list
// format), plural categories per target language from CLDR, untouched entries byte for byte,
// hostile answers left in the source language.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { appleStrings, lprojTargetPath } from '../../src/api/translator/files/apple-strings.js';
import { loadStringsdict, stringsdict } from '../../src/api/translator/files/stringsdict.js';
import type { SourceDoc } from '../../src/api/translator/files/types.js';
import { ROOT } from '../helpers/vx.js';
import { readText, translateDoc } from '../helpers/formats.js';
import { parsePlist } from '../helpers/validators.js';

const DIR = join(ROOT, 'test', 'fixtures', 'files', 'apple');

beforeAll(async () => {
  await loadStringsdict();
});

function stringsDoc(path: string): SourceDoc {
  const { text, encoding } = appleStrings.decode!(readFileSync(path), path);
  return { ...appleStrings.parseSource(text, path), encoding };
}

describe('.strings', () => {
  it('Sequel Pro (UTF-16LE): read, translated, written back in UTF-16LE with its BOM, comments untouched', () => {
    const file = join(DIR, 'sequelpro', 'English.lproj', 'Console.strings');
    const doc = stringsDoc(file);
    expect(doc.encoding).toBe('utf16le');
    expect(doc.language).toBe('en');
    expect(doc.units[0]).toMatchObject({ key: 'Console', line: 2 });
    const r = translateDoc(appleStrings, doc, 'de');
    const bytes = Buffer.from(appleStrings.encode!(r.text, 'utf16le'));
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    const back = bytes.subarray(2).toString('utf16le');
    expect(back).toContain('/* Class = "NSWindow"; title = "Console"; ObjectID = "3"; */\n"Console" = "[de] Çöñšöļé";\n');
    expect(appleStrings.parseTarget(back, 'de.lproj/Console.strings', doc, 'de').values.size).toBe(doc.units.length);
    expect(lprojTargetPath('Resources/English.lproj/Console.strings', 'de')).toBe('Resources/de.lproj/Console.strings');
  });

  it('DuckDuckGo: %@, %d%% and \\n kept; a second render keeping every unit is byte for byte', () => {
    const file = join(DIR, 'duckduckgo', 'en.lproj', 'Localizable.strings');
    const doc = stringsDoc(file);
    const r = translateDoc(appleStrings, doc, 'pl');
    expect(r.problems).toEqual(new Map());
    expect(r.text).toContain('"action.text-zoom-menu-item" = "[pl] Žööɱ (%d%%)";');
    const target = appleStrings.parseTarget(r.text, 'pl.lproj/Localizable.strings', doc, 'pl');
    for (const u of doc.units) {
      const v = r.values.get(u.key);
      if (v?.kind === 'new') expect(target.values.get(u.key), u.key).toBe(appleStrings.written!(doc, u, v, 'pl', undefined));
    }
    expect(appleStrings.render(doc, 'pl', new Map(doc.units.map((u) => [u.key, { kind: 'keep' as const }])), target, {})).toBe(r.text);
  });

  it('a unit left untranslated stays in the source language; escapes written as Apple reads them', () => {
    const src = '/* greeting */\n"hello" = "Hello \\"%@\\"";\n"bye" = "Bye";\nunquoted = plain;\n"keyonly";\n';
    const doc = appleStrings.parseSource(src, 'en.lproj/Localizable.strings');
    expect(doc.units.map((u) => [u.key, u.parts[0].map((p) => p.value).join('')])).toEqual([['hello', 'Hello "%@"'], ['bye', 'Bye'], ['unquoted', 'plain'], ['keyonly', 'keyonly']]);
    const r = translateDoc(appleStrings, doc, 'de', { answer: (h, l) => (h === 'Bye' ? 'Tschüss\u0000' : `[${l}] ${h}`) });
    expect([...r.problems.keys()]).toEqual(['bye']);
    expect(r.text).toBe('/* greeting */\n"hello" = "[de] Hello \\"%@\\"";\n"bye" = "Bye";\nunquoted = "[de] plain";\n"keyonly" = "[de] keyonly";\n');
    // a key given twice (ibtool does so for a text used twice): one unit, the value Apple reads (the last), both written
    const twice = appleStrings.parseSource('"a" = "x";\n"b" = "y";\n"a" = "x";\n', 'x.strings');
    expect(twice.units.map((u) => u.key)).toEqual(['b', 'a']);
    expect(translateDoc(appleStrings, twice, 'de').text).toBe('"a" = "[de] ẋ";\n"b" = "[de] ý";\n"a" = "[de] ẋ";\n');
    expect(() => appleStrings.parseSource('"a" = "x"\n"b" = "y";\n', 'x.strings')).toThrow(/x.strings:2: malformed .strings: expected ; after the entry of "a"/);
  });
});

describe('.stringsdict', () => {
  const file = join(DIR, 'duckduckgo', 'en.lproj', 'Localizable.stringsdict');
  const text = readText(file);

  it('DuckDuckGo: each target has its language\'s categories (ru: one/few/many/other; ja: other), zero kept only where CLDR has it; plistlib reads it', () => {
    const doc = stringsdict.parseSource(text, file);
    for (const lang of ['ru', 'ja', 'ar']) {
      const r = translateDoc(stringsdict, doc, lang);
      expect(r.problems, lang).toEqual(new Map());
      const plist = parsePlist(r.text) as Record<string, Record<string, unknown>>;
      const src = parsePlist(text) as Record<string, Record<string, unknown>>;
      expect(Object.keys(plist)).toEqual(Object.keys(src));
      const items = plist['bookmark.deleteFolderAlert.message'].items as Record<string, string>;
      const want = { ru: ['one', 'few', 'many', 'other'], ja: ['other'], ar: ['zero', 'one', 'two', 'few', 'many', 'other'] }[lang]!;
      expect(Object.keys(items).filter((k) => !k.startsWith('NS')), lang).toEqual(want);
      expect(items.NSStringFormatValueTypeKey).toBe('d');
      expect(items.other).toMatch(new RegExp(`^\\[${lang}\\] .*%d`));
      expect(plist['bookmark.deleteFolderAlert.message'].NSStringLocalizedFormatKey).toBe('%#@items@');
    }
  });

  it('keeps the file\'s tabs and layout; the value read back is what written() says; hostile answers leave the unit in English', () => {
    const doc = stringsdict.parseSource(text, file);
    const r = translateDoc(stringsdict, doc, 'ru');
    expect(r.text).toContain('\t\t\t<key>one</key>\n\t\t\t<string>[ru] ');
    const target = stringsdict.parseTarget(r.text, 'ru.lproj/Localizable.stringsdict', doc, 'ru');
    for (const u of doc.units) expect(target.values.get(u.key), u.key).toBe(stringsdict.written!(doc, u, r.values.get(u.key) as never, 'ru', undefined));
    const hostile = translateDoc(stringsdict, doc, 'ru', { answer: (h) => h.replace(/<span class="notranslate">%d<\/span>/, '') });
    expect(hostile.problems.size).toBeGreaterThan(0);
    const key = [...hostile.problems.keys()][0];
    const plist = parsePlist(hostile.text) as Record<string, unknown>;
    expect(plist[key]).toEqual((parsePlist(text) as Record<string, unknown>)[key]);
  });
});
