// `vx translate memory import <file.tmx>`: the entries of a TMX file (1.1 to 1.4) added, the whole
// file checked first (a problem anywhere imports nothing), then read again and stored.
import { statSync } from 'node:fs';
import { fmt } from '../../../api/translator/batcher.js';
import { TranslationMemory, type MemoryEntry } from '../../../api/translator/memory/index.js';
import { language } from '../../../api/translator/options.js';
import { requireMemoryPath } from '../../../api/translator/run-settings.js';
import { readTmx, TmxError, type TmxSkipped } from '../../../api/translator/tmx.js';
import type { Ctx } from '../../../core/context.js';
import { InterruptedError, UsageError } from '../../../core/errors.js';
import { readError } from '../../../core/input.js';
import type { MemoryImportOptions } from '../options.js';

/** A regular file (an import reads it twice). */
function checkReadable(file: string): void {
  let st;
  try {
    st = statSync(file);
  } catch (e) {
    throw readError(file, e);
  }
  if (st.isDirectory()) throw readError(file, { code: 'EISDIR' });
  if (!st.isFile()) throw new UsageError(`cannot read ${file}: not a regular file (an import reads the file twice, checking it whole first, and a pipe cannot be read twice)`);
}

/** The whole file checked (nothing stored): the number of entries it holds. */
async function checkTmx(ctx: Ctx, file: string, from: string | undefined): Promise<number> {
  const skipped: TmxSkipped = { emptyTargets: 0 };
  let total: number;
  try {
    total = await readTmx(
      file,
      () => {
        if (ctx.signal.aborted) throw new InterruptedError('interrupted; nothing was imported');
      },
      { skipped, from },
    );
  } catch (e) {
    if (e instanceof TmxError) throw new UsageError(`${file}: ${e.message}; nothing was imported`);
    throw (e as NodeJS.ErrnoException).code ? readError(file, e) : e;
  }
  if (skipped.emptyTargets) {
    const n = skipped.emptyTargets;
    ctx.warn(`${file}: ${fmt(n)} target segment${n === 1 ? ' is' : 's are'} empty (not translated yet): skipped, so that ${n === 1 ? 'its text is' : 'their texts are'} translated, not answered with nothing`);
  }
  return total;
}

export async function run(ctx: Ctx, opts: MemoryImportOptions, file: string): Promise<void> {
  const path = requireMemoryPath(ctx, opts.memory);
  checkReadable(file);
  // the source language of units the file names none for (srclang="*all*"): a code, as vx translate --from takes it
  const from = language('--from', opts.from);
  // the whole file is checked first: a problem anywhere imports nothing
  const total = await checkTmx(ctx, file, from);
  if (ctx.globals.dryRun) {
    ctx.info(`dry run: ${file} holds ${fmt(total)} entr${total === 1 ? 'y' : 'ies'}; nothing was imported`);
    return;
  }
  const mem = await TranslationMemory.open(path, { env: ctx.env });
  let n = 0;
  try {
    await readTmx(file, async (e: MemoryEntry) => {
      // what was added before Ctrl-C is committed (by close): an import stops between entries
      if (ctx.signal.aborted) throw new InterruptedError(`interrupted; ${fmt(n)} of the ${fmt(total)} entries were imported (importing the file again is safe)`);
      mem.add(e);
      n++;
      if (mem.queued >= 10_000) await mem.flush();
    }, { from });
    await mem.flush();
  } finally {
    await mem.close();
  }
  await ctx.print({ imported: n, memory: path }, { notTTY: 'json' });
}
