// The only door to @inquirer/prompts. Prompts are drawn on stderr so stdout stays clean for data.
// Commands receive a Prompter; tests inject one. Without a terminal nothing is ever asked.
import { isatty } from 'node:tty';
import { stripVTControlCharacters } from 'node:util';
import { InterruptedError, terminalText, UsageError } from './errors.js';
import { displayWidth } from './output/width.js';
import { colorEnabled, makePalette, terminalWidth, type Palette } from './term.js';

export interface Choice<T = string> {
  name: string;
  value: T;
  description?: string;
  /** shown after the name, dimmed; the line cannot be picked (why a typed value is not offered) */
  disabled?: string;
}

/**
 * What a question asked with `back: true` throws when the person presses Esc: the caller goes
 * back one step (the quota wizard). Without `back`, Esc does nothing special.
 */
export class GoBack extends Error {
  constructor() {
    super('back');
    this.name = 'GoBack';
  }
}

/** `back: true`: Esc answers with GoBack instead of being ignored */
export interface Steppable {
  back?: boolean;
}

/**
 * What a dialogue of questions asked with `back` left on the terminal (each answer, and the lines
 * written between questions), so that going back erases the answers given since: the question
 * asked again stands where it stood, without its old answer above it.
 */
export interface ScreenTrail {
  /** lines written on the terminal between questions (ctx.info's, as written) */
  wrote(text: string): void;
  /** where the dialogue stands now */
  mark(): number;
  /** erases what was written since `mark` */
  rewind(mark: number): void;
}

export interface Prompter {
  /** true when questions can be asked (stdin and stderr are terminals) */
  readonly interactive: boolean;
  /** the terminal's trail of the dialogue (absent where nothing is drawn) */
  readonly screen?: ScreenTrail;
  confirm(message: string, defaultValue?: boolean, opts?: Steppable): Promise<boolean>;
  input(message: string, opts?: { default?: string; validate?: (v: string) => true | string } & Steppable): Promise<string>;
  password(message: string): Promise<string>;
  select<T>(message: string, choices: Choice<T>[], opts?: { default?: T } & Steppable): Promise<T>;
  /** a searchable list; `source` is called with the typed term */
  search<T>(message: string, source: (term: string | undefined) => Promise<Choice<T>[]> | Choice<T>[], opts?: Steppable): Promise<T>;
}

export function isInteractive(): boolean {
  // isatty on the descriptors: asking process.stdin would build the stream (2-5 ms) for nothing
  return isatty(0) && isatty(2);
}

function wrapCancel(e: unknown): never {
  const name = (e as Error)?.name;
  if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError') throw new InterruptedError('cancelled');
  throw e;
}

/**
 * Loads @inquirer/prompts. Its colours (yoctocolors) are decided once, as it loads, from the
 * process's environment (NO_COLOR, FORCE_COLOR): for `--no-color` NO_COLOR is set, and
 * FORCE_COLOR (which would win) put aside, while it loads; both are restored after. `env` is the
 * run's environment, which for the real process is the process's own (cli/factory.ts).
 */
async function loadInquirer(noColor: boolean, env: Record<string, string | undefined>): Promise<typeof import('@inquirer/prompts')> {
  if (!noColor) return import('@inquirer/prompts');
  const saved = { NO_COLOR: env.NO_COLOR, FORCE_COLOR: env.FORCE_COLOR };
  env.NO_COLOR = '1';
  delete env.FORCE_COLOR;
  try {
    return await import('@inquirer/prompts');
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
  }
}

/** What @inquirer/prompts is given besides a prompt's own options. */
interface PromptContext {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WriteStream;
  signal?: AbortSignal;
  clearPromptOnDone: boolean;
}

/**
 * Runs one prompt; with `back`, Esc (a keypress event on stdin, which the prompt's readline
 * emits) aborts it and the call throws GoBack. Ctrl-C stays an interruption. A prompt asked with
 * `back` is erased when it ends, and its answer written on the trail (`answered`), so that going
 * back can erase it again.
 */
async function askOnce<T>(ctx: PromptContext, back: boolean | undefined, run: (c: PromptContext) => Promise<T>, answered?: (v: T) => void): Promise<T> {
  if (!back) return run(ctx).catch(wrapCancel);
  const { signal } = ctx;
  const esc = new AbortController();
  const onKey = (_s: unknown, key?: { name?: string; ctrl?: boolean; meta?: boolean }) => {
    if (key?.name === 'escape') esc.abort();
  };
  process.stdin.on('keypress', onKey);
  try {
    const v = await run({ ...ctx, signal: signal ? AbortSignal.any([signal, esc.signal]) : esc.signal, clearPromptOnDone: true });
    answered?.(v);
    return v;
  } catch (e) {
    if (esc.signal.aborted && !signal?.aborted) throw new GoBack();
    return wrapCancel(e);
  } finally {
    process.stdin.off('keypress', onKey);
  }
}

