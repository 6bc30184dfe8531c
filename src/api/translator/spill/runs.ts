// The spill's index on disk: where each spilled text's record lies in the value log, as sorted runs
// of fixed-size entries (the text's two hashes, the record's offset and length), one run per batch
// spilled, merged two by two as they grow (the sizes of the runs a binary counter: never more than
// log2 of the batches), so that a lookup reads a few small blocks and a write only ever appends.
// In memory each run keeps one hash of every FENCE entries (1/16 of a byte per text); a lookup
// finds its block from them and reads it with one pread. Reads and writes go through the file
// descriptors (no mapping): what the disk holds never counts in the process's memory.
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** words of an entry: hi, lo, the record's offset (high and low 32 bits), its length in bytes */
export const WORDS = 5;
/** entries per block: one hash of each block is kept in memory */
const FENCE = 64;
/** entries read or written at once while merging */
const CHUNK = 4096;
/** a batch sorts at most this many entries (its index fits the 21 low bits of a sort key) */
export const MAX_BATCH = 1 << 21;

interface Run {
  path: string;
  fd: number;
  count: number;
  /** the hi of entry j x FENCE, for each j */
  fences: Uint32Array;
}

/** Appends entries to a run file, a chunk at a time, noting its fences. */
class RunWriter {
  private readonly buf = new Uint32Array(CHUNK * WORDS);
  private used = 0;
  private count = 0;
  private readonly fences: number[] = [];
  readonly fd: number;

  constructor(readonly path: string) {
    // read back by lookups and merges through the same descriptor
    this.fd = openSync(path, 'wx+', 0o600);
  }

  push(src: Uint32Array, at: number): void {
    if (this.count % FENCE === 0) this.fences.push(src[at]);
    const b = this.buf;
    const u = this.used;
    b[u] = src[at];
    b[u + 1] = src[at + 1];
    b[u + 2] = src[at + 2];
    b[u + 3] = src[at + 3];
    b[u + 4] = src[at + 4];
    this.used += WORDS;
    this.count++;
    if (this.used === this.buf.length) this.flush();
  }

  private flush(): void {
    if (this.used) writeSync(this.fd, this.buf, 0, this.used * 4);
    this.used = 0;
  }

  end(): Run {
    this.flush();
    return { path: this.path, fd: this.fd, count: this.count, fences: Uint32Array.from(this.fences) };
  }
}

/** Reads a run in order, a chunk at a time (for a merge). */
class RunReader {
  /** the chunk read; the next entry is at `at` */
  readonly buf = new Uint32Array(CHUNK * WORDS);
  private start = 0;
  private len = 0;
  /** the entry read next, and where it is in buf */
  next = 0;
  at = 0;

  constructor(private readonly run: Run) {
    this.fill();
  }

  get done(): boolean {
    return this.next >= this.run.count;
  }

  get hi(): number {
    return this.buf[this.at];
  }

  advance(): void {
    this.next++;
    this.at += WORDS;
    if (this.next - this.start >= this.len && !this.done) this.fill();
  }

  private fill(): void {
    this.start = this.next;
    this.len = Math.min(CHUNK, this.run.count - this.next);
    readAt(this.run.fd, this.buf, this.len * WORDS, this.next * WORDS * 4);
    this.at = 0;
  }
}

/** Reads `words` words at byte `position` into `into`. */
function readAt(fd: number, into: Uint32Array, words: number, position: number): void {
  const bytes = words * 4;
  let got = 0;
  while (got < bytes) {
    const n = readSync(fd, into, got, bytes - got, position + got);
    if (n === 0) throw new Error('the spill ends short of its index');
    got += n;
  }
}

export class Runs {
  private readonly runs: Run[] = [];
  private files = 0;
  private readonly block = new Uint32Array(FENCE * WORDS);

  constructor(private readonly dir: string) {}

  /** Adds a run of the first `count` entries of `entries` (WORDS words each, in any order; count <= MAX_BATCH). */
  add(entries: Uint32Array, count: number): void {
    if (!count) return;
    // sorted by hi: the sort key is hi x 2^21 + the entry's index (exact in a double)
    const keys = new Float64Array(count);
    for (let i = 0; i < count; i++) keys[i] = entries[i * WORDS] * MAX_BATCH + i;
    keys.sort();
    const w = new RunWriter(this.nextPath());
    try {
      for (let i = 0; i < count; i++) w.push(entries, (keys[i] % MAX_BATCH) * WORDS);
    } catch (e) {
      closeSync(w.fd);
      throw e;
    }
    this.runs.push(w.end());
    // merged while the one before is not more than twice as large: log2(batches) runs at most
    while (this.runs.length >= 2 && this.runs[this.runs.length - 2].count <= 2 * this.runs[this.runs.length - 1].count) this.mergeLast();
  }

  /**
   * Calls `each(offset, length)` for every entry whose hashes are `hi` and `lo`, the newest runs
   * first, until it returns true; returns whether it did.
   */
  find(hi: number, lo: number, each: (offset: number, length: number) => boolean): boolean {
    for (let r = this.runs.length - 1; r >= 0; r--) if (this.findIn(this.runs[r], hi, lo, each)) return true;
    return false;
  }

  private findIn(run: Run, hi: number, lo: number, each: (offset: number, length: number) => boolean): boolean {
    // the first fence not below hi: the entries of hi begin in the block before it at the earliest
    const f = run.fences;
    let a = 0;
    let b = f.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (f[m] < hi) a = m + 1;
      else b = m;
    }
    for (let j = Math.max(0, a - 1); j * FENCE < run.count; j++) {
      const n = Math.min(FENCE, run.count - j * FENCE);
      readAt(run.fd, this.block, n * WORDS, j * FENCE * WORDS * 4);
      for (let i = 0; i < n; i++) {
        const e = this.block[i * WORDS];
        if (e > hi) return false;
        if (e === hi && this.block[i * WORDS + 1] === lo && each(this.block[i * WORDS + 2] * 4294967296 + this.block[i * WORDS + 3], this.block[i * WORDS + 4])) return true;
      }
    }
    return false;
  }

  private nextPath(): string {
    return join(this.dir, `run-${++this.files}`);
  }

  /** Merges the last two runs into one (the older's entries first among equal hashes). */
  private mergeLast(): void {
    const b = this.runs.pop()!;
    const a = this.runs.pop()!;
    const w = new RunWriter(this.nextPath());
    try {
      const ra = new RunReader(a);
      const rb = new RunReader(b);
      while (!ra.done || !rb.done) {
        const from = rb.done || (!ra.done && ra.hi <= rb.hi) ? ra : rb;
        w.push(from.buf, from.at);
        from.advance();
      }
    } catch (e) {
      closeSync(w.fd);
      this.runs.push(a, b);
      throw e;
    }
    this.runs.push(w.end());
    for (const r of [a, b]) drop(r);
  }

  /** Closes every run (the directory is removed by the spill). */
  close(): void {
    for (const r of this.runs.splice(0)) {
      try {
        closeSync(r.fd);
      } catch {
        // already closed
      }
    }
  }
}

function drop(r: Run): void {
  closeSync(r.fd);
  unlinkSync(r.path);
}
