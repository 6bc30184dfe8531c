// Waiting for another process's write lock on an LMDB memory: LMDB makes a writer wait for the
// lock without a limit and without a word. vx says who holds it after a second, gives up after the
// lock timeout (one line naming the path and the process, exit 2), and a stop of the run (Ctrl-C,
// SIGTERM) ends the wait at once.
import { closeSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Clock } from '../../../core/clock.js';
import { InterruptedError } from '../../../core/errors.js';
import { badMemory, type Env } from './checks.js';

/** how long a wait for another process's lock goes unsaid */
export const LOCK_NOTICE_MS = 1000;

/** How a wait for the lock is measured, said and stopped. */
export interface LockWait {
  /** give up after this long (the lock timeout) */
  ms: number;
  clock: Clock;
  /** a stop of the run: the wait ends at once */
  signal?: AbortSignal;
  /** says, once a wait has lasted LOCK_NOTICE_MS, who holds the lock */
  note?: (message: string) => void;
  /** this process has the store open: its lock file must not be opened here (see lockHolder) */
  mine?: boolean;
  /**
   * a stop of the run ends the wait only once it is a wait for another process (after
   * LOCK_NOTICE_MS): a commit of this process's own is let finish (what is committed is counted)
   */
  stopsAfterNotice?: boolean;
}

const seconds = (ms: number) => Math.max(1, Math.round(ms / 1000));

/** The write lock was held by `who` for longer than `ms`. */
export function lockedPast(path: string, ms: number, who = 'another process'): ReturnType<typeof badMemory> {
  return badMemory(path, `locked by ${who} for more than ${seconds(ms)} s`);
}

/**
 * Waits for `done` while another process may hold the write lock of the memory at `path`: after
 * LOCK_NOTICE_MS says who holds it (once), after `w.ms` rejects naming it; a stop of the run
 * rejects at once (InterruptedError; see stopsAfterNotice).
 */
export async function waitForLock<T>(path: string, done: () => Promise<T>, w: LockWait): Promise<T> {
  const over = new AbortController();
  const signal = w.signal ? AbortSignal.any([w.signal, over.signal]) : over.signal;
  const limit = (async (): Promise<never> => {
    const first = Math.min(LOCK_NOTICE_MS, w.ms);
    await w.clock.sleep(first, w.stopsAfterNotice ? over.signal : signal);
    if (w.signal?.aborted) throw new InterruptedError();
    if (w.ms > first) {
      w.note?.(`translation memory ${path} is locked by ${lockHolder(path, w.mine)}: waiting for it, at most ${seconds(w.ms)} s`);
      await w.clock.sleep(w.ms - first, signal);
    }
    throw lockedPast(path, w.ms, lockHolder(path, w.mine));
  })();
  try {
    return await Promise.race([done(), limit]);
  } finally {
    over.abort();
    limit.catch(() => undefined);
  }
}

/**
 * Who holds the write lock of the memory at `path`, as a message names it: "process 1234 (node
 * vx.js translate)". LMDB's lock file (`<file>-lock`) holds the writer mutex, a robust pthread
 * mutex whose first word is the owning thread's id (glibc); Linux's /proc/locks lists every process
 * that has the store open. The owner is named when it is one of those; else the processes that
 * have it open; "another process" where neither can tell (another system). A process that has the
 * store open itself (`mine`) does not read the lock file: closing any descriptor of it would drop
 * the process's POSIX lock on it, by which the others know it is alive.
 */
export function lockHolder(path: string, mine = false): string {
  let lock: string;
  try {
    lock = `${realpathSync(path)}-lock`;
  } catch {
    return 'another process';
  }
  const open = openers(lock);
  const owner = mine ? undefined : mutexOwner(lock);
  if (owner !== undefined && (open.length === 0 || open.includes(owner))) return describe(owner);
  if (open.length === 1) return describe(open[0]!);
  if (open.length > 1) return `one of the processes ${open.join(', ')}, which have it open`;
  return 'another process';
}

/** The processes other than this one that hold a POSIX lock on `lock` (LMDB: every process with the store open). */
function openers(lock: string): number[] {
  let locks: string;
  let ino: number;
  try {
    ino = statSync(lock).ino;
    locks = readFileSync('/proc/locks', 'utf8');
  } catch {
    return [];
  }
  return [...new Set(processesLocking(locks, ino))].filter((p) => p !== process.pid);
}

