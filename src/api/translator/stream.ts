// Translation as one async iterator: items in, results out in input order as soon as they are in,
// with progress events. Inside: the Batcher (requests within the service limits), the
// OrderedPipeline (several requests in flight, memory bounded by the window, back-pressure from the
// consumer to the input) and, for a live input, the IdleFlush (a partial batch is sent once the
// input pauses). No terminal, no files: the caller chooses the input and renders the events.
//
//   for await (const ev of translateStream(client, items, { targets: 2, concurrency: 4 })) {
//     if (ev.type === 'batch') write(ev.outcome.results);   // in input order, one event per request
//     else progress(ev.items);                              // after each batch: items done so far
//   }
//
// Layers (a dedupe or a translation memory, pacing) wrap either side: the items (any
// AsyncIterable), or the sender (anything with `translate(texts, signal)`, e.g. an object that
// answers some texts from a memory and sends only the rest through the client).
import { InterruptedError, UsageError } from '../../core/errors.js';
import { Wakeup } from '../../core/wakeup.js';
import { countChars, LIMITS } from '../../model/translator.js';
import { Batcher, fmt, itemProblem, type Batch } from './batcher.js';
import type { BatchOutcome } from './client.js';
import { DEFAULT_FLUSH_MS, IdleFlush } from './idle-flush.js';
import { OrderedPipeline } from './pipeline.js';

export { BatchFailure } from './pipeline.js';
export type { Batch } from './batcher.js';
export type { BatchOutcome } from './client.js';

/**
 * The input: the texts to translate, in order, one at a time or in arrays (an array per chunk read
 * costs one await instead of one per text). A UsageError thrown by the source is a problem found
 * late: the items before it are still sent and delivered, then the error is thrown. Any other
 * error stops at once. An item that no request can carry is an ItemTooLong, thrown the same way.
 */
export type ItemInput = AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>;

/** What a text of `own` characters takes in a request, as measure gave it (`measured`; -1 or none: its own). */
const takes = (measured: number | undefined, own: number): number => (measured === undefined || measured < 0 ? own : measured);

/** Item `index` (1-based) can never be sent: `problem` says why. */
export class ItemTooLong extends UsageError {
  constructor(
    readonly index: number,
    readonly problem: string,
  ) {
    super(`item ${fmt(index)} is too long: ${problem}`);
  }
}

/** Sends one batch (TranslatorClient, or a layer around it); retries are its business. */
export interface BatchSender {
  translate(texts: readonly string[], signal?: AbortSignal): Promise<BatchOutcome>;
}

/** The answer to one request, in input order: `outcome.results[i]` translates item `batch.first + i`. */
export interface BatchEvent {
  type: 'batch';
  /** `texts` is empty unless `keepTexts` */
  batch: Batch;
  outcome: BatchOutcome;
}

/** Totals so far, after each batch event. */
export interface ProgressEvent {
  type: 'progress';
  /** items delivered (translated and handed out) */
  items: number;
  requests: number;
  /** characters billed, as reported by X-Metered-Usage */
  billed: number;
  /** requests that reported no X-Metered-Usage */
  unmetered: number;
}

export type StreamEvent = BatchEvent | ProgressEvent;

export interface StreamOptions {
  /** the number of target languages (characters are counted once per target) */
  targets: number;
  /** requests in flight at once */
  concurrency: number;
  /** the input arrives over time (a pipe, a terminal): a partial batch is sent when it pauses */
  live?: boolean;
  /** the pause that sends a partial batch of a live input (default: DEFAULT_FLUSH_MS; flushDelay reads the environment's) */
  flushMs?: number;
  /** keep each batch's texts in its event (otherwise they are let go once the request is built) */
  keepTexts?: boolean;
  /** an interruption: requests are cancelled, the iterator throws an InterruptedError */
  signal?: AbortSignal;
  /** the characters each text takes in a request when it is sent longer than it is (a glossary's markup), in order; -1: its own (the default) */
  measure?(texts: readonly string[]): ArrayLike<number>;
  /**
   * How many of a batch's texts, from the first, its request may carry (a budget): a batch cut
   * short is sent as two, the second failing as the sender refuses it, so what fits is answered.
   */
  affordable?(texts: readonly string[]): number;
}

