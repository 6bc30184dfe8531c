// Faults (the emulator's fault injection): a 10,000-line translate under 10% faults gives exactly
// the output of a fault-free run; a quota set under 10% faults on every request reaches its final
// state when its messages are followed; the quota PATCH is never repeated after an ambiguous
// failure (exit 8, outcome unknown, how to check — and the check works); version-set PUT and
// translate are repeated because they are idempotent. The emulator's request counter proves each.
import type { IncomingMessage } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../src/emulator/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { driveClock, FakeClock } from '../helpers/fake-clock.js';
import { runInProc } from '../helpers/inproc.js';
import { tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const dir = tempDir('vx-faults-');
const SCOPE = ['--provider', 'Vendor.Compute', '--location', 'eastus'];
const VS = ['--resource-group', 'web', '--service', 'contoso-api'];
const SUB = () => e2e.emu.state.mgmt.defaultSubscription as string;
const limitOf = (name: string) => e2e.emu.state.mgmt.quotas[`${SUB().toLowerCase()}|vendor.compute|eastus`][name.toLowerCase()].quota.properties.limit;
/** attempts that failed without an answer the client could use: it repeats them when allowed */
const failed = (l: LogEntry) => l.fault === 'status' || l.fault === 'reset' || l.fault === 'reset-after';

/** Sets `spec` as the emulator's faults the moment a request with `method` arrives (before it is handled). */
function faultOn(method: string, spec: string): () => void {
  const server = (e2e.emu as unknown as { server: import('node:http').Server }).server;
  let armed = true;
  const onRequest = (req: IncomingMessage) => {
    if (armed && req.method === method && !req.url?.startsWith('/_emulator')) {
      armed = false;
      e2e.emu.setFaults(spec);
    }
  };
  server.prependListener('request', onRequest);
  return () => server.removeListener('request', onRequest);
}

describe('translate under 10% faults', () => {
  it('10,000 lines: every line exactly once and in order, the same output as a fault-free run; the retries counted', async () => {
    // long enough lines for ~50 requests (50,000 characters each), so that 10% is several faults
    const lines = Array.from({ length: 10_000 }, (_, i) => `Line ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(6)}${i % 7}`);
    const file = join(dir, 'ten-thousand.txt');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const args = ['translate', '--to', 'de', '--from', 'en', '--concurrency', '4', '--retries', '8', '-f', file];

    const clean = await e2e.run(args, { timeoutMs: 60_000 });
    expect(clean.code, clean.stderr).toBe(0);
    const cleanRequests = e2e.emu.count({ family: 'translator' });
    expect(cleanRequests).toBeGreaterThanOrEqual(40);
    expect(clean.stdout.split('\n')).toHaveLength(10_001);

    e2e.emu.reset();
    // every kind at least once, then 10% at random: 429 (Retry-After 1 s), 503, 500, resets before and after the work, slow answers
    e2e.emu.setFaults('429:1x,503:1x,500:1x,reset:1x,reset-after:1x,slow:1x,429:0.025,503:0.02,500:0.02,reset:0.015,reset-after:0.01,slow:0.01,slow-ms:400,retry-after:1,seed:8');
    // the waits between attempts (Retry-After, back-off) on a fake clock: no real sleeps
    const clock = new FakeClock();
    const r = await driveClock(clock, runInProc(args, { env: e2e.env, network: true, clock }));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(clean.stdout);
    const log = e2e.emu.log.filter((l) => l.family === 'translator');
    const kinds = new Set(log.filter((l) => l.fault).map((l) => (l.fault === 'status' ? String(l.status) : l.fault)));
    expect([...kinds].sort()).toEqual(['429', '500', '503', 'reset', 'reset-after', 'slow']);
    // the counter: every failed attempt was repeated once more, nothing else
    expect(log.length).toBe(cleanRequests + log.filter(failed).length);
  }, 180_000);
});

describe('quota PATCH: never repeated after an ambiguous failure', () => {
  it('a lost answer (reset after the work): exit 8, outcome unknown, how to check; sent once; the check finds the request', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    const off = faultOn('PATCH', 'reset-after:1x');
    try {
      const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes']);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^vx: quota change of cores: .*; the outcome is unknown \(the request may or may not have taken effect\) and it was not repeated; check with: vx mgmt quota requests list --provider Vendor\.Compute --location eastus --subscription [0-9a-f-]{36}\n$/,
      );
      expect(r.code).toBe(8);
      expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
    } finally {
      off();
    }
    // following the message: the request is there, with the asked limit
    const check = await e2e.run(['mgmt', 'quota', 'requests', 'list', ...SCOPE]);
    expect(check.code).toBe(0);
    const requests = (JSON.parse(check.stdout) as { properties: { provisioningState: string; value: { name: { value: string }; limit: number }[] } }[]).filter((q) => q.properties.provisioningState === 'InProgress');
    expect(requests).toHaveLength(1);
    expect(requests[0].properties.value[0]).toMatchObject({ name: { value: 'cores' }, limit: 150 });
  });

  it('a timeout while the service works: exit 8, outcome unknown; sent once', async () => {
    const off = faultOn('PATCH', 'slow:1x,slow-ms:1500');
    try {
      const r = await e2e.run(['--timeout', '0.5', 'mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '160', '--yes']);
      expect(r.stderr).toMatch(/^vx: quota change of cores: timed out after \d+ ms; the outcome is unknown .* check with: vx mgmt quota requests list/);
      expect(r.code).toBe(8);
      expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
    } finally {
      off();
    }
    // the service went on with the work after vx gave up: "unknown" was the truth. Waiting for it
    // also keeps this slow request from landing in the next test's state.
    const patch = e2e.emu.log.find((l) => l.family === 'mgmt' && l.method === 'PATCH');
    for (let i = 0; i < 100 && patch && patch.status === 0; i++) await new Promise((res) => setTimeout(res, 50));
    expect([200, 201]).toContain(patch?.status);
  });

  it('a reset before the work: also ambiguous to the client (exit 8), sent once, nothing changed', async () => {
    const off = faultOn('PATCH', 'reset:1x');
    try {
      const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '170', '--yes']);
      expect(r.code).toBe(8);
      expect(r.stderr).toMatch(/outcome is unknown/);
      expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
      expect(e2e.emu.state.mgmt.writes).toEqual([]);
    } finally {
      off();
    }
  });

  it('500: not repeated (exit 7); 429 and 503 prove nothing was done and are repeated', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    let off = faultOn('PATCH', '500:1x');
    try {
      const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes']);
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/^vx: HTTP 500 Internal Server Error /);
      expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(1);
    } finally {
      off();
    }
    e2e.emu.reset();
    e2e.emu.state.mgmt.retryAfter = 0;
    off = faultOn('PATCH', '429:1x,503:1x,retry-after:0');
    try {
      const r = await e2e.run(['mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', '150', '--yes']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(e2e.emu.count({ family: 'mgmt', method: 'PATCH' })).toBe(3);
      expect(limitOf('cores')).toBe(150);
    } finally {
      off();
    }
  });
});

