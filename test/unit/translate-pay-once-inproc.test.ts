// vx translate pays each distinct text once at any length of input, in-process: the texts that
// leave the run's memory budget (VX_TRANSLATE_BUDGET, a test hook, makes it small) go to the run's
// spill in the temporary directory (TMPDIR), which is gone when the run ends; a spill directory
// that cannot be used is exit 2 before anything is sent, one that fills mid-run exit 1 saying what
// was written, never a run that pays twice.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const full = { on: false };
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  // a spill that fills: the first of its index's runs cannot be made
  const openSync: typeof fs.openSync = (path, ...rest) => {
    if (full.on && /vx-spill-[^/]*\/run-/.test(String(path))) throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' });
    return fs.openSync(path, ...rest);
  };
  return { ...fs, openSync, default: { ...fs, openSync } };
});

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'vx-pay-once-'));
});
afterEach(() => {
  full.on = false;
  rmSync(tmp, { recursive: true, force: true });
});

const e2e = useEmulator();
/** the texts of every translate request the emulator answered */
const sent = () => e2e.emu.state.translator.calls.flatMap((c) => c.texts);

/** 4,000 distinct lines, then all of them again (further apart than any window), then the first 500 once more */
const lines = (() => {
  const first = Array.from({ length: 4_000 }, (_, i) => `Line number ${i} of a long report`);
  return [...first, ...first, ...first.slice(0, 500)];
})();

const run = (env: Record<string, string>, args: string[] = []) => e2e.run(['translate', '--to', 'de', ...args], { env: { TMPDIR: tmp, VX_TRANSLATE_BUDGET: '100000', ...env }, input: `${lines.join('\n')}\n` });

describe('a long input, most of its texts spilled', () => {
  it('sends each distinct text once, answers every line in order, and leaves nothing in TMPDIR', async () => {
    const r = await run({});
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(sent().length).toBe(4_000);
    expect(new Set(sent()).size).toBe(4_000);
    // the same output as a run that holds every text in memory
    const whole = await run({ VX_TRANSLATE_BUDGET: String(1e9) });
    expect(whole.code).toBe(0);
    expect(r.stdout).toBe(whole.stdout);
    expect(r.stdout.split('\n').length).toBe(lines.length + 1);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('--estimate counts the distinct texts exactly', async () => {
    const r = await run({}, ['--estimate', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ items: 8_500, distinct: 4_000, duplicates: 4_500, toSend: 4_000 });
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('a spill directory that cannot be used', () => {
  it('is exit 2 naming it before anything is sent', async () => {
    const missing = join(tmp, 'missing');
    const r = await run({ TMPDIR: missing });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `vx: the spill directory ${missing} is no such directory: a long input that does not fit the run's memory is deduplicated there; set TMPDIR to another directory (nothing was sent)\n`,
    ]);
    expect(sent()).toEqual([]);
  });

  it('a file instead of a directory, likewise', async () => {
    const file = join(tmp, 'file');
    writeFileSync(file, '');
    const r = await run({ TMPDIR: file });
    expect([r.code, r.stderr]).toEqual([2, `vx: the spill directory ${file} is not a directory: a long input that does not fit the run's memory is deduplicated there; set TMPDIR to another directory (nothing was sent)\n`]);
  });

  it('that fills in the middle of the run is exit 1 naming it: the lines written so far are said, none is paid twice', async () => {
    full.on = true;
    const r = await run({});
    full.on = false;
    const whole = await run({ VX_TRANSLATE_BUDGET: String(1e9) });
    expect(r.code).toBe(1);
    const m = /^vx: the spill directory (.*) is full \(no space left on the device\): the run cannot go on without paying again for texts it sent\nnot translated: lines ([\d,]+) onwards; the output holds lines 1-([\d,]+)\n$/.exec(r.stderr);
    expect(m?.[1]).toBe(tmp);
    const first = Number(m![2].replace(/,/g, ''));
    expect(Number(m![3].replace(/,/g, ''))).toBe(first - 1);
    expect(r.stdout).toBe(
      whole.stdout
        .split('\n')
        .slice(0, first - 1)
        .map((l) => `${l}\n`)
        .join(''),
    );
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('a short input needs no spill', () => {
  it('arguments and a small file make no directory (a TMPDIR that cannot be used is no matter)', async () => {
    const small = join(tmp, 'small.txt');
    writeFileSync(small, 'a\nb\na\n');
    mkdirSync(join(tmp, 'sub'));
    const env = { TMPDIR: join(tmp, 'missing') };
    const a = await e2e.run(['translate', '--to', 'de', 'x', 'y', 'x'], { env });
    const f = await e2e.run(['translate', '--to', 'de', '--file', small], { env });
    expect([a.code, a.stderr, f.code, f.stderr]).toEqual([0, '', 0, '']);
    expect(sent()).toEqual(['x', 'y', 'a', 'b']);
  });
});
