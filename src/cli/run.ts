// One command line, run: the tree declared for it, parsed, its action run with a Ctx built from
// the factory, and any error turned into one message and the contract's exit code. main.ts runs
// it with the process's factory; tests run whole command lines in-process with their own.
import { CommanderError } from 'commander';
import type { Factory } from './factory.js';
import { buildProgram } from './program.js';
import { SESSION, type Session } from './runner.js';
import { VERSION } from './version.js';

/** The exit code of help or the version written straight to stdout: 1 when the writing failed (not EPIPE), said on stderr. */
function lostOutput(factory: Factory, code: number): number {
  const lost = factory.outputLost?.();
  if (lost === undefined) return code;
  factory.writeErr(`vx: cannot write to standard output: ${lost}; the output is incomplete\n`);
  return 1;
}

function commanderExit(factory: Factory, err: CommanderError): number {
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return lostOutput(factory, 0);
  // `vx help <cmd>` is help asked for (exit 0); a group run without a subcommand is a usage error
  if (err.code === 'commander.help') return lostOutput(factory, err.exitCode === 0 ? 0 : 2);
  return 2;
}

/** Runs `vx <argv>` (the words after the program's name) and returns its exit code. */
export async function run(argv: readonly string[], factory: Factory): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    factory.writeOut(`${VERSION}\n`);
    return lostOutput(factory, 0);
  }
  const session: Session = { factory };
  const program = buildProgram(argv, factory);
  Object.assign(program, { [SESSION]: session });
  try {
    await program.parseAsync(['node', 'vx', ...argv]);
    return factory.interrupted?.()?.code ?? 0;
  } catch (err) {
    if (err instanceof CommanderError) return commanderExit(factory, err);
    const stop = factory.interrupted?.();
    if (stop) {
      // an interruption with something to say (a request whose outcome is unknown) says it
      const message = (err as { message?: unknown } | undefined)?.message;
      const said = typeof message === 'string' && message.startsWith('interrupted') ? message : 'interrupted';
      const by = stop.by !== 'SIGINT' ? ` (${stop.by})` : '';
      (session.ctx?.io.stderr ?? factory.io.stderr).write(`vx: ${said}${by}\n`);
      return stop.code;
    }
    const { report } = await import('./report.js');
    return report(err, session.ctx, factory.io.stderr, argv.includes('--debug'));
  } finally {
    if (!factory.exitsAfterRun) await session.ctx?.http.close();
  }
}
