// `vx auth login` keeps credential records in the profile (a sign-in record, a refresh token).
// They are not settings: `profile show` sums them up as one masked line per family instead of
// printing their JSON (which cut every column at 80), and `profile set|unset`, their help and
// completion leave them out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVxInProc } from '../helpers/inproc.js';
import { tempDir } from '../helpers/vx.js';

function signedIn(): string {
  const dir = tempDir();
  mkdirSync(dir, { recursive: true });
  const record = (method: string, expiresAt: string) => JSON.stringify({ method, expiresAt, fingerprint: '0123456789abcdef', clientId: 'vx-cli', tenant: 'common', at: '2026-11-24T09:00:00.000Z' });
  const profile = {
    'erp.token': 'eyJhbGciOiJub25lIn0.eyJleHAiOjQxMDI0NDQ4MDB9.sig-erp-secret',
    'erp.signIn': record('device-code', '2099-01-01T00:00:00.000Z'),
    'erp.refreshToken': 'refresh-secret-0123456789',
    'mgmt.token': 'mgmt-secret-token',
    'mgmt.signIn': record('browser', '2020-01-01T00:00:00.000Z'),
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  return dir;
}

describe('credential records in a profile', () => {
  it('profile show at 80 columns: one masked line per family, keys whole, the SOURCE column kept', async () => {
    const r = await runVxInProc(['profile', 'show', '-o', 'table'], { configDir: signedIn(), env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KEY\s+VALUE\s+SOURCE$/);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    expect(lines.filter((l) => /^erp\.token\s+\*{8}\s+profile$/.test(l))).toHaveLength(1);
    expect(lines.find((l) => l.startsWith('erp sign-in'))).toMatch(/^erp sign-in\s+device-code, until 2099-01-01 00:00Z, renewable\s+auth login$/);
    expect(lines.find((l) => l.startsWith('mgmt sign-in'))).toMatch(/^mgmt sign-in\s+browser, expired 2020-01-01 00:00Z\s+auth login$/);
    // no key is cut
    for (const l of lines.slice(1)) expect(l.split(/\s{2,}/)[0]).toMatch(/^([a-z]+\.[A-Za-z]+|output|[a-z]+ sign-in)$/);
    expect(r.stdout).not.toMatch(/signIn|refreshToken|fingerprint|refresh-secret|sig-erp-secret/);
  });

  it('profile set|unset refuse the records, pointing at vx auth', async () => {
    const dir = signedIn();
    const set = await runVxInProc(['profile', 'set', 'erp.refreshToken', 'x'], { configDir: dir });
    expect(set.code).toBe(2);
    expect(set.stderr).toBe(
      'vx: erp.refreshToken is a credential record that `vx auth login` writes, not a setting; sign in with `vx auth login --service erp`, or remove it with `vx auth logout --service erp`\n',
    );
    const unset = await runVxInProc(['profile', 'unset', 'mgmt.signIn'], { configDir: dir });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/^vx: mgmt\.signIn is a credential record that `vx auth login` writes, not a setting/);
  });

  it('profile set --help, unknown-key errors and completion do not offer them', async () => {
    const help = await runVxInProc(['profile', 'set', '--help']);
    expect(help.stdout).toContain('erp.token');
    expect(help.stdout).not.toMatch(/signIn|refreshToken/);
    const unknown = await runVxInProc(['profile', 'set', 'nope', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('erp.token');
    expect(unknown.stderr).not.toMatch(/signIn|refreshToken/);
    const bash = await runVxInProc(['completion', 'bash']);
    expect(bash.stdout).toContain('erp.token');
    expect(bash.stdout).not.toMatch(/signIn|refreshToken/);
  });
});
