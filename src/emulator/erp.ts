// Business-data (ERP) and database-refresh (LCS) families of the emulator. The entity sets come
// from the models in model/erp.ts (one generic store: list with OData options and paging, get,
// create, update, delete with If-Match); the behaviour is written from the spec and the notes.
import { randomUUID } from 'node:crypto';
import { checkValue, ERP_SETS, LCS_VERSION, REFRESH_LIMIT_PER_DAY, type ErpSet } from '../model/erp.js';
import { withBatch } from './erp-batch.js';
import { applyOrderBy, filterRows, ODataError, parseExpand, parseFilter, parseSelect, unsupportedByService, type ExpandItem } from './erp-odata.js';
import { checkErpState, CUSTOMERS, etagOf, fullRecord, PAYMENT_TERMS, seedErp, SHIPMENT_METHODS, type ErpState } from './erp-seed.js';
import { arrayOf, number, shape as stateShape, text } from './state-check.js';
import { EmuError, type EmuReply, type EmuRequest, type FamilyDef } from './server.js';
import { familyOf } from '../model/families.js';

const erpCodes = {
  unauthorized: 'Authentication_InvalidCredentials',
  notFound: 'BadRequest_NotFound',
  badRequest: 'BadRequest',
  badJson: 'BadRequest_InvalidRequestBody',
  tooLarge: 'RequestEntityTooLarge',
  throttled: 'Application_TooManyRequests',
  unavailable: 'Internal_ServiceUnavailable',
  internal: 'Internal_ServerError',
  methodNotAllowed: 'BadRequest_MethodNotAllowed',
  byStatus: { 403: 'Authorization_InsufficientPermissions', 409: 'Request_EntityChanged', 412: 'Request_EntityChanged' },
};

// {"error":{"code":"BadRequest_NotFound","message":"...  CorrelationId:  <guid>."}}
const erpError = (_status: number, code: string, message: string, req: { requestId: string }) => ({
  error: { code, message: `${message.replace(/\.?$/, '.')}  CorrelationId:  ${req.requestId}.` },
});

/** the namespace of bound actions the emulated service knows */
export const EMU_ACTION_NAMESPACE = 'Vendor.NAV';
/** the default page size when the client asks for none (as the real service) */
const DEFAULT_PAGE_SIZE = 20_000;

type Row = Record<string, unknown>;

const bad = (message: string, code = 'BadRequest') => new EmuError(400, code, message);
const notFound = (message: string) => new EmuError(404, 'BadRequest_NotFound', message);

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw bad(`The URL segment "${s}" is not correctly percent-encoded`);
  }
}

/** `<guid>` or `'text'` (quotes doubled inside) */
function parseKey(raw: string): string {
  const k = decode(raw).trim();
  if (/^'.*'$/.test(k)) return k.slice(1, -1).replace(/''/g, "'");
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(k)) return k.toLowerCase();
  throw bad(`The key "${k}" is not a GUID or a quoted string`);
}

function st(req: EmuRequest): ErpState {
  return req.emulator.state.erp as ErpState;
}

function nextEtag(req: EmuRequest): string {
  const s = st(req);
  s.version += 1;
  return etagOf(s.version);
}

function base(req: EmuRequest): string {
  return `http://${req.headers.host ?? '127.0.0.1'}${req.family.prefix}`;
}

/** An entity set of the API version in the path; another one is the platform's 404 BadRequest_ResourceNotFound. */
function setFor(name: string, version: string, scope: 'root' | 'company'): ErpSet {
  const set = ERP_SETS.find((s) => s.name === name && (s.scope ?? 'company') === scope);
  const missing = (why: string) => new EmuError(404, 'BadRequest_ResourceNotFound', `Resource not found for the segment '${name}'${why}`);
  if (!set) throw missing('');
  if (set.apiVersion !== version) throw missing(` (it is in API version ${set.apiVersion}, not ${version})`);
  return set;
}

