// Entry: run the command line with the process's factory, and leave with its exit code. Built as
// the single CommonJS file dist/main.cjs (see build.mjs); everything an action needs is imported on
// demand. Signals, the process's streams and its exit live here; everything else in cli/run.ts.
import { processFactory } from './cli/factory.js';
import { run } from './cli/run.js';
import { exitHeld } from './core/exit-hold.js';

/** the signals that stop a run, and its exit code for each (128 + the signal's number) */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT;

const controller = new AbortController();
let interrupted: { code: number; by: NodeJS.Signals } | undefined;
/** whether process.stdout/stderr may hold output to flush before exiting */
let streamsUsed = false;

const factory = processFactory(
  controller.signal,
  () => interrupted,
  () => {
    if (streamsUsed) return;
    streamsUsed = true;
    // a reader that goes away (`vx ... | head`) ends the run quietly; any other failure (a full
    // disk, an I/O error) lost output: never a silent exit 0. Set up when an action starts, so
    // that help and usage errors, written to the descriptors directly, never build the streams.
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') {
        if (factory.host.keepOnOutputGone) return;
        process.exit(interrupted?.code ?? 0);
      }
      process.stderr.write(`vx: cannot write to standard output: ${e.message}; the output is incomplete\n`);
      process.exit(interrupted?.code ?? 1);
    });
  },
);

// SIGINT (Ctrl-C), SIGTERM (kill, a service manager) and SIGHUP (the terminal went away) stop a
// run the same way: the abort signal stops requests and waits, temporary files are removed, and
// the exit code is 128 + the signal's number
function onSignal(sig: StopSignal): void {
  const host = factory.host;
  // a child that stands for the run (emulator exec) decides how it ends
  if (host.forwardSignal) return host.forwardSignal(sig);
  // a command that serves until it is told to stop (emulator start) takes SIGTERM as its stop
  if (sig === 'SIGTERM' && host.onSigterm) return host.onSigterm();
  if (sig === 'SIGINT' && host.pagerRunning) return;
  if (interrupted) process.exit(interrupted.code);
  interrupted = { code: SIGNAL_EXIT[sig], by: sig };
  host.interruptedBy = sig;
  streamsUsed = true;
  controller.abort();
  // give cleanup (temporary files, open prompts) a moment, then leave
  setTimeout(() => process.exit(interrupted!.code), 3000).unref();
}
for (const sig of Object.keys(SIGNAL_EXIT) as StopSignal[]) process.on(sig, () => onSignal(sig));

/**
 * Leaves with `code`. A run stopped by a signal while the process holds work its exit would wait
 * for (core/exit-hold.ts) leaves by that signal, as an uncaught one ends a process: at once, and
 * the shell sees the same 128 + its number.
 */
function leave(code: number): void {
  if (interrupted && exitHeld()) {
    process.removeAllListeners(interrupted.by);
    process.kill(process.pid, interrupted.by);
  }
  process.exit(code);
}

void run(process.argv.slice(2), factory).then((code) => {
  process.exitCode = code;
  // flush stdout/stderr (stderr only when the run built it), then leave at once even if a prompt
  // or timer still holds the loop
  if (streamsUsed) process.stdout.write('', () => (factory.io.stderrUsed() ? process.stderr.write('', () => leave(code)) : leave(code)));
  else leave(code);
});
