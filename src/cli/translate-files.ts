// `vx translate file` and `vx translate sync`: declarations only; the work is in
// translate-files-run.js, loaded when one runs. Options that `translate` itself has (--to,
// --from, --category, --concurrency, --out) are parsed by it wherever they stand on the line and
// reach these commands merged; they are declared here too for help and completion.
import { Option, type Command } from 'commander';
import { act, collect, examples } from './runner.js';

const FORMATS = ['xliff', 'json', 'po', 'md', 'auto'];

function common(cmd: Command): Command {
  return cmd
    .argument('<source...>', 'source locale file(s): .xlf/.xliff, .json, .po/.pot, .md')
    .option('--to <lang>', 'target language (repeatable, or comma-separated: --to de,fr); required', collect)
    .option('--from <lang>', 'source language (default: the one the file names, else detected)')
    .option('--out-dir <dir>', "write the targets into this directory (default: beside the source, named by the format's convention)")
    .option('--out <pattern>', 'target path pattern with {lang} (and {dir}, {name}, {ext}), e.g. locales/{lang}/{name}.json')
    .addOption(new Option('--format <format>', 'file format (default auto: from the extension)').choices(FORMATS).argParser((v: string) => v))
    .option('--protect <regex>', 'also keep text matching this regular expression unchanged (repeatable)', collect)
    .option('--state <state>', 'XLIFF: state of machine-translated units (default 1.2 needs-review-translation, 2.0 translated)')
    .option('--fuzzy', 'PO: mark machine translations fuzzy (for review)')
    .option('--category <id>', 'category (domain) of a custom translation system (default: general)')
    .option('--concurrency <n>', 'requests in flight at once (default 4, at most 64)');
}

export function registerTranslateFiles(translate: Command): void {
  common(
    translate
      .command('file')
      .description('translate locale files (XLIFF, JSON, PO, Markdown) into one target file per language, placeholders kept')
      .addHelpText(
        'after',
        examples(
          'vx translate file <xlf> --to de-DE,fr-FR        # Translations/app.g.xlf -> Translations/app.de-DE.xlf, ...',
          "vx translate file <json> --to de,fr --out '<dir>/{lang}/{name}.json'",
          'vx translate file <pot> --to de,pl --fuzzy      # po/messages.pot -> po/de.po, po/pl.po',
          'vx translate file <md> --to ja                  # README.md -> README.ja.md',
        ) +
          `
Every unit is translated and every target written (atomically: complete or not at all), with a
lock file (<source>.vxlock) beside the targets so that a later 'vx translate sync' sends only what
changed. Placeholders (printf, {0}, %1, {{x}}, $t(...), ICU, HTML tags) are protected and checked:
a unit whose placeholders did not survive is not written as translated, is listed on stderr, and
the run exits 1 after writing everything else. See docs/translate-files.md.
`,
      ),
  ).action(act(async (ctx, opts, sources: string[]) => (await import('./translate-files-run.js')).runFiles(ctx, opts, sources, 'file')));
  common(
    translate
      .command('sync')
      .description('bring the targets of locale files up to date: only new and changed units are sent, edits by hand kept')
      .option('--check', 'send nothing: list the missing or stale units per language and exit 1 if there are any')
      .addHelpText(
        'after',
        examples(
          'vx translate sync <xlf> --to de-DE,fr-FR        # only new and changed units are sent',
          'vx translate sync <json> --to de,fr --check     # in CI: exit 1 listing what is missing or stale',
        ) +
          `
Units are new, changed (their source differs from the one the lock file recorded) or kept. A
target value changed by hand since vx wrote it is kept ("kept manual edit"); units the source no
longer has are removed from XLIFF and JSON targets and marked obsolete (#~) in PO targets.
`,
      ),
  ).action(act(async (ctx, opts, sources: string[]) => (await import('./translate-files-run.js')).runFiles(ctx, opts, sources, 'sync')));
}
