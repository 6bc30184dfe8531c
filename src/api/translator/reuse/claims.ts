// What the memory says of the texts new to a run, and the texts another run is translating. A run
// that sends a text claims it in the memory first (memory/claims.ts, store.ts's contract): a run
// that needs a text another one holds waits for that run's answer (looking again now and then)
// instead of paying for it again, and takes the text over once the other's lease ran out (it died).
import type { Claimed, TranslationMemory } from '../memory/index.js';
import type { Slot } from './types.js';

/** the first wait before a held text is asked for again; it doubles up to POLL_MAX_MS while nothing comes */
export const POLL_MS = 50;
const POLL_MAX_MS = 1000;

export interface RunMemory {
  store: TranslationMemory;
  ids: string[];
}

/**
 * What the memory holds of each of `texts` (new to the run), each text it lacks claimed for this
 * run: the whole result; the stored parts and the missing targets, which this run now holds and
 * sends; or 'held' (another run is translating it). `look` first looks (a read: a rerun takes no
 * write lock) and claims only what is missing; a memory that was empty when the run opened it
 * holds nothing another run did not store meanwhile, which the claim answers as well.
 */
export async function claimTexts(memory: RunMemory, texts: readonly string[], look: boolean): Promise<Claimed[]> {
  if (!look) return memory.store.claim(memory.ids, texts);
  const found = await memory.store.lookupMany(memory.ids, texts);
  const out: Claimed[] = new Array<Claimed>(texts.length);
  const ask: string[] = [];
  const at: number[] = [];
  found.forEach((result, i) => {
    if (result) out[i] = { result };
    else {
      ask.push(texts[i]);
      at.push(i);
    }
  });
  if (ask.length) (await memory.store.claim(memory.ids, ask)).forEach((c, j) => (out[at[j]] = c));
  return out;
}

/**
 * The texts another run holds: asked for again after a wait that doubles while nothing comes;
 * each answer (or a claim taken over) goes to `settle`. The timer keeps the process alive: the
 * run waits for it.
 */
export class Waiting {
  private slots: Slot[] = [];
  private timer?: NodeJS.Timeout;
  private looking = false;
  private delay: number;

  constructor(
    private readonly memory: RunMemory,
    private readonly run: {
      /** a text's answer came, or this run took it over */
      settle(slot: Slot, c: Exclude<Claimed, 'held'>): void;
      failed(error: unknown): void;
      /** nothing is waited for any more */
      idle(): void;
    },
    private readonly pollMs = POLL_MS,
  ) {
    this.delay = pollMs;
  }

  /** whether a text is waited for (or being asked for) */
  get busy(): boolean {
    return this.slots.length > 0 || this.looking;
  }

  add(slot: Slot): void {
    slot.waiting = true;
    this.slots.push(slot);
    this.arm();
  }

  private arm(): void {
    if (this.timer || this.looking || !this.slots.length) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.look();
    }, this.delay);
  }

  private async look(): Promise<void> {
    this.looking = true;
    const slots = this.slots;
    this.slots = [];
    try {
      const states = await this.memory.store.claim(
        this.memory.ids,
        slots.map((s) => s.text),
      );
      let settled = false;
      states.forEach((c, i) => {
        if (c === 'held') return void this.slots.push(slots[i]);
        slots[i].waiting = false;
        settled = true;
        this.run.settle(slots[i], c);
      });
      this.delay = settled ? this.pollMs : Math.min(POLL_MAX_MS, this.delay * 2);
    } catch (e) {
      this.slots.length = 0;
      this.looking = false;
      this.run.failed(e);
      return;
    }
    this.looking = false;
    if (this.slots.length) this.arm();
    else this.run.idle();
  }

  /** No more looks (the run ends). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.slots.length = 0;
  }
}
