// The emulator's pseudo-translation: its alignment points at the right words, profanity, HTML,
// transliteration and sentence lengths.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pseudo, sentenceLengths, toLatin, translateHtml, translatePlain, transliterate } from '../../src/emulator/translator/text.js';

const parse = (proj: string) =>
  proj
    .split(' ')
    .filter(Boolean)
    .map((p) => p.split(/[:-]/).map(Number));

describe('pseudo-translation alignment', () => {
  it('every alignment item maps a source word to its translation (inclusive indices)', () => {
    const word = fc.stringMatching(/^[A-Za-zÀ-ÖØ-öø-ÿ0-9]{1,8}$/);
    const sep = fc.constantFrom(' ', ', ', '. ', ' - ', '  ', '! ');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, sep), { minLength: 1, maxLength: 12 }), fc.constantFrom('[de] ', '[fr:custom] '), (parts, marker) => {
        const src = parts.map(([w, s]) => w + s).join('').trim();
        const { text, proj } = translatePlain(src, marker);
        const items = parse(proj);
        expect(items).toHaveLength(parts.length);
        items.forEach(([s0, s1, t0, t1], i) => {
          const w = src.slice(s0, s1 + 1);
          expect(w).toBe(parts[i][0]);
          expect(text.slice(t0, t1 + 1)).toBe(pseudo(w));
        });
        const marked = /\p{L}/u.test(src);
        expect(text.startsWith(marker)).toBe(marked);
        if (/^[\x20-\x7e]*$/.test(src)) expect(toLatin(text.slice(marked ? marker.length : 0))).toBe(src);
      }),
      { numRuns: 300 },
    );
  });

  it('profanity: Tag alignment points inside the tag; Deleted words align with nothing', () => {
    const tag = translatePlain('oh damn it', '[de] ', { action: 'Marked', marker: 'Tag' });
    expect(tag.text).toBe('[de] öĥ <profanity>damn</profanity> îţ');
    const [, [s0, s1, t0, t1]] = parse(tag.proj);
    expect(tag.text.slice(t0, t1 + 1)).toBe('damn');
    expect('oh damn it'.slice(s0, s1 + 1)).toBe('damn');
    const del = translatePlain('damn it is hell', '[de] ', { action: 'Deleted' });
    expect(del.text).toBe('[de] îţ îš');
    expect(parse(del.proj).map(([a, b]) => 'damn it is hell'.slice(a, b + 1))).toEqual(['it', 'is']);
    for (const [, , t0, t1] of parse(del.proj)) expect(['îţ', 'îš']).toContain(del.text.slice(t0, t1 + 1));
  });

  it('a text without letters comes back unchanged; the same language keeps the words', () => {
    expect(translatePlain('', '[de] ').text).toBe('');
    expect(translatePlain('12 - 34', '[de] ').text).toBe('12 - 34');
    expect(translatePlain('Guten Tag', '', {}, false)).toEqual({ text: 'Guten Tag', proj: '0:4-0:4 6:8-6:8' });
  });
});

describe('markup in plain mode', () => {
  it('an HTML item sent without textType=html keeps its tags, comments and entities intact; only the text changes', () => {
    const src = '<html><body><p class="x">Hello <b>world</b></p><!-- c --> &amp; bye</body></html>';
    const { text, proj } = translatePlain(src, '[de] ');
    expect(text).toBe('[de] <html><body><p class="x">Ĥéļļö <b>ŵöŕļð</b></p><!-- c --> &amp; ƀýé</body></html>');
    // the alignment names the words, never a tag
    expect(parse(proj).map(([a, b]) => src.slice(a, b + 1))).toEqual(['Hello', 'world', 'bye']);
    for (const [s0, s1, t0, t1] of parse(proj)) expect(text.slice(t0, t1 + 1)).toBe(pseudo(src.slice(s0, s1 + 1)));
    // plain mode has no notranslate: the text inside is translated, the tag kept
    expect(translatePlain('<span class="notranslate">Keep</span>', '[de] ').text).toBe('[de] <span class="notranslate">Ķééþ</span>');
    // tags without any text: no marker
    expect(translatePlain('<br/><hr>', '[de] ').text).toBe('<br/><hr>');
  });
});

