// Which entries `vx translate memory prune` removes: those matching every condition given.
import { UsageError } from '../../../core/errors.js';
import { serviceLanguage } from '../../../model/translator.js';
import { language } from '../options.js';
import type { MemoryEntry } from './memory.js';

export interface PruneSelection {
  /** `30d`, `12h`, `90m`, `2w` */
  olderThan?: string;
  /** (a list when `translate`'s own repeatable --to took it) */
  to?: string | string[];
  from?: string;
  all?: boolean;
}

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

/** The entries to remove (`now`: unix seconds). */
export function pruneSelection(o: PruneSelection, now = Math.floor(Date.now() / 1000)): (e: MemoryEntry) => boolean {
  if (o.olderThan === undefined && o.to === undefined && o.from === undefined && !o.all) {
    throw new UsageError('say what to remove: --older-than <age>, --to <lang>, --from <lang> (together: entries matching all), or --all');
  }
  const cutoff = o.olderThan !== undefined ? now - parseAge(o.olderThan) : undefined;
  const to = single('--to', o.to);
  const from = single('--from', o.from);
  return (e) => (cutoff === undefined || e.stored < cutoff) && (to === undefined || to.includes(e.options.to)) && (from === undefined || from.includes(e.options.from || 'auto'));
}
