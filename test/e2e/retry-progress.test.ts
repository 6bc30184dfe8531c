// Retries and long waits are not silent: at a terminal one stderr line is replaced as they go and
// removed at the end; off a terminal a line each only with --verbose.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { hasPty, runOnPty } from '../helpers/pty.js';

const e2e = useEmulator();

describe('retry progress', () => {
  it('off a terminal: nothing without --verbose; with it one line per retry naming status, family and attempt', async () => {
    e2e.emu.setFaults('erp/503:2x,retry-after:0');
    const quiet = await e2e.run(['erp', 'companies', 'list']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    e2e.emu.setFaults('erp/503:2x,retry-after:0');
    const r = await e2e.run(['erp', 'companies', 'list', '--verbose']);
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.includes('retrying'));
    expect(lines).toEqual(['503 from erp; retrying in 0.0 s (attempt 2 of 5)', '503 from erp; retrying in 0.0 s (attempt 3 of 5)']);
  });

  it('a refused connection says so before each retry (no 6 s of silence)', async () => {
    const r = await e2e.run(['mgmt', 'health', 'events', 'list', '--verbose', '--retries', '2'], { env: { VX_MGMT_ENDPOINT: 'http://127.0.0.1:1/mgmt', VX_BACKOFF_BASE_MS: '5' } });
    expect(r.code).toBe(8);
    expect(r.stderr.split('\n').filter((l) => l.includes('retrying'))).toEqual([
      expect.stringMatching(/^mgmt: connection refused; retrying in 0\.0 s \(attempt 2 of 3\)$/),
      expect.stringMatching(/^mgmt: connection refused; retrying in 0\.0 s \(attempt 3 of 3\)$/),
    ]);
  });

  it('a slow answer off a terminal with --verbose: one waiting line naming the family and the timeout', async () => {
    e2e.emu.setFaults('translator/latency:600');
    const r = await e2e.run(['translate', '--to', 'de', 'hi', '--verbose'], { env: { VX_WAITING_AFTER_MS: '200' } });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('waiting'))).toEqual([expect.stringMatching(/^waiting for translator: no answer yet after 0\.[2-9] s \(gives up at 1 min; Ctrl-C stops\)$/)]);
  });

  it.skipIf(!hasPty)('at a terminal: one line redrawn in place, removed before the result', async () => {
    e2e.emu.setFaults('erp/503:2x,retry-after:0');
    const r = await runOnPty(['erp', 'companies', 'list', '-o', 'tsv', '--query', '[].name'], { env: e2e.env });
    expect(r.code).toBe(0);
    const out = r.output;
    expect(out).toMatch(/\r\u001b\[K503 from erp; retrying in 0\.\d s \(attempt 2 of 5\)\r\u001b\[K503 from erp; retrying in 0\.\d s \(attempt 3 of 5\)\r\u001b\[KCRONUS USA, Inc\.\r\n/);
  });
});
