// Records named by their human key (a sales order's number, a currency's or salesperson's code)
// wherever a GUID is accepted: one $filter read resolves it; no match or several is exit 4 with
// the matches listed; --dry-run plans the read.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runVx, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const erpLog = () => e2e.emu.log.filter((l) => l.family === 'erp');
const ORDER_ID = '0000100e-0000-4000-8000-0000000e0001';

describe('erp records by their human key', () => {
  it('get by number: one $filter read, the record printed', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'get', 'S-ORD101001', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const order = JSON.parse(r.stdout);
    expect([order.id, order.number, order.customerName]).toEqual([ORDER_ID, 'S-ORD101001', 'Adatum Corporation']);
    expect(erpLog().map((l) => `${l.method} ${decodeURIComponent(l.path)}`)).toEqual([
      expect.stringMatching(/^GET \/api\/v2\.0\/companies\([0-9a-f-]+\)\/salesOrders\?\$filter=number eq 'S-ORD101001'&\$top=10$/),
    ]);
  });

  it('a stale ETag on an update or delete by number names the record as the person named it', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'update', 'S-ORD101001', '--if-match', 'W/"stale"', '--set', 'externalDocumentNumber=PO-1']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^vx: the sales order S-ORD101001 \(Adatum Corporation\) was changed by someone else since its ETag was read; it was left as it was\. Read it again and retry \(HTTP 412 /);
    const d = await e2e.run(['erp', 'currencies', 'delete', 'EUR', '--if-match', 'W/"stale"', '--yes']);
    expect(d.code).toBe(5);
    expect(d.stderr).toMatch(/^vx: the currency EUR \(Euro\) was changed by someone else since its ETag was read; it was left as it was\./);
  });

  it('get by code with --select keeps the selection', async () => {
    const r = await e2e.run(['erp', 'currencies', 'get', 'EUR', '--select', 'code,displayName', '-o', 'json']);
    expect(r.code).toBe(0);
    const cur = JSON.parse(r.stdout);
    expect([cur.code, cur.displayName, cur.symbol]).toEqual(['EUR', 'Euro', undefined]);
    expect(decodeURIComponent(erpLog()[0]!.path)).toMatch(/\/currencies\?\$filter=code eq 'EUR'&\$select=code,displayName&\$top=10$/);
  });

  it('update by code: the ETag of the $filter read guards the PATCH (two requests)', async () => {
    const before = await e2e.run(['erp', 'salespeople', 'get', 'AH', '-o', 'json']);
    const etag = JSON.parse(before.stdout)['@odata.etag'];
    e2e.emu.reset();
    const r = await e2e.run(['erp', 'salespeople', 'update', 'AH', '--set', 'jobTitle=Director', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).jobTitle).toBe('Director');
    const log = erpLog();
    expect(log.map((l) => l.method)).toEqual(['GET', 'PATCH']);
    expect(log[1]!.headers!['if-match']).toBe(etag);
    expect(log[1]!.path).toMatch(/\/salespeoplePurchasers\(0000100a-0000-4000-8000-0000000a0001\)$/);
  });

  it('ship-and-invoice by number', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', 'S-ORD101001', '--yes']);
    expect(r.code).toBe(0);
    expect(erpLog().map((l) => `${l.method} ${l.path.replace(/\?.*/, '')}`)).toEqual([
      expect.stringMatching(/^GET .*\/salesOrders$/),
      expect.stringMatching(new RegExp(`^POST .*/salesOrders\\(${ORDER_ID}\\)/Vendor\\.NAV\\.shipAndInvoice$`)),
    ]);
  });

  it('a number nobody has: exit 4 naming the key, nothing else sent', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'delete', 'S-NOPE', '--yes']);
    expect(r.code).toBe(4);
    expect(r.stderr).toBe("vx: no sales order has number 'S-NOPE' (name a record by its number or its id; list them with `vx erp sales-orders list`)\n");
    expect(erpLog().map((l) => l.method)).toEqual(['GET']);
  });

  it('delete by code without --yes off a terminal: exit 2 before anything is read', async () => {
    const r = await e2e.run(['erp', 'currencies', 'delete', 'EUR']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^vx: Delete currency EUR: confirmation needed; pass --yes/);
    expect(erpLog()).toEqual([]);
  });

  it('delete by code with --yes: DELETE of the resolved id with the read ETag', async () => {
    const r = await e2e.run(['erp', 'currencies', 'delete', 'EUR', '--yes']);
    expect(r.code).toBe(0);
    const log = erpLog();
    expect(log.map((l) => l.method)).toEqual(['GET', 'DELETE']);
    expect(log[1]!.path).toMatch(/\/currencies\(0000100b-0000-4000-8000-0000000b0001\)$/);
    expect(log[1]!.headers!['if-match']).toMatch(/^W\//);
  });

  it('--dry-run plans the $filter read and shows the action on a placeholder id', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', 'S-ORD101001', '--dry-run']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { method: string; url: string }[];
    expect(plan.map((p) => p.method)).toEqual(['GET', 'POST']);
    expect(decodeURIComponent(plan[0]!.url)).toContain("$filter=number eq 'S-ORD101001'");
    expect(plan[1]!.url).toMatch(/\/salesOrders\(<id of sales order S-ORD101001>\)\/Vendor\.NAV\.shipAndInvoice$/);
    expect(erpLog()).toEqual([]);
  });

  it('--dry-run of update and delete by a human key plans the one $filter read whose record gives the ETag, then the write: not a second read by id that the real run never sends', async () => {
    const real = await e2e.run(['erp', 'currencies', 'update', 'EUR', '--set', 'symbol=E']);
    expect(real.code, real.stderr).toBe(0);
    expect(erpLog().map((l) => l.method)).toEqual(['GET', 'PATCH']);
    e2e.emu.log.length = 0;
    for (const [verb, write, more] of [['update', 'PATCH', ['--set', 'symbol=E']], ['delete', 'DELETE', []]] as const) {
      const r = await e2e.run(['erp', 'currencies', verb, 'EUR', ...more, '--dry-run']);
      expect(r.code, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as { method: string; url: string; headers: Record<string, string> }[];
      expect(plan.map((p) => p.method), verb).toEqual(['GET', write]);
      expect(decodeURIComponent(plan[0]!.url)).toContain("$filter=code eq 'EUR'");
      expect(plan[1]!.url).toMatch(/\/currencies\('<id of currency EUR>'\)$/);
      expect(plan[1]!.headers['if-match']).toBe('<@odata.etag of a fresh GET>');
    }
    const get = await e2e.run(['erp', 'currencies', 'get', 'EUR', '--dry-run']);
    expect(JSON.parse(get.stdout).map((p: { method: string }) => p.method)).toEqual(['GET']);
    expect(erpLog()).toEqual([]);
  });

  it('a job-queue entry is named by its description: one no entry has is not found', async () => {
    const r = await e2e.run(['erp', 'job-queue-entries', 'get', 'JQ-1']);
    expect(r.code).toBe(4);
    expect(r.stderr).toBe("vx: no job queue entry has description 'JQ-1' (name a record by its description or its id; list them with `vx erp job-queue-entries list`)\n");
  });
});

describe('several records with the same key', () => {
  let server: Server;
  let prefix: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          value: [
            { id: '11111111-1111-4111-8111-111111111111', code: 'EUR', displayName: 'Euro' },
            { id: '22222222-2222-4222-8222-222222222222', code: 'EUR', displayName: 'Euro (old)' },
          ],
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const a = server.address();
    prefix = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('exit 4 listing the matches', async () => {
    const r = await runVx(['erp', 'currencies', 'get', 'EUR', '--company', ORDER_ID], {
      configDir: tempDir(),
      env: { VX_ERP_PREFIX: prefix, VX_ERP_TOKEN: 't' },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      "vx: 2 currency records have code 'EUR': EUR 11111111-1111-4111-8111-111111111111, EUR 22222222-2222-4222-8222-222222222222; name one by its id\n",
    );
  });
});
