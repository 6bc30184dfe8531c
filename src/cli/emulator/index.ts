// The `vx emulator` tree: the local sandbox. Declarations only; each action loads its verb's
// module (and with it the emulator) when it runs.
import { arg, command, group } from '../define.js';
import { EXEC_OPTIONS, START_OPTIONS } from './options.js';

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
      run: async (ctx, opts) => (await import('./start.js')).run(ctx, opts),
    }),
    command({
      name: 'exec',
      summary: 'start the emulator, run a command with the environment pointing at it, stop, and exit with its code',
      args: [arg('<command...>', 'the command and its arguments (after --)')],
      options: EXEC_OPTIONS,
      examples: ['vx emulator exec -- vx translate --to de "Good morning"', "vx emulator exec -- sh -c 'vx erp currencies list -o json | jq length'"],
      profile: 'unused',
      run: async (ctx, opts, command) => (await import('./exec.js')).run(ctx, opts, command),
    }),
  ],
});
