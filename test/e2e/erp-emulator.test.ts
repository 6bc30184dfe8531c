// The emulated ERP and refresh services on their own (what vx never sends on purpose).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const ORDER = '0000100e-0000-4000-8000-0000000e0001';
const auth = { authorization: 'Bearer emulator-token' };
const orders = () => `${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies(${e2e.env.VX_ERP_COMPANY})/salesOrders`;
const call = async (method: string, url: string, headers: Record<string, string> = {}, body?: unknown) => {
  const res = await fetch(url, { method, headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

describe('emulated business-data service', () => {
  it('pages with Prefer: odata.maxpagesize, answers Preference-Applied and an absolute nextLink', async () => {
    const r = await call('GET', `${orders()}?$filter=status eq 'Open'`, { prefer: 'odata.maxpagesize=5' });
    expect(r.status).toBe(200);
    expect(r.headers.get('preference-applied')).toBe('odata.maxpagesize=5');
    expect(r.body['@odata.context']).toMatch(/\$metadata#companies\(.*\)\/salesOrders$/);
    expect(r.body.value).toHaveLength(5);
    expect(decodeURIComponent(r.body['@odata.nextLink'])).toBe(`${orders()}?$filter=status eq 'Open'&$skiptoken=5`);
    const all = await call('GET', orders());
    expect(all.body.value).toHaveLength(45);
    expect(all.body['@odata.nextLink']).toBeUndefined();
  });

  it('$expand takes nested options (OData 4.0 part 2, 5.1.2): $select with commas inside, $filter, $orderby, $top, $skip separated by ;', async () => {
    const q = encodeURIComponent("salesOrderLines($select=sequence,description;$filter=quantity ge 1 and description ne 'a,b;c)';$orderby=sequence desc;$top=1),customer($select=number,displayName)");
    const r = await call('GET', `${orders()}(${ORDER})?$select=number&$expand=${q}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const lines = r.body.salesOrderLines as Record<string, unknown>[];
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0]!)).toEqual(['@odata.etag', 'sequence', 'description']);
    expect(lines[0]!.sequence).toBe(20000);
    expect(r.body.customer).toEqual({ number: '10000', displayName: 'Adatum Corporation' });
    const all = await call('GET', `${orders()}(${ORDER})?$expand=salesOrderLines($skip=1)`);
    expect((all.body.salesOrderLines as unknown[]).length).toBe(1);
    for (const [expand, message] of [
      ['customer($top=1)', "The query option $top cannot be applied to 'customer', which is a single record"],
      ['salesOrderLines($select=nosuch)', "Bad Request - Error in query syntax: Could not find a property named 'nosuch'"],
      ['salesOrderLines($count=true)', "The query option $count is not supported in the $expand of 'salesOrderLines'"],
      ['salesOrderLines($select=sequence', 'Bad Request - Error in query syntax: unbalanced "("'],
    ]) {
      const bad = await call('GET', `${orders()}(${ORDER})?$expand=${encodeURIComponent(expand!)}`);
      expect(bad.status, expand).toBe(400);
      expect(bad.body.error.message, expand).toMatch(new RegExp(`^${message!.replace(/[$()]/g, '\\$&')}\\.  CorrelationId`));
    }
  });

  it('names every JS object has (toString, constructor) are no fields or navigation properties', async () => {
    const people = `${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies(${e2e.env.VX_ERP_COMPANY})/salespeoplePurchasers`;
    const sel = await call('GET', `${people}?$select=toString`);
    expect([sel.status, sel.body.error.message]).toEqual([400, expect.stringMatching(/^Bad Request - Error in query syntax: Could not find a property named 'toString'/)]);
    const filter = await call('GET', `${people}?$filter=constructor eq null`);
    expect(filter.status).toBe(400);
    const post = await call('POST', people, {}, { code: 'ZZ', toString: 'x' });
    expect([post.status, post.body.error.code]).toEqual([400, 'BadRequest_PropertyNotFound']);
    expect((await call('GET', `${people}?$filter=code eq 'ZZ'`)).body.value).toEqual([]);
    const nav = await call('GET', `${orders()}(${ORDER})/constructor`);
    expect([nav.status, nav.body.error.message]).toEqual([400, expect.stringMatching(/^Could not find a navigation property named 'constructor'/)]);
    const expand = await call('GET', `${orders()}(${ORDER})?$expand=hasOwnProperty`);
    expect(expand.status).toBe(400);
  });

  it('$count=true adds @odata.count (all matches, before $top/$skip and paging); /$count answers the number as text/plain (OData 4.0 part 2, 11.2.5.5 and part 1, 11.2.9)', async () => {
    const open = (await call('GET', `${orders()}?$filter=status eq 'Open'`)).body.value.length as number;
    expect(open).toBeGreaterThan(3);
    const r = await call('GET', `${orders()}?$filter=status eq 'Open'&$count=true&$top=2&$skip=1&$select=number`, { prefer: 'odata.maxpagesize=1' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['@odata.context', '@odata.count', 'value', '@odata.nextLink']);
    expect(r.body['@odata.count']).toBe(open);
    expect(r.body.value).toHaveLength(1);
    const next = await call('GET', r.body['@odata.nextLink'] as string);
    expect(next.body['@odata.count']).toBe(open);
    expect(next.body.value).toHaveLength(1);
    expect((await call('GET', `${orders()}?$count=false`)).body['@odata.count']).toBeUndefined();
    const wrong = await call('GET', `${orders()}?$count=yes`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('BadRequest_NotFound');
    expect(wrong.body.error.message).toMatch(/^Bad Request - Error in query syntax: 'yes' is not a valid count option\.  CorrelationId:  [0-9a-f-]{36}\.$/);
    const bare = await fetch(`${orders()}/$count?$filter=status eq 'Open'`, { headers: auth });
    expect(bare.status).toBe(200);
    expect(bare.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await bare.text()).toBe(String(open));
    const all = await fetch(`${orders()}/%24count`, { headers: auth });
    expect(await all.text()).toBe('45');
    const companies = await fetch(`${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies/$count`, { headers: auth });
    expect(await companies.text()).toBe(String((await call('GET', `${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies`)).body.value.length));
    expect((await call('GET', `${orders()}/$count?$filter=nope eq 1`)).body.error.code).toBe('BadRequest_NotFound');
  });

  it('a duplicate key, a string over its length and a blank required field answer the codes and messages of the platform\'s error table (dynamics-error-codes.md)', async () => {
    const cur = `${e2e.env.VX_ERP_PREFIX}/api/v1.0/companies(${e2e.env.VX_ERP_COMPANY})/currencies`;
    expect((await call('POST', cur, {}, { code: 'CHF' })).status).toBe(201);
    const dup = await call('POST', cur, {}, { code: 'chf' });
    expect(dup.status).toBe(400);
    expect(dup.body.error.code).toBe('Internal_EntityWithSameKeyExists');
    expect(dup.body.error.message).toMatch(/^The record in table currencies already exists\. Identification fields and values: Code='chf'\.  CorrelationId:  [0-9a-f-]{36}\.$/);
    const long = await call('POST', cur, {}, { code: 'ABCDEFGHIJK' });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('Application_StringExceededLength');
    expect(long.body.error.message).toMatch(/^The length of the string is 11, but it must be less than or equal to 10 characters\. Value: ABCDEFGHIJK\.  CorrelationId:  [0-9a-f-]{36}\.$/);
    for (const body of [{ displayName: 'no code' }, { code: '' }, { code: null }]) {
      const blank = await call('POST', cur, {}, body);
      expect(blank.status).toBe(400);
      expect(blank.body.error.code).toBe('BadRequest_RequiredParamNotProvided');
      expect(blank.body.error.message).toMatch(/^Field 'code' must not be blank or empty\.  CorrelationId:  [0-9a-f-]{36}\.$/);
    }
    const name = await call('POST', cur, {}, { code: 'QQ', displayName: 'é'.repeat(31) });
    expect(name.body.error).toMatchObject({ code: 'Application_StringExceededLength' });
    expect(name.body.error.message).toMatch(/^The length of the string is 31, but it must be less than or equal to 30 characters\. Value: é{31}\./);
  });

  it('PATCH and DELETE need If-Match (400 BadRequest_InvalidToken), a stale one is 412 Request_EntityChanged, * is accepted', async () => {
    const none = await call('PATCH', `${orders()}(${ORDER})`, {}, { discountAmount: 1 });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('BadRequest_InvalidToken');
    expect(none.body.error.message).toMatch(/CorrelationId: {2}[0-9a-f-]+\.$/);
    expect((await call('DELETE', `${orders()}(${ORDER})`)).body.error.code).toBe('BadRequest_InvalidToken');
    const stale = await call('PATCH', `${orders()}(${ORDER})`, { 'if-match': 'W/"stale"' }, { discountAmount: 1 });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('Request_EntityChanged');
    const current = (await call('GET', `${orders()}(${ORDER})`)).body['@odata.etag'];
    const ok = await call('PATCH', `${orders()}(${ORDER})`, { 'if-match': current }, { discountAmount: 1 });
    expect(ok.status).toBe(200);
    expect(ok.body['@odata.etag']).not.toBe(current);
    expect((await call('PATCH', `${orders()}(${ORDER})`, { 'if-match': current }, { discountAmount: 2 })).status).toBe(412);
    expect((await call('PATCH', `${orders()}(${ORDER})`, { 'if-match': '*' }, { discountAmount: 2 })).status).toBe(200);
    expect((await call('DELETE', `${orders()}(${ORDER})`, { 'if-match': '*' })).status).toBe(204);
    expect((await call('GET', `${orders()}(${ORDER})`)).body.error.code).toBe('BadRequest_NotFound');
  });

  it('rejects read-only, unknown and malformed fields', async () => {
    const ro = await call('POST', orders(), {}, { number: 'X' });
    expect(ro.status).toBe(400);
    // the platform's documented code and message for a non-editable field (dynamics-error-codes.md)
    expect(ro.body.error.code).toBe('BadRequest_InvalidOperation');
    expect(ro.body.error.message).toMatch(/^Control 'number' is read-only\.  CorrelationId:  [0-9a-f-]{36}\.$/);
    expect((await call('POST', orders(), {}, { colour: 'red' })).status).toBe(400);
    expect((await call('POST', orders(), {}, { orderDate: 'today' })).status).toBe(400);
    const cur = `${e2e.env.VX_ERP_PREFIX}/api/v1.0/companies(${e2e.env.VX_ERP_COMPANY})/currencies`;
    expect((await call('POST', cur, {}, { code: 'ABCDEFGHIJK' })).status).toBe(400);
    expect((await call('POST', cur, {}, { displayName: 'no code' })).status).toBe(400);
    const created = await call('POST', cur, {}, { code: 'CHF' });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe(created.body['@odata.etag']);
  });

  it('answers the wrong api version with 404, a missing operation with 405, a bad key or query option with 400', async () => {
    expect((await call('GET', `${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies(${e2e.env.VX_ERP_COMPANY})/currencies`)).status).toBe(404);
    expect((await call('POST', `${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies(${e2e.env.VX_ERP_COMPANY})/jobQueueEntries`, {}, {})).status).toBe(405);
    expect((await call('GET', `${orders()}(nonsense)`)).status).toBe(400);
    expect((await call('GET', `${orders()}?$top=-1`)).status).toBe(400);
    expect((await call('GET', `${orders()}?$filter=(status eq`)).status).toBe(400);
    expect((await call('GET', `${e2e.env.VX_ERP_PREFIX}/api/v2.0/companies(11111111-2222-4333-8444-555555555555)/salesOrders`)).status).toBe(404);
    expect((await fetch(orders())).status).toBe(401);
  });
});

describe('emulated refresh service', () => {
  const lcs = () => e2e.env.VX_LCS_ENDPOINT;
  it('answers 200 IsSuccess:false without x-vendor-version; the status moves NotStarted -> InProgress -> Completed', async () => {
    const url = `${lcs()}/databasemovement/v1/refresh/project/p/source/a/target/b`;
    const missing = await call('POST', url);
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({ IsSuccess: false, OperationActivityId: null, ErrorMessage: expect.stringMatching(/x-vendor-version/) });
    const ok = await call('POST', url, { 'x-vendor-version': '2017-09-15' });
    expect(ok.body.IsSuccess).toBe(true);
    const status = `${lcs()}/databasemovement/v1/fetchstatus/project/p/environment/b/operationactivity/${ok.body.OperationActivityId}`;
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await call('GET', status, { 'x-vendor-version': '2017-09-15' })).body.OperationStatus);
    expect(seen).toEqual(['NotStarted', 'InProgress', 'Completed', 'Completed']);
    const unknown = await call('GET', status.replace(/[0-9a-f-]{36}$/, '11111111-2222-4333-8444-555555555555'), { 'x-vendor-version': '2017-09-15' });
    expect(unknown.body.IsSuccess).toBe(false);
  });

  it('refuses a refresh whose source and target are one environment, its GUID written in two cases', async () => {
    const url = `${lcs()}/databasemovement/v1/refresh/project/p/source/5362377c-bc37-4f92-b30e-fe0c1e664cc0/target/5362377C-BC37-4F92-B30E-FE0C1E664CC0`;
    const r = await call('POST', url, { 'x-vendor-version': '2017-09-15' });
    expect(r.body).toEqual({ IsSuccess: false, OperationActivityId: null, ErrorMessage: 'The source and target environments must be different.', VersionEOL: '9999-12-31T23:59:59.9999999' });
  });
});

describe('v1.0 sales quote create (the API page APIV1 - Sales Quotes)', () => {
  const quotes = () => `${e2e.env.VX_ERP_PREFIX}/api/v1.0/companies(${e2e.env.VX_ERP_COMPANY})/salesQuotes`;

  it('resolves the customer from customerNumber and fills the fields the real record has', async () => {
    const r = await call('POST', quotes(), {}, { documentDate: '2026-12-31', customerNumber: '10000', currencyCode: 'EUR' });
    expect(r.status).toBe(201);
    const eur = (await call('GET', `${e2e.env.VX_ERP_PREFIX}/api/v1.0/companies(${e2e.env.VX_ERP_COMPANY})/currencies?$filter=code eq 'EUR'`)).body.value[0];
    expect(r.body).toMatchObject({
      customerId: '00001001-0000-4000-8000-000000010001',
      customerNumber: '10000',
      customerName: 'Adatum Corporation',
      contactId: '',
      billingPostalAddress: { street: '192 Market Square', city: 'Atlanta', state: 'GA', countryLetterCode: 'US', postalCode: '31772' },
      currencyId: eur.id,
      currencyCode: 'EUR',
      shipmentMethodId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      shipmentMethod: 'EXW',
      sentDate: '0001-01-01T00:00:00Z',
      acceptedDate: '0001-01-01',
      status: 'Draft',
    });
    expect(r.body.number).toMatch(/^S-QUO\d+$/);
  });

  it('refuses number (non-editable) and an unknown or missing customer with the platform errors', async () => {
    const num = await call('POST', quotes(), {}, { number: '1006', customerNumber: '10000' });
    expect([num.status, num.body.error.code]).toEqual([400, 'BadRequest_InvalidOperation']);
    expect(num.body.error.message).toMatch(/^Control 'number' is read-only\./);
    const none = await call('POST', quotes(), {}, { documentDate: '2026-12-31' });
    expect([none.status, none.body.error.code]).toEqual([400, 'Application_DialogException']);
    expect(none.body.error.message).toMatch(/^A customerNumber or a customerId must be provided\.  CorrelationId:/);
    const unknown = await call('POST', quotes(), {}, { customerNumber: '99999' });
    expect(unknown.body.error.message).toMatch(/^The sell-to customer cannot be found\./);
    const mismatch = await call('POST', quotes(), {}, { customerNumber: '20000', customerId: '00001001-0000-4000-8000-000000010001' });
    expect(mismatch.body.error.message).toMatch(/^The sell-to customer values do not match to a specific Customer\./);
    const cur = await call('POST', quotes(), {}, { customerNumber: '10000', currencyCode: 'XYZ' });
    expect(cur.body.error.message).toMatch(/^The "currencyCode" does not match to a Currency\./);
  });
});
