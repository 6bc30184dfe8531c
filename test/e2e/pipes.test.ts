// vx in shell pipelines: `--out -` is standard output (as `--file -` and `--data -` are standard
// input), never a file named "-".
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv, BIN, removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const cwd = tempDir('vx-pipes-');
afterAll(() => removeDir(cwd));

describe('--out - writes to standard output', () => {
  it('translate: the text on stdout, no file named "-"', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--out', '-'], { input: 'Hello\n', cwd });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe('[de] Ĥéļļö\n');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('erp export: the CSV on stdout, no file named "-"', async () => {
    const r = await e2e.run(['erp', 'currencies', 'export', '--select', 'code', '--top', '2', '-o', 'csv', '--out', '-'], { cwd });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')[0]).toBe('code');
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('erp related pdfDocument: the document bytes on stdout, no file named "-"', async () => {
    const file = join(cwd, 'order.pdf');
    const saved = await e2e.run(['erp', 'sales-orders', 'related', 'S-ORD101001', 'pdfDocument', '--out', file], { cwd });
    expect(saved.code).toBe(0);
    const r = await e2e.run(['erp', 'sales-orders', 'related', 'S-ORD101001', 'pdfDocument', '--out', '-'], { cwd });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(readFileSync(file, 'utf8'));
    expect(existsSync(join(cwd, '-'))).toBe(false);
    removeDir(file);
  });
});

// `vx translate -o json | jq length` after a failure that translated nothing printed 0: an empty
// array (or a CSV header) looked like a successful empty result
describe('a translate run that fails before any result writes nothing on stdout', () => {
  for (const format of ['json', 'csv']) {
    it(`-o ${format}: input that is not UTF-8 (exit 2, nothing sent)`, async () => {
      const r = await e2e.run(['translate', '--to', 'de', '-o', format], { input: Buffer.from('Hello\nHel\xfflo\n', 'latin1') });
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'vx: standard input is not valid UTF-8 (line 2)\n']);
      expect(e2e.emu.log).toEqual([]);
    });
  }

  it('-o json: a service failure on the first request (exit 7)', async () => {
    e2e.emu.setFaults('translator/503:1,retry-after:0');
    const r = await e2e.run(['translate', '--to', 'de', '-o', 'json', '--retries', '0'], { input: 'Hello\n' });
    expect([r.code, r.stdout]).toEqual([7, '']);
  });
});

// `vx --version | true` printed a stack trace (an unhandled EPIPE from the launcher's fast path),
// and help written to a full disk was lost with exit 0
describe('--version and --help when standard output fails', () => {
  const run = (args: string[], stdout: 'closed' | 'full') =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const out = stdout === 'full' ? openSync('/dev/full', 'w') : 'pipe';
      const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', out, 'pipe'] });
      // the reader goes away before vx writes (it starts in tens of milliseconds)
      if (stdout === 'closed') child.stdout!.destroy();
      let stderr = '';
      child.stderr!.on('data', (c) => (stderr += c));
      child.on('close', (code) => {
        if (typeof out === 'number') closeSync(out);
        resolve({ code, stderr });
      });
    });

  for (const args of [['--version'], ['--help'], ['erp', '--help']]) {
    it(`vx ${args.join(' ')}: a reader gone is a quiet exit 0; a full disk is exit 1 saying so`, async () => {
      expect(await run(args, 'closed')).toEqual({ code: 0, stderr: '' });
      expect(await run(args, 'full')).toEqual({ code: 1, stderr: 'vx: cannot write to standard output: ENOSPC: no space left on device, write; the output is incomplete\n' });
    });
  }
});

// `vx api DELETE` whose answer was lost (the connection dropped after the service did it) is
// repeated, as DELETE may be: the repeat's 404 was the whole story, exit 4 as if nothing had been there
describe('vx api: a repeated request whose first answer was lost', () => {
  it('a 404 to the repeated DELETE says the first attempt may have done it', async () => {
    const created = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=LST', '--set', 'displayName=Lost', '-q', 'id']);
    const id = JSON.parse(created.stdout) as string;
    e2e.emu.setFaults('erp/DELETE/reset-after:1x');
    const r = await e2e.run(['api', 'DELETE', `/api/v1.0/companies(${e2e.env.VX_ERP_COMPANY})/currencies(${id})`, '--service', 'erp', '-H', 'If-Match: *']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^vx: HTTP 404 Not Found BadRequest_NotFound: .*\n/);
    expect(r.stderr.split('\n')[1]).toBe('an earlier attempt of this DELETE got no answer and may have been carried out: check before repeating it');
    expect(e2e.emu.log.filter((l) => l.method === 'DELETE')).toHaveLength(2);
  });
});

// `vx ... --out /dev/stdout >> report.txt`: /dev/stdout names the report itself, which the
// temporary file was renamed over: what the report held before was lost
describe('--out naming an open descriptor (/dev/stdout, /dev/stderr, /dev/fd/N) writes through it', () => {
  const appended = (args: string[], fd: 1 | 2, input?: string) =>
    new Promise<string>((resolve) => {
      const file = join(cwd, `report-${fd}.txt`);
      writeFileSync(file, 'HEADER\n');
      const out = openSync(file, 'a');
      const stdio: ('pipe' | 'ignore' | number)[] = ['pipe', 'ignore', 'ignore'];
      stdio[fd] = out;
      const child = spawn(process.execPath, [BIN, ...args], { stdio, env: { ...baseEnv(e2e.configDir), ...e2e.env }, cwd });
      child.stdin!.end(input ?? '');
      child.on('close', () => {
        closeSync(out);
        resolve(readFileSync(file, 'utf8'));
        rmSync(file);
      });
    });

  it('translate --out /dev/stdout and /dev/fd/2 append to what the shell opened', async () => {
    expect(await appended(['translate', '--to', 'de', '--out', '/dev/stdout'], 1, 'Hello\n')).toBe('HEADER\n[de] Ĥéļļö\n');
    expect(await appended(['translate', '--to', 'de', '--out', '/dev/fd/2'], 2, 'Hello\n')).toBe('HEADER\n[de] Ĥéļļö\n');
  });

  it('erp export --out /dev/stdout appends; the report keeps its header', async () => {
    expect(await appended(['erp', 'currencies', 'export', '--select', 'code', '--top', '1', '-o', 'csv', '--out', '/dev/stdout'], 1)).toMatch(/^HEADER\ncode\n[A-Z]{3}\n$/);
  });
});

// `vx translate --to de < notes/` (a directory completed by the shell) translated nothing with
// exit 0; `--data -` said standard input was empty
describe('standard input redirected from a directory', () => {
  const fromDir = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const fd = openSync(cwd, 'r');
      const child = spawn(process.execPath, [BIN, ...args], { stdio: [fd, 'pipe', 'pipe'], env: { ...baseEnv(e2e.configDir), ...e2e.env } });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (c) => (stdout += c));
      child.stderr!.on('data', (c) => (stderr += c));
      child.on('close', (code) => {
        closeSync(fd);
        resolve({ code, stdout, stderr });
      });
    });

  it.each([
    [['translate', '--to', 'de']],
    [['api', 'POST', '/x', '--service', 'erp', '--data', '-']],
    [['erp', 'currencies', 'import', '--file', '-', '--format', 'csv', '--journal', join(cwd, 'j')]],
  ])('vx %j: exit 2, saying so, nothing sent', async (args) => {
    expect(await fromDir(args)).toEqual({ code: 2, stdout: '', stderr: 'vx: standard input is a directory (a redirection such as < dir/ ?); nothing was sent\n' });
    expect(e2e.emu.log).toEqual([]);
  });
});
