// Which texts the spill may hold, in a few bytes each: a blocked Bloom filter (the 6 bits of a
// text in one 512-bit block: one cache line read per filter asked). A text the filter has never
// seen is answered "no" at once, so a run reads the disk only for texts that may be there (and
// well under 1% of the others). It grows by filters of twice the size of the last one (its first
// one no larger than FIRST_MAX texts: the texts spilled are what it sizes), up to a cap: past it
// the last filter takes every text, and more of the others are read from the disk (never fewer
// found: a filter says "maybe" for every text it holds).

/** bits per text: 12 with 6 set gives ~0.5% false positives in a full filter */
const BITS_PER_TEXT = 12;
const BLOCK_BITS = 512;
const SET = 6;
/** the first filter's texts at most */
const FIRST_MAX = 1 << 20;
/** the first filter's texts at least */
const FIRST_MIN = 1 << 16;

interface Filter {
  words: Uint32Array;
  blocks: number;
  capacity: number;
  count: number;
}

export class TextFilter {
  private readonly filters: Filter[] = [];
  private bytes = 0;

  /**
   * `first`: the texts the first filter is made for (the texts the input may hold, when known);
   * `maxBytes`: what all the filters may take together.
   */
  constructor(
    private readonly first: number,
    private readonly maxBytes: number,
  ) {}

  /** Adds the text whose hashes are `hi` and `lo`. */
  add(hi: number, lo: number): void {
    let f = this.filters[this.filters.length - 1];
    if (!f || (f.count >= f.capacity && this.bytes < this.maxBytes)) f = this.grow();
    const base = block(f, hi);
    const step = Math.imul(lo, 0x9e3779b1) | 1;
    for (let i = 0; i < SET; i++) {
      const p = (lo + Math.imul(i, step)) >>> 23;
      f.words[base + (p >>> 5)] |= 1 << (p & 31);
    }
    f.count++;
  }

  /** Whether the text whose hashes are `hi` and `lo` may have been added (false: it never was). */
  has(hi: number, lo: number): boolean {
    const step = Math.imul(lo, 0x9e3779b1) | 1;
    for (const f of this.filters) if (holds(f, block(f, hi), lo, step)) return true;
    return false;
  }

  private grow(): Filter {
    const last = this.filters[this.filters.length - 1];
    const wanted = last ? last.capacity * 2 : Math.min(FIRST_MAX, Math.max(FIRST_MIN, this.first));
    const room = Math.max(BLOCK_BITS / 8, this.maxBytes - this.bytes);
    const blocks = Math.max(1, Math.floor(Math.min((wanted * BITS_PER_TEXT) / 8, room) / (BLOCK_BITS / 8)));
    const f: Filter = { words: new Uint32Array((blocks * BLOCK_BITS) / 32), blocks, capacity: Math.floor((blocks * BLOCK_BITS) / BITS_PER_TEXT), count: 0 };
    this.bytes += f.words.byteLength;
    this.filters.push(f);
    return f;
  }
}

/** the first word of the block of `hi` (multiply-shift: exact in a double, 2^32 x 2^21 < 2^53) */
function block(f: Filter, hi: number): number {
  return Math.floor((hi * f.blocks) / 4294967296) * (BLOCK_BITS / 32);
}

function holds(f: Filter, base: number, lo: number, step: number): boolean {
  for (let i = 0; i < SET; i++) {
    const p = (lo + Math.imul(i, step)) >>> 23;
    if ((f.words[base + (p >>> 5)] & (1 << (p & 31))) === 0) return false;
  }
  return true;
}
