// The ordered pipeline of vx translate: results delivered in submission order as soon as the head
// is in (not only when the window fills or the input ends), at most `concurrency` outstanding,
// and a failed batch stops everything with the batch named.
import { describe, expect, it } from 'vitest';
import { BatchFailure, OrderedPipeline } from '../../src/api/translator/pipeline.js';

/** a send whose answers the test releases by hand */
function manual() {
  const pending = new Map<number, { resolve: (v: string) => void; reject: (e: unknown) => void }>();
  const sent: number[] = [];
  const send = (b: number) =>
    new Promise<string>((resolve, reject) => {
      sent.push(b);
      pending.set(b, { resolve, reject });
    });
  return { send, sent, answer: (b: number) => pending.get(b)!.resolve(`r${b}`), fail: (b: number, e: unknown) => pending.get(b)!.reject(e) };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ordered pipeline', () => {
  it('delivers the head as soon as its answer is in, while the window is not full and no more input came', async () => {
    const m = manual();
    const delivered: string[] = [];
    const p = new OrderedPipeline<number, string>({ concurrency: 4, send: m.send, deliver: (_b, r) => void delivered.push(r) });
    await p.submit(1);
    await p.submit(2);
    expect(m.sent).toEqual([1, 2]);
    m.answer(1);
    await tick();
    expect(delivered).toEqual(['r1']);
    expect(p.outstanding).toBe(1);
    await p.submit(3);
    m.answer(3); // in before 2: waits for 2
    await tick();
    expect(delivered).toEqual(['r1']);
    m.answer(2);
    await p.finish();
    expect(delivered).toEqual(['r1', 'r2', 'r3']);
    expect(p.outstanding).toBe(0);
  });

  it('keeps at most `concurrency` batches outstanding: submit waits for room', async () => {
    const m = manual();
    const delivered: string[] = [];
    const p = new OrderedPipeline<number, string>({ concurrency: 2, send: m.send, deliver: (_b, r) => void delivered.push(r) });
    await p.submit(1);
    let third = false;
    const two = p.submit(2).then(() => (third = true));
    await tick();
    expect(third).toBe(false);
    expect(m.sent).toEqual([1, 2]);
    m.answer(2);
    await tick();
    expect(third).toBe(false); // 2 is in but 1 is not: still two outstanding
    m.answer(1);
    await two;
    await p.finish();
    expect(delivered).toEqual(['r1', 'r2']);
  });

  it('a failed batch stops the pipeline: later submits and finish throw a BatchFailure naming it; nothing after it is delivered', async () => {
    const m = manual();
    const delivered: string[] = [];
    const p = new OrderedPipeline<number, string>({ concurrency: 3, send: m.send, deliver: (_b, r) => void delivered.push(r) });
    await p.submit(1);
    await p.submit(2);
    m.answer(2);
    m.fail(1, new Error('HTTP 503'));
    await tick();
    const err = await p.submit(3).then(
      () => undefined,
      (e) => e,
    );
    expect(err).toBeInstanceOf(BatchFailure);
    expect((err as BatchFailure<number>).batch).toBe(1);
    expect((err as Error).message).toBe('HTTP 503');
    await expect(p.finish()).rejects.toBe(err);
    expect(delivered).toEqual([]);
    expect(m.sent).toEqual([1, 2]);
  });

  it('cancel aborts the requests in flight; idle waits for a delivery under way', async () => {
    const signals: AbortSignal[] = [];
    let release!: () => void;
    const writing = new Promise<void>((r) => (release = r));
    const delivered: number[] = [];
    const p = new OrderedPipeline<number, number>({
      concurrency: 4,
      send: (b, signal) => {
        signals.push(signal);
        return b === 1 ? Promise.resolve(1) : new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
      deliver: async (b) => {
        await writing;
        delivered.push(b);
      },
    });
    await p.submit(1);
    await p.submit(2);
    await tick();
    p.cancel();
    expect(signals.every((s) => s.aborted)).toBe(true);
    let idle = false;
    const done = p.idle().then(() => (idle = true));
    await tick();
    expect(idle).toBe(false); // batch 1 is still being written
    release();
    await done;
    expect(delivered).toEqual([1]);
  });

  it('onStop is called once, at once, when a batch fails while nothing is being submitted', async () => {
    const m = manual();
    const stops: unknown[] = [];
    const p = new OrderedPipeline<number, string>({ concurrency: 4, send: m.send, deliver: () => undefined, onStop: (e) => stops.push(e) });
    await p.submit(1);
    await p.submit(2);
    m.answer(1);
    await tick();
    expect(stops).toEqual([]);
    m.fail(2, new Error('down'));
    await tick();
    expect(stops).toHaveLength(1);
    expect(stops[0]).toBeInstanceOf(BatchFailure);
    expect((stops[0] as BatchFailure<number>).batch).toBe(2);
    await expect(p.submit(3)).rejects.toBeInstanceOf(BatchFailure);
    await expect(p.finish()).rejects.toBeInstanceOf(BatchFailure);
    expect(stops).toHaveLength(1);
  });
});
