// Glue between commander and the run functions: builds the Ctx from the global options (loaded
// lazily, so `vx --help` pays for nothing) and hands the action's arguments on.
import type { Command } from 'commander';
import type { Ctx, GlobalOptions } from '../core/context.js';

export interface RunState {
  signal: AbortSignal;
  ctx?: Ctx;
  /** called once when an action starts (main sets up what only actions need) */
  onAction?: () => void;
  /** whether process.stdout/stderr may hold output to flush before exiting */
  streamsUsed?: boolean;
  /** the signal that interrupted the run (SIGINT, SIGTERM, SIGHUP) */
  interruptedBy?: NodeJS.Signals;
  /** set by a command that serves until stopped (emulator start): SIGTERM is its normal stop */
  onSigterm?: () => void;
  /**
   * set while a command runs a child that stands for the run (emulator exec): a stopping signal
   * is passed on to the child, and the run ends when the child does, with its code
   */
  forwardSignal?: (sig: NodeJS.Signals) => void;
  /**
   * set by a run whose requests change records in bulk (import): a reader of its output that goes
   * away (`| head`) does not cut it short, with batches out and rows not journaled; it goes on
   */
  keepOnOutputGone?: boolean;
  /** why writing help or a usage message to stdout failed (not EPIPE): the output is lost, exit 1 */
  outputLost?: string;
  /** a pager shows the output: Ctrl-C is for it (less stops a search), not an interruption of vx */
  pagerRunning?: boolean;
  /** builds the Ctx of an action instead of the process one (in-process tests: test/helpers/inproc.ts) */
  makeCtx?: (opts: GlobalOptions) => Ctx;
}

export const state: RunState = { signal: new AbortController().signal };

/**
 * How the command treats the profile named by --profile/VX_PROFILE: by default it must exist
 * (exit 2, nothing sent); `creates` (profile set, auth login) may make it, `unused` (completion,
 * the emulator) never reads it.
 */
export interface ActOptions {
  profile?: 'creates' | 'unused';
  /** options of a parent command (translate's) given on the line are refused, not ignored */
  ownOptionsOnly?: boolean;
}

/**
 * The first option a parent command (not the program) parsed from the line that `cmd` does not
 * declare itself, as its flag: such a value reaches the run merged and would be ignored.
 */
function parentOptionGiven(cmd: Command): string | undefined {
  const own = new Set(cmd.options.map((o) => o.attributeName()));
  for (let p = cmd.parent; p?.parent; p = p.parent) {
    for (const o of p.options) {
      if (!own.has(o.attributeName()) && p.getOptionValueSource(o.attributeName()) === 'cli') return o.long ?? o.flags;
    }
  }
  return undefined;
}

/**
 * Wraps a run function as a commander action: `fn(ctx, opts, ...positionals)`, where `opts` are
 * the command's own options (commander passes the positionals, then the options, then the
 * command). Used by define.ts's mount; declare commands there, not here.
 */
export function act(fn: (ctx: Ctx, opts: unknown, ...args: unknown[]) => Promise<void>, options: ActOptions = {}): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const positionals = args.slice(0, -2);
    const opts = cmd.optsWithGlobals<GlobalOptions>();
    state.streamsUsed = true;
    state.onAction?.();
    state.onAction = undefined;
    const [{ Ctx }, { SETTINGS }, { checkQuery }] = await Promise.all([import('../core/context.js'), import('../api/settings.js'), import('../core/output.js')]);
    const ctx = state.makeCtx?.(opts) ?? new Ctx(opts, SETTINGS, undefined, state.signal);
    state.ctx = ctx;
    const foreign = options.ownOptionsOnly ? parentOptionGiven(cmd) : undefined;
    if (foreign) {
      let path = '';
      for (let c: Command | null = cmd; c?.parent; c = c.parent) path = ` ${c.name()}${path}`;
      const { UsageError } = await import('../core/errors.js');
      throw new UsageError(`${foreign} does not apply to vx${path}; nothing was done`);
    }
    ctx.onPager = (running) => void (state.pagerRunning = running);
    if (!options.profile) ctx.config.checkProfile();
    await checkQuery(opts.query); // a bad --query is a usage error before anything is sent
    await fn(ctx, opts, ...positionals);
    // commands that plan several requests (translate batches) return normally in --dry-run
    if (ctx.http.dryRun && ctx.http.planned.length) await ctx.writePlan();
    ctx.verboseExchanges();
  };
}

/** Help text with examples, appended after the options. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

let selection: readonly string[] | undefined;

/** Records the command line the tree is built for (undefined: the whole tree). */
export function selectFor(argv: readonly string[] | undefined): void {
  selection = argv;
}

/**
 * Whether a command may be chosen by the command line being run, so that its subtree must be
 * declared in full; a command that cannot be chosen only needs its line in its parent's help.
 * Always true when the whole tree is built (completion, tests).
 */
export function selected(name: string, aliases: readonly string[] = []): boolean {
  return !selection || selection.includes(name) || aliases.some((a) => selection!.includes(a));
}
