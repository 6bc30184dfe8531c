// The options vx translate file|sync refuse: translate's own (parsed by it wherever they stand on
// the line, meaningless for files), and, with sync --check, those that would be ignored.
import { customPatterns, type ProtectOptions } from '../../api/translator/files/protect.js';
import { globList } from '../../api/translator/files/skip.js';
import type { ReadOptions } from '../../api/translator/files/types.js';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import type { FilesOptions } from './options.js';

/** translate's own options that mean nothing for files (translate parses them wherever they stand) */
const NOT_FOR_FILES: [keyof TranslateOnly, string][] = [
  ['textType', '--text-type'],
  ['profanityAction', '--profanity-action'],
  ['profanityMarker', '--profanity-marker'],
  ['alignment', '--alignment'],
  ['sentenceLength', '--sentence-length'],
  ['suggestedFrom', '--suggested-from'],
  ['fromScript', '--from-script'],
  ['toScript', '--to-script'],
  ['file', '--file'],
  ['whole', '--whole'],
  ['estimate', '--estimate'],
];

interface TranslateOnly {
  textType?: unknown;
  profanityAction?: unknown;
  profanityMarker?: unknown;
  alignment?: unknown;
  sentenceLength?: unknown;
  suggestedFrom?: unknown;
  fromScript?: unknown;
  toScript?: unknown;
  file?: unknown;
  whole?: unknown;
  estimate?: unknown;
  fallback?: boolean;
}

/** Refuses translate's own options, and --check where it does not apply or with what it ignores. */
export function refuseOptions(ctx: Ctx, opts: FilesOptions, mode: 'file' | 'sync'): void {
  const only = opts as FilesOptions & TranslateOnly;
  for (const [key, flag] of NOT_FOR_FILES) {
    if (only[key] === undefined) continue;
    if (key === 'estimate') throw new UsageError(`--estimate does not apply to vx translate ${mode}: 'vx translate sync --check' lists what would be sent, --dry-run prints the requests`);
    throw new UsageError(`${flag} does not apply to vx translate ${mode} (locale files are sent as HTML with their placeholders protected)`);
  }
  if (only.fallback === false) throw new UsageError(`--no-fallback does not apply to vx translate ${mode}`);
  if (opts.check && mode === 'sync') refuseIgnoredByCheck(ctx, opts);
}

/** what only shapes the requests or the files written: `sync --check` sends nothing and writes nothing */
const IGNORED_BY_CHECK = [
  ['protect', '--protect'],
  ['state', '--state'],
  ['fuzzy', '--fuzzy'],
  ['category', '--category'],
  ['concurrency', '--concurrency'],
  ['traceId', '--trace-id'],
  ['memory', '--memory'],
  ['memoryReadOnly', '--memory-read-only'],
  ['maxCharsPerMinute', '--max-chars-per-minute'],
  ['budget', '--budget'],
] as const satisfies readonly (readonly [keyof FilesOptions, string])[];

/** Options that `--check` would accept and ignore are refused (exit 2), as everywhere in vx, rather than seem to matter. */
function refuseIgnoredByCheck(ctx: Ctx, opts: FilesOptions): void {
  const given: string[] = IGNORED_BY_CHECK.filter(([key]) => opts[key] !== undefined).map(([, flag]) => flag);
  if (ctx.globals.dryRun) given.push('--dry-run');
  if (!given.length) return;
  const one = given.length === 1;
  throw new UsageError(`${given.join(', ')} ${one ? 'has' : 'have'} no effect with --check, which sends nothing and writes nothing: leave ${one ? 'it' : 'them'} out`);
}


/** --out and --out-dir, and --check only for sync. */
export function checkNaming(opts: FilesOptions, sources: readonly string[], mode: 'file' | 'sync'): void {
  if (opts.out !== undefined && opts.outDir !== undefined) throw new UsageError('give --out <pattern> or --out-dir <dir>, not both');
  if (opts.out !== undefined && !opts.out.includes('{lang}')) throw new UsageError(`--out needs {lang} in its pattern (one target per language), e.g. --out 'locales/{lang}/{name}.json'`);
  if (opts.out !== undefined && sources.length > 1 && !/\{(name|dir)\}/.test(opts.out)) throw new UsageError('--out needs {name} or {dir} in its pattern when several sources are given (each gets its own targets)');
  if (opts.check && mode !== 'sync') throw new UsageError('--check applies to vx translate sync');
}

/**
 * How the sources are read: --i18next-format, --front-matter, and the keys skipped (--skip-keys
 * with the profile's translate.skipKeys; a .vxskip beside a source adds its own).
 */
export function readingOf(ctx: Ctx, opts: Pick<FilesOptions, 'i18nextFormat' | 'frontMatter' | 'skipKeys'>): { read: ReadOptions; skipKeys: string[] } {
  const frontMatter = globList(opts.frontMatter);
  if (opts.frontMatter !== undefined && !frontMatter.length) throw new UsageError('--front-matter needs the keys whose values are translated, e.g. --front-matter title,description');
  const i18next = opts.i18nextFormat?.toLowerCase() as ReadOptions['i18next'];
  if (i18next !== undefined && i18next !== 'v3' && i18next !== 'v4') throw new UsageError(`invalid value "${opts.i18nextFormat}" for --i18next-format: allowed v3, v4`);
  return {
    read: { ...(i18next ? { i18next } : {}), ...(frontMatter.length ? { frontMatter } : {}) },
    skipKeys: [...globList(opts.skipKeys), ...globList(ctx.config.get('translate.skipKeys'))],
  };
}

/** What --protect adds to the placeholders kept unchanged. */
export function protectOf(opts: FilesOptions): ProtectOptions {
  try {
    return { custom: customPatterns(opts.protect ?? []) };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
