// A pager for long output at a terminal, as gh and git do: $VX_PAGER, else $PAGER, else `less -FRX`
// (quit when it fits, keep colours, leave the text on the screen). Off with --no-pager, with
// VX_PAGER set empty (or to `cat`), and always when stdout is not a terminal. Output that fits the
// screen is written directly (no pager started). If the pager cannot be started, the text is
// written directly: nothing is lost.
import { spawn } from 'node:child_process';

/** The pager command for this run, or undefined for none (pure; tested). */
export function pagerCommand(env: NodeJS.ProcessEnv, flag: boolean | undefined): string | undefined {
  if (flag === false) return undefined;
  const chosen = env.VX_PAGER !== undefined ? env.VX_PAGER : env.PAGER?.trim() ? env.PAGER : 'less -FRX';
  const cmd = chosen.trim();
  return cmd === '' || cmd === 'cat' ? undefined : cmd;
}

/** How many screen lines the text takes at this width (long lines wrap). */
export function screenLines(text: string, columns: number): number {
  let n = 0;
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const visible = line.replace(/\u001b\[[0-9;]*m/g, '').length;
    n += Math.max(1, Math.ceil(visible / Math.max(1, columns)));
  }
  return n;
}

/**
 * Shows `text` through the pager; resolves true when the pager ran, false when it could not be
 * started (the caller then writes the text itself). While it runs, `during` is told (Ctrl-C is the
 * pager's then, not vx's).
 */
export function showInPager(text: string, command: string, env: NodeJS.ProcessEnv, during?: (running: boolean) => void): Promise<boolean> {
  return new Promise((resolve) => {
    // less: quit when one screen holds it, colours as they are, no screen clearing (what gh sets)
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' } });
    during?.(true);
    let started = true;
    child.once('error', () => {
      started = false;
    });
    // the reader quitting early (q in less) is not an error
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
    child.once('close', (code) => {
      during?.(false);
      // 126/127: the shell could not run the command; nothing was shown
      resolve(started && code !== 126 && code !== 127);
    });
  });
}
