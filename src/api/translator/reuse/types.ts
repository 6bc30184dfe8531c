// The shapes of the pay-once layer (run.ts): what goes in (the inner stream, the options), what
// comes out (events of answered items, the run's counts), and the slot each distinct text of the
// run has while the run needs it.
import type { TranslateResult } from '../../../model/translator.js';
import type { TranslationMemory } from '../memory/index.js';
import type { Spill } from '../spill/spill.js';
import type { Held } from './held.js';

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

/** The items: texts one at a time or in arrays (an array per chunk read costs one await, not one per text). */
export type ReuseInput = AsyncIterable<string | readonly string[]> | Iterable<string | readonly string[]>;

export interface ReuseOptions {
  /** the memory, with the options ids of the run's targets (see TranslationMemory.idsFor) */
  memory?: { store: TranslationMemory; ids: string[] };
  /**
   * the inner stream for some of the targets (indexes in --to order): a text the memory holds for
   * some targets only is sent for the others alone. Without it such a text is sent for every target.
   */
  partial?: (targets: readonly number[]) => InnerStream;
  /**
   * where the distinct texts that leave the run's memory budget go (their answers with them), so
   * that none is paid for twice however long the input; without it nothing leaves (a short input)
   */
  spill?: Spill;
  /** the bytes of heap the distinct texts and their answers may take, about (default BUDGET) */
  budget?: number;
  /** input items that may wait for their answer (default MAX_PENDING) */
  maxPending?: number;
  /** items per event at most (default 1,000) */
  chunk?: number;
  /** how long a text another run holds is waited for between two looks (ms; default POLL_MS) */
  pollMs?: number;
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
  /** distinct texts another run was translating: its answer was waited for (counted in memoryHits when it came) */
  waited?: number;
}

/** A distinct text of the run while the run holds it in memory. */
export interface Slot {
  text: string;
  /** its answer, once in, as the run holds it (held.ts) */
  result?: Held;
  /** 1-based input item that first had it */
  item: number;
  /** what the memory holds of it, per target, while the missing targets are out (see Lane) */
  parts?: (TranslateResult | undefined)[];
  /** the generation of the run's texts that holds it (texts.ts) */
  gen: number;
  /** the heap it takes, about (bytes, texts.ts) */
  size: number;
  /** it came from the spill (it is there already) */
  spilled?: boolean;
  /** another run holds it: its answer is waited for */
  waiting?: boolean;
}

/**
 * A slot of a class, with every field it will have (one shape for all: no property added later).
 * Not an object literal: V8 counts the objects a literal makes, and when enough of them outlive a
 * collection (a run's slots do) it throws away the code that makes them, mid-run, to make them in
 * the old generation; an instance of a class is not counted so.
 */
class RunSlot implements Slot {
  parts: (TranslateResult | undefined)[] | undefined = undefined;
  gen = 0;
  size = 0;
  spilled = false;
  waiting = false;
  constructor(
    readonly text: string,
    public result: Held | undefined,
    public item: number,
  ) {}
}

export function newSlot(text: string, item: number, result?: Held): Slot {
  return new RunSlot(text, result, item);
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
