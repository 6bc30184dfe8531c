// Entry: declare the command tree, run it, and turn any error into one message and an exit code.
// Built as the single CommonJS file dist/main.cjs (see build.mjs); everything an action needs is
// imported on demand.
import { CommanderError } from 'commander';
import { state } from './cli/runner.js';
import { buildProgram } from './cli/program.js';
import { VERSION } from './cli/version.js';

async function main(argv: string[]): Promise<number> {
  if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const controller = new AbortController();
  state.signal = controller.signal;
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    controller.abort();
    // give cleanup (temporary files, open prompts) a moment, then leave
    setTimeout(() => process.exit(130), 3000).unref();
  };
  process.on('SIGINT', onSigint);
  // a reader that goes away (`vx ... | head`) ends the run quietly; any other failure (a full
  // disk, an I/O error) lost output: never a silent exit 0. Set up when an action starts, so that
  // help and usage errors, written to the descriptors directly, never build the streams.
  state.onAction = () =>
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(interrupted ? 130 : 0);
      process.stderr.write(`vx: cannot write to standard output: ${e.message}; the output is incomplete\n`);
      process.exit(interrupted ? 130 : 1);
    });
  const program = buildProgram(argv.slice(2));
  try {
    await program.parseAsync(argv);
    return interrupted ? 130 : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0;
      // `vx help <cmd>` is help asked for (exit 0); a group run without a subcommand is a usage error
      if (err.code === 'commander.help') return err.exitCode === 0 ? 0 : 2;
      return 2;
    }
    if (interrupted) {
      const ctx = state.ctx;
      state.streamsUsed = true;
      // an interruption with something to say (a request whose outcome is unknown) says it
      const message = (err as { message?: unknown } | undefined)?.message;
      const said = typeof message === 'string' && message.startsWith('interrupted') ? message : 'interrupted';
      (ctx?.io.stderr ?? process.stderr).write(`vx: ${said}\n`);
      return 130;
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
