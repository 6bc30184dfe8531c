// The command reference (docs/commands/*.md) and the manual pages (docs/man/*.1), generated from
// the command tree as the completion scripts are, so that neither can leave out or keep a command,
// an option or a choice the tree does not have (test/unit/reference.test.ts compares them).
//
// One page per command group, as gh's manual: the root, every top-level command and every command
// that has subcommands get a page; a page documents its command and every command below it that
// has no page of its own. Nothing here runs at start-up: `npm run docs` (build.mjs --reference)
// and the test load it.
import type { Command, Option } from 'commander';

export interface ReferenceFile {
  /** relative to the repository: docs/commands/vx-erp.md, docs/man/vx-erp.1 */
  path: string;
  text: string;
}

interface OptionEntry {
  flags: string;
  help: string;
  choices?: readonly string[];
  default?: string;
  required: boolean;
}

/** One command as the reference shows it. */
interface Entry {
  words: string;
  summary: string;
  aliases: readonly string[];
  /** undefined for a group, which does not run itself */
  usage?: string;
  args: { term: string; help: string; choices?: readonly string[] }[];
  options: OptionEntry[];
  examples: string[];
  more: string;
  /** the subcommands (with their own pages or not), for the list of a group */
  children: { words: string; summary: string; page: string }[];
}

interface Page {
  name: string;
  words: string;
  summary: string;
  entries: Entry[];
  parent?: string;
}

function visible(c: Command): Command[] {
  return c.commands.filter((x) => !(x as unknown as { _hidden?: boolean })._hidden);
}

function wordsOf(c: Command): string[] {
  const w: string[] = [];
  for (let x: Command | null = c; x; x = x.parent) w.unshift(x.name());
  return w;
}

function hasPage(c: Command): boolean {
  return !c.parent || !c.parent.parent || visible(c).length > 0;
}

function pageOf(c: Command): Command {
  let x = c;
  while (!hasPage(x)) x = x.parent!;
  return x;
}

function runs(c: Command): boolean {
  return Boolean((c as unknown as { _actionHandler?: unknown })._actionHandler);
}

/** The text commander writes after a command's help: its examples and notes (define.ts, helpAfter). */
function helpAfter(c: Command): { examples: string[]; more: string } {
  let out = '';
  c.configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (out += s), getOutHasColors: () => false, getOutHelpWidth: () => 100 });
  c.outputHelp();
  const base = c.helpInformation();
  const after = out.slice(out.indexOf(base) + base.length).split('\n');
  const examples: string[] = [];
  const rest: string[] = [];
  for (const line of after) {
    if (line.startsWith('  $ ')) examples.push(line.slice(4));
    else if (line !== 'Examples:' || !examples.length) rest.push(line);
  }
  const more = rest.join('\n').replace(/^\s*Examples:\s*$/m, '').trim();
  return { examples, more };
}

function optionEntry(o: Option): OptionEntry {
  const e: OptionEntry = { flags: o.flags, help: o.description, required: Boolean(o.mandatory) };
  if (o.argChoices) e.choices = o.argChoices;
  if (typeof o.defaultValue === 'string') e.default = o.defaultValue;
  return e;
}

