// The routes of the business-data service: companies, and for each entity set of a company its
// collection (list, count, create), its records (get, update, delete), their navigation
// properties and document content, and their bound actions.
import type { ErpSet } from '../../model/erp/index.js';
import type { EmuReply, EmuRequest, Route } from '../server/index.js';
import { notFound, parseKey } from './errors.js';
import { runAction } from './actions.js';
import { navigate, pdfOf } from './navigation.js';
import { NO_CUSTOMER, newRecord, sellToCustomer } from './records.js';
import { countReply, entityReply, listReply, projection, shape } from './replies.js';
import { base, checkBody, checkIfMatch, companyData, findRow, need, rowsOf, setFor, st, touch, uniqueCode } from './store.js';

/** the namespace of bound actions the emulated service knows */
export const EMU_ACTION_NAMESPACE = 'Vendor.NAV';

const V = '(?<v>v\\d+\\.\\d+)';
const COMPANY = `companies\\((?<c>[^()/]*)\\)`;
const RECORD = `^/api/${V}/${COMPANY}/(?<set>\\w+)\\((?<id>[^()/]*)\\)`;

/** The @odata.context of a company's set (and what follows it: `/$entity`, a navigation). */
const contextOf = (req: EmuRequest, set: ErpSet, suffix = '') => `${base(req)}/api/${req.params.v}/$metadata#companies(${parseKey(req.params.c)})/${set.name}${suffix}`;

/** The company's set the path names, if it allows `op`. */
function companySet(req: EmuRequest, op: string): ErpSet {
  const set = setFor(req.params.set, req.params.v, 'company');
  need(set, op);
  return set;
}

function listCompanies(req: EmuRequest): EmuReply {
  const set = setFor('companies', req.params.v, 'root');
  const ctx = `${base(req)}/api/${req.params.v}/$metadata#companies`;
  return listReply(req, st(req).companies, ctx, (n) => n in set.fields, (r) => shape(req, undefined, set, r));
}

function countCompanies(req: EmuRequest): EmuReply {
  const set = setFor('companies', req.params.v, 'root');
  return countReply(req, st(req).companies, (n) => n in set.fields);
}

function getCompany(req: EmuRequest): EmuReply {
  const id = parseKey(req.params.c);
  const c = st(req).companies.find((x) => x.id === id);
  if (!c) throw notFound(`The company '${id}' does not exist`);
  return { status: 200, body: { '@odata.context': `${base(req)}/api/${req.params.v}/$metadata#companies/$entity`, ...c } };
}

function countRows(req: EmuRequest): EmuReply {
  const set = companySet(req, 'list');
  return countReply(req, rowsOf(req, req.params.c, set), (n) => n in set.fields);
}

function listRows(req: EmuRequest): EmuReply {
  const set = companySet(req, 'list');
  const rows = rowsOf(req, req.params.c, set);
  return listReply(req, rows, contextOf(req, set), (n) => n in set.fields, (r) => shape(req, req.params.c, set, r));
}

function createRow(req: EmuRequest): EmuReply {
  const set = companySet(req, 'create');
  const rows = rowsOf(req, req.params.c, set);
  const project = projection(req, req.params.c, set);
  const body = checkBody(req, set, true);
  uniqueCode(set, rows, body);
  const row = newRecord(req, set, body, companyData(req, req.params.c));
  rows.push(row);
  return entityReply(req, 201, contextOf(req, set, '/$entity'), project ? project(row) : row);
}

function getRow(req: EmuRequest): EmuReply {
  const set = companySet(req, 'get');
  const row = findRow(rowsOf(req, req.params.c, set), set, parseKey(req.params.id));
  return entityReply(req, 200, contextOf(req, set, '/$entity'), shape(req, req.params.c, set, row));
}

