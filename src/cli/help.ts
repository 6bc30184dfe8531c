// Help laid out as gh and az do: what a command group contains (its commands) comes right after
// its description, then its own options, and the global options last; a leaf command reads as
// before (usage, description, arguments, options, global options). Only commander's public Help
// methods are used, so styles, wrapping and help groups keep working.
import type { Command, Help } from 'commander';

export function formatHelp(this: Help, cmd: Command, helper: Help): string {
  const termWidth = helper.padWidth(cmd, helper);
  const helpWidth = helper.helpWidth ?? 80;
  const item = (term: string, description: string) => helper.formatItem(term, termWidth, description, helper);
  let out = [`${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(cmd))}`, ''];
  const description = helper.commandDescription(cmd);
  if (description.length > 0) out.push(helper.boxWrap(helper.styleCommandDescription(description), helpWidth), '');
  const args = helper.visibleArguments(cmd).map((a) => item(helper.styleArgumentTerm(helper.argumentTerm(a)), helper.styleArgumentDescription(helper.argumentDescription(a))));
  out = out.concat(this.formatItemList('Arguments:', args, helper));
  const commandGroups = this.groupItems(cmd.commands as Command[], helper.visibleCommands(cmd), (sub) => sub.helpGroup() || 'Commands:');
  commandGroups.forEach((commands, group) => {
    const list = commands.map((sub) => item(helper.styleSubcommandTerm(helper.subcommandTerm(sub)), helper.styleSubcommandDescription(helper.subcommandDescription(sub))));
    out = out.concat(this.formatItemList(group, list, helper));
  });
  const optionTerm = (o: Parameters<Help['optionTerm']>[0]) => item(helper.styleOptionTerm(helper.optionTerm(o)), helper.styleOptionDescription(helper.optionDescription(o)));
  const optionGroups = this.groupItems(cmd.options as Parameters<Help['optionTerm']>[0][], helper.visibleOptions(cmd), (o) => o.helpGroupHeading ?? 'Options:');
  optionGroups.forEach((options, group) => {
    out = out.concat(this.formatItemList(group, options.map(optionTerm), helper));
  });
  // the global options are the program's: a parent command's own options (refresh's --target under
  // `refresh status`) are not global and would only mislead
  let root = cmd;
  while (root.parent) root = root.parent;
  const globals = helper.visibleGlobalOptions(cmd).filter((o) => root.options.includes(o));
  if (helper.showGlobalOptions) out = out.concat(this.formatItemList('Global Options:', globals.map(optionTerm), helper));
  return out.join('\n');
}
