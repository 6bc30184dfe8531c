// Pay once: a layer around the translation stream that sends each distinct text of a run once,
// however long the input (texts.ts: in memory, then in the run's spill), answers what the
// translation memory holds without sending it, and waits for what another run sharing the memory
// is translating (claims.ts), while the output keeps one result per input item, in input order,
// exactly as the service would have answered item by item.
//
//   items ──► reader ──► (seen in the run / memory hit: answered at once; held elsewhere: waited for)
//                 └───► distinct misses ──► lanes: inner streams (batches, requests, pacing) ──► results
//   lines waiting for their answer ──► events of consecutive answered items, in input order
//
// Bounded memory: at most `maxPending` input items wait for their answer (the reader stops while
// the consumer is behind), and the run's distinct texts take about `budget` bytes in memory, the
// rest being spilled. The inner stream is any function from an async iterable of texts (one array
// per chunk) to batch events (translate's stream in practice): it never sees a text twice.
import { InterruptedError, UsageError } from '../../../core/errors.js';
import { capYoungGeneration, limitHeapGrowth } from '../../../core/heap.js';
import { Wakeup } from '../../../core/wakeup.js';
import type { TranslateResult } from '../../../model/translator.js';
import type { Claimed } from '../memory/index.js';
import { SpillFailure } from '../spill/spill.js';
import { nextOrStop } from '../stream.js';
import { claimTexts, Waiting, type RunMemory } from './claims.js';
import { Holder } from './held.js';
import { drive, give, newLane, type Lane, type LaneHost } from './lanes.js';
import { BUDGET, RunTexts } from './texts.js';
import { newSlot, ReuseFailure, type InnerStream, type ReuseEvent, type ReuseInput, type ReuseOptions, type ReuseTotals, type Slot } from './types.js';

/** input items read ahead of the consumer at most */
export const MAX_PENDING = 10_000;
/** texts the memory is asked about at once, at most */
const SLICE = 2048;
/**
 * the heap of a run long enough to spill: the young generation's semi-spaces (MB), and how far the
 * old generation may grow past what the last full collection kept (a million-line run to two
 * targets peaked at 230 MB with V8's defaults, 122 MB with these, for ~5% more CPU)
 */
const YOUNG_GENERATION_MB = 4;
const HEAP_GROWTH_PERCENT = 30;

class ReuseRun implements LaneHost {
  readonly memory?: RunMemory;
  private readonly texts: RunTexts;
  private readonly holder = new Holder();
  /** input items waiting to be handed out, in order (from `head` on) */
  private readonly lines: Slot[] = [];
  private head = 0;
  private emitted = 0;
  private readCount = 0;
  private readonly main = newLane();
  /** the lanes of some targets, by their targets */
  private readonly lanes = new Map<string, Lane>();
  private readonly waiting?: Waiting;
  /** the memory was empty when the run opened it: a text new to the run is claimed without a look first */
  private readonly look: boolean;
  // one waiter each: the consumer waiting for answers, the reader waiting for room
  private readonly answers = new Wakeup();
  private readonly space = new Wakeup();
  private failure?: { error: unknown };
  private inputError?: { error: unknown };
  private readerDone = false;
  private closing = false;
  /** the run stops: a read of a quiet input is let go of */
  private readonly stop = new AbortController();
  private innerDone = false;

  constructor(
    private readonly items: ReuseInput,
    private readonly inner: InnerStream,
    private readonly opts: ReuseOptions,
    private readonly totals: ReuseTotals,
  ) {
    this.memory = opts.memory;
    this.texts = new RunTexts(opts.budget ?? BUDGET, opts.spill, true, this.holder);
    this.look = !opts.memory?.store.fresh;
    if (this.memory) {
      const hooks = { settle: (slot: Slot, c: Exclude<Claimed, 'held'>) => this.settle(slot, c), failed: (e: unknown) => this.failed(e), idle: () => this.wakeLanes() };
      this.waiting = new Waiting(this.memory, hooks, opts.pollMs);
    }
  }

  /** no text will be given to a lane any more: the input is read and no text is waited for (one taken over is sent) */
  get ended(): boolean {
    return this.stopping || (this.readerDone && !this.waiting?.busy);
  }

