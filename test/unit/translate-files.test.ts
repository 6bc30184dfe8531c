// The pure parts of vx translate file|sync: placeholder protection and its check (with a property
// test through the emulator's pseudo-translation), the lock file's statuses, target naming, plural
// forms, and the format readers' surgical edits.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadIcu } from '../../src/api/translator/files/icu.js';

beforeAll(async () => {
  await loadIcu();
});
import { json, jsonTargetPath, loadJson } from '../../src/api/translator/files/json.js';
import { pluralCategories } from '../../src/api/translator/files/plurals.js';
import { unitStatus } from '../../src/api/translator/files/lock.js';
import { loadMarkdown, markdown } from '../../src/api/translator/files/markdown.js';
import { po, pluralForms } from '../../src/api/translator/files/po.js';
import { customPatterns, fromHtml, placeholderProblem, toHtml, tokenize, type Piece } from '../../src/api/translator/files/protect.js';
import { hash } from '../../src/api/translator/files/types.js';
import { loadXliff, xliff, xmlPieces } from '../../src/api/translator/files/xliff.js';
import { groupItems, type WorkItem } from '../../src/api/translator/files/engine.js';
import { UsageError } from '../../src/core/errors.js';
import { serviceLanguage } from '../../src/model/translator.js';
import { translateHtml } from '../../src/emulator/translator/text.js';

const tokens = (s: string, custom: RegExp[] = []) => tokenize(s, { custom }).filter((p) => p.kind !== 'text').map((p) => p.value);

