// Runs the built vx on a real pseudo-terminal (util-linux `script`), so that stdout and stderr are
// terminals as a person's shell gives them: what is drawn there (progress lines, a pager) is
// captured as the bytes written, with stdout and stderr merged as on a screen.
import { spawn, spawnSync } from 'node:child_process';
import { BIN, baseEnv, removeDir, tempDir } from './vx.js';

export interface PtyResult {
  code: number | null;
  /** everything written to the terminal (stdout and stderr together), \r\n as the terminal shows it */
  output: string;
}

/** whether `script` can give a pseudo-terminal here (tests that need one are skipped otherwise) */
export const hasPty = (() => {
  try {
    const r = spawnSync('script', ['-qec', 'test -t 1 && test -t 2', '/dev/null'], { encoding: 'utf8', timeout: 5000 });
    return r.status === 0;
  } catch {
    return false;
  }
})();

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function runOnPty(args: string[], opts: { env?: Record<string, string | undefined>; rows?: number; cols?: number; configDir?: string; timeoutMs?: number } = {}): Promise<PtyResult> {
  const configDir = opts.configDir ?? tempDir();
  const env: Record<string, string> = { ...baseEnv(configDir), TERM: 'xterm' };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const command = `stty rows ${opts.rows ?? 24} cols ${opts.cols ?? 80} 2>/dev/null; exec ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!opts.configDir) removeDir(configDir);
      resolve({ code, output: Buffer.concat(out).toString('utf8') });
    });
    child.stdin.end();
  });
}
