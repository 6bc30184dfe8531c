// `vx translate memory stats`: entries, size, oldest and newest entry, entries per language pair.
import { TranslationMemory } from '../../../api/translator/memory/index.js';
import { requireMemoryPath } from '../../../api/translator/run-settings.js';
import type { Ctx } from '../../../core/context.js';
import type { MemoryStatsOptions } from '../options.js';

const iso = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000).toISOString());

export async function run(ctx: Ctx, opts: MemoryStatsOptions): Promise<void> {
  const mem = await TranslationMemory.open(requireMemoryPath(ctx, opts.memory), { readOnly: true, env: ctx.env, debug: (m) => ctx.debug(m) });
  try {
    const s = await mem.stats();
    await ctx.print({ path: s.path, entries: s.entries, bytes: s.bytes, oldest: iso(s.oldest), newest: iso(s.newest), pairs: s.pairs });
  } finally {
    await mem.close();
  }
}
