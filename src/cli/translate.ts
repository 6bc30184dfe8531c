// The `vx translate` command: its declaration; the work is in translate-run.js, loaded when it runs.
import { PROFANITY_ACTIONS, PROFANITY_MARKERS, TEXT_TYPES } from '../model/translator.js';
import { arg, command, group, opt, type OptionsOf } from './define.js';
import { TRANSLATE_FILES } from './translate-files.js';

const OPTIONS = [
  opt('--to <lang>', 'target language (repeatable, or comma-separated: --to de,fr); required', { repeat: true }),
  opt('--from <lang>', 'source language (default: detected per item)'),
  // listed values (shown in help and completions) checked case-insensitively by the run function
  opt('--text-type <type>', 'kind of text: plain (default) or html (markup kept, class=notranslate left as is)', { choices: TEXT_TYPES, lenient: true }),
  opt('--category <id>', 'category (domain) of a custom translation system (default: general)'),
  opt('--profanity-action <action>', 'what happens to profane words (default NoAction)', { choices: PROFANITY_ACTIONS, lenient: true }),
  opt('--profanity-marker <marker>', 'how --profanity-action Marked marks them (default Asterisk)', { choices: PROFANITY_MARKERS, lenient: true }),
  opt('--alignment', 'include the word alignment of source and translation'),
  opt('--sentence-length', 'include the sentence lengths of source and translation'),
  opt('--suggested-from <lang>', 'source language to assume when detection fails (without --from)'),
  opt('--from-script <script>', 'script of the input text (ISO 15924, e.g. Latn)'),
  opt('--to-script <script>', 'transliterate each translation into this script; one per --to (repeatable or comma-separated)', { repeat: true }),
  opt('--no-fallback', 'use only the custom system of --category, never a general one (allowFallback=false)'),
  opt('--trace-id <guid>', 'X-ClientTraceId sent with every request (default: a fresh GUID per request)'),
  opt('-f, --file <path|->', 'read the items from a file (- for standard input), one per line'),
  opt('--whole', 'the whole input is one item (instead of one item per line)'),
  opt('--concurrency <n>', 'requests in flight at once (default 4, at most 64)'),
  opt('--out <file>', 'write the results to this file (it appears only when complete; default format text; - is standard output)'),
  opt('--memory <path>', 'translation memory file: what it holds is not sent, what is sent is stored (default: the translate.memory setting)'),
  opt('--max-chars-per-minute <n>', "the subscription's limit in billed characters a minute, to pace by from the start (default: translate.maxRate; else learned from 429s)"),
  opt('--estimate', 'send nothing: print items, distinct items, memory hits and the characters that would be billed'),
  opt('--budget <chars>', 'bill at most this many characters: stop before a request that would cross it (exit 6)'),
] as const;

export type TranslateOptions = OptionsOf<typeof OPTIONS>;

export const TRANSLATE = command({
  name: 'translate',
  summary: 'translate text: arguments, a file or standard input, one item per line, any volume',
  args: [arg('[text...]', 'texts to translate, one item each (else --file, else standard input)')],
  options: OPTIONS,
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
  run: async (ctx, opts, texts) => (await import('./translate-run.js')).runTranslate(ctx, opts, texts),
  commands: () => [...TRANSLATE_FILES, TRANSLATE_MEMORY],
});

const memoryRun = () => import('./translate-memory-run.js');
const MEMORY = opt('--memory <path>', 'the translation memory file (default: the translate.memory setting)');

/** `vx translate memory stats|export|import|prune` */
export const TRANSLATE_MEMORY = group({
  name: 'memory',
  summary: 'the translation memory: statistics, TMX 1.4 export and import, pruning',
  examples: ['vx translate memory stats --memory <tm>', 'vx translate memory export --memory <tm> --out <tmx>', 'vx translate memory import <tmx> --memory <tm>'],
  more: `
The memory file is --memory <path>, else the translate.memory setting. See docs/translate.md.
`,
  commands: () => [
    command({
      name: 'stats',
      ownOptionsOnly: true,
      summary: 'entries, size, oldest and newest entry, entries per language pair',
      options: [MEMORY],
      examples: ['vx translate memory stats --memory <tm> -o json'],
      run: async (ctx, opts) => (await memoryRun()).stats(ctx, opts),
    }),
    command({
      name: 'export',
      ownOptionsOnly: true,
      summary: 'write every entry as TMX 1.4 (streamed) to standard output or --out',
      options: [MEMORY, opt('--out <file>', 'write to this file (it appears only when complete; - is standard output)')],
      examples: ['vx translate memory export --memory <tm> --out <tmx>'],
      run: async (ctx, opts) => (await memoryRun()).exportTmx(ctx, opts),
    }),
    command({
      name: 'import',
      ownOptionsOnly: true,
      summary: 'add the entries of a TMX file, 1.1 to 1.4 (checked whole first: any problem imports nothing)',
      args: [arg('<file.tmx>', 'the TMX file')],
      options: [MEMORY, opt('--from <lang>', 'the source language of units the file names none for (its header says srclang="*all*")')],
      examples: ['vx translate memory import <tmx> --memory <tm>'],
      run: async (ctx, opts, file) => (await memoryRun()).importTmx(ctx, opts, file),
    }),
    command({
      name: 'prune',
      ownOptionsOnly: true,
      summary: 'remove entries: older than an age, of a target or source language (asks, or --yes)',
      options: [
        MEMORY,
        opt('--older-than <age>', 'entries stored longer ago than this: 90m, 12h, 30d, 8w'),
        opt('--to <lang>', 'entries translated into this language'),
        opt('--from <lang>', 'entries translated from this language (auto: detected sources)'),
        opt('--all', 'every entry'),
      ],
      examples: ['vx translate memory prune --memory <tm> --older-than 90d --yes'],
      run: async (ctx, opts) => (await memoryRun()).prune(ctx, opts),
    }),
  ],
});
