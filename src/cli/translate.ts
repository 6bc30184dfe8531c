// The `vx translate` command: declarations only; the work is in translate-run.js, loaded when it runs.
import { Option, type Command } from 'commander';
import { PROFANITY_ACTIONS, PROFANITY_MARKERS, TEXT_TYPES } from '../spec/translator.js';
import { act, collect, examples } from './runner.js';
import { registerTranslateFiles } from './translate-files.js';

/** an option with listed values (shown in help and completions) checked case-insensitively by the run function */
function choice(flags: string, description: string, values: readonly string[]): Option {
  return new Option(flags, description).choices(values).argParser((v: string) => v);
}

export function registerTranslate(program: Command): void {
  const translate = program
    .command('translate')
    .argument('[text...]', 'texts to translate, one item each (else --file, else standard input)')
    .description('translate text: arguments, a file or standard input, one item per line, any volume')
    .option('--to <lang>', 'target language (repeatable, or comma-separated: --to de,fr); required', collect)
    .option('--from <lang>', 'source language (default: detected per item)')
    .addOption(choice('--text-type <type>', 'kind of text: plain (default) or html (markup kept, class=notranslate left as is)', TEXT_TYPES))
    .option('--category <id>', 'category (domain) of a custom translation system (default: general)')
    .addOption(choice('--profanity-action <action>', 'what happens to profane words (default NoAction)', PROFANITY_ACTIONS))
    .addOption(choice('--profanity-marker <marker>', 'how --profanity-action Marked marks them (default Asterisk)', PROFANITY_MARKERS))
    .option('--alignment', 'include the word alignment of source and translation')
    .option('--sentence-length', 'include the sentence lengths of source and translation')
    .option('--suggested-from <lang>', 'source language to assume when detection fails (without --from)')
    .option('--from-script <script>', 'script of the input text (ISO 15924, e.g. Latn)')
    .option('--to-script <script>', 'transliterate each translation into this script; one per --to (repeatable or comma-separated)', collect)
    .option('--no-fallback', 'use only the custom system of --category, never a general one (allowFallback=false)')
    .option('--trace-id <guid>', 'X-ClientTraceId sent with every request (default: a fresh GUID per request)')
    .option('-f, --file <path|->', 'read the items from a file (- for standard input), one per line')
    .option('--whole', 'the whole input is one item (instead of one item per line)')
    .option('--concurrency <n>', 'requests in flight at once (default 4, at most 64)')
    .option('--out <file>', 'write the results to this file (it appears only when complete; default format text)')
    .option('--memory <path>', 'translation memory file: what it holds is not sent, what is sent is stored (default: the translate.memory setting)')
    .option('--no-memory', 'use no translation memory for this run (even if translate.memory is set)')
    .option('--max-chars-per-minute <n>', "the subscription's limit in billed characters a minute, to pace by from the start (default: translate.maxRate; else learned from 429s)")
    .option('--estimate', 'send nothing: print items, distinct items, memory hits and the characters that would be billed')
    .option('--budget <chars>', 'bill at most this many characters: stop before a request that would cross it (exit 6)')
    .addHelpText(
      'after',
      examples(
        'vx translate --to de "Good morning"',
        'echo "Good morning" | vx translate --to de --to fr',
        'vx translate --to de,fr -f notes.txt --out notes.de-fr.txt',
        'vx translate --to ja --to-script Latn --from en "Hello" -o json',
        'vx translate --to de --text-type html --whole -f page.html',
        'vx translate --to de,fr -f notes.txt --memory notes.tm --estimate',
      ) +
        `
Input: the arguments (one item each), else --file, else standard input when it is not a terminal;
one item per line unless --whole. Requests hold at most 1,000 items and 50,000 characters counted
across all targets; results are written in input order as they arrive. Output: text (default when
stdout is not a terminal; with several --to, "<lang><TAB><text>" lines), json, ndjson, table, tsv, yaml.
Each distinct text is sent once per run; with a memory (--memory or translate.memory) once ever.
Requests are paced to the subscription's rate, learned from 429s or --max-chars-per-minute.
`,
    )
    .action(act(async (ctx, opts, texts: string[]) => (await import('./translate-run.js')).runTranslate(ctx, opts, texts)));
  registerTranslateFiles(translate);
  registerMemory(translate);
}

const memoryRun = () => import('./translate-memory-run.js');

function registerMemory(translate: Command): void {
  const memory = translate
    .command('memory')
    .description('the translation memory: statistics, TMX 1.4 export and import, pruning')
    .addHelpText(
      'after',
      examples('vx translate memory stats --memory <tm>', 'vx translate memory export --memory <tm> --out <tmx>', 'vx translate memory import <tmx> --memory <tm>') +
        `
The memory file is --memory <path>, else the translate.memory setting. See docs/translate.md.
`,
    );
  const withPath = (cmd: Command) => cmd.option('--memory <path>', 'the translation memory file (default: the translate.memory setting)');
  withPath(memory.command('stats'))
    .description('entries, size, oldest and newest entry, entries per language pair')
    .addHelpText('after', examples('vx translate memory stats --memory <tm> -o json'))
    .action(act(async (ctx, opts) => (await memoryRun()).stats(ctx, opts)));
  withPath(memory.command('export'))
    .description('write every entry as TMX 1.4 (streamed) to standard output or --out')
    .option('--out <file>', 'write to this file (it appears only when complete)')
    .addHelpText('after', examples('vx translate memory export --memory <tm> --out <tmx>'))
    .action(act(async (ctx, opts) => (await memoryRun()).exportTmx(ctx, opts)));
  withPath(memory.command('import'))
    .description('add the entries of a TMX 1.4 file (checked whole first: any problem imports nothing)')
    .argument('<file.tmx>', 'the TMX file')
    .addHelpText('after', examples('vx translate memory import <tmx> --memory <tm>'))
    .action(act(async (ctx, opts, file: string) => (await memoryRun()).importTmx(ctx, opts, file)));
  withPath(memory.command('prune'))
    .description('remove entries: older than an age, of a target or source language (asks, or --yes)')
    .option('--older-than <age>', 'entries stored longer ago than this: 90m, 12h, 30d, 8w')
    .option('--to <lang>', 'entries translated into this language')
    .option('--from <lang>', 'entries translated from this language (auto: detected sources)')
    .option('--all', 'every entry')
    .addHelpText('after', examples('vx translate memory prune --memory <tm> --older-than 90d --yes'))
    .action(act(async (ctx, opts) => (await memoryRun()).prune(ctx, opts)));
}
