// The terms of the texts a run measured lately, in the order it measured them. Weighing a batch,
// making its request and checking its answer take the texts in about that order, soon after: each
// finds its text where the one before it stopped (or near), compared by identity first, with no
// hashing of the text and no lookup in a map of thousands.

/** how far from where it last stopped a reader looks for its text (a batch weighed again is at most this far back) */
const SPAN = 1_024;

export class Recent<T> {
  private readonly texts: (string | undefined)[];
  private readonly values: (T | undefined)[];
  private readonly mask: number;
  /** how many were added (the next one's position) */
  private added = 0;

  /** keeps the last 2^bits texts */
  constructor(bits: number) {
    this.mask = (1 << bits) - 1;
    this.texts = new Array<string | undefined>(this.mask + 1);
    this.values = new Array<T | undefined>(this.mask + 1);
  }

  add(text: string, value: T): void {
    const i = this.added++ & this.mask;
    this.texts[i] = text;
    this.values[i] = value;
  }

  /** The position of `text` near `from` (forward first, then back), or -1 when it is not kept there. */
  locate(text: string, from: number): number {
    // (most often the very text there)
    if (from < this.added && from >= this.added - this.mask && this.texts[from & this.mask] === text) return from;
    const lo = Math.max(0, this.added - this.mask - 1);
    const at = Math.min(Math.max(from, lo), this.added);
    for (let p = at, end = Math.min(this.added, at + SPAN); p < end; p++) if (this.texts[p & this.mask] === text) return p;
    for (let p = at - 1, end = Math.max(lo, at - SPAN); p >= end; p--) if (this.texts[p & this.mask] === text) return p;
    return -1;
  }

  /**
   * The values kept for `texts`, in order, each looked for where the one before it was found (from
   * `from` for the first), else near (see locate): undefined for a text not kept. Returns the
   * position after the last one found (where the next text of that reader is).
   */
  valuesOf(texts: readonly string[], from: number, out: (T | undefined)[]): number {
    let p = from;
    for (let i = 0; i < texts.length; i++) {
      const q = this.locate(texts[i], p);
      if (q < 0) {
        out[i] = undefined;
        continue;
      }
      out[i] = this.values[q & this.mask];
      p = q + 1;
    }
    return p;
  }
}
