// Run-scoped temporary storage in the temporary directory: what a run keeps on disk for itself
// alone (an import's results, standard input read twice, a translation run's spill), and the one
// line that says why a directory cannot be used for it.
import { mkdtempSync, openSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Why a directory cannot hold a run's temporary files, as its one line says it. */
export function tempDirProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'full (no space left on the device)';
  if (code === 'EACCES' || code === 'EPERM') return 'not writable (permission denied)';
  if (code === 'EROFS') return 'not writable (a read-only file system)';
  if (code === 'ENOENT') return 'no such directory';
  if (code === 'ENOTDIR') return 'not a directory';
  return `not usable (${(e as Error)?.message ?? String(e)})`;
}

/**
 * A file open for reading and writing that has no name: made in a private directory of `parent`
 * (`<prefix>*`), then removed from it at once, so that the open descriptor is all there is. Nothing
 * is left behind however the run ends (Ctrl-C, a kill, a crash): the system frees it with the
 * descriptor. Throws what the file system throws.
 */
export function anonymousFile(parent: string, prefix: string): number {
  const dir = mkdtempSync(join(parent, prefix));
  try {
    const file = join(dir, 'data');
    const fd = openSync(file, 'wx+', 0o600);
    unlinkSync(file);
    rmdirSync(dir);
    return fd;
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
