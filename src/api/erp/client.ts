// One generic client for every entity set of the business-data API, driven by the models in
// model/erp/: URLs, OData list options and paging, get/create/update/delete with If-Match,
// bound actions, navigation properties, document content. No terminal, no commander.
import type { Config } from '../../core/config/index.js';
import { ConflictError, errorFromResponse, NetworkError, NotFoundError, ServiceError, UsageError } from '../../core/errors.js';
import type { Authenticator, Http, HttpRequest, HttpResponse } from '../../core/http/index.js';
import { memberArraySpans, memberArrayTexts, ndjsonOfSpans } from '../../core/json-texts.js';
import { paginatePages } from '../../core/paging.js';
import { buildQuery, type QueryValue } from '../../core/url.js';
import { collectionPath, findSet, isGuid, keySegment, type ErpSet } from '../../model/erp/index.js';
import { authenticator } from '../auth/authenticator.js';
import { serviceBase } from '../service.js';
import { erpPrefixProblem } from '../../model/families.js';

export interface ListQuery {
  filter?: string;
  select?: string;
  expand?: string;
  orderby?: string;
  top?: number;
  skip?: number;
  /** asked for with `Prefer: odata.maxpagesize=N` */
  pageSize?: number;
  /** the most pages read (default core/paging's MAX_PAGES): a next-page chain longer than that is exit 1 */
  maxPages?: number;
}

export type Entity = Record<string, unknown>;

/** A record named on the command line: its id, and the record itself when a read found it. */
export interface Resolved {
  id: string;
  record?: Entity;
  /** --dry-run: the read that finds the record was planned, not sent (id and record are placeholders) */
  planned?: boolean;
}

/** What a record is called in messages: `sales order S-ORD101001 (Adatum Corporation)`, or its id. */
export function recordLabel(set: ErpSet, id: string, record?: Entity): string {
  const key = set.humanKey ? record?.[set.humanKey] : undefined;
  const title = set.titleField ? record?.[set.titleField] : undefined;
  if (typeof key !== 'string' || !key) return `${set.singular} ${id}`;
  return `${set.singular} ${key}${typeof title === 'string' && title ? ` (${title})` : ''}`;
}

/** The company a company-scoped command works in, as given (an id or a name): --company, VX_ERP_COMPANY or the profile's. */
function companyKey(config: Config, flag: string | undefined): string {
  const what = 'the company (--company)';
  const given = config.resolve('erp.company', flag, what);
  if (given) return given.value;
  try {
    return config.require('erp.company', flag, what);
  } catch (e) {
    // not set anywhere: say where to find one
    if (e instanceof UsageError) throw new UsageError(`${e.message} (list the companies with \`vx erp companies list\`)`);
    throw e;
  }
}

/** The OData string literal of a value: quoted, with ' doubled. */
function literal(v: string): string {
  return `'${v.replace(/'/g, "''")}'`;
}

/** the id --dry-run plans where a record named by its key would be looked up; never a record's id when requests go out */
const PLACEHOLDER_ID = '<id of ';
const placeholderId = (set: ErpSet, key: string) => `${PLACEHOLDER_ID}${set.singular} ${key}>`;

/** the placeholder used in --dry-run where the ETag of a fresh read would go */
export const ETAG_PLACEHOLDER = '<@odata.etag of a fresh GET>';

export class ErpClient {
  private constructor(
    private readonly http: Http,
    readonly base: string,
    readonly auth: Authenticator,
    readonly company: string | undefined,
  ) {}

  /**
   * Resolves the prefix, token and (for company-scoped sets) the company: its id, or its name
   * looked up with one read (none or several of that name is exit 4, as for any record).
   */
  static async open(http: Http, config: Config, set: ErpSet, companyFlag?: string): Promise<ErpClient> {
    const base = serviceBase(config, 'erp');
    const prefixProblem = erpPrefixProblem(base);
    if (prefixProblem) {
      const r = config.resolve('erp.prefix');
      const from = r?.source === 'env' ? ` (from ${r.origin})` : r?.source === 'profile' ? ` (from profile "${r.origin}")` : '';
      throw new UsageError(`invalid erp.prefix "${base}"${from}: expected ${prefixProblem}; nothing was sent`);
    }
    const company = set.scope === 'root' ? undefined : companyKey(config, companyFlag);
    const auth = await authenticator(config, 'erp', http);
    if (company === undefined || isGuid(company)) return new ErpClient(http, base, auth, company);
    const { id } = await new ErpClient(http, base, auth, undefined).resolve(findSet('companies')!, company);
    return new ErpClient(http, base, auth, id);
  }

