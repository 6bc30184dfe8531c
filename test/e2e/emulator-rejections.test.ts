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
