// vx mgmt health watch | check against the emulator, whose health events appear, change and
// resolve as the tests advance its clock (emu.advanceClock / POST /_emulator/clock).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { driveClock, RecordingClock } from '../helpers/fake-clock.js';
import { runInProc, type InProcResult } from '../helpers/inproc.js';
import { baseEnv, BIN } from '../helpers/vx.js';

const e2e = useEmulator();
const ndjson = (s: string) => s.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const mgmtLog = () => e2e.emu.log.filter((e) => e.family === 'mgmt');
const dir = mkdtempSync(join(tmpdir(), 'vx-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MIN = 60_000;
const SEEDED = ['9VS6-0W8', 'KTL1-8PQ', 'PM3R-2XT', 'HA7C-11L', 'SQ2L-6KD', 'SEC1-9ZA', 'BIL4-3PC', 'PM8N-5QW', 'EM5J-7VB'];
/** the seeded events as watch reports them: in the order they happened (last update time) */
const SEEDED_BY_TIME = ['PM8N-5QW', 'BIL4-3PC', 'SQ2L-6KD', 'HA7C-11L', 'SEC1-9ZA', 'PM3R-2XT', '9VS6-0W8', 'KTL1-8PQ', 'EM5J-7VB'];

describe('vx mgmt health check', () => {
  it('one summary line and the monitoring-plugin exit code', async () => {
    const crit = await e2e.run(['mgmt', 'health', 'check']);
    expect(crit.code).toBe(2);
    expect(crit.stderr).toBe('');
    expect(crit.stdout).toBe(
      'HEALTH CRITICAL - 3 critical (ServiceIssue: 9VS6-0W8 KTL1-8PQ; SecurityAdvisory: SEC1-9ZA), 3 warning (PlannedMaintenance: PM3R-2XT; HealthAdvisory: HA7C-11L; EmergingIssues: EM5J-7VB) | critical=3 warning=3 active=7\n',
    );
    const warn = await e2e.run(['mgmt', 'health', 'check', '--critical', 'RCA', '--warn', 'Billing']);
    expect([warn.code, warn.stdout]).toEqual([1, 'HEALTH WARNING - 1 warning (Billing: BIL4-3PC) | critical=0 warning=1 active=7\n']);
    const ok = await e2e.run(['mgmt', 'health', 'check', '--critical', 'RCA', '--warn', 'RCA', '--subscription', e2e.env.VX_SUBSCRIPTION]);
    expect([ok.code, ok.stdout]).toEqual([0, 'HEALTH OK - no active events of the watched types (7 active in all) | critical=0 warning=0 active=7\n']);
    const json = await e2e.run(['mgmt', 'health', 'check', '--resource', `/subscriptions/${e2e.env.VX_SUBSCRIPTION}/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-web-01`, '-o', 'json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'CRITICAL', code: 2, critical: ['RH02-VM1'], warning: [], active: 1 });
  });

  it('3 UNKNOWN when the service cannot be asked (or the question is wrong), with the reason on the line', async () => {
    const auth = await e2e.run(['mgmt', 'health', 'check'], { env: { VX_MGMT_TOKEN: 'wrong' } });
    expect(auth.code).toBe(3);
    expect(auth.stdout).toMatch(/^HEALTH UNKNOWN - HTTP 401 Unauthorized AuthenticationFailed: The access token is invalid\. \(request id [0-9a-f-]+\)\n$/);
    expect(auth.stdout).not.toContain('wrong');
    e2e.emu.setFaults('mgmt/503:1');
    const down = await e2e.run(['mgmt', 'health', 'check', '--retries', '1']);
    expect(down.code).toBe(3);
    expect(down.stdout).toMatch(/^HEALTH UNKNOWN - HTTP 503 Service Unavailable/);
    e2e.emu.setFaults('');
    const bad = await e2e.run(['mgmt', 'health', 'check', '--critical', 'Outage']);
    expect([bad.code, bad.stdout]).toEqual([3, 'HEALTH UNKNOWN - invalid --critical "Outage": the event types are ServiceIssue, PlannedMaintenance, HealthAdvisory, RCA, EmergingIssues, SecurityAdvisory, Billing; nothing was sent\n']);
  });

  it('-o json is JSON for UNKNOWN too: a monitor that parses stdout gets {status, code, summary, error}', async () => {
    const r = await e2e.run(['mgmt', 'health', 'check', '-o', 'json'], { env: { VX_MGMT_TOKEN: 'wrong' } });
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({ status: 'UNKNOWN', code: 3, summary: `HEALTH UNKNOWN - ${out.error}`, critical: [], warning: [], active: null, error: expect.stringMatching(/^HTTP 401 Unauthorized AuthenticationFailed: /) });
    const q = await e2e.run(['mgmt', 'health', 'check', '-o', 'json', '--warn', 'Nope', '--query', 'status']);
    expect([q.code, q.stdout]).toEqual([3, '"UNKNOWN"\n']);
  });
});

describe('vx mgmt health watch --once with a state file', () => {
  it('reports every event once, then only news as the clock moves: new, updated, resolved; --exec gets each as JSON with its id and type', async () => {
    const state = join(dir, 'state.json');
    const log = join(dir, 'exec.log');
    const exec = `cat > "${dir}/$VX_EVENT_ID.json"; echo "$VX_EVENT_CHANGE $VX_EVENT_ID $VX_EVENT_TYPE $VX_EVENT_STATUS" >> "${log}"`;
    const watch = () => e2e.run(['mgmt', 'health', 'watch', '--once', '--state', state, '--exec', exec]);
    const first = await watch();
    expect(first.code).toBe(0);
    expect(ndjson(first.stdout).map((l) => `${l.change} ${l.trackingId}`)).toEqual(SEEDED_BY_TIME.map((id) => `new ${id}`));
    expect(JSON.parse(readFileSync(state, 'utf8')).events['9VS6-0W8']).toEqual({ status: 'Active', eventLevel: 'Error', lastUpdateTime: expect.any(String) });
    const again = await watch();
    expect([again.code, again.stdout]).toEqual([0, '']);

    e2e.emu.advanceClock(15 * MIN);
    const appeared = await watch();
    const [news] = ndjson(appeared.stdout);
    expect(ndjson(appeared.stdout)).toHaveLength(1);
    expect(news).toMatchObject({ change: 'new', trackingId: 'FLT1-A01', event: { name: 'FLT1-A01', properties: { status: 'Active', eventLevel: 'Error', eventType: 'ServiceIssue' } } });
    expect(JSON.parse(readFileSync(join(dir, 'FLT1-A01.json'), 'utf8'))).toEqual(news.event);

    e2e.emu.advanceClock(15 * MIN);
    const changed = await watch();
    expect(ndjson(changed.stdout).map((l) => `${l.change} ${l.trackingId}`)).toEqual(['updated FLT1-A01', 'new FLT2-B02']);
    expect(ndjson(changed.stdout)[0].previous).toMatchObject({ status: 'Active', eventLevel: 'Error' });

    e2e.emu.advanceClock(20 * MIN);
    const resolved = await watch();
    expect(ndjson(resolved.stdout).map((l) => `${l.change} ${l.trackingId} ${l.event.properties.status}`)).toEqual(['resolved FLT1-A01 Resolved']);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines.slice(-4)).toEqual(['new FLT1-A01 ServiceIssue Active', 'updated FLT1-A01 ServiceIssue Active', 'new FLT2-B02 PlannedMaintenance Active', 'resolved FLT1-A01 ServiceIssue Resolved']);
    expect(lines).toHaveLength(SEEDED.length + 4);
  });

  it('the control endpoint moves the clock for sandbox users', async () => {
    const before = (await (await fetch(`${e2e.emu.url}/_emulator/clock`)).json()) as { offsetSeconds: number };
    expect(before.offsetSeconds).toBe(0);
    const r = await fetch(`${e2e.emu.url}/_emulator/clock`, { method: 'POST', body: JSON.stringify({ advanceSeconds: 3600 }) });
    expect(((await r.json()) as { offsetSeconds: number }).offsetSeconds).toBe(3600);
    const bad = await fetch(`${e2e.emu.url}/_emulator/clock`, { method: 'POST', body: '{"advanceSeconds":-5}' });
    expect(bad.status).toBe(400);
    const w = await e2e.run(['mgmt', 'health', 'watch', '--once', '--type', 'HealthAdvisory,PlannedMaintenance']);
    expect(ndjson(w.stdout).map((l) => l.trackingId)).toEqual(['PM8N-5QW', 'HA7C-11L', 'PM3R-2XT', 'FLT2-B02', 'FLT3-C03']);
  });

  it('a corrupt state file is named and left as it is; nothing is sent (exit 2)', async () => {
    const state = join(dir, 'corrupt.json');
    writeFileSync(state, '{"version":1,"events":{');
    const r = await e2e.run(['mgmt', 'health', 'watch', '--once', '--state', state]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^vx: the state file ${state.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is corrupt \\(not JSON: .*\\); it was left as it is: repair it, or move it away to start over`));
    expect(readFileSync(state, 'utf8')).toBe('{"version":1,"events":{');
    expect(mgmtLog()).toEqual([]);
  });

  it('a state file that cannot be written (no such directory) is refused before the poll: no news printed, no --exec run, nothing sent (exit 2)', async () => {
    const state = join(dir, 'no-such-dir', 'state.json');
    const marker = join(dir, 'exec-ran');
    const r = await e2e.run(['mgmt', 'health', 'watch', '--once', '--state', state, '--exec', `cat > /dev/null; touch ${marker}`]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`vx: cannot write the state file ${state}: the directory ${join(dir, 'no-such-dir')} does not exist; nothing was sent\n`);
    expect(existsSync(marker)).toBe(false);
    expect(mgmtLog()).toEqual([]);
  });

  it('--resource watches one resource; an --exec that fails is a warning and --once then exits 1', async () => {
    const vm = `/subscriptions/${e2e.env.VX_SUBSCRIPTION}/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-web-01`;
    const r = await e2e.run(['mgmt', 'health', 'watch', '--once', '--resource', vm, '--exec', 'cat > /dev/null; exit 3']);
    expect(r.code).toBe(1);
    expect(ndjson(r.stdout).map((l) => l.trackingId)).toEqual(['RH01-VM1', 'RH02-VM1']);
    expect(r.stderr).toBe(
      'warning: --exec for RH01-VM1 (new) exited 3\nwarning: --exec for RH02-VM1 (new) exited 3\nvx: --exec failed for 2 events (the events are remembered as reported)\n',
    );
  });

  it('a terminal gets one readable line per event', async () => {
    e2e.emu.advanceClock(10 * MIN);
    const r = await e2e.run(['mgmt', 'health', 'watch', '--once', '--type', 'ServiceIssue', '-o', 'table']);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\dZ {2}NEW {9}FLT1-A01 {2}ServiceIssue Error Active {2}Virtual Machines - West US 2 - Allocation failures$/);
  });
});

/** Starts a watch that keeps polling; resolves with its exit once `stop` (called when its output has `ready`) has sent a signal. */
function longWatch(args: string[], steps: { when: RegExp; then: (child: import('node:child_process').ChildProcess, output: string) => void }[]) {
  const child = spawn(process.execPath, [BIN, 'mgmt', 'health', 'watch', ...args], { env: { ...baseEnv(e2e.configDir), ...e2e.env } });
  let out = '';
  let err = '';
  let step = 0;
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const check = () => {
    while (step < steps.length && steps[step].when.test(out + err)) steps[step++].then(child, out + err);
  };
  child.stdout.on('data', (c) => {
    out += c;
    check();
  });
  child.stderr.on('data', (c) => {
    err += c;
    check();
  });
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    }),
  );
}

/**
 * `watch` in-process on a fake clock that records each wait (with the number of GETs the emulator
 * had answered when it began), stopped as a Ctrl-C would once its output matches `stopAt`.
 */
async function watchUntil(args: string[], stopAt: RegExp): Promise<{ r: InProcResult; waits: { ms: number; at: number }[] }> {
  const clock = new RecordingClock(() => mgmtLog().filter((e) => e.method === 'GET').length);
  const stop = new AbortController();
  let out = () => '';
  const running = runInProc(['mgmt', 'health', 'watch', ...args], { env: e2e.env, network: true, clock, signal: stop.signal, setup: (t) => (out = () => t.stdout.text) });
  const r = await driveClock(clock, running, {
    until: () => {
      if (!stopAt.test(out())) return true;
      stop.abort();
      return false;
    },
  });
  return { r, waits: clock.waits };
}

describe('vx mgmt health watch, polling', () => {
  it('prints news at each poll; SIGTERM stops it with the state saved (143)', async () => {
    const state = join(dir, 'term.json');
    const r = await longWatch(['--interval', '1', '--state', state], [
      { when: /EM5J-7VB/, then: () => e2e.emu.advanceClock(15 * MIN) },
      { when: /FLT1-A01/, then: (c) => c.kill('SIGTERM') },
    ]);
    expect(r.code).toBe(143);
    expect(r.err).toBe(`vx: interrupted; the state is saved in ${state} (SIGTERM)\n`);
    expect(ndjson(r.out).map((l) => l.trackingId)).toEqual([...SEEDED_BY_TIME, 'FLT1-A01']);
    expect(Object.keys(JSON.parse(readFileSync(state, 'utf8')).events)).toContain('FLT1-A01');
  }, 35_000);

  it('Ctrl-C stops it with the state saved (130)', async () => {
    const state = join(dir, 'int.json');
    const r = await longWatch(['--interval', '1', '--state', state], [{ when: /EM5J-7VB/, then: (c) => c.kill('SIGINT') }]);
    expect(r.code).toBe(130);
    expect(r.err).toBe(`vx: interrupted; the state is saved in ${state}\n`);
    expect(existsSync(state)).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(state, 'utf8')).events).sort()).toEqual([...SEEDED].sort());
  }, 35_000);

  // the back-off on a fake clock, in-process: what is checked is the waits, not the stop
  it('backs off while the service answers 503 and carries on when it is back', async () => {
    e2e.emu.setFaults('mgmt/GET/503:2x');
    const { r, waits } = await watchUntil(['--interval', '1', '--retries', '0'], /EM5J-7VB/);
    expect(r.code).toBe(130);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^warning: HTTP 503 Service Unavailable .*; trying again in 2 s$/),
      expect.stringMatching(/^warning: HTTP 503 Service Unavailable .*; trying again in 4 s$/),
    ]);
    // 2 s after the first refused GET, 4 s after the second
    expect(waits.slice(0, 2)).toEqual([
      { ms: 2000, at: 1 },
      { ms: 4000, at: 2 },
    ]);
    expect(ndjson(r.stdout)).toHaveLength(SEEDED.length);
  });

  it("a 429 whose Retry-After is longer than the back-off waits the service's Retry-After", async () => {
    e2e.emu.setFaults('mgmt/GET/429:1x,retry-after:5');
    const { r, waits } = await watchUntil(['--interval', '1', '--retries', '0'], /EM5J-7VB/);
    expect(r.code).toBe(130);
    expect(r.stderr.split('\n')[0]).toMatch(/^warning: HTTP 429 Too Many Requests .*; trying again in 5 s \(the service's Retry-After\)$/);
    // the wait after the refused GET is the service's 5 s (the back-off alone is 2 s), and the next GET follows it
    expect(waits[0]).toEqual({ ms: 5000, at: 1 });
    expect(mgmtLog().filter((e) => e.method === 'GET').map((e) => e.status).slice(0, 2)).toEqual([429, 200]);
    expect(ndjson(r.stdout)).toHaveLength(SEEDED.length);
  });

  // a CI runner cancelling the job (SIGTERM) while --exec runs: the command got nothing and kept
  // running after vx (which gave up after 3 s, printing further events and saving no state)
  it('SIGTERM during --exec is passed on to the command; the state keeps what was fully reported (143)', async () => {
    const state = join(dir, 'exec-term.json');
    const exec = `trap 'echo "exec got TERM" >&2; exit 0' TERM; echo "exec $VX_EVENT_ID $$"; while :; do sleep 0.05; done`;
    const r = await longWatch(['--interval', '1', '--state', state, '--exec', exec], [
      {
        when: /exec PM8N-5QW \d+/,
        then: (c, output) => {
          c.kill('SIGTERM');
          // a command left running holds vx's stderr open: end it, so that a failure is quick
          const left = Number(/exec PM8N-5QW (\d+)/.exec(output)![1]);
          setTimeout(() => {
            try {
              process.kill(left, 'SIGKILL');
            } catch {
              /* ended, as it should */
            }
          }, 8000).unref();
        },
      },
    ]);
    const pid = Number(/exec PM8N-5QW (\d+)/.exec(r.err)![1]);
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (alive) process.kill(pid, 'SIGKILL');
    expect(alive).toBe(false);
    expect(r.code).toBe(143);
    // (the shell may say that its sleep was Terminated: the whole process group got the signal)
    expect(r.err.replace('\nTerminated\n', '\n')).toBe(
      `exec PM8N-5QW ${pid}\nexec got TERM\nwarning: --exec for PM8N-5QW (new) was stopped (SIGTERM); it runs again for this news at the next run\nvx: interrupted; the state is saved in ${state} (SIGTERM)\n`,
    );
    // one event printed; its command was cut short: it is news again next time
    expect(ndjson(r.out).map((l) => l.trackingId)).toEqual(['PM8N-5QW']);
    expect(JSON.parse(readFileSync(state, 'utf8')).events).toEqual({});
  }, 35_000);

  it('-o none prints nothing (the state is still kept); --query shapes each line; -o yaml, csv and tsv are refused', async () => {
    const state = join(dir, 'none.json');
    const none = await e2e.run(['mgmt', 'health', 'watch', '--once', '--state', state, '-o', 'none']);
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
    expect(Object.keys(JSON.parse(readFileSync(state, 'utf8')).events)).toEqual(SEEDED);
    const q = await e2e.run(['mgmt', 'health', 'watch', '--once', '-q', '[change, trackingId]']);
    expect(ndjson(q.stdout)).toEqual(SEEDED_BY_TIME.map((id) => ['new', id]));
    const text = await e2e.run(['mgmt', 'health', 'watch', '--once', '-q', 'trackingId', '-o', 'text']);
    expect(text.stdout).toBe(SEEDED_BY_TIME.map((id) => `${id}\n`).join(''));
    e2e.emu.log.length = 0;
    for (const f of ['yaml', 'csv', 'tsv']) {
      const r = await e2e.run(['mgmt', 'health', 'watch', '--once', '-o', f]);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `vx: health watch prints a line per news (-o table or text), a JSON object per line (-o ndjson), a JSON array per poll (-o json), or nothing (-o none); -o ${f} is not one of them; nothing was sent\n`]);
    }
    expect(mgmtLog()).toEqual([]);
    // VX_OUTPUT is a preference for every command: the JSON lines instead
    const env = await e2e.run(['mgmt', 'health', 'watch', '--once', '-q', 'trackingId'], { env: { VX_OUTPUT: 'tsv' } });
    expect([env.code, env.stderr]).toEqual([0, '']);
    expect(ndjson(env.stdout)).toEqual(SEEDED_BY_TIME);
  });

  it('bad input sends nothing', async () => {
    for (const args of [['--interval', '0'], ['--type', 'Outage'], ['--exec', ' '], ['--resource', '/subscriptions/x']]) {
      const r = await e2e.run(['mgmt', 'health', 'watch', '--once', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(mgmtLog()).toEqual([]);
  });
});
