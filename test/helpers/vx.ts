// Spawns the built bin/vx.js with an isolated VX_CONFIG_DIR and a clean environment.
import { createServer } from 'node:net';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'vx.js');

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  configDir?: string;
  timeoutMs?: number;
  cwd?: string;
  /** run it as a process (bin/vx.js) even where the e2e runner would run it in-process */
  spawn?: boolean;
  /** called with the child right after spawn (to send signals) */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void;
  /** in-process runs only: the run's clock, a fake one moved while the run works (waits, pacing, retries take no real time) */
  clock?: import('./fake-clock.js').FakeClock;
}

export function tempDir(prefix = 'vx-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The environment every spawned vx gets: nothing from the developer's shell but PATH and HOME. */
export function baseEnv(configDir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    VX_CONFIG_DIR: configDir,
    VX_BACKOFF_BASE_MS: '5',
    // the quota poll floor (1 s; it grows by half per read) would slow every test that follows a request
    VX_POLL_FLOOR_MS: '5',
    NO_COLOR: '1',
    // `VX_HTTP_CLIENT=undici npm test` runs the whole suite over the undici transport
    ...(process.env.VX_HTTP_CLIENT ? { VX_HTTP_CLIENT: process.env.VX_HTTP_CLIENT } : {}),
  };
}

export function runVx(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  if (opts.clock) throw new Error('runVx: a fake clock needs an in-process run (runVxInProc)');
  const configDir = opts.configDir ?? tempDir();
  const env: Record<string, string> = { ...baseEnv(configDir) };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: opts.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 25_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (!opts.configDir) removeDir(configDir);
      resolvePromise({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined);
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
    opts.onSpawn?.(child);
  });
}

/** stderr without --verbose's line per answered request (`GET <url> -> 200 in 3 ms (request id …)`), told as each answer arrives among the others */
export function withoutRequestLines(stderr: string): string {
  return stderr.replace(/^(GET|POST|PUT|PATCH|DELETE|HEAD) \S+ -> \d+ in \d+ ms.*\n/gm, '');
}

/** A loopback port nothing listens on (bound, then closed): a server out of reach. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
