// What a run would send, without sending anything (--estimate, --dry-run): the same distinct
// texts (texts.ts: in memory, then in the spill, so the count is exact at any size with bounded
// memory) and the same memory lookups as the run, every text counting as answered at once.
import { countChars } from '../../../model/translator.js';
import { itemProblem } from '../batcher.js';
import { ItemTooLong } from '../stream.js';
import { ANSWERED, BUDGET, RunTexts } from './texts.js';
import { newSlot, type ReuseInput, type ReuseOptions, type ReuseTotals, type Slot } from './types.js';

export interface ReuseEstimate extends ReuseTotals {
  /** characters of the distinct texts that would be sent (not multiplied by the targets) */
  chars: number;
  /** what the memory saves of texts it holds for some targets (partialHits): characters x the targets it holds */
  partialSaved?: number;
  /** billed characters a client adds to the texts it sends (a glossary's markup), when it adds any */
  markup?: number;
}

/** An estimate that has counted nothing yet. */
export function newEstimate(): ReuseEstimate {
  return { items: 0, sent: 0, memoryHits: 0, duplicates: 0, chars: 0 };
}

/** texts the memory is asked about at once, at most */
const SLICE = 2048;

export type EstimateOptions = Pick<ReuseOptions, 'memory' | 'spill' | 'budget'> & {
  /** the number of targets: a text no request to them can carry ends the estimate with an ItemTooLong */
  targets?: number;
};

/** A text the run would send to every target, and its input item (1-based). */
export interface Miss {
  text: string;
  item: number;
}

/**
 * The texts a run would send to every target, in order, nothing sent; `est` counts as it goes.
 * A text the memory holds for some targets goes to `partial` with the targets it lacks. With
 * `targets`, a text no request to them can carry ends it with an ItemTooLong naming its input
 * item, as the run would (a pipe's lines are checked only as they are read).
 */
export async function* reuseMisses(items: ReuseInput, opts: EstimateOptions = {}, est: ReuseEstimate = newEstimate(), partial?: (text: string, missing: readonly number[], item: number) => void): AsyncGenerator<Miss> {
  const texts = new RunTexts(opts.budget ?? BUDGET, opts.spill, false);
  for await (const v of items as AsyncIterable<string | readonly string[]>) {
    const chunk = typeof v === 'string' ? [v] : v;
    for (let at = 0; at < chunk.length; at += SLICE) {
      const fresh: Slot[] = [];
      for (let i = at; i < Math.min(chunk.length, at + SLICE); i++) {
        const text = chunk[i];
        const item = ++est.items;
        if (texts.get(text) ?? texts.fromSpill(text, item)) est.duplicates++;
        else {
          const slot = newSlot(text, item, ANSWERED);
          texts.add(text, slot);
          fresh.push(slot);
        }
        if (texts.full) texts.rotate();
      }
      yield* counted(fresh, opts, est, partial);
    }
  }
}

/** The texts new to the run, looked up in the memory and counted: those sent to every target, in order. */
async function* counted(fresh: Slot[], opts: EstimateOptions, est: ReuseEstimate, partial?: (text: string, missing: readonly number[], item: number) => void): AsyncGenerator<Miss> {
  const memory = opts.memory;
  const found = memory && fresh.length ? await memory.store.recall(memory.ids, fresh.map((s) => s.text), memory.ids.length > 1) : [];
  for (let i = 0; i < fresh.length; i++) {
    const { text, item } = fresh[i];
    const f = found[i];
    if (f && 'result' in f) {
      est.memoryHits++;
      continue;
    }
    const chars = countChars(text);
    const problem = opts.targets !== undefined && itemProblem(chars);
    if (problem) throw new ItemTooLong(item, problem);
    est.sent++;
    est.chars += chars;
    if (f) {
      est.partialHits = (est.partialHits ?? 0) + 1;
      est.partialSaved = (est.partialSaved ?? 0) + chars * (f.parts.length - f.missing.length);
      partial?.(text, f.missing, item);
      continue;
    }
    yield { text, item };
  }
}

/** What a run would send: counts only (see reuseMisses). */
export async function estimateReuse(items: ReuseInput, opts: EstimateOptions = {}): Promise<ReuseEstimate> {
  const est = newEstimate();
  for await (const _ of reuseMisses(items, opts, est)) void _;
  return est;
}
