// What vx says of a file it creates beside the user's (an import's journal, a translation memory and
// the lock its store keeps, the lock file of translate file|sync), the first time: at a terminal,
// or with --verbose, so that a file does not appear without a word while scripts' stderr stays as it was.
import type { Ctx } from '../core/context.js';

export function tellCreated(ctx: Ctx, line: string): void {
  if (ctx.stderrIsTTY) ctx.info(line);
  else ctx.verbose(line);
}
