// The results of a bulk run that are printed at the end (-o json, csv, tsv, a table...), kept on
// disk as they come rather than in memory: one JSON line each in a temporary file, removed from
// its directory at once (core/temp-file.ts: the open file is all there is, so nothing is left
// behind, even by a killed run), and read back in row order when the run ends.
import { closeSync, readSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { anonymousFile } from '../../core/temp-file.js';

export class ResultSpool {
  private readonly fd: number;
  /** bytes written, and those waiting to be */
  private size = 0;
  private waiting = '';
  /** where each row's line is (offset + 1; 0: none) and how long it is, by row number */
  private offsets = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private last = 0;

  constructor() {
    this.fd = anonymousFile(tmpdir(), 'vx-results-');
  }

  /** Keeps the line of a row (its last one, if it has several). */
  add(row: number, line: string): void {
    if (row >= this.offsets.length) this.grow(row);
    const bytes = Buffer.byteLength(line);
    this.offsets[row] = this.size + 1;
    this.lengths[row] = bytes;
    this.size += bytes;
    this.waiting += line;
    if (row > this.last) this.last = row;
    if (this.waiting.length > 1 << 20) this.write();
  }

  private grow(row: number): void {
    let n = this.offsets.length;
    while (n <= row) n *= 2;
    const offsets = new Float64Array(n);
    offsets.set(this.offsets);
    const lengths = new Uint32Array(n);
    lengths.set(this.lengths);
    [this.offsets, this.lengths] = [offsets, lengths];
  }

  private write(): void {
    if (this.waiting) writeSync(this.fd, this.waiting);
    this.waiting = '';
  }

  /** The lines in row order. */
  *lines(): Generator<string> {
    this.write();
    let buf = Buffer.alloc(64 * 1024);
    for (let row = 0; row <= this.last; row++) {
      const at = this.offsets[row];
      if (!at) continue;
      const n = this.lengths[row];
      if (n > buf.length) buf = Buffer.alloc(n);
      for (let got = 0; got < n; ) got += readSync(this.fd, buf, got, n - got, at - 1 + got);
      yield buf.toString('utf8', 0, n);
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}
