// Writing the targets and lock files of a vx translate file|sync run all at once, or none.
import { randomBytes } from 'node:crypto';
import { renameSync, unlinkSync } from 'node:fs';
import { mkdir, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InterruptedError, OutputError } from '../../../core/errors.js';
import { modeOfSources } from '../../../core/output/index.js';
import { createdNote } from '../memory/index.js';
import type { FileWrite } from './merge.js';

/**
 * Writes every file as `.<name>.<random>.tmp` beside it, then renames them all into place. An
 * interruption or a failure before the renames removes the temporary files (no target changed);
 * the renames themselves run without yielding, so Ctrl-C cannot stop them half way. As --out's
 * atomicFileSink (core/output/): the temporary file is created with O_EXCL (never through a link
 * planted at its name), a target that is a symbolic link keeps pointing at its file (the new
 * content replaces that file) and an existing file keeps its mode; a new one gets its source's.
 */
export async function commitFiles(writes: readonly FileWrite[], signal: AbortSignal): Promise<void> {
  const temps: { tmp: string; path: string }[] = [];
  const cleanup = () => {
    for (const t of temps) {
      try {
        unlinkSync(t.tmp);
      } catch {
        /* gone */
      }
    }
  };
  process.once('exit', cleanup);
  try {
    for (const w of writes) {
      await writeTemp(w, temps);
      if (signal.aborted) throw new InterruptedError();
    }
    for (const t of temps) renameSync(t.tmp, t.path);
    temps.length = 0;
  } catch (e) {
    cleanup();
    throw e;
  } finally {
    process.removeListener('exit', cleanup);
  }
}

/** Writes one file's text to a temporary file beside it (listed in `temps` as soon as it exists). */
async function writeTemp(w: FileWrite, temps: { tmp: string; path: string }[]): Promise<void> {
  const dir = dirname(w.path);
  await mkdir(dir, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
    throw new OutputError(`cannot create ${dir}: ${e.code === 'EACCES' ? 'permission denied' : e.code === 'EEXIST' || e.code === 'ENOTDIR' ? 'a file is in the way' : e.message}`);
  });
  const cannot = (e: NodeJS.ErrnoException) => new OutputError(`cannot write ${w.path}: ${e.code === 'EACCES' ? 'permission denied' : e.code === 'ENOSPC' ? 'no space left on the device' : e.message}`);
  const existing = await stat(w.path).catch(() => undefined);
  const path = existing ? await realpath(w.path) : w.path;
  // (its permissions; never set-user-ID, set-group-ID or sticky, as atomicFileSink)
  const mode = existing ? existing.mode & 0o777 : undefined;
  // a new file gets its source's permissions (a private source, a private target), narrowed by the umask
  const newMode = w.modeFrom !== undefined ? modeOfSources([w.modeFrom]) : undefined;
  let file: FileHandle | undefined;
  let tmp = '';
  for (let attempt = 0; !file; attempt++) {
    tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
    file = await open(tmp, 'wx', mode ?? newMode ?? 0o666).catch((e: NodeJS.ErrnoException) => {
      // a name taken meanwhile (or a planted link): another random name
      if (e.code !== 'EEXIST' || attempt >= 8) throw cannot(e);
      return undefined;
    });
  }
  temps.push({ tmp, path });
  try {
    // the umask does not narrow a kept mode
    if (mode !== undefined) await file.chmod(mode).catch(() => undefined);
    await file.writeFile(w.text);
  } catch (e) {
    throw cannot(e as NodeJS.ErrnoException);
  } finally {
    await file.close();
  }
}

/**
 * What stderr says of the files a run created beside the user's, the first time: the lock file of
 * each source that had none, and the translation memory when the run created it.
 */
export function createdNotes(plans: readonly { path: string; lockPath: string; lockText?: string }[], writes: readonly FileWrite[], memoryCreated: string | undefined): string[] {
  const notes = memoryCreated !== undefined ? [createdNote(memoryCreated)] : [];
  const written = new Set(writes.map((w) => w.path));
  for (const p of plans) {
    if (p.lockText === undefined && written.has(p.lockPath)) notes.push(`created ${p.lockPath}: what was translated from ${p.path}, so that \`vx translate sync\` sends only what changed; keep it with the targets`);
  }
  return notes;
}