/** "1: POSIX  ADVISORY  READ 29960 fe:00:2146349 0 0": the pids of the locks on inode `ino` */
function processesLocking(locks: string, ino: number): number[] {
  const pids: number[] = [];
  for (const line of locks.split('\n')) {
    const f = line.trim().split(/\s+/);
    const at = f.findIndex((x) => /^[0-9a-f]+:[0-9a-f]+:\d+$/.test(x));
    if (at > 0 && f[at]!.endsWith(`:${ino}`) && /^\d+$/.test(f[at - 1]!)) pids.push(Number(f[at - 1]));
  }
  return pids;
}

/** MDB_txninfo: the magic, then the writer mutex at the second cache line (64 bytes in) */
const LOCK_MAGIC = 0xbeefc0de;
const WMUTEX_AT = 64;

/** The process whose thread owns the writer mutex in `lock`, when it is another process. */
function mutexOwner(lock: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(lock, 'r');
    const b = Buffer.alloc(WMUTEX_AT + 4);
    if (readSync(fd, b, 0, b.length, 0) < b.length || b.readUInt32LE(0) !== LOCK_MAGIC) return undefined;
    // the futex word of a robust mutex: the owner's thread id (FUTEX_TID_MASK), 0 when free
    const tid = b.readUInt32LE(WMUTEX_AT) & 0x3fff_ffff;
    if (!tid) return undefined;
    const tgid = /^Tgid:\s*(\d+)$/m.exec(readFileSync(`/proc/${tid}/status`, 'utf8'))?.[1];
    const pid = tgid ? Number(tgid) : undefined;
    return pid === process.pid ? undefined : pid;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * "process 1234 (node vx.js translate)": the program and its first words up to the first option
 * (an option's value may be a secret), file names without their directories.
 */
function describe(pid: number): string {
  try {
    const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const shown: string[] = [];
    for (const w of words) {
      if (w.startsWith('-') || w.includes('=') || shown.length === 3) break;
      shown.push(basename(w));
    }
    return shown.length ? `process ${pid} (${shown.join(' ')})` : `process ${pid}`;
  } catch {
    return `process ${pid}`;
  }
}

/**
 * Whether another process may have the store open: LMDB holds a POSIX lock on its lock file
 * (`<file>-lock`) in every process that has the store open, and Linux lists those in /proc/locks.
 * Anywhere /proc/locks cannot tell (another system, no lock file yet): yes. A process that opens
 * the store between this look and vx's own open is not seen (it would have to hold its write lock
 * from its first moment, for longer than the lock timeout, to be noticed as a hang).
 */
export function openElsewhere(path: string, locks: string | undefined): boolean {
  let ino: number;
  try {
    ino = statSync(`${path}-lock`).ino;
  } catch {
    return true;
  }
  if (locks === undefined) return true;
  return processesLocking(locks, ino).some((p) => p !== process.pid);
}

/**
 * Opens the store at `path` (its own path) for writing in a child process and waits for it as for
 * the lock (waitForLock, naming the memory `shown`):
 * LMDB's open takes the writer lock, which another process may hold (a long import, a stuck
 * process), and waits for it without returning to the event loop. A child is killed cleanly (its
 * lock, if it got one, goes with it); a thread could not be.
 */
export async function probeLock(path: string, shown: string, wait: LockWait, env: Env): Promise<void> {
  const { spawn } = await import('node:child_process');
  // lmdb is found from vx's own files (bin/vx.js, or the test runner's)
  let base = process.argv[1] ?? process.cwd();
  try {
    base = realpathSync(base);
  } catch {
    // as given
  }
  const code = `
    const [path, base] = process.argv.slice(-2);
    const { open } = require('node:module').createRequire(base)('lmdb');
    const db = open({ path, noSubdir: true, encoding: 'binary', keyEncoding: 'binary', compression: false });
    db.close().then(() => process.stdout.write('ok'), () => process.stdout.write('failed'));
  `;
  const child = spawn(process.execPath, ['-e', code, '--', path, base], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...env, NODE_OPTIONS: '' } });
  try {
    // any other problem than the lock is found (and worded) by the real open
    await waitForLock(shown, () => new Promise<void>((resolve) => child.once('error', () => resolve()).once('close', () => resolve())), wait);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
