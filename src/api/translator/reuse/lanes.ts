// The lanes of a run: one inner stream each and the slots it was given, in order. The main lane
// sends to every target; with several targets, a text the memory holds for some targets goes to
// the lane of the others (one per set of missing targets, made when first needed), and its result
// is put together from the stored parts and that answer, so that no target is paid for twice.
import { Wakeup } from '../../../core/wakeup.js';
import type { TranslateResult } from '../../../model/translator.js';
import { completeResult, type TranslationMemory } from '../memory/index.js';
import { ItemTooLong } from '../stream.js';
import type { InnerBatch, InnerStream, Slot } from './types.js';

export interface Lane {
  /** the targets it sends (indexes in --to order); undefined: every target */
  targets?: number[];
  /** the memory ids of those targets; undefined: every target's */
  ids?: string[];
  /** the slots given to its stream and not yet answered (from `head` on), `base` the stream's index of sent[0] */
  sent: Slot[];
  head: number;
  base: number;
  /** texts for its stream, not yet taken */
  pending: string[];
  wake: Wakeup;
  task?: Promise<void>;
}

export function newLane(targets?: number[], ids?: string[]): Lane {
  return { targets, ids, sent: [], head: 0, base: 0, pending: [], wake: new Wakeup() };
}

/** What a lane's stream needs of its run. */
export interface LaneHost {
  readonly memory?: { store: TranslationMemory; ids: string[] };
  /** no more texts will come (the input is read, or the run stops) */
  readonly ended: boolean;
  /** the run stops: a stream hands on nothing more */
  readonly stopping: boolean;
  /** answers came: the consumer may hand more out */
  answered(): void;
  /** `result` is the answer of `slot` (held as the run holds answers, held.ts) */
  answer(slot: Slot, result: TranslateResult): void;
  /** the lane's stream failed */
  failed(error: unknown): void;
}

/** Gives `text` of `slot` to the lane. */
export function give(lane: Lane, slot: Slot): void {
  lane.sent.push(slot);
  lane.pending.push(slot.text);
  lane.wake.wake();
}

/** A lane's texts, as its stream takes them: what was given since it last took, until no more come. */
async function* laneTexts(lane: Lane, host: LaneHost): AsyncGenerator<readonly string[]> {
  for (;;) {
    if (lane.pending.length && !host.stopping) {
      const taken = lane.pending;
      lane.pending = [];
      yield taken;
      continue;
    }
    if (host.ended || host.stopping) return;
    await lane.wake.wait();
  }
}

/** Runs a lane's stream: each answer goes to its slots (with the stored parts) and into the memory. */
export async function drive(lane: Lane, inner: InnerStream, host: LaneHost): Promise<void> {
  try {
    for await (const ev of inner(laneTexts(lane, host), (i) => lane.sent[i - lane.base]?.item)) {
      if (ev.type !== 'batch') continue;
      await answer(lane, ev as InnerBatch, host);
      host.answered();
    }
  } catch (e) {
    // an item the inner stream found too long is named by its input item
    host.failed(e instanceof ItemTooLong ? new ItemTooLong(lane.sent[e.index - 1 - lane.base]?.item ?? e.index, e.problem) : e);
  }
}

async function answer(lane: Lane, b: InnerBatch, host: LaneHost): Promise<void> {
  const memory = host.memory;
  const ids = lane.ids ?? memory?.ids;
  for (let i = 0; i < b.batch.count; i++) {
    const slot = lane.sent[b.batch.first + i - lane.base];
    const result = b.outcome.results[i];
    if (slot.parts) {
      const parts = slot.parts;
      slot.parts = undefined;
      host.answer(slot, completeResult(parts, lane.targets!, result));
    } else host.answer(slot, result);
    if (memory) memory.store.store(ids!, slot.text, result);
  }
  // each answered batch is committed as one transaction while the run goes on (what waits for its
  // commit stays bounded: one batch, and the commit before it)
  if (memory) await memory.store.commit();
  // the answered slots leave the lane
  lane.head = b.batch.first + b.batch.count - lane.base;
  if (lane.head > 1024 && lane.head * 2 > lane.sent.length) {
    lane.sent.splice(0, lane.head);
    lane.base += lane.head;
    lane.head = 0;
  }
}
