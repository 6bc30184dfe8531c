// What a rerun keeps of an earlier run's journal: for each row number, where the row's last entry
// is in the file and its state, in one number (8 bytes a row, in pages of 65,536 rows made as
// rows are met); the entry itself is read again from the file when it is needed. The journal is
// read as a stream of lines with their byte offsets, a chunk at a time.
import { readSync } from 'node:fs';

export type RowState = 'sent' | 'done' | 'failed' | 'unknown' | 'rolled-back';

const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const STATES: readonly RowState[] = ['sent', 'done', 'failed', 'unknown', 'rolled-back'];

export class RowIndex {
  private readonly pages: (Float64Array | undefined)[] = [];
  /** rows with an entry */
  size = 0;

  /** Records the row's last entry: the line at `offset` (0: none in the file), in `state`. */
  set(row: number, offset: number, state: RowState): void {
    const p = Math.floor(row / PAGE);
    const page = (this.pages[p] ??= new Float64Array(PAGE));
    const i = row % PAGE;
    if (!page[i]) this.size++;
    page[i] = offset * 8 + STATES.indexOf(state) + 1;
  }

  private slot(row: number): number {
    return this.pages[Math.floor(row / PAGE)]?.[row % PAGE] ?? 0;
  }

  state(row: number): RowState | undefined {
    const s = this.slot(row);
    return s ? STATES[(s % 8) - 1] : undefined;
  }

  /** the byte offset of the row's last entry (0: it has none in the file) */
  offset(row: number): number {
    return Math.floor(this.slot(row) / 8);
  }

  /** The rows that have an entry, in order. */
  *rows(): Generator<number> {
    for (let p = 0; p < this.pages.length; p++) {
      const page = this.pages[p];
      if (page) for (let i = 0; i < PAGE; i++) if (page[i]) yield p * PAGE + i;
    }
  }
}

/** A line of a file: its text (without the line break), where it starts, and whether it is the last piece (no line break after it). */
export interface FileLine {
  text: string;
  at: number;
  last: boolean;
}

/** The lines of an open file from its start, a chunk at a time; the last piece (empty after a final line break) too. `tooLong` is thrown for a line past `max` bytes. */
export function* fileLines(fd: number, max: number, tooLong: (line: number) => Error): Generator<FileLine> {
  const chunk = Buffer.allocUnsafe(64 * 1024);
  let carry = Buffer.alloc(0);
  let base = 0;
  let read = 0;
  let no = 0;
  for (;;) {
    const n = readSync(fd, chunk, 0, chunk.length, read);
    read += n;
    const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
    let start = 0;
    for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10, start)) {
      no++;
      yield { text: buf.toString('utf8', start, nl), at: base + start, last: false };
      start = nl + 1;
    }
    if (!n) {
      yield { text: buf.toString('utf8', start), at: base + start, last: true };
      return;
    }
    if (buf.length - start > max) throw tooLong(no + 1);
    carry = Buffer.from(buf.subarray(start));
    base += start;
  }
}

/** The line of a file that starts at `at`. */
export function lineAt(fd: number, at: number): string {
  const parts: Buffer[] = [];
  const buf = Buffer.allocUnsafe(4096);
  for (let pos = at; ; ) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl >= 0 || !n) {
      parts.push(Buffer.from(buf.subarray(0, nl >= 0 ? nl : n)));
      return Buffer.concat(parts).toString('utf8');
    }
    parts.push(Buffer.from(buf.subarray(0, n)));
    pos += n;
  }
}
