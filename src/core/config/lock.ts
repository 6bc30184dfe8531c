// The config lock: writers of the config file take turns across processes through a lock file
// next to it (created with O_EXCL, holding the holder's process id).
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** how old a config lock without a process id (written by an older vx) is when taken to be left over */
const STALE_LOCK_MS = 10_000;
/** how long a config lock whose process lives is waited for */
const LIVE_LOCK_MS = 5 * 60_000;

/** Whether the process named in a lock file lives: undefined when it names none (an older vx wrote it, or it is being written). */
export function lockHolderAlive(text: string): boolean | undefined {
  const pid = Number(text.trim());
  if (!text.trim() || !Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/**
 * Serialises writers across processes with a lock file next to the config (created with O_EXCL,
 * holding the holder's process id). A lock whose process is gone is taken over at once; one
 * whose process lives is waited for (a sign-in renewal holds it for a whole request, which may
 * take longer than 10 s: taking it over by age then sent the single-use refresh token twice),
 * up to 5 minutes; a lock without a process id (an older vx) counts as left over after 10 s.
 * Inside the lock the file is read afresh, so two processes setting different keys at once both
 * keep their change.
 */
export async function withLock<T>(path: string, accessAdvice: (e: unknown) => string, fn: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LIVE_LOCK_MS;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new UsageError(`cannot lock config file ${path}: ${(e as Error).message}${accessAdvice(e)}`);
      let age = 0;
      let holder: boolean | undefined;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
        holder = lockHolderAlive(readFileSync(lock, 'utf8'));
      } catch {
        continue; // released meanwhile
      }
      if (holder === false || age > (holder ? LIVE_LOCK_MS : STALE_LOCK_MS)) {
        try {
          unlinkSync(lock);
        } catch {
          /* someone else removed it */
        }
        continue;
      }
      if (Date.now() > deadline) throw new UsageError(`config file ${path} is locked by another vx (remove ${lock} if no vx is running)`);
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      /* already gone */
    }
  }
}
