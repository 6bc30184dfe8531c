// The command tree as completion scripts see it: per command path its subcommands, options, the
// values an option or the first argument takes. Read from the commander tree, so the scripts
// cannot drift from it.
import type { Command, Option } from 'commander';
import { SETTINGS } from '../../api/settings.js';
import { FORMATS } from '../../core/output/index.js';

export interface Node {
  path: string; // "vx erp sales-orders"
  subcommands: string[];
  options: string[];
  /** option -> allowed values */
  choices: Record<string, string[]>;
  /** options that take a value */
  valued: string[];
  /** choices of the first positional argument */
  argChoices: string[];
  /** long option -> its short form ("--output" -> "-o") */
  shorts: Record<string, string>;
}

function optionNames(o: Option): string[] {
  return [o.long, o.short].filter((x): x is string => Boolean(x));
}

export function commandNodes(program: Command): Node[] {
  const nodes: Node[] = [];
  const globals = program.options;
  const visit = (cmd: Command, path: string[]) => {
    const own = cmd === program ? cmd.options : [...cmd.options, ...globals];
    const options: string[] = [];
    const choices: Record<string, string[]> = {};
    const valued: string[] = [];
    const shorts: Record<string, string> = {};
    for (const o of own) {
      if (o.hidden) continue;
      if (o.long && o.short) shorts[o.long] = o.short;
      for (const n of optionNames(o)) {
        options.push(n);
        if (o.required || o.optional) valued.push(n);
        // --output is checked by vx itself (so that VX_OUTPUT gets the same message), not by commander
        const allowed = o.argChoices ?? (o.long === '--output' ? [...FORMATS] : undefined);
        if (allowed) choices[n] = allowed;
      }
    }
    options.push('--help');
    const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    const names = subs.flatMap((c) => [c.name(), ...c.aliases()]);
    const firstArg = cmd.registeredArguments[0];
    const at = path.join(' ');
    // setting keys are checked by vx (with its own message), so commander does not know them as choices
    const argChoices = firstArg?.argChoices ?? (/^vx profile (set|unset|get)$/.test(at) ? SETTINGS.filter((d) => !d.internal).map((d) => d.key) : []);
    // commander's own `help` command (`vx help erp`, `vx erp help sales-orders`), on a command that
    // has subcommands and no action of its own (`vx translate help` translates "help"): offered
    // with them, and the word after it completed with theirs
    const helpCommand = (cmd as unknown as { _getHelpCommand(): Command | null })._getHelpCommand();
    const help = helpCommand ? [helpCommand.name()] : [];
    nodes.push({ path: at, subcommands: [...names, ...help], options: [...new Set(options)].sort(), choices, valued: [...new Set(valued)].sort(), argChoices, shorts });
    if (help.length) nodes.push({ path: `${at} ${help[0]}`, subcommands: names, options: ['--help'], choices: {}, valued: [], argChoices: [], shorts: {} });
    for (const c of subs) for (const n of [c.name(), ...c.aliases()]) visit(c, [...path, n]);
  };
  visit(program, ['vx']);
  return nodes;
}

/** the words of a list, as one shell word list */
export function words(xs: string[]): string {
  return xs.join(' ');
}
