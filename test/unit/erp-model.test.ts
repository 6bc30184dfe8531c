import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildBody, parseSets } from '../../src/api/erp/body.js';
import { UsageError } from '../../src/core/errors.js';
import { fieldHelp, registerErpSets } from '../../src/cli/erp/index.js';
import { checkValue, collectionPath, erpSets, findSet, keySegment, parseFieldText, type ErpSet } from '../../src/model/erp/index.js';

const orders = findSet('salesOrders')!;
const currencies = findSet('currencies')!;

describe('the entity-set models', () => {
  it('describe every set of the contract with consistent data', () => {
    expect(erpSets().map((s) => s.noun)).toEqual(['companies', 'salespeople', 'currencies', 'job-queue-entries', 'sales-orders', 'sales-quotes']);
    for (const s of erpSets()) {
      for (const c of s.columns) expect(s.fields[c.field], `${s.name}.${c.field}`).toBeDefined();
      if (s.naturalKey) expect(s.fields[s.naturalKey]).toBeDefined();
      expect(s.operations).toContain('list');
    }
    expect(findSet('salesorders')).toBe(orders);
    expect(findSet('salespeoplepurchasers')?.name).toBe('salespeoplePurchasers');
    expect(findSet('jobqueueentries')?.operations).toEqual(['list', 'get']);
    expect(Object.keys(orders.navigation!)).toEqual(['customer', 'dimensionValue', 'currency', 'paymentTerm', 'shipmentMethod', 'dimensionSetLines', 'salesOrderLines', 'pdfDocument', 'attachments', 'documentAttachments']);
    for (const f of ['id', 'number', 'pricesIncludeTax', 'totalAmountExcludingTax', 'totalTaxAmount', 'totalAmountIncludingTax', 'lastModifiedDateTime']) expect(orders.fields[f].readOnly, f).toBe(true);
    expect(currencies.apiVersion).toBe('v1.0');
    expect(findSet('salesQuotes')!.apiVersion).toBe('v1.0');
  });
  it('builds collection paths and keys', () => {
    expect(collectionPath(orders, 'c1')).toBe('/api/v2.0/companies(c1)/salesOrders');
    expect(collectionPath(findSet('companies')!)).toBe('/api/v2.0/companies');
    expect(keySegment('A1B2C3D4-0000-4000-8000-000000000001')).toBe('A1B2C3D4-0000-4000-8000-000000000001');
    expect(keySegment("O'x")).toBe("'O''x'");
  });
});

describe('typing --set values by the model', () => {
  it('parses each type and rejects malformed values', () => {
    const f = orders.fields;
    expect(parseFieldText(f.discountAmount, '12.5')).toBe(12.5);
    expect(parseFieldText(f.discountAmount, '-3')).toBe(-3);
    expect(() => parseFieldText(f.discountAmount, '12,5')).toThrow(/expected number/);
    expect(() => parseFieldText(f.discountAmount, '')).toThrow(/expected number/);
    expect(parseFieldText(f.fullyShipped, 'true')).toBe(true);
    expect(parseFieldText(f.fullyShipped, 'false')).toBe(false);
    // as spreadsheets write them
    expect(parseFieldText(f.fullyShipped, 'TRUE')).toBe(true);
    expect(parseFieldText(f.fullyShipped, 'False')).toBe(false);
    expect(parseFieldText(f.fullyShipped, ' true ')).toBe(true);
    expect(() => parseFieldText(f.fullyShipped, '1')).toThrow(/true or false/);
    expect(() => parseFieldText(f.fullyShipped, 'yes')).toThrow(/true or false/);
    expect(parseFieldText(f.orderDate, '2026-02-28')).toBe('2026-02-28');
    expect(() => parseFieldText(f.orderDate, '2026-13-01')).toThrow(/YYYY-MM-DD/);
    expect(() => parseFieldText(f.orderDate, '28.02.2026')).toThrow(/YYYY-MM-DD/);
    // days the calendar does not have (Date.parse reads 2026-02-30 as March 2)
    for (const d of ['2026-02-29', '2026-02-30', '2026-04-31', '2026-11-31', '1900-02-29']) expect(() => parseFieldText(f.orderDate, d), d).toThrow(/YYYY-MM-DD/);
    for (const d of ['2028-02-29', '2000-02-29', '2026-01-31', '2026-12-31', '2026-06-30']) expect(parseFieldText(f.orderDate, d)).toBe(d);
    expect(checkValue(f.orderDate, '2026-02-30')).toBe('expected date YYYY-MM-DD');
    expect(parseFieldText(f.customerId, '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f')).toBe('5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f');
    expect(() => parseFieldText(f.customerId, 'not-a-guid')).toThrow(/GUID/);
    expect(parseFieldText(f.status, 'In Review')).toBe('In Review');
    expect(() => parseFieldText(f.status, 'Closed')).toThrow(/"Draft", "In Review", "Open"/);
    expect(parseFieldText(f.externalDocumentNumber, '007')).toBe('007');
    expect(parseFieldText(f.externalDocumentNumber, 'null')).toBeNull();
    const jq = findSet('jobQueueEntries')!.fields;
    expect(parseFieldText({ ...jq.startingTime, readOnly: false }, '08:30:00')).toBe('08:30:00');
    expect(() => parseFieldText(jq.startingTime, '8:30')).toThrow(/hh:mm:ss/);
    expect(parseFieldText(jq.objectIdToRun, '1509')).toBe(1509);
    expect(() => parseFieldText(jq.objectIdToRun, '1.5')).toThrow(/whole number/);
    expect(checkValue(jq.lastModifiedDateTime, '2026-01-01T10:00:00Z')).toBeUndefined();
    expect(checkValue(jq.lastModifiedDateTime, '2026-01-01 10:00')).toMatch(/date-time/);
    expect(checkValue(jq.lastModifiedDateTime, '2026-02-30T10:00:00Z')).toMatch(/date-time/);
    expect(checkValue(jq.lastModifiedDateTime, '2024-02-29T10:00:00+01:00')).toBeUndefined();
  });
  it('applies the field rules of the notes (currency code, lengths, decimal places)', () => {
    const f = currencies.fields;
    expect(() => parseFieldText(f.code, 'ABCDEFGHIJK')).toThrow(/at most 10/);
    expect(() => parseFieldText(f.displayName, 'x'.repeat(31))).toThrow(/at most 30/);
    expect(() => parseFieldText(f.symbol, 'x'.repeat(11))).toThrow(/at most 10/);
    expect(parseFieldText(f.amountDecimalPlaces, '2:5')).toBe('2:5');
    expect(() => parseFieldText(f.amountDecimalPlaces, '2')).toThrow(/<min>:<max>/);
  });
  it('names the field and its type in usage errors; unknown and read-only fields are refused', () => {
    expect(() => parseSets(orders, ['discountAmount=abc'])).toThrow(/--set discountAmount: invalid value "abc": expected number/);
    expect(() => parseSets(orders, ['nosuch=1'])).toThrow(/unknown field "nosuch"/);
    expect(() => parseSets(orders, ['number=S-1'])).toThrow(/"number" of a sales order is read-only/);
    expect(() => parseSets(orders, ['noequals'])).toThrow(/expected field=value/);
    try {
      parseSets(orders, ['x=1']);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
    }
  });
  it('merges --data and --set (--set wins), drops @odata annotations, checks required fields on create', () => {
    expect(buildBody(currencies, 'create', { code: 'CHF', symbol: 'Fr', '@odata.etag': 'W/"x"' }, ['code=CHE', 'amountRoundingPrecision=0.05'])).toEqual({ code: 'CHE', symbol: 'Fr', amountRoundingPrecision: 0.05 });
    expect(() => buildBody(currencies, 'create', { displayName: 'x' })).toThrow(/needs code/);
    expect(() => buildBody(currencies, 'create', { code: 5 })).toThrow(/--data field "code": expected text/);
    expect(() => buildBody(currencies, 'update', { id: 'x' })).toThrow(/read-only/);
    expect(() => buildBody(currencies, 'update', [1])).toThrow(/JSON object/);
    expect(() => buildBody(currencies, 'update', undefined, [])).toThrow(/nothing to update/);
    expect(buildBody(currencies, 'update', undefined, ['symbol=F'])).toEqual({ symbol: 'F' });
  });
});

