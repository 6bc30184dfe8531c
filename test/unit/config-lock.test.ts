// The config lock across processes: a lock whose holder lives is waited for, however old (a
// sign-in renewal holds it for a whole request); one whose holder is gone is taken over at once.
import { existsSync, mkdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Config, type SettingDef } from '../../src/core/config/index.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const DEFS: SettingDef[] = [{ key: 'svc.endpoint', env: 'T_ENDPOINT', description: 'service endpoint' }];
const dirs: string[] = [];
function fresh(): string {
  const d = tempDir();
  dirs.push(d);
  const cfg = join(d, 'cfg');
  mkdirSync(cfg, { mode: 0o700 });
  return cfg;
}
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

/** a lock file as another vx holds it, `ageMs` old */
function plantLock(dir: string, text: string, ageMs: number): string {
  const lock = join(dir, 'config.json.lock');
  writeFileSync(lock, text);
  const t = new Date(Date.now() - ageMs);
  utimesSync(lock, t, t);
  return lock;
}

describe('config lock', () => {
  it('a lock held by a live process is not taken over, however old: the writer waits for its release', async () => {
    const dir = fresh();
    // this test's own process stands for the other vx, a minute into a slow renewal
    const lock = plantLock(dir, `${process.pid}\n`, 60_000);
    let done = false;
    const write = new Config(DEFS, { dir, env: {} }).set('svc.endpoint', 'http://127.0.0.1:1', 'default').then(() => void (done = true));
    await new Promise((r) => setTimeout(r, 400));
    expect(done).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    unlinkSync(lock);
    await write;
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default['svc.endpoint']).toBe('http://127.0.0.1:1');
    expect(existsSync(lock)).toBe(false);
  });

  it('a fresh lock whose process is gone is taken over at once', async () => {
    const dir = fresh();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    plantLock(dir, `${gone}\n`, 0);
    const started = Date.now();
    await new Config(DEFS, { dir, env: {} }).set('svc.endpoint', 'http://127.0.0.1:2', 'default');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default['svc.endpoint']).toBe('http://127.0.0.1:2');
  });

  it('the lock names its holder while held', async () => {
    const dir = fresh();
    const config = new Config(DEFS, { dir, env: {} });
    let seen = '';
    await config.exclusive(async () => {
      seen = readFileSync(join(dir, 'config.json.lock'), 'utf8');
    });
    expect(seen).toBe(`${process.pid}\n`);
  });

  it('exclusive steps of the same process take turns: each reads what the one before it wrote (auth status --check renewing erp and lcs at once)', async () => {
    const dir = fresh();
    const config = new Config(DEFS, { dir, env: {} });
    await config.set('svc.endpoint', 'http://127.0.0.1:0', 'default');
    const log: string[] = [];
    // each step reads the value, waits (a token request), and writes the next one, as a renewal does
    const step = (name: string) =>
      config.exclusive(async () => {
        const before = config.profile('default')['svc.endpoint'];
        log.push(`${name} start ${before}`);
        await new Promise((r) => setTimeout(r, 30));
        await config.set('svc.endpoint', `${before}0`, 'default');
        log.push(`${name} end`);
        return before;
      });
    const got = await Promise.all([step('a'), step('b'), step('c')]);
    expect(got).toEqual(['http://127.0.0.1:0', 'http://127.0.0.1:00', 'http://127.0.0.1:000']);
    expect(log).toEqual(['a start http://127.0.0.1:0', 'a end', 'b start http://127.0.0.1:00', 'b end', 'c start http://127.0.0.1:000', 'c end']);
    // a step that fails does not keep the next from running
    const failing = config.exclusive(async () => {
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(await config.exclusive(async () => 'next')).toBe('next');
  });
});