/** A body that is not JSON by its Content-Type: 415 (the platform's HTTP status page: a wrong Content-Type). */
export function jsonContentType(req: EmuRequest): void {
  if (!req.text) return;
  const ct = req.headers['content-type'];
  // absent: taken as JSON (as a $batch operation's body without a content-type is)
  if (typeof ct !== 'string' || !ct.trim() || /^application\/json\b/i.test(ct.trim())) return;
  throw new EmuError(415, 'BadRequest', `The Content-Type '${ct}' of the request body is not supported; send application/json.`);
}

function companyData(req: EmuRequest, company: string): Record<string, Row[]> {
  const c = parseKey(company);
  const d = st(req).data[c];
  if (!d) throw notFound(`The company '${c}' does not exist`);
  return d;
}

function rowsOf(req: EmuRequest, company: string, set: ErpSet): Row[] {
  const d = companyData(req, company);
  return (d[set.name] ??= []);
}

function findRow(rows: Row[], set: ErpSet, id: string): Row {
  const r = rows.find((x) => String(x.id).toLowerCase() === id.toLowerCase());
  if (!r) throw notFound(`The ${set.name} record '${id}' does not exist`);
  return r;
}

function need(set: ErpSet, op: string): void {
  if (!(set.operations as readonly string[]).includes(op)) throw new EmuError(405, 'BadRequest_MethodNotAllowed', `'${op}' is not allowed on the entity set '${set.name}'`);
}

// ---- navigation properties of sales orders (what the emulator can resolve) ----

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

type NavValue = Row | Row[] | null;

function navigate(req: EmuRequest, company: string, set: ErpSet, row: Row, nav: string): NavValue {
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
function pdfOf(row: Row): Buffer {
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

// ---- OData query options ----

function intOption(req: EmuRequest, name: string): number | undefined {
  const v = req.query.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v)) throw bad(`The query option ${name} must be a non-negative whole number, got '${v}'`);
  return Number(v);
}

function pageSize(req: EmuRequest): number | undefined {
  const prefer = req.headers.prefer;
  const text = Array.isArray(prefer) ? prefer.join(',') : prefer;
  const m = text ? /odata\.maxpagesize\s*=\s*(\d+)/i.exec(text) : null;
  if (!m) return undefined;
  const n = Number(m[1]);
  return n > 0 ? n : undefined;
}

/** the query options a navigation in $expand may carry: (select) on one record, all on a collection */
const EXPAND_OPTIONS = ['$select', '$filter', '$orderby', '$top', '$skip'];

/** The items of $expand, their names and nested options checked (the fields they name are checked on the records). */
function expandItems(req: EmuRequest, set: ErpSet): ExpandItem[] {
  const e = req.query.get('$expand');
  if (e === null) return [];
  const items = odata(() => parseExpand(e));
  for (const { name, options } of items) {
    const nav = set.navigation?.[name];
    if (!nav) throw bad(`Could not find a navigation property named '${name}' on '${set.name}'`);
    for (const [k, v] of options) {
      if (!EXPAND_OPTIONS.includes(k)) throw bad(`The query option ${k} is not supported in the $expand of '${name}'`);
      if (!nav.collection && k !== '$select') throw bad(`The query option ${k} cannot be applied to '${name}', which is a single record`);
      if ((k === '$top' || k === '$skip') && !/^\d+$/.test(v)) throw bad(`The query option ${k} must be a non-negative whole number, got '${v}'`);
      if (k === '$filter') serviceFilter(req, v, () => true);
      if (k === '$select') odata(() => parseSelect(v, () => true));
      if (k === '$orderby') odata(() => applyOrderBy([], v, () => true));
    }
  }
  return items;
}

