// Every example printed by `--help` that can run unattended runs, as written, against the emulator
// (a `vx` on PATH, the emulator's VX_* variables, a scratch directory): an example that fails is a
// user's first command failing. One vx command (or `echo … | vx …`) runs in-process, read as the
// shell reads it; lines that need a shell (pipes into other programs, emulator exec) are spawned. The examples of README.md and docs/ are run by
// test/unit/docs-examples.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { useEmulator } from '../helpers/emulator.js';
import { runVxInProc } from '../helpers/inproc.js';
import { inProcess } from '../helpers/shell-line.js';
import { baseEnv, BIN, removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator({ resetEach: false });

function examples(): string[] {
  const out: string[] = [];
  const walk = (c: Command) => {
    let help = '';
    c.configureOutput({ writeOut: (s) => void (help += s), writeErr: (s) => void (help += s) });
    c.outputHelp();
    for (const l of help.split('\n')) if (l.startsWith('  $ ')) out.push(l.slice(4).replace(/\s+#.*$/, '').trim());
    c.commands.forEach(walk);
  };
  walk(buildProgram());
  return [...new Set(out)];
}

/** Why an example cannot run unattended here (undefined: it must run). */
function skipReason(line: string, hasJq: boolean): string | undefined {
  if (/<\w+>/.test(line)) return 'placeholder';
  if (/\bemulator start\b/.test(line)) return 'runs until stopped';
  if (/^npm /.test(line)) return 'installs';
  if (/\bquota wizard\b/.test(line)) return 'a terminal';
  if (/\bauth login\b/.test(line) && !/--with-(key|token)/.test(line)) return 'a browser or an app registration';
  if (/--wait\b/.test(line)) return 'polls for minutes';
  if (/--data @/.test(line)) return 'a file of the user';
  if (/\bsome-tool\b|\bcurl\b| > |>>/.test(line)) return 'another program or a system file';
  if (/\bjq\b/.test(line) && !hasJq) return 'jq not installed';
  return undefined;
}

describe('help examples', () => {
  it('run as written against the emulator (those needing no placeholder, terminal or browser)', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config');
    try {
      writeFileSync(join(dir, 'vx'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
      chmodSync(join(dir, 'vx'), 0o755);
      writeFileSync(join(dir, 'notes.txt'), 'Good morning\nSee you tomorrow\n');
      writeFileSync(join(dir, 'page.html'), '<p>Hello <b>world</b></p>\n');
      const hasJq = spawnSync('sh', ['-c', 'command -v jq'], { stdio: 'ignore' }).status === 0;
      const env = { ...baseEnv(cfg), ...e2e.env, PATH: `${dir}:${process.env.PATH ?? '/usr/bin:/bin'}`, KEY: 'emulator-key', TOKEN: 'emulator-token', COMPANY: e2e.env.VX_ERP_COMPANY };
      const sh = (line: string) =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawn('sh', ['-c', line], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.on('data', (c) => (stderr += c));
          const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
          child.on('close', (code) => {
            clearTimeout(timer);
            resolve({ code, stderr });
          });
        });
      let spawned = 0;
      const run = (line: string) => {
        const simple = inProcess(line, env, dir);
        if (simple) return runVxInProc(simple.argv, { cwd: dir, configDir: cfg, env, input: simple.stdin ?? '', timeoutMs: 25_000 });
        spawned++;
        return sh(line);
      };
      // the profiles the profile and auth examples name
      for (const p of ['staging', 'old']) expect((await run(`vx -p ${p} profile set output json`)).code).toBe(0);
      const failed: string[] = [];
      let ran = 0;
      for (const line of examples()) {
        if (skipReason(line, hasJq)) continue;
        ran++;
        const r = await run(line);
        // a destructive example without --yes asks at a terminal; without one it must say so (exit 2)
        const asks = r.code === 2 && /confirmation needed; pass --yes/.test(r.stderr);
        // health check answers with monitoring-plugin codes: 1 warning and 2 critical are answers too
        const graded = /\bhealth check\b/.test(line) && (r.code === 1 || r.code === 2);
        if (r.code !== 0 && !asks && !graded) failed.push(`${line}\n    exit ${r.code}: ${r.stderr.trim()}`);
      }
      expect(failed).toEqual([]);
      expect(ran).toBeGreaterThan(90);
      // spawning costs ~0.3 s a line: the examples are simple enough to run in-process
      expect(spawned).toBeLessThan(15);
    } finally {
      removeDir(dir);
    }
  }, 240_000);
});