/** the consumer went away (it broke out of the loop or threw): nothing more is delivered */
const GONE = new InterruptedError();

/**
 * Translates `items` through `sender` and yields one event per request, in input order, each
 * followed by a progress event. The iterator waits for its consumer: the next batch is not handed
 * out (and, once the window is full, no more input is read) until the consumer asks for the next
 * event. A failed request ends the iterator with a BatchFailure (its `batch` says where); leaving
 * the loop early cancels the requests in flight.
 */
export async function* translateStream(sender: BatchSender, items: ItemInput, opts: StreamOptions): AsyncGenerator<StreamEvent, void, undefined> {
  const run = new StreamRun();
  const { queue, events } = run;
  const notify = () => events.wake();
  const pipeline = streamPipeline(sender, opts, run);

  let outcome: { error?: unknown } | undefined;
  const driver = drive(items, pipeline, opts, run.feedStop.signal, run.stopFeed, () => run.stoppedBy).then(
    () => void (outcome = {}),
    (e: unknown) => void (outcome = { error: e }),
  );
  driver.then(notify);
  try {
    for (;;) {
      const ev = queue.shift();
      if (ev) {
        yield ev;
        continue;
      }
      // everything handed out was consumed: the pipeline may deliver the next batch
      const a = run.ack;
      run.ack = undefined;
      a?.();
      if (outcome && !queue.length) {
        if ('error' in outcome) throw outcome.error;
        return;
      }
      if (!queue.length) await events.wait();
    }
  } finally {
    if (!outcome) {
      // the consumer left early: cancel what is in flight and stop reading
      run.closing = true;
      run.stopFeed(GONE);
      pipeline.cancel();
      run.ack?.();
      await driver;
    }
  }
}

/** What a stream's pipeline and its consumer share: the events handed out, the consumer's acknowledgement, the stop. */
class StreamRun {
  readonly queue: StreamEvent[] = [];
  /** resolves the delivery the consumer has taken in (the pipeline waits for it) */
  ack: (() => void) | undefined;
  readonly events = new Wakeup();
  /** the consumer left: a delivery after that ends the pipeline */
  closing = false;
  readonly totals: ProgressEvent = { type: 'progress', items: 0, requests: 0, billed: 0, unmetered: 0 };
  /** a failed pipeline stops the reading at once (a quiet pipe would otherwise hold the error until its next line) */
  readonly feedStop = new AbortController();
  stoppedBy: unknown;
  readonly stopFeed = (e: unknown) => {
    if (this.stoppedBy === undefined) this.stoppedBy = e;
    this.feedStop.abort();
  };
}

/** The requests in flight, in order: each delivery queued for the consumer, with the run's totals after it. */
function streamPipeline(sender: BatchSender, opts: StreamOptions, run: StreamRun): OrderedPipeline<Batch, BatchOutcome> {
  const keepTexts = opts.keepTexts ?? false;
  const { totals } = run;
  return new OrderedPipeline<Batch, BatchOutcome>({
    concurrency: opts.concurrency,
    onStop: run.stopFeed,
    send: (b, signal) => {
      const sent = sender.translate(b.texts, signal);
      // the request body holds the texts now: let them go at once unless asked to keep them
      // (less to keep through each round trip: measurably less GC)
      if (!keepTexts) b.texts = [];
      return sent;
    },
    deliver: (batch, outcome) => {
      if (run.closing) throw GONE;
      totals.requests++;
      if (outcome.billed === undefined) totals.unmetered++;
      else totals.billed += outcome.billed;
      totals.items = batch.first + batch.count;
      run.queue.push({ type: 'batch', batch, outcome }, { ...totals });
      run.events.wake();
      return new Promise<void>((resolve) => (run.ack = resolve));
    },
    signal: opts.signal,
  });
}

