// `vx translate memory export`: every entry as TMX 1.4, streamed to standard output or --out.
import { fmt } from '../../../api/translator/batcher.js';
import { writeTmx } from '../../../api/translator/memory/exchange.js';
import { TranslationMemory } from '../../../api/translator/memory/index.js';
import { notOverMemory, requireMemoryPath } from '../../../api/translator/run-settings.js';
import type { Ctx } from '../../../core/context.js';
import { VERSION } from '../../../core/http/index.js';
import { atomicFileSink, outFile, streamSink } from '../../../core/output/index.js';
import type { MemoryExportOptions } from '../options.js';

export async function run(ctx: Ctx, given: MemoryExportOptions): Promise<void> {
  ctx.noQuery('memory export (it writes TMX)');
  const opts = { ...given, out: outFile(given.out) };
  const path = requireMemoryPath(ctx, opts.memory);
  notOverMemory(opts.out, path);
  const mem = await TranslationMemory.open(path, { readOnly: true, env: ctx.env, debug: (m) => ctx.debug(m) });
  const sink = opts.out !== undefined ? await atomicFileSink(opts.out) : streamSink(ctx.io.stdout);
  let n: number;
  try {
    n = await writeTmx(mem, (chunk) => sink.write(chunk), VERSION, ctx.signal);
    await sink.commit();
  } catch (e) {
    await sink.abort();
    throw e;
  } finally {
    await mem.close();
  }
  ctx.verbose(`exported ${fmt(n)} entr${n === 1 ? 'y' : 'ies'}`);
}
