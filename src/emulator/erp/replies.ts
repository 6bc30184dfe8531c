// The answers of reads as the service gives them: the OData query options ($filter, $orderby,
// $top, $skip, $select, $expand, $count) applied to the rows, pages with an absolute nextLink,
// single records with their ETag.
import type { ErpSet } from '../../model/erp/index.js';
import { EmuError, type EmuReply, type EmuRequest } from '../server/index.js';
import { bad } from './errors.js';
import { navigate, type NavValue } from './navigation.js';
import { applyOrderBy, filterRows, ODataError, parseExpand, parseFilter, parseSelect, unsupportedByService, type ExpandItem } from './odata.js';
import { base, type Row } from './store.js';

/** the default page size when the client asks for none (as the real service) */
const DEFAULT_PAGE_SIZE = 20_000;

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

export function shape(req: EmuRequest, company: string | undefined, set: ErpSet, row: Row): Row {
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
export function projection(req: EmuRequest, company: string, set: ErpSet): ((row: Row) => Row) | undefined {
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
export function countReply(req: EmuRequest, rows: Row[], isField: (n: string) => boolean): EmuReply {
  return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, raw: String(filtered(req, rows, isField).length) };
}

/**
 * filter, order, skip, top, then one page from $skiptoken with an absolute nextLink;
 * `@odata.count` (with $count=true) counts every match, before $top/$skip and paging
 */
export function listReply(req: EmuRequest, rows: Row[], context: string, isField: (n: string) => boolean, project: (r: Row) => Row): EmuReply {
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

export function entityReply(req: EmuRequest, status: number, context: string, row: Row): EmuReply {
  return { status, headers: { etag: String(row['@odata.etag'] ?? '') }, body: { '@odata.context': context, ...row } };
}
