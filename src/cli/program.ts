// The whole command tree, declared eagerly; every action loads its module on demand.
import { Command, Option } from 'commander';
import { registerProfile } from './profile.js';
import { registerApi } from './api.js';
import { registerCompletion } from './completion.js';
import { registerEmulator } from './emulator.js';
import { registerTranslate } from './translate.js';
import { registerErp } from './erp.js';
import { registerMgmt } from './mgmt.js';
import { registerAuth } from './auth.js';

declare const __VX_VERSION__: string;
const VERSION = typeof __VX_VERSION__ === 'string' ? __VX_VERSION__ : '0.0.0-dev';

export function buildProgram(): Command {
  const program = new Command('vx');
  program
    .description('One CLI for the text translation service, the business-data (ERP) API and the resource-management APIs.')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(new Option('-p, --profile <name>', 'profile to use (env VX_PROFILE; default: the active profile)'))
    .addOption(new Option('-o, --output <format>', 'json, yaml, table, tsv, ndjson, text or none (env VX_OUTPUT)'))
    .addOption(new Option('-q, --query <jmespath>', 'JMESPath expression applied to the JSON result before rendering'))
    .addOption(new Option('--debug', 'trace every HTTP exchange on stderr, secrets redacted'))
    .addOption(new Option('--verbose', 'extra information on stderr (request ids, billed characters, timings)'))
    .addOption(new Option('--no-color', 'no colour (NO_COLOR and FORCE_COLOR are honoured)'))
    .addOption(new Option('--timeout <seconds>', 'per-request timeout in seconds (default 60)'))
    .addOption(new Option('--retries <n>', 'retries of retryable failures (default 4)'))
    .addOption(new Option('--dry-run', 'print the request(s) that would be sent as JSON on stdout; send nothing'))
    .addOption(new Option('-y, --yes', 'skip confirmation of destructive operations'))
    .showHelpAfterError('(run with --help for usage)')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
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
  registerTranslate(program);
  registerErp(program);
  registerMgmt(program);
  registerAuth(program);
  registerProfile(program);
  registerApi(program);
  registerCompletion(program);
  registerEmulator(program);
  // every command exits 2 on a usage error instead of commander's default 1
  const walk = (c: Command) => {
    c.exitOverride();
    c.commands.forEach(walk);
  };
  walk(program);
  return program;
}

