// A translation memory whose write lock another process holds: the wait is said after a second
// (naming the process), given up after the lock timeout (exit 2 naming the path and the process),
// and ended at once by a stop of the run. The holder is another process (LMDB's writers take turns
// between processes); vx runs in this process, its waits measured by a fake clock.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openLmdbStore } from '../../src/api/translator/memory/store-lmdb.js';
import { InterruptedError } from '../../src/core/errors.js';
import { useEmulator } from '../helpers/emulator.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { runInProc } from '../helpers/inproc.js';

const e2e = useEmulator();
const dir = mkdtempSync(join(tmpdir(), 'vx-memory-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let holder: ChildProcess | undefined;
afterEach(() => void holder?.kill('SIGKILL'));

/** Another process that takes the memory's write lock and keeps it (until killed). */
async function holdLock(path: string): Promise<number> {
  holder = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { open } from 'lmdb';
      const db = open({ path: ${JSON.stringify(path)}, noSubdir: true });
      db.transactionSync(() => { db.putSync('held', 'x'); console.log('locked'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000); });`,
    ],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => holder!.stdout!.once('data', () => resolve()));
  return holder.pid!;
}

/** Settles `p` while moving the fake clock a second a turn (`go` false holds it). */
async function driven<T>(clock: FakeClock, p: Promise<T>, go: () => boolean = () => true): Promise<T> {
  let outcome: PromiseSettledResult<T> | undefined;
  void p.then(
    (value) => (outcome = { status: 'fulfilled', value }),
    (reason: unknown) => (outcome = { status: 'rejected', reason }),
  );
  while (!outcome) {
    if (go()) await clock.run(clock.now() + 1000);
    await new Promise((r) => setTimeout(r, 5));
  }
  if (outcome.status === 'rejected') throw outcome.reason;
  return outcome.value;
}

describe('a write while another process holds the lock', () => {
  it('says who holds it after 1 s, gives up after the timeout naming the process (15 s by default)', async () => {
    const path = join(dir, 'write.tm');
    const clock = new FakeClock();
    const notes: string[] = [];
    const store = await openLmdbStore(path, { clock, note: (m) => notes.push(m) });
    await store.write(['a', '1']);
    const pid = await holdLock(path);
    const err = await driven(clock, store.write(['b', '2'])).catch((e: Error) => e);
    expect(notes).toEqual([`translation memory ${path} is locked by process ${pid} (node): waiting for it, at most 15 s`]);
    expect(String(err)).toBe(`UsageError: translation memory ${path}: locked by process ${pid} (node) for more than 15 s`);
    expect(clock.now()).toBe(15_000);
    await store.close();
  });

  it('a stop of the run ends the wait at once', async () => {
    const path = join(dir, 'stop.tm');
    const clock = new FakeClock();
    const stop = new AbortController();
    const notes: string[] = [];
    const store = await openLmdbStore(path, { clock, signal: stop.signal, note: (m) => notes.push(m) });
    await store.write(['a', '1']);
    await holdLock(path);
    const err = await driven(
      clock,
      store.write(['b', '2']).catch((e: Error) => e),
      // the clock stops at the notice; then the run is stopped
      () => (notes.length ? (stop.abort(), false) : true),
    );
    expect(err).toBeInstanceOf(InterruptedError);
    expect(clock.now()).toBe(1000);
    await store.close();
  });
});

describe('vx translate --memory locked by another process', () => {
  it('at the start: said after 1 s, exit 2 after 15 s naming the path and the process, nothing sent', async () => {
    const path = join(dir, 'start.tm');
    expect((await e2e.run(['translate', '--to', 'de', '--memory', path, 'x'])).code).toBe(0);
    e2e.emu.reset();
    const pid = await holdLock(path);
    const clock = new FakeClock();
    const r = await driven(clock, runInProc(['translate', '--to', 'de', '--memory', path, 'Hello'], { env: e2e.env, network: true, clock }));
    expect(r.stderr).toBe(
      `warning: translation memory ${path} is locked by process ${pid} (node): waiting for it, at most 15 s\n` +
        `vx: translation memory ${path}: locked by process ${pid} (node) for more than 15 s\n`,
    );
    expect(r.code).toBe(2);
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
  });
});