describe('one generic command tree', () => {
  const extra: ErpSet = {
    name: 'items',
    noun: 'items',
    aliases: ['products'],
    singular: 'item',
    apiVersion: 'v2.0',
    operations: ['list', 'get', 'create', 'update', 'delete'],
    fields: {
      id: { type: 'guid', readOnly: true },
      number: { type: 'string', required: true, maxLength: 20 },
      displayName: { type: 'string', maxLength: 100 },
      unitPrice: { type: 'decimal' },
      blocked: { type: 'boolean' },
    },
    columns: [{ field: 'number', header: 'Number', keep: true }, { field: 'displayName', header: 'Name' }, { field: 'unitPrice', header: 'Unit price' }, { field: 'id', header: 'ID', wide: true }],
    actions: [{ command: 'block', action: 'block', description: 'block the item', done: 'blocked' }],
  };

  it('builds every verb of a new entity set from a dozen lines of data', () => {
    const erp = new Command('erp');
    registerErpSets(erp, [extra]);
    const items = erp.commands.find((c) => c.name() === 'items')!;
    expect(items.aliases()).toEqual(['products']);
    expect(items.commands.map((c) => c.name())).toEqual(['list', 'get', 'create', 'update', 'delete', 'block', 'import', 'export']);
    const list = items.commands.find((c) => c.name() === 'list')!;
    expect(list.options.map((o) => o.long)).toEqual(['--filter', '--select', '--expand', '--orderby', '--top', '--skip', '--page-size', '--max-pages', '--company']);
    const update = items.commands.find((c) => c.name() === 'update')!;
    expect(update.options.map((o) => o.long)).toEqual(['--data', '--set', '--if-match', '--force', '--company']);
    expect(fieldHelp(extra)).toMatch(/unitPrice\s+number/);
    expect(fieldHelp(extra)).toMatch(/number\s+text \(at most 20 characters\) \(required on create\)/);
    expect(() => parseSets(extra, ['unitPrice=x'])).toThrow(/expected number/);
  });

  it('builds the real tree: read-only sets have no write verbs, sales orders have related and ship-and-invoice', () => {
    const erp = new Command('erp');
    registerErpSets(erp);
    const verbs = (noun: string) => erp.commands.find((c) => c.name() === noun)!.commands.map((c) => c.name());
    expect(verbs('companies')).toEqual(['list', 'export']);
    expect(verbs('job-queue-entries')).toEqual(['list', 'get', 'restart', 'export']);
    expect(verbs('sales-orders')).toEqual(['list', 'get', 'create', 'update', 'delete', 'ship-and-invoice', 'import', 'export', 'related']);
    expect(verbs('sales-quotes')).toEqual(['list', 'get', 'create', 'update', 'delete', 'make-order', 'make-invoice', 'send', 'import', 'export']);
    expect(erp.commands.find((c) => c.name() === 'companies')!.commands[0].options.map((o) => o.long)).not.toContain('--company');
  });
});