/** A navigation's value with the nested options of its $expand item applied (fields checked against its records). */
function expandValue(req: EmuRequest, value: NavValue, options: Map<string, string>): NavValue {
  if (value === null || !options.size) return value;
  const rows = Array.isArray(value) ? value : [value];
  const fields = new Set(rows.flatMap((r) => Object.keys(r)));
  const isField = (n: string) => fields.has(n) || rows.length === 0;
  const pick = (r: Row, names: string[]): Row => Object.fromEntries([...(r['@odata.etag'] !== undefined ? ['@odata.etag'] : []), ...names].map((n) => [n, r[n]]));
  const select = options.get('$select');
  const names = select === undefined ? undefined : odata(() => parseSelect(select, isField));
  if (!Array.isArray(value)) return names ? pick(value, names) : value;
  let out = value;
  const filter = options.get('$filter');
  if (filter !== undefined) {
    const tree = serviceFilter(req, filter, isField);
    out = odata(() => filterRows(out, tree));
  }
  const orderby = options.get('$orderby');
  if (orderby !== undefined) out = odata(() => applyOrderBy(out, orderby, isField));
  const skip = Number(options.get('$skip') ?? 0);
  const top = options.get('$top');
  out = out.slice(skip, top === undefined ? undefined : skip + Number(top));
  return names ? out.map((r) => pick(r, names)) : out;
}

function shape(req: EmuRequest, company: string | undefined, set: ErpSet, row: Row): Row {
  const sel = req.query.get('$select');
  let out: Row = row;
  if (sel !== null) {
    const names = odata(() => parseSelect(sel, (n) => n in set.fields));
    out = { '@odata.etag': row['@odata.etag'] };
    for (const n of names) out[n] = row[n];
    if (out['@odata.etag'] === undefined) delete out['@odata.etag'];
  } else out = { ...row };
  for (const { name, options } of expandItems(req, set)) out[name] = expandValue(req, navigate(req, company!, set, row, name), options);
  return out;
}

/**
 * The $select and $expand of a POST or PATCH, applied to its answer as GET applies them (the
 * service honours `?$select=id,number` on a create, in a $batch too, to keep answers small),
 * checked before anything changes; undefined when there are none.
 */
function projection(req: EmuRequest, company: string, set: ErpSet): ((row: Row) => Row) | undefined {
  const sel = req.query.get('$select');
  if (sel === null && req.query.get('$expand') === null) return undefined;
  if (sel !== null) odata(() => parseSelect(sel, (n) => n in set.fields));
  expandItems(req, set);
  return (row) => shape(req, company, set, row);
}

/** A malformed query option: 400 BadRequest_NotFound, as the platform answers a query syntax error (dynamics-error-codes.md). */
function odata<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ODataError) throw bad(`Bad Request - Error in query syntax: ${e.message}`, 'BadRequest_NotFound');
    throw e;
  }
}

/**
 * A $filter as the service takes it: malformed, 400 (odata()); well-formed but beyond what the
 * service runs (`or` across fields, `not`, trim/length/indexof/concat), 501
 * BadRequest_MethodNotImplemented, as the service answers (odata-known-limitations.md)
 */
function serviceFilter(req: EmuRequest, filter: string, isField: (n: string) => boolean): ReturnType<typeof parseFilter> {
  const tree = odata(() => parseFilter(filter, isField));
  const schema = Number(req.query.get('$schemaversion'));
  const why = unsupportedByService(tree, { inOperator: Number.isFinite(schema) && schema >= 2.1 });
  if (why) throw new EmuError(501, 'BadRequest_MethodNotImplemented', why);
  return tree;
}

/** the rows $filter keeps */
function filtered(req: EmuRequest, rows: Row[], isField: (n: string) => boolean): Row[] {
  const filter = req.query.get('$filter');
  if (filter === null) return rows;
  const tree = serviceFilter(req, filter, isField);
  return odata(() => filterRows(rows, tree));
}