  collectionUrl(set: ErpSet, query?: Record<string, QueryValue>): string {
    return `${this.base}${collectionPath(set, this.company)}${buildQuery(query)}`;
  }

  itemUrl(set: ErpSet, id: string, rest = '', query?: Record<string, QueryValue>): string {
    if (set.fields.id?.type === 'guid' && !isGuid(id)) {
      // the placeholder resolve() plans in --dry-run; never a way around the check when requests go out
      if (this.http.dryRun && id.startsWith(PLACEHOLDER_ID)) return `${this.base}${collectionPath(set, this.company)}(${id})${rest}${buildQuery(query)}`;
      throw new UsageError(`invalid ${set.singular} id "${id}": expected a GUID${set.humanKey ? ` or a ${set.humanKey}` : ''}`);
    }
    if (!id) throw new UsageError(`invalid ${set.singular} id: empty`);
    return `${this.base}${collectionPath(set, this.company)}(${encodeURIComponent(keySegment(id)).replace(/%27/g, "'")})${rest}${buildQuery(query)}`;
  }

  private send(req: HttpRequest): Promise<HttpResponse> {
    return this.http.send({ ...req, auth: this.auth });
  }

  /** All items of a collection, following @odata.nextLink; `top` caps the total. */
  async *list(set: ErpSet, q: ListQuery = {}, url = this.collectionUrl(set, odataQuery(q))): AsyncGenerator<Entity> {
    for await (const page of this.listPages(set, q, url)) yield* page;
  }

  /** The same, a page at a time. */
  listPages(set: ErpSet, q: ListQuery = {}, url = this.collectionUrl(set, odataQuery(q))): AsyncGenerator<Entity[]> {
    const headers: Record<string, string> = q.pageSize ? { Prefer: `odata.maxpagesize=${q.pageSize}` } : {};
    return paginatePages<Entity>(url, async (u) => (await this.send({ method: 'GET', url: u, headers })).json(), {
      max: q.top,
      nextKey: '@odata.nextLink',
      maxPages: q.maxPages,
      maxPagesOption: '--max-pages',
    });
  }

  /**
   * The pages of `export -o ndjson`: each page's records as NDJSON text cut from the answer as the
   * service wrote them (core/json-texts.ts; numbers exact by construction), so they need not be
   * serialized again; the page is parsed (plain JSON.parse) only to check it and read its next
   * link, and the parsed records are dropped at once. A page whose text cannot be cut so (a
   * record spread over lines, a member given twice) comes parsed exactly, as records to render;
   * so does every page under --top.
   */
  async *listPagesNdjson(set: ErpSet, q: ListQuery = {}): AsyncGenerator<{ count: number; ndjson?: string | Uint8Array; items?: Entity[] }> {
    if (q.top !== undefined) {
      for await (const items of this.listPages(set, q)) yield { count: items.length, items };
      return;
    }
    const headers: Record<string, string> = q.pageSize ? { Prefer: `odata.maxpagesize=${q.pageSize}` } : {};
    const cut = new WeakMap<object, string | Uint8Array>();
    const fetchPage = async (u: string): Promise<unknown> => {
      const res = await this.send({ method: 'GET', url: u, headers });
      const body = res.json<Record<string, unknown> | null>(false);
      const value = body && typeof body === 'object' ? body.value : undefined;
      if (!Array.isArray(value) || !value.length) return body;
      const text = res.text;
      const spans = memberArraySpans(text, 'value');
      if (!spans || spans.length !== 2 * value.length) return res.json();
      // (strings hold no raw line break: one in the page is space between tokens, maybe inside a record)
      const bytes = res.body;
      let ndjson: string | Uint8Array | undefined;
      if (bytes.length === text.length && bytes.indexOf(10) < 0 && bytes.indexOf(13) < 0) ndjson = ndjsonOfSpans(bytes, spans);
      else {
        const texts = memberArrayTexts(text, 'value')!;
        if (!texts.some((t) => t.includes('\n') || t.includes('\r'))) ndjson = `${texts.join('\n')}\n`;
      }
      if (ndjson === undefined) return res.json();
      // the records themselves are not kept: only how many there are
      const marker = new Array<unknown>(value.length);
      cut.set(marker, ndjson);
      return { value: marker, '@odata.nextLink': body!['@odata.nextLink'] };
    };
    for await (const items of paginatePages<unknown>(this.collectionUrl(set, odataQuery(q)), fetchPage, { nextKey: '@odata.nextLink', maxPages: q.maxPages, maxPagesOption: '--max-pages' })) {
      const ndjson = cut.get(items);
      yield ndjson !== undefined ? { count: items.length, ndjson } : { count: items.length, items: items as Entity[] };
    }
  }

