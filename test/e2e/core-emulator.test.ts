// `vx emulator start`: --port 0 prints where it listens and the env; --state persists; SIGINT stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runVxInProc } from '../helpers/inproc.js';
import { baseEnv, BIN, removeDir, runVx, tempDir } from '../helpers/vx.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
/** commands run by `emulator exec` that must not outlive a failed test */
const orphans: number[] = [];
afterEach(() => {
  for (const pid of orphans.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone, as it should be */
    }
  }
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) removeDir(d);
});

/** Starts `vx emulator start ...` and resolves once the export lines are out. */
function start(args: string[], configDir: string) {
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', ...args], { env: baseEnv(configDir), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const ready = new Promise<Record<string, string>>((resolve, reject) => {
    child.stdout.on('data', (c) => {
      stdout += c;
      if (stdout.includes('VX_AUTH_URL=')) {
        const env: Record<string, string> = {};
        for (const m of stdout.matchAll(/^export (\w+)=(.*)$/gm)) env[m[1]] = m[2].replace(/^'(.*)'$/, '$1');
        resolve(env);
      }
    });
    child.on('exit', () => reject(new Error(`emulator exited: ${stderr}`)));
  });
  return { child, ready, exited, out: () => ({ stdout, stderr }) };
}

describe('vx emulator start', () => {
  it('--port 0 picks a port, prints it and the environment; vx works against it; SIGINT stops it (130)', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const emu = start(['--port', '0'], dir);
    const env = await emu.ready;
    expect(emu.out().stderr).toMatch(/^vx emulator listening on http:\/\/127\.0\.0\.1:(\d+) /);
    const port = /:(\d+) /.exec(emu.out().stderr)![1];
    expect(port).not.toBe('4010');
    expect(Object.keys(env)).toEqual([
      'VX_TRANSLATOR_ENDPOINT', 'VX_TRANSLATOR_KEY', 'VX_ERP_PREFIX', 'VX_ERP_TOKEN', 'VX_ERP_COMPANY', 'VX_LCS_ENDPOINT',
      'VX_LCS_TOKEN', 'VX_MGMT_ENDPOINT', 'VX_MGMT_TOKEN', 'VX_SUBSCRIPTION', 'VX_AUTH_URL',
    ]);
    expect(env.VX_ERP_PREFIX).toBe(`http://127.0.0.1:${port}/erp`);
    const r = await runVxInProc(['erp', 'companies', 'list', '-q', 'length(@)'], { env });
    expect(r.stdout).toBe('2\n');
    emu.child.kill('SIGINT');
    expect(await emu.exited).toBe(130);
    expect(emu.out().stderr).toContain('vx emulator stopped');
  });

  it('--state persists changes across restarts; --save-profile stores a usable profile', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const state = join(dir, 'emu.json');
    const cfg = join(dir, 'cfg');
    const a = start(['--port', '0', '--state', state, '--save-profile', 'emu'], cfg);
    const env = await a.ready;
    expect(a.out().stderr).toContain('saved profile "emu"');
    const created = await runVxInProc(['-p', 'emu', 'erp', 'currencies', 'create', '--set', 'code=XPS', '--set', 'displayName=Persisted'], { configDir: cfg });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    a.child.kill('SIGINT');
    await a.exited;
    expect(existsSync(state)).toBe(true);
    expect(readFileSync(state, 'utf8')).toContain('"XPS"');

    const b = start(['--port', '0', '--state', state], join(dir, 'cfg2'));
    const env2 = await b.ready;
    expect(env2.VX_ERP_PREFIX).not.toBe(env.VX_ERP_PREFIX);
    const list = await runVxInProc(['erp', 'currencies', 'list', '--filter', "code eq 'XPS'", '-q', '[].displayName'], { env: env2 });
    expect(JSON.parse(list.stdout)).toEqual(['Persisted']);
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
  });

  it('refuses a --port that is not a plain number (an empty "$PORT" picked a random port), and an address that is no address', async () => {
    for (const port of ['', ' ', '0x1f90', '1e3', '-0', '4010.0']) {
      const r = await runVxInProc(['emulator', 'exec', '--port', port, '--', 'node', '-e', 'console.log("ran")']);
      expect([r.code, r.stdout, r.stderr], port).toEqual([2, '', `vx: invalid --port "${port}": expected 0-65535\n`]);
    }
    const r = await runVxInProc(['emulator', 'exec', '--host', '127.999.0.1', '--', 'node', '-e', 'console.log("ran")']);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'vx: --host 127.999.0.1 is not a loopback address; the emulator serves loopback only (127.0.0.1, ::1, localhost)\n']);
    for (const host of ['LOCALHOST', '[::1]']) {
      const ok = await runVxInProc(['emulator', 'exec', '--host', host, '--', 'node', '-e', 'console.log(new URL(process.env.VX_ERP_PREFIX).hostname)']);
      expect([ok.code, ok.stderr], host).toEqual([0, '']);
    }
  });

  it('refuses a --save-profile name that no other command takes (or an empty one), before starting and saving anything', async () => {
    const cfg = join(tempDir(), 'cfg');
    for (const name of ['a b', '', '-x', '../x']) {
      const r = await runVxInProc(['emulator', 'start', '--port', '0', '--save-profile', name], { configDir: cfg, timeoutMs: 8000 });
      expect([r.code, r.stdout, r.stderr], name).toEqual([2, '', `vx: invalid --save-profile "${name}": a profile name is a letter or digit followed by up to 63 letters, digits, dots, underscores or dashes\n`]);
    }
    expect(existsSync(join(cfg, 'config.json'))).toBe(false);
  });

  it('refuses a non-loopback host and a bad port (exit 2)', async () => {
    const h = await runVxInProc(['emulator', 'start', '--host', '0.0.0.0']);
    expect(h.code).toBe(2);
    expect(h.stderr).toMatch(/--host 0\.0\.0\.0 is not a loopback address/);
    const p = await runVxInProc(['emulator', 'start', '--port', '70000']);
    expect(p.code).toBe(2);
    const f = await runVxInProc(['emulator', 'start', '--port', '0', '--faults', 'explode:1']);
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(/unknown fault "explode"/);
  });

  it('exec without -- refuses the options it would swallow (they would never reach the command)', async () => {
    const r = await runVxInProc(['emulator', 'exec', 'vx', 'erp', 'companies', 'list', '-q', 'length(@)']);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', "vx: --query would be read by `vx emulator exec` itself, not by vx; put the command after --: vx emulator exec -- vx ...\n"]);
    const ok = await runVx(['emulator', 'exec', '--', 'vx', 'erp', 'companies', 'list', '-q', 'length(@)']);
    expect([ok.code, ok.stdout]).toEqual([0, '2\n']);
  });

  // a CI runner that cancels a job sends SIGTERM to the process it started (vx): the command vx
  // runs must get it too, and vx must end with the command's own code, never leave it running
  it.each([
    ['SIGTERM', 3],
    ['SIGHUP', 4],
    ['SIGINT', 5],
  ] as const)('exec passes %s on to the command, waits for it and exits with its code', async (sig, code) => {
    const dir = tempDir();
    dirs.push(dir);
    const script = `trap 'echo "got ${sig.slice(3)}"; exit ${code}' ${sig.slice(3)}; echo ready $$; while :; do sleep 0.05; done`;
    const child = spawn(process.execPath, [BIN, 'emulator', 'exec', '--', 'sh', '-c', script], { env: baseEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    await new Promise<void>((r) => child.stdout.on('data', (c) => ((stdout += c), stdout.includes('\n') && r())));
    const pid = Number(/^ready (\d+)\n/.exec(stdout)![1]);
    orphans.push(pid);
    child.kill(sig);
    expect(await exited).toBe(code);
    expect(stdout).toBe(`ready ${pid}\ngot ${sig.slice(3)}\n`);
    expect(stderr).toBe(`vx: sh -c ${script} exited with ${code}\n`);
  });

  it('exec: a command killed by a signal is 128 + its number (SIGKILL: 137)', async () => {
    const r = await runVx(['emulator', 'exec', '--', 'sh', '-c', 'kill -KILL $$']);
    expect([r.code, r.stdout, r.stderr]).toEqual([137, '', 'vx: sh -c kill -KILL $$ was killed by SIGKILL (exit 137)\n']);
  });

  it('a --state that can no longer be saved (its directory removed) is said in one line, the emulator serves on, and its stop is exit 1', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const stateDir = join(dir, 'state');
    mkdirSync(stateDir);
    const statePath = join(stateDir, 'emu.json');
    const emu = start(['--port', '0', '--state', statePath], join(dir, 'cfg'));
    const env = await emu.ready;
    rmSync(stateDir, { recursive: true });
    for (const code of ['RM1', 'RM2']) {
      const created = await runVxInProc(['erp', 'currencies', 'create', '--set', `code=${code}`, '--set', 'displayName=x', '-o', 'none'], { env });
      expect(created.code).toBe(0);
      await new Promise((r) => setTimeout(r, 200));
    }
    const read = await runVxInProc(['erp', 'currencies', 'get', 'RM2', '-q', 'code'], { env });
    expect([read.code, read.stdout]).toEqual([0, '"RM2"\n']);
    emu.child.kill('SIGTERM');
    expect(await emu.exited).toBe(1);
    const lines = emu.out().stderr.split('\n');
    const said = `cannot save the state to ${statePath}: its directory is gone; the changes are kept in memory until a save succeeds`;
    expect(lines.filter((l) => l.includes('cannot save the state'))).toEqual([`warning: ${said}`, `vx: cannot save the state to ${statePath}: its directory is gone; the last changes were not saved`]);
    expect(emu.out().stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a --state file in a directory that does not exist before listening (exit 2), instead of failing at the first change', async () => {
    const missing = join(tempDir(), 'no-such-dir');
    const r = await runVxInProc(['emulator', 'start', '--port', '0', '--state', join(missing, 'emu.json')]);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `vx: invalid --state "${join(missing, 'emu.json')}": the directory ${missing} does not exist or is not writable\n`]);
  });
});
