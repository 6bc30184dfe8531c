// How a run holds its answers in memory (reuse/held.ts): the common shape as its translated
// strings alone, anything else whole; the answer made again is the service's, byte for byte, and
// the run's output is the same whichever way an answer was held.
import { describe, expect, it } from 'vitest';
import { heldBytes, Holder, textBytes } from '../../src/api/translator/reuse/held.js';
import { translateReusing, type InnerBatch } from '../../src/api/translator/reuse/index.js';
import type { TranslateResult } from '../../src/model/translator.js';

const two = (a: string, b: string): TranslateResult => ({ translations: [{ text: a, to: 'de' }, { text: b, to: 'fr' }] });

describe('Holder', () => {
  it('holds the common shape as its strings and makes the same answer again', () => {
    const h = new Holder();
    expect(h.hold(two('Hallo', 'Bonjour'))).toEqual(['Hallo', 'Bonjour']);
    const empty = h.hold(two('', ''));
    expect(empty).toEqual(['', '']);
    expect(JSON.stringify(h.result(empty))).toBe('{"translations":[{"text":"","to":"de"},{"text":"","to":"fr"}]}');
    const one = new Holder();
    expect(one.hold({ translations: [{ text: 'Hallo', to: 'de' }] })).toBe('Hallo');
    expect(JSON.stringify(one.result('Welt'))).toBe('{"translations":[{"text":"Welt","to":"de"}]}');
  });

  it('holds whole, and gives back as it came, an answer with anything more or otherwise', () => {
    const h = new Holder();
    h.hold(two('a', 'b'));
    const unusual: TranslateResult[] = [
      { detectedLanguage: { language: 'en', score: 0.98, isTranslationSupported: true } as TranslateResult['detectedLanguage'], translations: [{ text: 'a', to: 'de' }, { text: 'b', to: 'fr' }] },
      { translations: [{ text: 'a', to: 'de' }, { text: 'b', to: 'fr' }], detectedLanguage: { language: 'en', score: 0.98 } },
      { detectedLanguage: { language: 'en', score: 1 }, translations: [{ text: 'a', to: 'de', alignment: { proj: '0:0-0:0' } }, { text: 'b', to: 'fr' }] },
      { translations: [{ text: 'a', to: 'de', transliteration: { script: 'Latn', text: 'a' } }, { text: 'b', to: 'fr' }] },
      { translations: [{ text: 'a', to: 'de', alignment: { proj: '0:0-0:0' } }, { text: 'b', to: 'fr' }] },
      { translations: [{ text: 'a', to: 'de' }, { text: 'b', to: 'fr', sentLen: { srcSentLen: [1], transSentLen: [1] } }] },
      { translations: [{ text: 'a', to: 'de' }, { to: 'fr', text: 'b' }] },
      { translations: [{ text: 'a', to: 'de' }, { text: 'b', to: 'FR' }] },
      { translations: [{ text: 'a', to: 'de' }] },
      { translations: [{ text: 'a', to: 'de' }, { text: 'b', to: 'fr' }], sourceText: { text: 'x' } },
      { translations: [] },
    ];
    for (const r of unusual) {
      const json = JSON.stringify(r);
      const held = h.hold(r);
      expect(held).toBe(r);
      expect(JSON.stringify(h.result(held))).toBe(json);
    }
  });

  it('holds an answer with the detected language as one object and makes the same answer again', () => {
    const h = new Holder();
    for (const r of [
      { detectedLanguage: { language: 'en', score: 0.98 }, translations: [{ text: 'Hallo', to: 'de' }, { text: 'Bonjour', to: 'fr' }] },
      { detectedLanguage: { language: 'pt-PT', score: 1 }, translations: [{ text: '', to: 'de' }, { text: 'x', to: 'fr' }] },
    ]) {
      const held = h.hold(r);
      expect(held).not.toBe(r);
      expect(JSON.stringify(h.result(held))).toBe(JSON.stringify(r));
      expect(heldBytes(held)).toBeLessThan(heldBytes(r as never));
    }
    const one = new Holder();
    const r = { detectedLanguage: { language: 'en', score: 0.5 }, translations: [{ text: 'Hallo', to: 'de' }] };
    expect(JSON.stringify(one.result(one.hold(r)))).toBe('{"detectedLanguage":{"language":"en","score":0.5},"translations":[{"text":"Hallo","to":"de"}]}');
  });

  it('keeps the order of text and to of the first answer', () => {
    const h = new Holder();
    expect(h.hold({ translations: [{ to: 'de', text: 'Hallo' }] })).toBe('Hallo');
    expect(JSON.stringify(h.result('Welt'))).toBe('{"translations":[{"to":"de","text":"Welt"}]}');
    const other = { translations: [{ text: 'Welt', to: 'de' }] };
    expect(h.hold(other)).toBe(other);
  });

  it('learns the target codes from the first answer of the common shape only', () => {
    const h = new Holder();
    const first = { translations: [{ text: 'x', to: 'zh-Hans', alignment: { proj: '' } }] };
    expect(h.hold(first)).toBe(first);
    expect(h.hold({ translations: [{ text: '你好', to: 'zh-Hans' }] })).toBe('你好');
    expect(JSON.stringify(h.result('你好'))).toBe('{"translations":[{"text":"你好","to":"zh-Hans"}]}');
  });

  it('counts what a held answer takes: one byte a character for Latin-1 strings, two for others', () => {
    expect(textBytes('abcdefgh')).toBe(24);
    expect(textBytes('abcdefghi')).toBe(32);
    expect(textBytes('你好你好')).toBe(24);
    expect(heldBytes(['abcdefgh', 'abcdefgh'])).toBe(56 + 16 + 48);
    expect(heldBytes({ translations: [{ text: 'abcdefgh', to: 'de' }] })).toBeGreaterThan(heldBytes('abcdefgh') + 100);
  });
});

