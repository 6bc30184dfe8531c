// Child processes that stand for a part of vx's run (emulator exec's command, health watch's
// --exec): a signal that stops vx stops them too.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Clock } from './clock.js';

/**
 * Whether this process runs in the foreground process group of its terminal (Linux:
 * /proc/self/stat), where a Ctrl-C reaches every process of the group, a child too. Elsewhere (no
 * terminal, in the background, or no /proc): false.
 */
function inForegroundOfTerminal(): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // pid (comm) state ppid pgrp session tty_nr tpgid ...: comm may hold spaces and parentheses
    const [, , pgrp, , ttyNr, tpgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    return ttyNr !== 0 && tpgid === pgrp;
  } catch {
    return false;
  }
}

/**
 * Passes a signal that stops vx (SIGTERM from a CI runner, SIGHUP, SIGINT) on to a running child,
 * which then ends, or cleans up, as it chooses. A Ctrl-C at a terminal already reached the child
 * (the whole foreground process group gets it): it is not sent a second time.
 */
export function passSignal(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  if (sig === 'SIGINT' && inForegroundOfTerminal()) return;
  child.kill(sig);
}

/** A word as a POSIX shell reads it back (quoted only when it must be), for commands vx prints to run. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]*$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** How a command run by runHook ended. */
export interface HookOutcome {
  /** its exit code, or null when a signal ended it (or it could not start) */
  code: number | null;
  /** vx stopped it: its time was up, or vx itself was stopped (the signal vx got) */
  stopped?: { by: 'timeout' | NodeJS.Signals; killed: boolean };
  /** why it could not start */
  error?: string;
}

export interface HookOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** what it reads on standard input (then it ends) */
  input: string;
  /** where its standard output goes (vx's stderr: vx's stdout carries vx's own lines) */
  stdout: NodeJS.WritableStream;
  timeoutMs: number;
  /** after the stop signal, how long it has to end before SIGKILL */
  graceMs: number;
  /** vx is stopping (Ctrl-C, SIGTERM, SIGHUP): the command is stopped too */
  signal: AbortSignal;
  /** the signal that stopped vx, passed on (SIGTERM when unknown) */
  stoppedBy: () => NodeJS.Signals | undefined;
  clock: Clock;
}

/**
 * Runs a shell command a run hands work to (health watch --exec) in a process group of its own,
 * and waits for it. Past its time, or when vx is stopped, the whole group gets the stop signal
 * (SIGTERM, or the one vx got; a shell's children too, which a signal to the shell alone would
 * leave running) and, `graceMs` later, SIGKILL: vx never leaves it running, never waits for ever.
 */
export async function runHook(command: string, o: HookOptions): Promise<HookOutcome> {
  const { spawn } = await import('node:child_process');
  // detached: a process group of its own (a Ctrl-C at the terminal reaches it through vx)
  const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'inherit'], env: o.env, detached: true });
  child.stdout.pipe(o.stdout, { end: false });
  child.stdin.on('error', () => undefined);
  child.stdin.end(o.input);
  let failed: string | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', (e) => {
      failed = e.message;
      resolve(null);
    });
    child.once('exit', (code) => resolve(code));
  });
  // its output read to the end: every process of the group that held it has ended
  const closed = new Promise<'ended'>((resolve) => {
    child.once('error', () => resolve('ended'));
    child.once('close', () => resolve('ended'));
  });
  const waits = new AbortController();
  const wait = <T>(ms: number, value: T) => o.clock.sleep(ms, waits.signal).then(() => value, () => undefined);
  const aborted = new Promise<'stop'>((resolve) => {
    if (o.signal.aborted) return resolve('stop');
    o.signal.addEventListener('abort', () => resolve('stop'), { once: true, signal: waits.signal });
  });
  try {
    const first = await Promise.race([closed, wait(o.timeoutMs, 'timeout' as const), aborted]);
    if (first === 'ended') return outcome(await exited, failed);
    const by = first === 'timeout' ? 'timeout' : (o.stoppedBy() ?? 'SIGTERM');
    signalGroup(child, by === 'timeout' ? 'SIGTERM' : by);
    const killed = (await Promise.race([closed, wait(o.graceMs, 'kill' as const)])) === 'kill';
    if (killed) signalGroup(child, 'SIGKILL');
    const code = await exited;
    // a process that left the group may still hold the pipe: vx does not wait for it
    child.stdout.unpipe(o.stdout);
    child.stdout.destroy();
    return { ...outcome(code, failed), stopped: { by, killed } };
  } finally {
    waits.abort();
  }
}

function outcome(code: number | null, error: string | undefined): HookOutcome {
  return error === undefined ? { code } : { code, error };
}

/** Sends a signal to the process group of a detached child (every process it started). */
function signalGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    // the group is gone
  }
}
