// One emulator per --state file: `<file>.lock` holds the process id of the emulator using it.
// A lock left by an emulator that is gone (kill -9, a crash) is taken over.
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Whether a process of this id runs (EPERM: it does, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<statePath>.lock` for this process, or throws naming the emulator that holds it.
 * Returns the function that lets it go.
 */
export function lockStateFile(statePath: string): () => void {
  const lock = `${statePath}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      // a directory that cannot hold the lock cannot hold the state either: said at the first save
      if (err.code !== 'EEXIST') return () => {};
      let holder = NaN;
      try {
        holder = Number(readFileSync(lock, 'utf8').trim());
      } catch {
        /* let go meanwhile: try again */
      }
      if (attempt >= 3) throw new Error(`cannot take ${lock}: it names no running emulator (if none runs, delete it)`);
      if (!(holder > 0)) {
        // just made by an emulator that has not yet written its id: give it a moment
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        continue;
      }
      if (Number.isInteger(holder) && running(holder)) {
        throw new Error(`${statePath} is in use by another emulator (process ${holder}): stop it, or give this one another --state (if no emulator runs, delete ${lock})`);
      }
      try {
        unlinkSync(lock); // its emulator is gone
      } catch {
        /* taken away by another */
      }
    }
  }
  removeLeftSaves(statePath);
  return () => {
    try {
      if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
    } catch {
      /* its directory is gone */
    }
  };
}

/**
 * Removes `<file>.<uuid>.tmp` files a save left when its emulator was killed in the middle of it
 * (they piled up beside the state file). Only the emulator holding the lock writes them.
 */
function removeLeftSaves(statePath: string): void {
  const dir = dirname(statePath);
  const prefix = `${basename(statePath)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/.test(name.slice(prefix.length))) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      /* gone meanwhile */
    }
  }
}
