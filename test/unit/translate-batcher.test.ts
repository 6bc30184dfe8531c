// The batcher's limits, exactly: 1,000 items; 50,000 characters counted across all targets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchAll, Batcher, itemProblem, targetGroups } from '../../src/api/translator/batcher.js';
import { requestBody } from '../../src/api/translator/client.js';
import { countChars, LIMITS } from '../../src/model/translator.js';

const len = (t: string) => countChars(t);
const sizes = (bs: { texts: string[] }[]) => bs.map((b) => b.texts.length);
const chars = (bs: { chars: number }[]) => bs.map((b) => b.chars);

describe('batcher: item count', () => {
  it('1,000 items make one batch; 1,001 make 1,000 + 1', () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `item ${i}`);
    expect(sizes(batchAll(items(999), len, 1))).toEqual([999]);
    expect(sizes(batchAll(items(1000), len, 1))).toEqual([1000]);
    expect(sizes(batchAll(items(1001), len, 1))).toEqual([1000, 1]);
    expect(sizes(batchAll(items(2500), len, 3))).toEqual([1000, 1000, 500]);
  });

  it('hands a batch out as soon as it holds 1,000 items (not when the 1,001st arrives)', () => {
    const b = new Batcher(1);
    for (let i = 0; i < 999; i++) expect(b.add('x', 1)).toEqual([]);
    const out = b.add('x', 1);
    expect(out).toHaveLength(1);
    expect(out[0].texts).toHaveLength(1000);
    expect(out[0].first).toBe(0);
    expect(b.size).toBe(0);
    expect(b.add('y', 1)).toEqual([]);
    expect(b.take()!.first).toBe(1000);
  });

  it('empty items count as items but not as characters', () => {
    expect(sizes(batchAll(Array(2001).fill(''), len, 5))).toEqual([1000, 1000, 1]);
  });
});

describe('batcher: characters x targets', () => {
  it('50,000 counted characters fit exactly; one more starts a new batch (one target)', () => {
    const a = 'a'.repeat(25_000);
    expect(chars(batchAll([a, a], len, 1))).toEqual([50_000]);
    expect(chars(batchAll([a, a, 'b'], len, 1))).toEqual([50_000, 1]);
    expect(chars(batchAll([a, 'a'.repeat(25_001)], len, 1))).toEqual([25_000, 25_001]);
  });

  it('multiplies by the number of targets: 3,000 characters to 3 targets count 9,000', () => {
    const t = 'x'.repeat(3000);
    // 50,000 / 3 = 16,666 characters per batch: five items of 3,000 (15,000), the sixth would be 18,000
    const bs = batchAll(Array(12).fill(t), len, 3);
    expect(sizes(bs)).toEqual([5, 5, 2]);
    for (const b of bs) expect(b.chars * 3).toBeLessThanOrEqual(LIMITS.maxRequestChars);
  });

  it('boundary with two targets: 25,000 characters fit, 25,001 do not', () => {
    expect(chars(batchAll(['a'.repeat(12_500), 'b'.repeat(12_500)], len, 2))).toEqual([25_000]);
    expect(chars(batchAll(['a'.repeat(12_500), 'b'.repeat(12_501)], len, 2))).toEqual([12_500, 12_501]);
    expect(new Batcher(2).fits(25_000)).toBe(true);
    expect(new Batcher(2).fits(25_001)).toBe(false);
  });

  it('a batch that reached the character budget is handed out at once', () => {
    const b = new Batcher(1);
    expect(b.add('a'.repeat(49_999), 49_999)).toEqual([]);
    const out = b.add('z', 1);
    expect(out.map((x) => x.chars)).toEqual([50_000]);
  });

  it('counts code points: an emoji is one character, not two UTF-16 units', () => {
    expect(countChars('😀')).toBe(1);
    expect(countChars('a😀b')).toBe(3);
    expect(countChars('')).toBe(0);
    const emoji = '😀'.repeat(25_000); // 50,000 UTF-16 units, 25,000 characters
    expect(chars(batchAll([emoji, emoji], len, 1))).toEqual([50_000]);
  });
});

describe('per-item limits', () => {
  it('an item may have 50,000 characters, not 50,001', () => {
    expect(itemProblem(50_000)).toBeUndefined();
    expect(itemProblem(50_001)).toMatch(/50,001 characters; one item may have at most 50,000/);
  });

  it('an item whose characters x targets exceed one request goes alone, to as many targets per request as fit (it was refused)', () => {
    expect(targetGroups(25_000, 2)).toEqual([[0, 1]]);
    expect(targetGroups(25_001, 2)).toEqual([[0], [1]]);
    expect(targetGroups(16_666, 3)).toEqual([[0, 1, 2]]);
    expect(targetGroups(16_667, 3)).toEqual([[0, 1], [2]]);
    expect(targetGroups(20_000, 5)).toEqual([[0, 1], [2, 3], [4]]);
    expect(targetGroups(50_000, 3)).toEqual([[0], [1], [2]]);
    expect(targetGroups(0, 4)).toEqual([[0, 1, 2, 3]]);
    // such an item is a batch of its own
    expect(batchAll(['a', 'x'.repeat(30_000), 'b'], len, 2).map((b) => b.count)).toEqual([1, 1, 1]);
  });
});

describe('properties', () => {
  it('every batch respects both limits, order is kept, nothing lost or repeated', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9000 }), { maxLength: 400 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 50 }),
        (lengths, targets, maxItems) => {
          const limits = { maxItems, maxItemChars: 50_000, maxRequestChars: 50_000 };
          const texts = lengths.filter((l) => l * targets <= 50_000).map((l, i) => `${i}:`.padEnd(Math.max(l, String(i).length + 1), '.'));
          const bs = batchAll(texts, len, targets, limits);
          expect(bs.flatMap((b) => b.texts)).toEqual(texts);
          let next = 0;
          bs.forEach((b, i) => {
            expect(b.seq).toBe(i);
            expect(b.first).toBe(next);
            next += b.texts.length;
            expect(b.texts.length).toBeGreaterThan(0);
            expect(b.texts.length).toBeLessThanOrEqual(maxItems);
            expect(b.chars).toBe(b.texts.reduce((a, t) => a + len(t), 0));
            expect(b.chars * targets).toBeLessThanOrEqual(50_000);
          });
          // greedy: a batch was closed only because the next item did not fit
          for (let i = 0; i + 1 < bs.length; i++) {
            const nextItem = len(bs[i + 1].texts[0]);
            expect(bs[i].texts.length === maxItems || (bs[i].chars + nextItem) * targets > 50_000).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('request body', () => {
  it('is the JSON array of {Text} objects, escaping included', () => {
    const texts = ['plain', 'quote " and \\ backslash', 'new\nline', '😀', ''];
    expect(JSON.parse(requestBody(texts))).toEqual(texts.map((Text) => ({ Text })));
    expect(requestBody(['a'])).toBe('[{"Text":"a"}]');
  });
});
