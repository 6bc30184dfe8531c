// What the real services refuse, the emulator refuses with the real status and error body; what they
// ignore, it ignores (docs/emulator-fidelity.md has the list with its sources). Raw requests against
// the in-process emulator; the published-example replay is in test/fidelity/.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();

async function call(family: string, method: string, path: string, opts: { body?: string; type?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = family === 'translator' ? { 'vendor-subscription-key': e2e.emu.key } : { authorization: `Bearer ${e2e.emu.token}` };
  if (opts.body !== undefined) headers['content-type'] = opts.type ?? 'application/json';
  const res = await fetch(`${e2e.emu.url}/${family}${path}`, { method, headers: { ...headers, ...opts.headers }, body: opts.body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const hello = JSON.stringify([{ text: 'Hello' }]);
const company = () => e2e.env.VX_ERP_COMPANY;
const sub = () => e2e.env.VX_SUBSCRIPTION;
const sets = () => `/subscriptions/${sub()}/resourceGroups/web/providers/Vendor.ApiManagement/service/contoso-api/apiVersionSets`;

describe('translator', () => {
  it('refuses a missing or unknown api-version, a non-JSON Content-Type: the 6-digit codes of the reference page', async () => {
    expect(await call('translator', 'POST', '/translate?to=de', { body: hello })).toMatchObject({ status: 400, body: { error: { code: 400021 } } });
    expect(await call('translator', 'POST', '/translate?api-version=2.0&to=de', { body: hello })).toMatchObject({ status: 400, body: { error: { code: 400021 } } });
    expect(await call('translator', 'POST', '/translate?api-version=3.0&to=de', { body: hello, type: 'text/plain' })).toMatchObject({ status: 415, body: { error: { code: 415000 } } });
  });

  it('ignores unknown query parameters and options that do not apply', async () => {
    const unknown = await call('translator', 'POST', '/translate?api-version=3.0&to=de&from=en&foo=bar&Subscription-Region=x', { body: hello });
    expect(unknown).toEqual({ status: 200, body: [{ translations: [{ to: 'de', text: '[de] Ĥéļļö' }] }] });
    // alignment of an HTML text: no alignment (an empty proj), no error
    const html = await call('translator', 'POST', '/translate?api-version=3.0&to=de&from=en&textType=html&includeAlignment=true', { body: JSON.stringify([{ text: '<b>Hi</b>' }]) });
    expect(html).toEqual({ status: 200, body: [{ translations: [{ to: 'de', text: '<b>[de] Ĥî</b>', alignment: { proj: '' } }] }] });
    // a marker without a profanity action, suggestedFrom next to from: ignored
    const marker = await call('translator', 'POST', '/translate?api-version=3.0&to=de&from=en&profanityMarker=Tag&suggestedFrom=fr', { body: JSON.stringify([{ text: 'damn' }]) });
    expect(marker).toEqual({ status: 200, body: [{ translations: [{ to: 'de', text: '[de] damn' }] }] });
  });
});

describe('business data (ERP)', () => {
  it('a malformed OData query is 400 BadRequest_NotFound "Bad Request - Error in query syntax"', async () => {
    const r = await call('erp', 'GET', `/api/v2.0/companies(${company()})/salesOrders?$filter=${encodeURIComponent("status eq 'Open' and")}`);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('BadRequest_NotFound');
    expect(r.body.error.message).toMatch(/^Bad Request - Error in query syntax: .*  CorrelationId:  [0-9a-f-]{36}\.$/);
    expect((await call('erp', 'GET', `/api/v2.0/companies(${company()})/salesOrders?$orderby=nosuch`)).body.error.code).toBe('BadRequest_NotFound');
    expect((await call('erp', 'GET', `/api/v2.0/companies(${company()})/salesOrders?$top=-1`)).status).toBe(400);
  });

  it('an unknown entity set, or one asked under the wrong API version, is 404 BadRequest_ResourceNotFound', async () => {
    const r = await call('erp', 'GET', `/api/v2.0/companies(${company()})/nosuchThings`);
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'BadRequest_ResourceNotFound', message: expect.stringMatching(/^Resource not found for the segment 'nosuchThings'\./) });
    const v = await call('erp', 'GET', `/api/v2.0/companies(${company()})/salesQuotes`);
    expect(v.status).toBe(404);
    expect(v.body.error.message).toMatch(/^Resource not found for the segment 'salesQuotes' \(it is in API version v1\.0, not v2\.0\)\./);
  });

  it('a body sent as another media type is 415; a body without a Content-Type is read as JSON', async () => {
    const path = `/api/v1.0/companies(${company()})/currencies`;
    const r = await call('erp', 'POST', path, { body: JSON.stringify({ code: 'CHF' }), type: 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.body.error.message).toMatch(/^The Content-Type 'text\/plain' of the request body is not supported; send application\/json\./);
    expect(e2e.emu.state.erp.data[company()].currencies.some((c: any) => c.code === 'CHF')).toBe(false);
    const res = await fetch(`${e2e.emu.url}/erp${path}`, { method: 'POST', headers: { authorization: `Bearer ${e2e.emu.token}` }, body: new Blob([JSON.stringify({ code: 'CHF' })]) });
    expect(res.status).toBe(201);
  });

  it('ignores unknown query parameters', async () => {
    const r = await call('erp', 'GET', `/api/v1.0/companies(${company()})/currencies?foo=1&tenant=x`);
    expect(r.status).toBe(200);
    expect(r.body.value).toHaveLength(5);
  });
});

describe('business data (ERP): a sales order names an existing customer (the API page "APIV2 - Sales Orders")', () => {
  const create = (body: unknown) => call('erp', 'POST', `/api/v2.0/companies(${company()})/salesOrders`, { body: JSON.stringify(body) });
  const dialog = (message: string) => ({ status: 400, body: { error: { code: 'Application_DialogException', message: expect.stringMatching(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  CorrelationId:  `)) } } });
  it('without a customer, with an unknown one, or with an id and a number of two customers: 400 with the page\'s messages, nothing created', async () => {
    const before = e2e.emu.state.erp.data[company()].salesOrders.length;
    expect(await create({ externalDocumentNumber: 'PO-1' })).toMatchObject(dialog('A "customerNumber" or a "customerId" must be provided.'));
    expect(await create({ customerNumber: '' })).toMatchObject(dialog('A "customerNumber" or a "customerId" must be provided.'));
    expect(await create({ customerNumber: '99999' })).toMatchObject(dialog('The sell-to customer cannot be found.'));
    expect(await create({ customerId: '00000000-0000-4000-8000-000000000999' })).toMatchObject(dialog('The sell-to customer cannot be found.'));
    const adatum = e2e.emu.state.erp.data[company()].salesOrders[0].customerId as string;
    expect(await create({ customerId: adatum, customerNumber: '20000' })).toMatchObject(dialog('The sell-to customer values do not match to a specific Customer.'));
    expect(e2e.emu.state.erp.data[company()].salesOrders.length).toBe(before);
    const made = await create({ customerNumber: '20000' });
    expect(made).toMatchObject({ status: 201, body: { customerNumber: '20000', customerName: 'Trey Research', customerId: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    expect((await create({ customerId: adatum.toUpperCase() })).body).toMatchObject({ customerNumber: '10000', customerName: 'Adatum Corporation' });
  });

  it('an update to another customer takes its id and name along; to an unknown one it is refused and the order left as it was', async () => {
    const order = e2e.emu.state.erp.data[company()].salesOrders[0];
    const patch = (body: unknown) => call('erp', 'PATCH', `/api/v2.0/companies(${company()})/salesOrders(${order.id})`, { body: JSON.stringify(body), headers: { 'if-match': '*' } });
    const before = { ...order };
    expect(await patch({ customerNumber: '99999' })).toMatchObject(dialog('The sell-to customer cannot be found.'));
    expect(await patch({ customerNumber: '' })).toMatchObject(dialog('A "customerNumber" or a "customerId" must be provided.'));
    expect(e2e.emu.state.erp.data[company()].salesOrders[0]).toEqual(before);
    const moved = await patch({ customerNumber: '20000' });
    expect(moved).toMatchObject({ status: 200, body: { customerNumber: '20000', customerName: 'Trey Research', customerId: e2e.emu.state.erp.data[company()].salesOrders[1].customerId } });
  });

  it('so does a v1.0 sales quote (its customerName is read-only: it always follows the customer)', async () => {
    const quote = e2e.emu.state.erp.data[company()].salesQuotes[0];
    const patch = (body: unknown) => call('erp', 'PATCH', `/api/v1.0/companies(${company()})/salesQuotes(${quote.id})`, { body: JSON.stringify(body), headers: { 'if-match': '*' } });
    const before = { ...quote };
    expect(await patch({ customerNumber: '99999' })).toMatchObject(dialog('The sell-to customer cannot be found.'));
    expect(await patch({ customerNumber: '' })).toMatchObject(dialog('A customerNumber or a customerId must be provided.'));
    expect(e2e.emu.state.erp.data[company()].salesQuotes[0]).toEqual(before);
    expect(await patch({ customerNumber: '50000' })).toMatchObject({ status: 200, body: { customerNumber: '50000', customerName: 'Relecloud' } });
  });
});

describe('business data (ERP): the $filter subset the service runs', () => {
  const orders = (filter: string, more = '') => call('erp', 'GET', `/api/v2.0/companies(${company()})/salesOrders?$filter=${encodeURIComponent(filter)}${more}`);
  const notImplemented = (message: string) => ({ status: 501, body: { error: { code: 'BadRequest_MethodNotImplemented', message: expect.stringMatching(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  CorrelationId:  [0-9a-f-]{36}\\.$`)) } } });

  it("`or` across different fields is 501 BadRequest_MethodNotImplemented, the service's words; `or` on one field, `and` across fields and `in` are run", async () => {
    const distinct = "The 'OR' operator is not supported on distinct fields on an OData filter.";
    expect(await orders("status eq 'Open' or customerNumber eq '10000'")).toMatchObject(notImplemented(distinct));
    expect(await orders("(status eq 'Open' and customerNumber eq '10000') or (status eq 'Draft' and customerNumber eq '20000')")).toMatchObject(notImplemented(distinct));
    expect(await orders("status eq 'Open' or contains(customerName, 'Ski')")).toMatchObject(notImplemented(distinct));
    const sameField = await orders("customerNumber eq '10000' or customerNumber eq '20000'");
    expect(sameField.status).toBe(200);
    expect(new Set(sameField.body.value.map((o: { customerNumber: string }) => o.customerNumber))).toEqual(new Set(['10000', '20000']));
    expect((await orders("status eq 'Draft' and (customerNumber eq '10000' or tolower(customerNumber) eq '20000')")).status).toBe(200);
  });

  it('`in` is run under $schemaversion=2.1 (or later) only; without it 501, as the service answers', async () => {
    const inFilter = "customerNumber in ('10000', '30000')";
    expect(await orders(inFilter)).toMatchObject(notImplemented("The 'in' operator is supported from $schemaversion=2.1 on; add $schemaversion=2.1 to the request, or join eq conditions on one field with or."));
    expect(await orders(inFilter, '&$schemaversion=2.0')).toMatchObject({ status: 501 });
    const ok = await orders(inFilter, '&$schemaversion=2.1');
    expect(ok.status).toBe(200);
    expect(new Set(ok.body.value.map((o: { customerNumber: string }) => o.customerNumber))).toEqual(new Set(['10000', '30000']));
    expect((await orders(inFilter, '&$schemaversion=3.0')).status).toBe(200);
  });

  it('`not` and the functions the service has no table filter for (trim, length, indexof, concat) are 501; the listed ones are run', async () => {
    expect(await orders("not (status eq 'Open')")).toMatchObject(notImplemented("Client requests that contain 'Not' filter options are not supported."));
    for (const f of ["length(number) eq 11", "trim(customerName) eq 'Relecloud'", "indexof(number, 'S') eq 0", "concat(number, 'x') eq 'S-ORD101001x'"]) {
      const fn = f.slice(0, f.indexOf('('));
      expect(await orders(f), f).toMatchObject(notImplemented(`The function '${fn}' is not supported on an OData filter; the service runs contains, startswith, endswith, substring, tolower and toupper.`));
    }
    for (const f of ["contains(customerName, 'Ski')", "startswith(number, 'S-ORD1')", "endswith(number, '1')", "substring(number, 2) eq 'ORD101001'", "tolower(status) eq 'open'", "toupper(status) eq 'OPEN'"]) {
      expect((await orders(f)).status, f).toBe(200);
    }
    // a malformed filter stays 400, checked first
    expect((await orders("length(number) eq")).status).toBe(400);
    // in a nested $filter of $expand, and in $count, the same
    expect(await orders("status eq 'Open'", `&$expand=${encodeURIComponent("salesOrderLines($filter=sequence eq 10000 or quantity gt 1)")}`)).toMatchObject(notImplemented("The 'OR' operator is not supported on distinct fields on an OData filter."));
    expect((await call('erp', 'GET', `/api/v2.0/companies(${company()})/salesOrders/$count?$filter=${encodeURIComponent("not (status eq 'Open')")}`)).status).toBe(501);
  });

  it('vx says the service cannot run the filter, with its message (no retry: a 501 is not passing)', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'list', '--filter', "status eq 'Open' or customerNumber eq '10000'"]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^vx: HTTP 501 Not Implemented BadRequest_MethodNotImplemented: The 'OR' operator is not supported on distinct fields on an OData filter\. CorrelationId: [0-9a-f-]{36}\. \(request id [0-9a-f-]{36}\)\n$/);
    expect(r.code).toBe(7); // docs/cli-contract.md: 5xx
    expect(e2e.emu.count({ family: 'erp', method: 'GET' })).toBe(1);
  });
});

