// Android string resources: real files of two apps translated through the emulator's
// pseudo-translation, each target read back by an XML parser that is not vx's (saxes through a
// plain DOM-less walk would be vx's own; here the target's strings are compared as Android reads
// them), untouched resources byte for byte, plurals by the target language's CLDR categories, and
// hostile answers left untranslated.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { android, androidTargetPath, isAndroidResource, loadAndroid } from '../../src/api/translator/files/android.js';
import { loadXmlTree } from '../../src/api/translator/files/xml-tree.js';
import { ROOT } from '../helpers/vx.js';
import { readText, translateDoc } from '../helpers/formats.js';
import { parseAndroid } from '../helpers/validators.js';

const DIR = join(ROOT, 'test', 'fixtures', 'files', 'android');
const fixture = (f: string) => ({ file: join(DIR, f), text: readText(join(DIR, f)) });

beforeAll(async () => {
  await loadAndroid();
  await loadXmlTree();
});

describe('Android strings.xml', () => {
  it('is known by its place in a values directory', () => {
    expect(['app/src/main/res/values/strings.xml', 'res/values-de/arrays.xml', 'values/plurals.xml', 'res\\values\\strings.xml'].map(isAndroidResource)).toEqual([true, true, true, true]);
    expect(['res/layout/main.xml', 'strings.xml', 'res/values/strings.json'].map(isAndroidResource)).toEqual([false, false, false]);
  });

  it('targets go to values-<lang>[-r<REGION>] (b+ with a script; iw/in for he/id)', () => {
    const p = 'app/src/main/res/values/strings.xml';
    expect(['de', 'pt-BR', 'zh-Hans', 'sr-Latn-RS', 'he', 'id', 'es-419'].map((l) => androidTargetPath(p, l))).toEqual([
      'app/src/main/res/values-de/strings.xml',
      'app/src/main/res/values-pt-rBR/strings.xml',
      'app/src/main/res/values-b+zh+Hans/strings.xml',
      'app/src/main/res/values-b+sr+Latn+RS/strings.xml',
      'app/src/main/res/values-iw/strings.xml',
      'app/src/main/res/values-in/strings.xml',
      'app/src/main/res/values-b+es+419/strings.xml',
    ]);
    expect(androidTargetPath('res/values-en/strings.xml', 'de')).toBe('res/values-de/strings.xml');
  });

  it('Thunderbird: every string, plural and array translated, escapes and xliff:g spans kept, Polish plurals by CLDR', () => {
    const { file, text } = fixture('thunderbird/values/strings.xml');
    const doc = android.parseSource(text, file);
    const r = translateDoc(android, doc, 'pl');
    expect(r.problems).toEqual(new Map());
    const src = parseAndroid(text);
    const tgt = parseAndroid(r.text);
    // every translatable source string is in the target, translated; xliff:g spans are the source's
    for (const [name, s] of src.strings) {
      if (s.translatable === false) continue;
      const t = tgt.strings.get(name)!;
      expect(t, name).toBeDefined();
      expect(t.spans).toEqual(s.spans);
      if (/\p{L}/u.test(s.text.replace(/%[\d.$]*[sdf]|<[^>]*>/g, ''))) expect(t.text, name).toContain('[pl] ');
    }
    // the Polish target has one/few/many/other, each from the source's one or other
    const src2 = src.plurals.get('notification_new_messages_title')!;
    const pl = tgt.plurals.get('notification_new_messages_title')!;
    expect([...src2.keys()]).toEqual(['one', 'other']);
    expect([...pl.keys()]).toEqual(['one', 'few', 'many', 'other']);
    expect(r.text).toContain(
      '    <plurals name="notification_new_messages_title">\n        <item quantity="one"><xliff:g id="new_message_count">%d</xliff:g> [pl] ñéŵ ɱéššåĝé</item>\n        <item quantity="few"><xliff:g id="new_message_count">%d</xliff:g> [pl] ñéŵ ɱéššåĝéš</item>',
    );
    // Android escapes written back as Android wants them
    expect(r.text).toContain(`<string name="changelog_loading_error">[pl] Çöûļðñ\\'ţ ļöåð ţĥé çĥåñĝéļöĝ.</string>`);
    // what vx did not translate is byte for byte: comments and the file's head
    expect(r.text).toContain('    <!-- === App-specific strings ============================================================= -->\n');
  });

  it('Thunderbird arrays: translatable="false" arrays and @string references are not text', () => {
    const { file, text } = fixture('thunderbird/values/arrays_general_settings_strings.xml');
    const doc = android.parseSource(text, file);
    expect(doc.units.map((u) => u.key)).not.toContain('language_entries');
    const r = translateDoc(android, doc, 'de');
    const tgt = parseAndroid(r.text);
    expect(tgt.arrays.has('language_entries')).toBe(false);
    for (const [name, items] of parseAndroid(text).arrays) {
      if (name === 'language_entries') continue;
      const t = tgt.arrays.get(name)!;
      expect(t.length, name).toBe(items.length);
      items.forEach((it, i) => (/^@|^[^\p{L}]*$/u.test(it) ? expect(t[i], `${name}[${i}]`).toBe(it) : expect(t[i], `${name}[${i}]`).toContain('[de] ')));
    }
  });

  it('Wikipedia: CDATA HTML keeps its tags and links, tools:ignore attributes stay, a second render from the target keeps it byte for byte', () => {
    const { file, text } = fixture('wikipedia/values/strings.xml');
    const doc = android.parseSource(text, file);
    const r = translateDoc(android, doc, 'de');
    expect(r.problems).toEqual(new Map());
    expect(r.text).toContain('<string name="app_name_beta" tools:ignore="UnusedResources">[de] Ŵîķîþéðîå Ɓéţå</string>');
    expect(r.text).toMatch(/<string name="page_edit_history_minor_edit"><!\[CDATA\[<b>\[de\] ɱ<\/b> %s\]\]><\/string>/);
    expect(r.text).toMatch(/<string name="edit_section_captcha_request_an_account_message"><!\[CDATA\[\[de\] Çåñ\\'ţ šéé ţĥé îɱåĝé\? <a href="https:\/\/en.wikipedia.org\/wiki\/Wikipedia:Request_an_account">Ŕéǫûéšţ åñ åççöûñţ<\/a>\]\]><\/string>/);
    const tgt = parseAndroid(r.text);
    expect(tgt.strings.size).toBe([...parseAndroid(text).strings.values()].filter((s) => s.translatable !== false && !s.text.startsWith('@')).length);
    // the target read back: every unit's value is what written() said (the lock records it), and keeping all of it changes nothing
    const target = android.parseTarget(r.text, 'values-de/strings.xml', doc, 'de');
    for (const u of doc.units) {
      const v = r.values.get(u.key);
      if (v?.kind === 'new') expect(target.values.get(u.key), u.key).toBe(android.written!(doc, u, v, 'de', undefined));
    }
    const kept = new Map(doc.units.map((u) => [u.key, { kind: 'keep' as const }]));
    expect(android.render(doc, 'de', kept, target, {})).toBe(r.text);
  });

  it('a hand-written Polish plural with some forms keeps them; only the missing ones are translated', () => {
    const src = '<resources>\n    <plurals name="files">\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>\n</resources>\n';
    const doc = android.parseSource(src, 'res/values/strings.xml');
    const target = android.parseTarget('<resources>\n    <plurals name="files">\n        <item quantity="one">%d plik</item>\n    </plurals>\n</resources>\n', 'res/values-pl/strings.xml', doc, 'pl');
    expect(target.values.has('files')).toBe(false);
    const r = translateDoc(android, doc, 'pl', { target });
    expect(r.text).toBe(
      '<resources>\n    <plurals name="files">\n        <item quantity="one">%d plik</item>\n        <item quantity="few">%d [pl] ƒîļéš</item>\n        <item quantity="many">%d [pl] ƒîļéš</item>\n        <item quantity="other">%d [pl] ƒîļéš</item>\n    </plurals>\n</resources>\n',
    );
    expect(translateDoc(android, doc, 'ja').text).toBe('<resources>\n    <plurals name="files">\n        <item quantity="other">%d [ja] ƒîļéš</item>\n    </plurals>\n</resources>\n');
  });

  it('hostile answers: a dropped or moved xliff:g span, a control character, a new line break leave the unit untranslated (out of the target)', () => {
    const src = '<resources>\n    <string name="a">Delete <xliff:g id="n">%1$s</xliff:g>?</string>\n    <string name="b">Open</string>\n</resources>\n';
    const doc = android.parseSource(src, 'res/values/strings.xml');
    const answers: Record<string, (h: string) => string> = {
      dropped: (h) => h.replace(/<span class="notranslate">[^<]*<\/span>/, ''),
      control: (h) => `${h}\u0007`,
      newline: (h) => h.replace(' ', '\n'),
    };
    for (const [what, answer] of Object.entries(answers)) {
      const r = translateDoc(android, doc, 'de', { answer: (h) => answer(h) });
      expect(r.problems.size, what).toBeGreaterThan(0);
      expect(r.text, what).not.toContain('name="a"');
    }
    const r = translateDoc(android, doc, 'de', { answer: (h) => h.replace(/<span class="notranslate">([^<]*)<\/span>/, '<span class="notranslate">%2$s</span>') });
    expect([...r.problems.values()][0]).toMatch(/missing <xliff:g id="n">%1\$s<\/xliff:g>; unexpected %2\$s/);
    // unnumbered directives may not trade places (Java's Formatter would format a number as a string); numbered ones may
    const moved = android.parseSource('<resources>\n    <string name="m">%s has %d files</string>\n    <string name="n">%1$s has %2$d files</string>\n</resources>\n', 'res/values/strings.xml');
    const swap = (h: string) => h.replace(/(<span class="notranslate">[^<]*<\/span>)(.*)(<span class="notranslate">[^<]*<\/span>)/, '$3$2$1');
    const m = translateDoc(android, moved, 'de', { answer: swap });
    expect([...m.problems.keys()]).toEqual(['m']);
    expect(m.text).toBe('<resources>\n    <string name="n">%2$d has %1$s files</string>\n</resources>\n');
  });

  it('a malformed file is refused naming its line', () => {
    expect(() => android.parseSource('<resources>\n  <string name="a">x</strin>\n</resources>', 'res/values/strings.xml')).toThrow(/res\/values\/strings.xml:2:\d+/);
    expect(() => android.parseSource('<resources>\n  <string name="a">x</string>\n  <string name="a">y</string>\n</resources>', 'v/strings.xml')).toThrow(/v\/strings.xml:3: the string resource "a" is defined twice/);
  });
});
