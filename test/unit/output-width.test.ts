// displayWidth measures per code point until string-width is loaded (for start-up time); both
// must agree on everything but multi-code-point emoji sequences.
import { describe, expect, it } from 'vitest';
import { displayWidth, loadTextWidth, render } from '../../src/core/output/index.js';

const SAMPLES: [string, number][] = [
  ['plain ascii', 11],
  ['héllo wörld', 11],
  ['日本語', 6],
  ['中文 text', 9],
  ['ｶﾀｶﾅ', 4],
  ['e\u0301', 1],
  ['😀 ok', 5],
  ['a\tb', 2],
  ['한국어', 6],
  ['Ωmega', 5],
  ['zero\u200bwidth', 9],
];

describe('displayWidth', () => {
  it('measures by code point before string-width is loaded', () => {
    for (const [s, w] of SAMPLES) expect([s, displayWidth(s)]).toEqual([s, w]);
  });

  it('agrees with string-width once loaded', async () => {
    await loadTextWidth();
    for (const [s, w] of SAMPLES) expect([s, displayWidth(s)]).toEqual([s, w]);
    // a family emoji is one grapheme of width 2 only string-width gets right
    expect(displayWidth('👨\u200d👩\u200d👧')).toBe(2);
  });

  it('a table aligns CJK cells', async () => {
    const out = await render([{ name: '日本', n: 1 }, { name: 'ab', n: 22 }], 'table');
    expect(out).toBe('NAME  N\n日本  1\nab    22\n');
  });
});
