// Child processes that stand for a part of vx's run (emulator exec's command, health watch's
// --exec): a signal that stops vx stops them too.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