describe('placeholders', () => {
  it('finds every kind: printf, .NET/AL, i18next, $t(), ICU, HTML tags and entities, --protect', () => {
    expect(tokens('%s %1$d %-5.2f %% %{count} %(name)s %1 {0} {1:N2} {{user}} {{- raw}} $t(common.save, {"n": (1)}) <b class="x">bold</b> <br/> &nbsp; {name} 100% sure')).toEqual([
      '%s', '%1$d', '%-5.2f', '%%', '%{count}', '%(name)s', '%1', '{0}', '{1:N2}', '{{user}}', '{{- raw}}', '$t(common.save, {"n": (1)})', '<b class="x">', '</b>', '<br/>', '&nbsp;', '{name}',
    ]);
    expect(tokens('ICU {count, plural, =0 {none} one {# file} other {# files}} and {g, select, male {he} other {they}}')).toEqual([
      '{count, plural, =0 {', '} one {', '#', '} other {', '#', '}}', '{g, select, male {', '} other {', '}}',
    ]);
    expect(tokens('Order ORD-1234 shipped', customPatterns(['ORD-\\d+']))).toEqual(['ORD-1234']);
    // Markdown attribute lists (heading ids that other pages link to)
    expect(tokens('Getting started {#getting-started} and {: .note #n} and {.lead}')).toEqual(['{#getting-started}', '{: .note #n}', '{.lead}']);
    expect(() => customPatterns(['('])).toThrow(/invalid regular expression "\(" for --protect/);
  });

  it('sends tokens in notranslate spans, balanced tags as markup, text escaped; reads them back', () => {
    const p = tokenize('Hi {0} & <b>you</b>');
    expect(toHtml(p)).toBe('Hi <span class="notranslate">{0}</span> &amp; <b>you</b>');
    // unbalanced tags cannot be sent as markup (the service wants well-formed HTML): protected too
    expect(toHtml(tokenize('Hi <b>you'))).toBe('Hi <span class="notranslate">&lt;b&gt;</span>you');
    const back = fromHtml('Hallo <span class="notranslate">{0}</span> &amp; <b>du</b>', p);
    expect(back.map((x) => x.value).join('')).toBe('Hallo {0} & <b>du</b>');
    expect(placeholderProblem(p, back)).toBeUndefined();
  });

  it("a string's own notranslate span (a brand kept from machine translation) is markup, not a placeholder vx protected", () => {
    // sent as markup; the service keeps the span and its content: that is the unit's translation, not a changed placeholder
    const brand = tokenize('Welcome to <span class="notranslate">Contoso Cloud</span> today');
    expect(toHtml(brand)).toBe('Welcome to <span class="notranslate">Contoso Cloud</span> today');
    const back = fromHtml('Willkommen bei <span class="notranslate">Contoso Cloud</span> heute', brand);
    expect([placeholderProblem(brand, back), back.map((x) => x.value).join('')]).toEqual([undefined, 'Willkommen bei <span class="notranslate">Contoso Cloud</span> heute']);
    // a placeholder inside one: protected in its own span within the string's
    const inner = tokenize('Use <span class="notranslate">{0}</span> now');
    expect(toHtml(inner)).toBe('Use <span class="notranslate"><span class="notranslate">{0}</span></span> now');
    const back2 = fromHtml('Benutze <span class="notranslate"><span class="notranslate">{0}</span></span> jetzt', inner);
    expect([placeholderProblem(inner, back2), back2.map((x) => x.value).join('')]).toEqual([undefined, 'Benutze <span class="notranslate">{0}</span> jetzt']);
    // a placeholder the service changed inside its span is still caught
    expect(placeholderProblem(tokenize('Hi {0}'), fromHtml('Hallo <span class="notranslate">{ 0 }</span>', tokenize('Hi {0}')))).toBeDefined();
  });

  it('a translation whose placeholders differ is caught: missing, extra, duplicated, ICU reordered', () => {
    const p = tokenize('{0} of {1}');
    expect(placeholderProblem(p, fromHtml('<span class="notranslate">{1}</span> von <span class="notranslate">{0}</span>', p))).toBeUndefined();
    expect(placeholderProblem(p, fromHtml('<span class="notranslate">{0}</span> von', p))).toBe('missing {1}');
    expect(placeholderProblem(p, fromHtml('{0} von {1} {2}', p))).toBe('unexpected {2}');
    const icu = tokenize('{n, plural, one {# day} other {# days}}');
    expect(placeholderProblem(icu, tokenize('{n, plural, other {# Tage}} one {# Tag}}'))).toBeDefined();
  });

  it('property: text mixed with every placeholder kind survives the emulator pseudo-translation exactly', () => {
    const placeholder = fc.constantFrom('%s', '%1$d', '%d', '%1', '%2', '{0}', '{1:N2}', '{{name}}', '{{count}}', '$t(common.ok)', '$t(a.b, {"count": 2})', '<b>', '</b>', '<br/>', '&amp;', '{user}', '%{n}', '%(x)s');
    const word = fc.stringMatching(/^[A-Za-z]{1,8}$/);
    const sep = fc.constantFrom(' ', ', ', '. ', ' - ', '!', ' (', ') ');
    const icu = fc.tuple(word, word).map(([a, b]) => `{count, plural, one {# ${a}} other {# ${b}}}`);
    const piece = fc.oneof({ arbitrary: word, weight: 3 }, { arbitrary: placeholder, weight: 2 }, { arbitrary: sep, weight: 2 }, { arbitrary: icu, weight: 1 });
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 14 }), (parts) => {
        const src = parts.join('');
        const pieces = tokenize(src);
        const sent = toHtml(pieces);
        const translated = translateHtml(sent, '[de] ');
        const back = fromHtml(translated, pieces);
        expect(placeholderProblem(pieces, back)).toBeUndefined();
        // the same placeholders in the same order (the pseudo-translation keeps word order)
        const order = (ps: Piece[]) => ps.filter((x) => x.kind !== 'text').map((x) => x.value);
        expect(order(back)).toEqual(order(pieces));
      }),
      { numRuns: 400 },
    );
  });
});

describe('lock statuses', () => {
  const unit = { key: 'k', parts: [], hash: hash('Hello'), line: 1 };
  it('missing, current, stale, manual, manual-stale, left untranslated', () => {
    expect(unitStatus(unit, undefined, undefined).status).toBe('missing');
    // a target that was there before vx: adopted as a translation by hand
    expect(unitStatus(unit, 'Hallo', undefined)).toEqual({ status: 'current', keep: [unit.hash, hash('Hallo'), 'm'] });
    expect(unitStatus(unit, 'Hallo', [unit.hash, hash('Hallo'), 'v']).status).toBe('current');
    expect(unitStatus(unit, 'Hallo', [hash('Hi'), hash('Hallo'), 'v']).status).toBe('stale');
    expect(unitStatus(unit, 'Servus', [unit.hash, hash('Hallo'), 'v'])).toEqual({ status: 'manual', keep: [unit.hash, hash('Servus'), 'm'] });
    expect(unitStatus(unit, 'Servus', [hash('Hi'), hash('Servus'), 'm']).status).toBe('manual-stale');
    expect(unitStatus(unit, 'Hello', [unit.hash, hash('Hello'), 'p']).status).toBe('missing');
    // edited by hand while its source changed: the edit was of the old source, so it is reported for review
    expect(unitStatus(unit, 'Servus', [hash('Hi'), hash('Hallo'), 'v'])).toEqual({ status: 'manual-stale', keep: [unit.hash, hash('Servus'), 'm'] });
  });
});

