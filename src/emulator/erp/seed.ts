// Seed data of the emulated business-data service: two companies, records in every entity set
// (45 sales orders, enough to page), and the customers, payment terms and shipment methods that
// sales orders link to. Deterministic: the same ids on every start.
import { erpSets, type ErpSet, type FieldDef, type ScalarType } from '../../model/erp/index.js';
import { anyObject, arrayOf, bool, both, nullable, number, recordOf, shape, text, type StateCheck } from '../state-check.js';

export const DEFAULT_COMPANY = '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f';
export const OTHER_COMPANY = '7a9c2d4e-6f80-4b1c-8d2e-3f4a5b6c7d8e';

/** a deterministic GUID from a label and a number */
export function seedGuid(kind: number, n: number): string {
  const h = (kind * 0x10000 + n).toString(16).padStart(12, '0');
  return `${(0x1000 + kind).toString(16).padStart(8, '0')}-0000-4000-8000-${h}`;
}

export function defaultValue(f: FieldDef): unknown {
  if (f.initial !== undefined) return f.initial;
  switch (f.type) {
    case 'decimal':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'guid':
      return '00000000-0000-0000-0000-000000000000';
    case 'date':
      return '0001-01-01';
    case 'datetime':
      return '0001-01-01T00:00:00Z';
    case 'time':
      return '00:00:00';
    case 'address':
      return { street: '', city: '', state: '', countryLetterCode: '', postalCode: '' };
    default:
      return f.values ? f.values[0] : '';
  }
}

/** A full record of a set: every field of the model, defaults where not given. */
export function fullRecord(setName: string, values: Record<string, unknown>): Record<string, unknown> {
  const set = erpSets().find((s) => s.name === setName)!;
  const out: Record<string, unknown> = {};
  for (const [n, f] of Object.entries(set.fields)) out[n] = values[n] !== undefined ? values[n] : defaultValue(f);
  return out;
}

const SEED_TIME = '2026-01-15T08:00:00Z';

export const CUSTOMERS = [
  ['10000', 'Adatum Corporation', '192 Market Square', 'Atlanta', 'GA', '31772'],
  ['20000', 'Trey Research', '153 Thomas Drive', 'Chicago', 'IL', '61236'],
  ['30000', 'School of Fine Art', '10 Deerfield Road', 'Miami', 'FL', '37125'],
  ['40000', 'Alpine Ski House', '10 High Tower Green', 'Denver', 'CO', '80201'],
  ['50000', 'Relecloud', '25 Water Way', 'Seattle', 'WA', '98101'],
].map(([number, displayName, street, city, state, postalCode], i) => ({
  id: seedGuid(1, i + 1),
  number,
  displayName,
  type: 'Company',
  email: `orders@${displayName.split(' ')[0].toLowerCase()}.example`,
  phoneNumber: `555-01${String(i + 1).padStart(2, '0')}`,
  address: { street, city, state, countryLetterCode: 'US', postalCode },
  currencyCode: '',
  /** the shipment method a new document of the customer starts with */
  shipmentMethodCode: i % 2 ? 'PICKUP' : 'EXW',
  blocked: ' ',
}));

/**
 * The amounts and defaults of a sales order line, every property of the v2.0 reference page
 * (dynamics_salesorderline_get.md): tax at 25 %, nothing shipped or invoiced yet.
 */
function lineAmounts(quantity: number, unitPrice: number): Record<string, unknown> {
  const net = quantity * unitPrice;
  const tax = Math.round(net * 25) / 100;
  return {
    accountId: '00000000-0000-0000-0000-000000000000',
    unitOfMeasureId: seedGuid(4, 1),
    unitOfMeasureCode: 'PCS',
    discountAmount: 0,
    discountPercent: 0,
    discountAppliedBeforeTax: false,
    amountExcludingTax: net,
    taxCode: 'FURNITURE',
    taxPercent: 25,
    totalTaxAmount: tax,
    amountIncludingTax: net + tax,
    invoiceDiscountAllocation: 0,
    netAmount: net,
    netTaxAmount: tax,
    netAmountIncludingTax: net + tax,
    shipmentDate: '2026-04-01',
    shippedQuantity: 0,
    invoicedQuantity: 0,
    invoiceQuantity: quantity,
    shipQuantity: quantity,
    itemVariantId: '00000000-0000-0000-0000-000000000000',
  };
}

