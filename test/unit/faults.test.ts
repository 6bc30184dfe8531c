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
  it('refuses a count that is not a whole number of requests, and a setting given as a count', () => {
    for (const spec of ['503:0.5x', '503:0x', '503:1.5x', 'erp/reset:0.9x']) {
      expect(() => parseFaults(spec), spec).toThrow(`invalid fault "${spec}": a count is a whole number of requests, 1 or more, e.g. 2x`);
    }
    expect(() => parseFaults('latency:50x')).toThrow('invalid fault "latency:50x": latency:N takes a number, not a count');
    expect(() => parseFaults('seed:4x')).toThrow('invalid fault "seed:4x": seed:N takes a number, not a count');
    expect(() => parseFaults('retry-after:0.5')).toThrow('invalid fault "retry-after:0.5": retry-after:N is whole seconds');
    expect(parseFaults('503:3x').rules).toEqual([{ kind: 'status', status: 503, remaining: 3 }]);
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
  it("a translator error code (6 digits) is a fault of its own: its status, that code, the translator only", () => {
    const f = parseFaults('403001:1x,translator/429002:0.5,408001:1x');
    expect(f.rules).toEqual([
      { kind: 'status', status: 403, code: '403001', family: 'translator', remaining: 1 },
      { kind: 'status', status: 429, code: '429002', family: 'translator', probability: 0.5 },
      { kind: 'status', status: 408, code: '408001', family: 'translator', remaining: 1 },
    ]);
    expect(pickFault(f, 'erp')).toBeUndefined();
    expect(pickFault(f, 'translator')).toEqual({ kind: 'status', status: 403, code: '403001', latencyMs: undefined });
    expect(() => parseFaults('erp/403001:1x')).toThrow(/403001 is a translator error code/);
    expect(() => parseFaults('200001:1x')).toThrow(/status of 400-599/);
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

describe('translator character rate (rate:N, --rate translator=N)', () => {
  it('parses rate and rate-burst; the bucket holds at least one full request', async () => {
    const { charRate } = await import('../../src/emulator/faults.js');
    expect(parseFaults('rate:150000').rate).toMatchObject({ perSecond: 150_000, burst: 150_000, tokens: 150_000 });
    expect(parseFaults('translator/rate:555,rate-burst:33300').rate).toMatchObject({ perSecond: 555, burst: 50_000 });
    expect(charRate(555, 100_000)).toMatchObject({ burst: 100_000 });
    expect(() => parseFaults('erp/rate:10')).toThrow(/translator's characters/);
    expect(() => parseFaults('rate:2x')).toThrow(/translator's characters/);
    expect(() => parseFaults('rate-burst:10')).toThrow(/needs rate:N/);
    expect(() => parseFaults('rate:0')).toThrow(/invalid character rate/);
  });
  it('spends from a refilling bucket and names the whole seconds until a request fits', async () => {
    const { charRate, spendChars } = await import('../../src/emulator/faults.js');
    const r = charRate(100_000);
    r.at = 0;
    expect(spendChars(r, 60_000, 0)).toBe(0);
    expect(spendChars(r, 50_000, 0)).toBe(1); // 40,000 left: 10,000 short, 0.1 s -> 1
    expect(r.tokens).toBe(40_000); // nothing taken by a refused request
    expect(spendChars(r, 50_000, 100)).toBe(0); // 0.1 s later: 50,000
    expect(spendChars(r, 100_000, 100)).toBe(1);
    expect(spendChars(r, 100_000, 2100)).toBe(0); // refilled to the bucket's size, no more
    r.perSecond = 10_000;
    expect(spendChars(r, 45_000, 2100)).toBe(5);
  });
  it('--rate translator=N is the rule rate:N joined to --faults', async () => {
    const { faultsWithRate } = await import('../../src/cli/emulator/server.js');
    expect(faultsWithRate(undefined, undefined)).toBeUndefined();
    expect(faultsWithRate('503:0.1', undefined)).toBe('503:0.1');
    expect(faultsWithRate(undefined, 'translator=33300')).toBe('rate:33300');
    expect(faultsWithRate('latency:5', 'Translator = 1.5')).toBe('latency:5,rate:1.5');
    expect(() => faultsWithRate(undefined, 'erp=10')).toThrow('invalid value "erp=10" for --rate: expected translator=<billed characters a second>, e.g. translator=555 (the free tier: 2 million an hour)');
    expect(() => faultsWithRate(undefined, 'translator=0')).toThrow(/invalid value/);
    expect(() => faultsWithRate('rate:5', 'translator=10')).toThrow(/give one/);
  });
});