/** $count=true|false (OData 4.0 part 2, 11.2.5.5); anything else is a query syntax error */
function countOption(req: EmuRequest): boolean {
  const v = req.query.get('$count');
  if (v === null || v === 'false') return false;
  if (v === 'true') return true;
  return odata(() => {
    throw new ODataError(`'${v}' is not a valid count option`);
  });
}

/** `<collection>/$count`: the number of rows $filter keeps, as text/plain (OData 4.0 part 1, 11.2.9) */
function countReply(req: EmuRequest, rows: Row[], isField: (n: string) => boolean): EmuReply {
  return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, raw: String(filtered(req, rows, isField).length) };
}

/**
 * filter, order, skip, top, then one page from $skiptoken with an absolute nextLink;
 * `@odata.count` (with $count=true) counts every match, before $top/$skip and paging
 */
function listReply(req: EmuRequest, rows: Row[], context: string, isField: (n: string) => boolean, project: (r: Row) => Row): EmuReply {
  const orderby = req.query.get('$orderby');
  const withCount = countOption(req);
  let out = filtered(req, rows, isField);
  const count = out.length;
  if (orderby !== null) out = odata(() => applyOrderBy(out, orderby, isField));
  const skip = intOption(req, '$skip') ?? 0;
  const top = intOption(req, '$top');
  out = out.slice(skip, top === undefined ? undefined : skip + top);
  const token = req.query.get('$skiptoken');
  if (token !== null && !/^\d+$/.test(token)) throw bad(`The skip token '${token}' is not valid`);
  const from = token === null ? 0 : Number(token);
  const size = pageSize(req);
  const page = out.slice(from, from + (size ?? DEFAULT_PAGE_SIZE));
  const body: Row = { '@odata.context': context, ...(withCount ? { '@odata.count': count } : {}), value: page.map(project) };
  if (from + page.length < out.length) {
    const kept = req.url.search.replace(/^\?/, '').split('&').filter((p) => p && !/^(\$|%24)skiptoken=/i.test(p));
    kept.push(`$skiptoken=${from + page.length}`);
    body['@odata.nextLink'] = `${base(req)}${req.path}?${kept.join('&')}`;
  }
  return { status: 200, headers: size ? { 'preference-applied': `odata.maxpagesize=${size}` } : {}, body };
}

function entityReply(req: EmuRequest, status: number, context: string, row: Row): EmuReply {
  return { status, headers: { etag: String(row['@odata.etag'] ?? '') }, body: { '@odata.context': context, ...row } };
}

/** Validates a POST/PATCH body against the model: unknown and read-only fields, types, lengths. */
function checkBody(req: EmuRequest, set: ErpSet, create: boolean): Row {
  jsonContentType(req);
  const body = req.json<unknown>();
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('The request body must be a JSON object', 'BadRequest_InvalidRequestBody');
  const out: Row = {};
  for (const [k, v] of Object.entries(body as Row)) {
    if (k.startsWith('@odata.')) continue;
    const f = set.fields[k];
    if (!f) throw bad(`The property '${k}' does not exist on type 'Vendor.NAV.${set.name}'. Make sure to only use property names that are defined by the type`, 'BadRequest_PropertyNotFound');
    // the platform's documented error for writing a non-editable field ("Control 'Last Date Modified' is read-only")
    if (f.readOnly) throw bad(`Control '${k}' is read-only`, 'BadRequest_InvalidOperation');
    if (v === null && f.required) throw blankField(k);
    // the platform's NavNCLStringLengthExceededException (dynamics-error-codes.md)
    const len = typeof v === 'string' ? [...v].length : 0;
    if (f.maxLength !== undefined && len > f.maxLength) {
      throw bad(`The length of the string is ${len}, but it must be less than or equal to ${f.maxLength} characters. Value: ${v as string}`, 'Application_StringExceededLength');
    }
    const problem = checkValue(f, v);
    if (problem) throw bad(`The value of '${k}' is invalid: ${problem}`);
    out[k] = v;
  }
  if (create) {
    for (const [k, f] of Object.entries(set.fields)) {
      if (f.required && (out[k] === undefined || out[k] === null || out[k] === '')) throw blankField(k);
    }
  }
  return out;
}

