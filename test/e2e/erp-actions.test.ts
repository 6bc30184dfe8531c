// Bound actions and navigation properties of the erp tree against the emulator.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runInProc } from '../helpers/inproc.js';

const e2e = useEmulator();
const ORDER = '0000100e-0000-4000-8000-0000000e0001';
const QUOTE = '00001010-0000-4000-8000-000000100001';
const JOB_IN_ERROR = '0000100c-0000-4000-8000-0000000c0003';
const json = (s: string) => JSON.parse(s);
const company = () => e2e.emu.state.erp.defaultCompany as string;
const store = (set: string) => e2e.emu.state.erp.data[company()][set] as Record<string, any>[];

describe('sales-orders ship-and-invoice', () => {
  it('POSTs the bound action Vendor.NAV.shipAndInvoice; 204 prints nothing; the order is shipped', async () => {
    const before = store('salesOrders')[0]['@odata.etag'];
    const r = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', ORDER, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
    expect(e2e.emu.log.map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([`POST /api/v2.0/companies(${company()})/salesOrders(${ORDER})/Vendor.NAV.shipAndInvoice 204`]);
    const o = store('salesOrders')[0];
    expect(o).toMatchObject({ fullyShipped: true, status: 'Open' });
    expect(o['@odata.etag']).not.toBe(before);
    const again = await e2e.run(['erp', 'salesorders', 'ship-and-invoice', ORDER, '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already been shipped and invoiced/);
  });

  it('takes the namespace from erp.actionNamespace', async () => {
    const dry = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', ORDER, '--dry-run'], { env: { VX_ERP_ACTION_NAMESPACE: 'Contoso.API' } });
    expect(json(dry.stdout)[0]).toMatchObject({ method: 'POST', url: `${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies(${company()})/salesOrders(${ORDER})/Contoso.API.shipAndInvoice` });
    expect(json(dry.stdout)[0].body).toBeUndefined();
    const r = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', ORDER, '--yes'], { env: { VX_ERP_ACTION_NAMESPACE: 'Contoso.API' } });
    expect(r.code).toBe(4);
    const bad = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', ORDER, '--yes'], { env: { VX_ERP_ACTION_NAMESPACE: 'no spaces/allowed' } });
    expect(bad.code).toBe(2);
    expect(e2e.emu.count({ family: 'erp' })).toBe(1);
  });

  it('a missing order is exit 4; a malformed id exit 2 with nothing sent', async () => {
    expect((await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', '11111111-2222-4333-8444-555555555555', '--yes'])).code).toBe(4);
    // a key longer than an order number can be is neither a GUID nor a number
    expect((await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', 'S-ORD-123456789012345678', '--yes'])).code).toBe(2);
    expect(e2e.emu.count({ family: 'erp' })).toBe(1);
  });
});

describe('other bound actions', () => {
  it('job-queue-entries restart sets the entry Ready', async () => {
    const r = await e2e.run(['erp', 'job-queue-entries', 'restart', JOB_IN_ERROR]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(store('jobQueueEntries')[2]).toMatchObject({ status: 'Ready', numberOfAttemptsToRun: 0, errorMessage: '' });
    expect(e2e.emu.log[0].path).toMatch(/jobQueueEntries\([^)]+\)\/Vendor\.NAV\.restart$/);
  });

  it('sales-quotes send, make-order and make-invoice', async () => {
    expect((await e2e.run(['erp', 'sales-quotes', 'send', QUOTE, '--yes'])).code).toBe(0);
    expect(store('salesQuotes')[0].status).toBe('Sent');
    expect((await e2e.run(['erp', 'salesquotes', 'make-order', QUOTE, '--yes'])).code).toBe(0);
    expect(store('salesQuotes').find((q) => q.id === QUOTE)).toBeUndefined();
    expect(store('salesOrders')).toHaveLength(46);
    expect(store('salesOrders')[45]).toMatchObject({ customerNumber: '10000', status: 'Draft' });
    const second = store('salesQuotes')[0].id;
    expect((await e2e.run(['erp', 'sales-quotes', 'make-invoice', second, '--yes'])).code).toBe(0);
    expect(store('salesQuotes')).toHaveLength(4);
    expect(e2e.emu.log.filter((l) => l.method === 'POST').map((l) => l.path.replace(/^.*\)\//, ''))).toEqual(['Vendor.NAV.send', 'Vendor.NAV.makeOrder', 'Vendor.NAV.makeInvoice']);
  });

  it('make-order prints the order it made: -o json the record, at a terminal the number on stderr', async () => {
    const quote = store('salesQuotes')[0];
    const r = await e2e.run(['erp', 'sales-quotes', 'make-order', quote.number, '-o', 'json', '--yes']);
    expect(r.code).toBe(0);
    const made = store('salesOrders').at(-1)!;
    expect(json(r.stdout)).toMatchObject({ id: made.id, number: made.number, customerNumber: quote.customerNumber, '@odata.etag': made['@odata.etag'] });
    // the quote is read by its number, the orders holding its values before and after, the action, the order made
    expect(e2e.emu.log.map((l) => `${l.method} ${decodeURIComponent(l.path.replace(/^.*\)\//, ''))}`)).toEqual([
      `GET salesQuotes?$filter=number eq '${quote.number}'&$top=10`,
      `GET salesOrders?$filter=customerNumber eq '10000' and totalAmountIncludingTax eq ${quote.totalAmountIncludingTax}&$select=id&$top=1000`,
      'POST Vendor.NAV.makeOrder',
      `GET salesOrders?$filter=customerNumber eq '10000' and totalAmountIncludingTax eq ${quote.totalAmountIncludingTax}&$select=id&$top=1000`,
      `GET salesOrders(${made.id})`,
    ]);
    const second = store('salesQuotes')[0];
    const t = await runInProc(['erp', 'sales-quotes', 'make-order', second.id, '--yes'], { env: e2e.env, network: true, stderrTTY: true });
    expect(t.code).toBe(0);
    const next = store('salesOrders').at(-1)!;
    expect(t.stderr).toContain(`sales quote ${second.id} turned into a sales order: sales order ${next.number}`);
    expect(json(t.stdout)).toMatchObject({ number: next.number });
  });
});

describe('sales-orders related', () => {
  it('returns single navigations as the entity and list navigations as one array', async () => {
    const customer = await e2e.run(['erp', 'sales-orders', 'related', ORDER, 'customer']);
    expect(customer.code).toBe(0);
    expect(json(customer.stdout)).toMatchObject({ number: '10000', displayName: 'Adatum Corporation' });
    expect(e2e.emu.log[0].path).toBe(`/api/v2.0/companies(${company()})/salesOrders(${ORDER})/customer`);
    const lines = await e2e.run(['erp', 'sales-orders', 'related', ORDER, 'salesOrderLines', '--page-size', '1']);
    expect(json(lines.stdout).map((l: any) => l.sequence)).toEqual([10000, 20000]);
    expect(e2e.emu.count({ family: 'erp', path: '/salesOrderLines' })).toBe(2);
    const filtered = await e2e.run(['erp', 'sales-orders', 'related', ORDER, 'salesOrderLines', '--filter', 'sequence gt 10000']);
    expect(json(filtered.stdout)).toHaveLength(1);
    for (const nav of ['paymentTerm', 'shipmentMethod', 'dimensionValue', 'pdfDocument']) {
      const r = await e2e.run(['erp', 'sales-orders', 'related', ORDER, nav]);
      expect(r.code, nav).toBe(0);
      expect(json(r.stdout)['@odata.context'], nav).toContain(`/${nav}/$entity`);
    }
    for (const nav of ['dimensionSetLines', 'attachments', 'documentAttachments']) {
      const r = await e2e.run(['erp', 'sales-orders', 'related', ORDER, nav]);
      expect(r.code, nav).toBe(0);
      expect(json(r.stdout), nav).toEqual([]);
    }
    // at a terminal an empty list says so, as the lists do
    const empty = await e2e.run(['erp', 'sales-orders', 'related', ORDER, 'dimensionSetLines', '-o', 'table']);
    expect([empty.code, empty.stdout, empty.stderr]).toEqual([0, 'no dimensionSetLines records\n', '']);
    const currency = await e2e.run(['erp', 'sales-orders', 'related', '0000100e-0000-4000-8000-0000000e0002', 'currency']);
    expect(json(currency.stdout).code).toBe('EUR');
    // an order in the local currency relates none: the service answers 204 No Content (OData 4.0
    // part 1, 11.2.6); vx prints nothing, as for any 204, and exits 0 (it was exit 4, and a real
    // service's 204 was exit 1 'the response is not valid JSON')
    const none = await e2e.run(['erp', 'sales-orders', 'related', ORDER, 'currency', '-o', 'json']);
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
    expect(e2e.emu.log.at(-1)).toMatchObject({ method: 'GET', status: 204 });
    const missing = await e2e.run(['erp', 'sales-orders', 'related', '0000100e-0000-4000-8000-0000000e9999', 'currency']);
    expect(missing.code).toBe(4);
  });

  it('saves the PDF content with --out, atomically', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vx-pdf-'));
    const out = join(dir, 'order.pdf');
    writeFileSync(out, 'old');
    const r = await e2e.run(['erp', 'sales-orders', 'related', ORDER, 'pdfDocument', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const pdf = readFileSync(out);
    expect(pdf.subarray(0, 8).toString()).toBe('%PDF-1.4');
    expect(pdf.toString('latin1')).toContain('S-ORD101001');
    expect(readdirSync(dir)).toEqual(['order.pdf']);
    expect(e2e.emu.log.map((l) => l.path)).toEqual([`/api/v2.0/companies(${company()})/salesOrders(${ORDER})/pdfDocument/pdfDocumentContent`]);
    const missingDir = await e2e.run(['erp', 'sales-orders', 'related', ORDER, 'pdfDocument', '--out', join(dir, 'nope', 'x.pdf')]);
    expect(missingDir.code).toBe(2);
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  });

  it('refuses unknown navigations, --out elsewhere and list options on single navigations: exit 2, nothing sent', async () => {
    for (const args of [
      ['erp', 'sales-orders', 'related', ORDER, 'invoices'],
      ['erp', 'sales-orders', 'related', ORDER, 'customer', '--out', 'x.pdf'],
      ['erp', 'sales-orders', 'related', ORDER, 'customer', '--top', '2'],
      ['erp', 'sales-orders', 'related', 'S-ORD-123456789012345678', 'customer'],
    ]) {
      const r = await e2e.run(args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(e2e.emu.count({ family: 'erp' })).toBe(0);
  });

  it('expands sales order lines in a list', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'list', '--top', '3', '--expand', 'salesOrderLines']);
    const list = json(r.stdout);
    expect(list).toHaveLength(3);
    for (const o of list) expect(o.salesOrderLines.every((l: any) => l.documentId === o.id)).toBe(true);
  });
});
