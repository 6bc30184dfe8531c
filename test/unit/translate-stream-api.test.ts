// translateStream, the one iterator behind `vx translate` (and the layers built on it): items in,
// one event per request in input order with a progress event after each, results out of order
// on the wire still handed out in order, a late UsageError after what came before it, a failed
// request named by its batch, and a consumer leaving early cancels what is in flight.
import { describe, expect, it } from 'vitest';
import { BatchFailure, ItemTooLong, planTranslation, translateStream, type BatchSender, type StreamEvent } from '../../src/api/translator/stream.js';
import { UsageError } from '../../src/core/errors.js';
import type { TranslateResult } from '../../src/model/translator.js';

const result = (t: string): TranslateResult => ({ translations: [{ text: `[de] ${t}`, to: 'de' }] });

/** answers every batch after `delay(batchNumber)` ms; records the texts sent and the aborts seen */
function sender(delay: (n: number) => number = () => 0, fail?: number) {
  const sent: string[][] = [];
  let aborted = 0;
  const s: BatchSender = {
    translate(texts, signal) {
      const n = sent.push([...texts]);
      return new Promise((resolve, reject) => {
        let done = false;
        const t = setTimeout(() => {
          done = true;
          if (n === fail) reject(new Error(`batch ${n} failed`));
          else resolve({ results: texts.map(result), traceId: `t${n}`, billed: 10 });
        }, delay(n));
        signal?.addEventListener('abort', () => {
          if (done) return;
          aborted++;
          clearTimeout(t);
          reject(new Error('aborted'));
        });
      });
    },
  };
  return { s, sent, aborted: () => aborted };
}

async function* lines(n: number, chunk = 7, thenThrow?: Error): AsyncGenerator<string[]> {
  for (let i = 0; i < n; i += chunk) yield Array.from({ length: Math.min(chunk, n - i) }, (_, k) => `l${i + k}`);
  if (thenThrow) throw thenThrow;
}

async function collect(it: AsyncIterable<StreamEvent>): Promise<{ texts: string[]; progress: number[]; firsts: number[] }> {
  const texts: string[] = [];
  const progress: number[] = [];
  const firsts: number[] = [];
  for await (const ev of it) {
    if (ev.type === 'batch') {
      firsts.push(ev.batch.first);
      texts.push(...ev.outcome.results.map((r) => r.translations![0].text));
    } else progress.push(ev.items);
  }
  return { texts, progress, firsts };
}

describe('translateStream', () => {
  it('hands out every result once, in input order, though later batches answer first', async () => {
    // 2,500 items: batches of 1,000, 1,000, 500; the first answers last
    const { s, sent } = sender((n) => (n === 1 ? 30 : 0));
    const out = await collect(translateStream(s, lines(2500), { targets: 1, concurrency: 4 }));
    expect(sent.map((b) => b.length)).toEqual([1000, 1000, 500]);
    expect(out.firsts).toEqual([0, 1000, 2000]);
    expect(out.progress).toEqual([1000, 2000, 2500]);
    expect(out.texts).toEqual(Array.from({ length: 2500 }, (_, i) => `[de] l${i}`));
  });

  it('keeps the texts in each event only when asked', async () => {
    for (const keepTexts of [false, true]) {
      const texts: string[][] = [];
      for await (const ev of translateStream(sender().s, ['a', ['b']], { targets: 1, concurrency: 1, keepTexts })) if (ev.type === 'batch') texts.push(ev.batch.texts);
      expect(texts).toEqual([keepTexts ? ['a', 'b'] : []]);
    }
  });

  it('a UsageError from the input comes after the items before it were translated and handed out', async () => {
    const late = new UsageError('line 1,001 is too long');
    const it = translateStream(sender().s, lines(1500, 100, late), { targets: 1, concurrency: 2 });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const ev of it) if (ev.type === 'progress') seen.push(ev.items);
      })(),
    ).rejects.toBe(late);
    expect(seen).toEqual([1000, 1500]);
  });

  it('a failed request ends the iterator with a BatchFailure naming its batch; nothing after it is handed out', async () => {
    const { s } = sender(() => 1, 2);
    const seen: number[] = [];
    const err = await (async () => {
      try {
        for await (const ev of translateStream(s, lines(5000), { targets: 1, concurrency: 2 })) if (ev.type === 'batch') seen.push(ev.batch.first);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(BatchFailure);
    expect((err as BatchFailure<{ first: number }>).batch.first).toBe(1000);
    expect(seen).toEqual([0]);
  });

  it('leaving the loop early cancels the requests in flight and reads no more input', async () => {
    const { s, sent, aborted } = sender((n) => (n === 1 ? 0 : 10_000));
    let pulled = 0;
    async function* counted() {
      for await (const c of lines(100_000, 1000)) {
        pulled++;
        yield c;
      }
    }
    for await (const ev of translateStream(s, counted(), { targets: 1, concurrency: 3 })) if (ev.type === 'batch') break;
    expect(sent.length).toBeLessThanOrEqual(4);
    expect(aborted()).toBe(sent.length - 1);
    expect(pulled).toBeLessThan(10);
  });

  it('an item no request can carry ends the input like a late UsageError, naming the item by its number', async () => {
    const seen: number[] = [];
    const err = await (async () => {
      try {
        for await (const ev of translateStream(sender().s, [['a', 'b'], 'x'.repeat(50_001)], { targets: 2, concurrency: 1 })) if (ev.type === 'progress') seen.push(ev.items);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ItemTooLong);
    // nothing had been sent yet (a and b were still in the open batch): nothing is
    expect((err as ItemTooLong).index).toBe(3);
    expect((err as ItemTooLong).message).toBe('item 3 is too long: 50,001 characters; one item may have at most 50,000');
    expect(seen).toEqual([]);
  });

  it('planTranslation records every batch request in order, nothing sent', async () => {
    const planned: number[] = [];
    await planTranslation({ plan: (t) => void planned.push(t.length) }, lines(2100), 1);
    expect(planned).toEqual([1000, 1000, 100]);
  });
});