  get stopping(): boolean {
    return this.closing || this.failure !== undefined;
  }

  answer(slot: Slot, result: TranslateResult): void {
    this.texts.answer(slot, result);
  }

  answered(): void {
    this.answers.wake();
  }

  failed(error: unknown): void {
    this.failure ??= { error };
    this.stop.abort();
    this.wakeLanes();
    this.answers.wake();
    this.space.wake();
  }

  private wakeLanes(): void {
    this.main.wake.wake();
    for (const l of this.lanes.values()) l.wake.wake();
  }

  /** The reader, the lanes and the waits, as one task that ends when every lane has. */
  start(): Promise<void> {
    return (async () => {
      const reading = this.read();
      try {
        await drive(this.main, this.inner, this);
      } finally {
        // the reader is done (or the run stops): the lanes send what they were given and end
        await reading;
        this.wakeLanes();
        await Promise.all([...this.lanes.values()].map((l) => l.task));
        this.waiting?.stop();
        this.innerDone = true;
        this.answers.wake();
      }
    })();
  }

  /** Reads the input, a slice at a time, until it ends or the run stops (also while a pipe is quiet). */
  private async read(): Promise<void> {
    const items = this.items;
    const it = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : (async function* () {
      yield* items;
    })();
    let waiting = false;
    try {
      for (;;) {
        waiting = true;
        const r = await nextOrStop(it, this.stop.signal);
        waiting = false;
        if (r.done) return;
        const chunk = typeof r.value === 'string' ? [r.value] : r.value;
        for (let at = 0; at < chunk.length && !this.stopping; at += SLICE) {
          await this.readSlice(chunk, at, Math.min(chunk.length, at + SLICE));
          await this.room();
        }
        if (this.stopping) break;
      }
      // a source left early is closed (a read still pending is its owner's to end)
      void Promise.resolve(it.return?.()).catch(() => undefined);
    } catch (e) {
      if (e instanceof InterruptedError && this.stopping) return;
      if (!waiting) void Promise.resolve(it.return?.()).catch(() => undefined);
      // the spill cannot be written: the run stops (paying twice is no way on)
      if (e instanceof SpillFailure) this.failed(e);
      else this.inputError = { error: e };
      this.answers.wake();
    } finally {
      this.readerDone = true;
      this.wakeLanes();
    }
  }

  /** Reads chunk[from, to): each text seen in the run is answered by its slot, the others are looked up and sent. */
  private async readSlice(chunk: readonly string[], from: number, to: number): Promise<void> {
    const fresh: Slot[] = [];
    for (let i = from; i < to; i++) {
      const text = chunk[i];
      const item = ++this.readCount;
      let slot = this.texts.get(text) ?? this.texts.fromSpill(text, item);
      if (slot) this.totals.duplicates++;
      else {
        slot = newSlot(text, item);
        this.texts.add(text, slot);
        fresh.push(slot);
      }
      this.lines.push(slot);
      // (a generation is checked at each line: its part of the budget holds, whatever the slice)
      if (this.texts.full) this.rotate();
    }
    if (fresh.length) await this.resolve(fresh);
    if (this.lines[this.head]?.result !== undefined) this.answers.wake();
  }

  /** A new generation of the run's texts (those none in memory saw are spilled). */
  private rotate(): void {
    this.texts.rotate();
    // a run long enough to spill keeps V8's heap close to what it holds (see core/heap.ts)
    capYoungGeneration(YOUNG_GENERATION_MB);
    limitHeapGrowth(HEAP_GROWTH_PERCENT);
  }

  /** The texts new to the run: sent, or answered (or waited for) as the memory says. */
  private async resolve(fresh: Slot[]): Promise<void> {
    if (!this.memory) {
      for (const slot of fresh) this.send(slot, this.main);
      return;
    }
    const states = await claimTexts(
      this.memory,
      fresh.map((s) => s.text),
      this.look,
    );
    states.forEach((c, i) => {
      if (c !== 'held') return this.settle(fresh[i], c);
      this.totals.waited = (this.totals.waited ?? 0) + 1;
      this.waiting!.add(fresh[i]);
    });
  }