describe('resource management', () => {
  it('a missing or unknown api-version is 400 in the family error shape', async () => {
    expect((await call('mgmt', 'GET', sets())).body).toEqual({ error: { code: 'MissingApiVersionParameter', message: 'The api-version query parameter (?api-version=) is required for all requests.', target: '', details: [], additionalInfo: [] } });
    const q = await call('mgmt', 'GET', `/subscriptions/${sub()}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimits/cores?api-version=2024-05-01`);
    expect(q).toMatchObject({ status: 400, body: { error: { code: 'InvalidApiVersionParameter', details: [] } } });
  });

  it('a body of another media type is 415 UnsupportedMediaType, nothing changed', async () => {
    const r = await call('mgmt', 'PUT', `${sets()}/v9?api-version=2024-05-01`, { body: JSON.stringify({ properties: { displayName: 'V9', versioningScheme: 'Segment' } }), type: 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.body.error).toMatchObject({ code: 'UnsupportedMediaType', message: "The content media type 'text/plain' is not supported. Only 'application/json' is supported." });
    expect((await call('mgmt', 'GET', `${sets()}/v9?api-version=2024-05-01`)).status).toBe(404);
  });

  it('a body above 4 MB is 413, below it is read', async () => {
    const big = JSON.stringify({ properties: { displayName: 'V9', versioningScheme: 'Segment', description: 'x'.repeat(4 * 1024 * 1024) } });
    const r = await call('mgmt', 'PUT', `${sets()}/v9?api-version=2024-05-01`, { body: big });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('RequestEntityTooLarge');
    const ok = await call('mgmt', 'PUT', `${sets()}/v9?api-version=2024-05-01`, { body: JSON.stringify({ properties: { displayName: 'V9', versioningScheme: 'Segment', description: 'x'.repeat(1024 * 1024) } }) });
    expect(ok.status).toBe(201);
  });

  it('a malformed $filter or $top is 400; unknown query parameters are ignored', async () => {
    expect((await call('mgmt', 'GET', `${sets()}?api-version=2024-05-01&$filter=${encodeURIComponent('name eq')}`)).status).toBe(400);
    expect((await call('mgmt', 'GET', `${sets()}?api-version=2024-05-01&$top=0`)).status).toBe(400);
    const r = await call('mgmt', 'GET', `${sets()}?api-version=2024-05-01&foo=bar&$expand=x`);
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(12);
  });

  it('the fixed parts of a path match in any case, as the resource manager matches them (ids from other tools say resourcegroups); request ids too', async () => {
    const lower = await call('mgmt', 'GET', `/subscriptions/${sub()}/resourcegroups/WEB/providers/vendor.apimanagement/service/contoso-api/apiversionsets/orders?api-version=2024-05-01`);
    expect(lower).toMatchObject({ status: 200, body: { name: 'orders' } });
    const quota = await call('mgmt', 'GET', `/subscriptions/${sub()}/providers/VENDOR.CAPACITY/resourceProviders/Vendor.Compute/locations/eastus/servicelimits/cores?api-version=2020-10-25`);
    expect(quota).toMatchObject({ status: 200, body: { name: 'cores' } });
    const events = await call('mgmt', 'GET', `/subscriptions/${sub()}/providers/vendor.resourcehealth/Events?api-version=2025-05-01`);
    expect(events.status).toBe(200);
    expect(events.body.value.length).toBeGreaterThan(0);
    const details = await call('mgmt', 'POST', `/subscriptions/${sub()}/providers/Vendor.ResourceHealth/events/KTL1-8PQ/fetcheventdetails?api-version=2025-05-01`);
    expect(details).toMatchObject({ status: 200, body: { name: 'KTL1-8PQ' } });
    const request = await call('mgmt', 'GET', `/subscriptions/${sub()}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimitsRequests/1D3F1C2A-0007-4A5B-9C8D-00000000A007?api-version=2020-10-25`);
    expect(request).toMatchObject({ status: 200, body: { id: '1d3f1c2a-0007-4a5b-9c8d-00000000a007' } });
  });
});

describe('control routes', () => {
  it('refuse a body over 1 MiB (413) instead of taking it as empty: the faults stay as they were', async () => {
    const url = `${e2e.emu.url}/_emulator/faults`;
    expect((await fetch(url, { method: 'PUT', body: 'erp/503:1x' })).status).toBe(204);
    const res = await fetch(url, { method: 'PUT', body: `erp/500:0.5,${' '.repeat(2 << 20)}` });
    expect([res.status, await res.json()]).toEqual([413, { error: { code: 'TooLarge', message: 'the control routes take bodies of 1 MiB at most' } }]);
    expect((await call('erp', 'GET', '/api/v2.0/companies')).status).toBe(503);
    expect((await call('erp', 'GET', '/api/v2.0/companies')).status).toBe(200);
  });
});
