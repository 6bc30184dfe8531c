// `quota set --limit` reads a limit as the wizard's question does: thousands grouped by commas
// (`1,000`) or not; a comma that does not group thousands (`1,00`) is exit 2 with nothing sent.
import { describe, expect, it } from 'vitest';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const SUB = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
const env = offlineEnv({ subscription: SUB });
const SCOPE = ['--provider', 'Vendor.Compute', '--location', 'eastus'];
const set = (limit: string) => runInProc(['--dry-run', 'mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', limit, '--yes'], { env });

describe('quota set --limit', () => {
  it.each([
    ['1,000', 1000],
    ['1000', 1000],
    ['2,147,483,647', 2147483647],
  ])('%s is the limit %d (the PATCH planned carries it)', async (text, limit) => {
    const r = await set(text);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const patch = JSON.parse(r.stdout).find((q: { method: string }) => q.method === 'PATCH');
    expect(patch.body.properties.limit).toBe(limit);
  });

  it.each([
    ['1,00', 'must be a whole number'],
    ['1000,000', 'must be a whole number'],
    ['2,147,483,648', 'must be at most 2147483647 (a 32-bit integer)'],
  ])('%s is refused: exit 2, one line, nothing sent', async (text, rule) => {
    const r = await set(text);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `vx: invalid --limit "${text}": a quota limit ${rule}; nothing was sent\n`]);
    expect(r.http.requests).toEqual([]);
  });
});
