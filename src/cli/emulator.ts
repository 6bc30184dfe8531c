import type { Command } from 'commander';
import { act, examples } from './runner.js';

const run = () => import('./emulator-run.js');

function serverOptions(cmd: Command, defaultPort: string): Command {
  return cmd
    .option('--port <n>', 'port to listen on (0 picks a free one)', defaultPort)
    .option('--host <address>', 'loopback address to listen on', '127.0.0.1')
    .option('--state <file>', 'load state from this JSON file and save every change to it')
    .option('--faults <spec>', 'inject faults, e.g. "429:0.1,503:0.05,reset:0.02,latency:50" (see README)')
    .option('--rate <family=n>', 'enforce a rate as the service does (429 + Retry-After): translator=<billed characters a second>')
    .option('--rate-limit <requests/seconds>', 'the business-data per-user rate limit, e.g. 6000/300 as the real service (429 + Retry-After beyond it); off by default');
}

export function registerEmulator(program: Command): void {
  const emu = program
    .command('emulator')
    .description('a local sandbox serving all three API families on loopback, with seed data')
    .addHelpText('after', examples('vx emulator start', 'vx emulator exec -- vx erp companies list', 'vx emulator start --port 0 --faults "503:0.1,retry-after:0"', 'vx emulator start --port 0 --rate translator=33300'));
  serverOptions(emu.command('start'), '4010')
    .description('start the emulator in the foreground and print the environment that points vx at it')
    .option('--save-profile <name>', 'also store the emulator settings as a profile')
    .addHelpText('after', examples('vx emulator start', 'vx emulator start --port 0 --state ./emu.json', 'vx emulator start --save-profile emu && vx -p emu erp companies list'))
    .action(act(async (ctx, opts) => (await run()).start(ctx, opts), { profile: 'unused' }));
  serverOptions(emu.command('exec'), '0')
    .description('start the emulator, run a command with the environment pointing at it, stop, and exit with its code')
    .argument('<command...>', 'the command and its arguments (after --)')
    .addHelpText('after', examples('vx emulator exec -- vx translate --to de "Good morning"', 'vx emulator exec -- sh -c \'vx erp currencies list -o json | jq length\''))
    .action(act(async (ctx, opts, command: string[]) => (await run()).exec(ctx, opts, command), { profile: 'unused' }));
}