/** the platform's ODataBadRequestNullFieldException (dynamics-error-codes.md) */
const blankField = (name: string) => bad(`Field '${name}' must not be blank or empty`, 'BadRequest_RequiredParamNotProvided');

function checkIfMatch(req: EmuRequest, row: Row): void {
  const h = req.headers['if-match'];
  const v = Array.isArray(h) ? h[0] : h;
  if (!v) throw bad('Could not validate the client concurrency token required by the service. Please provide a valid token in the client request', 'BadRequest_InvalidToken');
  if (v.trim() === '*') return;
  const strip = (e: string) => e.trim().replace(/^W\//, '');
  if (!v.split(',').some((e: string) => strip(e) === strip(String(row['@odata.etag'])))) {
    throw new EmuError(412, 'Request_EntityChanged', 'Another user has already changed the record');
  }
}

function uniqueCode(set: ErpSet, rows: Row[], body: Row, self?: Row): void {
  if (!('code' in set.fields) || typeof body.code !== 'string') return;
  if (rows.some((r) => r !== self && String(r.code).toUpperCase() === body.code!.toString().toUpperCase())) {
    throw bad(`The record in table ${set.name} already exists. Identification fields and values: Code='${body.code}'`, 'Internal_EntityWithSameKeyExists');
  }
}

/** What the service fills in on create. */
function newRecord(req: EmuRequest, set: ErpSet, body: Row, company?: Record<string, Row[]>): Row {
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

/** An error the platform raises from the API page's own checks (AL `Error()`), 400 Application_DialogException. */
const dialog = (message: string) => bad(message, 'Application_DialogException');

/** the API pages' message for a sales document without a customer (v1.0 writes the names bare, v2.0 quoted) */
const NO_CUSTOMER: Record<string, string> = { salesQuotes: 'A customerNumber or a customerId must be provided.', salesOrders: 'A "customerNumber" or a "customerId" must be provided.' };

/**
 * The sell-to customer of a new sales document, as the API pages check it ("APIV1 - Sales Quotes",
 * "APIV2 - Sales Orders"): customerId or customerNumber must name a customer, and both the same one.
 * `missing` is the page's message when neither is given (v1.0 writes the names bare, v2.0 quoted).
 */
function sellToCustomer(body: Row, missing: string): (typeof CUSTOMERS)[number] {
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

function touch(req: EmuRequest, row: Row, changes: Row = {}): void {
  Object.assign(row, changes, { lastModifiedDateTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
  row['@odata.etag'] = nextEtag(req);
}

/** Bound actions: their effect on the records. */
function runAction(req: EmuRequest, company: string, set: ErpSet, rows: Row[], row: Row, action: string): void {
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
      const orderSet = ERP_SETS.find((s) => s.name === 'salesOrders')!;
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

const V = '(?<v>v\\d+\\.\\d+)';
const COMPANY = `companies\\((?<c>[^()/]*)\\)`;

function erpRoutes(): FamilyDef['routes'] {
  const ctxOf = (req: EmuRequest, v: string, c: string, set: ErpSet, suffix = '') =>
    `${base(req)}/api/${v}/$metadata#companies(${parseKey(c)})/${set.name}${suffix}`;
  return [
    {
      method: 'GET',
      path: new RegExp(`^/api/${V}/(?<set>companies)$`),
      handler: (req) => {
        const set = setFor('companies', req.params.v, 'root');
        const ctx = `${base(req)}/api/${req.params.v}/$metadata#companies`;
        return listReply(req, st(req).companies, ctx, (n) => n in set.fields, (r) => shape(req, undefined, set, r));
      },
    },
    {
      method: 'GET',
      path: new RegExp(`^/api/${V}/(?<set>companies)/(?:\\$|%24)count$`),
      handler: (req) => {
        const set = setFor('companies', req.params.v, 'root');
        return countReply(req, st(req).companies, (n) => n in set.fields);
      },
    },
    {
      method: 'GET',
      path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)/(?:\\$|%24)count$`),
      handler: (req) => {
        const set = setFor(req.params.set, req.params.v, 'company');
        need(set, 'list');
        return countReply(req, rowsOf(req, req.params.c, set), (n) => n in set.fields);
      },
    },
    {
      method: 'GET',
      path: new RegExp(`^/api/${V}/${COMPANY}$`),
      handler: (req) => {
        const id = parseKey(req.params.c);
        const c = st(req).companies.find((x) => x.id === id);
        if (!c) throw notFound(`The company '${id}' does not exist`);
        return { status: 200, body: { '@odata.context': `${base(req)}/api/${req.params.v}/$metadata#companies/$entity`, ...c } };
      },
    },
    {
      method: 'GET',
      path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)$`),
      handler: (req) => {
        const set = setFor(req.params.set, req.params.v, 'company');
        need(set, 'list');
        const rows = rowsOf(req, req.params.c, set);
        return listReply(req, rows, ctxOf(req, req.params.v, req.params.c, set), (n) => n in set.fields, (r) => shape(req, req.params.c, set, r));
      },
    },
    {
      method: 'POST',
      path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)$`),
      handler: (req) => {
        const set = setFor(req.params.set, req.params.v, 'company');
        need(set, 'create');
        const rows = rowsOf(req, req.params.c, set);
        const project = projection(req, req.params.c, set);
        const body = checkBody(req, set, true);
        uniqueCode(set, rows, body);
        const row = newRecord(req, set, body, companyData(req, req.params.c));
        rows.push(row);
        return entityReply(req, 201, ctxOf(req, req.params.v, req.params.c, set, '/$entity'), project ? project(row) : row);
      },
    },
    {
      method: 'GET',
      path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)\\((?<id>[^()/]*)\\)$`),
      handler: (req) => {
        const set = setFor(req.params.set, req.params.v, 'company');
        need(set, 'get');
        const row = findRow(rowsOf(req, req.params.c, set), set, parseKey(req.params.id));
        return entityReply(req, 200, ctxOf(req, req.params.v, req.params.c, set, '/$entity'), shape(req, req.params.c, set, row));
      },
    },
    {
      method: 'PATCH',
      path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)\\((?<id>[^()/]*)\\)$`),
      handler: (req) => {
        const set = setFor(req.params.set, req.params.v, 'company');
        need(set, 'update');
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
        return entityReply(req, 200, ctxOf(req, req.params.v, req.params.c, set, '/$entity'), project ? project(row) : row);
      },
    },
    {
      method: 'DELETE',
      path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)\\((?<id>[^()/]*)\\)$`),
      handler: (req) => {
        const set = setFor(req.params.set, req.params.v, 'company');
        need(set, 'delete');
        const rows = rowsOf(req, req.params.c, set);
        const row = findRow(rows, set, parseKey(req.params.id));
        checkIfMatch(req, row);
        rows.splice(rows.indexOf(row), 1);
        if (set.name === 'salesOrders') delete st(req).lines[String(row.id)];
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)\\((?<id>[^()/]*)\\)/(?<nav>\\w+)(?<content>/pdfDocumentContent)?$`),
      handler: (req) => {
        const set = setFor(req.params.set, req.params.v, 'company');
        need(set, 'get');
        const row = findRow(rowsOf(req, req.params.c, set), set, parseKey(req.params.id));
        const nav = req.params.nav;
        if (req.params.content) {
          if (nav !== 'pdfDocument' || !set.navigation?.pdfDocument) throw notFound(`'${nav}' has no content stream`);
          return { status: 200, headers: { 'content-type': 'application/pdf' }, raw: pdfOf(row) };
        }
        const value = navigate(req, req.params.c, set, row, nav);
        const ctx = ctxOf(req, req.params.v, req.params.c, set, `(${String(row.id)})/${nav}`);
        if (Array.isArray(value)) {
          const fields = new Set(value.flatMap((r) => Object.keys(r)));
          return listReply(req, value, ctx, (n) => fields.has(n) || value.length === 0, (r) => r);
        }
        // no related entity: 204 No Content (OData 4.0 part 1, 11.2.6), not an error
        if (value === null) return { status: 204 };
        return { status: 200, body: { '@odata.context': `${ctx}/$entity`, ...value } };
      },
    },
    {
      method: 'POST',
      path: new RegExp(`^/api/${V}/${COMPANY}/(?<set>\\w+)\\((?<id>[^()/]*)\\)/(?<ns>[A-Za-z_][\\w.]*)\\.(?<action>\\w+)$`),
      handler: (req) => {
        const set = setFor(req.params.set, req.params.v, 'company');
        if (req.params.ns !== EMU_ACTION_NAMESPACE) throw notFound(`The namespace '${req.params.ns}' is not known; bound actions live in ${EMU_ACTION_NAMESPACE}`);
        const action = set.actions?.find((a) => a.action === req.params.action);
        if (!action) throw notFound(`The action '${req.params.action}' is not bound to '${set.name}'`);
        const rows = rowsOf(req, req.params.c, set);
        const row = findRow(rows, set, parseKey(req.params.id));
        runAction(req, req.params.c, set, rows, row, action.action);
        return { status: 204 };
      },
    },
  ];
}

