// A whole command line run in-process: the command tree of buildProgram parses `argv`, each action
// gets a test Ctx (test/helpers/ctx.ts: fake streams, isolated config, the httpmock transport),
// and errors become a message on the fake stderr and the exit code as in src/main.ts. For tests of
// parsing, validation and rendering; exit codes of the real process, signals, pipes, terminals
// and the emulator stay in spawned e2e tests (test/helpers/vx.ts).
import type { Command } from 'commander';
import { CommanderError } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { report } from '../../src/cli/report.js';
import { state } from '../../src/cli/runner.js';
import { emulatorEnv } from '../../src/model/families.js';
import { SETTINGS } from '../../src/api/settings.js';
import { Ctx } from '../../src/core/context.js';
import { noPrompts, testCtx, type TestCtx, type TestCtxOptions } from './ctx.js';
import type { HttpMock } from './httpmock.js';

export interface InProcResult {
  code: number;
  stdout: string;
  /** stdout as written, byte for byte */
  stdoutBytes: Buffer;
  stderr: string;
  /** the stub registry the run's Ctx used (its requests: what was sent) */
  http: HttpMock;
}

/** Runs `vx <argv>` in this process; `setup` may add stubs to the run's HttpMock before it starts. */
export async function runInProc(argv: readonly string[], o: TestCtxOptions & { setup?: (t: TestCtx) => void } = {}): Promise<InProcResult> {
  // streams, config dir and HttpMock only: the environment is read by the action's Ctx below
  const made = testCtx({ ...o, env: undefined });
  o.setup?.(made);
  const program = buildProgram(argv);
  const walk = (c: Command) => {
    c.configureOutput({
      writeOut: (s: string) => void made.stdout.write(s),
      writeErr: (s: string) => void made.stderr.write(s),
      getOutHelpWidth: () => 80,
      getErrHelpWidth: () => 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    });
    c.commands.forEach(walk);
  };
  walk(program);
  // the action's Ctx: the same streams, config dir and HttpMock, with the parsed global options
  state.makeCtx = (globals) =>
    new Ctx(globals, SETTINGS, made.ctx.io, new AbortController().signal, { env: { VX_CONFIG_DIR: made.configDir, NO_COLOR: '1', ...o.env }, prompter: o.prompter ?? noPrompts, transport: made.http.transport });
  state.ctx = undefined;
  let code = 0;
  try {
    await program.parseAsync(['node', 'vx', ...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      code = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : err.code === 'commander.help' ? (err.exitCode === 0 ? 0 : 2) : 2;
    } else {
      // main.ts writes to process.stderr when the Ctx could not be built; here that is the fake stderr
      code = await report(err, (state.ctx as Ctx | undefined) ?? made.ctx, argv.includes('--debug'));
    }
  } finally {
    state.makeCtx = undefined;
    await (state.ctx as Ctx | undefined)?.http.close();
  }
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
