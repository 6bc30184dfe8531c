// Shared pieces of the fuzz and secrets tests: the contract's exit codes, the signs of a crash, the
// command tree as data, and a lane (emulator + config dir + working dir) that one vx run at a time
// can use without seeing another run's requests.
import type { Command, Option } from 'commander';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/program.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runVxInProc } from './inproc.js';
import { removeDir, runVx, tempDir, type RunOptions, type RunResult } from './vx.js';

/** docs/cli-contract.md, "Exit codes" */
export const CONTRACT_CODES = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 130]);

/**
 * The documented exceptions to the table (README, "Exit codes"): `mgmt health check` answers the
 * monitoring-plugin codes 0-3 with its one line on stdout (so its 2 is CRITICAL after a request,
 * and its 1-3 come without a message on stderr); `mgmt quota check` exits 9 when a need is short.
 */
export function ownExitCodes(argv: readonly string[]): 'plugin' | 'short' | undefined {
  const line = ` ${argv.join(' ')} `;
  if (line.includes(' mgmt health check ')) return 'plugin';
  if (line.includes(' mgmt quota check ')) return 'short';
  return undefined;
}

/** What a crash leaves on stderr: a stack frame or a JavaScript error class. */
export function crashSigns(stderr: string): string[] {
  const found: string[] = [];
  if (/^ {4}at .+/m.test(stderr)) found.push('stack frame');
  const m = stderr.match(/\b(TypeError|ReferenceError|RangeError|SyntaxError|undefined is not|Cannot read properties|is not a function)\b/g);
  if (m) found.push(...m);
  return found;
}

export interface LeafCommand {
  /** the words that select it: ['erp', 'currencies', 'delete'] */
  path: string[];
  command: Command;
  options: readonly Option[];
  args: { name: string; required: boolean; variadic: boolean }[];
}

/** Every runnable command of the whole tree (built without a command line: every noun in full). */
export function leafCommands(): { program: Command; leaves: LeafCommand[] } {
  const program = buildProgram();
  const leaves: LeafCommand[] = [];
  const walk = (c: Command, path: string[]) => {
    // a command with its own action counts even when it also has subcommands (erp refresh: start, and `status`)
    if (path.length && (!c.commands.length || (c as unknown as { _actionHandler?: unknown })._actionHandler)) {
      const args = (c as unknown as { registeredArguments: { name(): string; required: boolean; variadic: boolean }[] }).registeredArguments.map((a) => ({
        name: a.name(),
        required: a.required,
        variadic: a.variadic,
      }));
      leaves.push({ path, command: c, options: c.options, args });
    }
    for (const s of c.commands) walk(s, [...path, s.name()]);
  };
  walk(program, []);
  return { program, leaves };
}

export interface Lane {
  emu: Emulator;
  configDir: string;
  cwd: string;
  run(args: string[], opts?: RunOptions): Promise<RunResult>;
  close(): Promise<void>;
}

/** An emulator of its own on port 0, a config dir and an empty working directory; runs are in-process unless `spawn` is given. */
export async function openLane(opts: { faults?: string; key?: string; token?: string } = {}): Promise<Lane> {
  const emu = await startEmulator({ port: 0, faults: opts.faults, key: opts.key, token: opts.token });
  const configDir = tempDir('vx-rel-cfg-');
  const cwd = tempDir('vx-rel-cwd-');
  return {
    emu,
    configDir,
    cwd,
    run: (args, o = {}) => (o.spawn || o.onSpawn ? runVx : runVxInProc)(args, { configDir, cwd, ...o, env: { ...emu.env(), ...(o.env ?? {}) } }),
    async close() {
      await emu.close();
      removeDir(configDir);
      removeDir(cwd);
    },
  };
}

/** Every file below `dir` (recursively), as paths. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}
