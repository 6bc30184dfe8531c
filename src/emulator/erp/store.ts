// The emulated business-data store: the state of the family, the entity set a path names, the
// rows of a company's set, and the checks every write passes (body, If-Match, unique codes).
import { checkValue, erpSets, type ErpSet } from '../../model/erp/index.js';
import { EmuError, type EmuRequest } from '../server/index.js';
import { bad, notFound, parseKey } from './errors.js';
import { etagOf, type ErpState } from './seed.js';

export type Row = Record<string, unknown>;

export function st(req: EmuRequest): ErpState {
  return req.emulator.state.erp as ErpState;
}

export function nextEtag(req: EmuRequest): string {
  const s = st(req);
  s.version += 1;
  return etagOf(s.version);
}

/** The family's own address, as the client reached it (nextLinks, media links, @odata.context). */
export function base(req: EmuRequest): string {
  return `http://${req.headers.host ?? '127.0.0.1'}${req.family.prefix}`;
}

/** An entity set of the API version in the path; another one is the platform's 404 BadRequest_ResourceNotFound. */
export function setFor(name: string, version: string, scope: 'root' | 'company'): ErpSet {
  const set = erpSets().find((s) => s.name === name && (s.scope ?? 'company') === scope);
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

export function companyData(req: EmuRequest, company: string): Record<string, Row[]> {
  const c = parseKey(company);
  const d = st(req).data[c];
  if (!d) throw notFound(`The company '${c}' does not exist`);
  return d;
}

export function rowsOf(req: EmuRequest, company: string, set: ErpSet): Row[] {
  const d = companyData(req, company);
  return (d[set.name] ??= []);
}

export function findRow(rows: Row[], set: ErpSet, id: string): Row {
  const r = rows.find((x) => String(x.id).toLowerCase() === id.toLowerCase());
  if (!r) throw notFound(`The ${set.name} record '${id}' does not exist`);
  return r;
}

export function need(set: ErpSet, op: string): void {
  if (!(set.operations as readonly string[]).includes(op)) throw new EmuError(405, 'BadRequest_MethodNotAllowed', `'${op}' is not allowed on the entity set '${set.name}'`);
}

/** Changes a record: its new values, the time, a new ETag. */
export function touch(req: EmuRequest, row: Row, changes: Row = {}): void {
  Object.assign(row, changes, { lastModifiedDateTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
  row['@odata.etag'] = nextEtag(req);
}

/** Validates a POST/PATCH body against the model: unknown and read-only fields, types, lengths. */
export function checkBody(req: EmuRequest, set: ErpSet, create: boolean): Row {
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

export function checkIfMatch(req: EmuRequest, row: Row): void {
  const h = req.headers['if-match'];
  const v = Array.isArray(h) ? h[0] : h;
  if (!v) throw bad('Could not validate the client concurrency token required by the service. Please provide a valid token in the client request', 'BadRequest_InvalidToken');
  if (v.trim() === '*') return;
  const strip = (e: string) => e.trim().replace(/^W\//, '');
  if (!v.split(',').some((e: string) => strip(e) === strip(String(row['@odata.etag'])))) {
    throw new EmuError(412, 'Request_EntityChanged', 'Another user has already changed the record');
  }
}

export function uniqueCode(set: ErpSet, rows: Row[], body: Row, self?: Row): void {
  if (!('code' in set.fields) || typeof body.code !== 'string') return;
  if (rows.some((r) => r !== self && String(r.code).toUpperCase() === body.code!.toString().toUpperCase())) {
    throw bad(`The record in table ${set.name} already exists. Identification fields and values: Code='${body.code}'`, 'Internal_EntityWithSameKeyExists');
  }
}

