// `vx translate memory prune`: entries removed by age, target or source language (asks, or --yes).
import { fmt } from '../../../api/translator/batcher.js';
import { TranslationMemory, type MemoryEntry } from '../../../api/translator/memory/index.js';
import { language } from '../../../api/translator/options.js';
import { requireMemoryPath } from '../../../api/translator/run-settings.js';
import type { Ctx } from '../../../core/context.js';
import { InterruptedError, UsageError } from '../../../core/errors.js';
import { confirmDestructive } from '../../../core/prompt.js';
import { serviceLanguage } from '../../../model/translator.js';
import type { MemoryPruneOptions } from '../options.js';

/** `30d`, `12h`, `90m`, `2w` -> seconds */
function parseAge(v: string): number {
  const m = /^\s*(\d+)\s*([mhdw])\s*$/i.exec(v);
  if (!m) throw new UsageError(`invalid value "${v}" for --older-than: expected a whole number with m, h, d or w, e.g. 30d`);
  const unit = { m: 60, h: 3600, d: 86_400, w: 604_800 }[m[2].toLowerCase() as 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}

/**
 * The codes entries of one language given to an option `translate` itself also declares (repeatable
 * there: it may arrive as a list) are stored under: the code as vx translate sends it, and the
 * service's language for a file's locale, as translate file and a TMX import key it (de-DE -> de,
 * zh-CN -> zh-Hans). Lower case.
 */
function single(flag: string, v: string | string[] | undefined): string[] | undefined {
  const all = v === undefined ? [] : ([] as string[]).concat(v).flatMap((x) => x.split(',')).map((x) => x.trim());
  if (all.length > 1) throw new UsageError(`${flag} takes one language here: ${all.join(', ')}`);
  if (all[0]?.toLowerCase() === 'auto' && flag === '--from') return ['auto'];
  // a code that is not one would match nothing: refused, as vx translate refuses it
  const code = language(flag, all[0]);
  return code === undefined ? undefined : [...new Set([code.toLowerCase(), serviceLanguage(code).toLowerCase()])];
}

/** Which entries go: those matching every condition given. */
function selection(opts: MemoryPruneOptions): (e: MemoryEntry) => boolean {
  if (opts.olderThan === undefined && opts.to === undefined && opts.from === undefined && !opts.all) {
    throw new UsageError('say what to remove: --older-than <age>, --to <lang>, --from <lang> (together: entries matching all), or --all');
  }
  const cutoff = opts.olderThan !== undefined ? Math.floor(Date.now() / 1000) - parseAge(opts.olderThan) : undefined;
  const to = single('--to', opts.to);
  const from = single('--from', opts.from);
  return (e) => (cutoff === undefined || e.stored < cutoff) && (to === undefined || to.includes(e.options.to)) && (from === undefined || from.includes(e.options.from || 'auto'));
}

export async function run(ctx: Ctx, opts: MemoryPruneOptions): Promise<void> {
  const path = requireMemoryPath(ctx, opts.memory);
  const drop = selection(opts);
  const mem = await TranslationMemory.open(path, { readOnly: ctx.globals.dryRun, create: false, env: ctx.env });
  try {
    let matching = 0;
    for await (const e of mem.entries()) if (drop(e)) matching++;
    const entries = `${fmt(matching)} entr${matching === 1 ? 'y' : 'ies'}`;
    if (ctx.globals.dryRun) {
      ctx.dryRunNote(`would remove ${entries} from ${mem.path}`);
      return;
    }
    if (matching) await confirmDestructive(ctx.prompter, ctx.globals.yes, `remove ${entries} from the translation memory ${mem.path}?`, 'nothing was changed');
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
