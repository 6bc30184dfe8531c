// Pay once: each distinct text sent once per run (at any distance), memory hits never sent, one
// result per input item in input order, bounded waiting, failures naming the first unanswered item;
// the run's memory budget.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyOptions, TranslationMemory } from '../../src/api/translator/memory/index.js';
import { estimateReuse, ReuseFailure, runBudget, translateReusing, type InnerBatch, type ReuseEvent, type ReuseTotals } from '../../src/api/translator/reuse/index.js';
import { Spill } from '../../src/api/translator/spill/spill.js';
import { UsageError } from '../../src/core/errors.js';
import type { TranslateResult } from '../../src/model/translator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const dir = tempDir('vx-reuse-');
afterAll(() => removeDir(dir));

const answer = (t: string): TranslateResult => ({ translations: [{ text: `[de] ${t}`, to: 'de' }] });

/** an inner stream sending batches of `size` (the last one when its input ends), recording what it was given */
function fakeInner(size: number, given: string[], fail?: (batch: number) => Error | undefined, respond: (t: string) => TranslateResult = answer) {
  return async function* (chunks: AsyncIterable<readonly string[]>): AsyncGenerator<InnerBatch> {
    let batch: string[] = [];
    let first = 0;
    let n = 0;
    const out = function* (): Generator<InnerBatch> {
      const e = fail?.(n);
      if (e) throw e;
      yield { type: 'batch', batch: { first, count: batch.length }, outcome: { results: batch.map(respond) } };
      first += batch.length;
      batch = [];
      n++;
    };
    for await (const texts of chunks) {
      for (const t of texts) {
        given.push(t);
        batch.push(t);
        if (batch.length >= size) yield* out();
      }
    }
    if (batch.length) yield* out();
  };
}

/** like fakeInner, answering for the targets `to` (what the service would for a request to them) */
function fakeInnerTo(size: number, given: string[], to: readonly string[], fail?: Error) {
  return fakeInner(size, given, () => fail, (t) => ({ detectedLanguage: { language: 'en', score: 1 }, translations: to.map((l) => ({ text: `[${l}] ${t}`, to: l })) }));
}

async function collect(gen: AsyncIterable<ReuseEvent>) {
  const texts: string[] = [];
  const results: TranslateResult[] = [];
  for await (const ev of gen) {
    expect(ev.first).toBe(texts.length);
    texts.push(...ev.texts);
    results.push(...ev.results);
  }
  return { texts, results };
}

