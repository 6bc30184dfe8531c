// `vx emulator exec -- <command>`: the emulator started, the command run with the environment
// pointing at it (and a `vx` on PATH that is this build), the emulator stopped, the command's exit
// code passed on.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { passSignal, shellQuote } from '../../core/child.js';
import type { Ctx } from '../../core/context.js';
import { ServiceError, UsageError, VxError } from '../../core/errors.js';
import type { ServerOptions } from './options.js';
import { noProxyFor, startServer } from './server.js';

/**
 * Without `--`, the options of the command (`vx emulator exec vx erp companies list -q length(@)`)
 * are read by this vx and silently lost: the command would run without them.
 */
function refuseOwnGlobals(ctx: Ctx, command: string[]): void {
  const g = ctx.globals;
  const taken = [
    g.output !== undefined && '--output',
    g.query !== undefined && '--query',
    g.dryRun && '--dry-run',
    g.yes && '--yes',
    g.profile !== undefined && '--profile',
    g.debug && '--debug',
    g.verbose && '--verbose',
    g.color === false && '--no-color',
    g.timeout !== undefined && '--timeout',
    g.retries !== undefined && '--retries',
    g.pager === false && '--no-pager',
  ].filter(Boolean);
  if (taken.length) {
    throw new UsageError(`${taken.join(', ')} would be read by \`vx emulator exec\` itself, not by ${command[0]}; put the command after --: vx emulator exec -- ${command[0]} ...`);
  }
}

/** A directory holding a `vx` that runs this very build (`self`: node and its script), to put first on the command's PATH. */
function vxShim([node, script]: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'vx-emu-'));
  const shim = join(dir, 'vx');
  writeFileSync(shim, `#!/bin/sh\nexec ${shellQuote(node)} ${shellQuote(resolve(script))} "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

/** Runs the command to its end: its exit code (128 + the signal's number when a signal killed it, as a shell says it). */
function runChild(ctx: Ctx, command: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; signal: NodeJS.Signals | null }> {
  return new Promise((resolveCode, reject) => {
    const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
    // SIGTERM (a CI runner cancelling the job), SIGHUP and SIGINT sent to vx are passed on: the
    // command ends (or cleans up) as it chooses, the emulator serves it meanwhile, and vx exits
    // with its code. A Ctrl-C at a terminal already reaches the command (the whole foreground
    // process group gets it): it is not sent a second time.
    ctx.host.forwardSignal = (sig) => passSignal(child, sig);
    child.on('error', (e) => reject(new UsageError(`cannot run ${command[0]}: ${(e as Error).message}`)));
    child.on('exit', (c, sig) => resolveCode({ code: c ?? (sig ? 128 + (osConstants.signals[sig] ?? 0) : 1), signal: c === null ? sig : null }));
  });
}

class ChildExit extends VxError {
  constructor(
    message: string,
    override readonly exitCode: number,
  ) {
    super(message);
  }
}

export async function run(ctx: Ctx, opts: ServerOptions, command: string[]): Promise<void> {
  if (!command.length) throw new UsageError('name the command to run after --');
  refuseOwnGlobals(ctx, command);
  const emu = await startServer(ctx, opts);
  const shimDir = vxShim(ctx.self);
  try {
    const env = { ...ctx.env, ...emu.env(), ...noProxyFor(ctx, emu.url), PATH: `${shimDir}${delimiter}${ctx.envVar('PATH') ?? ''}` };
    const { code, signal } = await runChild(ctx, command, env);
    process.exitCode = code;
    if (code !== 0) throw new ChildExit(`${command.join(' ')} ${signal ? `was killed by ${signal} (exit ${code})` : `exited with ${code}`}`, code);
  } finally {
    ctx.host.forwardSignal = undefined;
    rmSync(shimDir, { recursive: true, force: true });
    await emu.close();
  }
  // (the command's own failure is the one said)
  if (emu.stateError) throw new ServiceError(`${emu.stateError}; the last changes were not saved`);
}
