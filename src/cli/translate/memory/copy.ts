// `vx translate memory copy <from> <to>`: every entry of one memory copied into another, between
// the stores (a file, a PostgreSQL database), a page at a time.
import { fmt } from '../../../api/translator/batcher.js';
import { TranslationMemory } from '../../../api/translator/memory/index.js';
import { memoryLocation } from '../../../api/translator/run-settings.js';
import { isPostgresUrl, sameDatabase } from '../../../api/translator/memory/pg-settings.js';
import type { Ctx } from '../../../core/context.js';
import { sameFile } from '../../../core/input.js';
import { InterruptedError, UsageError } from '../../../core/errors.js';
import type { MemoryCopyOptions } from '../options.js';

export async function run(ctx: Ctx, _opts: MemoryCopyOptions, fromArg: string, toArg: string): Promise<void> {
  const from = memoryLocation(fromArg, '<from>');
  const to = memoryLocation(toArg, '<to>');
  if (isPostgresUrl(from) ? isPostgresUrl(to) && sameDatabase(from, to, ctx.env) : !isPostgresUrl(to) && sameFile(from, to)) throw new UsageError(`${fromArg} and ${toArg} are the same memory: nothing was copied`);
  const open = { env: ctx.env, debug: (m: string) => ctx.debug(m), note: (m: string) => ctx.warn(m), signal: ctx.signal, clock: ctx.clock };
  const source = await TranslationMemory.open(from, { ...open, readOnly: true });
  try {
    if (ctx.globals.dryRun) {
      let n = 0;
      for await (const _ of source.entries()) n++;
      ctx.dryRunNote(`would copy ${fmt(n)} entr${n === 1 ? 'y' : 'ies'} from ${source.path} to ${to}`);
      return;
    }
    const target = await TranslationMemory.open(to, open);
    let copied = 0;
    try {
      copied = await source.copyTo(target, (n) => {
        // what was copied before Ctrl-C stays copied (each page is committed)
        if (ctx.signal.aborted) throw new InterruptedError(`interrupted; ${fmt(n)} entries were copied (copying again is safe)`);
      });
    } finally {
      await target.close();
    }
    await ctx.print({ copied, from: source.path, to: target.path }, { notTTY: 'json' });
  } finally {
    await source.close();
  }
}