describe('translateReusing', () => {
  it('sends each distinct text once and answers every item in order', async () => {
    const input = Array.from({ length: 2_000 }, (_, i) => ['Save', 'Cancel', 'Open file', '', 'Save'][i % 5]);
    const given: string[] = [];
    const totals: ReuseTotals = { items: 0, sent: 0, memoryHits: 0, duplicates: 0 };
    const { texts, results } = await collect(translateReusing([input.slice(0, 7), ...input.slice(7)], fakeInner(3, given), {}, totals));
    expect(given).toEqual(['Save', 'Cancel', 'Open file', '']);
    expect(texts).toEqual(input);
    expect(results.map((r) => r.translations[0].text)).toEqual(input.map((t) => `[de] ${t}`));
    expect(totals).toEqual({ items: 2_000, sent: 4, memoryHits: 0, duplicates: 1_996 });
  });

  it('sends each distinct text once at any distance: the texts that leave the budget are spilled and read back', async () => {
    const spill = Spill.open(dir);
    try {
      const given: string[] = [];
      const totals: ReuseTotals = { items: 0, sent: 0, memoryHits: 0, duplicates: 0 };
      const input = ['a', 'b', 'c', 'd', 'a', 'd', 'c', 'e', 'b', 'a'];
      // one item a chunk, one answered before the next is read, a budget of nothing: every text leaves memory at once
      const { texts, results } = await collect(translateReusing(input, fakeInner(1, given), { spill, budget: 1, maxPending: 1 }, totals));
      expect(given).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(texts).toEqual(input);
      expect(results).toEqual(input.map(answer));
      expect(totals).toEqual({ items: 10, sent: 5, memoryHits: 0, duplicates: 5 });
      expect(spill.count).toBeGreaterThanOrEqual(4);
    } finally {
      spill.close();
    }
  });

  it('answers memory hits without sending them and stores what was sent', async () => {
    const path = join(dir, 'm.tm');
    const store = await TranslationMemory.open(path);
    const ids = store.idsFor(keyOptions({ to: ['de'] }));
    store.store(ids, 'Save', { translations: [{ text: 'Speichern', to: 'de' }] });
    await store.flush();
    const given: string[] = [];
    const totals: ReuseTotals = { items: 0, sent: 0, memoryHits: 0, duplicates: 0 };
    const { results } = await collect(translateReusing(['Save', 'Open', 'Save', 'Open'], fakeInner(2, given), { memory: { store, ids } }, totals));
    expect(given).toEqual(['Open']);
    expect(results.map((r) => r.translations[0].text)).toEqual(['Speichern', '[de] Open', 'Speichern', '[de] Open']);
    expect(totals).toMatchObject({ sent: 1, memoryHits: 1, duplicates: 2 });
    await store.flush();
    expect(await store.lookup(ids, 'Open')).toEqual(answer('Open'));
    await store.close();
  });

  it('a text the memory holds for some targets is sent for the others only, its result put together in --to order', async () => {
    const to = ['de', 'fr', 'it'];
    const store = await TranslationMemory.open(join(dir, 'partial.tm'));
    const ids = store.idsFor(keyOptions({ to }));
    store.store([ids[0]], 'Save', { translations: [{ text: 'Speichern', to: 'de' }] });
    store.store([ids[0], ids[2]], 'Open', { translations: [{ text: 'Öffnen', to: 'de' }, { text: 'Apri', to: 'it' }] });
    store.store(ids, 'Quit', { translations: [{ text: 'Beenden', to: 'de' }, { text: 'Quitter', to: 'fr' }, { text: 'Esci', to: 'it' }] });
    await store.flush();
    const full: string[] = [];
    const lanes: Record<string, string[]> = {};
    const partial = (targets: readonly number[]) => fakeInnerTo(2, (lanes[targets.join(',')] = []), targets.map((k) => to[k]));
    const totals: ReuseTotals = { items: 0, sent: 0, memoryHits: 0, duplicates: 0 };
    const input = ['Save', 'New', 'Open', 'Save', 'Quit', 'Close', 'Open'];
    const { texts, results } = await collect(translateReusing(input, fakeInnerTo(2, full, to), { memory: { store, ids }, partial }, totals));
    expect(full).toEqual(['New', 'Close']);
    expect(lanes).toEqual({ '1,2': ['Save'], '1': ['Open'] });
    expect(texts).toEqual(input);
    const fresh = (t: string, l: string) => ({ text: `[${l}] ${t}`, to: l });
    const detected = { language: 'en', score: 1 };
    const save = { detectedLanguage: detected, translations: [{ text: 'Speichern', to: 'de' }, fresh('Save', 'fr'), fresh('Save', 'it')] };
    const open = { detectedLanguage: detected, translations: [{ text: 'Öffnen', to: 'de' }, fresh('Open', 'fr'), { text: 'Apri', to: 'it' }] };
    const all = (t: string) => ({ detectedLanguage: detected, translations: to.map((l) => fresh(t, l)) });
    expect(results).toEqual([save, all('New'), open, save, { translations: [{ text: 'Beenden', to: 'de' }, { text: 'Quitter', to: 'fr' }, { text: 'Esci', to: 'it' }] }, all('Close'), open]);
    expect(totals).toEqual({ items: 7, sent: 4, memoryHits: 1, partialHits: 2, duplicates: 2 });
    // what was sent is stored for the targets it was sent to: every target of Save and Open is there now
    await store.flush();
    expect((await store.lookup(ids, 'Save'))?.translations).toEqual(save.translations);
    expect((await store.lookup(ids, 'Open'))?.translations).toEqual(open.translations);
    await store.close();
  });

  it('without `partial`, or for one target, a text stored for some targets only is sent for all of them; a failed lane names its item', async () => {
    const to = ['de', 'fr'];
    const store = await TranslationMemory.open(join(dir, 'partial2.tm'));
    const ids = store.idsFor(keyOptions({ to }));
    store.store([ids[0]], 'Save', { translations: [{ text: 'Speichern', to: 'de' }] });
    store.store([ids[0]], 'Close', { translations: [{ text: 'Schließen', to: 'de' }] });
    await store.flush();
    const full: string[] = [];
    await collect(translateReusing(['Save', 'New'], fakeInnerTo(5, full, to), { memory: { store, ids } }));
    expect(full).toEqual(['Save', 'New']);
    const boom = new Error('HTTP 503');
    const err = await collect(translateReusing(['Close', 'New', 'Other'], fakeInnerTo(5, [], to), { memory: { store, ids }, partial: (t) => fakeInnerTo(5, [], t.map((k) => to[k]), boom) })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReuseFailure);
    expect((err as ReuseFailure).item).toBe(1);
    expect((err as ReuseFailure).cause).toBe(boom);
    await store.close();
  });

  it('reads no further than maxPending items ahead of the consumer', async () => {
    let read = 0;
    let consumed = 0;
    let worst = 0;
    const input = (function* () {
      for (let i = 0; i < 5_000; i++) {
        read++;
        worst = Math.max(worst, read - consumed);
        yield i % 3 ? 'same' : `t${i}`;
      }
    })();
    for await (const ev of translateReusing(input, fakeInner(1, []), { maxPending: 100, chunk: 10 })) consumed += ev.texts.length;
    expect(consumed).toBe(5_000);
    expect(worst).toBeLessThanOrEqual(102);
  });

  it('a failed batch names the first item without an answer; what came before was handed out', async () => {
    const out: string[] = [];
    const boom = new Error('HTTP 503');
    const run = async () => {
      for await (const ev of translateReusing(['a', 'b', 'a', 'c', 'd', 'c'], fakeInner(2, [], (n) => (n === 1 ? boom : undefined)))) out.push(...ev.texts);
    };
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReuseFailure);
    expect((err as ReuseFailure).item).toBe(4);
    expect((err as ReuseFailure).cause).toBe(boom);
    expect(out).toEqual(['a', 'b', 'a']);
  });

  it('a bad item found late in the input: everything before it is answered, then its error', async () => {
    const input = (async function* () {
      yield ['x', 'y', 'x'];
      throw new UsageError('line 4 is too long');
    })();
    const out: string[] = [];
    const err = await (async () => {
      for await (const ev of translateReusing(input, fakeInner(5, []))) out.push(...ev.texts);
    })().catch((e: unknown) => e);
    expect(out).toEqual(['x', 'y', 'x']);
    expect(err).toEqual(new UsageError('line 4 is too long'));
  });
});

