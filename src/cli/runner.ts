// Glue between commander and the run functions: builds the Ctx from the global options (loaded
// lazily, so `vx --help` pays for nothing) and hands the action's arguments on.
import type { Command } from 'commander';
import type { Ctx, GlobalOptions } from '../core/context.js';
import type { Factory } from './factory.js';

/** One run of a command line: the factory it was given and the Ctx its action built. */
export interface Session {
  readonly factory: Factory;
  ctx?: Ctx;
}

/** Where run() leaves the session on the root command, for the actions below it to find. */
export const SESSION = Symbol('vx.session');

function sessionOf(cmd: Command): Session {
  let root: Command = cmd;
  while (root.parent) root = root.parent;
  const session = (root as Command & { [SESSION]?: Session })[SESSION];
  if (!session) throw new Error('vx: a command ran outside run(argv, factory)');
  return session;
}

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
    const session = sessionOf(cmd);
    session.factory.onAction?.();
    const [{ Ctx }, { SETTINGS }, { checkQuery }] = await Promise.all([import('../core/context.js'), import('../api/settings.js'), import('../core/output/index.js')]);
    const ctx = new Ctx(opts, SETTINGS, session.factory);
    session.ctx = ctx;
    const foreign = options.ownOptionsOnly ? parentOptionGiven(cmd) : undefined;
    if (foreign) {
      let path = '';
      for (let c: Command | null = cmd; c?.parent; c = c.parent) path = ` ${c.name()}${path}`;
      const { UsageError } = await import('../core/errors.js');
      throw new UsageError(`${foreign} does not apply to vx${path}; nothing was done`);
    }
    if (!options.profile) ctx.config.checkProfile();
    await checkQuery(opts.query); // a bad --query is a usage error before anything is sent
    await fn(ctx, opts, ...positionals);
    // commands that plan several requests (translate batches) return normally in --dry-run
    if (ctx.http.dryRun && ctx.http.planned.length) await ctx.writePlan();
  };
}

/** Help text with examples, appended after the options. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/**
 * Whether a command may be chosen by the command line being run (`argv`), so that its subtree
 * must be declared in full; a command that cannot be chosen only needs its line in its parent's
 * help. Always true when the whole tree is built (argv undefined: completion, tests).
 */
export function selected(argv: readonly string[] | undefined, name: string, aliases: readonly string[] = []): boolean {
  return !argv || argv.includes(name) || aliases.some((a) => argv.includes(a));
}