/** The terminal's ScreenTrail: the lines of a dialogue, counted in rows of the terminal's width to erase them. */
class Trail implements ScreenTrail {
  private readonly lines: string[] = [];

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly chalk: Palette,
    private readonly env: Record<string, string | undefined>,
  ) {}

  /** an answer as @inquirer's own theme shows it once given */
  answer(message: string, shown: string): void {
    const { chalk } = this;
    this.stream.write(`${chalk.green('✔')} ${chalk.bold(message)} ${chalk.cyan(shown)}\n`);
    this.lines.push(`✔ ${message} ${shown}`);
  }

  wrote(text: string): void {
    this.lines.push(...text.split('\n'));
  }

  mark(): number {
    return this.lines.length;
  }

  rewind(mark: number): void {
    const cols = terminalWidth(this.stream, this.env) || 80;
    let rows = 0;
    for (const l of this.lines.splice(mark)) rows += Math.max(1, Math.ceil(displayWidth(stripVTControlCharacters(l)) / cols));
    // to the first column of the first line written since the mark, and everything below it erased
    if (rows) this.stream.write(`\u001b[${rows}F\u001b[J`);
  }
}

/**
 * The real prompter: @inquirer/prompts on stdin/stderr, loaded on first use; `noColor`: --no-color;
 * `env`: the run's environment; `io`: where stdin and stderr come from (the process's, each built
 * when first used).
 */
export function terminalPrompter(
  signal: AbortSignal | undefined,
  opts: { noColor?: boolean; env: Record<string, string | undefined>; io?: { readonly stdin: NodeJS.ReadStream; readonly stderr: NodeJS.WriteStream } },
): Prompter {
  const io = opts.io ?? process;
  let mod: typeof import('@inquirer/prompts') | undefined;
  const load = async () => (mod ??= await loadInquirer(opts.noColor === true, opts.env));
  let interactive: boolean | undefined;
  const ctx: PromptContext = {
    get input() {
      return io.stdin;
    },
    get output() {
      return io.stderr;
    },
    signal,
    clearPromptOnDone: false,
  };
  // made when first used: it builds process.stderr (0.4-0.8 ms), which a command that asks nothing never needs
  let made: Trail | undefined;
  const trail = () => (made ??= new Trail(io.stderr, makePalette(colorEnabled(io.stderr, opts.noColor === true, opts.env)), opts.env));
  const ask = <T>(back: boolean | undefined, run: (c: PromptContext) => Promise<T>, message: string, shown: (v: T) => string = String) =>
    askOnce(ctx, back, run, (v) => trail().answer(terminalText(message), terminalText(shown(v))));
  return {
    get interactive() {
      return (interactive ??= isInteractive());
    },
    get screen() {
      return trail();
    },
    async confirm(message, defaultValue = false, opts = {}) {
      const m = await load();
      return ask(opts.back, (c) => m.confirm({ message: terminalText(message), default: defaultValue }, c), message, (v) => (v ? 'Yes' : 'No'));
    },
    async input(message, opts = {}) {
      const m = await load();
      return ask(opts.back, (c) => m.input({ message: terminalText(message), default: opts.default, validate: opts.validate }, c), message);
    },
    async password(message) {
      const m = await load();
      return m.password({ message, mask: '*' }, ctx).catch(wrapCancel);
    },
    async select<T>(message: string, choices: Choice<T>[], opts: { default?: T } & Steppable = {}) {
      const m = await load();
      const shown = (v: T) => choices.find((ch) => ch.value === v)?.name ?? String(v);
      return ask(opts.back, (c) => m.select({ message: terminalText(message), choices: choices.map((ch) => ({ ...ch, name: terminalText(ch.name) })), default: opts.default, pageSize: 12 }, c) as Promise<T>, message, shown);
    },
    async search<T>(message: string, source: (term: string | undefined) => Promise<Choice<T>[]> | Choice<T>[], opts: Steppable = {}) {
      const m = await load();
      // the entries escaped as select's are (a quota's name comes from the service)
      const shown = async (term: string | undefined) => (await source(term)).map((ch) => ({ ...ch, name: terminalText(ch.name) }));
      return ask(opts.back, (c) => m.search({ message: terminalText(message), source: shown, pageSize: 12 }, c) as Promise<T>, message);
    },
  };
}

/** What the one rule of confirmation needs to know of the run: --yes, --dry-run. */
export interface Consent {
  yes?: boolean;
  dryRun?: boolean;
}

/**
 * The one rule of confirmation (docs/cli-contract.md, "Confirmation"): a change that cannot be
 * undone, or one chosen by a filter or a list, asks at a terminal; `--yes` skips the question;
 * without a terminal and without `--yes` it is a usage error (exit 2) and nothing is sent;
 * answering no cancels (exit 2); `--dry-run` never asks. A local change (profile delete) says
 * `nothing was changed` instead of `nothing was sent`.
 */
export class Confirmation {
  constructor(
    private readonly prompter: Prompter,
    private readonly consent: Consent,
    private readonly nothing = 'nothing was sent',
  ) {}

  /** whether the question will be put (no --yes, no --dry-run): what it names is read only then */
  get asks(): boolean {
    return !this.consent.yes && !this.consent.dryRun;
  }

  /**
   * Without a terminal the question cannot be put: refused now, before anything is read or sent
   * (a command that reads first, to name the record in its question, calls this before the read).
   */
  early(question: string): void {
    if (this.asks && !this.prompter.interactive) {
      throw new UsageError(`${question.replace(/\?$/, '')}: confirmation needed; pass --yes to proceed without a terminal (${this.nothing})`);
    }
  }

  /** Puts the question (at a terminal); no is exit 2. */
  async ask(question: string): Promise<void> {
    if (!this.asks) return;
    this.early(question);
    if (!(await this.prompter.confirm(question, false))) throw new UsageError(`cancelled; ${this.nothing}`);
  }
}
