// The whole command tree, declared eagerly; every action loads its module on demand.
import { Command, Help, Option } from 'commander';
import { API } from './api/index.js';
import { AUTH } from './auth/index.js';
import { VERSION_COMMAND } from './about/index.js';
import { completionCommand } from './completion/index.js';
import { mount, TERM, type Spec } from './define.js';
import { EMULATOR } from './emulator/index.js';
import { ERP } from './erp/index.js';
import { MGMT } from './mgmt/index.js';
import { PROFILE } from './profile/index.js';
import { TRANSLATE } from './translate/index.js';
import { VERSION } from './version.js';
import { formatHelp } from './help.js';
import type { Factory } from './factory.js';
import { oneLine } from '../core/errors.js';
import { redact } from '../core/redact.js';

/**
 * The top-level nouns, in the order of `vx --help`. Each is a declaration (define.ts); only those
 * named on the command line are declared in full: the others get their line in the root help
 * (the term and summary come from the same declaration), so `vx --help` does not pay for
 * declaring every option of every command.
 */
export const NOUNS: readonly Spec[] = [TRANSLATE, ERP, MGMT, AUTH, PROFILE, API, completionCommand(() => buildProgram()), EMULATOR, VERSION_COMMAND];


/** `vx erp sales-orders get`: the words that name a command. */
function commandPath(c: Command): string {
  const words: string[] = [];
  for (let x: Command | null = c; x; x = x.parent) words.unshift(x.name());
  return words.join(' ');
}

/**
 * Commander's usage errors as one vx line: `error: unknown option '--bogus'` and its
 * `(Did you mean --to?)` become `vx: unknown option '--bogus' (did you mean --to?) (run \`vx
 * translate --help\` for usage)`. Commander's text echoes what was typed, so control characters
 * in it are shown escaped (one line, no terminal escapes), and the value of an unknown
 * `--option=value` is left out (it is often a credential), as are known secrets (redact).
 */
export function usageLine(c: Command, str: string): string {
  const text = str
    .replace(/^error:\s*/, '')
    // `--token=<secret>` names no option: the word typed is quoted, but never what follows its =
    // (often the very credential, and stderr goes to CI logs)
    .replace(/^(unknown (?:option|command) '-{0,2}[^'=\s]*)=[^']*'/, "$1=…' (its value is not shown)")
    .replace(/\s*\n\(Did you mean (.*)\?\)\s*$/s, ' (did you mean $1?)')
    .replace(/\.\s+Expected /, ': expected ')
    .replace(/\.\s+Allowed choices are /, '; allowed: ')
    .replace(/\.?\s*$/, '');
  return `vx: ${oneLine(redact(text))} (run \`${commandPath(c)} --help\` for usage)`;
}

/**
 * `vx help erp sales-orders list` (and `vx erp help sales-orders list`) shows that command's help.
 * Commander's help command reads only the word after it: a deeper path showed the first group's
 * help instead (`vx help erp sales-orders` printed `vx erp`'s), and a word that names no command
 * printed the whole help on stderr without saying why. Each word now goes one level down; one that
 * names no command is the usual one-line usage error (exit 2). The words are the command's operands
 * after `help` (commander sets `args` before it dispatches).
 */
function helpPath(c: Command): void {
  const internals = c as unknown as { _dispatchHelpCommand(name?: string): unknown };
  internals._dispatchHelpCommand = () => {
    let target = c;
    for (const word of c.args.slice(1).filter((w) => !w.startsWith('-'))) {
      const next = target.commands.find((x) => x.name() === word || x.aliases().includes(word));
      if (!next) return target.error(`error: unknown command '${word}'`, { code: 'commander.unknownCommand' });
      target = next;
    }
    return target.help();
  };
}

/**
 * The command tree. With `argv`, only the nouns that appear in it are declared in full (a
 * superset of what commander will select); without, the whole tree (completion, tests). With
 * `io`, help and usage errors are written through it (run() passes its factory).
 */
export function buildProgram(argv?: readonly string[], io?: Pick<Factory, 'writeOut' | 'writeErr' | 'helpWidth' | 'helpColors'>): Command {
  const program = new Command('vx');
  program
    .description('One CLI for the text translation service, the business-data (ERP) API and the resource-management APIs.')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(new Option('-p, --profile <name>', 'profile to use (env VX_PROFILE; default: the active profile)'))
    .addOption(new Option('-o, --output <format>', 'json, yaml, table, wide (every column), tsv, csv, ndjson, text or none (env VX_OUTPUT)'))
    .addOption(new Option('-q, --query <jmespath>', 'JMESPath expression applied to the JSON result before rendering'))
    .addOption(new Option('--debug', 'trace every HTTP exchange on stderr, secrets redacted'))
    .addOption(new Option('--verbose', 'extra information on stderr (request ids, billed characters, timings)'))
    .addOption(new Option('--no-color', 'no colour (NO_COLOR and FORCE_COLOR are honoured)'))
    .addOption(new Option('--timeout <seconds>', 'per-request timeout in seconds (default 60)'))
    .addOption(new Option('--retries <n>', 'retries of retryable failures (default 4)'))
    .addOption(new Option('--dry-run', 'print the request(s) that would be sent as JSON on stdout; send nothing'))
    .addOption(new Option('-y, --yes', 'skip confirmation of destructive operations'))
    .addOption(new Option('--no-pager', 'never show output through a pager (default at a terminal: $VX_PAGER, $PAGER or less -FRX for output longer than the screen)'))
    .showSuggestionAfterError(true)
    .configureHelp({
      showGlobalOptions: true,
      sortSubcommands: false,
      // a group's commands first, global options last (as gh and az)
      formatHelp,
      subcommandTerm(cmd: Command): string {
        return (cmd as Command & { [TERM]?: string })[TERM] ?? Help.prototype.subcommandTerm.call(this, cmd);
      },
    })
    .addHelpText(
      'after',
      `
Examples:
  $ echo "Good morning" | vx translate --to de --to fr
  $ vx erp sales-orders list --filter "status eq 'Open'" -o json | jq '.[].number'
  $ vx mgmt quota wizard
  $ vx emulator start          # a local sandbox for all three families

Exit codes: 0 ok, 1 service failure, 2 usage, 3 authentication, 4 not found, 5 conflict,
6 throttled, 7 service unavailable, 8 network, 130 interrupted.`,
    );
  for (const noun of NOUNS) mount(program, noun, argv);
  // every command exits 2 on a usage error instead of commander's default 1; help and usage
  // errors go straight to the factory's writers (the process's: the file descriptors, so that
  // `vx --help` never builds process.stdout/stderr, whose stream machinery costs a few ms)
  const output = io && {
    writeOut: (s: string) => io.writeOut(s),
    writeErr: (s: string) => io.writeErr(s),
    getOutHelpWidth: () => io.helpWidth(1) as number,
    getErrHelpWidth: () => io.helpWidth(2) as number,
    getOutHasColors: () => io.helpColors(1),
    getErrHasColors: () => io.helpColors(2),
  };
  const walk = (c: Command) => {
    helpPath(c);
    c.exitOverride();
    c.configureOutput({ ...output, outputError: (str, write) => write(`${usageLine(c, str)}\n`) });
    c.commands.forEach(walk);
  };
  walk(program);
  return program;
}

