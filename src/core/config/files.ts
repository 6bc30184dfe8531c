// Where the config lives and what vx requires of it: a directory of the user's own (created 0700),
// not writable by others, and what to tell when it cannot be read or written.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Env } from '../env.js';
import { UsageError } from '../errors.js';

export function defaultConfigDir(env: Env): string {
  if (env.VX_CONFIG_DIR) return env.VX_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'vx');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'vx');
  // (the XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored)
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  return join(xdg ?? join(homedir(), '.config'), 'vx');
}

/** "EACCES: permission denied" of "EACCES: permission denied, open '/x/config.json'" */
export function briefError(e: Error): string {
  return e.message.replace(/, \w+ '[^']*'$/, '');
}

/**
 * Creates the directory (0700, parents too) when it does not exist. vx never changes the mode of a
 * directory it did not create (VX_CONFIG_DIR may name a shared one): it refuses one that other
 * users can write to instead, since they could replace the file that holds the credentials.
 */
export function ensureDir(dir: string, path: string): void {
  if (!existsSync(dir)) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      throw new UsageError(`cannot create config directory ${dir}: ${(e as Error).message}${accessAdvice(e, dir)}`);
    }
  }
  checkDir(dir, path);
}

/** What to do about a config file or directory this user may not read or write (often left by `sudo vx`). */
export function accessAdvice(e: unknown, dir: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EROFS') return '; it is on a read-only file system: point VX_CONFIG_DIR at a writable directory';
  if (code === 'EOWNER') return "; vx takes settings and credentials only from a directory and file of your own (or root's): point VX_CONFIG_DIR at a directory of your own";
  if (code !== 'EACCES' && code !== 'EPERM') return '';
  return `; make it readable and writable for your user (after \`sudo vx\`: \`sudo chown -R "$USER" ${dir}\`) or point VX_CONFIG_DIR at a directory of your own`;
}

/** Refuses a config directory other users can write to, or one (or a file) of another user. */
export function checkDir(dir: string, path: string): void {
  if (process.platform === 'win32') return;
  let mode: number;
  try {
    mode = statSync(dir).mode;
  } catch {
    return; // reported by the read or write that follows
  }
  try {
    checkOwners(dir, path);
  } catch (e) {
    throw new UsageError(`cannot use config ${path}: ${(e as Error).message}${accessAdvice(e, dir)}`);
  }
  if (mode & 0o022) {
    throw new UsageError(
      `config directory ${dir} is writable by other users (mode ${(mode & 0o7777).toString(8).padStart(4, '0')}); ` +
        'vx keeps credentials there and leaves the modes of a directory it did not create alone: point VX_CONFIG_DIR at a directory of your own ' +
        '(vx creates a missing one with mode 0700), or remove the write permission of group and others (chmod go-w)',
    );
  }
}

/**
 * A config directory or file owned by another user (not root) is not used, as ssh refuses its
 * files: with HOME=/tmp (some CI runners), another user who made /tmp/.config/vx first (0755,
 * so not writable by others) chose the endpoints every vx run there sent its tokens to. It counts
 * as a file that cannot be read (flags and VX_* variables go on; a setting only it could give is
 * exit 2). Root itself reads any (a mounted volume of another uid in a container).
 */
export function checkOwners(dir: string, path: string): void {
  const me = process.getuid?.();
  if (me === undefined || me === 0) return;
  for (const [p, st] of [
    [dir, statSync(dir, { throwIfNoEntry: false })],
    [path, statSync(path, { throwIfNoEntry: false })],
  ] as const) {
    if (st && st.uid !== me && st.uid !== 0) {
      throw Object.assign(new Error(`${p === dir ? 'its directory' : 'it'} belongs to another user (uid ${st.uid})`), { code: 'EOWNER' });
    }
  }
}
