// What a command's run function receives: config, HTTP, prompts, output and stderr messages,
// all built from the global options. Nothing here knows an API family.
import { Config, type SettingDef } from './config/index.js';
import { oneLine, ServiceError, terminalText, UsageError } from './errors.js';
import { allowHttpFrom, chooseTransport, Http, type HttpObserver, type Transport } from './http/index.js';
import { seconds, StatusLine } from './progress.js';
import { applyQuery, parseFormat, render, streamSink, type Format, type RenderOptions, type ResultSink } from './output/index.js';
import { Confirmation, terminalPrompter, type Prompter } from './prompt.js';
import { redact } from './redact.js';
import { colorEnabled, makePalette, terminalWidth, type Palette } from './term.js';
import { stringifyExact } from './json.js';
import { systemClock, type Clock } from './clock.js';

export interface GlobalOptions {
  profile?: string;
  output?: string;
  query?: string;
  debug?: boolean;
  verbose?: boolean;
  color?: boolean;
  timeout?: string;
  retries?: string;
  dryRun?: boolean;
  yes?: boolean;
  /** false with --no-pager */
  pager?: boolean;
}

export interface Streams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

/** The environment a run sees (the process's, or a test's). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * What a command may ask of the process that hosts its run, set while it runs and read by that
 * process's signal and output handlers (main.ts); a test's host is an object nobody reads.
 */
export interface Host {
  /** a command that serves until it is told to stop (emulator start) takes SIGTERM as its stop */
  onSigterm?: () => void;
  /** a child that stands for the run (emulator exec): a stopping signal is passed on to it */
  forwardSignal?: (sig: NodeJS.Signals) => void;
  /** a run that changes records in bulk (import) goes on when the reader of its output goes away */
  keepOnOutputGone?: boolean;
  /** a pager shows the output: Ctrl-C is for it (less stops a search), not an interruption of vx */
  pagerRunning?: boolean;
  /** set by the process: the signal that stopped the run (SIGINT, SIGTERM, SIGHUP), once one has */
  interruptedBy?: NodeJS.Signals;
}

/** What a Ctx is built from besides the global options: the run's seam to the world (cli/factory.ts). */
export interface CtxDeps {
  env: Env;
  io: Streams;
  signal?: AbortSignal;
  clock?: Clock;
  prompter?: Prompter;
  transport?: Transport;
  host?: Host;
  /** long output may be shown through a pager (only the process's own terminal) */
  pager?: boolean;
  /** the command line that starts this vx again: node and its script (emulator exec's `vx`, helper processes) */
  self?: readonly string[];
  /**
   * Whether a descriptor is a terminal, without building its stream (the process's answers from
   * fstat: building process.stderr costs 0.4-0.8 ms of a command that never writes to it).
   * Default: the stream's isTTY.
   */
  isTerminal?(fd: 1 | 2): boolean;
}

function parseNumberOption(name: string, value: string | undefined, opts: { min: number; max: number; integer?: boolean }): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || (opts.integer && !Number.isInteger(n)) || n < opts.min || n > opts.max) {
    throw new UsageError(`invalid value "${value}" for ${name}: expected ${opts.integer ? 'a whole number' : 'a number'} from ${opts.min} to ${opts.max}`);
  }
  return n;
}

export class Ctx {
  readonly config: Config;
  readonly http: Http;
  readonly prompter: Prompter;
  readonly chalk: Palette;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly io: Streams;
  readonly signal: AbortSignal;
  readonly clock: Clock;
  readonly host: Host;
  readonly env: Env;
  /** the command line that starts this vx again (node and its script) */
  readonly self: readonly string[];
  private readonly pagerAllowed: boolean;
  private readonly terminal: (fd: 1 | 2) => boolean;
  private errChalkMade: Palette | undefined;
  private readonly envFormat: Format | undefined;
  private readonly flagFormat: Format | undefined;

