// The lock file beside the targets (`<source file name>.vxlock`): per language, per unit, the hash
// of the source vx translated and the hash of the translation it wrote, so that `sync` sends only
// new and changed units, keeps a target edited by hand, and `sync --check` can say what is stale.
// Hashes, not texts: the file stays small and holds no translations (a translation memory is
// the place for those).
import { UsageError } from '../../../core/errors.js';
import { hash, type SourceUnit } from './types.js';

/** how vx came to the unit's target value */
export type Origin =
  /** vx wrote this translation */
  | 'v'
  /** a person wrote or changed it (or it was there before vx) */
  | 'm'
  /** vx left it untranslated (its placeholders did not survive): translated again next time */
  | 'p';

/** [source hash, target hash, origin] */
export type LockEntry = [string, string, Origin];

export interface LockLanguage {
  /** the target file, relative to the lock file's directory */
  target: string;
  units: Record<string, LockEntry>;
  /** Markdown: the unit keys in the order of the target's blocks */
  order?: string[];
}

export interface LockFile {
  vx: 1;
  source: string;
  format: string;
  languages: Record<string, LockLanguage>;
}

export function emptyLock(source: string, format: string): LockFile {
  return { vx: 1, source, format, languages: dict() };
}

/** A map from keys of files (a JSON key may be `constructor` or `__proto__`): no prototype to inherit from. */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

const isEntry = (e: unknown): e is LockEntry => Array.isArray(e) && e.length === 3 && typeof e[0] === 'string' && typeof e[1] === 'string' && (e[2] === 'v' || e[2] === 'm' || e[2] === 'p');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseLock(text: string, file: string): LockFile {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${file}: the lock file is not valid JSON (${(e as Error).message}); delete it to translate every unit again`);
  }
  const bad = (what?: string) => new UsageError(`${file}: ${what ? `not a valid vx lock file (${what})` : 'not a vx lock file (or one of a newer vx)'}; delete it to translate every unit again`);
  if (!isObject(v) || v.vx !== 1 || !isObject(v.languages)) throw bad();
  // checked whole, and copied into maps without a prototype (unit keys are the files' keys)
  const languages = dict<LockLanguage>();
  for (const [lang, l] of Object.entries(v.languages)) {
    if (!isObject(l) || typeof l.target !== 'string' || !isObject(l.units)) throw bad(`language ${JSON.stringify(lang)}`);
    if (l.order !== undefined && !(Array.isArray(l.order) && l.order.every((k) => typeof k === 'string'))) throw bad(`the order of ${JSON.stringify(lang)}`);
    const units = dict<LockEntry>();
    for (const [k, e] of Object.entries(l.units)) {
      if (!isEntry(e)) throw bad(`unit ${JSON.stringify(k)} of ${JSON.stringify(lang)}`);
      units[k] = e;
    }
    languages[lang] = { target: l.target, units, ...(l.order ? { order: l.order as string[] } : {}) };
  }
  return { vx: 1, source: typeof v.source === 'string' ? v.source : '', format: typeof v.format === 'string' ? v.format : '', languages };
}

/** The lock as written: keys in a stable order, one unit per line (diffs stay readable). */
export function renderLock(lock: LockFile): string {
  const langs = Object.keys(lock.languages).sort();
  const lines = [`{`, `  "vx": 1,`, `  "source": ${JSON.stringify(lock.source)},`, `  "format": ${JSON.stringify(lock.format)},`, `  "languages": {`];
  langs.forEach((lang, li) => {
    const l = lock.languages[lang];
    lines.push(`    ${JSON.stringify(lang)}: {`, `      "target": ${JSON.stringify(l.target)},`);
    if (l.order) lines.push(`      "order": ${JSON.stringify(l.order)},`);
    const keys = Object.keys(l.units).sort();
    lines.push(`      "units": {`);
    keys.forEach((k, i) => lines.push(`        ${JSON.stringify(k)}: ${JSON.stringify(l.units[k])}${i < keys.length - 1 ? ',' : ''}`));
    lines.push(`      }`, `    }${li < langs.length - 1 ? ',' : ''}`);
  });
  lines.push(`  }`, `}`, '');
  return lines.join('\n');
}

/** What a unit of one language needs. */
export type UnitStatus =
  /** the target has no value: translate */
  | 'missing'
  /** vx's translation of an older source: translate again */
  | 'stale'
  /** up to date */
  | 'current'
  /** the target was changed by hand since vx wrote it: kept */
  | 'manual'
  /** a translation by hand whose source changed since: kept, reported */
  | 'manual-stale';

/**
 * The status of a unit from its source, its current target value and its lock entry; and the
 * entry to record when the unit is kept as it is.
 */
export function unitStatus(unit: SourceUnit, value: string | undefined, entry: LockEntry | undefined): { status: UnitStatus; keep?: LockEntry } {
  if (value === undefined) return { status: 'missing' };
  const t = hash(value);
  if (!entry) return { status: 'current', keep: [unit.hash, t, 'm'] };
  const [s, wrote, origin] = entry;
  // changed by hand since vx wrote it: kept; when its source changed too, the edit may be of the old source
  if (t !== wrote) return { status: s === unit.hash ? 'manual' : 'manual-stale', keep: [unit.hash, t, 'm'] };
  if (origin === 'p') return { status: 'missing' };
  if (s === unit.hash) return { status: 'current', keep: entry };
  if (origin === 'v') return { status: 'stale' };
  return { status: 'manual-stale', keep: [unit.hash, t, 'm'] };
}
