// Turns any error into one line on stderr and the contract's exit code.
import type { Ctx } from '../core/context.js';
import { asVxError, EXIT, ExitStatus, oneLine, terminalText } from '../core/errors.js';
import { DryRunHalt } from '../core/http/index.js';
import { redact } from '../core/redact.js';

/** Writes the error to the run's stderr (`fallback` when no Ctx was built) and returns its exit code. */
export async function report(err: unknown, ctx: Ctx | undefined, fallback: NodeJS.WritableStream, debug: boolean): Promise<number> {
  if (err instanceof DryRunHalt && ctx) {
    await ctx.writePlan();
    return EXIT.ok;
  }
  const e = asVxError(err);
  if (e instanceof ExitStatus && !e.message) return e.exitCode;
  const stderr = ctx?.io.stderr ?? fallback;
  const red = ctx ? ctx.errChalk.red : (s: string) => s;
  stderr.write(`${red('vx:')} ${oneLine(redact(e.message))}\n`);
  if (e.hint) stderr.write(`${redact(e.hint).split('\n').map(oneLine).join('\n')}\n`);
  // the stack repeats the message, which may hold a service's escape sequences: escaped as the line above
  if (debug && (err as Error)?.stack) stderr.write(`${terminalText(redact(String((err as Error).stack)))}\n`);
  return e.exitCode;
}
