// Every command is declared once, as typed data: its arguments, its options (flags, help,
// choices, defaults, whether required or repeatable), its summary, examples and help text, and
// its run function. commander's tree (mount), --help, the completion scripts (they walk that
// tree) and the lazy top-level table (program.ts) are made from these declarations; the option
// object and the positional arguments handed to `run` get their types from the same data.
//
// The model is commander's own @commander-js/extra-typings (the option and argument types are
// inferred from the flag strings: `--page-size <n>` gives `pageSize?: string`, `--no-wait` gives
// `wait: boolean`, `<id>` gives `string`, `[text...]` gives `string[]`), held as plain data
// as in wrangler's createCommand({ args, handler }). A run function that takes
// `OptionsOf<typeof X>` (or is written inline) stops compiling when an option it reads is
// renamed or retyped (test/types/define.ts proves it with @ts-expect-error).
//
//   export const LIST = command({
//     name: 'list',
//     summary: 'list the things (every page)',
//     args: [arg('[prefix]', 'only names starting with it')],
//     options: [opt('--top <n>', 'at most n'), opt('--kind <k>', 'which kind', { choices: ['a', 'b'] })],
//     examples: ['vx things list --top 3'],
//     run: async (ctx, opts, prefix) => (await import('./things-run.js')).list(ctx, opts, prefix),
//   });
//
// This module is loaded by every start: it imports commander and types only.
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { Ctx } from '../core/context.js';
import { act, examples as examplesText, selected } from './runner.js';

// ---- types inferred from the flag strings ----

type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
/** `-f, --file <path>` -> `file`; `--no-wait` -> `no-wait` */
type LongName<F extends string> = F extends `${string}--${infer R}` ? (R extends `${infer N} ${string}` ? N : R) : never;
/** the property of the option object: `pageSize`, `wait` for `--no-wait` */
export type KeyOf<F extends string> = LongName<F> extends `no-${infer N}` ? Camel<N> : Camel<LongName<F>>;
type Takes<F extends string> = F extends `${string}<${string}>${string}` ? 'value' : F extends `${string}[${string}]${string}` ? 'optional' : 'none';

/** What can be said of an option besides its flags and help. */
export interface OptExtra {
  /** the values shown in help and completion; commander refuses others unless `lenient` */
  choices?: readonly string[];
  /** the run function checks the value (case-insensitively, say): any string is passed on */
  lenient?: boolean;
  /** repeatable: the values are collected into an array */
  repeat?: boolean;
  /** commander refuses the command without it */
  required?: boolean;
  /**
   * required to run this command, not its subcommands (`erp refresh` needs --project, `erp
   * refresh status` does not): checked before the action, in commander's words; a value given to
   * the parent command counts
   */
  requiredToRun?: boolean;
  default?: string;
  /** an old spelling kept working: accepted, left out of help, completion and the reference */
  hidden?: boolean;
}

type ValueOf<F extends string, X> =
  Takes<F> extends 'none'
    ? boolean
    : Takes<F> extends 'optional'
      ? string | true
      : X extends { repeat: true }
        ? string[]
        : X extends { choices: infer C extends readonly string[] }
          ? X extends { lenient: true }
            ? string
            : C[number]
          : string;
type PresentOf<F extends string, X> = X extends { required: true } ? true : X extends { requiredToRun: true } ? true : X extends { default: string } ? true : LongName<F> extends `no-${string}` ? true : false;

/** One option as data; `V` (its value) and `P` (always present) are inferred by `opt`. */
export interface Opt<F extends string = string, V = unknown, P extends boolean = boolean> extends OptExtra {
  readonly flags: F;
  readonly help: string;
  /** the types, for inference only (never set) */
  readonly _t?: { value: V; present: P };
}