export const PAYMENT_TERMS = [
  ['14 DAYS', 'Net 14 days', '14D'],
  ['1M(8D)', '1 Month/2% 8 days', '1M'],
].map(([code, displayName, dueDateCalculation], i) => ({
  id: seedGuid(2, i + 1),
  code,
  displayName,
  dueDateCalculation,
  discountDateCalculation: i ? '8D' : '',
  discountPercent: i ? 2 : 0,
  calculateDiscountOnCreditMemos: false,
  lastModifiedDateTime: '2026-01-15T08:00:00Z',
}));

export const SHIPMENT_METHODS = [
  ['EXW', 'Ex Warehouse'],
  ['PICKUP', 'Pickup at Location'],
].map(([code, displayName], i) => ({ id: seedGuid(3, i + 1), code, displayName, lastModifiedDateTime: '2026-01-15T08:00:00Z' }));

const CURRENCIES = [
  ['EUR', 'Euro', '€', '2:2', 0.01],
  ['USD', 'US dollar', '$', '2:2', 0.01],
  ['GBP', 'Pound sterling', '£', '2:2', 0.01],
  ['DKK', 'Danish krone', 'kr', '2:2', 0.01],
  ['JPY', 'Japanese yen', '¥', '0:0', 1],
];

const SALESPEOPLE = [
  ['AH', 'Annette Hill', 'Sales Manager', 5],
  ['BC', 'Benjamin Chiu', 'Account Manager', 3.5],
  ['JO', 'Jim Olive', 'Purchaser', 0],
  ['PS', 'Peter Saddow', 'Sales Representative', 2.25],
  ['MH', 'Marty Hanson', 'Purchasing Agent', 0],
];

export interface CompanyData {
  [set: string]: Record<string, unknown>[];
}

export interface ErpState {
  defaultCompany: string;
  companies: Record<string, unknown>[];
  data: Record<string, CompanyData>;
  /** sales order lines by order id */
  lines: Record<string, Record<string, unknown>[]>;
  /** the counter behind ETags and numbers */
  version: number;
  nextOrderNumber: number;
}

export function etagOf(version: number): string {
  return `W/"JzE5OzE${Buffer.from(`${version};${version * 7919}`).toString('base64').replace(/=/g, '')}Oyc="`;
}

type Rec = Record<string, unknown>;

/** Numbers the seed's records one after another: each gets the ETag of the next version. */
class Stamps {
  version = 0;

  etag(): string {
    return etagOf(++this.version);
  }

  stamp(r: Rec): Rec {
    return { '@odata.etag': this.etag(), ...r };
  }
}

function seedSalespeople(st: Stamps): Rec[] {
  return SALESPEOPLE.map(([code, displayName, jobTitle, pct], i) =>
    st.stamp(fullRecord('salespeoplePurchasers', { id: seedGuid(10, i + 1), code, displayName, jobTitle, commisionPercent: pct, email: `${String(code).toLowerCase()}@cronus.example`, lastModifiedDateTime: SEED_TIME })),
  );
}

function seedCurrencies(st: Stamps): Rec[] {
  return CURRENCIES.map(([code, displayName, symbol, places, precision], i) =>
    st.stamp(fullRecord('currencies', { id: seedGuid(11, i + 1), code, displayName, symbol, amountDecimalPlaces: places, amountRoundingPrecision: precision, lastModifiedDateTime: SEED_TIME })),
  );
}

const JOBS = [
  ['Codeunit', 1509, 'Post inventory cost to G/L', 'Ready'],
  ['Report', 795, 'Adjust cost - item entries', 'On Hold'],
  ['Codeunit', 5150, 'Sync with email', 'Error'],
  ['Codeunit', 1231, 'Bank statement import', 'Ready'],
] as const;

function seedJobQueue(st: Stamps): Rec[] {
  return JOBS.map(([type, objId, description, status], i) =>
    st.stamp(
      fullRecord('jobQueueEntries', {
        id: seedGuid(12, i + 1),
        jobQueueEntryId: `JQ${1000 + i}`,
        userId: seedGuid(9, 1),
        objectTypeToRun: type,
        objectIdToRun: objId,
        objectCaptionToRun: description,
        description,
        status,
        lastReadyState: '2026-01-15T07:00:00Z',
        earliestStartDateTime: `2026-01-${String(16 + i).padStart(2, '0')}T06:00:00Z`,
        expirationDateTime: '0001-01-01T00:00:00Z',
        referenceStartingTime: '0001-01-01T00:00:00Z',
        maxNumberAttemptsToRun: 3,
        numberOfAttemptsToRun: status === 'Error' ? 3 : 0,
        recurringJob: i % 2 === 0,
        numberOfMinutesBetweenRuns: i % 2 === 0 ? 60 : 0,
        runOnMonday: true,
        runOnTuesday: true,
        runOnWednesday: true,
        runOnThursday: true,
        runOnFridays: true,
        startingTime: '06:00:00',
        endingTime: '22:00:00',
        errorMessage: status === 'Error' ? 'The mailbox could not be reached.' : '',
        systemTaskId: seedGuid(13, i + 1),
        userLanguageId: 1033,
        jobTimeOut: 43200000,
        lastModifiedDateTime: SEED_TIME,
      }),
    ),
  );
}

