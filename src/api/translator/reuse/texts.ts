// The distinct texts of a run, each once: in memory while they fit the run's budget, on disk (the
// run's spill) once they no longer do, so that a text seen again at any distance is answered by
// its first answer instead of being paid for again.
//
// In memory, one map of slots, each marked with the generation that last saw it: one lookup per
// line. A text seen again is marked with the current generation (a text that keeps coming back
// stays in memory); when the texts of the current generation take its part of the budget, a new
// one begins, and the texts none of the generations in memory saw go: the answered ones to the
// spill in one batch (and out of the map), the ones still out (sent, waited for) are kept. What a
// text takes is counted in each generation that saw it (never less than it takes). Without a spill
// nothing goes (an input too short to need one).
import type { TranslateResult } from '../../../model/translator.js';
import type { Spill } from '../spill/spill.js';
import { ARRAY, heldBytes, Holder, textBytes } from './held.js';
import { newSlot, type Slot } from './types.js';

/**
 * the heap the distinct texts of a run and their answers may take, about (~40,000 short lines to
 * two targets): with what a run holds besides, a million-line run peaks at ~125 MB of RSS
 */
export const BUDGET = 16 * 1024 * 1024;
/**
 * the generations in memory, each of a third of the budget: a text is let go once two generations
 * passed without it. Smaller generations spill fewer texts for the same budget, but a text seen in
 * several of them is counted in each (measured: 100,000 realistic lines to one target spill 10,631
 * texts with three, 16,533 with two, 15,435 with four; 1,000,000 lines to two targets read 4,857
 * back with three, 6,172 with two, 4,580 with four)
 */
const GENERATIONS = 3;
/**
 * a slot, its map entry and the text's own copy (a slice of a flat string of its own, see own),
 * beside the copy's characters, about (bytes). Measured with the heap, 42,014 realistic texts of 44
 * characters take 287 bytes each with their answers to one target (held as strings), 421 to two
 * (an array of strings), 352 to one with a detected language; this count says 287, 423 and 375.
 */
const ENTRY = 160;
/** a string's header, and its characters' rounding to 8 bytes, about (bytes, beside its characters) */
const PER_TEXT = 24;

/**
 * Whether the distinct texts of `items` items of `units` UTF-16 units in all (to `targets`
 * targets) surely fit the budget: such a run never spills (and needs no spill directory). Each
 * answer counts as held in its common shape (held.ts), its characters as two bytes each.
 */
export function fitsBudget(items: number, units: number, targets: number, budget = BUDGET): boolean {
  return items * (ENTRY + PER_TEXT * (1 + targets) + (targets > 1 ? ARRAY + 8 * targets : 0)) + units * 2 * (1 + targets) <= budget / 2;
}

export class RunTexts {
  /** every text the run holds in memory, each slot with the generation that last touched it */
  private slots = new Map<string, Slot>();
  private gen = 1;
  /**
   * what the texts that came in this generation (new, or seen again) take, about (bytes); the
   * texts still out that a rotation keeps are not counted again (they are items waiting for their
   * answer: maxPending at most), else they could fill a generation alone and each text read would
   * begin another
   */
  private used = 0;
  private readonly part: number;

  constructor(
    budget: number,
    private readonly spill?: Spill,
    /** an estimate's texts have no answers: spilled as texts alone */
    private readonly answers = true,
    /** how the run holds its answers (spilled whole, held again when read back) */
    private readonly holder = new Holder(),
  ) {
    this.part = budget / GENERATIONS;
  }

  /** The slot of `text`, if the run holds it in memory. */
  get(text: string): Slot | undefined {
    const s = this.slots.get(text);
    if (s !== undefined && s.gen !== this.gen) this.touch(s);
    return s;
  }

  /**
   * The slot of a text the run spilled (its answer read back, in memory again), or undefined when
   * the run never had it.
   */
  fromSpill(text: string, item: number): Slot | undefined {
    if (!this.spill?.count || !this.spill.mayHold(text)) return undefined;
    const found = this.spill.get(text);
    if (!found) return undefined;
    const slot = newSlot(text, item, found.result && this.answers ? this.holder.hold(found.result) : ANSWERED);
    slot.spilled = true;
    this.add(text, slot);
    return slot;
  }

  /** Holds a text new to the run (`slot.text` becomes a copy of its own, see own). */
  add(text: string, slot: Slot): void {
    slot.text = own(text);
    slot.size = ENTRY + textBytes(slot.text) + (this.answers && slot.result !== undefined ? heldBytes(slot.result) : 0);
    this.slots.set(slot.text, slot);
    this.touch(slot);
  }

  /** The answer of a text the run holds, as the run holds it (held.ts), counted in this generation. */
  answer(slot: Slot, result: TranslateResult): void {
    const held = this.holder.hold(result);
    const bytes = heldBytes(held);
    slot.result = held;
    slot.size += bytes;
    this.used += bytes;
  }

  /** The slot belongs to this generation (it stays in memory at the next rotation). */
  private touch(slot: Slot): void {
    slot.gen = this.gen;
    this.used += slot.size;
  }

  /** Whether this generation's texts take its part of the budget: a new generation should begin (see rotate). */
  get full(): boolean {
    return this.spill !== undefined && this.used >= this.part;
  }

  /**
   * Begins a new generation, and lets go of the texts no generation in memory saw (the oldest one
   * goes): the answered ones to the spill (one batch), those still out are kept.
   */
  rotate(): void {
    const oldest = this.gen - GENERATIONS + 1;
    this.gen++;
    this.used = 0;
    if (oldest < 1) return;
    const texts: string[] = [];
    const results: (TranslateResult | undefined)[] = [];
    for (const [text, slot] of this.slots) {
      if (slot.gen > oldest) continue;
      if (slot.result === undefined || slot.parts !== undefined || slot.waiting) {
        slot.gen = this.gen;
        continue;
      }
      if (!slot.spilled) {
        texts.push(text);
        if (this.answers) results.push(this.holder.result(slot.result));
      }
      this.slots.delete(text);
    }
    if (texts.length) this.spill!.add(texts, this.answers ? results : undefined);
  }
}

/**
 * A copy of `text` that holds nothing else: a line read from the input is a slice of the chunk it
 * was read in (64 kB), and a text kept for the rest of the run would keep its whole chunk (16 MB
 * held by 60,000 texts). Joining it to a character flattens it into a string of its own, which
 * the slice then refers to.
 */
function own(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** the answer of an estimate's text read back from the spill (it has none: it counts) */
export const ANSWERED: TranslateResult = { translations: [] };
