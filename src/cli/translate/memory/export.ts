// `vx translate memory export`: every entry as TMX 1.4, streamed to standard output or --out.
import { fmt } from '../../../api/translator/batcher.js';
import { TranslationMemory } from '../../../api/translator/memory/index.js';
import { notOverMemory, requireMemoryPath } from '../../../api/translator/run-settings.js';
import { tmxHeader, tmxUnit, TMX_FOOTER } from '../../../api/translator/tmx.js';
import type { Ctx } from '../../../core/context.js';
import { InterruptedError } from '../../../core/errors.js';
import { VERSION } from '../../../core/http/index.js';
import { atomicFileSink, outFile, streamSink } from '../../../core/output/index.js';
import type { MemoryExportOptions } from '../options.js';

export async function run(ctx: Ctx, given: MemoryExportOptions): Promise<void> {
  ctx.noQuery('memory export (it writes TMX)');
  const opts = { ...given, out: outFile(given.out) };
  const path = requireMemoryPath(ctx, opts.memory);
  notOverMemory(opts.out, path);
  const mem = await TranslationMemory.open(path, { readOnly: true, env: ctx.env });
  const sink = opts.out !== undefined ? await atomicFileSink(opts.out) : streamSink(ctx.io.stdout);
  let n = 0;
  try {
    await sink.write(tmxHeader(VERSION));
    // written in pieces of about 64 KiB, each with back-pressure
    let buf = '';
    for await (const e of mem.entries()) {
      if (ctx.signal.aborted) throw new InterruptedError();
      buf += tmxUnit(e);
      n++;
      if (buf.length >= 65_536) {
        await sink.write(buf);
        buf = '';
        // stdout redirected to a file is written synchronously: without a turn of the event loop
        // Ctrl-C would not be seen before the end (and lmdb would not renew its read transaction)
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await sink.write(buf + TMX_FOOTER);
    await sink.commit();
  } catch (e) {
    await sink.abort();
    throw e;
  } finally {
    await mem.close();
  }
  ctx.verbose(`exported ${fmt(n)} entr${n === 1 ? 'y' : 'ies'}`);
}