  async get(set: ErpSet, id: string, q: Pick<ListQuery, 'select' | 'expand'> = {}): Promise<Entity> {
    return (await this.send({ method: 'GET', url: this.itemUrl(set, id, '', odataQuery(q)) })).json<Entity>();
  }

  /**
   * The id of a record named by its GUID or by its human key (a sales order's number, a
   * currency's code): a GUID is taken as it is; a human key is looked up with one $filter read
   * (whose answer, with its @odata.etag, comes back as `record`). No match or several matches is
   * exit 4, listing the matches. In --dry-run the read is planned and a placeholder id stands in.
   */
  async resolve(set: ErpSet, key: string, q: Pick<ListQuery, 'select' | 'expand'> = {}): Promise<Resolved> {
    if (!set.humanKey || isGuid(key)) return { id: key };
    if (key.startsWith(PLACEHOLDER_ID)) throw new UsageError(`invalid ${set.singular} id "${key}": a --dry-run placeholder, not a record; expected a GUID or a ${set.humanKey}`);
    const max = set.fields[set.humanKey]?.maxLength;
    if (!key.trim() || (max && key.length > max) || /\p{Cc}/u.test(key)) {
      throw new UsageError(`invalid ${set.singular} id "${key}": expected a GUID or a ${set.humanKey}${max ? ` (at most ${max} characters)` : ''}`);
    }
    const url = this.collectionUrl(set, odataQuery({ filter: `${set.humanKey} eq ${literal(key)}`, top: 10, ...q }));
    if (this.http.dryRun) {
      this.http.plan({ method: 'GET', url, auth: this.auth });
      // that read's record would give the @odata.etag too: update/delete plan no second read
      return { id: placeholderId(set, key), record: { '@odata.etag': ETAG_PLACEHOLDER }, planned: true };
    }
    const page = (await this.send({ method: 'GET', url })).json<{ value?: Entity[] }>();
    const found = Array.isArray(page.value) ? page.value : [];
    if (found.length === 1) return { id: typeof found[0]!.id === 'string' ? found[0]!.id : key, record: found[0] };
    if (found.length === 0) {
      throw new NotFoundError(`no ${set.singular} has ${set.humanKey} '${key}' (name a record by its ${set.humanKey} or its id; list them with \`vx erp ${set.noun} list\`)`);
    }
    const listed = found.map((r) => `${String(r[set.humanKey!] ?? '?')} ${String(r.id ?? '?')}`).join(', ');
    throw new NotFoundError(`${found.length}${found.length === 10 ? ' or more' : ''} ${set.singular} records have ${set.humanKey} '${key}': ${listed}; name one by its id`);
  }

  /**
   * Creates a record. A 2xx whose body cannot be read (cut short, an HTML page from a proxy) says
   * the POST reached the service and was done, or may have been: exit 8 with the check, as for a
   * lost answer, never a plain failure a retry would answer with a second record.
   */
  async create(set: ErpSet, body: Entity, checkHint?: string): Promise<Entity> {
    const res = await this.send({ method: 'POST', url: this.collectionUrl(set), body, describe: `create ${set.singular}`, checkHint });
    try {
      const created = res.json<Entity>();
      if (created && typeof created === 'object' && !Array.isArray(created)) return created;
      throw new ServiceError(`HTTP ${res.status}, the answer is not a ${set.singular} record`);
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      throw new NetworkError(
        `create ${set.singular}: created (or may have been), the answer could not be read (${e.message.replace(/^HTTP \d+ from \S+ \S+: /, `HTTP ${res.status}, `)}); it was not repeated${checkHint ? `; check with: ${checkHint}` : ''}`,
        { status: res.status, requestId: res.requestId },
      );
    }
  }

