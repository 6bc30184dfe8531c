// The emulator's $batch (JSON format) and per-user rate limit, spoken to directly over HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

let emu: Emulator;
let limited: Emulator;
const C = '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f';
const AUTH = { authorization: 'Bearer emulator-token', 'content-type': 'application/json' };

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  limited = await startEmulator({ port: 0, rateLimit: '3/60' });
});
afterAll(async () => {
  await emu.close();
  await limited.close();
});
beforeEach(() => emu.reset());

async function batch(requests: unknown[], headers: Record<string, string> = {}, on = emu) {
  const res = await fetch(`${on.url}/erp/api/v2.0/$batch`, { method: 'POST', headers: { ...AUTH, ...headers }, body: JSON.stringify({ requests }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
const create = (id: string, code: string) => ({ id, method: 'POST', url: `companies(${C})/salespeoplePurchasers`, headers: { 'content-type': 'application/json' }, body: { code, displayName: `Person ${code}` } });
async function codes(): Promise<string[]> {
  const res = await fetch(`${emu.url}/erp/api/v2.0/companies(${C})/salespeoplePurchasers`, { headers: AUTH });
  return ((await res.json()) as any).value.map((r: any) => r.code);
}

describe('emulator $batch', () => {
  it('answers each operation with its id, status, headers and body, in order', async () => {
    const r = await batch([create('r1', 'B1'), { id: 'r2', method: 'GET', url: `companies(${C})/salespeoplePurchasers?$filter=code eq 'B1'&$select=code` }]);
    expect(r.status).toBe(200);
    expect(r.body.responses).toHaveLength(2);
    const [a, b] = r.body.responses;
    expect(a.id).toBe('r1');
    expect(a.status).toBe(201);
    expect(a.headers['odata-version']).toBe('4.0');
    expect(a.headers.etag).toMatch(/^W\/"/);
    expect(a.headers.location).toContain(`/salespeoplePurchasers(${a.body.id})`);
    expect(a.body).toMatchObject({ code: 'B1', displayName: 'Person B1' });
    expect(b).toMatchObject({ id: 'r2', status: 200 });
    expect(b.body.value).toEqual([{ '@odata.etag': a.body['@odata.etag'], code: 'B1' }]);
  });

  it('stops at the first failure unless Prefer: odata.continue-on-error', async () => {
    const ops = [create('1', 'S1'), create('2', 'S1'), create('3', 'S3')];
    const r = await batch(ops);
    expect(r.body.responses.map((x: any) => x.status)).toEqual([201, 400]);
    expect(r.body.responses[1].body.error.code).toBe('Internal_EntityWithSameKeyExists');
    expect(await codes()).toContain('S1');
    expect(await codes()).not.toContain('S3');
    emu.reset();
    const all = await batch(ops, { prefer: 'odata.continue-on-error' });
    expect(all.body.responses.map((x: any) => x.status)).toEqual([201, 400, 201]);
    expect(await codes()).toEqual(expect.arrayContaining(['S1', 'S3']));
  });

  it('Isolation: snapshot rolls every change of a failed batch back', async () => {
    const before = await codes();
    const r = await batch([create('1', 'T1'), create('2', 'T2'), { id: '3', method: 'POST', url: `companies(${C})/salespeoplePurchasers`, body: { code: 'T3', bogus: 1 } }], { isolation: 'snapshot' });
    expect(r.body.responses.map((x: any) => x.status)).toEqual([201, 201, 400]);
    expect(r.body.responses[2].body.error.code).toBe('BadRequest_PropertyNotFound');
    expect(await codes()).toEqual(before);
    const ok = await batch([create('1', 'T1'), create('2', 'T2')], { isolation: 'snapshot' });
    expect(ok.body.responses.map((x: any) => x.status)).toEqual([201, 201]);
    expect(await codes()).toEqual([...before, 'T1', 'T2']);
  });

  it('a create or update with ?$select answers only those fields (as the service does); a bad $select changes nothing', async () => {
    const sp = `companies(${C})/salespeoplePurchasers`;
    const r = await batch([
      { id: '1', method: 'POST', url: `${sp}?$select=id,code`, headers: { 'content-type': 'application/json' }, body: { code: 'SEL1', displayName: 'Selected' } },
      { id: '2', method: 'POST', url: `${sp}?$select=bogus`, headers: { 'content-type': 'application/json' }, body: { code: 'SEL2' } },
    ], { prefer: 'odata.continue-on-error' });
    const [a, b] = r.body.responses;
    expect(a.status).toBe(201);
    expect(Object.keys(a.body)).toEqual(['@odata.context', '@odata.etag', 'id', 'code']);
    expect(a.body.code).toBe('SEL1');
    expect(b.status).toBe(400);
    expect(b.body.error.code).toBe('BadRequest_NotFound');
    expect(await codes()).not.toContain('SEL2');
    const p = await batch([{ id: '1', method: 'PATCH', url: `${sp}(${a.body.id})?$select=displayName`, headers: { 'If-Match': '*' }, body: { displayName: 'Renamed' } }]);
    expect(p.body.responses[0].status).toBe(200);
    expect(p.body.responses[0].body).toEqual({ '@odata.context': expect.any(String), '@odata.etag': expect.stringMatching(/^W\//), displayName: 'Renamed' });
    // the same outside a batch
    const single = await fetch(`${emu.url}/erp/api/v2.0/${sp}?$select=code`, { method: 'POST', headers: AUTH, body: JSON.stringify({ code: 'SEL3' }) });
    expect(Object.keys((await single.json()) as object)).toEqual(['@odata.context', '@odata.etag', 'code']);
  });

  it('refuses more than 100 operations with the service error, doing nothing', async () => {
    const ops = Array.from({ length: 101 }, (_, i) => create(String(i), `X${i}`));
    const r = await batch(ops);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('Unknown');
    expect(r.body.error.message).toMatch(/^The current batch message contains too many parts\. A maximum number of '100' query operations and change sets are allowed in a batch message\.  CorrelationId:  [0-9a-f-]{36}\.$/);
    expect(await codes()).not.toContain('X0');
    expect((await batch(ops.slice(0, 100))).body.responses).toHaveLength(100);
  });

  it('answers per-operation errors for bad urls, methods and nested batches', async () => {
    const r = await batch([
      { id: 'a', method: 'GET', url: `companies(${C})/nothing` },
      { id: 'b', method: 'TRACE', url: `companies(${C})/salespeoplePurchasers` },
      { id: 'c', method: 'POST', url: '$batch', body: { requests: [] } },
    ], { prefer: 'odata.continue-on-error' });
    expect(r.body.responses.map((x: any) => [x.id, x.status])).toEqual([['a', 404], ['b', 400], ['c', 400]]);
    const bad = await fetch(`${emu.url}/erp/api/v2.0/$batch`, { method: 'POST', headers: AUTH, body: '{"requests": 5}' });
    expect(bad.status).toBe(400);
  });

  it('rate-limits each user and answers 429 with Retry-After', async () => {
    const get = () => fetch(`${limited.url}/erp/api/v2.0/companies`, { headers: AUTH });
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
    const r = await get();
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await r.json()) as any).error.code).toBe('Application_TooManyRequests');
    // the window runs on the emulated clock, and a reset forgets it
    limited.advanceClock(61_000);
    expect((await get()).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
    expect((await fetch(`${limited.url}/_emulator/reset`, { method: 'POST' })).status).toBeLessThan(300);
    expect((await get()).status).toBe(200);
  });
});
