// What vx makes of a private file stays private (a target, --out, a new translation memory get
// their source's permissions), and a translation memory the user may read but not write is read.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv, BIN, removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const dir = tempDir('vx-perm-');
// (another user reaches the files below)
chmodSync(dir, 0o755);
afterAll(() => removeDir(dir));
const mode = (f: string) => statSync(f).mode & 0o777;
const calls = () => e2e.emu.state.translator.calls.length;

describe('new files get the permissions of their source', () => {
  it('translate file: a 0600 source makes 0600 targets and a 0600 lock file', async () => {
    const d = join(dir, 'file');
    mkdirSync(d);
    writeFileSync(join(d, 'app.json'), '{"greeting": "Hello"}\n', { mode: 0o600 });
    const r = await e2e.run(['translate', 'file', 'app.json', '--to', 'de,fr', '--memory', 'app.tm'], { cwd: d });
    expect(r.code).toBe(0);
    // the targets, the lock file, the memory and its lock: every file the run made
    const made = readdirSync(d).filter((f) => f !== 'app.json');
    expect(made).toEqual(expect.arrayContaining(['app.de.json', 'app.fr.json', 'app.tm', 'app.tm-lock']));
    expect(made.length).toBeGreaterThan(4);
    for (const f of made) expect(mode(join(d, f)), f).toBe(0o600);
    // a source others may read: the targets as the umask makes them (0644 under 022)
    writeFileSync(join(d, 'open.json'), '{"a": "Hi"}\n', { mode: 0o644 });
    chmodSync(join(d, 'open.json'), 0o644);
    await e2e.run(['translate', 'file', 'open.json', '--to', 'de'], { cwd: d });
    expect(mode(join(d, 'open.de.json')) & 0o044).toBe(mode(join(d, 'open.json')) & 0o044 & ~process.umask());
  });

  it('translate -f: --out and a new memory follow the --file; an existing target keeps its own', async () => {
    const d = join(dir, 'plain');
    mkdirSync(d);
    writeFileSync(join(d, 'notes.txt'), 'one\ntwo\n', { mode: 0o600 });
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', 'notes.txt', '--out', 'notes.de.txt', '--memory', 'notes.tm'], { cwd: d });
    expect(r.code).toBe(0);
    expect(mode(join(d, 'notes.de.txt'))).toBe(0o600);
    expect(mode(join(d, 'notes.tm'))).toBe(0o600);
    writeFileSync(join(d, 'kept.txt'), '', { mode: 0o640 });
    chmodSync(join(d, 'kept.txt'), 0o640);
    await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', 'notes.txt', '--out', 'kept.txt'], { cwd: d });
    expect(mode(join(d, 'kept.txt'))).toBe(0o640);
  });
});

describe('a translation memory that can be read but not written', () => {
  it('--memory-read-only: the hits are used, nothing is stored, nothing said', async () => {
    const d = join(dir, 'ro-flag');
    mkdirSync(d);
    const tm = join(d, 'm.tm');
    expect((await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', tm, 'one'])).code).toBe(0);
    const before = readFileSync(tm);
    const sent = calls();
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', tm, '--memory-read-only', 'one', 'two']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe('[de] öñé\n[de] ţŵö\n');
    // only "two" was sent, and not stored
    expect(calls()).toBe(sent + 1);
    expect(readFileSync(tm).equals(before)).toBe(true);
    const again = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', tm, '--estimate', 'two']);
    expect(JSON.parse(again.stdout).memoryHits).toBe(0);
    const none = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory-read-only', 'one']);
    expect([none.code, none.stderr]).toEqual([2, 'vx: --memory-read-only needs a translation memory: give --memory <path> or set translate.memory; nothing was sent\n']);
  });

  // a memory the user could not write (another user's, a shared team memory) could not be read either
  it('another user\'s memory (no write permission): read, said once, nothing stored', async () => {
    const d = join(dir, 'ro-perm');
    mkdirSync(d, { mode: 0o755 });
    chmodSync(d, 0o755);
    const tm = join(d, 'team.tm');
    expect((await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', tm, 'one'])).code).toBe(0);
    chmodSync(tm, 0o644);
    chmodSync(`${tm}-lock`, 0o644);
    const root = process.getuid!() === 0;
    // as root the memory belongs to root and vx runs as nobody; otherwise the memory is made read-only
    if (!root) chmodSync(tm, 0o444);
    const config = tempDir('vx-perm-config-');
    chmodSync(config, 0o777);
    const before = readFileSync(tm);
    const sent = calls();
    const cmd = root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath] : [process.execPath];
    const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(cmd[0], [...cmd.slice(1), BIN, 'translate', '--to', 'de', '--from', 'en', '--memory', tm, 'one', 'two'], { env: { ...baseEnv(config), ...e2e.env, HOME: config }, cwd: config });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('close', (code) => resolve({ code, out, err }));
    });
    removeDir(config);
    expect(r.err).toBe(`warning: translation memory ${tm}: you may not write it: it is only read in this run (what it holds is used, new answers are not stored; --memory-read-only says so without this note)\n`);
    expect(r.code).toBe(0);
    expect(r.out).toBe('[de] öñé\n[de] ţŵö\n');
    expect(calls()).toBe(sent + 1);
    expect(readFileSync(tm).equals(before)).toBe(true);
    if (root) chownSync(tm, 0, 0);
  });
});
