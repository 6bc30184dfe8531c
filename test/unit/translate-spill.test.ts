// The run's spill (src/api/translator/spill/): what a run spills is found again exactly, whatever
// the number of batches and merges; what it never held is answered without it (the Bloom filter);
// the directory is the run's alone and is gone once it is closed; a directory that cannot be used
// is one UsageError naming it.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Spill, SpillFailure } from '../../src/api/translator/spill/spill.js';
import { TextFilter } from '../../src/api/translator/spill/bloom.js';
import { H, hashText } from '../../src/api/translator/spill/hash.js';
import { RunTexts } from '../../src/api/translator/reuse/texts.js';
import { newSlot } from '../../src/api/translator/reuse/types.js';
import { UsageError } from '../../src/core/errors.js';
import type { TranslateResult } from '../../src/model/translator.js';

const parents: string[] = [];
const parent = () => {
  const d = mkdtempSync(join(tmpdir(), 'vx-spill-test-'));
  parents.push(d);
  return d;
};
afterEach(() => {
  for (const d of parents.splice(0)) rmSync(d, { recursive: true, force: true });
});

const answer = (text: string, i: number): TranslateResult =>
  i % 3 === 0
    ? { translations: [{ text: `[de] ${text}`, to: 'de' }, { text: `[fr] ${text}`, to: 'fr' }] }
    : i % 3 === 1
      ? { detectedLanguage: { language: 'en', score: 0.75 }, translations: [{ text: `[de] ${text}`, to: 'de' }] }
      : { translations: [{ text: `[de]\0${text}`, to: 'de', transliteration: { text: 'x', script: 'Latn' } }] as TranslateResult['translations'] };

describe('the spill', () => {
  it('finds every text spilled, with its result exactly, across batches and merges', () => {
    const spill = Spill.open(parent());
    try {
      const texts = Array.from({ length: 20_000 }, (_, i) => `text ${i} ${'é'.repeat(i % 7)}`);
      // 20 batches of 1,000: the runs are merged as they come (a binary counter)
      for (let b = 0; b < 20; b++) {
        const batch = texts.slice(b * 1000, (b + 1) * 1000);
        spill.add(
          batch,
          batch.map((t, i) => answer(t, b * 1000 + i)),
        );
      }
      expect(spill.count).toBe(20_000);
      expect(readdirSync(spill.dir).filter((f) => f.startsWith('run-')).length).toBeLessThanOrEqual(5);
      const found: (TranslateResult | undefined)[] = [];
      const wanted: TranslateResult[] = [];
      for (let i = 0; i < texts.length; i += 7) {
        found.push(spill.mayHold(texts[i]) ? spill.get(texts[i])?.result : undefined);
        wanted.push(answer(texts[i], i));
      }
      expect(found).toEqual(wanted);
      let maybe = 0;
      let wrong = 0;
      for (let i = 0; i < 20_000; i++) {
        const other = `never spilled ${i}`;
        if (spill.mayHold(other)) {
          maybe++;
          if (spill.get(other) !== undefined) wrong++;
        }
      }
      expect(wrong).toBe(0);
      // the filter lets through well under 1% of the texts it never held
      expect(maybe).toBeLessThan(200);
    } finally {
      spill.close();
    }
  });

  it('a text spilled without a result (an estimate) is found as a text', () => {
    const spill = Spill.open(parent());
    try {
      spill.add(['a', 'b;c', '']);
      expect(spill.mayHold('b;c') && spill.get('b;c')).toEqual({ result: undefined });
      expect(spill.mayHold('') && spill.get('')).toEqual({ result: undefined });
      expect(spill.mayHold('b') ? spill.get('b') : undefined).toBeUndefined();
    } finally {
      spill.close();
    }
  });

  it('is a directory of its own in the temporary directory, gone once closed', () => {
    const p = parent();
    const spill = Spill.open(p);
    spill.add(['x'], [answer('x', 0)]);
    expect(readdirSync(p)).toEqual([spill.dir.slice(p.length + 1)]);
    expect(spill.dir.slice(p.length + 1)).toMatch(/^vx-spill-/);
    spill.close();
    spill.close();
    expect(readdirSync(p)).toEqual([]);
  });

  it('a temporary directory that cannot be used is one UsageError naming it, and leaves nothing', () => {
    const p = parent();
    const file = join(p, 'a-file');
    writeFileSync(file, '');
    for (const [dir, why] of [
      [join(p, 'missing'), 'no such directory'],
      [file, 'not a directory'],
    ]) {
      const e = (() => {
        try {
          Spill.open(dir);
        } catch (err) {
          return err;
        }
      })();
      expect(e).toBeInstanceOf(UsageError);
      expect((e as Error).message).toBe(
        `the spill directory ${dir} is ${why}: a long input that does not fit the run's memory is deduplicated there; set TMPDIR to another directory (nothing was sent)`,
      );
    }
    expect(readdirSync(p)).toEqual(['a-file']);
  });

  it('a spill whose directory went away mid-run is a SpillFailure naming it', () => {
    const p = parent();
    const spill = Spill.open(p);
    try {
      spill.add(['x'], [answer('x', 0)]);
      // the directory removed under the run: a new run file cannot be made
      rmSync(spill.dir, { recursive: true });
      expect(() => spill.add(['y'], [answer('y', 1)])).toThrow(SpillFailure);
      expect(() => spill.add(['y'], [answer('y', 1)])).toThrow(`the spill directory ${p} is no such directory: the run cannot go on without paying again for texts it sent`);
    } finally {
      spill.close();
    }
  });
});