  constructor(
    readonly globals: GlobalOptions,
    settings: readonly SettingDef[],
    deps: CtxDeps,
  ) {
    const env = deps.env;
    this.env = env;
    this.io = deps.io;
    this.signal = deps.signal ?? new AbortController().signal;
    this.clock = deps.clock ?? systemClock;
    this.host = deps.host ?? {};
    this.pagerAllowed = deps.pager ?? false;
    this.self = deps.self ?? [];
    this.terminal = (fd) => (deps.isTerminal ? deps.isTerminal(fd) : Boolean((fd === 1 ? this.io.stdout : this.io.stderr).isTTY));
    const signal = this.signal;
    const io = this.io;
    // `-p "$PROFILE"` / `-q "$Q"` with the variable unset: not the active profile, not the whole result
    for (const [value, flag] of [[globals.profile, '-p/--profile'], [globals.query, '-q/--query']] as const) {
      if (value === '') throw new UsageError(`${flag} was given as an empty value; leave it out to use the default (nothing was sent)`);
    }
    this.config = new Config(settings, { profileFlag: globals.profile, env, warn: (m) => this.warn(m) });
    this.flagFormat = parseFormat(globals.output);
    // VX_OUTPUT matters (and is checked) only when -o is not given
    this.envFormat = !this.flagFormat && env.VX_OUTPUT ? parseFormat(env.VX_OUTPUT, 'VX_OUTPUT') : undefined;
    this.timeoutMs = (parseNumberOption('--timeout', globals.timeout, { min: 0.001, max: 86_400 }) ?? 60) * 1000;
    this.retries = parseNumberOption('--retries', globals.retries, { min: 0, max: 100, integer: true }) ?? 4;
    // checked here, before any command runs, as VX_OUTPUT is (the Http below reads it again)
    chooseTransport(env);
    const envInteger = (name: string, max: number, min = 0) => parseNumberOption(name, env[name] || undefined, { min, max, integer: true });
    const debug = globals.debug ? (line: string) => this.io.stderr.write(`${this.errChalk.dim(`[debug] ${oneLine(line)}`)}\n`) : undefined;
    this.http = new Http({
      timeoutMs: this.timeoutMs,
      retries: this.retries,
      debug,
      dryRun: globals.dryRun,
      signal,
      backoffBaseMs: envInteger('VX_BACKOFF_BASE_MS', 60_000),
      // the waits between attempts are the run's clock's (a test's fake clock moves them at once)
      sleep: (ms, sig) => this.clock.sleep(ms, sig),
      // responses larger than this are refused (default 256 MiB)
      maxBodyBytes: envInteger('VX_MAX_RESPONSE_BYTES', Number.MAX_SAFE_INTEGER, 1),
      allowHttp: allowHttpFrom(env),
      observer: this.retryObserver(),
      // each answer told as it comes (a long list, a watch, a run stopped by Ctrl-C keep theirs)
      exchanged: globals.verbose ? (x) => this.verbose(`${x.method} ${x.url} -> ${x.status} in ${x.ms} ms${x.requestId ? ` (request id ${x.requestId})` : ''}`) : undefined,
      waitingAfterMs: envInteger('VX_WAITING_AFTER_MS', 86_400_000),
      transport: deps.transport,
      env,
    });
    this.prompter = deps.prompter ?? terminalPrompter(signal, { noColor: globals.color === false, env: env as Record<string, string | undefined>, io });
    this.chalk = makePalette(colorEnabled(io.stdout, globals.color === false, env));
  }

  /** the colours of stderr, made when first used (asking whether stderr is a terminal builds the stream) */
  get errChalk(): Palette {
    return (this.errChalkMade ??= makePalette(colorEnabled(this.io.stderr, this.globals.color === false, this.env)));
  }