describe('quota set under 10% faults on every request', () => {
  it('six changes each reach their final state by following vx (rerun after exit 7, check after exit 8); each run sent its PATCH once (plus 429/503 repeats)', async () => {
    e2e.emu.state.mgmt.retryAfter = 0;
    e2e.emu.setFaults('429:0.025,503:0.02,500:0.02,reset:0.015,reset-after:0.01,slow:0.01,slow-ms:100,retry-after:0,seed:21');
    const runs: number[] = [];
    for (const target of [190, 200, 210, 220, 230, 240]) {
      let done = false;
      for (let attempt = 0; attempt < 12 && !done; attempt++) {
        const before = e2e.emu.log.length;
        const r = await e2e.run(['--retries', '6', 'mgmt', 'quota', 'set', 'cores', ...SCOPE, '--limit', String(target), '--yes', '--poll-interval', '0']);
        runs.push(r.code ?? -1);
        const patches = e2e.emu.log.slice(before).filter((l) => l.family === 'mgmt' && l.method === 'PATCH');
        const repeatable = patches.filter((l) => l.fault === 'status' && (l.status === 429 || l.status === 503)).length;
        expect(patches.length, `PATCHes of one run`).toBeLessThanOrEqual(1 + repeatable);
        if (r.code === 0) {
          // Succeeded, or "already <limit>" when an earlier run's change went through
          if (r.stdout.includes('provisioningState')) expect(JSON.parse(r.stdout).properties.provisioningState).toBe('Succeeded');
          done = true;
        } else if (r.code === 8 && /outcome is unknown/.test(r.stderr)) {
          // the way the message says: look at the requests, follow the one with this limit
          expect(r.stderr).toMatch(/check with: vx mgmt quota requests list --provider Vendor\.Compute --location eastus/);
          const list = await e2e.run(['--retries', '8', 'mgmt', 'quota', 'requests', 'list', ...SCOPE]);
          expect(list.code, list.stderr).toBe(0);
          type Req = { name: string; properties: { provisioningState: string; value: { limit: number }[] } };
          const mine = (JSON.parse(list.stdout) as Req[]).find((q) => q.properties.provisioningState === 'InProgress' && q.properties.value[0].limit === target);
          for (let i = 0; mine && i < 10 && !done; i++) {
            const get = await e2e.run(['--retries', '8', 'mgmt', 'quota', 'requests', 'get', mine.name, ...SCOPE]);
            if (get.code === 0 && JSON.parse(get.stdout).properties.provisioningState === 'Succeeded') done = true;
          }
        } else {
          // any other failure is a clean message with a contract code; running again is safe
          expect([6, 7, 8], r.stderr).toContain(r.code);
          expect(r.stderr.trimEnd().split('\n').length, r.stderr).toBeLessThanOrEqual(2);
        }
      }
      expect(done, `limit ${target}: exits ${runs.join(',')}`).toBe(true);
      expect(limitOf('cores')).toBe(target);
    }
    const faults = e2e.emu.log.filter((l) => l.family === 'mgmt' && l.fault);
    expect(faults.length).toBeGreaterThanOrEqual(3);
  }, 180_000);
});