/** Feeds the items through the batcher into the pipeline and waits for every delivery. */
async function drive(
  items: ItemInput,
  pipeline: OrderedPipeline<Batch, BatchOutcome>,
  opts: StreamOptions,
  stop: AbortSignal,
  stopFeed: (e: unknown) => void,
  stoppedBy: () => unknown,
): Promise<void> {
  const batcher = new Batcher(opts.targets);
  let submitted = 0;
  const submit = async (b: Batch) => {
    submitted++;
    const fits = opts.affordable?.(b.texts) ?? b.count;
    if (fits > 0 && fits < b.count) {
      await pipeline.submit(splitBatch(b, 0, fits, opts.measure));
      b = splitBatch(b, fits, b.count, opts.measure);
    }
    return pipeline.submit(b);
  };
  // a live input: a partial batch is sent once no item came for a while (never for a regular file)
  const idle = opts.live
    ? new IdleFlush({
        delayMs: opts.flushMs ?? DEFAULT_FLUSH_MS,
        open: () => batcher.size > 0,
        flush: async () => {
          const b = batcher.take();
          if (b) await submit(b);
        },
        failed: stopFeed,
      })
    : undefined;
  try {
    let late: UsageError | undefined;
    try {
      await feedBatches(items, batcher, submit, idle, stop, opts.measure);
      idle?.stop();
      // a send the timer started goes first (it may be waiting for room)
      if (idle?.pending) await idle.pending;
      const last = batcher.take();
      if (last) await submit(last);
    } catch (e) {
      idle?.stop();
      // the input was stopped because the pipeline failed: that failure is the error
      if (e instanceof InterruptedError && stoppedBy() !== undefined && !opts.signal?.aborted) throw stoppedBy();
      // a problem found late in a stream that could not be checked first: what was sent is still delivered
      if (!(e instanceof UsageError)) throw e;
      late = e;
      if (idle?.pending) await idle.pending;
      // when something was sent already, the items up to the bad one are sent too (the output stays
      // contiguous); when nothing was, nothing is
      const open = batcher.take();
      if (submitted && open) await submit(open);
    }
    await pipeline.finish();
    if (late) throw late;
  } catch (e) {
    pipeline.cancel();
    // a delivery under way finishes before the error is handed on
    await pipeline.idle();
    throw e;
  }
}

/**
 * Feeds every item through the batcher and hands each batch to `send` as soon as it is closed,
 * waiting when `send` returns a promise. The batch still open at the end stays in the batcher.
 * With `idle` (a live input), a partial batch may also be sent by its timer: the feed then waits
 * for that send before it adds the next item. `stop` ends the reading at once (an InterruptedError),
 * even while the input is waiting for more.
 */
