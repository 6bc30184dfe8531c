// The options of `vx translate` and its subcommands, and the option objects their run functions
// receive. A leaf: the declarations (index.ts) and the verbs import it; it imports only define.ts
// and model/.
import { PROFANITY_ACTIONS, PROFANITY_MARKERS, TEXT_TYPES } from '../../model/translator.js';
import { opt, type OptionsOf } from '../define.js';

// a run's memory: a file, or a PostgreSQL database shared by a team
const MEMORY_RUN = opt('--memory <path|url>', 'translation memory: a file, or postgres://user@host:port/db (shared); what it holds is not sent, what is sent is stored (default: the translate.memory setting)');
const MEMORY_OPTIONAL = opt('--memory-optional', 'a memory that cannot be opened (a database out of reach) is left out, with a warning, instead of stopping the run');
const MEMORY_READ_ONLY = opt('--memory-read-only', 'only read the translation memory: its hits are used, nothing new is stored (a memory file you may not write is read so anyway)');

export const TRANSLATE_OPTIONS = [
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
  MEMORY_RUN,
  MEMORY_OPTIONAL,
  MEMORY_READ_ONLY,
  opt('--glossary <file>', 'terms translated as this glossary says (TBX, CSV/TSV with a header of language codes, YAML/JSON map); needs --from (default: the translate.glossary setting)'),
  opt('--max-chars-per-minute <n>', "the subscription's limit in billed characters a minute, to pace by from the start (default: translate.maxRate; else learned from 429s)"),
  opt('--estimate', 'send nothing: print items, distinct items, memory hits and the characters that would be billed'),
  opt('--budget <chars>', 'bill at most this many characters: the lines that fit are translated, then exit 6'),
] as const;

export type TranslateOptions = OptionsOf<typeof TRANSLATE_OPTIONS>;

// `file` and `sync`: options that `translate` itself has (--to, --from, --category, --concurrency,
// --out) are parsed by it wherever they stand on the line and reach these commands merged; they
// are declared here too for help and completion.
const FILE_FORMATS = ['xliff', 'json', 'yaml', 'po', 'md', 'android', 'resx', 'properties', 'strings', 'stringsdict', 'arb', 'xcstrings', 'auto'] as const;

// how sources are read: `file`, `sync` and `check` alike
const SKIP_KEYS = opt('--skip-keys <globs>', "keys never sent, written as the source has them (comma-separated globs: meta.*,**.url); with the translate.skipKeys setting and a .vxskip file beside the source");
const I18NEXT_FORMAT = opt('--i18next-format <version>', 'i18next JSON plural keys: v4 (key_one, key_other) or v3 (key, key_plural, key_0...); default: v3 when the file has a key_plural', { choices: ['v3', 'v4'] as const, lenient: true });
const FRONT_MATTER = opt('--front-matter <keys>', 'Markdown: front-matter keys whose values are translated (comma-separated: title,description)');

export const FILE_OPTIONS = [
  opt('--to <lang>', 'target language (repeatable, or comma-separated: --to de,fr); required', { repeat: true }),
  opt('--from <lang>', 'source language (default: the one the file names, else detected)'),
  opt('--out-dir <dir>', "write the targets into this directory (default: beside the source, named by the format's convention)"),
  opt('--out <pattern>', 'target path pattern with {lang} (and {dir}, {name}, {ext}), e.g. locales/{lang}/{name}.json'),
  opt('--format <format>', 'file format (default auto: from the extension)', { choices: FILE_FORMATS, lenient: true }),
  opt('--protect <regex>', 'also keep text matching this regular expression unchanged (repeatable)', { repeat: true }),
  SKIP_KEYS,
  I18NEXT_FORMAT,
  FRONT_MATTER,
  opt('--glossary <file>', 'terms translated as this glossary says (TBX, CSV/TSV, YAML/JSON); default: the translate.glossary setting, else a .vxglossary.<tbx|csv|tsv|yaml|yml|json> beside the sources'),
  opt('--state <state>', 'XLIFF: state of machine-translated units (default 1.2 needs-review-translation, 2.0 translated)'),
  opt('--fuzzy', 'PO: mark machine translations fuzzy (for review)'),
  opt('--category <id>', 'category (domain) of a custom translation system (default: general)'),
  opt('--concurrency <n>', 'requests in flight at once (default 4, at most 64)'),
  opt('--trace-id <guid>', 'X-ClientTraceId sent with every request (default: a fresh GUID per request)'),
  MEMORY_RUN,
  MEMORY_OPTIONAL,
  MEMORY_READ_ONLY,
  opt('--max-chars-per-minute <n>', "the subscription's limit in billed characters a minute, to pace by from the start (default: translate.maxRate; else learned from 429s)"),
  opt('--budget <chars>', 'bill at most this many characters: stop before a request that would cross it (exit 6, nothing written)'),
] as const;