describe('names and plural forms', () => {
  it('targets by each format convention', () => {
    expect(xliff.targetName('Translations/app.g.xlf', 'de-DE')).toBe('Translations/app.de-DE.xlf');
    expect(xliff.targetName('app.en-US.xlf', 'fr-FR')).toBe('app.fr-FR.xlf');
    expect(xliff.targetName('app.en-US.xlf', 'fr-FR', 'en-US')).toBe('app.fr-FR.xlf');
    // a last name part of two or three letters is a language only when it is the source's
    expect(xliff.targetName('Sales.App.xlf', 'de-DE', 'en-US')).toBe('Sales.App.de-DE.xlf');
    expect(xliff.targetName('Admin.UI.xlf', 'de', 'en')).toBe('Admin.UI.de.xlf');
    expect(xliff.targetName('My.App.g.xlf', 'de', 'en')).toBe('My.App.de.xlf');
    expect(jsonTargetPath('locales/en.json', 'de')).toBe('locales/de.json');
    expect(jsonTargetPath('locales/en/common.json', 'de', 'en')).toBe('locales/de/common.json');
    expect(jsonTargetPath('src/strings.json', 'de')).toBe('src/strings.de.json');
    expect(jsonTargetPath('app.en.json', 'pt-BR')).toBe('app.pt-BR.json');
    expect(po.targetName('po/messages.pot', 'de')).toBe('po/de.po');
    expect(po.targetName('po/pt-BR.po', 'de', 'pt-BR')).toBe('po/de.po');
    expect(po.targetName('locale/en/LC_MESSAGES/app.po', 'pt-BR', 'en')).toBe('locale/pt_BR/LC_MESSAGES/app.po');
    // a catalogue whose header says Language: en_US (gettext's spelling) is the en-US source
    expect(po.targetName('po/en_US.po', 'pt-BR', 'en_US')).toBe('po/pt_BR.po');
    expect(po.targetName('locale/en_US/LC_MESSAGES/app.po', 'de', 'en_US')).toBe('locale/de/LC_MESSAGES/app.po');
    expect(po.targetName('po/sr-Latn.po', 'sr-Latn-RS', 'sr_Latn')).toBe('po/sr_Latn_RS.po');
    expect(jsonTargetPath('locales/en_US/common.json', 'de', 'en-US')).toBe('locales/de/common.json');
    // a directory named by a script or region code is the language too
    expect(jsonTargetPath('locales/zh-Hans/common.json', 'de')).toBe('locales/de/common.json');
    expect(jsonTargetPath('locales/es-419/common.json', 'de')).toBe('locales/de/common.json');
    expect(jsonTargetPath('src/strings.json', 'de')).toBe('src/strings.de.json');
    expect(markdown.targetName('docs/README.md', 'ja')).toBe('docs/README.ja.md');
    expect(markdown.targetName('guide.en.md', 'de')).toBe('guide.de.md');
    expect(markdown.targetName('guide.en-US.md', 'de', 'en-US')).toBe('guide.de.md');
    // not every short last name part is a language: two docs must not share a target
    expect(markdown.targetName('docs/setup.cli.md', 'de')).toBe('docs/setup.cli.de.md');
    expect(markdown.targetName('README.dev.md', 'ja')).toBe('README.dev.ja.md');
  });

  it('the service is asked for the language it knows', () => {
    expect(['de-DE', 'en-US', 'pt-PT', 'pt-BR', 'fr-CA', 'zh-CN', 'zh-TW', 'nb-NO', 'sr-Cyrl', 'xx-YY'].map(serviceLanguage)).toEqual(['de', 'en', 'pt-PT', 'pt', 'fr-CA', 'zh-Hans', 'zh-Hant', 'nb', 'sr-Cyrl', 'xx-YY']);
     // a locale with a script and a region (BCP 47: .NET, iOS, Android b+ directories): the language and script the service knows
    expect(['sr-Latn-RS', 'sr-Cyrl-BA', 'zh-Hant-TW', 'zh-Hans-CN', 'zh_Hant_HK', 'mn-Cyrl-MN', 'iu-Latn-CA', 'uz-Latn-UZ', 'pt-PT-x-lisboa'].map(serviceLanguage)).toEqual([
      'sr-Latn', 'sr-Cyrl', 'zh-Hant', 'zh-Hans', 'zh-Hant', 'mn-Cyrl', 'iu-Latn', 'uz', 'pt-PT',
    ]);
  });

  it('plural categories and Plural-Forms per language', () => {
    expect(pluralCategories('de')).toEqual(['one', 'other']);
    expect(pluralCategories('pl')).toEqual(['one', 'few', 'many', 'other']);
    expect(pluralCategories('ja')).toEqual(['other']);
    expect(pluralCategories('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(pluralForms('pl').n).toBe(3);
    expect(pluralForms('ja')).toEqual({ header: 'nplurals=1; plural=0;', n: 1 });
    expect(pluralForms('fr').header).toBe('nplurals=2; plural=(n > 1);');
  });
});

describe('readers and writers', () => {
  beforeAll(async () => {
    await Promise.all([loadXliff(), loadJson(), loadMarkdown()]);
  });

  it('XLIFF: an existing target is replaced in place, CRLF and BOM-free indentation kept; a target copied from the source is dropped when untranslated', () => {
    const src = '<xliff version="1.2">\r\n <file source-language="en" original="x">\r\n  <body>\r\n   <trans-unit id="a">\r\n    <source>One</source>\r\n    <target>One</target>\r\n   </trans-unit>\r\n   <trans-unit id="b"><source>Two <x id="1"/></source></trans-unit>\r\n  </body>\r\n </file>\r\n</xliff>\r\n';
    const doc = xliff.parseSource(src, 'x.xlf');
    expect(doc.units.map((u) => u.key)).toEqual(['x/a', 'x/b']);
    expect(doc.units[1].parts[0]).toEqual([{ kind: 'text', value: 'Two ' }, { kind: 'raw', value: '<x id="1"/>' }]);
    const out = xliff.render(doc, 'de', new Map([['x/b', { kind: 'new', parts: [[{ kind: 'text', value: 'Zwei & ' }, { kind: 'raw', value: '<x id="1"/>' }]] }]]), undefined, {});
    expect(out).toBe(src.replace('original="x"', 'original="x" target-language="de"').replace('\r\n    <target>One</target>', '').replace('</source></trans-unit>', '</source><target state="needs-review-translation">Zwei &amp; <x id="1"/></target></trans-unit>'));
  });

  it('XLIFF: content marked not to translate (2.x translate="no", 1.2 mtype="protected") is one placeholder with its element', () => {
    expect(xmlPieces('Welcome to <mrk id="m1" translate="no">Contoso <mrk id="m3" translate="no">Cloud</mrk> <pc id="p">One</pc></mrk> and <mrk id="m2" translate="yes">more</mrk>.')).toEqual([
      { kind: 'text', value: 'Welcome to ' },
      { kind: 'raw', value: '<mrk id="m1" translate="no">Contoso <mrk id="m3" translate="no">Cloud</mrk> <pc id="p">One</pc></mrk>' },
      { kind: 'text', value: ' and ' },
      { kind: 'raw', value: '<mrk id="m2" translate="yes">' },
      { kind: 'text', value: 'more' },
      { kind: 'raw', value: '</mrk>' },
      { kind: 'text', value: '.' },
    ]);
    expect(xmlPieces("Use <mrk mtype='protected'>Business Central</mrk> &amp; <x id='1'/>")).toEqual([
      { kind: 'text', value: 'Use ' },
      { kind: 'raw', value: "<mrk mtype='protected'>Business Central</mrk>" },
      { kind: 'text', value: ' & ' },
      { kind: 'raw', value: "<x id='1'/>" },
    ]);
  });

  it('XLIFF 1.2: a kept unit keeps what only the target has (attributes such as approved, notes, alt-trans); one translated anew keeps its notes, not approved', () => {
    const src = [
      '<xliff version="1.2">',
      '  <file source-language="en" original="x">',
      '    <body>',
      '      <trans-unit id="a" resname="A">',
      '        <source>One</source>',
      '        <note from="developer">Button</note>',
      '      </trans-unit>',
      '      <trans-unit id="b">',
      '        <source>Two, changed</source>',
      '      </trans-unit>',
      '      <trans-unit id="c"><source>Three</source></trans-unit>',
      '    </body>',
      '  </file>',
      '</xliff>',
      '',
    ].join('\n');
    const tgt = [
      '<xliff version="1.2">',
      '  <file source-language="en" original="x" target-language="de">',
      '    <body>',
      '      <trans-unit id="a" resname="Old" approved="yes" phase-name="review">',
      '        <source>One</source>',
      '        <target state="signed-off">Eins</target>',
      '        <note from="developer">Button</note>',
      '        <note from="reviewer">Checked in the UI</note>',
      '        <alt-trans match-quality="80"><source>One</source><target>Ein</target><note>TM</note></alt-trans>',
      '      </trans-unit>',
      '      <trans-unit id="b" approved="yes" translate="yes">',
      '        <source>Two</source>',
      '        <target state="translated">Zwei</target>',
      '        <note from="translator">Keep it short</note>',
      '      </trans-unit>',
      '      <trans-unit id="c"><source>Three</source><target>Drei</target></trans-unit>',
      '    </body>',
      '  </file>',
      '</xliff>',
      '',
    ].join('\n');
    const doc = xliff.parseSource(src, 'x.xlf');
    const target = xliff.parseTarget(tgt, 'x.de.xlf', doc, 'de');
    const values = new Map([['x/a', { kind: 'keep' as const }], ['x/b', { kind: 'new' as const, parts: [[{ kind: 'text' as const, value: 'Zwei, geändert' }]] }], ['x/c', { kind: 'keep' as const }]]);
    const out = xliff.render(doc, 'de', values, target, {});
    expect(out).toBe(
      [
        '<xliff version="1.2">',
        '  <file source-language="en" original="x" target-language="de">',
        '    <body>',
        '      <trans-unit id="a" resname="A" approved="yes" phase-name="review">',
        '        <source>One</source>',
        '        <target state="signed-off">Eins</target>',
        '        <note from="reviewer">Checked in the UI</note>',
        '        <alt-trans match-quality="80"><source>One</source><target>Ein</target><note>TM</note></alt-trans>',
        '        <note from="developer">Button</note>',
        '      </trans-unit>',
        '      <trans-unit id="b" translate="yes">',
        '        <source>Two, changed</source>',
        '        <target state="needs-review-translation">Zwei, geändert</target>',
        '        <note from="translator">Keep it short</note>',
        '      </trans-unit>',
        '      <trans-unit id="c"><source>Three</source><target>Drei</target></trans-unit>',
        '    </body>',
        '  </file>',
        '</xliff>',
        '',
      ].join('\n'),
    );
    // the next sync renders the same file again: nothing doubled
    expect(xliff.render(doc, 'de', new Map([...values.keys()].map((k) => [k, { kind: 'keep' as const }])), xliff.parseTarget(out, 'x.de.xlf', doc, 'de'), {})).toBe(out);
  });

  it('XLIFF 2.0: a kept unit keeps the target\'s unit attributes and notes (<notes> created first in the unit when the source has none)', () => {
    const src = [
      '<xliff version="2.0" srcLang="en">',
      '  <file id="f">',
      '    <unit id="u1">',
      '      <segment>',
      '        <source>Hello</source>',
      '      </segment>',
      '    </unit>',
      '    <unit id="u2" name="greet">',
      '      <notes>',
      '        <note category="dev">Greeting</note>',
      '      </notes>',
      '      <segment>',
      '        <source>Hi there</source>',
      '      </segment>',
      '    </unit>',
      '  </file>',
      '</xliff>',
      '',
    ].join('\n');
    const tgt = [
      '<xliff version="2.0" srcLang="en" trgLang="de">',
      '  <file id="f">',
      '    <unit id="u1" xmlns:my="urn:my" my:flag="x">',
      '      <notes>',
      '        <note category="translator">Formal address</note>',
      '      </notes>',
      '      <segment state="final">',
      '        <source>Hello</source>',
      '        <target>Hallo</target>',
      '      </segment>',
      '    </unit>',
      '    <unit id="u2" name="old">',
      '      <notes>',
      '        <note category="dev">Greeting</note>',
      '        <note id="n2">Checked</note>',
      '      </notes>',
      '      <segment state="reviewed">',
      '        <source>Hi</source>',
      '        <target>Hi</target>',
      '      </segment>',
      '    </unit>',
      '  </file>',
      '</xliff>',
      '',
    ].join('\n');
    const doc = xliff.parseSource(src, 'x.xlf');
    const target = xliff.parseTarget(tgt, 'x.de.xlf', doc, 'de');
    const values = new Map([['f/u1/0', { kind: 'keep' as const }], ['f/u2/0', { kind: 'new' as const, parts: [[{ kind: 'text' as const, value: 'Hallo zusammen' }]] }]]);
    const out = xliff.render(doc, 'de', values, target, {});
    expect(out).toBe(
      [
        '<xliff version="2.0" srcLang="en" trgLang="de">',
        '  <file id="f">',
        '    <unit id="u1" xmlns:my="urn:my" my:flag="x">',
        '      <notes>',
        '        <note category="translator">Formal address</note>',
        '      </notes>',
        '      <segment state="final">',
        '        <source>Hello</source>',
        '        <target>Hallo</target>',
        '      </segment>',
        '    </unit>',
        '    <unit id="u2" name="greet">',
        '      <notes>',
        '        <note category="dev">Greeting</note>',
        '        <note id="n2">Checked</note>',
        '      </notes>',
        '      <segment state="translated">',
        '        <source>Hi there</source>',
        '        <target>Hallo zusammen</target>',
        '      </segment>',
        '    </unit>',
        '  </file>',
        '</xliff>',
        '',
      ].join('\n'),
    );
    // on one line, without indentation, <notes> is created on that line
    const one = xliff.parseSource('<xliff version="2.0" srcLang="en"><file id="f"><unit id="u"><segment><source>A</source></segment></unit></file></xliff>', 'o.xlf');
    const oneTarget = xliff.parseTarget('<xliff version="2.0" srcLang="en" trgLang="de"><file id="f"><unit id="u"><notes><note>N</note></notes><segment><source>A</source><target>Ä</target></segment></unit></file></xliff>', 'o.de.xlf', one, 'de');
    expect(xliff.render(one, 'de', new Map([['f/u/0', { kind: 'keep' }]]), oneTarget, {})).toBe('<xliff version="2.0" srcLang="en" trgLang="de"><file id="f"><unit id="u"><notes><note>N</note></notes><segment><source>A</source><target>Ä</target></segment></unit></file></xliff>');
  });

  it('XLIFF 2.x: a segment is keyed by its id (its position without one); a target gives the position keys of earlier versions; an id twice in a unit is exit 2', () => {
    const src = '<xliff version="2.0" srcLang="en"><file id="f"><unit id="u"><segment id="s1"><source>A</source></segment><segment><source>B</source></segment><segment id="0"><source>C</source></segment></unit></file></xliff>';
    const doc = xliff.parseSource(src, 'k.xlf');
    expect(doc.units.map((u) => u.key)).toEqual(['f/u#s1', 'f/u/1', 'f/u#0']);
    expect(xliff.parseTarget(src, 'k.de.xlf', doc, 'de').aliases).toEqual(new Map([['f/u#s1', 'f/u/0'], ['f/u#0', 'f/u/2']]));
    expect(() => xliff.parseSource(src.replace('id="0"', 'id="s1"'), 'k.xlf')).toThrow(new UsageError('k.xlf:1: the segment id "s1" appears twice in unit "u"'));
  });

  it('XLIFF: an empty <target/> of the source is replaced, never doubled; left out when untranslated', () => {
    const src = '<xliff version="1.2"><file source-language="en" original="x"><body>\n<trans-unit id="a"><source>One</source><target/></trans-unit>\n<trans-unit id="b"><source>Two</source>\n<target state="new" /></trans-unit>\n</body></file></xliff>\n';
    const doc = xliff.parseSource(src, 'x.xlf');
    const v = (t: string) => ({ kind: 'new' as const, parts: [[{ kind: 'text' as const, value: t }]] });
    const out = xliff.render(doc, 'de', new Map([['x/a', v('Eins')]]), undefined, {});
    expect(out).toBe(src.replace('original="x"', 'original="x" target-language="de"').replace('<target/>', '<target state="needs-review-translation">Eins</target>').replace('\n<target state="new" />', ''));
    // read back: a's target is what vx wrote; an empty <target/> is no translation
    const back = xliff.parseTarget(src.replace('<target state="new" />', '<target state="new">Zwei</target>'), 'x.de.xlf', doc, 'de');
    expect([...back.values]).toEqual([['x/b', 'Zwei']]);
    expect([...back.pending!]).toEqual(['x/b']);
  });

  it('JSON: an untranslated key leaves with its comma; an object left empty becomes {}', () => {
    const src = '{\n  "a": "A",\n  "b": { "c": "C" },\n  "d": "D"\n}\n';
    const doc = json.parseSource(src, 'en.json');
    // (a directory named by a language with a script or region names the source language too)
    expect(['locales/zh-Hans/common.json', 'locales/sr-Latn-RS/common.json', 'src/common.json'].map((f) => json.parseSource(src, f).language)).toEqual(['zh-Hans', 'sr-Latn-RS', undefined]);
    const v = (t: string) => ({ kind: 'new' as const, parts: [[{ kind: 'text' as const, value: t }]] });
    expect(json.render(doc, 'de', new Map([['a', v('Ä')], ['d', v('Ö')]]), undefined, {})).toBe('{\n  "a": "Ä",\n  "b": {},\n  "d": "Ö"\n}\n');
    expect(json.render(doc, 'de', new Map([['b.c', v('Ç')]]), undefined, {})).toBe('{\n  "b": { "c": "Ç" }\n}\n');
  });

  it('Markdown: units are paragraphs, headings and cells; code and HTML are not', () => {
    const doc = markdown.parseSource('# Title\n\nText with `code`.\n\n```js\nx()\n```\n\n<p>html</p>\n\n| a | b |\n|---|---|\n| c | d |\n', 'R.md');
    expect(doc.units.map((u) => u.parts[0].map((p) => `${p.kind}:${p.value}`).join('|'))).toEqual([
      'text:Title',
      'text:Text with |token:`code`|text:.',
      'text:a',
      'text:b',
      'text:c',
      'text:d',
    ]);
  });

  it('MDX: import/export statements and {expressions} at the top level are not text', () => {
    const src = "import Tabs from '@theme/Tabs';\nexport const meta = { title: 'x' };\n\n{/* note */}\n\nText with {props.name}.\n\n> import this\n";
    expect(markdown.parseSource(src, 'guide.mdx').units.map((u) => u.parts[0].map((p) => `${p.kind}:${p.value}`).join('|'))).toEqual(['text:Text with {props.name}.', 'text:import this']);
    // in plain Markdown they are paragraphs like any other
    expect(markdown.parseSource(src, 'guide.md').units).toHaveLength(4);
  });

  it('Markdown: a shortcut or collapsed reference link keeps its definition when its text is translated', () => {
    const src = 'Use [npm], [yarn][] or [the docs][d].\n\n[npm]: https://npmjs.com\n[yarn]: https://yarnpkg.com\n[d]: https://d\n';
    const doc = markdown.parseSource(src, 'R.md');
    const v = new Map(doc.units.map((u) => [u.key, { kind: 'new' as const, parts: u.parts.map((p) => p.map((x) => (x.kind === 'text' ? { ...x, value: x.value.toUpperCase() } : x))) }]));
    expect(markdown.render(doc, 'de', v, undefined, {})).toBe(src.replace('Use [npm], [yarn][] or [the docs][d].', 'USE [NPM][npm], [YARN][yarn] OR [THE DOCS][d].'));
  });

  it('PO: continuation lines, escapes and a CRLF catalogue read and written back as they were', () => {
    const src = '# c\r\nmsgid ""\r\nmsgstr "Language: de\\n"\r\n\r\nmsgid "a\\"b\\tc"\r\nmsgstr "x"\r\n';
    const doc = po.parseSource(src, 'de.po');
    expect(doc.units[0].parts[0][0].value).toBe('a"b\tc');
    const target = po.parseTarget(src, 'de.po', doc, 'de');
    expect(po.render(doc, 'de', new Map([[doc.units[0].key, { kind: 'keep' }]]), target, {})).toBe(src);
  });

  it('PO: an entry the template has again gets its obsolete translation back (nothing sent), not a second copy', () => {
    const target = 'msgid ""\nmsgstr "Language: de\\n"\n\nmsgid "a"\nmsgstr "A"\n\n#~ msgid "b"\n#~ msgstr "Von Hand"\n';
    const src = 'msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr ""\n\nmsgid "b"\nmsgstr ""\n';
    const doc = po.parseSource(src, 'x.pot');
    const t = po.parseTarget(target, 'de.po', doc, 'de');
    const b = doc.units[1];
    expect(t.values.get(b.key)).toBe('Von Hand');
    expect(unitStatus(b, t.values.get(b.key), undefined).status).toBe('current');
    const keep = new Map(doc.units.map((u) => [u.key, { kind: 'keep' as const }]));
    expect(po.render(doc, 'de', keep, t, {})).toBe('msgid ""\nmsgstr "Language: de\\n"\n\nmsgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgstr "Von Hand"\n');
  });

  it('PO: the Language header as gettext spells it (pt_BR), an existing pt_BR left as it is', () => {
    const src = 'msgid ""\nmsgstr ""\n"Language: en\\n"\n\nmsgid "a"\nmsgstr ""\n';
    const doc = po.parseSource(src, 'en.po');
    const v = new Map([[doc.units[0].key, { kind: 'new' as const, parts: [[{ kind: 'text' as const, value: 'b' }]] }]]);
    const fresh = po.render(doc, 'pt-BR', v, undefined, {});
    expect(fresh).toContain('"Language: pt_BR\\n"');
    const existing = fresh.replace('msgstr "b"', 'msgstr "c"');
    expect(po.render(doc, 'pt-BR', new Map([[doc.units[0].key, { kind: 'keep' }]]), po.parseTarget(existing, 'pt_BR.po', doc, 'pt-BR'), {})).toBe(existing);
  });
});

describe('what a target holds after it is written', () => {
  beforeAll(async () => {
    await Promise.all([loadXliff(), loadJson(), loadMarkdown()]);
  });

  it('written() says exactly what parseTarget reads back, for every fixture and a language with other plural forms', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(import.meta.dirname, '..', 'fixtures', 'files');
    for (const [format, file] of [[xliff, 'SalesTools.g.xlf'], [xliff, 'app.xlf'], [json, 'en.json'], [po, 'messages.pot']] as const) {
      const doc = format.parseSource(readFileSync(join(dir, file), 'utf8'), file);
      for (const lang of ['de', 'pl', 'ja']) {
        const values = new Map(doc.units.map((u) => [u.key, { kind: 'new' as const, parts: u.parts.map((p) => [{ kind: 'text' as const, value: `[${lang}] ` }, ...p]) }]));
        const body = format.render(doc, lang, values, undefined, {});
        const back = format.parseTarget(body, file, doc, lang);
        for (const u of doc.units) expect([file, u.key, format.written!(doc, u, values.get(u.key)!, lang, undefined)]).toEqual([file, u.key, back.values.get(u.key)]);
      }
    }
  });
});

describe('batches', () => {
  it('groups texts by their language set and splits what does not fit a request across languages', () => {
    const items: WorkItem[] = [
      { html: 'a', langs: new Map([['de', 1], ['fr', 1]]) },
      { html: 'b', langs: new Map([['de', 2]]) },
      { html: 'x'.repeat(30_000), langs: new Map([['de', 1], ['fr', 1]]) },
      { html: 'y'.repeat(60_000), langs: new Map([['de', 1]]) },
    ];
    const tooLong = new Map<string, string>();
    const groups = groupItems(items, tooLong);
    expect(groups.map((g) => [g.langs.join(','), g.items.map((i) => i.html.slice(0, 1))])).toEqual([
      ['de,fr', ['a']],
      ['de', ['b', 'x']],
      ['fr', ['x']],
    ]);
    expect([...tooLong.keys()]).toEqual(['y'.repeat(60_000)]);
  });
});
