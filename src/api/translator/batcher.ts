// Groups items into requests that respect every limit of the service: at most 1,000 items and at
// most 50,000 characters counted across all targets (characters x number of `to`). The driver asks
// `fits` before `push` and sends whatever `take` gives; a batch is handed out as soon as it is full.
import { LIMITS } from '../../model/translator.js';

export interface Limits {
  maxItems: number;
  maxItemChars: number;
  maxRequestChars: number;
}

export interface Batch {
  /** the texts, in input order (a caller that needs them no longer after sending may empty it) */
  texts: string[];
  /** the number of texts */
  count: number;
  /** characters of all texts (not multiplied by the targets) */
  chars: number;
  /** 0-based index of the first item in the whole input */
  first: number;
  /** sequence number of the batch, from 0 */
  seq: number;
}

/**
 * Why an item of `chars` characters can never be sent, or undefined when it can: longer than one
 * item may be. (An item whose characters x targets are more than one request may count goes alone,
 * in one request per group of targets that fits: see TranslatorClient.)
 */
export function itemProblem(chars: number, limits: Limits = LIMITS): string | undefined {
  if (chars > limits.maxItemChars) {
    return `${fmt(chars)} characters; one item may have at most ${fmt(limits.maxItemChars)}`;
  }
  return undefined;
}

export function fmt(n: number): string {
  // what toLocaleString('en-US') gives for whole numbers, without its cost (ICU, ~1 µs a call)
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : n.toLocaleString('en-US');
}

export class Batcher {
  private texts: string[] = [];
  private chars = 0;
  private first = 0;
  private next = 0;
  private seq = 0;
  /** the most characters one batch may hold before multiplying by the targets */
  private readonly charBudget: number;

  constructor(
    readonly targets: number,
    readonly limits: Limits = LIMITS,
  ) {
    if (!Number.isInteger(targets) || targets < 1) throw new RangeError('targets must be a positive integer');
    this.charBudget = Math.floor(limits.maxRequestChars / targets);
  }

  /** items in the open batch */
  get size(): number {
    return this.texts.length;
  }

  /** whether an item of `chars` characters can join the open batch */
  fits(chars: number): boolean {
    return this.texts.length < this.limits.maxItems && this.chars + chars <= this.charBudget;
  }

  /** whether the open batch can take nothing more (no more items, or no characters left) */
  get full(): boolean {
    return this.texts.length >= this.limits.maxItems || (this.texts.length > 0 && this.chars >= this.charBudget);
  }

  /** Adds an item to the open batch; call `fits` first (and `take` when it does not fit). */
  push(text: string, chars: number): void {
    if (this.texts.length === 0) this.first = this.next;
    this.texts.push(text);
    this.chars += chars;
    this.next++;
  }

  /** Closes the open batch and returns it (undefined when it is empty). */
  take(): Batch | undefined {
    if (this.texts.length === 0) return undefined;
    const b: Batch = { texts: this.texts, count: this.texts.length, chars: this.chars, first: this.first, seq: this.seq++ };
    this.texts = [];
    this.chars = 0;
    return b;
  }

  /** Adds an item and returns the batches that became ready (0, 1 or 2), for callers that do not stream. */
  add(text: string, chars: number): Batch[] {
    const out: Batch[] = [];
    if (!this.fits(chars)) {
      const b = this.take();
      if (b) out.push(b);
    }
    this.push(text, chars);
    if (this.full) out.push(this.take()!);
    return out;
  }
}

/**
 * The target groups (indexes in --to order, consecutive) whose requests can carry an item of
 * `chars` characters: all targets at once when they fit one request, else as many per request as
 * fit (30,000 characters to de,fr: [[0], [1]]; 20,000 to de,fr,it: [[0, 1], [2]]).
 */
export function targetGroups(chars: number, targets: number, limits: Limits = LIMITS): number[][] {
  const per = chars * targets <= limits.maxRequestChars ? targets : Math.max(1, Math.floor(limits.maxRequestChars / Math.max(1, chars)));
  const groups: number[][] = [];
  for (let k = 0; k < targets; k += per) groups.push(Array.from({ length: Math.min(per, targets - k) }, (_, i) => k + i));
  return groups;
}

/** Splits a whole list of texts into batches (for tests and small inputs). */
export function batchAll(texts: readonly string[], chars: (t: string) => number, targets: number, limits: Limits = LIMITS): Batch[] {
  const b = new Batcher(targets, limits);
  const out: Batch[] = [];
  for (const t of texts) out.push(...b.add(t, chars(t)));
  const last = b.take();
  if (last) out.push(last);
  return out;
}
