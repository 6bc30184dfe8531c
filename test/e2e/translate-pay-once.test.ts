// Paying once where the process is the subject (spawned, against the emulator in-process): the
// run's spill directory is removed on Ctrl-C; concurrent processes sharing one memory send each
// text once (a text one has claimed is waited for by the others); a process that stopped holding
// texts has them taken over once its lease ran out, one that died at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv, BIN, ROOT } from '../helpers/vx.js';

const e2e = useEmulator();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vx-pay-once-e2e-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const waitFor = async (cond: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const sent = () => e2e.emu.state.translator.calls.flatMap((c) => c.texts);

/** vx translate as a process of its own, standard input a pipe the test writes */
function vx(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'translate', '--to', 'de', ...args], {
    env: { ...baseEnv(join(dir, 'cfg')), ...e2e.env, TMPDIR: dir, ...env },
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  // (decoded as a stream: a character split between two chunks stays whole)
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  child.stdin.on('error', () => undefined);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout: out, stderr: err })));
  return { child, done };
}

/** whether process `child` has `path` open */
function holds(child: ChildProcess, path: string): boolean {
  try {
    return readdirSync(`/proc/${child.pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${child.pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

const spills = () => readdirSync(dir).filter((f) => f.startsWith('vx-spill-'));

describe('the spill directory on Ctrl-C', () => {
  for (const [name, signals] of [
    ['one Ctrl-C: the run unwinds and removes it', 1],
    ['a second Ctrl-C: the process leaves at once, and still removes it', 2],
  ] as const) {
    it(name, async () => {
      e2e.emu.setFaults('latency:20000');
      // a small budget: the run makes its spill before it sends
      const run = vx([], { VX_TRANSLATE_BUDGET: '1000' });
      run.child.stdin.write('one\ntwo\nthree\n');
      await waitFor(() => spills().length === 1 && e2e.emu.count({ family: 'translator' }) >= 1);
      for (let i = 0; i < signals; i++) run.child.kill('SIGINT');
      const r = await run.done;
      expect(r.code).toBe(130);
      expect(spills()).toEqual([]);
    });
  }
});

describe('concurrent runs sharing one memory', () => {
  it('send each text once: a text one run sends is waited for by the others, every output complete', async () => {
    const memory = join(dir, 'shared.tm');
    const shared = Array.from({ length: 1_500 }, (_, i) => `Shared catalogue string ${i}`);
    const inputs = [0, 1, 2].map((k) => {
      const own = Array.from({ length: 200 }, (_, i) => `Run ${k} string ${i}`);
      // each in an order of its own
      const mine = k === 1 ? [...shared].reverse() : k === 2 ? shared.map((_, i) => shared[(i * 7) % shared.length]) : shared;
      return [...mine, ...own];
    });
    e2e.emu.setFaults('latency:300');
    const runs = inputs.map(() => vx(['--memory', memory]));
    // every process has the memory open (and waits for its input): the input reaches all at once
    await waitFor(() => runs.every((r) => holds(r.child, memory)));
    runs.forEach((r, k) => r.child.stdin.end(`${inputs[k].join('\n')}\n`));
    const results = await Promise.all(runs.map((r) => r.done));
    expect(results.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
      [0, ''],
    ]);
    expect(sent().length).toBe(1_500 + 600);
    expect(new Set(sent()).size).toBe(1_500 + 600);
    // the same text has the same translation in every output
    const translated = new Map<string, string>();
    results.forEach((r, k) => {
      const out = r.stdout.split('\n').slice(0, -1);
      expect(out.length).toBe(inputs[k].length);
      out.forEach((t, i) => {
        const before = translated.get(inputs[k][i]);
        if (before !== undefined) expect(t).toBe(before);
        translated.set(inputs[k][i], t);
      });
    });
  });

  it('a run that stopped holding texts: another takes them over once its lease ran out', async () => {
    const memory = join(dir, 'lease.tm');
    const lease = { VX_TRANSLATE_MEMORY_LEASE_MS: '1500' };
    e2e.emu.setFaults('latency:60000');
    const first = vx(['--memory', memory], lease);
    first.child.stdin.end('alpha\nbeta\n');
    await waitFor(() => e2e.emu.count({ family: 'translator' }) >= 1);
    // it still runs (its claims are not a dead process's), but renews nothing any more
    first.child.kill('SIGSTOP');
    e2e.emu.setFaults('');
    const t0 = Date.now();
    try {
      const second = await e2e.run(['translate', '--to', 'de', '--memory', memory], { env: { ...lease, TMPDIR: dir }, input: 'alpha\nbeta\nalpha\n' });
      expect([second.code, second.stderr]).toEqual([0, '']);
      expect(second.stdout.split('\n').length).toBe(4);
      // its claims held until their lease ran out (renewed every 500 ms: at least 1 s after it stopped);
      // then this run sent the texts (the emulator logs a call once it answers it)
      expect(Date.now() - t0).toBeGreaterThanOrEqual(800);
      expect(sent()).toEqual(['alpha', 'beta']);
    } finally {
      first.child.kill('SIGKILL');
      await first.done;
    }
  });

  it('a run killed with kill -9: another on the same machine takes its texts over at once', async () => {
    const memory = join(dir, 'killed.tm');
    e2e.emu.setFaults('latency:60000');
    const first = vx(['--memory', memory]);
    first.child.stdin.end('alpha\nbeta\n');
    await waitFor(() => e2e.emu.count({ family: 'translator' }) >= 1);
    first.child.kill('SIGKILL');
    await first.done;
    e2e.emu.setFaults('');
    const t0 = Date.now();
    const second = await e2e.run(['translate', '--to', 'de', '--memory', memory], { env: { TMPDIR: dir }, input: 'alpha\nbeta\n' });
    expect([second.code, second.stderr]).toEqual([0, '']);
    // well within the 30 s lease
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(sent()).toEqual(['alpha', 'beta']);
  });
});

describe('concurrent locale-file runs sharing one memory', () => {
  it('send each unit once: a unit one run sends is waited for by the other', async () => {
    const memory = join(dir, 'files.tm');
    const shared = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`shared${i}`, `Shared label ${i}`]));
    for (const app of ['one', 'two']) {
      const own = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${app}${i}`, `Label ${i} of ${app}`]));
      mkdirSync(join(dir, app));
      writeFileSync(join(dir, app, 'en.json'), JSON.stringify({ ...shared, ...own }, null, 2));
    }
    e2e.emu.setFaults('latency:300');
    const runs = ['one', 'two'].map((app) => {
      const child = spawn(process.execPath, [BIN, 'translate', 'file', join(dir, app, 'en.json'), '--to', 'de', '--memory', memory, '-o', 'none'], {
        env: { ...baseEnv(join(dir, 'cfg')), ...e2e.env, TMPDIR: dir },
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      return new Promise<[number | null, string]>((resolve) => child.on('close', (code) => resolve([code, err])));
    });
    expect(await Promise.all(runs)).toEqual([
      [0, ''],
      [0, ''],
    ]);
    expect(sent().length).toBe(300 + 100);
    expect(new Set(sent()).size).toBe(300 + 100);
    const one = JSON.parse(readFileSync(join(dir, 'one', 'de.json'), 'utf8')) as Record<string, string>;
    const two = JSON.parse(readFileSync(join(dir, 'two', 'de.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(one).length).toBe(350);
    for (let i = 0; i < 300; i++) expect(two[`shared${i}`]).toBe(one[`shared${i}`]);
  });
});

describe('a memory file written by a run, then read by another process', () => {
  it('answers every text of the second run from the memory (no claim left behind)', async () => {
    const memory = join(dir, 'again.tm');
    const input = join(dir, 'in.txt');
    writeFileSync(input, 'one\ntwo\none\n');
    const a = await e2e.run(['translate', '--to', 'de', '--memory', memory, '-f', input], { spawn: true, env: { TMPDIR: dir } });
    const b = await e2e.run(['translate', '--to', 'de', '--memory', memory, '-f', input], { spawn: true, env: { TMPDIR: dir } });
    expect([a.code, b.code, b.stdout]).toEqual([0, 0, a.stdout]);
    expect(sent()).toEqual(['one', 'two']);
  });
});
