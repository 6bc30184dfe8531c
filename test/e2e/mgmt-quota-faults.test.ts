// Quota changes under faults: the PATCH is never sent twice after an ambiguous failure (exit 8,
// how to check), is repeated only after 429/503, and a quota set reaches its final state while
// its reads and polls meet 503, 500, resets and slow answers.
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const SCOPE = ['--provider', 'Vendor.Compute', '--location', 'eastus'];
const SUB = () => e2e.emu.state.mgmt.defaultSubscription as string;
const limitOf = (name: string) => e2e.emu.state.mgmt.quotas[`${SUB().toLowerCase()}|vendor.compute|eastus`][name.toLowerCase()].quota.properties.limit;
const writes = () => (e2e.emu.state.mgmt.writes as { method: string }[]).filter((w) => w.method === 'PATCH').length;
const patches = () => e2e.emu.count({ family: 'mgmt', method: 'PATCH' });

beforeEach(() => {
  e2e.emu.state.mgmt.retryAfter = 0;
});

describe('quota PATCH after an ambiguous failure', () => {
  for (const [fault, timeout] of [['mgmt/PATCH/reset-after:1x', undefined], ['mgmt/PATCH/reset:1x', undefined], ['mgmt/PATCH/slow:1x,slow-ms:1500', '0.8']] as const) {
    it(`${fault}: exit 8, outcome unknown with a way to check, sent once`, async () => {
      e2e.emu.setFaults(fault);
      const r = await e2e.run([...(timeout ? ['--timeout', timeout] : []), 'mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes']);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/outcome is unknown .*not repeated; check with: vx mgmt quota (get|requests list)/);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.code).toBe(8);
      expect(patches()).toBe(1);
    });
  }
});

describe('quota set under faults', () => {
  it('reaches its final state: reads and polls retried through 503/500/reset/slow, the PATCH only through 429/503', async () => {
    const before = limitOf('cores');
    e2e.emu.setFaults(
      'mgmt/GET/503:1x,mgmt/GET/500:1x,mgmt/GET/reset:1x,mgmt/GET/slow:1x,mgmt/PATCH/429:1x,mgmt/PATCH/503:1x,mgmt/GET/503:0.05,mgmt/GET/500:0.03,mgmt/GET/reset:0.02,slow-ms:50,retry-after:0,seed:3',
    );
    const r = await e2e.run(['--retries', '8', 'mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', String(before + 25), '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).properties.provisioningState).toBe('Succeeded');
    expect(limitOf('cores')).toBe(before + 25);
    expect(patches()).toBe(3); // 429, 503, then accepted
    expect(writes()).toBe(1);
    const faults = e2e.emu.log.filter((l) => l.fault && l.fault !== 'latency').map((l) => `${l.method} ${l.fault === 'status' ? l.status : l.fault}`);
    expect(faults).toEqual(expect.arrayContaining(['GET 503', 'GET 500', 'GET reset', 'GET slow', 'PATCH 429', 'PATCH 503']));
  });
});
