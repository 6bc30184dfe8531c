// vx mgmt health watch: what a run leaves for the next one (the state, saved after each news when
// --exec has side effects), the --exec command's limits (--exec-timeout, a stop of vx), and the
// shapes of its output (time order, lines fitted to the terminal, -o json per poll).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { driveClock, FakeClock } from '../helpers/fake-clock.js';
import { runInProc, type InProcResult } from '../helpers/inproc.js';
import { baseEnv, BIN } from '../helpers/vx.js';

const e2e = useEmulator();
const dir = mkdtempSync(join(tmpdir(), 'vx-watch-exec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ndjson = (s: string) => s.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const execLog = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);
const stateIds = (file: string) => Object.keys(JSON.parse(readFileSync(file, 'utf8')).events).sort();
const VM = () => `/subscriptions/${e2e.env.VX_SUBSCRIPTION}/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-web-01`;
/** the seeded events of the subscription, in the order they happened */
const SEEDED_BY_TIME = ['PM8N-5QW', 'BIL4-3PC', 'SQ2L-6KD', 'HA7C-11L', 'SEC1-9ZA', 'PM3R-2XT', '9VS6-0W8', 'KTL1-8PQ', 'EM5J-7VB'];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `vx <args>` in-process on the emulated network with a fake clock that the test moves as the run waits. */
async function withFakeClock(args: string[], o: { signal?: AbortSignal; until?: () => boolean } = {}): Promise<InProcResult> {
  const clock = new FakeClock();
  return driveClock(clock, runInProc(args, { env: e2e.env, network: true, clock, signal: o.signal }), o);
}

describe('health watch --exec: the state is saved after each news', () => {
  // `| head -1` closed the output after the first line: vx exited 0 with no state saved, and the
  // next run ran every --exec command again
  it('a reader that goes away (| head -1) stops the watch with the state of what was reported: the next run runs each command once', async () => {
    const state = join(dir, 'head.json');
    const log = join(dir, 'head.log');
    const exec = `cat > /dev/null; echo "$VX_EVENT_ID" >> ${log}`;
    const args = ['mgmt', 'health', 'watch', '--once', '--state', state, '--exec', exec].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const piped = await new Promise<{ code: number | null; err: string; out: string }>((resolve) => {
      const child = spawn('/bin/sh', ['-c', `${process.execPath} ${BIN} ${args} | head -1`], { env: { ...baseEnv(e2e.configDir), ...e2e.env } });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('close', (code) => resolve({ code, err, out }));
    });
    expect(piped.code).toBe(0);
    expect(ndjson(piped.out)).toHaveLength(1);
    const first = execLog(log);
    // the line read by head, and those written before vx saw its reader gone: each run once, remembered
    expect(first.length).toBeGreaterThanOrEqual(1);
    expect(first.length).toBeLessThan(SEEDED_BY_TIME.length);
    expect(first).toEqual(SEEDED_BY_TIME.slice(0, first.length));
    expect(stateIds(state)).toEqual([...first].sort());
    const rest = await e2e.run(['mgmt', 'health', 'watch', '--once', '--state', state, '--exec', exec]);
    expect(rest.code).toBe(0);
    expect(execLog(log)).toEqual(SEEDED_BY_TIME);
  }, 30_000);

  // SIGTERM while --exec hung: the command was left running, vx said nothing and saved no state
  it('SIGTERM while an --exec command hangs: the whole command is stopped (SIGKILL 2 s later), said on stderr, the state saved (143)', async () => {
    const state = join(dir, 'term.json');
    const pids = join(dir, 'term.pids');
    // the shell's child ignores SIGTERM and holds vx's pipe: only its process group's SIGKILL ends it
    const exec = `cat > /dev/null; if [ "$VX_EVENT_ID" = HA7C-11L ]; then (trap '' TERM; echo $$ > ${pids}; exec sleep 30); fi`;
    const started = Date.now();
    const r = await new Promise<{ code: number | null; err: string; ms: number }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'mgmt', 'health', 'watch', '--interval', '60', '--state', state, '--exec', exec], { env: { ...baseEnv(e2e.configDir), ...e2e.env } });
      let err = '';
      child.stderr.on('data', (c) => (err += c));
      const poll = setInterval(() => {
        if (!existsSync(pids)) return;
        clearInterval(poll);
        child.kill('SIGTERM');
      }, 20);
      child.on('exit', (code) => resolve({ code, err, ms: Date.now() - started }));
    });
    const sleeper = Number(readFileSync(pids, 'utf8'));
    const left = alive(sleeper);
    if (left) process.kill(sleeper, 'SIGKILL');
    expect(left).toBe(false);
    expect(r.code).toBe(143);
    expect(r.err).toBe(`warning: --exec for HA7C-11L (new) did not end within 2 s of SIGTERM: killed; it runs again for this news at the next run\nvx: interrupted; the state is saved in ${state} (SIGTERM)\n`);
    // the three events before it are remembered; it is news again
    expect(stateIds(state)).toEqual(['BIL4-3PC', 'PM8N-5QW', 'SQ2L-6KD']);
  }, 30_000);

  it('a stop in-process: the command of the news under way is stopped, the news before it kept', async () => {
    const state = join(dir, 'abort.json');
    const marker = join(dir, 'abort.started');
    const exec = `cat > /dev/null; if [ "$VX_EVENT_ID" = RH02-VM1 ]; then touch ${marker}; trap '' TERM; sleep 30; fi`;
    const stop = new AbortController();
    const r = await withFakeClock(['mgmt', 'health', 'watch', '--resource', VM(), '--interval', '60', '--state', state, '--exec', exec], {
      signal: stop.signal,
      // the clock is held until the command under way started, then vx is stopped
      until: () => {
        if (!existsSync(marker)) return false;
        stop.abort();
        return true;
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(`warning: --exec for RH02-VM1 (new) did not end within 2 s of SIGTERM: killed; it runs again for this news at the next run\nvx: interrupted; the state is saved in ${state}\n`);
    expect(stateIds(state)).toEqual(['RH01-VM1']);
  }, 30_000);
});

describe('health watch --exec-timeout', () => {
  it('a command running past its time is stopped: by default after 60 s (SIGTERM, SIGKILL 2 s later); the news is remembered, the run exits 1', async () => {
    const pids = join(dir, 'timeout.pids');
    const state = join(dir, 'timeout.json');
    const r = await withFakeClock(['mgmt', 'health', 'watch', '--once', '--resource', VM(), '--state', state, '--exec', `cat > /dev/null; echo $$ >> ${pids}; trap '' TERM; sleep 30`]);
    expect(r.stderr).toBe(
      'warning: --exec for RH01-VM1 (new) ran longer than 60 s (--exec-timeout): killed (it did not end within 2 s of SIGTERM)\n' +
        'warning: --exec for RH02-VM1 (new) ran longer than 60 s (--exec-timeout): killed (it did not end within 2 s of SIGTERM)\n' +
        'vx: --exec failed for 2 events (the events are remembered as reported)\n',
    );
    expect(r.code).toBe(1);
    expect(stateIds(state)).toEqual(['RH01-VM1', 'RH02-VM1']);
    for (const pid of execLog(pids).map(Number)) expect(alive(pid)).toBe(false);
  }, 30_000);

  it('--exec-timeout 0.2: a command that ends on SIGTERM is stopped so', async () => {
    const r = await e2e.run(['mgmt', 'health', 'watch', '--once', '--resource', VM(), '--type', 'ServiceIssue', '--exec-timeout', '0.2', '--exec', 'cat > /dev/null; sleep 30']);
    expect(r.stderr).toBe(
      'warning: --exec for RH01-VM1 (new) ran longer than 0.2 s (--exec-timeout): stopped (SIGTERM)\n' +
        'warning: --exec for RH02-VM1 (new) ran longer than 0.2 s (--exec-timeout): stopped (SIGTERM)\n' +
        'vx: --exec failed for 2 events (the events are remembered as reported)\n',
    );
    expect(r.code).toBe(1);
  }, 30_000);

  it('bad values, or without --exec: exit 2, nothing sent', async () => {
    for (const [args, message] of [
      [['--exec-timeout', '0', '--exec', 'true'], 'vx: invalid --exec-timeout "0": expected seconds, more than 0 and at most 86400; nothing was sent\n'],
      [['--exec-timeout', 'soon', '--exec', 'true'], 'vx: invalid --exec-timeout "soon": expected seconds, more than 0 and at most 86400; nothing was sent\n'],
      [['--exec-timeout', '5'], 'vx: --exec-timeout applies to --exec commands; give --exec or leave it out; nothing was sent\n'],
    ] as const) {
      const r = await e2e.run(['mgmt', 'health', 'watch', '--once', ...args]);
      expect([r.code, r.stderr]).toEqual([2, message]);
    }
    expect(e2e.emu.count({ family: 'mgmt' })).toBe(0);
  });
});

describe('health watch: state and output', () => {
  it('an empty state file (mktemp) is a first run', async () => {
    const state = join(dir, 'empty.json');
    writeFileSync(state, '');
    const r = await e2e.run(['mgmt', 'health', 'watch', '--once', '--state', state]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(ndjson(r.stdout).map((l) => l.trackingId)).toEqual(SEEDED_BY_TIME);
    expect(stateIds(state)).toEqual([...SEEDED_BY_TIME].sort());
  });

  it('news come in the order they happened (last update time), not in the order of the list', async () => {
    const r = await e2e.run(['mgmt', 'health', 'watch', '--once']);
    const times = ndjson(r.stdout).map((l) => Date.parse(l.event.properties.lastUpdateTime));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const list = JSON.parse((await e2e.run(['mgmt', 'health', 'events', 'list'])).stdout).map((e: { name: string }) => e.name);
    expect(list).not.toEqual(SEEDED_BY_TIME);
  });

  it('-o json is one JSON array per poll ([] when nothing is new); --query applies to it; ndjson is a line per news', async () => {
    const state = join(dir, 'json.json');
    const r = await e2e.run(['mgmt', 'health', 'watch', '--once', '--state', state, '-o', 'json']);
    const doc = JSON.parse(r.stdout);
    expect(doc.map((x: { trackingId: string }) => x.trackingId)).toEqual(SEEDED_BY_TIME);
    expect(doc[0]).toEqual({ change: 'new', trackingId: 'PM8N-5QW', event: expect.objectContaining({ name: 'PM8N-5QW' }) });
    const none = await e2e.run(['mgmt', 'health', 'watch', '--once', '--state', state, '-o', 'json']);
    expect([none.code, none.stdout]).toEqual([0, '[]\n']);
    const q = await e2e.run(['mgmt', 'health', 'watch', '--once', '-o', 'json', '-q', 'length(@)']);
    expect(q.stdout).toBe('9\n');
    const lines = await e2e.run(['mgmt', 'health', 'watch', '--once', '-o', 'ndjson']);
    expect(ndjson(lines.stdout).map((l) => l.trackingId)).toEqual(SEEDED_BY_TIME);
  });

  it('at a terminal width each line is fitted, wrapped at spaces (never inside a word)', async () => {
    for (const columns of [100, 72, 40]) {
      const r = await e2e.run(['mgmt', 'health', 'watch', '--once', '-o', 'table'], { env: { COLUMNS: String(columns) } });
      const lines = r.stdout.trimEnd().split('\n');
      for (const l of lines) expect(l.length, `${columns}: ${l}`).toBeLessThanOrEqual(columns);
      // every word of every title is whole on one line
      const words = new Set(lines.flatMap((l) => l.trim().split(/\s+/)));
      for (const w of 'Planned maintenance: Virtual Network - West US 2 Emerging issue: Functions cold starts in East US'.split(' ')) expect(words, `${columns}: ${w}`).toContain(w);
      expect(lines.filter((l) => /^\d{4}-/.test(l))).toHaveLength(9);
    }
    const wide = await e2e.run(['mgmt', 'health', 'watch', '--once', '-o', 'table'], { env: { COLUMNS: '100' } });
    expect(wide.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\dZ {2}NEW {9}PM8N-5QW {2}PlannedMaintenance Warning Resolved {2}Planned maintenance:$/),
      // the title goes on under itself
      `${' '.repeat(78)}Virtual Network - West`,
    ]);
  });
});
