// The translation memory exchanged as TMX (tmx.ts: the format), streamed both ways: every entry
// written in pieces with back-pressure; a file checked whole first (a problem anywhere imports
// nothing), then read again and stored.
import { statSync } from 'node:fs';
import { InterruptedError, UsageError } from '../../../core/errors.js';
import { readError } from '../../../core/input.js';
import { fmt } from '../batcher.js';
import { readTmx, TmxError, tmxHeader, tmxUnit, TMX_FOOTER, type TmxSkipped } from '../tmx.js';
import type { MemoryEntry, TranslationMemory } from './memory.js';

/** Writes every entry of `mem` as TMX 1.4 (`version`: vx's, in the header); returns how many. */
export async function writeTmx(mem: TranslationMemory, write: (chunk: string) => Promise<void>, version: string, signal: AbortSignal): Promise<number> {
  let n = 0;
  await write(tmxHeader(version));
  // written in pieces of about 64 KiB, each with back-pressure
  let buf = '';
  for await (const e of mem.entries()) {
    if (signal.aborted) throw new InterruptedError();
    buf += tmxUnit(e);
    n++;
    if (buf.length >= 65_536) {
      await write(buf);
      buf = '';
      // stdout redirected to a file is written synchronously: without a turn of the event loop
      // Ctrl-C would not be seen before the end (and lmdb would not renew its read transaction)
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await write(buf + TMX_FOOTER);
  return n;
}

/** A regular file (an import reads it twice). */
export function checkTmxFile(file: string): void {
  let st;
  try {
    st = statSync(file);
  } catch (e) {
    throw readError(file, e);
  }
  if (st.isDirectory()) throw readError(file, { code: 'EISDIR' });
  if (!st.isFile()) throw new UsageError(`cannot read ${file}: not a regular file (an import reads the file twice, checking it whole first, and a pipe cannot be read twice)`);
}

/**
 * The whole file checked, nothing stored: the entries it holds, and the empty target segments
 * skipped (`from`: the source language of units the file names none for).
 */
export async function checkTmx(file: string, from: string | undefined, signal: AbortSignal): Promise<{ total: number; emptyTargets: number }> {
  const skipped: TmxSkipped = { emptyTargets: 0 };
  try {
    const total = await readTmx(
      file,
      () => {
        if (signal.aborted) throw new InterruptedError('interrupted; nothing was imported');
      },
      { skipped, from },
    );
    return { total, emptyTargets: skipped.emptyTargets };
  } catch (e) {
    if (e instanceof TmxError) throw new UsageError(`${file}: ${e.message}; nothing was imported`);
    throw (e as NodeJS.ErrnoException).code ? readError(file, e) : e;
  }
}

/** Stores the entries of a checked file (`total` of them); returns how many. What was added before an interruption is kept. */
export async function importTmx(mem: TranslationMemory, file: string, from: string | undefined, total: number, signal: AbortSignal): Promise<number> {
  let n = 0;
  await readTmx(
    file,
    async (e: MemoryEntry) => {
      // what was added before Ctrl-C is committed (by close): an import stops between entries
      if (signal.aborted) throw new InterruptedError(`interrupted; ${fmt(n)} of the ${fmt(total)} entries were imported (importing the file again is safe)`);
      mem.add(e);
      n++;
      if (mem.queued >= 10_000) await mem.flush();
    },
    { from },
  );
  await mem.flush();
  return n;
}
