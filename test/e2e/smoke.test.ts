import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runVx } from '../helpers/vx.js';

describe('smoke', () => {
  const e2e = useEmulator();

  it('prints the version', async () => {
    const r = await runVx(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.stderr).toBe('');
  });

  it('exits 2 on an unknown command, with no stack trace', async () => {
    const r = await runVx(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('sends a raw request with the family credentials and maps 404 to exit 4', async () => {
    const r = await e2e.run(['api', 'GET', '/nope', '--service', 'mgmt']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^vx: HTTP 404 Not Found ResourceNotFound: .* \(request id [0-9a-f-]{36}\)\n$/);
    expect(e2e.emu.count({ family: 'mgmt', method: 'GET' })).toBe(1);
  });
});
