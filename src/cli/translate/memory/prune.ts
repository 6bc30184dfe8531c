// `vx translate memory prune`: entries removed by age, target or source language (asks, or --yes).
import { fmt } from '../../../api/translator/batcher.js';
import { TranslationMemory } from '../../../api/translator/memory/index.js';
import { pruneSelection } from '../../../api/translator/memory/select.js';
import { requireMemoryPath } from '../../../api/translator/run-settings.js';
import type { Ctx } from '../../../core/context.js';
import { InterruptedError } from '../../../core/errors.js';
import type { MemoryPruneOptions } from '../options.js';

export async function run(ctx: Ctx, opts: MemoryPruneOptions): Promise<void> {
  const path = requireMemoryPath(ctx, opts.memory);
  const drop = pruneSelection(opts);
  const mem = await TranslationMemory.open(path, { readOnly: ctx.globals.dryRun, create: false, env: ctx.env, debug: (m) => ctx.debug(m), note: (m) => ctx.warn(m), signal: ctx.signal, clock: ctx.clock });
  try {
    let matching = 0;
    for await (const e of mem.entries()) if (drop(e)) matching++;
    const entries = `${fmt(matching)} entr${matching === 1 ? 'y' : 'ies'}`;
    if (ctx.globals.dryRun) {
      ctx.dryRunNote(`would remove ${entries} from ${mem.path}`);
      return;
    }
    if (matching) await ctx.confirmation('nothing was changed').ask(`remove ${entries} from the translation memory ${mem.path}?`);
    let removed = 0;
    if (matching) {
      await mem.prune((e) => {
        // what was removed before Ctrl-C stays removed (committed by close)
        if (ctx.signal.aborted) throw new InterruptedError(`interrupted; ${fmt(removed)} of the ${fmt(matching)} entries were removed`);
        if (!drop(e)) return false;
        removed++;
        return true;
      });
    }
    await ctx.print({ removed, remaining: (await mem.stats()).entries, memory: mem.path }, { notTTY: 'json' });
  } finally {
    await mem.close();
  }
}
