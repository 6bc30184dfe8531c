// A whole command line run in-process through run(argv, factory), the same function main.ts runs,
// with a test factory (test/helpers/ctx.ts: fake streams, isolated config, the httpmock transport,
// or the real network to a server on loopback). Only what is about the process itself (signals,
// terminals, pipes closing, install) is spawned (test/helpers/vx.ts).
import type { Factory } from '../../src/cli/factory.js';
import { driveClock } from './fake-clock.js';
import { run } from '../../src/cli/run.js';
import { emulatorEnv } from '../../src/model/families.js';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { noPrompts, testCtx, type TestCtx, type TestCtxOptions } from './ctx.js';
import type { HttpMock } from './httpmock.js';
import { baseEnv, BIN, removeDir, ROOT, tempDir, type RunOptions, type RunResult } from './vx.js';

export interface InProcResult {
  code: number;
  stdout: string;
  /** stdout as written, byte for byte */
  stdoutBytes: Buffer;
  stderr: string;
  /** the stub registry the run's Ctx used (its requests: what was sent) */
  http: HttpMock;
}

export interface InProcOptions extends TestCtxOptions {
  /** may add stubs to the run's HttpMock before it starts */
  setup?: (t: TestCtx) => void;
  /** the real network instead of the HttpMock (a server on loopback, e.g. the emulator in-process) */
  network?: boolean;
  /** aborts the run as a signal would */
  signal?: AbortSignal;
  clock?: Clock;
}

/** The factory of an in-process run: fake streams and prompter, an isolated config, the HttpMock's transport. */
export function testFactory(made: TestCtx, o: InProcOptions): Factory {
  const io = made.ctx.io;
  return {
    env: { VX_CONFIG_DIR: made.configDir, NO_COLOR: '1', ...o.env },
    io,
    signal: o.signal ?? new AbortController().signal,
    clock: o.clock ?? systemClock,
    prompter: o.prompter ?? noPrompts,
    transport: o.network ? undefined : made.http.transport,
    host: {},
    self: [process.execPath, BIN],
    writeOut: (s) => void io.stdout.write(s),
    writeErr: (s) => void io.stderr.write(s),
    helpWidth: () => 80,
    helpColors: () => false,
  };
}

/** Runs `vx <argv>` in this process, through the same run(argv, factory) as the real process. */
export async function runInProc(argv: readonly string[], o: InProcOptions = {}): Promise<InProcResult> {
  // streams, config dir and HttpMock only: the environment is read by the action's Ctx
  const made = testCtx({ ...o, env: undefined });
  o.setup?.(made);
  const code = await run(argv, testFactory(made, o));
  return { code, stdout: made.stdout.text, stdoutBytes: made.stdout.bytes, stderr: made.stderr.text, http: made.http };
}

/**
 * Settings of every family pointing at a loopback port nothing listens on (as `vx emulator start`
 * prints them): the HttpMock answers, or the test fails at the first request.
 */
export function offlineEnv(seeded: { company?: string; subscription?: string } = {}): Record<string, string> {
  return emulatorEnv('http://127.0.0.1:9', { key: 'test-key', token: 'test-token' }, {
    erp: { defaultCompany: seeded.company ?? '00000000-0000-4000-8000-0000000c0001' },
    mgmt: { defaultSubscription: seeded.subscription ?? '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f' },
  });
}

/** The working directory in-process runs share: runs in one directory go together, another waits its turn. */
const cwdLock = { dir: '', active: 0, waiting: [] as (() => void)[] };

async function enterDir(dir: string): Promise<void> {
  while (cwdLock.active > 0 && cwdLock.dir !== dir) await new Promise<void>((r) => cwdLock.waiting.push(r));
  if (cwdLock.active++ === 0) {
    cwdLock.dir = dir;
    process.chdir(dir);
  }
}

function leaveDir(): void {
  if (--cwdLock.active > 0) return;
  for (const wake of cwdLock.waiting.splice(0)) wake();
}

/**
 * `runVx`'s twin in-process: the same options and result, the same clean environment (baseEnv),
 * standard input ended (or holding `input`), and `cwd` the working directory for the run (it is
 * the process's: runs in other directories take turns).
 */
export async function runVxInProc(args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  if (opts.onSpawn) throw new Error('runVxInProc: onSpawn needs a process (spawn it with runVx)');
  const configDir = opts.configDir ?? tempDir();
  const env: Record<string, string> = { ...baseEnv(configDir) };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const made = testCtx({ stdin: opts.input ?? '' });
  const controller = new AbortController();
  // a run that outlives timeoutMs is stopped, and reported as runVx reports the process it kills
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    controller.abort();
  }, opts.timeoutMs ?? 25_000);
  await enterDir(opts.cwd ?? ROOT);
  try {
    const running = run(args, { ...testFactory(made, { network: true, signal: controller.signal, clock: opts.clock }), env });
    const code = await (opts.clock ? driveClock(opts.clock, running) : running);
    return { code: hung ? null : code, signal: hung ? 'SIGKILL' : null, stdout: made.stdout.text, stderr: made.stderr.text };
  } finally {
    leaveDir();
    clearTimeout(timer);
    if (!opts.configDir) removeDir(configDir);
    removeDir(made.configDir);
  }
}
