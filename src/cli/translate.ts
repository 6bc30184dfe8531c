// The `vx translate` command: its declaration; the work is in translate-run.js, loaded when it runs.
import { PROFANITY_ACTIONS, PROFANITY_MARKERS, TEXT_TYPES } from '../spec/translator.js';
import { arg, command, opt, type OptionsOf } from './define.js';
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
  opt('--out <file>', 'write the results to this file (it appears only when complete; default format text)'),
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
  ],
  more: `
Input: the arguments (one item each), else --file, else standard input when it is not a terminal;
one item per line unless --whole. Requests hold at most 1,000 items and 50,000 characters counted
across all targets; results are written in input order as they arrive. Output: text (default when
stdout is not a terminal; with several --to, "<lang><TAB><text>" lines), json, ndjson, table, tsv, yaml.
`,
  run: async (ctx, opts, texts) => (await import('./translate-run.js')).runTranslate(ctx, opts, texts),
  commands: () => TRANSLATE_FILES,
});
