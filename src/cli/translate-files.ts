// `vx translate file` and `vx translate sync`: declarations only; the work is in
// translate-files-run.js, loaded when one runs. Options that `translate` itself has (--to,
// --from, --category, --concurrency, --out) are parsed by it wherever they stand on the line and
// reach these commands merged; they are declared here too for help and completion.
import { Help, type Command } from 'commander';
import { arg, command, opt, type OptionsOf } from './define.js';

const FORMATS = ['xliff', 'json', 'yaml', 'po', 'md', 'auto'] as const;
const run = () => import('./translate-files-run.js');

const SOURCES = arg('<source...>', 'source locale file(s): .xlf/.xliff, .json, .yml/.yaml, .po/.pot, .md');
const COMMON = [
  opt('--to <lang>', 'target language (repeatable, or comma-separated: --to de,fr); required', { repeat: true }),
  opt('--from <lang>', 'source language (default: the one the file names, else detected)'),
  opt('--out-dir <dir>', "write the targets into this directory (default: beside the source, named by the format's convention)"),
  opt('--out <pattern>', 'target path pattern with {lang} (and {dir}, {name}, {ext}), e.g. locales/{lang}/{name}.json'),
  opt('--format <format>', 'file format (default auto: from the extension)', { choices: FORMATS, lenient: true }),
  opt('--protect <regex>', 'also keep text matching this regular expression unchanged (repeatable)', { repeat: true }),
  opt('--state <state>', 'XLIFF: state of machine-translated units (default 1.2 needs-review-translation, 2.0 translated)'),
  opt('--fuzzy', 'PO: mark machine translations fuzzy (for review)'),
  opt('--category <id>', 'category (domain) of a custom translation system (default: general)'),
  opt('--concurrency <n>', 'requests in flight at once (default 4, at most 64)'),
  opt('--trace-id <guid>', 'X-ClientTraceId sent with every request (default: a fresh GUID per request)'),
  opt('--memory <path>', 'translation memory file: what it holds is not sent, what is sent is stored (default: the translate.memory setting)'),
  opt('--max-chars-per-minute <n>', "the subscription's limit in billed characters a minute, to pace by from the start (default: translate.maxRate; else learned from 429s)"),
  opt('--budget <chars>', 'bill at most this many characters: stop before a request that would cross it (exit 6, nothing written)'),
] as const;

/** the global options shown are the program's, not translate's own (which these commands refuse) */
function programGlobalsOnly(cmd: Command): void {
  const inherited = cmd.configureHelp();
  cmd.configureHelp({
    ...inherited,
    visibleGlobalOptions(this: Help, c: Command) {
      let root = c;
      while (root.parent) root = root.parent;
      const globals = new Set(root.options.map((o) => o.long));
      return Help.prototype.visibleGlobalOptions.call(this, c).filter((o) => globals.has(o.long));
    },
  });
}
const SYNC = [opt('--check', 'send nothing: list the missing or stale units per language and exit 1 if there are any'), ...COMMON] as const;

/** what runFiles reads: `sync`'s options (`file` has all but --check) */
export type FilesOptions = OptionsOf<typeof SYNC>;

export const TRANSLATE_FILES = [
  command({
    name: 'file',
    summary: 'translate locale files (XLIFF, JSON, YAML, PO, Markdown) into one target file per language, placeholders kept',
    args: [SOURCES],
    options: COMMON,
    examples: [
      'vx translate file <xlf> --to de-DE,fr-FR        # Translations/app.g.xlf -> Translations/app.de-DE.xlf, ...',
      "vx translate file <json> --to de,fr --out '<dir>/{lang}/{name}.json'",
      'vx translate file <pot> --to de,pl --fuzzy      # po/messages.pot -> po/de.po, po/pl.po',
      'vx translate file <md> --to ja                  # README.md -> README.ja.md',
    ],
    more: `
Every unit is translated and every target written (atomically: complete or not at all), with a
lock file (<source>.vxlock) beside the targets so that a later 'vx translate sync' sends only what
changed. Placeholders (printf, {0}, %1, {{x}}, $t(...), ICU, HTML tags) are protected and checked:
a unit whose placeholders did not survive is not written as translated, is listed on stderr, and
the run exits 1 after writing everything else. See docs/translate-files.md.
`,
    configure: programGlobalsOnly,
    run: async (ctx, opts, sources) => (await run()).runFiles(ctx, opts, sources, 'file'),
  }),
  command({
    name: 'sync',
    summary: 'bring the targets of locale files up to date: only new and changed units are sent, edits by hand kept',
    args: [SOURCES],
    options: SYNC,
    examples: ['vx translate sync <xlf> --to de-DE,fr-FR        # only new and changed units are sent', 'vx translate sync <json> --to de,fr --check     # in CI: exit 1 listing what is missing or stale'],
    more: `
Units are new, changed (their source differs from the one the lock file recorded) or kept. A
target value changed by hand since vx wrote it is kept ("kept manual edit"); units the source no
longer has are removed from XLIFF, JSON and YAML targets and marked obsolete (#~) in PO targets.
`,
    configure: programGlobalsOnly,
    run: async (ctx, opts, sources) => (await run()).runFiles(ctx, opts, sources, 'sync'),
  }),
];