  /** The ETag to send: the given one, `*` when forced, else the @odata.etag of a record just read or of a fresh GET (a placeholder in --dry-run). */
  async ifMatch(set: ErpSet, id: string, given?: string, force?: boolean, known?: Entity): Promise<string> {
    if (given) return given;
    if (force) return '*';
    if (typeof known?.['@odata.etag'] === 'string' && known['@odata.etag']) return known['@odata.etag']; // read just now
    if (this.http.dryRun) {
      this.http.plan({ method: 'GET', url: this.itemUrl(set, id), auth: this.auth });
      return ETAG_PLACEHOLDER;
    }
    const etag = (await this.get(set, id))['@odata.etag'];
    if (typeof etag !== 'string' || !etag) throw new UsageError(`the ${set.singular} ${id} came without an @odata.etag; pass --if-match <etag> or --force`);
    return etag;
  }

  async update(set: ErpSet, id: string, body: Entity, etag: string, label = `${set.singular} ${id}`): Promise<Entity | undefined> {
    const res = await conflictMessage(label, () => this.send({ method: 'PATCH', url: this.itemUrl(set, id), headers: { 'If-Match': etag }, body, describe: `update ${set.singular} ${id}`, checkHint: `vx erp ${set.noun} get ${id}` }));
    return res.body.length ? res.json<Entity>() : undefined;
  }

  /**
   * Deletes a record. A 404 to a repeat of the DELETE whose earlier attempt's answer was lost means
   * that attempt deleted it: done (`goneBefore` says so), not "not found". A 404 to a first attempt
   * stays an error.
   */
  async remove(set: ErpSet, id: string, etag: string, label = `${set.singular} ${id}`): Promise<{ goneBefore: boolean }> {
    const res = await conflictMessage(label, () => this.send({ method: 'DELETE', url: this.itemUrl(set, id), headers: { 'If-Match': etag }, okStatuses: [404] }));
    if (res.status !== 404) return { goneBefore: false };
    if (res.afterLostAttempt) return { goneBefore: true };
    throw errorFromResponse(res.status, res.text, res.headers);
  }

  /** POST to a bound action `<namespace>.<action>`; returns the body when there is one. */
  async action(set: ErpSet, id: string, namespace: string, action: string): Promise<unknown> {
    const res = await this.send({ method: 'POST', url: this.itemUrl(set, id, `/${namespace}.${action}`), describe: `${action} on ${set.singular} ${id}`, checkHint: `vx erp ${set.noun} get ${id}` });
    return res.body.length ? res.json() : undefined;
  }

  /**
   * A navigation property: one entity, or (collection) all items across pages. A single-valued
   * navigation that relates no entity is undefined: the service answers 204 No Content (OData 4.0
   * part 1, 11.2.6).
   */
  async related(set: ErpSet, id: string, nav: string, q: ListQuery = {}): Promise<unknown> {
    const def = set.navigation?.[nav];
    if (!def) throw new UsageError(`unknown navigation "${nav}" of a ${set.singular}`);
    if (def.collection) {
      const out: Entity[] = [];
      for await (const x of this.list(set, q, this.itemUrl(set, id, `/${nav}`, odataQuery(q)))) out.push(x);
      return out;
    }
    const res = await this.send({ method: 'GET', url: this.itemUrl(set, id, `/${nav}`, odataQuery({ select: q.select, expand: q.expand })) });
    return res.status === 204 ? undefined : res.json();
  }

  /** The bytes of a media stream below an entity, e.g. `/pdfDocument/pdfDocumentContent`. */
  async content(set: ErpSet, id: string, rest: string): Promise<Buffer> {
    return (await this.send({ method: 'GET', url: this.itemUrl(set, id, rest), headers: { Accept: 'application/pdf, application/octet-stream, */*' } })).body;
  }
}

export function odataQuery(q: ListQuery): Record<string, QueryValue> {
  return { $filter: q.filter, $select: q.select, $expand: q.expand, $orderby: q.orderby, $top: q.top, $skip: q.skip };
}

/** A stale ETag (409/412) becomes a conflict that says what happened to the record (`label`: recordLabel). */
async function conflictMessage<T>(label: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ConflictError) {
      throw new ConflictError(`the ${label} was changed by someone else since its ETag was read; it was left as it was. Read it again and retry (${e.message})`, {
        status: e.status,
        code: e.code,
        requestId: e.requestId,
      });
    }
    throw e;
  }
}