function entryOf(c: Command): Entry {
  const { examples, more } = helpAfter(c);
  const e: Entry = {
    words: wordsOf(c).join(' '),
    summary: c.description(),
    aliases: c.aliases(),
    args: c.registeredArguments.map((a) => ({ term: a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`, help: a.description, ...(a.argChoices ? { choices: a.argChoices } : {}) })),
    options: c.parent ? c.options.filter((o) => !o.hidden).map(optionEntry) : [],
    examples,
    more,
    children: visible(c).map((x) => ({ words: wordsOf(x).join(' '), summary: x.description(), page: wordsOf(pageOf(x)).join('-') })),
  };
  if (runs(c)) e.usage = `${e.words} ${c.usage()}`.trim();
  return e;
}

function pagesOf(program: Command): Page[] {
  const pages: Page[] = [];
  const visit = (c: Command) => {
    if (hasPage(c)) {
      const entries: Entry[] = [];
      const collect = (x: Command) => {
        entries.push(entryOf(x));
        for (const child of visible(x)) if (!hasPage(child)) collect(child);
      };
      collect(c);
      pages.push({ name: wordsOf(c).join('-'), words: wordsOf(c).join(' '), summary: c.description(), entries, ...(c.parent ? { parent: wordsOf(c.parent).join('-') } : {}) });
    }
    for (const child of visible(c)) visit(child);
  };
  visit(program);
  return pages;
}

/** The root's options: every command takes them. */
function globalOptions(program: Command): OptionEntry[] {
  return program.options.filter((o) => !o.hidden).map(optionEntry);
}

/** Every file of the reference, in a stable order. */
export function referenceFiles(program: Command): ReferenceFile[] {
  const pages = pagesOf(program);
  const globals = globalOptions(program);
  return [
    ...pages.map((p) => ({ path: `docs/commands/${p.name}.md`, text: markdownPage(p, globals) })),
    ...pages.map((p) => ({ path: `docs/man/${p.name}.1`, text: manPage(p, globals) })),
  ];
}

// ---- markdown ----

/** Text outside code: no HTML from `<id>`, no table cell broken by `|`. */
function mdText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function mdCode(s: string): string {
  return s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``;
}

/** A code span in a table cell: GitHub's tables split a row at a `|` even inside code, unless escaped. */
function mdCellCode(s: string): string {
  return mdCode(s).replace(/\|/g, '\\|');
}

function optionNote(o: OptionEntry): string {
  const notes = [o.required ? 'required' : '', o.choices ? `one of: ${o.choices.join(', ')}` : '', o.default !== undefined ? `default: ${o.default}` : ''].filter(Boolean);
  return notes.length ? ` (${notes.join('; ')})` : '';
}

function mdOptions(title: string, options: readonly OptionEntry[]): string[] {
  if (!options.length) return [];
  return [`${title}:`, '', '| option | meaning |', '|---|---|', ...options.map((o) => `| ${mdCellCode(o.flags)} | ${mdText(o.help + optionNote(o))} |`), ''];
}

function mdEntry(e: Entry, level: string, page: string): string[] {
  const out = [`${level} ${e.words}`, '', mdText(e.summary), ''];
  if (e.aliases.length) out.push(`Aliases: ${e.aliases.map(mdCode).join(', ')}`, '');
  if (e.usage) out.push('```text', `Usage: ${e.usage}`, '```', '');
  if (e.args.length) out.push('Arguments:', '', '| argument | meaning |', '|---|---|', ...e.args.map((a) => `| ${mdCellCode(a.term)} | ${mdText(a.help + (a.choices ? ` (one of: ${a.choices.join(', ')})` : ''))} |`), '');
  out.push(...mdOptions('Options', e.options));
  if (e.children.length) {
    out.push('Commands:', '', '| command | summary |', '|---|---|');
    for (const c of e.children) out.push(`| ${c.page === page ? `[${mdCellCode(c.words)}](#${anchor(c.words)})` : `[${mdCellCode(c.words)}](${c.page}.md)`} | ${mdText(c.summary)} |`);
    out.push('');
  }
  if (e.examples.length) out.push('Examples:', '', '```sh', ...e.examples, '```', '');
  if (e.more) out.push('```text', e.more, '```', '');
  return out;
}

/** GitHub's heading anchor: lower case, spaces to hyphens, punctuation dropped. */
function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
}

function markdownPage(p: Page, globals: readonly OptionEntry[]): string {
  const [first, ...rest] = p.entries;
  const out = ['<!-- generated from the command tree by `npm run docs`; edits are lost -->', '', ...mdEntry(first!, '#', p.name)];
  for (const e of rest) out.push(...mdEntry(e, '##', p.name));
  if (!p.parent) out.push(...mdOptions('## Global options\n\nEvery command takes these', globals));
  else out.push(`Global options: see [vx](vx.md#global-options). Manual page: \`man ${p.name}\`.`, '');
  if (p.parent) out.push(`Up: [${p.parent.replace(/-/g, ' ')}](${p.parent}.md)`, '');
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

// ---- roff (man 7 man) ----

/** Escapes text for roff: backslashes, hyphens of options, and a control character at a line start. */
function roff(s: string): string {
  return s
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

function manOptions(options: readonly OptionEntry[]): string[] {
  return options.flatMap((o) => ['.TP', `\\fB${roff(o.flags)}\\fR`, roff(o.help + optionNote(o))]);
}

function manEntry(e: Entry, page: string, main: boolean): string[] {
  const out = main ? [] : ['.SS', `\\fB${roff(e.words)}\\fR`];
  out.push(roff(e.summary));
  if (e.aliases.length) out.push('.PP', `Aliases: ${roff(e.aliases.join(', '))}`);
  if (e.usage) out.push('.PP', `Usage: \\fB${roff(e.usage)}\\fR`);
  if (e.args.length) out.push('.PP', 'Arguments:', ...e.args.flatMap((a) => ['.TP', `\\fI${roff(a.term)}\\fR`, roff(a.help + (a.choices ? ` (one of: ${a.choices.join(', ')})` : ''))]));
  if (e.options.length) out.push('.PP', 'Options:', ...manOptions(e.options));
  if (e.children.length) out.push('.PP', 'Commands:', ...e.children.flatMap((c) => ['.TP', `\\fB${roff(c.words)}\\fR${c.page === page ? '' : ` (see \\fB${roff(c.page)}\\fR(1))`}`, roff(c.summary)]));
  if (e.examples.length) out.push('.PP', 'Examples:', '.PP', '.RS 4', '.nf', ...e.examples.map(roff), '.fi', '.RE');
  if (e.more) out.push('.PP', '.nf', roff(e.more), '.fi');
  return out;
}

function manPage(p: Page, globals: readonly OptionEntry[]): string {
  const [first, ...rest] = p.entries;
  const out = [
    '.\\" generated from the command tree by `npm run docs`; edits are lost',
    `.TH "${p.name.toUpperCase()}" "1" "" "vx" "vx manual"`,
    '.SH NAME',
    `${roff(p.name)} \\- ${roff(p.summary.replace(/\s*\n\s*/g, ' '))}`,
    '.SH DESCRIPTION',
    ...manEntry(first!, p.name, true),
  ];
  if (rest.length) out.push('.SH COMMANDS', ...rest.flatMap((e) => manEntry(e, p.name, false)));
  if (!p.parent) out.push('.SH GLOBAL OPTIONS', 'Every command takes these.', ...manOptions(globals));
  const see = p.parent ? [`\\fB${roff(p.parent)}\\fR(1)`, ...(p.parent === 'vx' ? [] : ['\\fBvx\\fR(1)'])] : [];
  if (see.length) out.push('.SH SEE ALSO', see.join(', '));
  return `${out.join('\n')}\n`;
}
