// vx version (like gh version), and the pager for long output at a terminal: $VX_PAGER/$PAGER or
// less -FRX, off with --no-pager or VX_PAGER=, never when piped. A fake pager (a shell command that
// saves what it is given) stands in for less on a real pseudo-terminal.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { hasPty, runOnPty } from '../helpers/pty.js';
import { removeDir, runVx, tempDir } from '../helpers/vx.js';

describe('vx version', () => {
  it('prints the version of vx, Node.js and the platform; -o json as a record', async () => {
    const r = await runVx(['version']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'));
    expect(r.stdout).toBe(`vx version ${version}\nnode ${process.version} (${process.platform} ${process.arch})\n`);
    const j = await runVx(['version', '-o', 'json']);
    expect(JSON.parse(j.stdout)).toEqual({ version, node: process.version, platform: process.platform, arch: process.arch });
    expect((await runVx(['--version'])).stdout).toBe(`${version}\n`);
  });
});

describe('pager', () => {
  const e2e = useEmulator();
  let dir = '';
  beforeEach(() => {
    dir = tempDir('vx-pager-');
  });
  afterEach(() => removeDir(dir));
  const fake = () => `cat > ${join(dir, 'paged')}; echo PAGER-RAN`;
  const long = ['erp', 'sales-orders', 'list', '-o', 'json'];

  it.skipIf(!hasPty)('long output at a terminal goes through $VX_PAGER, whole; short output does not', async () => {
    const direct = JSON.parse((await e2e.run(long)).stdout);
    const r = await runOnPty(long, { env: { ...e2e.env, VX_PAGER: fake() }, rows: 20 });
    expect(r.code).toBe(0);
    expect(r.output).toContain('PAGER-RAN');
    expect(r.output).not.toContain('"number"');
    expect(JSON.parse(readFileSync(join(dir, 'paged'), 'utf8'))).toEqual(direct);
    const short = await runOnPty(['erp', 'companies', 'list', '-o', 'tsv', '--query', '[].name'], { env: { ...e2e.env, VX_PAGER: fake() }, rows: 20 });
    expect(short.output).toBe('CRONUS USA, Inc.\r\nMy Company\r\n');
    expect(existsSync(join(dir, 'paged'))).toBe(true); // only from the first run
  });

  it.skipIf(!hasPty)('$PAGER when VX_PAGER is unset; off with --no-pager and with VX_PAGER=', async () => {
    const viaPager = await runOnPty(long, { env: { ...e2e.env, PAGER: fake() }, rows: 20 });
    expect(viaPager.output).toContain('PAGER-RAN');
    for (const [args, env] of [
      [[...long, '--no-pager'], { PAGER: fake() }],
      [long, { VX_PAGER: '', PAGER: fake() }],
    ] as const) {
      const r = await runOnPty([...args], { env: { ...e2e.env, ...env }, rows: 20 });
      expect(r.code).toBe(0);
      expect(r.output).not.toContain('PAGER-RAN');
      expect(r.output).toContain('"number": "S-ORD101001"');
    }
  });

  it.skipIf(!hasPty)('a pager that cannot be started: the output is written directly, nothing lost', async () => {
    const r = await runOnPty(long, { env: { ...e2e.env, VX_PAGER: 'no-such-pager-here' }, rows: 20 });
    expect(r.code).toBe(0);
    expect(r.output).toContain('"number": "S-ORD101001"');
    expect(r.output.trimEnd().endsWith(']')).toBe(true);
  });

  it('never when piped', async () => {
    const r = await e2e.run(long, { env: { VX_PAGER: fake(), PAGER: fake() } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(10);
    expect(existsSync(join(dir, 'paged'))).toBe(false);
  });
});
