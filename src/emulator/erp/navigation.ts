// The navigation properties of the records (what the emulator can resolve: a sales order's
// customer, currency, lines, PDF document, ...).
import type { ErpSet } from '../../model/erp/index.js';
import type { EmuRequest } from '../server/index.js';
import { bad, parseKey } from './errors.js';
import { CUSTOMERS, PAYMENT_TERMS, SHIPMENT_METHODS } from './seed.js';
import { base, companyData, st, type Row } from './store.js';

/** A customer as the v2.0 API shows it (every property of dynamics_customer_get.md). */
function customerEntity(c: (typeof CUSTOMERS)[number]): Row {
  const a = c.address;
  return {
    id: c.id,
    number: c.number,
    displayName: c.displayName,
    type: c.type,
    addressLine1: a.street,
    addressLine2: '',
    city: a.city,
    state: a.state,
    country: a.countryLetterCode,
    postalCode: a.postalCode,
    phoneNumber: c.phoneNumber,
    email: c.email,
    website: '',
    taxLiable: true,
    taxAreaId: '00000000-0000-0000-0000-000000000000',
    taxAreaDisplayName: '',
    taxRegistrationNumber: '',
    currencyId: '00000000-0000-0000-0000-000000000000',
    currencyCode: c.currencyCode,
    paymentTermsId: PAYMENT_TERMS[0].id,
    shipmentMethodId: SHIPMENT_METHODS.find((m) => m.code === c.shipmentMethodCode)?.id ?? '00000000-0000-0000-0000-000000000000',
    paymentMethodId: '00000000-0000-0000-0000-000000000000',
    blocked: c.blocked,
    lastModifiedDateTime: '2026-01-15T08:00:00Z',
  };
}

export type NavValue = Row | Row[] | null;

export function navigate(req: EmuRequest, company: string, set: ErpSet, row: Row, nav: string): NavValue {
  if (!set.navigation?.[nav]) throw bad(`Could not find a navigation property named '${nav}' on '${set.name}'`);
  const link = `${base(req)}/api/${set.apiVersion}/companies(${parseKey(company)})/${set.name}(${row.id})`;
  switch (nav) {
    case 'customer': {
      const c = CUSTOMERS.find((x) => x.id === row.customerId || x.number === row.customerNumber);
      return c ? customerEntity(c) : null;
    }
    case 'currency': {
      const cur = companyData(req, company).currencies ?? [];
      return cur.find((c) => c.id === row.currencyId || (row.currencyCode && c.code === row.currencyCode)) ?? null;
    }
    case 'paymentTerm':
      return PAYMENT_TERMS.find((p) => p.id === row.paymentTermsId) ?? null;
    case 'shipmentMethod':
      return SHIPMENT_METHODS.find((p) => p.id === row.shipmentMethodId) ?? null;
    case 'dimensionValue':
      return row.shortcutDimension1Code ? { id: `${String(row.id).slice(0, 24)}dddddddddddd`, code: row.shortcutDimension1Code, dimensionId: '00000000-0000-0000-0000-0000000000d1', displayName: 'Sales department', lastModifiedDateTime: '2026-01-15T08:00:00Z' } : null;
    case 'salesOrderLines':
      return st(req).lines[String(row.id)] ?? [];
    case 'pdfDocument':
      return { id: row.id, parentId: row.id, parentType: 'Sales Order', 'pdfDocumentContent@odata.mediaReadLink': `${link}/pdfDocument/pdfDocumentContent` };
    case 'attachments':
    case 'documentAttachments':
    case 'dimensionSetLines':
      return [];
  }
  return null;
}

/** A minimal, valid one-page PDF naming the order. */
export function pdfOf(row: Row): Buffer {
  const text = `Sales order ${String(row.number)} for ${String(row.customerName)}`.replace(/[()\\]/g, '');
  const content = `BT /F1 14 Tf 72 720 Td (${text}) Tj ET`;
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
