// Pay once: a layer around the translation stream that sends each distinct text once per run
// (dedupe over a bounded window of distinct texts) and answers what the translation memory holds
// without sending it, while the output keeps one result per input item, in input order, exactly
// as the service would have answered item by item.
//
//   items ──► reader ──► (memory hit / seen in the window: answered at once)
//                 └───► distinct misses ──► inner stream (batches, requests, pacing) ──► results
//   lines waiting for their answer ──► events of consecutive answered items, in input order
//
// Bounded memory: at most `maxPending` input items wait for their answer (the reader stops while
// the consumer is behind), and the window remembers the last `window` distinct texts at least and
// twice as many at most (in two generations, the older let go whole; a text seen again after that
// is sent again, unless the memory has it). The inner stream is any function from an async
// iterable of texts (one array per chunk) to batch events (translate's stream in practice): it
// never sees a text twice within the window.
import { countChars, type TranslateResult } from '../../spec/translator.js';
import { UsageError } from '../../core/errors.js';
import { Wakeup } from '../../core/wakeup.js';
import type { TranslationMemory } from './memory.js';
import { ItemTooLong } from './stream.js';

/**
 * distinct texts remembered for dedupe at least (up to twice as many), with their answers (about
 * 2 MB of heap for short lines); 4,000 keeps each generation's Map under V8's 128 KB large-object
 * size (a larger one is freed only by a full GC)
 */
export const WINDOW = 4_000;
/** input items read ahead of the consumer at most */
export const MAX_PENDING = 10_000;

/** What the inner stream reports: the results of consecutive texts it was given, in order. */
export interface InnerBatch {
  type: 'batch';
  /** `first`: 0-based index among the texts the inner stream was given; `count` of them */
  batch: { first: number; count: number };
  outcome: { results: TranslateResult[] };
}

/**
 * The inner stream: the distinct texts to send in, batch events out. `itemOf(i)` is the 1-based
 * input item that first had the inner stream's text `i` (0-based), while that text is unanswered.
 */
export type InnerStream = (texts: AsyncIterable<readonly string[]>, itemOf: (index: number) => number | undefined) => AsyncIterable<InnerBatch | { type: string }>;

export interface ReuseOptions {
  /** the memory, with the options ids of the run's targets (see TranslationMemory.idsFor) */
  memory?: { store: TranslationMemory; ids: string[] };
  /** distinct texts remembered for dedupe at least, twice as many at most (default WINDOW) */
  window?: number;
  /** input items that may wait for their answer (default MAX_PENDING) */
  maxPending?: number;
  /** items per event at most (default 1,000) */
  chunk?: number;
  /** stop reading (an interruption): the iterator throws what the input throws */
  signal?: AbortSignal;
}

/** Consecutive answered items: `results[i]` answers item `first + i` (0-based). */
export interface ReuseEvent {
  type: 'items';
  first: number;
  texts: string[];
  results: TranslateResult[];
}

export interface ReuseTotals {
  /** items answered so far */
  items: number;
  /** distinct texts sent to the inner stream */
  sent: number;
  /** items answered from the memory */
  memoryHits: number;
  /** items answered by an earlier item of the run (not sent again) */
  duplicates: number;
}

interface Slot {
  text: string;
  result?: TranslateResult;
  /** 1-based input item that first sent it */
  item: number;
}

