// A Ctx for in-process tests (after gh's iostreams.Test()): fake stdout/stderr/stdin with a fake
// terminal flag each, an injected prompter, an isolated config directory and environment, and
// the HTTP transport of an HttpMock. Run functions are called with it directly: no process is
// spawned, so parsing, validation and rendering are tested in milliseconds.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { SETTINGS } from '../../src/api/settings.js';
import { Ctx, type GlobalOptions, type Streams } from '../../src/core/context.js';
import type { Prompter } from '../../src/core/prompt.js';
import { HttpMock, registeredMocks } from './httpmock.js';
import { tty, type FakeTty } from './tty.js';

export interface TestCtxOptions {
  globals?: GlobalOptions;
  /** which streams are terminals (default: none) */
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  stdinTTY?: boolean;
  /** the environment (VX_CONFIG_DIR defaults to a fresh directory; NO_COLOR is set) */
  env?: Record<string, string>;
  prompter?: Prompter;
  /** what standard input holds (then it ends) */
  stdin?: string | Buffer;
}

export interface TestCtx {
  ctx: Ctx;
  http: HttpMock;
  stdout: FakeTty;
  stderr: FakeTty;
  configDir: string;
}

/** A prompter for a test without a terminal: every question fails the test. */
export const noPrompts: Prompter = {
  interactive: false,
  confirm: () => Promise.reject(new Error('unexpected question')),
  input: () => Promise.reject(new Error('unexpected question')),
  password: () => Promise.reject(new Error('unexpected question')),
  select: () => Promise.reject(new Error('unexpected question')),
  search: () => Promise.reject(new Error('unexpected question')),
};

/** A prompter at a terminal that answers every yes/no question with `answer` and records the questions in `asked`. */
export function confirmingPrompter(answer: boolean): { prompter: Prompter; asked: string[] } {
  const asked: string[] = [];
  const prompter: Prompter = {
    interactive: true,
    async confirm(message) {
      asked.push(message);
      return answer;
    },
    input: async () => '',
    password: async () => '',
    select: async () => undefined as never,
    search: async () => undefined as never,
  };
  return { prompter, asked };
}

// every stub registered in a test must have been used by its end (test/setup.ts checks after each
// test: a hook registered here would be registered once per worker, by the first file that loads this module)
const made = registeredMocks();

export function testCtx(o: TestCtxOptions = {}): TestCtx {
  const stdout = tty(100);
  stdout.isTTY = o.stdoutTTY ?? false;
  const stderr = tty(100);
  stderr.isTTY = o.stderrTTY ?? false;
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = o.stdinTTY ?? false;
  if (o.stdin !== undefined) stdin.end(o.stdin);
  const configDir = mkdtempSync(join(tmpdir(), 'vx-ctx-'));
  const env = { VX_CONFIG_DIR: configDir, NO_COLOR: '1', ...o.env };
  const http = new HttpMock();
  made.push(http);
  const io = { stdout, stderr, stdin } as unknown as Streams;
  const ctx = new Ctx(o.globals ?? {}, SETTINGS, { io, signal: new AbortController().signal, env, prompter: o.prompter ?? noPrompts, transport: http.transport });
  return { ctx, http, stdout, stderr, configDir };
}
