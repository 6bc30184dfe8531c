// What the service fills in when a record is created: ids, times, ETags, the numbers of sales
// documents and what a sales document takes from its customer, checked as the API pages check it.
import { randomUUID } from 'node:crypto';
import type { ErpSet } from '../../model/erp/index.js';
import type { EmuRequest } from '../server/index.js';
import { dialog } from './errors.js';
import { CUSTOMERS, fullRecord, PAYMENT_TERMS, SHIPMENT_METHODS } from './seed.js';
import { nextEtag, st, type Row } from './store.js';

/** What the service fills in on create. */
export function newRecord(req: EmuRequest, set: ErpSet, body: Row, company?: Record<string, Row[]>): Row {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const s = st(req);
  const extra: Row = { id: randomUUID(), lastModifiedDateTime: now };
  if (set.name === 'salesOrders') {
    const c = sellToCustomer(body, NO_CUSTOMER.salesOrders);
    Object.assign(extra, { customerId: c.id, customerNumber: c.number, customerName: body.customerName ?? c.displayName });
    extra.number = `S-ORD${s.nextOrderNumber++}`;
    if (body.orderDate === undefined) extra.orderDate = now.slice(0, 10);
    if (body.status === undefined) extra.status = 'Draft';
  }
  if (set.name === 'salesQuotes') Object.assign(extra, { number: `S-QUO${1000 + s.version}` }, quoteFromCustomer(body, company?.currencies ?? []));
  return { '@odata.etag': nextEtag(req), ...fullRecord(set.name, { ...body, ...extra }) };
}

/** the API pages' message for a sales document without a customer (v1.0 writes the names bare, v2.0 quoted) */
export const NO_CUSTOMER: Record<string, string> = { salesQuotes: 'A customerNumber or a customerId must be provided.', salesOrders: 'A "customerNumber" or a "customerId" must be provided.' };

/**
 * The sell-to customer of a new sales document, as the API pages check it ("APIV1 - Sales Quotes",
 * "APIV2 - Sales Orders"): customerId or customerNumber must name a customer, and both the same one.
 * `missing` is the page's message when neither is given (v1.0 writes the names bare, v2.0 quoted).
 */
export function sellToCustomer(body: Row, missing: string): (typeof CUSTOMERS)[number] {
  if (body.customerId === undefined && (body.customerNumber === undefined || body.customerNumber === '')) throw dialog(missing);
  const byId = body.customerId !== undefined ? CUSTOMERS.find((c) => c.id === String(body.customerId).toLowerCase()) : undefined;
  if (body.customerId !== undefined && !byId) throw dialog('The sell-to customer cannot be found.');
  const byNumber = body.customerNumber !== undefined ? CUSTOMERS.find((c) => c.number === body.customerNumber) : undefined;
  if (byId && body.customerNumber !== undefined && byId.number !== body.customerNumber) throw dialog('The sell-to customer values do not match to a specific Customer.');
  const c = byId ?? byNumber;
  if (!c) throw dialog('The sell-to customer cannot be found.');
  return c;
}

/**
 * What a new v1.0 sales quote takes from its customer (the checks and messages of the API page
 * "APIV1 - Sales Quotes"): customerId or customerNumber must name a customer (both must agree);
 * the name, billing address, phone, e-mail and shipment method come from it; currencyCode and
 * paymentTermsId must exist. Values in the body win over the customer's.
 */
function quoteFromCustomer(body: Row, currencies: Row[]): Row {
  const c = sellToCustomer(body, NO_CUSTOMER.salesQuotes);
  const out: Row = { customerId: c.id, customerNumber: c.number, customerName: c.displayName, billingPostalAddress: { ...c.address }, phoneNumber: c.phoneNumber, email: c.email };
  if (typeof body.currencyCode === 'string' && body.currencyCode !== '') {
    const cur = currencies.find((x) => String(x.code).toUpperCase() === String(body.currencyCode).toUpperCase());
    if (!cur) throw dialog('The "currencyCode" does not match to a Currency.');
    out.currencyId = cur.id;
  } else if (typeof body.currencyId === 'string' && body.currencyId !== '00000000-0000-0000-0000-000000000000') {
    const cur = currencies.find((x) => x.id === body.currencyId);
    if (!cur) throw dialog('The "currencyId" does not match to a Currency.');
    out.currencyCode = cur.code;
  }
  if (typeof body.paymentTermsId === 'string' && !PAYMENT_TERMS.some((p) => p.id === body.paymentTermsId)) throw dialog('The "paymentTermsId" does not match to a Payment Terms.');
  const method = typeof body.shipmentMethodId === 'string' ? SHIPMENT_METHODS.find((m) => m.id === body.shipmentMethodId) : SHIPMENT_METHODS.find((m) => m.code === c.shipmentMethodCode);
  if (!method) throw dialog('The "shipmentMethodId" does not match to a Shipment Method.');
  Object.assign(out, { shipmentMethodId: method.id, shipmentMethod: method.code });
  for (const k of Object.keys(out)) if (k !== 'customerId' && k !== 'customerName' && body[k] !== undefined && body[k] !== null) delete out[k];
  return out;
}
