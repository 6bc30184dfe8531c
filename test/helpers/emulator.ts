// Starts the emulator in-process on port 0 and gives a runner that points vx at it.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runVxInProc } from './inproc.js';
import { removeDir, runVx, tempDir, type RunOptions, type RunResult } from './vx.js';

export interface E2E {
  emu: Emulator;
  /** the environment that points vx at the emulator */
  env: Record<string, string>;
  configDir: string;
  run(args: string[], opts?: RunOptions): Promise<RunResult>;
}

/**
 * Registers beforeAll/afterAll hooks; the returned object is filled in before the first test.
 * State and the request log are reset before each test unless `resetEach` is false. `clock` holds
 * the emulated time still (e.g. `() => T0`): every reset then seeds the same times, to the second.
 */
export function useEmulator(opts: { faults?: string; resetEach?: boolean; clock?: () => number } = {}): E2E {
  const e2e = {} as E2E;
  beforeAll(async () => {
    e2e.emu = await startEmulator({ port: 0, faults: opts.faults, clock: opts.clock });
    e2e.env = e2e.emu.env();
    e2e.configDir = tempDir();
    // in-process by default (the same run() as the process); spawned where the process is the subject
    e2e.run = (args, o = {}) => (o.spawn || o.onSpawn ? runVx : runVxInProc)(args, { configDir: e2e.configDir, ...o, env: { ...e2e.env, ...(o.env ?? {}) } });
  });
  if (opts.resetEach !== false) {
    beforeEach(() => {
      e2e.emu.reset();
      e2e.emu.setFaults(opts.faults ?? '');
    });
  }
  afterAll(async () => {
    await e2e.emu?.close();
    if (e2e.configDir) removeDir(e2e.configDir);
  });
  return e2e;
}