async function feedBatches(items: ItemInput, batcher: Batcher, send: (b: Batch) => void | Promise<void>, idle: IdleFlush | undefined, stop: AbortSignal, measure?: (texts: readonly string[]) => ArrayLike<number>): Promise<void> {
  let n = 0;
  // (the first batch sent by one call, whichever it is: a batch closed because the next text does
  // not fit is rare in some runs, and a call first made late has V8 compile the feed again)
  const sendTwo = async (a: Batch | undefined, b: Batch | undefined) => {
    await send((a ?? b)!);
    if (a && b) await send(b);
  };
  // (the open batch closed by one call, before a text that does not fit it or after one that fills
  // it: one of the two is rare in some runs, and a call first made late has V8 compile the feed again)
  const closeIf = (close: boolean) => (close ? batcher.take() : undefined);
  // (`measured`: the text's size as measure gave it with its chunk's)
  const add = (text: string, measured?: number): void | Promise<void> => {
    n++;
    const chars = countChars(text);
    const size = takes(measured, chars);
    const fits = batcher.fits(size);
    if (!fits || chars > LIMITS.maxItemChars) {
      const problem = itemProblem(chars);
      if (problem) throw new ItemTooLong(n, problem);
    }
    const before = closeIf(!fits);
    batcher.push(text, size);
    const full = closeIf(batcher.full);
    if (!full) idle?.line();
    if (!before && !full) return;
    const sending = sendTwo(before, full);
    return idle ? idle.hold(sending) : sending;
  };
  // `sizes`: what measure gave for v (a chunk is measured whole: one call, not one per text)
  const one = async (v: string | readonly string[], sizes: ArrayLike<number> | undefined) => {
    if (typeof v === 'string') {
      if (idle?.pending) await idle.pending;
      const p = add(v, sizes?.[0]);
      if (p) await p;
      return;
    }
    for (let i = 0; i < v.length; i++) {
      if (idle?.pending) await idle.pending;
      const p = add(v[i], sizes?.[i]);
      if (p) await p;
    }
  };
  const sized = (v: string | readonly string[]) => (measure ? measure(typeof v === 'string' ? [v] : v) : undefined);
  await eachValue(items, stop, (v) => one(v, sized(v)));
}

/**
 * Hands each value of `items` to `each` in turn, waiting for it. `stop` ends the reading at once
 * (an InterruptedError), even while the input is waiting for more; a source left early is closed.
 */
async function eachValue<T>(items: Iterable<T> | AsyncIterable<T>, stop: AbortSignal, each: (v: T) => Promise<void>): Promise<void> {
  if (!(Symbol.asyncIterator in items)) {
    for (const v of items) await each(v);
    return;
  }
  const it = items[Symbol.asyncIterator]();
  const next = () => nextOrStop(it, stop);
  let waiting = false;
  let done = false;
  try {
    for (;;) {
      waiting = true;
      const r = await next();
      waiting = false;
      if (r.done) {
        done = true;
        return;
      }
      await each(r.value);
    }
  } finally {
    // a source left early is closed (unless a read is still pending: its owner ends it)
    if (!done && !waiting) void Promise.resolve(it.return?.()).catch(() => undefined);
  }
}

/**
 * The next read of `it`, or an InterruptedError as soon as `stop` fires, also while the input is
 * waiting for more (a listener per read, removed after it: a Promise.race against one long-lived
 * promise would keep every chunk read alive). The read left pending is its source's to end.
 */
export function nextOrStop<T>(it: AsyncIterator<T>, stop: AbortSignal): Promise<IteratorResult<T>> {
  return new Promise<IteratorResult<T>>((resolve, reject) => {
    if (stop.aborted) return reject(new InterruptedError());
    const interrupted = () => reject(new InterruptedError());
    stop.addEventListener('abort', interrupted, { once: true });
    const settle = () => stop.removeEventListener('abort', interrupted);
    it.next().then(
      (r) => (settle(), resolve(r)),
      (e: unknown) => (settle(), reject(e)),
    );
  });
}

/** The texts `from` to `to` (exclusive) of a batch, as a batch of their own. */
function splitBatch(b: Batch, from: number, to: number, measure?: (texts: readonly string[]) => ArrayLike<number>): Batch {
  const texts = b.texts.slice(from, to);
  const sizes = measure?.(texts);
  let chars = 0;
  for (let i = 0; i < texts.length; i++) chars += takes(sizes?.[i], countChars(texts[i]));
  return { texts, count: texts.length, chars, first: b.first + from, seq: b.seq };
}

/** --dry-run: the request of every batch, in order, nothing sent. */
export async function planTranslation(client: { plan(texts: readonly string[]): void }, items: ItemInput, targets: number): Promise<void> {
  const batcher = new Batcher(targets);
  const never = new AbortController();
  await feedBatches(items, batcher, (b) => client.plan(b.texts), undefined, never.signal);
  const last = batcher.take();
  if (last) client.plan(last.texts);
}