export function erpFamily(): FamilyDef {
  return { name: 'erp', prefix: familyOf('erp').emulator.prefix, auth: 'bearer', requestIdHeader: 'request-id', codes: erpCodes, errorBody: erpError, routes: withBatch(erpRoutes()), seed: seedErp, checkState: checkErpState };
}

// ---- database refresh (lcs) ----

interface Operation {
  id: string;
  project: string;
  source: string;
  target: string;
  time: number;
  polls: number;
  /** when it ended (ms since epoch) */
  completed?: number;
}

export interface LcsState {
  operations: Operation[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Environments whose id starts with this end their refresh in `Failed` (a sandbox convention to try failures). */
export const FAILING_ENVIRONMENT_PREFIX = 'fail-';
/** ... and with this, in a rollback: `RollbackInProgress`, then `RollbackCompleted` */
export const ROLLBACK_ENVIRONMENT_PREFIX = 'rollback-';
/** as every published answer has it: seven fractional digits, no zone (reference-create-refresh.md) */
const VERSION_EOL = '9999-12-31T23:59:59.9999999';
/** the service's own date-time text: seven fractional digits, no zone */
const lcsTime = (t: number) => new Date(t).toISOString().replace(/\.(\d{3})Z$/, '.$10000');

function lcsRoutes(): FamilyDef['routes'] {
  const result = (IsSuccess: boolean, OperationActivityId: string | null, ErrorMessage: string | null) => ({ IsSuccess, OperationActivityId, ErrorMessage, VersionEOL: VERSION_EOL });
  const versionProblem = (req: EmuRequest): string | undefined => {
    const v = req.headers['x-vendor-version'];
    if (v === undefined) return 'The x-vendor-version header is missing; send x-vendor-version: 2017-09-15.';
    if (v !== LCS_VERSION) return `The API version '${String(v)}' given in x-vendor-version is not supported; use 2017-09-15.`;
    return undefined;
  };
  return [
    {
      method: 'POST',
      path: '/databasemovement/v1/refresh/project/{project}/source/{source}/target/{target}',
      handler: (req) => {
        const s = req.emulator.state.lcs as LcsState;
        const { project, source, target } = Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, decode(v)]));
        const problem = versionProblem(req);
        if (problem) return { status: 200, body: result(false, null, problem) };
        // environment ids are GUIDs: the same one in another case is the same environment
        if (source.toLowerCase() === target.toLowerCase()) return { status: 200, body: result(false, null, 'The source and target environments must be different.') };
        // the environment page's rule, which the API shares (reference-create-refresh.md): one
        // operation at a time on an environment; the one running ends when a status read sees it end
        const running = s.operations.find((o) => o.project === project && o.target.toLowerCase() === target.toLowerCase() && o.completed === undefined);
        if (running) return { status: 200, body: result(false, null, `Another operation (${running.id}) is in progress on the target environment ${target}; a refresh can start when it has ended.`) };
        const now = req.emulator.now();
        const recent = s.operations.filter((o) => o.project === project && o.target === target && now - o.time < DAY_MS);
        if (recent.length >= REFRESH_LIMIT_PER_DAY) {
          // dbmovement-api-throttling.md: the id of the operation that opened the window, and when it started
          return { status: 200, body: result(false, recent[0].id, `Maximum allowed API operations are ${REFRESH_LIMIT_PER_DAY} from ${lcsTime(recent[0].time)}`) };
        }
        const op: Operation = { id: randomUUID(), project, source, target, time: now, polls: 0 };
        s.operations.push(op);
        return { status: 200, body: result(true, op.id, null) };
      },
    },
    {
      method: 'GET',
      path: '/databasemovement/v1/fetchstatus/project/{project}/environment/{environment}/operationactivity/{activity}',
      handler: (req) => {
        const s = req.emulator.state.lcs as LcsState;
        const problem = versionProblem(req);
        if (problem) return { status: 200, body: { IsSuccess: false, OperationStatus: null, ErrorMessage: problem } };
        const project = decode(req.params.project);
        const env = decode(req.params.environment);
        const op = s.operations.find((o) => o.id === decode(req.params.activity) && o.project === project && o.target === env);
        if (!op) return { status: 200, body: { IsSuccess: false, OperationStatus: null, ErrorMessage: `No operation activity ${decode(req.params.activity)} for environment ${env} in project ${project}.` } };
        op.polls += 1;
        req.emulator.changed();
        const failing = op.target.startsWith(FAILING_ENVIRONMENT_PREFIX);
        const rollback = op.target.startsWith(ROLLBACK_ENVIRONMENT_PREFIX);
        const ended = rollback ? op.polls >= 4 : op.polls >= 3;
        const status = op.polls <= 1 ? 'NotStarted' : op.polls === 2 ? 'InProgress' : rollback ? (ended ? 'RollbackCompleted' : 'RollbackInProgress') : failing ? 'Failed' : 'Completed';
        op.completed ??= ended ? req.emulator.now() : undefined;
        // the fields and their order of reference-get-status.md (ProjectId a number there)
        return {
          status: 200,
          body: {
            IsSuccess: true,
            OperationActivityId: op.id,
            ErrorMessage: status === 'Failed' ? 'The database copy failed: the target environment ran out of space.' : rollback && ended ? 'The database copy failed; the target environment was restored to its state before the refresh.' : null,
            VersionEOL: VERSION_EOL,
            ProjectId: /^\d+$/.test(op.project) ? Number(op.project) : op.project,
            EnvironmentId: op.target,
            ActivityId: op.id,
            CompletionDate: op.completed === undefined ? null : lcsTime(op.completed),
            OperationStatus: status,
          },
        };
      },
    },
  ];
}

export function lcsFamily(): FamilyDef {
  return {
    name: 'lcs',
    prefix: familyOf('lcs').emulator.prefix,
    auth: 'bearer',
    requestIdHeader: 'x-request-id',
    codes: erpCodes,
    errorBody: erpError,
    routes: lcsRoutes(),
    seed: (): LcsState => ({ operations: [] }),
    checkState: stateShape({ operations: arrayOf(stateShape({ id: text, project: text, source: text, target: text, time: number, polls: number, completed: number }, ['completed'])) }),
  };
}
