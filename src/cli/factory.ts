// The seam between a run and the world (gh's cmdutil.Factory): the environment, the streams, the
// clock, the abort signal, the prompter and the HTTP transport reach every command through one
// object. `processFactory()` is the real process's; tests build their own (test/helpers/inproc.ts)
// and run whole command lines in-process through the same `run(argv, factory)` (cli/run.ts).
// This is the one module that reads process.env.
import { fstatSync, statSync, writeSync } from 'node:fs';
import type { CtxDeps, Env, Host, Streams } from '../core/context.js';
import { systemClock } from '../core/clock.js';

export interface Factory extends CtxDeps {
  /** writes straight to standard output, unbuffered (help, the version, usage errors) */
  writeOut(s: string): void;
  /** writes straight to standard error */
  writeErr(s: string): void;
  /** the width help is wrapped to (undefined: not a terminal, commander's default) */
  helpWidth(fd: 1 | 2): number | undefined;
  /** whether help written there may be coloured */
  helpColors(fd: 1 | 2): boolean;
  /** called once, when an action starts (the process sets up what only actions need) */
  onAction?(): void;
  /** the signal that interrupted the run and its exit code, once one has */
  interrupted?(): { code: number; by: NodeJS.Signals } | undefined;
  /** why writing help or a usage message to stdout failed (not EPIPE), once it has: the output is lost */
  outputLost?(): string | undefined;
  /**
   * The process exits as soon as the run ends, its connections with it: they are not closed one by
   * one (node:net builds process.stderr when it closes a socket, 0.4-0.8 ms of a one-request command).
   */
  exitsAfterRun?: boolean;
}

let devNull: number | undefined;
/**
 * Whether a descriptor may be a terminal, without loading node:tty (and with it net and the
 * streams): only a character device other than /dev/null can be one; for those the real
 * process.stdout/stderr answer.
 */
function isTerminal(fd: 1 | 2): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    devNull ??= statSync('/dev/null').rdev;
    if (st.rdev === devNull) return false;
  } catch {
    return false;
  }
  return Boolean(fd === 1 ? process.stdout.isTTY : process.stderr.isTTY);
}

/** Writes a whole string to a descriptor; the failure of stdout (not EPIPE) is passed to `lost`. */
function writeFd(fd: 1 | 2, s: string, lost: (message: string) => void): void {
  const buf = Buffer.from(s);
  for (let off = 0; off < buf.length; ) {
    try {
      off += writeSync(fd, buf, off);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'EAGAIN') continue; // a non-blocking pipe that is full: try again
      // EPIPE: the reader is gone, a quiet end; another failure of stdout (a full disk) lost the
      // output: the process says so and exits 1
      if (fd === 1 && err.code !== 'EPIPE') lost(err.message);
      return;
    }
  }
}

/**
 * The process's streams, each built only when first used (process.stdin costs 2-5 ms to build,
 * process.stderr 0.4-0.8 ms); `stderrUsed` says whether stderr was.
 */
function processStreams(): Streams & { stderrUsed(): boolean } {
  let stderrUsed = false;
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      stderrUsed = true;
      return process.stderr;
    },
    stderrUsed: () => stderrUsed,
    get stdin() {
      return process.stdin;
    },
  };
}

/**
 * The real process's factory. `signal` aborts the run (main.ts's signal handlers), `interrupted`
 * says by which signal, `onAction` is called when an action starts; the returned factory's `host`
 * is where the running command leaves its wishes for those handlers.
 */
export function processFactory(
  signal: AbortSignal,
  interrupted: () => { code: number; by: NodeJS.Signals } | undefined,
  onAction: () => void,
): Factory & { host: Host; io: ReturnType<typeof processStreams> } {
  const host: Host = {};
  let lost: string | undefined;
  return {
    env: process.env as Env,
    io: processStreams(),
    signal,
    clock: systemClock,
    host,
    pager: true,
    self: [process.execPath, process.argv[1]],
    writeOut: (s) => writeFd(1, s, (m) => void (lost ??= m)),
    writeErr: (s) => writeFd(2, s, () => undefined),
    helpWidth: (fd) => (isTerminal(fd) ? (fd === 1 ? process.stdout.columns : process.stderr.columns) : undefined),
    helpColors: (fd) => isTerminal(fd) && Boolean((fd === 1 ? process.stdout : process.stderr).hasColors?.()),
    isTerminal,
    onAction,
    interrupted,
    outputLost: () => lost,
    exitsAfterRun: true,
  };
}
