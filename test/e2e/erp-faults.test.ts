// ERP under faults: non-idempotent requests are never sent twice after an ambiguous failure (the
// emulator's request log counts them), and a 5,000-record list across pages with 10% faults
// returns every record exactly once, in order.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { FakeClock } from '../helpers/fake-clock.js';

const e2e = useEmulator();
const ORDER = '0000100e-0000-4000-8000-0000000e0001';
const company = () => e2e.emu.state.erp.defaultCompany as string;
const store = (set: string) => e2e.emu.state.erp.data[company()][set] as Record<string, any>[];
const count = (family: 'erp' | 'lcs', method: string) => e2e.emu.count({ family, method });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ambiguous failures of non-idempotent requests: exit 8, outcome unknown, sent once', () => {
  it('create: connection reset before the answer (the service did the work)', async () => {
    e2e.emu.setFaults('erp/reset-after:1x');
    const r = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=XR1']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/^vx: create currency: .*the outcome is unknown \(the request may or may not have taken effect\) and it was not repeated; check with: vx erp currencies list --filter "code eq 'XR1'"\n$/);
    expect(count('erp', 'POST')).toBe(1);
    expect(store('currencies').filter((c) => c.code === 'XR1')).toHaveLength(1);
  });

  it('create: connection reset before the service handled it (the client cannot tell)', async () => {
    e2e.emu.setFaults('erp/reset:1x');
    const r = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=XR2']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/outcome is unknown/);
    expect(count('erp', 'POST')).toBe(1);
    expect(store('currencies').filter((c) => c.code === 'XR2')).toHaveLength(0);
  });

  it('create: timeout while the service is slow (it finishes after vx gave up)', async () => {
    // the timeout leaves room for start-up work inside it (loading the transport) on a busy machine
    e2e.emu.setFaults('erp/slow:1x,slow-ms:1500');
    const r = await e2e.run(['--timeout', '0.8', 'erp', 'currencies', 'create', '--set', 'code=XT1']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/^vx: create currency: timed out after \d+ ms; the outcome is unknown .*check with: vx erp currencies list --filter "code eq 'XT1'"\n$/);
    await sleep(900);
    expect(count('erp', 'POST')).toBe(1);
    expect(store('currencies').filter((c) => c.code === 'XT1')).toHaveLength(1);
  });

  it('bound action (ship-and-invoice) and PATCH: reset after the request was written', async () => {
    e2e.emu.setFaults('erp/reset-after:1x');
    const a = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', ORDER, '--yes']);
    expect(a.code).toBe(8);
    expect(a.stderr).toMatch(new RegExp(`^vx: shipAndInvoice on sales order ${ORDER}: .*outcome is unknown.*check with: vx erp sales-orders get ${ORDER}\\n$`));
    expect(count('erp', 'POST')).toBe(1);

    e2e.emu.setFaults('erp/reset-after:1x');
    const u = await e2e.run(['erp', 'sales-orders', 'update', ORDER, '--set', 'discountAmount=7', '--if-match', '*']);
    expect(u.code).toBe(8);
    expect(u.stderr).toMatch(new RegExp(`^vx: update sales order ${ORDER}: .*outcome is unknown.*check with: vx erp sales-orders get ${ORDER}\\n$`));
    expect(count('erp', 'PATCH')).toBe(1);
  });

  it('database refresh: timeout, sent once', async () => {
    e2e.emu.setFaults('lcs/slow:1x,slow-ms:1500');
    const r = await e2e.run(['--timeout', '0.8', 'erp', 'refresh', '--project', '1234', '--source', 'prod-1', '--target', 'uat-1', '-y']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/^vx: database refresh of uat-1 from prod-1: timed out .*outcome is unknown.*check with: the environment history/);
    await sleep(900);
    expect(count('lcs', 'POST')).toBe(1);
  });

  it('statuses that prove nothing was done (429, 503) are retried; 500 is not', async () => {
    e2e.emu.setFaults('erp/429:1x,erp/503:1x,retry-after:0');
    const ok = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=XS1']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(count('erp', 'POST')).toBe(3);
    expect(store('currencies').filter((c) => c.code === 'XS1')).toHaveLength(1);

    e2e.emu.log.length = 0;
    e2e.emu.setFaults('erp/500:1x');
    const bad = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=XS2']);
    expect(bad.code).toBe(7);
    expect(bad.stderr).toMatch(/^vx: HTTP 500 Internal Server Error /);
    expect(count('erp', 'POST')).toBe(1);
  });
});

describe('5,000 records across pages with 10% faults', () => {
  it('every record exactly once, in order', async () => {
    const orders = store('salesOrders');
    const template = orders[0];
    orders.length = 0;
    for (let i = 0; i < 5000; i++) orders.push({ ...template, id: randomUUID(), number: `S-${String(i).padStart(5, '0')}` });
    e2e.emu.setFaults('429:0.03,503:0.02,500:0.02,reset:0.015,reset-after:0.01,slow:0.005,slow-ms:100,retry-after:1,seed:12');
    // the waits between attempts (Retry-After: 1, back-off) on a fake clock
    const r = await e2e.run(['--retries', '6', 'erp', 'sales-orders', 'list', '--page-size', '100', '--select', 'id,number', '-q', '[].number', '-o', 'json'], { timeoutMs: 60_000, clock: new FakeClock() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const numbers = JSON.parse(r.stdout) as string[];
    expect(numbers).toHaveLength(5000);
    expect(new Set(numbers).size).toBe(5000);
    expect(numbers).toEqual(Array.from({ length: 5000 }, (_, i) => `S-${String(i).padStart(5, '0')}`));
    const faults = e2e.emu.log.filter((l) => l.fault && l.fault !== 'latency');
    const kinds = new Set(faults.map((l) => (l.fault === 'status' ? String(l.status) : l.fault)));
    for (const k of ['429', '503', '500', 'reset']) expect(kinds, `fault kinds seen: ${[...kinds].join(',')}`).toContain(k);
    // 50 pages answered, plus one retry per failed attempt
    const failed = e2e.emu.log.filter((l) => l.status >= 429 || l.status < 0).length;
    expect(e2e.emu.count({ family: 'erp', method: 'GET' })).toBe(50 + failed);
  }, 60_000);
});
