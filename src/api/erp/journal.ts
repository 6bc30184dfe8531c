// The journal of an import: one JSON line per event, appended with synchronous writes and
// flushed to the disk (fsync) at each batch boundary, so that what it says survives Ctrl-C, a
// killed process or a power loss. The first line names the command and the input it belongs to;
// then, per batch, a `sent` line for each row (with the time it was sent) before the batch leaves
// and the row's outcome once it is known. A rerun reads it back: rows done are skipped, rows sent
// without a known outcome are unknown (never resent unless asked), failed rows are sent again.
import { closeSync, existsSync, fstatSync, fsyncSync, lstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { lockHolderAlive } from '../../core/config/index.js';
import { UsageError } from '../../core/errors.js';

export type RowState = 'sent' | 'done' | 'failed' | 'unknown' | 'rolled-back';

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
  /** the last entry of each row read from an earlier run */
  readonly previous = new Map<number, JournalEntry>();
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
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (e) {
        throw new UsageError(`cannot read the journal ${path}: ${(e as Error).message}`);
      }
      if (text.trim()) {
        fresh = false;
        if (!text.endsWith('\n')) this.cutLine = text.split('\n').length;
        const lines = text.split('\n');
        let head: Record<string, unknown>;
        try {
          head = JSON.parse(lines[0]);
        } catch {
          throw new UsageError(`${path} is not a vx import journal (its first line is not the journal's header); name another file with --journal`);
        }
        if (head.kind !== KIND) throw new UsageError(`${path} is not a vx import journal; name another file with --journal`);
        for (const k of ['command', 'company', 'input'] as const) {
          if (head[k] !== id[k]) {
            throw new UsageError(`the journal ${path} belongs to another ${k === 'input' ? 'input' : k} (${k} ${JSON.stringify(head[k])}, not ${JSON.stringify(id[k])}); name another file with --journal, or delete it to start over`);
          }
        }
        this.readEntries(lines);
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
   * The rows' entries, the last of each row kept (with the time its batch was sent). A line that is
   * not an entry is damage: a usage error naming it, nothing sent. The last line alone may be cut
   * short (the run that wrote it stopped mid-write): the row it names counts as unknown.
   */
  private readEntries(lines: string[]): void {
    const last = lines.length - (lines[lines.length - 1] === '' ? 2 : 1);
    for (let i = 1; i <= last; i++) {
      const line = lines[i];
      if (!line.trim() || line === cutMark(i)) continue;
      let e: JournalEntry | undefined;
      try {
        e = JSON.parse(line);
      } catch {
        // cut short: the last line, or one a later run ended with the mark that says so
        if ((i === last && !line.endsWith('}')) || lines[i + 1] === cutMark(i + 1)) {
          this.torn(line, i + 1);
          continue;
        }
      }
      if (!e || typeof e !== 'object' || !Number.isSafeInteger(e.row) || typeof e.hash !== 'string' || !STATES.has(e.state)) {
        throw new UsageError(`the journal ${this.path} is damaged at line ${i + 1} (${JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line)} is not a row's entry); nothing was sent. Name another file with --journal, or repair the line`);
      }
      if (e.key === undefined && typeof e.number === 'string') e.key = e.number;
      const prev = this.previous.get(e.row);
      if (e.at === undefined && prev?.at !== undefined) e.at = prev.at;
      this.previous.set(e.row, e);
    }
  }

  /** A last line cut short: the row it names counts as unknown (its batch may have left). */
  private torn(line: string, lineNo: number): void {
    const m = TORN.exec(line);
    if (!m) {
      this.notes.push(`the journal's last line (line ${lineNo}) was cut short before it named a row (the run that wrote it stopped mid-write); it is left out`);
      return;
    }
    const row = Number(m[1]);
    const prev = this.previous.get(row);
    // (hash '' when the line was cut before its hash: the row's content cannot be compared)
    const hash = prev?.hash ?? (m[2] ? (JSON.parse(m[2]) as string) : '');
    this.previous.set(row, { row, hash, state: 'unknown', ...(prev?.id ? { id: prev.id } : {}), ...(prev?.at !== undefined ? { at: prev.at } : {}) });
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
