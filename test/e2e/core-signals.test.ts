// Ctrl-C while waiting to retry and at a confirmation on a real terminal (a pty from `script`),
// and a reader that goes away (EPIPE): exit 130 or 0, one line, nothing sent that was not confirmed.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv, BIN } from '../helpers/vx.js';

const e2e = useEmulator();
const company = () => e2e.emu.state.erp.defaultCompany as string;
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs vx under a pseudo-terminal; `onOutput` sees everything the terminal shows. */
function inPty(args: string[], onOutput: (all: string, write: (s: string) => void) => void): Promise<{ code: number | null; out: string }> {
  const cmd = [process.execPath, BIN, ...args].map(q).join(' ');
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env: { ...baseEnv(e2e.configDir), ...e2e.env, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  child.stdout.on('data', (c) => {
    out += c;
    onOutput(out, (s) => child.stdin.write(s));
  });
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('Ctrl-C', () => {
  it('while waiting out a Retry-After: exit 130 at once, no more requests', async () => {
    e2e.emu.setFaults('503:1,retry-after:30');
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/api/v2.0/companies', '--service', 'erp'], { env: { ...baseEnv(e2e.configDir), ...e2e.env } });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    const poll = setInterval(() => {
      if (e2e.emu.log.length) {
        clearInterval(poll);
        setTimeout(() => child.kill('SIGINT'), 200);
      }
    }, 20);
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).toBe(130);
    expect(err).toBe('vx: interrupted\n');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(e2e.emu.count()).toBe(1);
  });

  /** deletes the first currency on a terminal, typing `keys` once the question shows */
  async function deleteAnswering(keys: string) {
    const id = e2e.emu.state.erp.data[company()].currencies[0].id as string;
    let asked = false;
    const r = await inPty(['erp', 'currencies', 'delete', id], (all, write) => {
      if (!asked && /Delete/i.test(all)) {
        asked = true;
        setTimeout(() => write(keys), 100);
      }
    });
    expect(asked).toBe(true);
    expect(r.out).not.toMatch(/\n\s+at /);
    expect(e2e.emu.count({ method: 'DELETE' })).toBe(0);
    expect(e2e.emu.state.erp.data[company()].currencies.some((c) => c.id === id)).toBe(true);
    return r;
  }

  it('at a confirmation on a terminal: exit 130, nothing sent', async () => {
    expect((await deleteAnswering('\u0003')).code).toBe(130);
  });

  it('answering no at a confirmation: exit 2, nothing sent', async () => {
    const r = await deleteAnswering('n\r');
    expect(r.code).toBe(2);
    expect(r.out).toContain('cancelled; nothing was sent');
  });
});

describe('a reader that goes away', () => {
  it('`vx ... | head -c 100` ends quietly with exit 0', async () => {
    const child = spawn(process.execPath, [BIN, 'api', 'GET', `/api/v2.0/companies(${company()})/salesOrders`, '--service', 'erp', '--paginate', '-o', 'ndjson'], {
      env: { ...baseEnv(e2e.configDir), ...e2e.env },
    });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(err).toBe('');
    expect(code).toBe(0);
  });
});
