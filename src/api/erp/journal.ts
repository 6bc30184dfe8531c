// The journal of an import: one JSON line per event, appended with synchronous writes and
// flushed to the disk (fsync) at each batch boundary, so that what it says survives Ctrl-C, a
// killed process or a power loss. The first line names the command and the input it belongs to;
// then, per batch, a `sent` line for each row (with the time it was sent) before the batch leaves
// and the row's outcome once it is known. A rerun reads it back: rows done are skipped, rows sent
// without a known outcome are unknown (never resent unless asked), failed rows are sent again.
import { closeSync, existsSync, fstatSync, fsyncSync, lstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { fileLines, lineAt, RowIndex, type FileLine, type RowState } from './journal-index.js';
import { lockHolderAlive } from '../../core/config/index.js';
import { UsageError } from '../../core/errors.js';

export type { RowState } from './journal-index.js';

export interface JournalIdentity {
  /** e.g. "salespeople import" or "salespeople import --update" */
  command: string;
  company: string;
  /** the input's absolute path, or "-" for standard input */
  input: string;
}

export interface JournalEntry {
  row: number;
  hash: string;
  state: RowState;
  id?: string;
  /** the record's own key (humanKey; journals of earlier versions name it `number`) */
  key?: string;
  number?: string;
  status?: number;
  code?: string;
  message?: string;
  /** when the row's batch was sent (ms since the epoch; the `sent` line's, kept by later lines of the row) */
  at?: number;
}

const STATES: ReadonlySet<string> = new Set<RowState>(['sent', 'done', 'failed', 'unknown', 'rolled-back']);

const KIND = 'vx-erp-import-journal';

/** the longest line read from a journal (its own lines are short): longer is damage */
const MAX_LINE_BYTES = 1024 * 1024;

// The row lines, written out: two per imported row, and JSON.stringify of 20,000 small entry
// objects (built only to be serialized) was ~13 ms of a 10,000-row import, ~7 ms this way. Each
// is the JSON.stringify of the entry it stands for, character for character.

/** The line of `{ row, hash, state: 'sent', at }`: `at`, when the batch leaves (ms since the epoch). */
export function sentLine(row: number, hash: string, at: number): string {
  return `{"row":${row},"hash":${JSON.stringify(hash)},"state":"sent","at":${Math.round(at)}}\n`;
}

/** The line that ends a last line cut short (line `n`: 1-based), so that what follows is read and the cut line is known for one. */
const cutMark = (n: number): string => `{"cut":${n}}`;

/** The row (and hash, when it got that far) a line cut short by a crash names. */
const TORN = /^\{"row":(\d+)(?:,"hash":("[0-9a-z]*"))?/;

/** The line of `{ row, hash, state, id?, key?, status?, code? }` (those of the result given and not empty; status is its httpStatus). */
export function outcomeLine(row: number, hash: string, state: RowState, o: { id?: string; key?: string; httpStatus?: number; code?: string }): string {
  let s = `{"row":${row},"hash":${JSON.stringify(hash)},"state":"${state}"`;
  if (o.id) s += `,"id":${JSON.stringify(o.id)}`;
  if (o.key) s += `,"key":${JSON.stringify(o.key)}`;
  if (o.httpStatus) s += `,"status":${JSON.stringify(o.httpStatus)}`;
  if (o.code) s += `,"code":${JSON.stringify(o.code)}`;
  return `${s}}\n`;
}

/**
 * Takes `<journal>.lock` (holding this process's id) for the run: a second run of the same import
 * while one is going would read a journal that does not yet name the rows the first run has still
 * to send, and send them too. A lock whose process is gone (killed, crashed) is taken over.
 */
function lock(path: string): string {
  const file = `${path}.lock`;
  for (let tries = 0; ; tries++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || tries) throw new UsageError(`cannot write the journal ${path}: ${(e as Error).message}; name a writable file with --journal`);
    }
    let holder = '';
    try {
      holder = readFileSync(file, 'utf8');
    } catch {
      // (removed meanwhile: try again)
    }
    const pid = Number(holder.trim());
    if (pid !== process.pid && lockHolderAlive(holder)) {
      throw new UsageError(`the journal ${path} is in use by another vx run (process ${pid}); wait for it to end, or remove ${file} if no such run is going`);
    }
    try {
      unlinkSync(file);
    } catch {
      // (removed meanwhile)
    }
  }
}

/** a symbolic link whose file does not exist (existsSync follows links) */
function danglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && !existsSync(path);
  } catch {
    return false;
  }
}

