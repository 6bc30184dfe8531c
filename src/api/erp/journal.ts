// The journal of an import: one JSON line per event, appended with synchronous writes so that
// what it says survives Ctrl-C or a killed process. The first line names the command and the
// input it belongs to; then, per batch, a `sent` line for each row before the batch leaves and
// the row's outcome once it is known. A rerun reads it back: rows done are skipped, rows sent
// without a known outcome are unknown (never resent unless asked), failed rows are sent again.
import { closeSync, existsSync, lstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
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
}

const KIND = 'vx-erp-import-journal';

// The row lines, written out: two per imported row, and JSON.stringify of 20,000 small entry
// objects (built only to be serialized) was ~13 ms of a 10,000-row import, ~7 ms this way. Each
// is the JSON.stringify of the entry it stands for, character for character.

/** The line of `{ row, hash, state: 'sent' }`. */
export function sentLine(row: number, hash: string): string {
  return `{"row":${row},"hash":${JSON.stringify(hash)},"state":"sent"}\n`;
}

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
        for (let i = 1; i < lines.length; i++) {
          if (!lines[i].trim()) continue;
          let e: JournalEntry;
          try {
            e = JSON.parse(lines[i]);
          } catch {
            // a line cut short by a crash: the last one can be; any other is damage
            if (i === lines.length - 1 || (i === lines.length - 2 && !lines[lines.length - 1].trim())) continue;
            throw new UsageError(`the journal ${path} is damaged at line ${i + 1}; name another file with --journal`);
          }
          if (typeof e.row !== 'number') continue;
          if (e.key === undefined && typeof e.number === 'string') e.key = e.number;
          this.previous.set(e.row, e);
        }
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
  }

  append(entries: readonly object[]): void {
    this.appendLines(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  }

  /** Writes lines made by sentLine and outcomeLine (one write). */
  appendLines(text: string): void {
    if (this.fd === undefined || !text) return;
    writeSync(this.fd, text);
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