  /**
   * Retries and long waits told on stderr: at a terminal one line replaced as things change ("503
   * from erp; retrying in 2 s (attempt 2 of 5)") and removed when the request ends; elsewhere a
   * line each, only with --verbose. Nothing with --debug (its trace says it all).
   */
  private retryObserver(): HttpObserver | undefined {
    if (this.globals.debug) return undefined;
    const tty = this.terminal(2);
    if (!tty && !this.globals.verbose) return undefined;
    const line = new StatusLine(this.io.stderr, this.env);
    const say = (text: string) => (tty ? line.show(text) : this.verbose(text));
    let lastWaitNote = 0;
    return {
      retrying: (e) => {
        const what = e.status !== undefined ? `${e.status} from ${this.serviceOf(e.url)}` : `${this.serviceOf(e.url)}: ${e.failure}`;
        say(`${what}; retrying in ${seconds(e.delayMs)}${e.attempt !== undefined ? ` (attempt ${e.attempt} of ${e.attempts})` : ' (throttled; not counted as a retry)'}`);
      },
      waiting: (e) => {
        // off a terminal one line per wait is enough (the first notice), not one a second
        if (!tty && e.elapsedMs - lastWaitNote < 30_000 && lastWaitNote) return;
        lastWaitNote = e.elapsedMs;
        say(`waiting for ${this.serviceOf(e.url)}: no answer yet after ${seconds(e.elapsedMs)} (gives up at ${seconds(e.timeoutMs)}; Ctrl-C stops)`);
      },
      settled: () => {
        lastWaitNote = 0;
        line.clear();
      },
    };
  }