export class Journal {
  private fd: number | undefined;
  private lockFile: string | undefined;
  /** where the last entry of each row an earlier run journaled is, and its state */
  private readonly index = new RowIndex();
  /** the send time of the rows an earlier run left sent or unknown (their entries' `at`, or the `at` of the `sent` line before) */
  private readonly sentAt = new Map<number, number>();
  /** entries that are not a line of the file (a row whose last line was cut short) */
  private readonly made = new Map<number, JournalEntry>();
  /** the file as read, for the entries (open while the run goes) */
  private reader: number | undefined;
  /** this run created the file (said once, the first time: it appears beside the user's input) */
  created = false;
  /** what reading it found worth saying (a last line cut short) */
  readonly notes: string[] = [];
  /** when the file was last written before this run (ms since the epoch): the latest an entry without its send time can have been sent */
  writtenBefore = 0;

  /** the line number of a last line with no line break (cut short), 0 if none */
  private cutLine = 0;

  private constructor(readonly path: string) {}

  /** Opens (or creates) the journal; one from another command or input is refused (exit 2). */
  static open(path: string, id: JournalIdentity): Journal {
    const j = new Journal(path);
    j.lockFile = lock(path);
    try {
      j.read(id);
    } catch (e) {
      j.close();
      throw e;
    }
    return j;
  }

  private read(id: JournalIdentity): void {
    const path = this.path;
    let fresh = true;
    if (existsSync(path)) {
      try {
        this.reader = openSync(path, 'r');
        fresh = !this.readLines(fileLines(this.reader, MAX_LINE_BYTES, (n) => this.damaged(n, '')), id);
      } catch (e) {
        if (e instanceof UsageError) throw e;
        throw new UsageError(`cannot read the journal ${path}: ${(e as Error).message}`);
      }
    }
    // a new journal is created with O_EXCL: the name is predictable, and a link planted there (to a
    // file of this user that does not exist yet) would have the journal created where it points
    const planted = () =>
      new UsageError(`cannot create the journal ${path}: a symbolic link to a file that does not exist is there (another user's, in a shared directory?); remove it, or name another file with --journal`);
    if (fresh && danglingLink(path)) throw planted();
    const create = fresh && !existsSync(path);
    try {
      this.fd = openSync(path, create ? 'ax' : 'a', 0o600);
      this.created = create;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw planted();
      throw new UsageError(`cannot write the journal ${path}: ${(e as Error).message}; name a writable file with --journal`);
    }
    if (fresh) this.append([{ kind: KIND, version: 1, ...id, started: new Date().toISOString() }]);
    else {
      this.writtenBefore = fstatSync(this.fd).mtimeMs;
      // a last line cut short is ended, and marked as such, so that the next line is one of its own
      if (this.cutLine) this.appendLines(`\n${cutMark(this.cutLine)}\n`);
    }
  }

  /**
   * Reads the journal a line at a time: its header (refused unless it is this import's), then the
   * rows' entries (readEntry). False when it holds nothing but blanks (a new journal).
   */
  private readLines(lines: Generator<FileLine>, id: JournalIdentity): boolean {
    const first = lines.next().value as FileLine;
    let held = first.text.trim() !== '';
    let head: Record<string, unknown> | undefined;
    const check = () => {
      if (head) return;
      try {
        head = JSON.parse(first.text);
      } catch {
        throw new UsageError(`${this.path} is not a vx import journal (its first line is not the journal's header); name another file with --journal`);
      }
      if (head!.kind !== KIND) throw new UsageError(`${this.path} is not a vx import journal; name another file with --journal`);
      for (const k of ['command', 'company', 'input'] as const) {
        if (head![k] !== id[k]) {
          throw new UsageError(`the journal ${this.path} belongs to another ${k === 'input' ? 'input' : k} (${k} ${JSON.stringify(head![k])}, not ${JSON.stringify(id[k])}); name another file with --journal, or delete it to start over`);
        }
      }
    };
    if (held) check();
    // each line is read with the next one known: a line cut short is told by what follows it
    let prev: FileLine | undefined;
    let no = 1;
    for (let x = first; !x.last; ) {
      x = lines.next().value as FileLine;
      if (x.text.trim()) {
        held = true;
        check();
      }
      if (prev) this.readEntry(prev, no, x.text, x.last && x.text === '');
      prev = x;
      no++;
    }
    if (!held) return false;
    // (the last piece: a line with no line break after it was cut short)
    if (prev && prev.text !== '') {
      this.cutLine = no;
      this.readEntry(prev, no, undefined, true);
    } else if (!prev && first.text !== '') this.cutLine = 1;
    return true;
  }

