// The input rules of the management commands end to end (one spawned case: exit 2, one line, nothing
// in the emulator's request log; every rule runs in-process in unit/mgmt-validation-inproc), plus
// the emulator's own checks of the same rules.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const SUB = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
const requestLog = async (): Promise<unknown[]> => ((await (await fetch(`${e2e.emu.url}/_emulator/requests`)).json()) as unknown[]);

describe('input rules: exit 2, the rule named, nothing sent', () => {
  // the rules themselves run in-process: test/unit/mgmt-validation-inproc.test.ts; this proves the
  // exit code and the one line of the real process end to end
  it('a bad --service: exit 2, one line, no request', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'list', '--resource-group', 'web', '--service', '1api']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^vx: invalid --service "1api": the service name must match the pattern .*; nothing was sent\n$/);
    expect(r.stdout).toBe('');
    expect(await requestLog()).toEqual([]);
  });
});

describe('the emulator checks the same rules (like the service)', () => {
  const get = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${e2e.emu.url}/mgmt${path}`, {
      method,
      headers: { authorization: `Bearer ${e2e.emu.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const apim = `/subscriptions/${SUB}/resourceGroups/web/providers/Vendor.ApiManagement/service/contoso-api/apiVersionSets`;

  it('api-version is required and must be the family one', async () => {
    const none = await get('GET', apim);
    expect(none).toEqual({ status: 400, json: { error: { code: 'MissingApiVersionParameter', message: expect.any(String), target: '', details: [], additionalInfo: [] } } });
    const wrong = await get('GET', `/subscriptions/${SUB}/providers/Vendor.ResourceHealth/events?api-version=2024-05-01`);
    expect(wrong).toEqual({ status: 400, json: { code: 'InvalidApiVersionParameter', message: "The api-version '2024-05-01' is invalid. The supported versions are '2025-05-01'.", details: '' } });
    const quota = await get('GET', `/subscriptions/${SUB}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimits/cores`);
    expect(quota).toEqual({ status: 400, json: { error: { code: 'MissingApiVersionParameter', message: expect.any(String), details: [] } } });
  });

  it('path rules answer 400 ValidationError with the target', async () => {
    const r = await get('GET', `/subscriptions/abc/resourceGroups/web/providers/Vendor.ApiManagement/service/contoso-api/apiVersionSets?api-version=2024-05-01`);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'ValidationError', target: 'subscriptionId' });
    const svc = await get('GET', `/subscriptions/${SUB}/resourceGroups/web/providers/Vendor.ApiManagement/service/1api/apiVersionSets?api-version=2024-05-01`);
    expect(svc.json.error).toMatchObject({ code: 'ValidationError', target: 'serviceName' });
    const id = await get('GET', `${apim}/a%2Ab?api-version=2024-05-01`);
    expect(id.json.error).toMatchObject({ code: 'ValidationError', target: 'versionSetId' });
    const top = await get('GET', `${apim}?api-version=2024-05-01&$top=0`);
    expect(top.json.error).toMatchObject({ code: 'ValidationError', target: '$top' });
  });

  it('bodies: displayName required, Header needs versionHeaderName; DELETE needs If-Match; quota limit int32', async () => {
    const noName = await get('PUT', `${apim}/x1?api-version=2024-05-01`, { properties: { versioningScheme: 'Segment' } });
    expect(noName.json.error).toMatchObject({ code: 'ValidationError', target: 'displayName' });
    const header = await get('PUT', `${apim}/x1?api-version=2024-05-01`, { properties: { displayName: 'X', versioningScheme: 'Header' } });
    expect(header.json.error).toMatchObject({ target: 'versionHeaderName' });
    const del = await get('DELETE', `${apim}/orders?api-version=2024-05-01`);
    expect(del.status).toBe(400);
    const limit = await get('PATCH', `/subscriptions/${SUB}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimits/cores?api-version=2020-10-25`, { properties: { limit: 2 ** 31, unit: 'Count', name: { value: 'cores' } } });
    expect(limit).toEqual({ status: 400, json: { error: { code: 'InvalidQuotaLimit', message: expect.stringMatching(/whole number from 0 to 2147483647/), details: [] } } });
    const unit = await get('PATCH', `/subscriptions/${SUB}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimits/cores?api-version=2020-10-25`, { properties: { limit: 5, unit: 'Bytes', name: { value: 'cores' } } });
    expect(unit.json.error.code).toBe('InvalidUnit');
  });

  it('listing quotas works for some providers only', async () => {
    const ok = await get('GET', `/subscriptions/${SUB}/providers/Vendor.Capacity/resourceProviders/Vendor.Compute/locations/eastus/serviceLimits?api-version=2020-10-25`);
    expect(ok.json.value.length).toBe(6);
    const no = await get('GET', `/subscriptions/${SUB}/providers/Vendor.Capacity/resourceProviders/Vendor.Network/locations/eastus/serviceLimits?api-version=2020-10-25`);
    expect(no.status).toBe(400);
    expect(no.json.error.code).toBe('ListNotSupported');
  });
});
