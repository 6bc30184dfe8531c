// export -o ndjson's pages: records cut from the answer's text where it allows, parsed exactly
// where it does not; the same lines either way.
import { describe, expect, it } from 'vitest';
import { ErpClient } from '../../src/api/erp/client.js';
import { SETTINGS } from '../../src/api/settings.js';
import { Config } from '../../src/core/config/index.js';
import { Http } from '../../src/core/http/index.js';
import { isExactNumber, stringifyExact } from '../../src/core/json.js';
import { findSet } from '../../src/model/erp/index.js';
import { HttpMock } from '../helpers/httpmock.js';

const COMPANY = '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f';
const env = { VX_ERP_PREFIX: 'http://127.0.0.1:9/erp/', VX_ERP_TOKEN: 't0ken', VX_ERP_COMPANY: COMPANY, VX_CONFIG_DIR: '/nonexistent-vx-test' };
const people = findSet('salespeople')!;
const base = `http://127.0.0.1:9/erp/api/v2.0/companies(${COMPANY})/salespeoplePurchasers`;
const page = (status: number, body: string) => ({ status, headers: { 'content-type': 'application/json' }, body });

describe('listPagesNdjson', () => {
  it('cuts pages as written (bytes for ASCII, text otherwise); a page spread over lines is parsed exactly; a broken page is a service error', async () => {
    const mock = new HttpMock()
      .stub('GET', base, page(200, `{"@odata.context":"c","value":[{"code":"A","n":12345678901234567890,"t":"\\u00e9"},{"code":"B,}"}],"@odata.nextLink":"${base}?$skiptoken=2"}`))
      .stub('GET', `${base}?$skiptoken=2`, page(200, `{"value":[ {"code" : "C"} , 7 ,{"d":[1,2]}],"@odata.nextLink":"${base}?$skiptoken=3"}`))
      .stub('GET', `${base}?$skiptoken=3`, page(200, `{"value":[{"code":"Ä"},{"code":"日本"}],"@odata.nextLink":"${base}?$skiptoken=4"}`))
      .stub('GET', `${base}?$skiptoken=4`, page(200, `{"value":[\n  {"code":"C",\n   "n":98765432109876543210}\n],"@odata.nextLink":"${base}?$skiptoken=5"}`))
      .stub('GET', `${base}?$skiptoken=5`, page(200, '{"value":[{"code":"D"}'));
    const c = await ErpClient.open(new Http({ transport: mock.transport, retries: 0 }), new Config(SETTINGS, { env }), people);
    const got: { count: number; items?: Record<string, unknown>[]; ndjson?: string | Uint8Array }[] = [];
    const err = await (async () => {
      for await (const p of c.listPagesNdjson(people, { pageSize: 2 })) got.push(p);
    })().catch((e) => e);
    expect(mock.requests[0].headers.prefer).toBe('odata.maxpagesize=2');
    const text = (x: string | Uint8Array | undefined) => (typeof x === 'string' ? x : Buffer.from(x!).toString('utf8'));
    // as written: the long number and the escape kept; the records are not kept, only counted
    expect(text(got[0].ndjson)).toBe('{"code":"A","n":12345678901234567890,"t":"\\u00e9"}\n{"code":"B,}"}\n');
    expect(got[0].count).toBe(2);
    expect('items' in got[0]).toBe(false);
    expect(text(got[1].ndjson)).toBe('{"code" : "C"}\n7\n{"d":[1,2]}\n');
    expect(got[2].ndjson).toBe('{"code":"Ä"}\n{"code":"日本"}\n');
    // spread over lines: no text; the records parsed exactly (the renderer writes them)
    expect(got[3].ndjson).toBeUndefined();
    expect(got[3].count).toBe(1);
    expect(isExactNumber(got[3].items![0].n)).toBe(true);
    expect(stringifyExact(got[3].items![0])).toBe('{"code":"C","n":98765432109876543210}');
    expect(String(err)).toMatch(/not valid JSON/);
    mock.verify();
  });

  it('under --top, pages come parsed (the last one is cut to size)', async () => {
    const mock = new HttpMock().stub('GET', `${base}?$top=1`, page(200, '{"value":[{"code":"A"},{"code":"B"}]}'));
    const c = await ErpClient.open(new Http({ transport: mock.transport }), new Config(SETTINGS, { env }), people);
    const got = [];
    for await (const p of c.listPagesNdjson(people, { top: 1 })) got.push(p);
    expect(got).toEqual([{ count: 1, items: [{ code: 'A' }] }]);
  });
});