const ITEMS = ['ATHENS Desk', 'PARIS Guest Chair', 'ROME Guest Chair', 'TOKYO Guest Chair', 'MEXICO Swivel Chair', 'MUNICH Swivel Chair', 'AMSTERDAM Lamp'];

/** The two lines of the i-th sales order. */
function orderLines(st: Stamps, i: number, id: string) {
  return [1, 2].map((n) => {
    const quantity = ((i + n) % 4) + 1;
    const unitPrice = 100 + ((i * 37 + n * 11) % 900);
    return {
      '@odata.etag': st.etag(),
      id: `${id.slice(0, 24)}${String(n * 10000).padStart(12, '0')}`,
      documentId: id,
      sequence: n * 10000,
      itemId: seedGuid(15, ((i + n) % 7) + 1),
      lineType: 'Item',
      lineObjectNumber: `19${String(((i + n) % 7) + 10).padStart(2, '0')}-S`,
      description: ITEMS[(i + n) % 7],
      quantity,
      unitPrice,
      ...lineAmounts(quantity, unitPrice),
    };
  });
}

const ORDER_STATUSES = ['Draft', 'Open', 'Open', 'In Review', 'Open'];

/** The i-th sales order (its lines go to `lines`), totals from its lines. */
function seedOrder(st: Stamps, i: number, currencies: Rec[], lines: Record<string, Rec[]>): Rec {
  const c = CUSTOMERS[i % CUSTOMERS.length];
  const cur = ['', 'EUR', 'USD', '', 'GBP'][i % 5];
  const currency = currencies.find((x) => x.code === cur);
  const id = seedGuid(14, i + 1);
  const ls = orderLines(st, i, id);
  lines[id] = ls;
  const net = ls.reduce((a, l) => a + l.quantity * l.unitPrice, 0);
  const tax = Math.round(net * 25) / 100;
  const day = String((i % 28) + 1).padStart(2, '0');
  return st.stamp(
    fullRecord('salesOrders', {
      id,
      number: `S-ORD${101001 + i}`,
      externalDocumentNumber: i % 3 === 0 ? `PO-${7000 + i}` : '',
      orderDate: `2026-0${(i % 3) + 1}-${day}`,
      postingDate: `2026-0${(i % 3) + 1}-${day}`,
      customerId: c.id,
      customerNumber: c.number,
      customerName: c.displayName,
      billToName: c.displayName,
      billToCustomerId: c.id,
      billToCustomerNumber: c.number,
      shipToName: c.displayName,
      sellToCity: ['Atlanta', 'Chicago', 'Miami', 'Denver', 'Seattle'][i % 5],
      sellToCountry: 'US',
      currencyId: currency?.id ?? '00000000-0000-0000-0000-000000000000',
      currencyCode: cur,
      paymentTermsId: PAYMENT_TERMS[i % 2].id,
      shipmentMethodId: SHIPMENT_METHODS[i % 2].id,
      salesperson: SALESPEOPLE[i % SALESPEOPLE.length][0],
      requestedDeliveryDate: '0001-01-01',
      totalAmountExcludingTax: net,
      totalTaxAmount: tax,
      totalAmountIncludingTax: Math.round((net + tax) * 100) / 100,
      status: ORDER_STATUSES[i % ORDER_STATUSES.length],
      fullyShipped: false,
      shortcutDimension1Code: i % 4 === 0 ? 'SALES' : '',
      email: c.email,
      lastModifiedDateTime: SEED_TIME,
    }),
  );
}

