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
//
// With several targets the memory may hold a text for some of them only (a language added to a
// run that went before): such a text goes, with `partial`, to an inner stream for the missing
// targets alone (one per set of missing targets, made when first needed), and its result is put
// together from the stored parts and that answer, so no target is paid for twice.
import { countChars, type TranslateResult } from '../../model/translator.js';
import { UsageError } from '../../core/errors.js';
import { Wakeup } from '../../core/wakeup.js';
import { completeResult, type Recall, type TranslationMemory } from './memory/index.js';
import { itemProblem } from './batcher.js';
import { ItemTooLong } from './stream.js';
import { Generations } from './window.js';

/**
 * distinct texts remembered for dedupe at least (up to twice as many), with their answers (about
 * 2 MB of heap for short lines); 4,000 keeps each generation's Map under V8's 128 KB large-object
 * size (a larger one is freed only by a full GC)
 */
export const WINDOW = 4_000;
/** input items read ahead of the consumer at most */
export const MAX_PENDING = 10_000;
/** what an estimate with a memory remembers as stored by the run, at most: texts, and their UTF-16 units (~80 MB of heap) */
const ESTIMATE_STORED = { texts: 1_000_000, units: 32_000_000 };

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
  /**
   * the inner stream for some of the targets (indexes in --to order): a text the memory holds for
   * some targets only is sent for the others alone. Without it such a text is sent for every target.
   */
  partial?: (targets: readonly number[]) => InnerStream;
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
  /** distinct texts the memory held for some targets: sent for the others only (counted in `sent` too) */
  partialHits?: number;
}

interface Slot {
  text: string;
  result?: TranslateResult;
  /** 1-based input item that first sent it */
  item: number;
  /** what the memory holds of it, per target, while the missing targets are out (see Lane) */
  parts?: (TranslateResult | undefined)[];
}

/** One inner stream and the slots it was given, in order (`base` is the index of sent[0]). */
interface Lane {
  /** the targets it sends (indexes in --to order); undefined: every target */
  targets?: number[];
  /** the memory ids of those targets */
  ids?: string[];
  sent: Slot[];
  head: number;
  base: number;
  /** texts read for it and not yet taken by its stream (partial lanes: the main lane is pulled) */
  pending: string[];
  wake: Wakeup;
  task?: Promise<void>;
}