  /** What the memory said of a text (or of one waited for): its answer, or the targets this run holds and sends. */
  private settle(slot: Slot, c: Exclude<Claimed, 'held'>): void {
    if ('result' in c) {
      this.texts.answer(slot, c.result);
      this.totals.memoryHits++;
      if (this.lines[this.head] === slot) this.answers.wake();
      return;
    }
    const all = c.missing.length === c.parts.length;
    if (all || !this.opts.partial || c.parts.length < 2) return this.send(slot, this.main);
    slot.parts = c.parts;
    this.totals.partialHits = (this.totals.partialHits ?? 0) + 1;
    this.send(slot, this.laneFor(c.missing));
  }

  private send(slot: Slot, lane: Lane): void {
    this.totals.sent++;
    give(lane, slot);
  }

  /** the lane of the texts missing `targets` (made, with its stream, when first needed) */
  private laneFor(targets: number[]): Lane {
    const key = targets.join(',');
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = newLane(
        targets,
        targets.map((k) => this.memory!.ids[k]),
      );
      lane.task = drive(lane, this.opts.partial!(targets), this);
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /** Waits while `maxPending` items wait for their answer. */
  private async room(): Promise<void> {
    const max = this.opts.maxPending ?? MAX_PENDING;
    if (this.lines.length - this.head < max || this.stopping) return;
    // the inner stream's idle flush (an unref'd timer) may be what answers the waiting items: the
    // process stays alive while the reader waits
    const alive = setInterval(() => undefined, 60_000);
    try {
      while (this.lines.length - this.head >= max && !this.stopping) {
        this.answers.wake();
        await this.space.wait();
      }
    } finally {
      clearInterval(alive);
    }
  }

  /** The answered items from `head` on (up to `chunk`), as an event; undefined when the head has none. */
  private take(): ReuseEvent | undefined {
    const chunk = this.opts.chunk ?? 1000;
    const { lines, head } = this;
    let n = 0;
    while (head + n < lines.length && n < chunk && lines[head + n].result !== undefined) n++;
    if (!n) return undefined;
    // (pushed, not set in an array made n long: the batches' texts are pushed too, and a check
    // that reads both compiles once for one kind of array)
    const texts: string[] = [];
    const results: TranslateResult[] = [];
    for (let i = 0; i < n; i++) {
      texts.push(lines[head + i].text);
      results.push(this.holder.result(lines[head + i].result!));
    }
    this.head += n;
    if (this.head > 4096 && this.head * 2 > lines.length) {
      lines.splice(0, this.head);
      this.head = 0;
    }
    const first = this.emitted;
    this.emitted += n;
    this.totals.items = this.emitted;
    this.space.wake();
    return { type: 'items', first, texts, results };
  }

  /** The events of the run, in input order (see translateReusing). */
  async *events(task: Promise<void>): AsyncGenerator<ReuseEvent, void, undefined> {
    try {
      for (;;) {
        const ev = this.take();
        if (ev) {
          yield ev;
          continue;
        }
        const f = this.failure;
        if (f) throw f.error instanceof UsageError ? f.error : new ReuseFailure(this.emitted + 1, f.error);
        if (this.innerDone) {
          if (this.head < this.lines.length) throw new ReuseFailure(this.emitted + 1, new Error('the translation stream ended without answering every item'));
          if (this.inputError) throw this.inputError.error;
          return;
        }
        await this.answers.wait();
      }
    } finally {
      this.closing = true;
      this.stop.abort();
      this.space.wake();
      this.wakeLanes();
      this.waiting?.stop();
      await task;
    }
  }
}

/**
 * Translates `items` answering duplicates and memory hits locally; yields events of consecutive
 * answered items in input order. `totals` is updated as it goes. A failure of the inner stream
 * ends the iterator with a ReuseFailure naming the first unanswered item; an error of the input
 * itself (a bad line found late) is thrown after every item before it was answered.
 */
export async function* translateReusing(
  items: ReuseInput,
  inner: InnerStream,
  opts: ReuseOptions = {},
  totals: ReuseTotals = { items: 0, sent: 0, memoryHits: 0, duplicates: 0 },
): AsyncGenerator<ReuseEvent, void, undefined> {
  const run = new ReuseRun(items, inner, opts, totals);
  yield* run.events(run.start());
}
