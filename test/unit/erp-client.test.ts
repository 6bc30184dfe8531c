import { describe, expect, it } from 'vitest';
import { ErpClient, ETAG_PLACEHOLDER } from '../../src/api/erp/client.js';
import { outcomeOf } from '../../src/api/erp/refresh.js';
import { SETTINGS } from '../../src/api/settings.js';
import { Config } from '../../src/core/config/index.js';
import { AuthError, ConflictError, UsageError } from '../../src/core/errors.js';
import { Http, type HttpRequest } from '../../src/core/http/index.js';
import { sentHeaders } from '../helpers/authenticator.js';
import { findSet } from '../../src/model/erp/index.js';

const COMPANY = '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f';
const env = { VX_ERP_PREFIX: 'http://127.0.0.1:9/erp/', VX_ERP_TOKEN: 't0ken', VX_ERP_COMPANY: COMPANY, VX_CONFIG_DIR: '/nonexistent-vx-test' };
const config = (e: Record<string, string> = env) => new Config(SETTINGS, { env: e });
const orders = findSet('salesOrders')!;
const currencies = findSet('currencies')!;

describe('ErpClient', () => {
  it('builds collection and item URLs from the model (api version, company, keys)', async () => {
    const c = await ErpClient.open(new Http({ dryRun: true }), config(), orders);
    expect(c.collectionUrl(orders, { $top: 5 })).toBe(`http://127.0.0.1:9/erp/api/v2.0/companies(${COMPANY})/salesOrders?$top=5`);
    expect(c.itemUrl(currencies, "O'K", '/x')).toBe(`http://127.0.0.1:9/erp/api/v1.0/companies(${COMPANY})/currencies('O''K')/x`);
    expect(() => c.itemUrl(orders, 'S-ORD1')).toThrow(UsageError);
    const root = await ErpClient.open(new Http({ dryRun: true }), config({ ...env, VX_ERP_COMPANY: '' }), findSet('companies')!);
    expect(root.collectionUrl(findSet('companies')!)).toBe('http://127.0.0.1:9/erp/api/v2.0/companies');
  });

  it('checks the company and the token before anything is sent', async () => {
    await expect(ErpClient.open(new Http(), config({ ...env, VX_ERP_COMPANY: 'two\nlines' }), orders)).rejects.toThrow(/expected a GUID or a name/);
    await expect(ErpClient.open(new Http(), config({ ...env, VX_ERP_COMPANY: '' }), orders)).rejects.toThrow(UsageError);
    await expect(ErpClient.open(new Http(), config({ ...env, VX_ERP_TOKEN: '' }), orders)).rejects.toThrow(AuthError);
  });

  it('chooses If-Match: given, *, or (in --dry-run) a planned GET and a placeholder', async () => {
    const http = new Http({ dryRun: true });
    const c = await ErpClient.open(http, config(), orders);
    const id = '0000100e-0000-4000-8000-0000000e0001';
    expect(await c.ifMatch(orders, id, 'W/"a"', false)).toBe('W/"a"');
    expect(await c.ifMatch(orders, id, undefined, true)).toBe('*');
    expect(http.planned).toHaveLength(0);
    expect(await c.ifMatch(orders, id)).toBe(ETAG_PLACEHOLDER);
    expect(http.planned).toEqual([expect.objectContaining({ method: 'GET', url: `http://127.0.0.1:9/erp/api/v2.0/companies(${COMPANY})/salesOrders(${id})` })]);
  });

  it('turns a stale ETag into a conflict that says the record was left as it was', async () => {
    const sent: HttpRequest[] = [];
    const fake = {
      dryRun: false,
      async send(req: HttpRequest) {
        sent.push(req);
        throw new ConflictError('HTTP 409 Conflict Request_EntityChanged: Another user has already changed the record.', { status: 409, code: 'Request_EntityChanged' });
      },
    } as unknown as Http;
    const c = await ErpClient.open(fake, config(), orders);
    const err = await c.update(orders, '0000100e-0000-4000-8000-0000000e0001', { status: 'Open' }, 'W/"x"').catch((e) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toMatch(/^the sales order 0000100e-0000-4000-8000-0000000e0001 was changed by someone else since its ETag was read; it was left as it was\..*HTTP 409/);
    expect(err.code).toBe('Request_EntityChanged');
    expect(sentHeaders(sent[0])).toMatchObject({ 'If-Match': 'W/"x"', Authorization: 'Bearer t0ken' });
    expect(sent[0].body).toEqual({ status: 'Open' });
  });
});

describe('refresh outcomes', () => {
  it('maps operation states', () => {
    for (const s of ['Completed', 'SignedOff']) expect(outcomeOf(s)).toBe('done');
    for (const s of ['Failed', 'Aborted', 'Rollback', 'RollbackCompleted', 'RollbackFailed']) expect(outcomeOf(s)).toBe('failed');
    for (const s of ['NotStarted', 'InProgress', 'RollbackInProgress', undefined]) expect(outcomeOf(s)).toBe('running');
    for (const s of ['NotStarted', 'InProgress', undefined, 'Something new']) expect(outcomeOf(s)).toBe('running');
  });
});