const newLane = (targets?: number[], ids?: string[]): Lane => ({ targets, ids, sent: [], head: 0, base: 0, pending: [], wake: new Wakeup() });

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
  // a text stored for some targets goes to a lane of the others (only with several targets)
  const partial = memory && memory.ids.length > 1 ? opts.partial : undefined;
  /** the distinct texts of the window with their slots: the newest generation, and the one before */
  const seen = new Generations<Slot>(windowSize);
  /** input items waiting to be handed out, in order */
  const lines: Slot[] = [];
  let head = 0;
  /** the lane of every target (its stream pulls the texts from the reader), and those of some targets */
  const main = newLane();
  const lanes = new Map<string, Lane>();
  let emitted = 0;
  let readCount = 0;

  // one waiter each: the consumer waiting for answers, the reader waiting for room
  const answers = new Wakeup();
  const space = new Wakeup();
  const notify = () => answers.wake();
  const room = () => space.wake();
  const wakeLanes = () => {
    for (const l of lanes.values()) l.wake.wake();
  };
  let failed: { error: unknown } | undefined;
  let inputError: { error: unknown } | undefined;
  let innerDone = false;
  let readerDone = false;
  let closing = false;

  /** the lane of the texts missing `targets` (made, with its stream, when first needed) */
  const laneFor = (targets: number[]): Lane => {
    const key = targets.join(',');
    let lane = lanes.get(key);
    if (!lane) {
      const l = newLane(
        targets,
        targets.map((k) => memory!.ids[k]),
      );
      l.task = drive(l, partial!(targets), laneTexts(l));
      lanes.set(key, (lane = l));
    }
    return lane;
  };

  /** a partial lane's texts: what the reader left for it, until the reader is done */
  async function* laneTexts(lane: Lane): AsyncGenerator<readonly string[]> {
    for (;;) {
      if (lane.pending.length && !closing && !failed) {
        const give = lane.pending;
        lane.pending = [];
        yield give;
        continue;
      }
      if (readerDone || closing || failed) return;
      await lane.wake.wait();
    }
  }

  /**
   * the texts the main lane sends: distinct misses, read from the input as it asks, handed on
   * as one array per chunk read (one await per chunk instead of one per text)
   */
  async function* misses(): AsyncGenerator<readonly string[]> {
    let out: string[] = [];
    try {
      for await (const { chunk, recalled: found } of withRecall(items, memory, seen, partial !== undefined)) {
        for (let c = 0; c < chunk.length; c++) {
          const text = chunk[c];
          if (closing) return;
          readCount++;
          let slot = seen.get(text);
          let lane = main;
          if (slot) {
            totals.duplicates++;
          } else {
            slot = { text, item: readCount };
            const f = memory && found![c];
            // (no await per line: only a text the window let go of within the slice is asked for alone)
            const r = f === UNASKED ? await recallOne(memory!, text, partial !== undefined) : f;
            if (r && 'result' in r) {
              slot.result = r.result;
              totals.memoryHits++;
            } else if (r) {
              slot.parts = r.parts;
              lane = laneFor(r.missing);
              totals.partialHits = (totals.partialHits ?? 0) + 1;
            }
            seen.set(text, slot);
          }
          lines.push(slot);
          if (!slot.result && slot.item === readCount) {
            lane.sent.push(slot);
            totals.sent++;
            if (lane === main) out.push(text);
            else {
              lane.pending.push(text);
              lane.wake.wake();
            }
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
    } finally {
      readerDone = true;
      wakeLanes();
    }
  }

  /** Runs a lane's stream: each answer goes to its slots (with the stored parts), into the memory, and the consumer is told. */
  async function drive(lane: Lane, inner: InnerStream, texts: AsyncIterable<readonly string[]>): Promise<void> {
    try {
      for await (const ev of inner(texts, (i) => lane.sent[i - lane.base]?.item)) {
        if (ev.type !== 'batch') continue;
        const b = ev as InnerBatch;
        const ids = lane.ids ?? memory?.ids;
        for (let i = 0; i < b.batch.count; i++) {
          const slot = lane.sent[b.batch.first + i - lane.base];
          const result = b.outcome.results[i];
          if (slot.parts) {
            slot.result = completeResult(slot.parts, lane.targets!, result);
            slot.parts = undefined;
          } else slot.result = result;
          if (memory) memory.store.store(ids!, slot.text, result);
        }
        // each answered batch is committed as one transaction while the run goes on (what waits
        // for its commit stays bounded: one batch, and the commit before it)
        if (memory) await memory.store.commit();
        // the answered slots leave the in-flight list
        lane.head = b.batch.first + b.batch.count - lane.base;
        if (lane.head > 1024 && lane.head * 2 > lane.sent.length) {
          lane.sent.splice(0, lane.head);
          lane.base += lane.head;
          lane.head = 0;
        }
        notify();
      }
    } catch (e) {
      // an item the inner stream found too long is named by its input item
      failed ??= { error: e instanceof ItemTooLong ? new ItemTooLong(lane.sent[e.index - 1 - lane.base]?.item ?? e.index, e.problem) : e };
      wakeLanes();
      notify();
    }
  }

  const innerTask = (async () => {
    try {
      await drive(main, inner, misses());
    } finally {
      // the reader is done (or the run stops): the lanes send what they were given and end
      readerDone ||= Boolean(failed) || closing;
      wakeLanes();
      await Promise.all([...lanes.values()].map((l) => l.task));
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
    wakeLanes();
    await innerTask;
  }
}

export interface ReuseEstimate extends ReuseTotals {
  /** characters of the distinct texts that would be sent (not multiplied by the targets) */
  chars: number;
  /** what the memory saves of texts it holds for some targets (partialHits): characters x the targets it holds */
  partialSaved?: number;
}

/** texts the memory is asked for at once, at most */
const RECALL_SLICE = 2048;

/** `texts` in pieces of RECALL_SLICE at most */
function* slices(texts: readonly string[]): Generator<readonly string[]> {
  if (texts.length <= RECALL_SLICE) yield texts;
  else for (let i = 0; i < texts.length; i += RECALL_SLICE) yield texts.slice(i, i + RECALL_SLICE);
}

/**
 * What the memory holds of each distinct text of `texts` the window does not hold, in one lookup:
 * the whole result, or (with `parts`, for several targets) the parts of some targets and which are
 * missing; undefined when it has nothing to give.
 */
/** what recallSlice answers for a text it did not ask the memory for (the window held it) */
const UNASKED = 'unasked';

/** The input in slices (RECALL_SLICE texts at most), each with what the memory holds of its texts (see recallSlice). */
async function* withRecall(
  items: AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>,
  memory: ReuseOptions['memory'],
  seen: Generations<unknown>,
  parts: boolean,
): AsyncGenerator<{ chunk: readonly string[]; recalled?: (Recall | undefined | typeof UNASKED)[] }> {
  for await (const v of items as AsyncIterable<string | readonly string[]>) {
    for (const chunk of slices(typeof v === 'string' ? [v] : v)) yield { chunk, recalled: memory && (await recallSlice(memory, chunk, seen, parts)) };
  }
}

/**
 * What the memory holds of each text of `texts` (by position) the window does not hold, in one
 * lookup: the whole result, or (with `parts`, for several targets) the parts of some targets and
 * which are missing; undefined when it has nothing to give; UNASKED for a text the window held.
 */
async function recallSlice(memory: NonNullable<ReuseOptions['memory']>, texts: readonly string[], seen: Generations<unknown>, parts: boolean): Promise<(Recall | undefined | typeof UNASKED)[]> {
  const out = new Array<Recall | undefined | typeof UNASKED>(texts.length).fill(UNASKED);
  const ask: string[] = [];
  const at: number[] = [];
  for (let i = 0; i < texts.length; i++) {
    if (seen.get(texts[i])) continue;
    ask.push(texts[i]);
    at.push(i);
  }
  if (!ask.length) return out;
  const found = await memory.store.recall(memory.ids, ask, parts && memory.ids.length > 1);
  for (let j = 0; j < at.length; j++) out[at[j]] = found[j];
  return out;
}

/** What the memory holds of one text recallSlice did not ask for (the window let go of it since). */
async function recallOne(memory: NonNullable<ReuseOptions['memory']>, text: string, parts: boolean): Promise<Recall | undefined> {
  return (await memory.store.recall(memory.ids, [text], parts && memory.ids.length > 1))[0];
}

/**
 * The texts a run would send, in order, without sending anything: the same window and memory
 * lookups as translateReusing (every text counts as answered at once); `est` counts as it goes.
 * With `targets`, a text no request to them can carry ends it with an ItemTooLong naming its
 * input item, as the run would (a pipe's lines are checked only as they are read).
 * For --estimate and --dry-run.
 */
export async function* reuseMisses(
  items: AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>,
  opts: Pick<ReuseOptions, 'memory' | 'window'> & { targets?: number } = {},
  est: ReuseEstimate = newEstimate(),
  partial?: (text: string, missing: readonly number[]) => void,
): AsyncGenerator<string> {
  const windowSize = opts.window ?? WINDOW;
  const seen = new Generations<true>(windowSize);
  const memory = opts.memory;
  // the run stores what it sends: with a memory, a text back after it left the window is a hit
  // (so the distinct texts counted as sent are kept here, ESTIMATE_STORED at most: past that, the
  // count is an upper bound)
  const stored = memory && new Set<string>();
  let storedUnits = 0;
  for await (const { chunk, recalled: inMemory } of withRecall(items, memory, seen, true)) {
    for (let c = 0; c < chunk.length; c++) {
      const text = chunk[c];
      est.items++;
      if (seen.get(text)) {
        est.duplicates++;
        continue;
      }
      seen.set(text, true);
      if (stored?.has(text)) {
        est.memoryHits++;
        continue;
      }
      const f = memory && inMemory![c];
      const found = f === UNASKED ? await recallOne(memory!, text, true) : f;
      if (found && 'result' in found) {
        est.memoryHits++;
        continue;
      }
      const chars = countChars(text);
      const problem = opts.targets !== undefined && itemProblem(chars);
      if (problem) throw new ItemTooLong(est.items, problem);
      if (stored && stored.size < ESTIMATE_STORED.texts && storedUnits < ESTIMATE_STORED.units) {
        stored.add(text);
        storedUnits += text.length;
      }
      est.sent++;
      est.chars += chars;
      if (found) {
        est.partialHits = (est.partialHits ?? 0) + 1;
        est.partialSaved = (est.partialSaved ?? 0) + chars * (found.parts.length - found.missing.length);
        partial?.(text, found.missing);
        continue;
      }
      yield text;
    }
  }
}

/** An estimate that has counted nothing yet. */
export function newEstimate(): ReuseEstimate {
  return { items: 0, sent: 0, memoryHits: 0, duplicates: 0, chars: 0 };
}

/** What a run would send: counts only (see reuseMisses). */
export async function estimateReuse(
  items: AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>,
  opts: Pick<ReuseOptions, 'memory' | 'window'> & { targets?: number } = {},
): Promise<ReuseEstimate> {
  const est = newEstimate();
  for await (const _ of reuseMisses(items, opts, est)) void _;
  return est;
}