function seedQuote(st: Stamps, i: number, currencies: Rec[]): Rec {
  const c = CUSTOMERS[i % CUSTOMERS.length];
  return st.stamp(
    fullRecord('salesQuotes', {
      id: seedGuid(16, i + 1),
      number: `S-QUO${1001 + i}`,
      documentDate: `2026-02-${String(i + 1).padStart(2, '0')}`,
      dueDate: `2026-03-${String(i + 1).padStart(2, '0')}`,
      validUntilDate: `2026-03-${String(i + 15).padStart(2, '0')}`,
      customerId: c.id,
      customerNumber: c.number,
      customerName: c.displayName,
      billingPostalAddress: { ...c.address },
      currencyId: i % 2 ? (currencies.find((x) => x.code === 'EUR')?.id ?? undefined) : undefined,
      currencyCode: i % 2 ? 'EUR' : '',
      paymentTermsId: PAYMENT_TERMS[0].id,
      shipmentMethodId: SHIPMENT_METHODS.find((m) => m.code === c.shipmentMethodCode)!.id,
      shipmentMethod: c.shipmentMethodCode,
      phoneNumber: c.phoneNumber,
      email: c.email,
      sentDate: i === 5 ? '2026-02-10T09:30:00Z' : undefined,
      salesperson: 'AH',
      totalAmountExcludingTax: 1000 + i * 250,
      totalTaxAmount: (1000 + i * 250) / 4,
      totalAmountIncludingTax: (1000 + i * 250) * 1.25,
      status: i === 5 ? 'Sent' : 'Draft',
      lastModifiedDateTime: SEED_TIME,
    }),
  );
}

/** A company's sets, empty, or (`withRecords`) with the seed's records and the orders' lines. */
function companyData(st: Stamps, withRecords: boolean): { data: CompanyData; lines: Record<string, Rec[]> } {
  const data: CompanyData = Object.fromEntries(erpSets().filter((s) => s.scope !== 'root').map((s) => [s.name, []]));
  const lines: Record<string, Rec[]> = {};
  if (!withRecords) return { data, lines };
  data.salespeoplePurchasers = seedSalespeople(st);
  data.currencies = seedCurrencies(st);
  data.jobQueueEntries = seedJobQueue(st);
  data.salesOrders = Array.from({ length: 45 }, (_, i) => seedOrder(st, i, data.currencies, lines));
  data.salesQuotes = Array.from({ length: 6 }, (_, i) => seedQuote(st, i, data.currencies));
  return { data, lines };
}

function company(id: string, name: string, version: number): Rec {
  return {
    id,
    systemVersion: '26.0.12345.0',
    timestamp: 1000 + version,
    name,
    displayName: name,
    businessProfileId: '',
    systemCreatedAt: '2025-11-01T09:00:00Z',
    systemCreatedBy: '00000000-0000-0000-0000-000000000001',
    systemModifiedAt: SEED_TIME,
    systemModifiedBy: '00000000-0000-0000-0000-000000000001',
  };
}

export function seedErp(): ErpState {
  const st = new Stamps();
  const a = companyData(st, true);
  const b = companyData(st, false);
  return {
    defaultCompany: DEFAULT_COMPANY,
    companies: [company(DEFAULT_COMPANY, 'CRONUS USA, Inc.', st.version), company(OTHER_COMPANY, 'My Company', st.version)],
    data: { [DEFAULT_COMPANY]: a.data, [OTHER_COMPANY]: b.data },
    lines: { ...a.lines },
    version: st.version,
    nextOrderNumber: 101001 + 45,
  };
}

/** the JSON type of a field's values in a record */
const FIELD_CHECK: Record<ScalarType, StateCheck> = { string: text, guid: text, date: text, datetime: text, time: text, decimal: number, integer: number, boolean: bool, address: anyObject };

/** a record of a set in a --state file: an id; the model's fields, where present, of their type (or null) */
function recordCheck(set: ErpSet): StateCheck {
  const fields = Object.entries(set.fields).filter(([n]) => n !== 'id');
  return shape({ id: text, '@odata.etag': text, ...Object.fromEntries(fields.map(([n, f]) => [n, nullable(FIELD_CHECK[f.type])])) }, ['@odata.etag', ...fields.map(([n]) => n)]);
}

const COMPANY_SETS = erpSets().filter((s) => s.scope !== 'root');

/** The erp entry of a --state file (what seedErp makes). */
export const checkErpState: StateCheck = both(
  shape({
    defaultCompany: text,
    companies: arrayOf(shape({ id: text })),
    data: recordOf(shape(Object.fromEntries(COMPANY_SETS.map((s) => [s.name, arrayOf(recordCheck(s))])), COMPANY_SETS.map((s) => s.name))),
    lines: recordOf(arrayOf(anyObject)),
    version: number,
    nextOrderNumber: number,
  }),
  (v, p) => {
    const s = v as ErpState;
    return Object.prototype.hasOwnProperty.call(s.data, s.defaultCompany) ? undefined : `${p}.defaultCompany: ${JSON.stringify(s.defaultCompany)} is not a company of ${p}.data`;
  },
);
