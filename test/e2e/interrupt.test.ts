// Ctrl-C (SIGINT): during a long translate with --out at several moments (before the first answer,
// with batches already delivered, while waiting out a Retry-After): exit 130, no file under that
// name and no temporary file; at the confirmations of `mgmt quota set`, `mgmt version-sets
// delete`, `erp refresh` and `profile delete`, and inside the quota wizard, on a real pseudo-
// terminal (util-linux `script`): exit 130 and nothing that changes anything was sent; during the
// polls after a quota change was accepted: exit 130 and the way to follow the request.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv, BIN, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const SCOPE = ['--provider', 'Vendor.Compute', '--location', 'eastus'];
const VS = ['--resource-group', 'web', '--service', 'contoso-api'];
const writes = () => e2e.emu.log.filter((l) => l.method !== 'GET' && l.method !== 'HEAD').length;
const waitFor = async (cond: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs vx on a pseudo-terminal (`script -qfec`); `react` sees everything the terminal shows so far
 * and may type into it (`\u0003` is Ctrl-C: the terminal sends SIGINT to vx).
 */
function onTerminal(args: string[], react: (screen: string, type: (keys: string) => void) => void, env: Record<string, string> = {}): Promise<{ code: number | null; screen: string }> {
  const cmd = [process.execPath, BIN, ...args].map(sh).join(' ');
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env: { ...baseEnv(e2e.configDir), ...e2e.env, TERM: 'xterm', COLUMNS: '120', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  child.stdout.on('data', (c) => {
    screen += c;
    react(screen, (k) => child.stdin.write(k));
  });
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

/** Types Ctrl-C once `question` shows on the terminal. */
function ctrlCAt(question: RegExp): { react: (screen: string, type: (k: string) => void) => void; asked: () => boolean } {
  let asked = false;
  return {
    asked: () => asked,
    react(screen, type) {
      if (!asked && question.test(screen)) {
        asked = true;
        setTimeout(() => type('\u0003'), 150);
      }
    },
  };
}

describe('Ctrl-C during a long translate with --out', () => {
  const dir = tempDir('vx-interrupt-');
  const lines = Array.from({ length: 6000 }, (_, i) => `Line ${i} of a long file`);
  const input = join(dir, 'long.txt');
  writeFileSync(input, `${lines.join('\n')}\n`);
  const leftovers = (name: string) => readdirSync(dir).filter((f) => f.includes(name));

  async function interrupt(name: string, when: () => boolean, faults: string): Promise<void> {
    e2e.emu.setFaults(faults);
    const out = join(dir, `${name}.txt`);
    let child: ChildProcess | undefined;
    const run = e2e.run(['translate', '--to', 'de', '--from', 'en', '--concurrency', '1', '-f', input, '--out', out], { onSpawn: (c) => (child = c), timeoutMs: 30_000 });
    await waitFor(when);
    child!.kill('SIGINT');
    const r = await run;
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('vx: interrupted\n');
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    expect(leftovers(name)).toEqual([]);
  }

  it('before the first answer', async () => {
    await interrupt('before', () => e2e.emu.count({ family: 'translator' }) >= 1, 'latency:3000');
  });

  it('with batches already translated (they are not written under the name)', async () => {
    await interrupt('midway', () => e2e.emu.log.filter((l) => l.family === 'translator' && l.status === 200).length >= 2, 'latency:150');
  });

  it('while waiting out a Retry-After', async () => {
    await interrupt('waiting', () => e2e.emu.log.some((l) => l.family === 'translator' && l.status === 429), '429:1,retry-after:30');
    expect(e2e.emu.count({ family: 'translator' })).toBe(1);
  });

  it('an earlier complete file under the name is left as it was', async () => {
    const out = join(dir, 'kept.txt');
    writeFileSync(out, 'the previous translation\n');
    e2e.emu.setFaults('latency:3000');
    let child: ChildProcess | undefined;
    const run = e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input, '--out', out], { onSpawn: (c) => (child = c) });
    await waitFor(() => e2e.emu.count({ family: 'translator' }) >= 1);
    child!.kill('SIGINT');
    expect((await run).code).toBe(130);
    expect(readFileSync(out, 'utf8')).toBe('the previous translation\n');
    expect(leftovers('kept')).toEqual(['kept.txt']);
  });
});

describe('Ctrl-C at a question on a terminal: nothing sent', () => {
  it('mgmt quota set: after the read, at "Change the limit ...?": exit 130, no PATCH, the limit unchanged', async () => {
    const c = ctrlCAt(/Change the limit of cores/);
    const r = await onTerminal(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150'], c.react);
    expect(c.asked()).toBe(true);
    expect(r.code).toBe(130);
    expect(r.screen).not.toMatch(/\n\s+at /);
    // the quota and the list of its location's latest requests (one running would be followed instead)
    expect(e2e.emu.count({ family: 'mgmt', method: 'GET' })).toBe(3);
    expect(writes()).toBe(0);
    expect(e2e.emu.state.mgmt.writes).toEqual([]);
  });

  it('mgmt version-sets delete: exit 130, no DELETE, the set still there', async () => {
    const c = ctrlCAt(/Delete version set orders/);
    const r = await onTerminal(['mgmt', 'version-sets', 'delete', 'orders', ...VS], c.react);
    expect(c.asked()).toBe(true);
    expect(r.code).toBe(130);
    expect(writes()).toBe(0);
    // the read that finds the set and names it in the question (Delete version set orders (Orders) ...), nothing else
    expect(e2e.emu.count()).toBe(1);
    expect(e2e.emu.count({ method: 'DELETE' })).toBe(0);
  });

  it('erp refresh: exit 130, nothing sent to the refresh API', async () => {
    const c = ctrlCAt(/Overwrite the database of environment uat-1/);
    const r = await onTerminal(['erp', 'refresh', '--project', '9', '--source', 'prod-1', '--target', 'uat-1'], c.react);
    expect(c.asked()).toBe(true);
    expect(r.code).toBe(130);
    expect(e2e.emu.count()).toBe(0);
  });

  it('profile delete: exit 130, the profile kept', async () => {
    const cfg = join(e2e.configDir, 'config.json');
    const before = JSON.stringify({ activeProfile: 'default', profiles: { default: { output: 'json' }, spare: { output: 'yaml' } } });
    writeFileSync(cfg, before, { mode: 0o600 });
    const c = ctrlCAt(/Delete profile "spare"/);
    const r = await onTerminal(['profile', 'delete', 'spare'], c.react);
    expect(c.asked()).toBe(true);
    expect(r.code).toBe(130);
    expect(readFileSync(cfg, 'utf8')).toBe(before);
  });

  it('mgmt quota wizard: Ctrl-C at the first question sends nothing that changes anything', async () => {
    const c = ctrlCAt(/\?/);
    const r = await onTerminal(['mgmt', 'quota', 'wizard'], c.react);
    expect(c.asked()).toBe(true);
    expect(r.code).toBe(130);
    expect(writes()).toBe(0);
  });
});

describe('Ctrl-C after a change was accepted', () => {
  it('while polling the quota request: exit 130 and how to follow it (the change is not undone or repeated)', async () => {
    e2e.emu.state.mgmt.retryAfter = 30;
    let child: ChildProcess | undefined;
    const run = e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes'], { onSpawn: (c) => (child = c) });
    await waitFor(() => e2e.emu.count({ family: 'mgmt', method: 'PATCH' }) === 1 && e2e.emu.log.at(-1)!.status === 201);
    await new Promise((r) => setTimeout(r, 150));
    child!.kill('SIGINT');
    const r = await run;
    expect(r.code).toBe(130);
    const id = /quota request ([0-9a-f-]{36}) was submitted; follow it with: vx mgmt quota requests get \1 --provider Vendor\.Compute --location eastus --subscription [0-9a-f-]{36} --wait\n/.exec(r.stderr)?.[1];
    expect(id, r.stderr).toBeDefined();
    expect(r.stderr.endsWith('vx: interrupted\n')).toBe(true);
    expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
    // and the hint works
    const follow = await e2e.run(['mgmt', 'quota', 'requests', 'get', id!, ...SCOPE]);
    expect(follow.code).toBe(0);
    expect(JSON.parse(follow.stdout).name).toMatch(new RegExp(`(^|/)${id}$`));
  });
});

describe('Ctrl-C while a non-idempotent request is out', () => {
  it('erp create: exit 130, the outcome is unknown and how to check; sent once, never repeated', async () => {
    e2e.emu.setFaults('latency:2000');
    let child: ChildProcess | undefined;
    const run = e2e.run(['erp', 'currencies', 'create', '--set', 'code=INT'], { onSpawn: (c) => (child = c) });
    await waitFor(() => e2e.emu.count({ family: 'erp', method: 'POST' }) === 1);
    child!.kill('SIGINT');
    const r = await run;
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(
      `vx: interrupted while waiting for the answer to create currency; the outcome is unknown (it may or may not have taken effect); check with: vx erp currencies list --filter "code eq 'INT'"\n`,
    );
    expect(r.stdout).toBe('');
    expect(e2e.emu.count({ family: 'erp', method: 'POST' })).toBe(1);
  });

  it('a read interrupted the same way just says interrupted', async () => {
    e2e.emu.setFaults('latency:2000');
    let child: ChildProcess | undefined;
    const run = e2e.run(['erp', 'currencies', 'list'], { onSpawn: (c) => (child = c) });
    await waitFor(() => e2e.emu.count({ family: 'erp' }) === 1);
    child!.kill('SIGINT');
    const r = await run;
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('vx: interrupted\n');
  });
});

describe('--out names something that is not a regular file', () => {
  // (never a real device in a test: a regression would replace it. A FIFO and a link behave the same way.)
  it('a named pipe is written into, not replaced by a file', async () => {
    const dir = tempDir('vx-rel-out-');
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      createReadStream(fifo).on('data', (c) => chunks.push(c as Buffer)).on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Good morning', '-o', 'text', '--out', fifo]);
    expect(r.code, r.stderr).toBe(0);
    expect(await reader).toMatch(/^\S.*\n$/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });

  it('a symbolic link keeps pointing at its file, which gets the new content', async () => {
    const dir = tempDir('vx-rel-out-');
    const real = join(dir, 'real.txt');
    writeFileSync(real, 'old\n');
    const link = join(dir, 'link.txt');
    symlinkSync(real, link);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Good morning', '--out', link]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).not.toBe('old\n');
    expect(readFileSync(link, 'utf8')).toBe(readFileSync(real, 'utf8'));
    expect(readdirSync(dir).sort()).toEqual(['link.txt', 'real.txt']);
  });
});

describe('standard output that cannot be written', () => {
  it('a full disk is an error (exit 1, the output is incomplete), never a silent exit 0', async () => {
    const child = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" erp currencies list -o json > /dev/full`], { env: { ...baseEnv(e2e.configDir), ...e2e.env } });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(err).toBe('vx: cannot write to standard output: ENOSPC: no space left on device, write; the output is incomplete\n');
    expect(code).toBe(1);
  });
});

describe('erp related pdfDocument --out', () => {
  it('into a named pipe: written into, not replaced; into a regular file: complete, no temporary file left', async () => {
    const ORDER = '0000100e-0000-4000-8000-0000000e0001';
    const dir = tempDir('vx-rel-pdf-');
    const fifo = join(dir, 'pipe.pdf');
    execFileSync('mkfifo', [fifo]);
    const reader = new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      createReadStream(fifo).on('data', (c) => chunks.push(c as Buffer)).on('end', () => resolve(Buffer.concat(chunks)));
    });
    const r = await e2e.run(['erp', 'sales-orders', 'related', ORDER, 'pdfDocument', '--out', fifo]);
    expect(r.code, r.stderr).toBe(0);
    const piped = await reader;
    expect(piped.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    const file = join(dir, 'order.pdf');
    const f = await e2e.run(['erp', 'sales-orders', 'related', ORDER, 'pdfDocument', '--out', file]);
    expect(f.code, f.stderr).toBe(0);
    expect(readFileSync(file).equals(piped)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['order.pdf', 'pipe.pdf']);
  });
});

describe('SIGTERM and SIGHUP stop a run like Ctrl-C (exit 143 / 129)', () => {
  const dir = tempDir('vx-rel-sigterm-');
  const input = join(dir, 'long.txt');
  writeFileSync(input, `${Array.from({ length: 6000 }, (_, i) => `Line ${i} of a long file`).join('\n')}\n`);
  for (const [sig, code] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    it(`${sig} during translate --out: exit ${code}, no file, no temporary file`, async () => {
      e2e.emu.setFaults('latency:150');
      const out = join(dir, `${sig}.txt`);
      let child: ChildProcess | undefined;
      const run = e2e.run(['translate', '--to', 'de', '--from', 'en', '--concurrency', '1', '-f', input, '--out', out], { onSpawn: (c) => (child = c), timeoutMs: 30_000 });
      await waitFor(() => e2e.emu.log.filter((l) => l.family === 'translator' && l.status === 200).length >= 2);
      child!.kill(sig);
      const r = await run;
      expect(r.stderr).toBe(`vx: interrupted (${sig})\n`);
      expect(r.code).toBe(code);
      expect(readdirSync(dir).filter((f) => f.includes(sig))).toEqual([]);
    });

    it(`${sig} while polling the quota request: exit ${code} and how to follow it`, async () => {
      e2e.emu.state.mgmt.retryAfter = 30;
      let child: ChildProcess | undefined;
      const run = e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes'], { onSpawn: (c) => (child = c) });
      await waitFor(() => e2e.emu.count({ family: 'mgmt', method: 'PATCH' }) === 1 && e2e.emu.log.at(-1)!.status === 201);
      await new Promise((r) => setTimeout(r, 150));
      child!.kill(sig);
      const r = await run;
      expect(r.code).toBe(code);
      expect(r.stderr).toMatch(/quota request ([0-9a-f-]{36}) was submitted; follow it with: vx mgmt quota requests get \1 --provider Vendor\.Compute --location eastus --subscription [0-9a-f-]{36} --wait\nvx: interrupted \(SIG(TERM|HUP)\)\n$/);
      expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
    });
  }
});
