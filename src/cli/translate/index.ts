// `vx translate` and its subcommands `file` and `sync` (`memory` is declared in memory/): the
// declarations only; each verb's work is in its own module, loaded when it runs.
import { Help, type Command } from 'commander';
import { arg, command } from '../define.js';
import { TRANSLATE_MEMORY } from './memory/index.js';
import { CHECK_OPTIONS, FILE_OPTIONS, SYNC_OPTIONS, TRANSLATE_OPTIONS } from './options.js';

const SOURCES = arg('<source...>', 'source locale file(s): .xlf/.xliff, .json, .yml/.yaml, .po/.pot, .md');

/** `vx translate file <source...>` */
export const TRANSLATE_FILE = command({
  name: 'file',
  summary: 'translate locale files (XLIFF, JSON, YAML, PO, Markdown) into one target file per language, placeholders kept',
  args: [SOURCES],
  options: FILE_OPTIONS,
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
  run: async (ctx, opts, sources) => (await import('./file.js')).run(ctx, opts, sources),
});

/** `vx translate sync <source...>` */
export const TRANSLATE_SYNC = command({
  name: 'sync',
  summary: 'bring the targets of locale files up to date: only new and changed units are sent, edits by hand kept',
  args: [SOURCES],
  options: SYNC_OPTIONS,
  examples: ['vx translate sync <xlf> --to de-DE,fr-FR        # only new and changed units are sent', 'vx translate sync <json> --to de,fr --check     # in CI: exit 9 listing what is missing or stale'],
  more: `
Units are new, changed (their source differs from the one the lock file recorded) or kept. A
target value changed by hand since vx wrote it is kept ("kept manual edit"); one whose source
changed since is kept and marked for review (PO fuzzy with the previous msgid as #|, XLIFF
needs-review) unless --retranslate-changed. Units the source no longer has are removed from
XLIFF, JSON and YAML targets and marked obsolete (#~) in PO targets. --check exits 9 when units
are missing or stale (1 is a failed request).
`,
  configure: programGlobalsOnly,
  run: async (ctx, opts, sources) => (await import('./sync.js')).run(ctx, opts, sources),
});

/** `vx translate check <file...>` */
export const TRANSLATE_CHECK = command({
  name: 'check',
  ownOptionsOnly: true,
  summary: "check the translations of locale files, whoever made them: placeholders, printf, ICU, markup, control characters",
  args: [arg('<file...>', 'PO catalogues and XLIFF files with targets; or sources, with --to naming the languages of their targets')],
  options: CHECK_OPTIONS,
  examples: ['vx translate check <po>                      # po/de.po: its msgstr against its msgid', 'vx translate check <json> --to de,fr          # locales/en.json against de.json and fr.json'],
  more: `
The checks every answer of the service passes in vx translate file|sync, run on translations
whoever made them (as pofilter and Weblate's checks): the same placeholders, printf directives by
the PO entry's format flag (an unnumbered %s may not trade places with a %d), the same ICU
arguments (a plural's cases are the target language's), inline elements nested as in the source,
no control character or line break the source does not have. One line per problem
(file:line: unit: problem); exit 9 when there is any, 0 when none. Nothing is sent.
`,
  run: async (ctx, opts, files) => (await import('./check.js')).run(ctx, opts, files),
});

/** `vx translate [text...]` */
export const TRANSLATE = command({
  name: 'translate',
  summary: 'translate text: arguments, a file or standard input, one item per line, any volume',
  args: [arg('[text...]', 'texts to translate, one item each (else --file, else standard input)')],
  options: TRANSLATE_OPTIONS,
  examples: [
    'vx translate --to de "Good morning"',
    'echo "Good morning" | vx translate --to de --to fr',
    'vx translate --to de,fr -f notes.txt --out notes.de-fr.txt',
    'vx translate --to ja --to-script Latn --from en "Hello" -o json',
    'vx translate --to de --text-type html --whole -f page.html',
    'vx translate --to de,fr -f notes.txt --memory notes.tm --estimate',
  ],
  more: `
Input: the arguments (one item each), else --file, else standard input when it is not a terminal;
one item per line unless --whole. Requests hold at most 1,000 items and 50,000 characters counted
across all targets; results are written in input order as they arrive. Output: text (default when
stdout is not a terminal; with several --to, "<lang><TAB><text>" lines), json, ndjson, table, tsv, csv, yaml.
Each distinct text is sent once per run; with a memory (--memory or translate.memory) once ever.
Requests are paced to the subscription's rate, learned from 429s or --max-chars-per-minute.
`,
  run: async (ctx, opts, texts) => (await import('./translate.js')).run(ctx, opts, texts),
  commands: () => [TRANSLATE_FILE, TRANSLATE_SYNC, TRANSLATE_CHECK, TRANSLATE_MEMORY],
});

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