export const SYNC_OPTIONS = [
  opt('--check', 'send nothing: list the missing or stale units per language and exit 9 if there are any'),
  opt('--retranslate-changed', 'translate anew a translation by hand whose source changed (default: kept, marked for review: PO fuzzy, XLIFF needs-review)'),
  ...FILE_OPTIONS,
] as const;

/** `vx translate check`: where the targets are and what counts as a placeholder; nothing is sent */
export const CHECK_OPTIONS = [
  opt('--glossary <file>', "also check the glossary's terms: each translated as it says, none of its forbidden terms used (default: the translate.glossary setting, else a .vxglossary.* beside the files)"),
  opt('--to <lang>', "check the targets of these languages (repeatable, or comma-separated); default: each file's own translations (PO, XLIFF)", { repeat: true }),
  opt('--from <lang>', 'source language (default: the one the file names)'),
  opt('--out-dir <dir>', 'the targets are in this directory (as given to vx translate sync)'),
  opt('--out <pattern>', 'the targets are named by this pattern with {lang} (as given to vx translate sync)'),
  opt('--format <format>', 'file format (default auto: from the extension)', { choices: FILE_FORMATS, lenient: true }),
  opt('--protect <regex>', 'also count text matching this regular expression as a placeholder (repeatable)', { repeat: true }),
  SKIP_KEYS,
  I18NEXT_FORMAT,
  FRONT_MATTER,
] as const;

export type CheckOptions = OptionsOf<typeof CHECK_OPTIONS>;

/** what the files run reads: `sync`'s options (`file` has all but --check) */
export type FilesOptions = OptionsOf<typeof SYNC_OPTIONS>;

// `memory stats|export|import|prune`
const MEMORY = opt('--memory <path|url>', 'the translation memory: a file, or postgres://user@host:port/db (default: the translate.memory setting)');

export const MEMORY_STATS_OPTIONS = [MEMORY] as const;
export type MemoryStatsOptions = OptionsOf<typeof MEMORY_STATS_OPTIONS>;

export const MEMORY_EXPORT_OPTIONS = [MEMORY, opt('--out <file>', 'write to this file (it appears only when complete; - is standard output)')] as const;
export type MemoryExportOptions = OptionsOf<typeof MEMORY_EXPORT_OPTIONS>;

export const MEMORY_IMPORT_OPTIONS = [MEMORY, opt('--from <lang>', 'the source language of units the file names none for (its header says srclang="*all*")')] as const;
export type MemoryImportOptions = OptionsOf<typeof MEMORY_IMPORT_OPTIONS>;

export const MEMORY_COPY_OPTIONS = [] as const;
export type MemoryCopyOptions = OptionsOf<typeof MEMORY_COPY_OPTIONS>;

export const MEMORY_PRUNE_OPTIONS = [
  MEMORY,
  opt('--older-than <age>', 'entries stored longer ago than this: 90m, 12h, 30d, 8w'),
  opt('--to <lang>', 'entries translated into this language'),
  opt('--from <lang>', 'entries translated from this language (auto: detected sources)'),
  opt('--all', 'every entry'),
] as const;
export type MemoryPruneOptions = OptionsOf<typeof MEMORY_PRUNE_OPTIONS>;