describe('estimateReuse', () => {
  it('counts as the run does, exactly at any distance (spilled texts are duplicates), and the memory\'s hits and parts', async () => {
    const to = ['de', 'fr'];
    const store = await TranslationMemory.open(join(dir, 'estimate.tm'));
    const ids = store.idsFor(keyOptions({ to }));
    // stored for de only: sent for fr
    store.store([ids[0]], 'b', { translations: [{ text: 'B', to: 'de' }] });
    store.store(ids, 'z', { translations: [{ text: 'Z', to: 'de' }, { text: 'Z', to: 'fr' }] });
    await store.flush();
    const input = ['a', 'b', 'c', 'd', 'a', 'z', 'd', 'c', 'e', 'b'];
    const spill = Spill.open(dir);
    try {
      const est = await estimateReuse(input, { memory: { store, ids }, spill, budget: 1 });
      const full: string[] = [];
      const lanes: string[] = [];
      const totals: ReuseTotals = { items: 0, sent: 0, memoryHits: 0, duplicates: 0 };
      const partial = (targets: readonly number[]) => fakeInnerTo(1, lanes, targets.map((k) => to[k]));
      await collect(translateReusing(input, fakeInnerTo(1, full, to), { memory: { store, ids }, partial }, totals));
      expect([full, lanes]).toEqual([['a', 'c', 'd', 'e'], ['b']]);
      expect(totals).toEqual({ items: 10, sent: 5, memoryHits: 1, partialHits: 1, duplicates: 4 });
      expect(est).toEqual({ items: 10, sent: 5, memoryHits: 1, partialHits: 1, partialSaved: 1, duplicates: 4, chars: 5 });
    } finally {
      spill.close();
    }
    // without a memory z is sent too
    const other = Spill.open(dir);
    try {
      expect(await estimateReuse(input, { spill: other, budget: 1 })).toEqual({ items: 10, sent: 6, memoryHits: 0, duplicates: 4, chars: 6 });
    } finally {
      other.close();
      await store.close();
    }
  });
});

describe('the run budget', () => {
  const MB = 1024 * 1024;
  it("is 16 MB in node's default heap, a quarter of the old generation in a small one, the test hook over both", () => {
    expect(runBudget({}, 4144 * MB)).toBe(16 * MB);
    // --max-old-space-size=24: heap_size_limit 72 MB, 48 of them the young generation's
    expect(runBudget({}, 72 * MB)).toBe(6 * MB);
    expect(runBudget({ VX_TRANSLATE_BUDGET: '20000' }, 72 * MB)).toBe(20_000);
    expect(runBudget({ VX_TRANSLATE_BUDGET: 'lots' }, 4144 * MB)).toBe(16 * MB);
  });
});
