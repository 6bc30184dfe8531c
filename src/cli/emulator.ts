import { arg, command, group, opt, type OptionsOf } from './define.js';

const run = () => import('./emulator-run.js');

function serverOptions<const P extends string>(defaultPort: P) {
  return [
    opt('--port <n>', 'port to listen on (0 picks a free one)', { default: defaultPort }),
    opt('--host <address>', 'loopback address to listen on', { default: '127.0.0.1' }),
    opt('--state <file>', 'load state from this JSON file and save every change to it'),
    opt('--faults <spec>', 'inject faults, e.g. "429:0.1,503:0.05,reset:0.02,latency:50"; a translator error code by its 6 digits: "403001:1x" (see README)'),
    opt('--rate <family=n>', 'enforce a rate as the service does (429 + Retry-After): translator=<billed characters a second>'),
    opt('--rate-limit <requests/seconds>', 'the business-data per-user rate limit, e.g. 6000/300 as the real service (429 + Retry-After beyond it); off by default'),
  ] as const;
}

const START_OPTIONS = [...serverOptions('4010'), opt('--save-profile <name>', "also store the emulator settings as a profile (one holding another service's endpoint, key or sign-in is replaced only when confirmed, or with --yes)")] as const;

export type EmulatorOptions = OptionsOf<ReturnType<typeof serverOptions>> & Partial<OptionsOf<typeof START_OPTIONS>>;

export const EMULATOR = group({
  name: 'emulator',
  summary: 'a local sandbox serving all three API families on loopback, with seed data',
  examples: ['vx emulator start', 'vx emulator exec -- vx erp companies list', 'vx emulator start --port 0 --faults "503:0.1,retry-after:0"', 'vx emulator start --port 0 --rate translator=555'],
  commands: () => [
    command({
      name: 'start',
      summary: 'start the emulator in the foreground and print the environment that points vx at it',
      options: START_OPTIONS,
      examples: ['vx emulator start', 'vx emulator start --port 0 --state ./emu.json', 'vx emulator start --save-profile emu && vx -p emu erp companies list'],
      profile: 'unused',
      run: async (ctx, opts) => (await run()).start(ctx, opts),
    }),
    command({
      name: 'exec',
      summary: 'start the emulator, run a command with the environment pointing at it, stop, and exit with its code',
      args: [arg('<command...>', 'the command and its arguments (after --)')],
      options: serverOptions('0'),
      examples: ['vx emulator exec -- vx translate --to de "Good morning"', "vx emulator exec -- sh -c 'vx erp currencies list -o json | jq length'"],
      profile: 'unused',
      run: async (ctx, opts, command) => (await run()).exec(ctx, opts, command),
    }),
  ],
});