describe('idempotent writes are repeated', () => {
  it('version-set create is a PUT: after a lost answer it is sent again and the set exists once', async () => {
    const off = faultOn('PUT', 'reset-after:1x');
    try {
      const r = await e2e.run(['mgmt', 'version-sets', 'create', 'rel-set', ...VS, '--display-name', 'Rel', '--scheme', 'Segment']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ name: 'rel-set', properties: { displayName: 'Rel', versioningScheme: 'Segment' } });
      expect(e2e.emu.count({ family: 'mgmt', method: 'PUT' })).toBe(2);
      // the read before the PUT found no set, so the repeat's 200 is the first attempt's own creation
      expect(r.stderr).toBe('');
      expect(e2e.emu.count({ family: 'mgmt', method: 'GET' })).toBe(1);
    } finally {
      off();
    }
  });

  it('version-set create under 10% faults: done, with one PUT more for each failed one', async () => {
    e2e.emu.setFaults('429:0.03,503:0.02,500:0.02,reset:0.02,reset-after:0.01,retry-after:0,seed:4');
    for (let i = 0; i < 12; i++) {
      const before = e2e.emu.log.length;
      const r = await e2e.run(['--retries', '8', 'mgmt', 'version-sets', 'create', `rel-${i}`, ...VS, '--display-name', `Rel ${i}`, '--scheme', 'Query', '--query-name', 'v']);
      expect(r.code, r.stderr).toBe(0);
      const puts = e2e.emu.log.slice(before).filter((l) => l.method === 'PUT');
      expect(puts.length).toBe(1 + puts.filter(failed).length);
    }
    expect(Object.keys(e2e.emu.state.mgmt.versionSets).length).toBeGreaterThan(0);
  });

  it('translate is marked idempotent: a 500 and a lost answer are repeated, counted', async () => {
    const clean = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Good morning']);
    e2e.emu.reset();
    e2e.emu.setFaults('500:1x,reset-after:1x');
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Good morning']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(clean.stdout);
    expect(e2e.emu.count({ family: 'translator' })).toBe(3);
    expect(e2e.emu.state.translator.calls).toHaveLength(2); // the lost answer's work, then the answered one
  });
});