describe('the Bloom filter', () => {
  it('holds every text added and lets about 0.5% of the others through', () => {
    const f = new TextFilter(50_000, 1 << 20);
    for (let i = 0; i < 50_000; i++) {
      hashText(`in ${i}`);
      f.add(H.hi, H.lo);
    }
    // (counted, one expect: an expect per text would take most of the test's time)
    let missed = 0;
    for (let i = 0; i < 50_000; i++) {
      hashText(`in ${i}`);
      if (!f.has(H.hi, H.lo)) missed++;
    }
    expect(missed).toBe(0);
    let wrong = 0;
    for (let i = 0; i < 50_000; i++) {
      hashText(`out ${i}`);
      if (f.has(H.hi, H.lo)) wrong++;
    }
    expect(wrong).toBeLessThan(350);
  });

  it('grows past its first size: no text it holds is missed', () => {
    const f = new TextFilter(1000, 1 << 20);
    for (let i = 0; i < 50_000; i++) {
      hashText(`in ${i}`);
      f.add(H.hi, H.lo);
    }
    // (counted, one expect: an expect per text would take most of the test's time)
    let missed = 0;
    for (let i = 0; i < 50_000; i++) {
      hashText(`in ${i}`);
      if (!f.has(H.hi, H.lo)) missed++;
    }
    expect(missed).toBe(0);
  });

  it('past its cap the last filter takes every text: still no text it holds is missed', () => {
    const f = new TextFilter(64, 256);
    for (let i = 0; i < 5_000; i++) {
      hashText(`in ${i}`);
      f.add(H.hi, H.lo);
    }
    let missed = 0;
    for (let i = 0; i < 5_000; i++) {
      hashText(`in ${i}`);
      if (!f.has(H.hi, H.lo)) missed++;
    }
    expect(missed).toBe(0);
  });
});

describe("the run's texts in memory", () => {
  const result = (text: string): TranslateResult => ({ translations: [{ text: `[de] ${text}`, to: 'de' }] });
  /** a text held by the run (answered unless `open`) */
  const hold = (texts: RunTexts, text: string, item: number, open = false) => {
    const slot = newSlot(text, item);
    texts.add(text, slot);
    if (!open) texts.answer(slot, result(text));
    return slot;
  };
  const inSpill = (spill: Spill, text: string) => (spill.mayHold(text) ? spill.get(text) : undefined);

  it('keeps what comes again in memory, spills once what no generation in memory saw, keeps what is unanswered', () => {
    const spill = Spill.open(parent());
    try {
      // a budget of about two short texts per generation
      const texts = new RunTexts(4 * 2 * 300, spill);
      const often = hold(texts, 'a text that keeps coming back', 1);
      const open = hold(texts, 'a text still out', 2, true);
      hold(texts, 'a text seen once', 3);
      let item = 3;
      // generation after generation, the frequent text comes again: never spilled, always the same slot
      for (let g = 0; g < 4; g++) {
        while (!texts.full) hold(texts, `new text ${++item}`, item);
        expect(texts.get('a text that keeps coming back')).toBe(often);
        texts.rotate();
      }
      expect(inSpill(spill, often.text)).toBeUndefined();
      // a text not answered yet stays (its answer will come into its slot), and is not spilled
      expect(texts.get('a text still out')).toBe(open);
      expect(inSpill(spill, open.text)).toBeUndefined();
      // a text that did not come again is in the spill, once, with its answer; the run reads it back as its own
      expect(texts.get('a text seen once')).toBeUndefined();
      expect(inSpill(spill, 'a text seen once')).toEqual({ result: result('a text seen once') });
      const back = texts.fromSpill('a text seen once', 99);
      // (held as the run holds an answer of the common shape: its translation alone)
      expect(back).toMatchObject({ result: '[de] a text seen once', item: 99, spilled: true });
      expect(texts.get('a text seen once')).toBe(back);
      const spilled = spill.count;
      for (let g = 0; g < 4; g++) {
        while (!texts.full) hold(texts, `later text ${++item}`, item);
        texts.rotate();
      }
      // read back from the spill, it is not written there again when it leaves memory
      expect(texts.get('a text seen once')).toBeUndefined();
      expect(spill.count - spilled).toBeLessThan(item);
      expect(inSpill(spill, 'a text seen once')).toEqual({ result: result('a text seen once') });
    } finally {
      spill.close();
    }
  });

  it('the texts still out that a rotation keeps do not fill the next generation alone', () => {
    const spill = Spill.open(parent());
    try {
      // a generation of about one text
      const texts = new RunTexts(3 * 200, spill);
      const open = Array.from({ length: 20 }, (_, i) => hold(texts, `a text still out, number ${i}`, i + 1, true));
      for (let g = 0; g < 3; g++) {
        if (g) hold(texts, `a text answered, number ${g}`, 20 + g);
        expect(texts.full).toBe(true);
        texts.rotate();
      }
      // the oldest generation went: its texts still out are kept, not spilled, and the next
      // generation begins only once a text comes
      expect(spill.count).toBe(0);
      expect(texts.full).toBe(false);
      expect(open.every((slot) => texts.get(slot.text) === slot)).toBe(true);
      expect(texts.full).toBe(false);
      hold(texts, 'a new text', 30);
      expect(texts.full).toBe(true);
    } finally {
      spill.close();
    }
  });
});
