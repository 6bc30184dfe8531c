// The idle flush's timing and its rules, with fake timers: sent after the delay of quiet (not
// before, not much after), never while the feed is sending, one send at a time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_FLUSH_MS, flushDelay, IdleFlush } from '../../src/api/translator/idle-flush.js';

describe('flushDelay (VX_TRANSLATE_FLUSH_MS, a test hook)', () => {
  it('whole milliseconds from 1; anything else is the default 1 s', () => {
    expect(DEFAULT_FLUSH_MS).toBe(1000);
    expect(flushDelay({})).toBe(1000);
    expect(flushDelay({ VX_TRANSLATE_FLUSH_MS: '50' })).toBe(50);
    expect(flushDelay({ VX_TRANSLATE_FLUSH_MS: '2147483647' })).toBe(2147483647);
    for (const bad of ['', '0', '-5', '1.5', 'abc', ' 50', '2147483648']) expect(flushDelay({ VX_TRANSLATE_FLUSH_MS: bad })).toBe(1000);
  });
});

describe('IdleFlush', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const setup = (delayMs = 1000) => {
    let open = 0;
    const flushed: number[] = [];
    const failed: unknown[] = [];
    let room: (() => void) | undefined;
    let fail: ((e: unknown) => void) | undefined;
    const idle = new IdleFlush({
      delayMs,
      open: () => open > 0,
      flush: () => {
        flushed.push(open);
        open = 0;
        return new Promise<void>((resolve, reject) => {
          room = resolve;
          fail = reject;
        });
      },
      failed: (e) => failed.push(e),
    });
    const line = () => {
      open++;
      idle.line();
    };
    return { idle, line, flushed, failed, room: () => room!(), fail: (e: unknown) => fail!(e), get open() { return open; } };
  };

  it('sends after a full delay with no new line, between 1 and 1.25 delays after the last line', () => {
    const t = setup(1000);
    t.line();
    vi.advanceTimersByTime(600);
    t.line(); // the quiet starts again
    vi.advanceTimersByTime(999);
    expect(t.flushed).toEqual([]);
    vi.advanceTimersByTime(251);
    expect(t.flushed).toEqual([2]);
    // nothing open: the timer stops (no ticks, nothing keeps running)
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never while the feed is sending; one send at a time (`pending` until it has room)', async () => {
    const t = setup(100);
    t.line();
    let done!: () => void;
    t.idle.hold(new Promise<void>((r) => (done = r)));
    vi.advanceTimersByTime(1000);
    expect(t.flushed).toEqual([]);
    done();
    await Promise.resolve();
    await Promise.resolve();
    vi.advanceTimersByTime(125);
    expect(t.flushed).toEqual([1]);
    expect(t.idle.pending).toBeDefined();
    t.line();
    vi.advanceTimersByTime(1000);
    // the first send still waits for room: no second one
    expect(t.flushed).toEqual([1]);
    t.room();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.idle.pending).toBeUndefined();
    vi.advanceTimersByTime(125);
    expect(t.flushed).toEqual([1, 1]);
  });

  it('a failed send is reported once; stop() ends the ticks for good', async () => {
    const t = setup(100);
    t.line();
    vi.advanceTimersByTime(125);
    t.fail(new Error('boom'));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.failed.map((e) => (e as Error).message)).toEqual(['boom']);
    t.line();
    t.idle.stop();
    expect(vi.getTimerCount()).toBe(0);
    t.line();
    vi.advanceTimersByTime(1000);
    expect(t.flushed).toEqual([1]);
  });
});
