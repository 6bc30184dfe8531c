// The bound actions of the entity sets and their effect on the records.
import { erpSets, type ErpSet } from '../../model/erp/index.js';
import type { EmuRequest } from '../server/index.js';
import { bad, notFound } from './errors.js';
import { newRecord } from './records.js';
import { rowsOf, touch, type Row } from './store.js';

/** Bound actions: their effect on the records. */
export function runAction(req: EmuRequest, company: string, set: ErpSet, rows: Row[], row: Row, action: string): void {
  switch (`${set.name}.${action}`) {
    case 'salesOrders.shipAndInvoice': {
      if (row.fullyShipped === true) throw bad(`The sales order ${String(row.number)} has already been shipped and invoiced`, 'Application_DialogException');
      touch(req, row, { status: 'Open', fullyShipped: true, postingDate: new Date().toISOString().slice(0, 10) });
      return;
    }
    case 'jobQueueEntries.restart':
      touch(req, row, { status: 'Ready', numberOfAttemptsToRun: 0, errorMessage: '' });
      return;
    case 'salesQuotes.send':
      touch(req, row, { status: 'Sent' });
      return;
    case 'salesQuotes.makeOrder': {
      const orderSet = erpSets().find((s) => s.name === 'salesOrders')!;
      const order = newRecord(req, orderSet, {
        customerId: row.customerId,
        customerNumber: row.customerNumber,
        currencyCode: row.currencyCode,
        paymentTermsId: row.paymentTermsId,
        salesperson: row.salesperson,
        externalDocumentNumber: row.externalDocumentNumber,
      });
      Object.assign(order, { totalAmountExcludingTax: row.totalAmountExcludingTax, totalTaxAmount: row.totalTaxAmount, totalAmountIncludingTax: row.totalAmountIncludingTax });
      rowsOf(req, company, orderSet).push(order);
      rows.splice(rows.indexOf(row), 1);
      return;
    }
    case 'salesQuotes.makeInvoice':
      rows.splice(rows.indexOf(row), 1);
      return;
  }
  throw notFound(`The action '${action}' is not bound to '${set.name}'`);
}
