// Type tests of src/cli/define.ts, checked by `npm run typecheck` (tsc), never run: a command's
// option and argument types come from its declaration, so renaming or retyping an option without
// changing the run function that reads it does not compile. Each @ts-expect-error below must
// stay an error (tsc fails on an unused one).
import type { Ctx } from '../../src/core/context.js';
import { arg, command, opt, type OptionsOf } from '../../src/cli/define.js';

const LIST = [
  opt('--page-size <n>', 'items per page'),
  opt('--kind <k>', 'which kind', { choices: ['a', 'b'] }),
  opt('--set <field=value>', 'repeatable', { repeat: true }),
  opt('--no-wait', 'do not wait'),
  opt('--project <id>', 'required', { required: true }),
  opt('--port <n>', 'with a default', { default: '4010' }),
  opt('-f, --file <path>', 'short and long'),
  opt('--active', 'a switch'),
] as const;
type ListOpts = OptionsOf<typeof LIST>;

// the inferred shape, exactly
type Expected = {
  pageSize?: string;
  kind?: 'a' | 'b';
  set?: string[];
  wait: boolean;
  project: string;
  port: string;
  file?: string;
  active?: boolean;
};
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const exact: Equal<ListOpts, Expected> = true;

/** a run function written against the declaration */
async function runList(_ctx: Ctx, opts: ListOpts, name: string, rest: string[]): Promise<void> {
  void [opts.pageSize?.trim(), opts.kind === 'a', opts.set?.length, opts.wait, opts.project.trim(), name, rest];
}

export const ok = command({
  name: 'list',
  summary: 'list',
  args: [arg('<name>', 'a name'), arg('[rest...]', 'more')],
  options: LIST,
  run: (ctx, opts, name, rest) => runList(ctx, opts, name, rest),
});

// The declarations of one command, as a pair: the one in use and the same after an edit. Run
// functions take OptionsOf<typeof DECLARATION> (as src/cli/*-run.ts do), so they follow an edit.
const RENAMED = [
  opt('--page-length <n>', 'items per page'),
  opt('--kind <k>', 'which kind', { choices: ['a', 'b'] }),
  opt('--no-wait', 'do not wait'),
  opt('--project <id>', 'required', { required: true }),
] as const;
export const RETYPED = [opt('--page-size <n>', 'items per page'), opt('--kind', 'which kind'), opt('--no-wait', 'do not wait'), opt('--project <id>', 'required', { required: true })] as const;
export const OPTIONAL = [opt('--page-size <n>', 'items per page'), opt('--kind <k>', 'which kind', { choices: ['a', 'b'] }), opt('--no-wait', 'do not wait'), opt('--project <id>', 'required')] as const;

/** the unchanged run function, against each edit */
export function runRenamed(opts: OptionsOf<typeof RENAMED>): unknown {
  // @ts-expect-error --page-size was renamed: pageSize is no option any more
  return opts.pageSize;
}
export function runRetyped(opts: OptionsOf<typeof RETYPED>): boolean {
  // @ts-expect-error --kind lost its value: a boolean is never 'a'
  return opts.kind === 'a';
}
export function runOptional(opts: OptionsOf<typeof OPTIONAL>): string {
  // @ts-expect-error --project is no longer required: it may be undefined
  return opts.project.trim();
}

// an inline run function, after the same rename
export const inlineRenamed = command({
  name: 'list',
  summary: 'list',
  options: RENAMED,
  run: async (_ctx, opts) => {
    // @ts-expect-error pageSize is no option any more
    void opts.pageSize;
  },
});

// an argument made optional: a run function that needs a string no longer compiles
export const optionalArg = command({
  name: 'list',
  summary: 'list',
  args: [arg('[name]', 'a name'), arg('[rest...]', 'more')],
  options: LIST,
  // @ts-expect-error name may be undefined now
  run: (ctx, opts, name, rest) => runList(ctx, opts, name, rest),
});