  /** The family a URL belongs to: the first part of the endpoint setting it starts with (`erp` for erp.prefix), else its host. */
  serviceOf(url: string): string {
    for (const d of this.config.settings()) {
      const m = /^(\w+)\.(endpoint|prefix|url)$/.exec(d.key);
      if (!m) continue;
      try {
        const base = this.config.get(d.key)?.replace(/\/+$/, '');
        if (base && (url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`))) return m[1];
      } catch {
        /* an invalid setting says so where it is used */
      }
    }
    try {
      return new URL(url).host;
    } catch {
      return 'the service';
    }
  }

  /** a variable of the environment this Ctx was built with */
  envVar(name: string): string | undefined {
    return this.env[name];
  }

  get stdoutIsTTY(): boolean {
    return Boolean(this.io.stdout.isTTY);
  }

  get stderrIsTTY(): boolean {
    return this.terminal(2);
  }

  /** the format chosen by flag, VX_OUTPUT or profile `output`; undefined when none was */
  explicitFormat(): Format | undefined {
    if (this.flagFormat) return this.flagFormat;
    if (this.envFormat) return this.envFormat;
    const fromProfile = this.config.profile()['output'];
    return fromProfile ? parseFormat(fromProfile, `the "output" setting of profile "${this.config.profileName()}"`)! : undefined;
  }

  /**
   * A command whose output is not a JSON result (a TMX file, a token, a script, a document) has
   * nothing for --query to apply to: refused, exit 2, rather than accepted and ignored.
   */
  noQuery(what: string): void {
    if (this.globals.query !== undefined) throw new UsageError(`--query does not apply to ${what}; nothing was done`);
    // the same for an -o given on the line (VX_OUTPUT and the profile's output are defaults for every command, not refused)
    if (this.flagFormat !== undefined) throw new UsageError(`-o/--output does not apply to ${what}; nothing was done`);
  }

  /** flag > VX_OUTPUT > profile `output` > table at a terminal, else `notTTY` (json unless a command says otherwise) */
  format(notTTY: Format = 'json'): Format {
    return this.explicitFormat() ?? (this.stdoutIsTTY ? 'table' : notTTY);
  }

  /** Applies --query, renders in the chosen format and writes to stdout (through the pager when long, at a terminal). */
  async print(value: unknown, opts: RenderOptions & { notTTY?: Format } = {}): Promise<void> {
    const format = this.format(opts.notTTY);
    const text = this.forStdout(await this.renderResult(value, format, opts), format);
    if (!text) return;
    if (await this.page(text)) return;
    await this.write(text);
  }

  /**
   * Rendered text as it may reach stdout. CSV is data and keeps every character in a file or a
   * pipe; at a terminal its control characters (an ESC sequence in a value: colours, a changed
   * title, OSC 52 clipboard writes) are shown escaped, as every other format does, so a value from
   * the service cannot drive the terminal.
   */
  forStdout(text: string, format: Format): string {
    return format === 'csv' && this.stdoutIsTTY ? terminalText(text) : text;
  }

  /** stdout as the sink of a streamed result, its text escaped as forStdout says */
  stdoutSink(format: Format): ResultSink {
    const out = streamSink(this.io.stdout);
    return { ...out, write: (t) => out.write(typeof t === 'string' ? this.forStdout(t, format) : t) };
  }

  /** Shows text longer than the screen through the pager; false when it was not (the caller writes it). */
  private async page(text: string): Promise<boolean> {
    // the pager writes to this process's own stdout: only when that is where the output goes
    if (!this.stdoutIsTTY || !this.pagerAllowed) return false;
    const { pagerCommand, screenLines, showInPager } = await import('./pager.js');
    const command = pagerCommand(this.env, this.globals.pager);
    const rows = this.io.stdout.rows > 0 ? this.io.stdout.rows : 24;
    if (!command || screenLines(text, this.io.stdout.columns || 80) < rows) return false;
    return showInPager(text, command, this.env, (running) => void (this.host.pagerRunning = running));
  }

  /**
   * Applies --query and renders in `format` (for output that goes elsewhere than stdout). `toFile`:
   * the text goes to a file (--out), which gets neither the terminal's colours nor its width (a
   * table cut to the screen would lose what it cut).
   */
  async renderResult(value: unknown, format: Format, opts: RenderOptions = {}, toFile = false): Promise<string> {
    const queried = await applyQuery(value, this.globals.query);
    const renderOpts: RenderOptions = {
      ...opts,
      columns: this.globals.query ? undefined : opts.columns,
      text: this.globals.query ? undefined : opts.text,
      width: toFile ? undefined : terminalWidth(this.io.stdout, this.env),
      color: !toFile && this.chalk.level > 0,
    };
    try {
      return await render(queried, format, renderOpts);
    } catch (e) {
      // a value nested hundreds of thousands deep overflows any recursive renderer
      if (e instanceof RangeError) throw new ServiceError(`the result nests too deeply to be shown (${e.message}); the request itself succeeded`);
      throw e;
    }
  }

  /** Writes to stdout honouring back-pressure. */
  write(text: string | Uint8Array): Promise<void> {
    return new Promise((resolve) => {
      const out = this.io.stdout;
      if (out.writable === false || out.write(text)) return resolve();
      // (a stream whose reader went away never drains: it fails, or closes)
      const done = () => {
        out.off('drain', done);
        out.off('error', done);
        out.off('close', done);
        resolve();
      };
      out.once('drain', done);
      out.once('error', done);
      out.once('close', done);
    });
  }

  /** --dry-run: the requests that would have been sent, as JSON on stdout (the one place it is printed). */
  writePlan(): Promise<void> {
    return this.write(`${stringifyExact(this.http.planned, 2)}\n`);
  }

  /**
   * The confirmation of a change (the one rule, core/prompt.ts): asked at a terminal, `--yes`
   * without one, never under `--dry-run`. `nothing`: what a refusal says was done.
   */
  confirmation(nothing?: string): Confirmation {
    return new Confirmation(this.prompter, { yes: this.globals.yes, dryRun: this.http.dryRun }, nothing);
  }

  /** A message for the person at the terminal (stderr); secrets redacted. */
  info(message: string): void {
    this.io.stderr.write(`${terminalText(redact(message))}\n`);
  }

  /** --dry-run of a command that changes local state (the config): what it would do; nothing is written. */
  dryRunNote(what: string): void {
    this.info(`dry run: nothing was changed (${what})`);
  }

  warn(message: string): void {
    this.io.stderr.write(`${this.errChalk.yellow('warning:')} ${terminalText(redact(message))}\n`);
  }

  /** Only with --debug: a line of the trace on stderr; secrets redacted. */
  debug(message: string): void {
    this.http.opts.debug?.(redact(message));
  }

  /**
   * Only with --verbose. At a terminal the line first clears the one the cursor is on (a retry's
   * status line, a progress bar or spinner, redrawn below it at their next turn).
   */
  verbose(message: string): void {
    if (this.globals.verbose) this.io.stderr.write(`${this.stderrIsTTY ? '\r\u001b[K' : ''}${this.errChalk.dim(terminalText(redact(message)))}\n`);
  }
}