  /**
   * A row's entry (line `no`, `next` after it; `last`: no line follows): the last of each row is
   * kept (its place in the file), with the time its batch was sent. A line that is not an entry is
   * damage: a usage error naming it, nothing sent. The last line alone may be cut short (the run
   * that wrote it stopped mid-write): the row it names counts as unknown.
   */
  private readEntry(line: FileLine, no: number, next: string | undefined, last: boolean): void {
    const text = line.text;
    if (!text.trim() || text === cutMark(no - 1)) return;
    let e: JournalEntry | undefined;
    try {
      e = JSON.parse(text);
    } catch {
      // cut short: the last line, or one a later run ended with the mark that says so
      if ((last && !text.endsWith('}')) || next === cutMark(no)) {
        this.torn(text, no);
        return;
      }
    }
    if (!e || typeof e !== 'object' || !Number.isSafeInteger(e.row) || typeof e.hash !== 'string' || !STATES.has(e.state)) throw this.damaged(no, text);
    const at = e.at ?? this.sentAt.get(e.row);
    if ((e.state === 'sent' || e.state === 'unknown') && at !== undefined) this.sentAt.set(e.row, at);
    else this.sentAt.delete(e.row);
    this.made.delete(e.row);
    this.index.set(e.row, line.at, e.state);
  }

  private damaged(no: number, line: string): UsageError {
    return new UsageError(
      `the journal ${this.path} is damaged at line ${no} (${JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line)} is not a row's entry); nothing was sent. Name another file with --journal, or repair the line`,
    );
  }

  /** how many rows an earlier run journaled */
  get size(): number {
    return this.index.size;
  }

  /** The state of a row's last entry (none: an earlier run did not journal it). */
  state(row: number): RowState | undefined {
    return this.index.state(row);
  }

  /** When the row's batch was sent, for a row an earlier run left sent or unknown. */
  sentTime(row: number): number | undefined {
    return this.sentAt.get(row);
  }

  /** The last entry an earlier run journaled for a row (read again from the file), with the time its batch was sent. */
  entry(row: number): JournalEntry | undefined {
    const made = this.made.get(row);
    if (made) return made;
    const offset = this.index.offset(row);
    if (!offset || this.reader === undefined) return undefined;
    const e = JSON.parse(lineAt(this.reader, offset)) as JournalEntry;
    if (e.key === undefined && typeof e.number === 'string') e.key = e.number;
    if (e.at === undefined) {
      const at = this.sentAt.get(row);
      if (at !== undefined) e.at = at;
    }
    return e;
  }

  /** The rows the earlier runs record as having created a record whose (lower-case) id is among `ids`: id -> row. */
  createdBy(ids: ReadonlySet<string>): Map<string, number> {
    const out = new Map<string, number>();
    if (!ids.size) return out;
    for (const row of this.index.rows()) {
      if (this.index.state(row) !== 'done') continue;
      const id = this.entry(row)?.id?.toLowerCase();
      if (id && ids.has(id)) out.set(id, row);
    }
    return out;
  }

  /** A last line cut short: the row it names counts as unknown (its batch may have left). */
  private torn(line: string, lineNo: number): void {
    const m = TORN.exec(line);
    if (!m) {
      this.notes.push(`the journal's last line (line ${lineNo}) was cut short before it named a row (the run that wrote it stopped mid-write); it is left out`);
      return;
    }
    const row = Number(m[1]);
    const prev = this.entry(row);
    // (hash '' when the line was cut before its hash: the row's content cannot be compared)
    const hash = prev?.hash ?? (m[2] ? (JSON.parse(m[2]) as string) : '');
    const at = prev?.at;
    this.made.set(row, { row, hash, state: 'unknown', ...(prev?.id ? { id: prev.id } : {}), ...(at !== undefined ? { at } : {}) });
    if (at !== undefined) this.sentAt.set(row, at);
    else this.sentAt.delete(row);
    this.index.set(row, 0, 'unknown');
    this.notes.push(`the journal's last line (line ${lineNo}) was cut short (the run that wrote it stopped mid-write): row ${row} counts as unknown`);
  }

  append(entries: readonly object[]): void {
    this.appendLines(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  }

  /**
   * Writes lines made by sentLine and outcomeLine (one write), and flushes them to the disk: this
   * is called at batch boundaries (before a batch leaves, with its `sent` lines; after its
   * outcomes), so a power loss never loses the record of a batch that left.
   */
  appendLines(text: string): void {
    if (this.fd === undefined || !text) return;
    writeSync(this.fd, text);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.reader !== undefined) closeSync(this.reader);
    this.reader = undefined;
    if (this.lockFile !== undefined) {
      try {
        unlinkSync(this.lockFile);
      } catch {
        // (gone already)
      }
    }
    this.lockFile = undefined;
  }
}