function updateRow(req: EmuRequest): EmuReply {
  const set = companySet(req, 'update');
  const rows = rowsOf(req, req.params.c, set);
  const row = findRow(rows, set, parseKey(req.params.id));
  const project = projection(req, req.params.c, set);
  checkIfMatch(req, row);
  const body = checkBody(req, set, false);
  uniqueCode(set, rows, body, row);
  if ((set.name === 'salesOrders' || set.name === 'salesQuotes') && (body.customerId !== undefined || body.customerNumber !== undefined)) {
    // another sell-to customer: validated as on create, its id, number and name come along
    // (a quote's name is read-only, so it is always the customer's)
    const c = sellToCustomer(body, NO_CUSTOMER[set.name]);
    Object.assign(body, { customerId: c.id, customerNumber: c.number, customerName: body.customerName ?? c.displayName });
  }
  touch(req, row, body);
  return entityReply(req, 200, contextOf(req, set, '/$entity'), project ? project(row) : row);
}

function deleteRow(req: EmuRequest): EmuReply {
  const set = companySet(req, 'delete');
  const rows = rowsOf(req, req.params.c, set);
  const row = findRow(rows, set, parseKey(req.params.id));
  checkIfMatch(req, row);
  rows.splice(rows.indexOf(row), 1);
  if (set.name === 'salesOrders') delete st(req).lines[String(row.id)];
  return { status: 204 };
}

function related(req: EmuRequest): EmuReply {
  const set = companySet(req, 'get');
  const row = findRow(rowsOf(req, req.params.c, set), set, parseKey(req.params.id));
  const nav = req.params.nav;
  if (req.params.content) {
    if (nav !== 'pdfDocument' || !set.navigation?.pdfDocument) throw notFound(`'${nav}' has no content stream`);
    return { status: 200, headers: { 'content-type': 'application/pdf' }, raw: pdfOf(row) };
  }
  const value = navigate(req, req.params.c, set, row, nav);
  const ctx = contextOf(req, set, `(${String(row.id)})/${nav}`);
  if (Array.isArray(value)) {
    const fields = new Set(value.flatMap((r) => Object.keys(r)));
    return listReply(req, value, ctx, (n) => fields.has(n) || value.length === 0, (r) => r);
  }
  // no related entity: 204 No Content (OData 4.0 part 1, 11.2.6), not an error
  if (value === null) return { status: 204 };
  return { status: 200, body: { '@odata.context': `${ctx}/$entity`, ...value } };
}

function boundAction(req: EmuRequest): EmuReply {
  const set = setFor(req.params.set, req.params.v, 'company');
  if (req.params.ns !== EMU_ACTION_NAMESPACE) throw notFound(`The namespace '${req.params.ns}' is not known; bound actions live in ${EMU_ACTION_NAMESPACE}`);
  const action = set.actions?.find((a) => a.action === req.params.action);
  if (!action) throw notFound(`The action '${req.params.action}' is not bound to '${set.name}'`);
  const rows = rowsOf(req, req.params.c, set);
  const row = findRow(rows, set, parseKey(req.params.id));
  runAction(req, req.params.c, set, rows, row, action.action);
  return { status: 204 };
}

export function erpRoutes(): Route[] {
  return [
    { method: 'GET', path: new RegExp(`^/api/${V}/(?<set>companies)$`), handler: listCompanies },
    { method: 'GET', path: new RegExp(`^/api/${V}/(?<set>companies)/(?:\\$|%24)count$`), handler: countCompanies },
    { method: 'GET', path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)/(?:\\$|%24)count$`), handler: countRows },
    { method: 'GET', path: new RegExp(`^/api/${V}/${COMPANY}$`), handler: getCompany },
    { method: 'GET', path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)$`), handler: listRows },
    { method: 'POST', path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)$`), handler: createRow },
    { method: 'GET', path: new RegExp(`${RECORD}$`), handler: getRow },
    { method: 'PATCH', path: new RegExp(`${RECORD}$`), handler: updateRow },
    { method: 'DELETE', path: new RegExp(`${RECORD}$`), handler: deleteRow },
    { method: 'GET', path: new RegExp(`${RECORD}/(?<nav>\\w+)(?<content>/pdfDocumentContent)?$`), handler: related },
    { method: 'POST', path: new RegExp(`${RECORD}/(?<ns>[A-Za-z_][\\w.]*)\\.(?<action>\\w+)$`), handler: boundAction },
  ];
}