export function opt<const F extends string, const X extends OptExtra = Record<never, never>>(flags: F, help: string, extra?: X): Opt<F, ValueOf<F, X>, PresentOf<F, X>> {
  return { flags, help, ...extra };
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type OneOpt<T> = T extends Opt<infer F, infer V, infer P> ? (P extends true ? { [K in KeyOf<F>]: V } : { [K in KeyOf<F>]?: V }) : never;
/** The option object a command's run function receives (its own options; globals are in ctx.globals). */
export type OptionsOf<O extends readonly Opt[]> = [O[number]] extends [never] ? Record<never, never> : Simplify<UnionToIntersection<OneOpt<O[number]>>>;

/** One positional argument: `<id>`, `[id]`, `<command...>`, `[text...]`. */
export interface Arg<S extends string = string, V = unknown> {
  readonly spec: S;
  readonly help: string;
  readonly choices?: readonly string[];
  readonly _t?: V;
}
type ArgValue<S extends string, C> = S extends `${string}...${string}` ? string[] : S extends `<${string}>` ? (C extends readonly string[] ? C[number] : string) : (C extends readonly string[] ? C[number] : string) | undefined;

export function arg<const S extends string, const C extends readonly string[] | undefined = undefined>(spec: S, help: string, choices?: C): Arg<S, ArgValue<S, C>> {
  return choices ? { spec, help, choices } : { spec, help };
}

/** The positional values a run function receives, in order. */
export type ArgsOf<A extends readonly Arg[]> = { -readonly [I in keyof A]: A[I] extends Arg<string, infer V> ? V : never };

/** compiles only when T is true */
export type Assert<T extends true> = T;
/** true when every key of F (what an api function reads) is an option in O */
export type Covers<O, F> = [Exclude<keyof F, keyof O>] extends [never] ? true : false;

// ---- declarations ----

interface Described {
  name: string;
  aliases?: readonly string[];
  /** the line in the parent's help */
  summary: string;
  /** shown after the options, one `$ ` line each */
  examples?: readonly string[];
  /** help text after the examples (a function: built only when the help is shown) */
  more?: string | (() => string);
}

/** A command that runs. */
export interface CommandSpec<O extends readonly Opt[] = readonly Opt[], A extends readonly Arg[] = readonly Arg[]> extends Described {
  args?: A;
  options?: O;
  /**
   * The profile named by --profile/VX_PROFILE must exist (the default); `creates`: the command
   * may make it (profile set, auth login); `unused`: it never reads one (completion, emulator).
   */
  profile?: 'creates' | 'unused';
  /** options of a parent command (translate's) given on the line are refused rather than ignored */
  ownOptionsOnly?: boolean;
  run(ctx: Ctx, opts: OptionsOf<O>, ...args: ArgsOf<A>): Promise<void>;
  /** commander settings data cannot say (its help layout, say), applied before the options are added */
  configure?(c: Command): void;
  /** subcommands of a command that also runs itself (`translate` and `translate file|sync`) */
  commands?(): readonly Spec[];
}

/** A noun: commands (or more nouns) under one name. */
export interface GroupSpec extends Described {
  /** called only when the group is named on the command line (or the whole tree is built) */
  commands(): readonly Spec[];
}

export type Spec = CommandSpec | GroupSpec;

/** Declares a command; the option and argument types of `run` are inferred from the data. */
export function command<const O extends readonly Opt[] = [], const A extends readonly Arg[] = []>(spec: CommandSpec<O, A>): CommandSpec<O, A> {
  return spec;
}

export function group(spec: GroupSpec): GroupSpec {
  return spec;
}

// ---- commander's tree ----

/** The term of a command in its parent's help, as commander writes it (`translate [options] [text...]`). */
export const TERM = Symbol('vx.term');

export function termOf(spec: Spec): string {
  const alias = spec.aliases?.length ? `|${spec.aliases[0]}` : '';
  if (!('run' in spec)) return `${spec.name}${alias}`;
  const args = (spec.args ?? []).map((a) => a.spec).join(' ');
  return `${spec.name}${alias}${spec.options?.length ? ' [options]' : ''}${args ? ` ${args}` : ''}`;
}

function helpAfter(c: Command, spec: Described): void {
  const ex = spec.examples?.length ? examplesText(...spec.examples) : '';
  const more = spec.more;
  if (typeof more === 'function') c.addHelpText('after', () => ex + more());
  else if (ex || more) c.addHelpText('after', ex + (more ?? ''));
}

/**
 * A choice in any case (`--scheme header`, `-o JSON`, as az accepts enum values), handed on in
 * the case the declaration gives; anything else is commander's own "Allowed choices are" error.
 */
export function choiceParser(choices: readonly string[]): (v: string) => string {
  const canonical = new Map(choices.map((c) => [c.toLowerCase(), c]));
  return (v: string) => {
    const c = canonical.get(v.toLowerCase());
    if (c === undefined) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    return c;
  };
}

export function toOption(o: Opt): Option {
  const option = new Option(o.flags, o.help);
  // the choices stay on the option for help and completion; the value is matched in any case
  if (o.choices) option.choices(o.choices);
  const parse = o.choices && !o.lenient ? choiceParser(o.choices) : (v: string) => v;
  if (o.choices) option.argParser(parse);
  if (o.repeat) option.argParser((v: string, previous: string[] | undefined) => [...(previous ?? []), parse(v)]);
  if (o.default !== undefined) option.default(o.default);
  if (o.required) option.makeOptionMandatory();
  if (o.hidden) option.hideHelp();
  return option;
}

/**
 * Adds a declaration under `parent`. A command or noun the command line `argv` cannot choose gets
 * only its line in the parent's help (start-up time); `vx --help`, `vx erp --help` and the whole
 * tree (argv undefined: completion, tests) read the same either way.
 */
export function mount(parent: Command, spec: Spec, argv?: readonly string[]): Command {
  const c = parent.command(spec.name).description(spec.summary);
  if (spec.aliases?.length) c.aliases([...spec.aliases]);
  if (!selected(argv, spec.name, spec.aliases)) {
    Object.assign(c, { [TERM]: termOf(spec) });
    return c;
  }
  if (!('run' in spec)) {
    helpAfter(c, spec);
    for (const child of spec.commands()) mount(c, child, argv);
    return c;
  }
  spec.configure?.(c);
  for (const a of spec.args ?? []) {
    const argument = new Argument(a.spec, a.help);
    if (a.choices) argument.choices(a.choices).argParser(choiceParser(a.choices));
    c.addArgument(argument);
  }
  for (const o of spec.options ?? []) c.addOption(toOption(o));
  const needed = (spec.options ?? []).filter((o) => o.requiredToRun).map((o) => c.options.find((x) => x.flags === o.flags)!);
  if (needed.length) {
    c.hook('preAction', (self, actionCommand) => {
      if (actionCommand !== self) return;
      const given = self.optsWithGlobals();
      for (const option of needed) {
        if (given[option.attributeName()] === undefined) self.error(`error: required option '${option.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
      }
    });
  }
  helpAfter(c, spec);
  c.action(act(spec.run as (ctx: Ctx, opts: unknown, ...args: unknown[]) => Promise<void>, { profile: spec.profile, ownOptionsOnly: spec.ownOptionsOnly }));
  const children = spec.commands?.() ?? [];
  if (children.length && spec.args?.length) operandsAfterDashDash(c);
  for (const child of children) mount(c, child, argv);
  return c;
}

/**
 * A command that runs and has subcommands (`translate [text...]` and `translate file|sync|memory`):
 * after `--` the first operand is the command's own argument, never a subcommand's name, so
 * `vx translate --to de -- memory` translates the word (commander dispatched it to `translate
 * memory` even after `--`). Without `--` a subcommand's name still chooses it.
 */
function operandsAfterDashDash(c: Command): void {
  // commander 14 decides on dispatch with _findCommand(operands[0]), once `args` holds this
  // command's operands; whichever command met `--` pushed every word after it, in order, to the
  // end of the operands: when there are no more operands than such words, the first is one of them
  const internals = c as unknown as { _findCommand(name: string): Command | undefined };
  const find = internals._findCommand.bind(c);
  internals._findCommand = (name: string) => {
    let root: Command = c;
    while (root.parent) root = root.parent;
    const raw = (root as unknown as { rawArgs?: string[] }).rawArgs ?? [];
    const dashes = raw.indexOf('--');
    const literal = dashes >= 0 && c.args.length > 0 && c.args[0] === name && c.args.length <= raw.length - dashes - 1;
    return literal ? undefined : find(name);
  };
}