/** The inner stream failed; `item` is the first input item (1-based) that has no answer. */
export class ReuseFailure extends Error {
  constructor(
    readonly item: number,
    override readonly cause: unknown,
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

/**
 * Translates `items` answering duplicates and memory hits locally; yields events of consecutive
 * answered items in input order. `totals` is updated as it goes. A failure of the inner stream
 * ends the iterator with a ReuseFailure naming the first unanswered item; an error of the input
 * itself (a bad line found late) is thrown after every item before it was answered.
 */
export async function* translateReusing(
  items: AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>,
  inner: InnerStream,
  opts: ReuseOptions = {},
  totals: ReuseTotals = { items: 0, sent: 0, memoryHits: 0, duplicates: 0 },
): AsyncGenerator<ReuseEvent, void, undefined> {
  const windowSize = opts.window ?? WINDOW;
  const maxPending = opts.maxPending ?? MAX_PENDING;
  const chunk = opts.chunk ?? 1000;
  const memory = opts.memory;
  /** the distinct texts of the window with their slots: the newest generation, and the one before */
  const seen = new Generations<Slot>(windowSize);
  /** input items waiting to be handed out, in order */
  const lines: Slot[] = [];
  let head = 0;
  /** slots handed to the inner stream and not answered yet, in order; `sentBase` is the index of sent[0] */
  const sent: Slot[] = [];
  let sentHead = 0;
  let sentBase = 0;
  let emitted = 0;
  let readCount = 0;

  // one waiter each: the consumer waiting for answers, the reader waiting for room
  const answers = new Wakeup();
  const space = new Wakeup();
  const notify = () => answers.wake();
  const room = () => space.wake();
  let failed: { error: unknown } | undefined;
  let inputError: { error: unknown } | undefined;
  let innerDone = false;
  let closing = false;

  /**
   * the texts the inner stream sends: distinct misses, read from the input as it asks, handed on
   * as one array per chunk read (one await per chunk instead of one per text)
   */
  async function* misses(): AsyncGenerator<readonly string[]> {
    let out: string[] = [];
    try {
      for await (const v of items as AsyncIterable<string | readonly string[]>) {
        const chunk = typeof v === 'string' ? [v] : v;
        for (const text of chunk) {
          if (closing) return;
          // the store's pages read so far leave the process's memory now and then
          if (memory?.store.relieveDue) await memory.store.relieve();
          readCount++;
          let slot = seen.get(text);
          if (slot) {
            totals.duplicates++;
          } else {
            slot = { text, item: readCount };
            const hit = memory?.store.lookup(memory.ids, text);
            if (hit) {
              slot.result = hit;
              totals.memoryHits++;
            }
            seen.set(text, slot);
          }
          lines.push(slot);
          if (!slot.result && slot.item === readCount) {
            sent.push(slot);
            totals.sent++;
            out.push(text);
          } else if (head === lines.length - 1) notify();
          if (lines.length - head >= maxPending && !closing && !failed) {
            // what waits for an answer must have been handed on before the reader waits for room
            if (out.length) {
              const give = out;
              out = [];
              yield give;
            }
            while (lines.length - head >= maxPending && !closing && !failed) {
              notify();
              // the inner stream's idle flush (an unref'd timer) may be what answers the waiting items:
              // the process stays alive while the reader waits
              const alive = setInterval(() => undefined, 60_000);
              try {
                await space.wait();
              } finally {
                clearInterval(alive);
              }
            }
          }
        }
        if (out.length) {
          const give = out;
          out = [];
          yield give;
        }
      }
    } catch (e) {
      inputError = { error: e };
      notify();
    }
  }

  const innerTask = (async () => {
    try {
      for await (const ev of inner(misses(), (i) => sent[i - sentBase]?.item)) {
        if (ev.type !== 'batch') continue;
        const b = ev as InnerBatch;
        for (let i = 0; i < b.batch.count; i++) {
          const slot = sent[b.batch.first + i - sentBase];
          const result = b.outcome.results[i];
          slot.result = result;
          if (memory) memory.store.store(memory.ids, slot.text, result);
        }
        // each answered batch is committed as one transaction while the run goes on (what waits
        // for its commit stays bounded: one batch, and the commit before it)
        if (memory) await memory.store.commit();
        // the answered slots leave the in-flight list
        sentHead = b.batch.first + b.batch.count - sentBase;
        if (sentHead > 1024 && sentHead * 2 > sent.length) {
          sent.splice(0, sentHead);
          sentBase += sentHead;
          sentHead = 0;
        }
        notify();
      }
    } catch (e) {
      // an item the inner stream found too long is named by its input item
      failed = { error: e instanceof ItemTooLong ? new ItemTooLong(sent[e.index - 1 - sentBase]?.item ?? e.index, e.problem) : e };
    } finally {
      innerDone = true;
      notify();
    }
  })();

  try {
    for (;;) {
      // hand out the answered prefix
      let n = 0;
      while (head + n < lines.length && n < chunk && lines[head + n].result) n++;
      if (n) {
        const part = lines.slice(head, head + n);
        head += n;
        if (head > 4096 && head * 2 > lines.length) {
          lines.splice(0, head);
          head = 0;
        }
        const first = emitted;
        emitted += n;
        totals.items = emitted;
        room();
        yield { type: 'items', first, texts: part.map((l) => l.text), results: part.map((l) => l.result!) };
        continue;
      }
      if (failed) throw failed.error instanceof UsageError ? failed.error : new ReuseFailure(emitted + 1, failed.error);
      if (innerDone) {
        if (head < lines.length) throw new ReuseFailure(emitted + 1, new Error('the translation stream ended without answering every item'));
        if (inputError) throw inputError.error;
        return;
      }
      await answers.wait();
    }
  } finally {
    closing = true;
    room();
    await innerTask;
  }
}

export interface ReuseEstimate extends ReuseTotals {
  /** characters of the distinct texts that would be sent (not multiplied by the targets) */
  chars: number;
}

/**
 * The texts a run would send, in order, without sending anything: the same window and memory
 * lookups as translateReusing (every text counts as answered at once); `est` counts as it goes.
 * For --estimate and --dry-run.
 */
export async function* reuseMisses(
  items: AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>,
  opts: Pick<ReuseOptions, 'memory' | 'window'> = {},
  est: ReuseEstimate = { items: 0, sent: 0, memoryHits: 0, duplicates: 0, chars: 0 },
): AsyncGenerator<string> {
  const windowSize = opts.window ?? WINDOW;
  const seen = new Generations<true>(windowSize);
  for await (const v of items as AsyncIterable<string | readonly string[]>) {
    for (const text of typeof v === 'string' ? [v] : v) {
      if (opts.memory?.store.relieveDue) await opts.memory.store.relieve();
      est.items++;
      if (seen.get(text)) {
        est.duplicates++;
        continue;
      }
      seen.set(text, true);
      if (opts.memory?.store.lookup(opts.memory.ids, text)) est.memoryHits++;
      else {
        est.sent++;
        est.chars += countChars(text);
        yield text;
      }
    }
  }
}

/** What a run would send: counts only (see reuseMisses). */
export async function estimateReuse(
  items: AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>,
  opts: Pick<ReuseOptions, 'memory' | 'window'> = {},
): Promise<ReuseEstimate> {
  const est: ReuseEstimate = { items: 0, sent: 0, memoryHits: 0, duplicates: 0, chars: 0 };
  for await (const _ of reuseMisses(items, opts, est)) void _;
  return est;
}

/**
 * The dedupe window: the last `size` distinct keys at least (up to twice as many), as two maps,
 * the newest generation and the one before; when the newest holds `size` keys it becomes the older
 * one and the oldest is let go whole. No per-key deletes: a map that only grows stays fast (a
 * first-in first-out sweep deleting every key again cost a third of the layer's time).
 */
class Generations<V> {
  private newest = new Map<string, V>();
  private older = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(k: string): V | undefined {
    return this.newest.get(k) ?? this.older.get(k);
  }
  set(k: string, v: V): void {
    this.newest.set(k, v);
    if (this.newest.size >= this.size) {
      this.older = this.newest;
      this.newest = new Map();
    }
  }
}
