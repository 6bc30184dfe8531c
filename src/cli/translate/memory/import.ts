// `vx translate memory import <file.tmx>`: the entries of a TMX file (1.1 to 1.4) added, the whole
// file checked first (a problem anywhere imports nothing), then read again and stored.
import { fmt } from '../../../api/translator/batcher.js';
import { checkTmx, checkTmxFile, importTmx } from '../../../api/translator/memory/exchange.js';
import { createdNote, TranslationMemory } from '../../../api/translator/memory/index.js';
import { language } from '../../../api/translator/options.js';
import { requireMemoryPath } from '../../../api/translator/run-settings.js';
import type { Ctx } from '../../../core/context.js';
import type { MemoryImportOptions } from '../options.js';
import { tellCreated } from '../../created.js';

export async function run(ctx: Ctx, opts: MemoryImportOptions, file: string): Promise<void> {
  const path = requireMemoryPath(ctx, opts.memory);
  checkTmxFile(file);
  // the source language of units the file names none for (srclang="*all*"): a code, as vx translate --from takes it
  const from = language('--from', opts.from);
  // the whole file is checked first: a problem anywhere imports nothing
  const { total, emptyTargets: n } = await checkTmx(file, from, ctx.signal);
  if (n) ctx.warn(`${file}: ${fmt(n)} target segment${n === 1 ? ' is' : 's are'} empty (not translated yet): skipped, so that ${n === 1 ? 'its text is' : 'their texts are'} translated, not answered with nothing`);
  if (ctx.globals.dryRun) {
    ctx.info(`dry run: ${file} holds ${fmt(total)} entr${total === 1 ? 'y' : 'ies'}; nothing was imported`);
    return;
  }
  const mem = await TranslationMemory.open(path, { env: ctx.env, debug: (m) => ctx.debug(m), note: (m) => ctx.warn(m), signal: ctx.signal, clock: ctx.clock });
  if (mem.created) tellCreated(ctx, createdNote(mem.path));
  let imported: number;
  try {
    imported = await importTmx(mem, file, from, total, ctx.signal);
  } finally {
    await mem.close();
  }
  // the memory as messages name it (a URL's password left out)
  await ctx.print({ imported, memory: mem.path }, { notTTY: 'json' });
}
