// The run's spill: the distinct texts of a run (and their answers) that no longer fit its memory
// budget, kept on disk for the run alone, so that a text seen again much later is still answered
// without being paid for again, however long the input. A private directory (vx-spill-*) in the
// temporary directory, removed when the run ends (also on Ctrl-C, and when the process exits
// early); inside it, an append-only log of records (record.ts) and the sorted runs of its index
// (runs.ts), all read and written through file descriptors, never mapped. A Bloom filter
// (bloom.ts) answers most texts it never held without reading the disk.
//
// Not the translation memory's engine (LMDB): a spill is written far more than it is read, in
// batches of texts in no order, and a B+tree copies and rewrites a page for nearly every text of
// such a batch (measured: 400,000 texts took 2.1 s of CPU and mapped 550 MB), while appending
// costs a write per batch and the index's runs are merged sequentially.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError, VxError } from '../../../core/errors.js';
import { tempDirProblem as why } from '../../../core/temp-file.js';
import type { TranslateResult } from '../../../model/translator.js';
import { TextFilter } from './bloom.js';
import { H, hashText } from './hash.js';
import { decodeRecord, encodeRecord, recordOf } from './record.js';
import { MAX_BATCH, Runs, WORDS } from './runs.js';

/** what the Bloom filters may take together (~21 million texts at under 1% false positives) */
const FILTER_BYTES = 32 * 1024 * 1024;

/** The spill directory cannot be written any more (mid-run: the run stops, exit 1). */
export class SpillFailure extends VxError {}

export interface SpillOptions {
  /** the distinct texts the run may spill (sizes the first Bloom filter), when known */
  expected?: number;
}

export class Spill {
  private readonly values: number;
  /** bytes of the value log */
  private size = 0;
  private spilled = 0;
  private readonly filter: TextFilter;
  private readonly runs: Runs;
  private buf = Buffer.allocUnsafe(1 << 20);
  private entries = new Uint32Array(1024 * WORDS);
  private closed = false;
  private readonly onExit = () => this.close();

  private constructor(
    /** the run's directory, inside the temporary directory */
    readonly dir: string,
    /** the temporary directory, as messages name it */
    readonly parent: string,
    opts: SpillOptions,
  ) {
    this.values = openSync(join(dir, 'values'), 'wx+', 0o600);
    this.filter = new TextFilter(opts.expected ?? 0, FILTER_BYTES);
    this.runs = new Runs(dir);
    // a process that ends without unwinding (exit after a second Ctrl-C) still leaves nothing
    process.once('exit', this.onExit);
  }

  /**
   * Makes the run's spill in `parent` (the temporary directory). A directory that cannot be
   * written, or that is full, is a UsageError naming it (before anything is sent).
   */
  static open(parent: string, opts: SpillOptions = {}): Spill {
    let dir: string | undefined;
    try {
      const fs = statfsSync(parent);
      if (fs.bavail * fs.bsize < 64 * 1024) throw Object.assign(new Error('full'), { code: 'ENOSPC' });
      dir = mkdtempSync(join(parent, 'vx-spill-'));
      const spill = new Spill(dir, parent, opts);
      spill.probe();
      return spill;
    } catch (e) {
      if (dir) rmSync(dir, { recursive: true, force: true });
      throw new UsageError(`the spill directory ${parent} is ${why(e)}: a long input that does not fit the run's memory is deduplicated there; set TMPDIR to another directory (nothing was sent)`);
    }
  }

  /** A write of a page, taken back: a full disk says so now rather than in the middle of the run. */
  private probe(): void {
    try {
      writeSync(this.values, Buffer.alloc(4096), 0, 4096, 0);
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /** texts spilled */
  get count(): number {
    return this.spilled;
  }

  /** Whether `text` may be in the spill (false: it never was); leaves its hashes in H for get. */
  mayHold(text: string): boolean {
    hashText(text);
    return this.filter.has(H.hi, H.lo);
  }

  /**
   * The record of `text`, or undefined when the spill does not hold it (call mayHold first: its
   * hashes are used). A text spilled without a result (an estimate's) gives `{ text }`.
   */
  get(text: string): { result?: TranslateResult } | undefined {
    let found: { result?: TranslateResult } | undefined;
    this.guard(() =>
      this.runs.find(H.hi, H.lo, (offset, length) => {
        const record = this.read(offset, length);
        if (!recordOf(record, text)) return false;
        found = { result: decodeRecord(record) };
        return true;
      }),
    );
    return found;
  }

  /** Spills texts (none of them spilled before), each with its result (or none: an estimate's). */
  add(texts: readonly string[], results?: readonly (TranslateResult | undefined)[]): void {
    for (let at = 0; at < texts.length; at += MAX_BATCH) this.guard(() => this.addBatch(texts, results, at, Math.min(texts.length, at + MAX_BATCH)));
  }

  private addBatch(texts: readonly string[], results: readonly (TranslateResult | undefined)[] | undefined, from: number, to: number): void {
    if (this.entries.length < (to - from) * WORDS) this.entries = new Uint32Array((to - from) * WORDS);
    let used = 0;
    for (let i = from; i < to; i++) {
      const record = encodeRecord(texts[i], results?.[i]);
      if (this.buf.length - used < record.length * 3) {
        this.flush(used);
        used = 0;
        if (this.buf.length < record.length * 3) this.buf = Buffer.allocUnsafe(record.length * 3);
      }
      const bytes = this.buf.write(record, used, 'utf8');
      hashText(texts[i]);
      const e = (i - from) * WORDS;
      const offset = this.size + used;
      this.entries[e] = H.hi;
      this.entries[e + 1] = H.lo;
      this.entries[e + 2] = Math.floor(offset / 4294967296);
      this.entries[e + 3] = offset >>> 0;
      this.entries[e + 4] = bytes;
      used += bytes;
    }
    this.flush(used);
    this.runs.add(this.entries, to - from);
    this.spilled += to - from;
    for (let i = 0; i < to - from; i++) this.filter.add(this.entries[i * WORDS], this.entries[i * WORDS + 1]);
  }

  /** Appends buf[0, used) to the value log. */
  private flush(used: number): void {
    let done = 0;
    while (done < used) done += writeSync(this.values, this.buf, done, used - done, this.size + done);
    this.size += used;
  }

  private read(offset: number, length: number): string {
    const b = length <= this.buf.length ? this.buf : Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(this.values, b, got, length - got, offset + got);
      if (n === 0) throw new Error('the spill ends short of a record');
      got += n;
    }
    return b.toString('utf8', 0, length);
  }

  /** Runs a read or write of the spill: a failure is a SpillFailure naming the directory. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw new SpillFailure(`the spill directory ${this.parent} is ${why(e)}: the run cannot go on without paying again for texts it sent`);
    }
  }

  /** Removes the run's directory (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    process.removeListener('exit', this.onExit);
    this.runs.close();
    try {
      closeSync(this.values);
    } catch {
      // already closed
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
