// Entry: declare the command tree, run it, and turn any error into one message and an exit code.
// Built as the single CommonJS file dist/main.cjs (see build.mjs); everything an action needs is
// imported on demand.
import { CommanderError } from 'commander';
import { state } from './cli/runner.js';
import { buildProgram, writeFd } from './cli/program.js';
import { VERSION } from './cli/version.js';

/** the signals that stop a run, and its exit code for each (128 + the signal's number) */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** The exit code of help or the version written straight to stdout: 1 when the writing failed (not EPIPE), said on stderr. */
function lostOutput(code: number): number {
  if (state.outputLost === undefined) return code;
  writeFd(2, `vx: cannot write to standard output: ${state.outputLost}; the output is incomplete\n`);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V')) {
    writeFd(1, `${VERSION}\n`);
    return lostOutput(0);
  }
  const controller = new AbortController();
  state.signal = controller.signal;
  // SIGINT (Ctrl-C), SIGTERM (kill, a service manager) and SIGHUP (the terminal went away) stop a
  // run the same way: the abort signal stops requests and waits, temporary files are removed, and
  // the exit code is 128 + the signal's number
  let interrupted = 0;
  const onSignal = (sig: keyof typeof SIGNAL_EXIT) => {
    // a child that stands for the run (emulator exec) decides how it ends
    if (state.forwardSignal) return state.forwardSignal(sig);
    // a command that serves until it is told to stop (emulator start) takes SIGTERM as its stop
    if (sig === 'SIGTERM' && state.onSigterm) return state.onSigterm();
    if (sig === 'SIGINT' && state.pagerRunning) return;
    if (interrupted) process.exit(interrupted);
    interrupted = SIGNAL_EXIT[sig];
    state.interruptedBy = sig;
    controller.abort();
    // give cleanup (temporary files, open prompts) a moment, then leave
    setTimeout(() => process.exit(interrupted), 3000).unref();
  };
  for (const sig of Object.keys(SIGNAL_EXIT) as (keyof typeof SIGNAL_EXIT)[]) process.on(sig, () => onSignal(sig));
  // a reader that goes away (`vx ... | head`) ends the run quietly; any other failure (a full
  // disk, an I/O error) lost output: never a silent exit 0. Set up when an action starts, so that
  // help and usage errors, written to the descriptors directly, never build the streams.
  state.onAction = () =>
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') {
        if (state.keepOnOutputGone) return;
        process.exit(interrupted || 0);
      }
      process.stderr.write(`vx: cannot write to standard output: ${e.message}; the output is incomplete\n`);
      process.exit(interrupted || 1);
    });
  const program = buildProgram(argv.slice(2));
  try {
    await program.parseAsync(argv);
    return interrupted || 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return lostOutput(0);
      // `vx help <cmd>` is help asked for (exit 0); a group run without a subcommand is a usage error
      if (err.code === 'commander.help') return lostOutput(err.exitCode === 0 ? 0 : 2);
      return 2;
    }
    if (interrupted) {
      const ctx = state.ctx;
      state.streamsUsed = true;
      // an interruption with something to say (a request whose outcome is unknown) says it
      const message = (err as { message?: unknown } | undefined)?.message;
      const said = typeof message === 'string' && message.startsWith('interrupted') ? message : 'interrupted';
      const by = state.interruptedBy && state.interruptedBy !== 'SIGINT' ? ` (${state.interruptedBy})` : '';
      (ctx?.io.stderr ?? process.stderr).write(`vx: ${said}${by}\n`);
      return interrupted;
    }
    state.streamsUsed = true;
    const { report } = await import('./cli/report.js');
    return report(err, state.ctx, argv.includes('--debug'));
  } finally {
    await state.ctx?.http.close();
  }
}

void main(process.argv).then((code) => {
  process.exitCode = code;
  // flush stdout/stderr, then leave at once even if a prompt or timer still holds the loop
  if (state.streamsUsed) process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  else process.exit(code);
});