describe('HTML mode', () => {
  it('keeps markup, comments and entities, and notranslate subtrees (nested)', () => {
    const src = '<p>Hi <!-- note --><span class=notranslate>keep <b>me</b></span> and &lt;you&gt;</p>';
    expect(translateHtml(src, '[de] ')).toBe('<p>[de] Ĥî <!-- note --><span class=notranslate>keep <b>me</b></span> åñð &lt;ýöû&gt;</p>');
  });

  it('keeps a quoted attribute value that holds ">" (it was cut there and its rest translated), in HTML and plain mode', () => {
    const src = `<p title="a > b">Hello <a href="x?a=1&amp;b=2" data-x='q>r'>link</a></p>`;
    expect(translateHtml(src, '[de] ')).toBe(`<p title="a > b">[de] Ĥéļļö <a href="x?a=1&amp;b=2" data-x='q>r'>ļîñķ</a></p>`);
    expect(translatePlain(src, '[de] ').text).toBe(`[de] <p title="a > b">Ĥéļļö <a href="x?a=1&amp;b=2" data-x='q>r'>ļîñķ</a></p>`);
    // a stray quote in text is no attribute
    expect(translateHtml('<b>say "hi"</b>', '[de] ')).toBe('<b>[de] šåý "ĥî"</b>');
  });

  it('leaves script and style alone and closes void elements correctly', () => {
    expect(translateHtml('<div><img src="a.png"><style>p{x:1}</style>Text</div>', '[de] ')).toBe('<div><img src="a.png"><style>p{x:1}</style>[de] Ţéẋţ</div>');
  });
});

describe('dynamic dictionary', () => {
  const entry = '<mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary>';

  it('plain mode: the translation in place of the element, the rest translated; its entities as characters', () => {
    expect(translatePlain(`Your ${entry} is ready.`, '[de] ', {}, true, true).text).toBe('[de] Ýöûŕ Kontoauszug îš ŕéåðý.');
    expect(translatePlain('<mstrans:dictionary translation="A &amp; &quot;B&quot; &lt;1&gt;">x</mstrans:dictionary> y', '[de] ', {}, true, true).text).toBe('[de] A & "B" <1> ý');
    // the alignment names only the words translated
    const { text, proj } = translatePlain(`Open ${entry} now`, '[de] ', {}, true, true);
    expect(text).toBe('[de] Öþéñ Kontoauszug ñöŵ');
    expect(parse(proj).map(([a, b]) => `Open ${entry} now`.slice(a, b + 1))).toEqual(['Open', 'now']);
  });

  it('is case-sensitive: another spelling of the element is an unknown tag, its content translated', () => {
    const src = 'The <MSTRANS:DICTIONARY translation="Kontoauszug">statement</MSTRANS:DICTIONARY> is here';
    expect(translatePlain(src, '[de] ', {}, true, true).text).toBe('[de] Ţĥé <MSTRANS:DICTIONARY translation="Kontoauszug">šţåţéɱéñţ</MSTRANS:DICTIONARY> îš ĥéŕé');
    expect(translateHtml(src, '[de] ', {}, true, true)).toBe('[de] Ţĥé <MSTRANS:DICTIONARY translation="Kontoauszug">šţåţéɱéñţ</MSTRANS:DICTIONARY> îš ĥéŕé');
  });

  it('an element with blanks in its tag comes back as sent (the recorded session), as does every entry without a source language', () => {
    const odd = 'The word < mstrans:dictionary translation ="wordomatic">wordomatic</mstrans:dictionary> is';
    expect(translatePlain(odd, '[es] ', {}, true, true).text).toBe('[es] Ţĥé ŵöŕð < mstrans:dictionary translation ="wordomatic">wordomatic</mstrans:dictionary> îš');
    expect(translatePlain(`A ${entry}`, '[de] ', {}, true, false).text).toBe(`[de] Å ${entry}`);
    expect(translateHtml(`<p>A ${entry}</p>`, '[de] ', {}, true, false)).toBe(`<p>[de] Å ${entry}</p>`);
  });

  it('HTML mode: the translation as written (entities stay entities), none inside notranslate', () => {
    const src = '<p>The <mstrans:dictionary translation="A &amp; B">x</mstrans:dictionary> <span class="notranslate"><mstrans:dictionary translation="Q">x</mstrans:dictionary></span> y</p>';
    expect(translateHtml(src, '[de] ', {}, true, true)).toBe('<p>[de] Ţĥé A &amp; B <span class="notranslate"><mstrans:dictionary translation="Q">x</mstrans:dictionary></span> ý</p>');
  });
});

describe('scripts and sentences', () => {
  it('transliterates between Latin, Cyrillic, Greek and Arabic letters', () => {
    expect(transliterate('Ĝööð', 'Latn')).toBe('Good');
    expect(transliterate('Hello', 'Cyrl')).toBe('Хелло');
    expect(transliterate('Hello', 'Grek')).toBe('Ηελλο');
    expect(transliterate('salam', 'Arab')).toBe('سالام');
    expect(toLatin('Привет')).toBe('Privet');
  });

  it('sentence lengths add up to the text length', () => {
    const text = 'First one. Second one? Third! And a fourth';
    const lens = sentenceLengths(text, 'en');
    expect(lens).toEqual([11, 12, 7, 12]);
    expect(lens.reduce((a, b) => a + b, 0)).toBe(text.length);
    expect(sentenceLengths('', 'de')).toEqual([]);
  });
});
