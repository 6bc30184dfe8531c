// What a translation of a locale file must keep, checked on the service's answer: ICU messages read
// with the ICU parser (also across XLIFF inline elements), text that only looks like markup, printf
// directives by their gettext format flag, inline elements that must still nest, control characters
// and line breaks the service adds; and readers that stay linear on hostile input.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadIcu } from '../../src/api/translator/files/icu.js';
import { po } from '../../src/api/translator/files/po.js';
import { fromHtml, placeholderProblem, toHtml, tokenize, translatable, type Piece } from '../../src/api/translator/files/protect.js';
import { loadXliff, xmlPieces } from '../../src/api/translator/files/xliff.js';

beforeAll(async () => {
  await loadIcu();
  await loadXliff();
});

const span = (s: string) => `<span class="notranslate">${s}</span>`;

describe('ICU messages', () => {
  it('a plural whose cases hold XLIFF 2.0 inline elements is sent with its syntax protected and its case texts as text', () => {
    // as Angular's extractor writes a plural with bold text and an interpolation
    const source = xmlPieces(
      '{VAR_PLURAL, plural, =0 {just now} =1 {one minute ago} other {<pc id="0" equivStart="START_BOLD_TEXT" equivEnd="CLOSE_BOLD_TEXT" type="fmt" dispStart="&lt;b&gt;" dispEnd="&lt;/b&gt;"><ph id="1" equiv="INTERPOLATION" disp="{{minutes}}"/></pc> minutes ago} }',
    );
    const pieces = tokenize(source);
    const html = toHtml(pieces);
    expect(html).toBe(
      `${span('{VAR_PLURAL, plural, =0 {')}just now${span('} =1 {')}one minute ago${span('} other {')}${span('&lt;pc id="0" equivStart="START_BOLD_TEXT" equivEnd="CLOSE_BOLD_TEXT" type="fmt" dispStart="&amp;lt;b&amp;gt;" dispEnd="&amp;lt;/b&amp;gt;"&gt;')}${span('&lt;ph id="1" equiv="INTERPOLATION" disp="{{minutes}}"/&gt;')}${span('&lt;/pc&gt;')} minutes ago${span('} }')}`,
    );
    // a faithful answer passes; one that moved a case's syntax or split the bold element does not
    const answer = html.replace('just now', 'gerade eben').replace('one minute ago', 'vor einer Minute').replace(' minutes ago', ' Minuten her');
    expect(placeholderProblem(pieces, fromHtml(answer, pieces))).toBeUndefined();
    const swapped = html.replace(`${span('} =1 {')}one minute ago${span('} other {')}`, `${span('} other {')}one minute ago${span('} =1 {')}`);
    expect(placeholderProblem(pieces, fromHtml(swapped, pieces))).toMatch(/^ICU message changed: \{VAR_PLURAL, plural, =0 \{\} =1 \{\} other /);
    const closeFirst = html.replace(`${span('&lt;/pc&gt;')} minutes ago`, ' minutes ago').replace('<span class="notranslate">&lt;pc id="0"', `${span('&lt;/pc&gt;')}<span class="notranslate">&lt;pc id="0"`);
    expect(placeholderProblem(pieces, fromHtml(closeFirst, pieces))).toMatch(/^inline elements no longer nest as in the source/);
  });

  it('the case keys, argument names and types are the skeleton a translation keeps', () => {
    const p = tokenize('{count, plural, one {# file} other {# files}}');
    expect(placeholderProblem(p, tokenize('{count, plural, one {# Datei} other {# Dateien}}'))).toBeUndefined();
    expect(placeholderProblem(p, tokenize('{count, plural, other {# Dateien} one {# Datei}}'))).toBe('missing {count, plural, one { } other {; unexpected {count, plural, other { } one {');
    // the same syntax tokens moved around: read again as a message, it is another one
    const moved = fromHtml(`${span('{count, plural, one {')}${span('#')} Datei${span('}}')}${span('} other {')}${span('#')} Dateien`, p);
    expect(placeholderProblem(p, moved)).toMatch(/^ICU message changed|^inline elements/);
    // apostrophes quote ICU syntax: a quoted brace is text
    expect(tokenize("{n, plural, other {'{'# items'}'}}").filter((x) => x.kind === 'text').map((x) => x.value)).toEqual(["'{'", " items'}'"]);
  });
});

describe('text that only looks like markup', () => {
  it('"<no title>" is text, sent escaped and translated; an HTML element or a paired tag is markup', () => {
    const p = tokenize('<no title>');
    expect([translatable(p), toHtml(p)]).toEqual([true, '&lt;no title&gt;']);
    expect(toHtml(tokenize('Click <b>Save</b>'))).toBe('Click <b>Save</b>');
    // react-i18next's named and numbered components
    expect(tokenize('Read <bold>this</bold> and <0>that</0>').filter((x) => x.kind === 'token').map((x) => x.value)).toEqual(['<bold>', '</bold>', '<0>', '</0>']);
  });
});

describe('printf directives by the entry format flag', () => {
  const entry = (flag: string, msgid: string): Piece[] => po.parseSource(`#, ${flag}\nmsgid "${msgid}"\nmsgstr ""\n`, 'x.pot').units[0].parts[0];

  it('c-format: unnumbered directives keep their order; numbered ones may move', () => {
    const p = entry('c-format', '%.5g%s%s');
    const reordered = fromHtml(`${span('%s')}${span('%.5g')}${span('%s')}`, p);
    expect(placeholderProblem(p, reordered)).toBe('c-format: argument 1 is %s in the translation, %.5g in the source: unnumbered directives must keep their order (only numbered ones such as %1$s may move)');
    const hex = entry('c-format', '%06x/%.3g');
    expect(placeholderProblem(hex, fromHtml(`${span('%.3g')}/${span('%06x')}`, hex))).toMatch(/^c-format: argument 1 is %\.3g/);
    const numbered = entry('c-format', '%1$s of %2$d');
    expect(placeholderProblem(numbered, fromHtml(`${span('%2$d')} von ${span('%1$s')}`, numbered))).toBeUndefined();
    // C99's <inttypes.h> macros are directives
    expect(entry('c-format', 'Using up to %<PRIu32> threads.').filter((x) => x.kind === 'token').map((x) => x.value)).toEqual(['%<PRIu32>']);
  });

  it('python-format: named directives may move, their types may not', () => {
    const p = entry('python-format', '%(count)d of %(name)s');
    expect(placeholderProblem(p, fromHtml(`${span('%(name)s')}: ${span('%(count)d')}`, p))).toBeUndefined();
    expect(placeholderProblem(p, tokenize('%(name)s: %(count)s', { syntax: { printf: 'python' } }))).toMatch(/missing %\(count\)d/);
  });
});

describe('what the service adds', () => {
  it('a control character, U+FFFF or a line break the source does not have fails the unit', () => {
    const p = tokenize('Save the file');
    expect(placeholderProblem(p, fromHtml('Datei\u0007 speichern', p))).toBe('the translation has the control character U+0007');
    expect(placeholderProblem(p, fromHtml('Datei &#1; speichern', p))).toBe('the translation has the control character U+0001');
    expect(placeholderProblem(p, fromHtml('Datei speichern\uffff', p))).toBe('the translation has the control character U+FFFF');
    expect(placeholderProblem(p, fromHtml('Datei\nspeichern', p))).toBe('the translation has a line break the source does not have');
    const two = tokenize('Line one\nline two');
    expect(placeholderProblem(two, fromHtml('Zeile eins\nZeile zwei', two))).toBeUndefined();
  });
});

describe('linear time on hostile input', () => {
  const budget = 3000;
  it.each([
    ['nested braces', '{'.repeat(200_000)],
    ['unclosed ICU arguments', '{a, plural, one {x} '.repeat(20_000)],
    ['tags without an end', '<a '.repeat(200_000)],
    ['a long printf flag run', `%${'0'.repeat(500_000)}`],
    ['unclosed $t( calls', '$t('.repeat(200_000)],
    ['white space runs', `x${' '.repeat(500_000)}y`],
    ['comments without an end', '<!--'.repeat(200_000)],
  ])('%s', (_name, text) => {
    const t0 = Date.now();
    const pieces = tokenize(text);
    toHtml(pieces);
    placeholderProblem(pieces, pieces);
    expect(Date.now() - t0).toBeLessThan(budget);
  });

  it('a PO entry with a 10 MB msgid is read', () => {
    const big = 'word '.repeat(2_000_000);
    const t0 = Date.now();
    const doc = po.parseSource(`#, c-format\nmsgid "${big}%s"\nmsgstr ""\n`, 'big.pot');
    expect(doc.units[0].parts[0].map((p) => p.value).join('')).toBe(`${big}%s`);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
