import { describe, expect, it } from 'vitest';
import { parseFaults, pickFault, seeded } from '../../src/emulator/faults.js';

describe('fault spec', () => {
  it('parses probabilities, counts, family limits and settings', () => {
    const f = parseFaults('429:0.1, 503:2x, erp/reset:0.05, reset-after:0.01, hang:0.01, slow:0.02, slow-ms:300, latency:50, retry-after:0, seed:42');
    expect(f.rules).toEqual([
      { kind: 'status', status: 429, probability: 0.1 },
      { kind: 'status', status: 503, remaining: 2 },
      { kind: 'reset', family: 'erp', probability: 0.05 },
      { kind: 'reset-after', probability: 0.01 },
      { kind: 'hang', probability: 0.01 },
      { kind: 'slow', probability: 0.02 },
    ]);
    expect(f).toMatchObject({ slowMs: 300, latencyMs: 50, retryAfter: 0 });
    expect(parseFaults('').rules).toEqual([]);
  });
  it('refuses bad specs with a clear message', () => {
    expect(() => parseFaults('explode:1')).toThrow(/unknown fault "explode"/);
    expect(() => parseFaults('429')).toThrow(/invalid fault "429"/);
    expect(() => parseFaults('429:1.5')).toThrow(/invalid probability/);
    expect(() => parseFaults('429:0')).toThrow(/invalid probability/);
    expect(() => parseFaults('200:0.1')).toThrow(/use 400-599/);
    expect(() => parseFaults('ftp/429:0.1')).toThrow(/invalid fault/);
  });
  it('count rules fire first and only for their family; latency applies to the rest', () => {
    const f = parseFaults('erp/503:2x,latency:10');
    expect(pickFault(f, 'mgmt')).toEqual({ kind: 'latency', latencyMs: 10 });
    expect(pickFault(f, 'erp')).toEqual({ kind: 'status', status: 503, latencyMs: 10 });
    expect(pickFault(f, 'erp')?.status).toBe(503);
    expect(pickFault(f, 'erp')).toEqual({ kind: 'latency', latencyMs: 10 });
    expect(pickFault(parseFaults('slow:1x,slow-ms:200'), 'erp')).toEqual({ kind: 'slow', status: undefined, latencyMs: 200 });
    expect(pickFault(parseFaults(''), 'erp')).toBeUndefined();
  });
  it('a method prefix limits a rule to one method (with or without a family)', () => {
    const f = parseFaults('mgmt/PATCH/reset-after:1x,get/500:1x');
    expect(f.rules).toEqual([
      { kind: 'reset-after', family: 'mgmt', method: 'PATCH', remaining: 1 },
      { kind: 'status', status: 500, method: 'GET', remaining: 1 },
    ]);
    expect(pickFault(f, 'mgmt', 'POST')).toBeUndefined();
    expect(pickFault(f, 'erp', 'PATCH')).toBeUndefined();
    expect(pickFault(f, 'mgmt', 'PATCH')?.kind).toBe('reset-after');
    expect(pickFault(f, 'mgmt', 'PATCH')).toBeUndefined();
    expect(pickFault(f, 'erp', 'GET')?.status).toBe(500);
    expect(() => parseFaults('FETCH/500:1x')).toThrow(/invalid fault/);
  });
  it('probabilities hold over many requests and a seed repeats the run', () => {
    const f = parseFaults('429:0.1,reset:0.05,seed:1');
    const picks = Array.from({ length: 20_000 }, () => pickFault(f, 'erp')?.kind ?? 'none');
    const share = (k: string) => picks.filter((p) => p === k).length / picks.length;
    expect(share('status')).toBeGreaterThan(0.09);
    expect(share('status')).toBeLessThan(0.11);
    expect(share('reset')).toBeGreaterThan(0.04);
    expect(share('reset')).toBeLessThan(0.06);
    const again = parseFaults('429:0.1,reset:0.05,seed:1');
    expect(Array.from({ length: 20_000 }, () => pickFault(again, 'erp')?.kind ?? 'none')).toEqual(picks);
    const r = seeded(7);
    for (let i = 0; i < 1000; i++) {
      const x = r();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});