describe('a run holding answers compactly', () => {
  /** answers each text for de and fr; the texts starting with '!' with a detected language as well */
  const respond = (t: string): TranslateResult => {
    const translations = [
      { text: t === 'empty' ? '' : `[de] ${t}`, to: 'de' },
      { text: `[fr] ${t}`, to: 'fr' },
    ];
    return t.startsWith('!') ? { detectedLanguage: { language: 'en', score: 1 }, translations } : { translations };
  };
  async function* inner(chunks: AsyncIterable<readonly string[]>): AsyncGenerator<InnerBatch> {
    let first = 0;
    for await (const texts of chunks) {
      yield { type: 'batch', batch: { first, count: texts.length }, outcome: { results: texts.map(respond) } };
      first += texts.length;
    }
  }

  it('hands out every item as the service answered it (also an empty translation, and repeats)', async () => {
    const items = ['one', 'empty', '!two', 'one', 'empty', '!two', 'three'];
    const out: string[] = [];
    for await (const ev of translateReusing([items], inner)) out.push(...ev.results.map((r) => JSON.stringify(r)));
    expect(out).toEqual(items.map((t) => JSON.stringify(respond(t))));
  });

  it('hands out an empty translation to one target, held as an empty string', async () => {
    const one = async function* (chunks: AsyncIterable<readonly string[]>): AsyncGenerator<InnerBatch> {
      let first = 0;
      for await (const texts of chunks) {
        yield { type: 'batch', batch: { first, count: texts.length }, outcome: { results: texts.map((t) => ({ translations: [{ text: t === ' ' ? '' : t, to: 'de' }] })) } };
        first += texts.length;
      }
    };
    const out: string[] = [];
    for await (const ev of translateReusing([['a', ' ', 'b', ' ']], one)) out.push(...ev.results.map((r) => r.translations[0].text));
    expect(out).toEqual(['a', '', 'b', '']);
  });
});
