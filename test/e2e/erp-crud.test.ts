// vx erp <set> list/get/create/update/delete against the emulator (usage errors: unit/erp-crud-inproc).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const ORDER = '0000100e-0000-4000-8000-0000000e0001';
const CURRENCY_EUR = '0000100b-0000-4000-8000-0000000b0001';
const SALESPERSON = '0000100a-0000-4000-8000-0000000a0001';
const json = (s: string) => JSON.parse(s);
const company = () => e2e.emu.state.erp.defaultCompany as string;
const store = (set: string) => e2e.emu.state.erp.data[company()][set] as Record<string, any>[];
const sent = (method?: string) => e2e.emu.count({ family: 'erp', method });

describe('erp list', () => {
  it('lists companies without a company id', async () => {
    const r = await e2e.run(['erp', 'companies', 'list'], { env: { VX_ERP_COMPANY: undefined } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const list = json(r.stdout);
    expect(list.map((c: any) => c.name)).toEqual(['CRONUS USA, Inc.', 'My Company']);
    expect(e2e.emu.count({ family: 'erp', method: 'GET', path: '/api/v2.0/companies' })).toBe(1);
  });

  it('follows @odata.nextLink across pages and prints one array (Prefer: odata.maxpagesize)', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'list', '--page-size', '20']);
    expect(r.code).toBe(0);
    const list = json(r.stdout);
    expect(list).toHaveLength(45);
    expect(list.map((o: any) => o.number)).toEqual(Array.from({ length: 45 }, (_, i) => `S-ORD${101001 + i}`));
    expect(list[0]['@odata.etag']).toMatch(/^W\/"/);
    expect(e2e.emu.count({ family: 'erp', method: 'GET', path: '/salesOrders' })).toBe(3);
    expect(e2e.emu.count({ family: 'erp', method: 'GET', path: '$skiptoken=40' })).toBe(1);
  });

  it('reads everything in one request without --page-size', async () => {
    const r = await e2e.run(['erp', 'salesorders', 'list']);
    expect(json(r.stdout)).toHaveLength(45);
    expect(sent('GET')).toBe(1);
  });

  it('--top caps the total across pages; --skip, --filter, --orderby and --select are sent as OData options', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'list', '--page-size', '10', '--top', '25', '--skip', '2']);
    const list = json(r.stdout);
    expect(list).toHaveLength(25);
    expect(list[0].number).toBe('S-ORD101003');
    expect(sent('GET')).toBe(3);
    expect(e2e.emu.log[0].path).toContain('$top=25&$skip=2');

    const f = await e2e.run(['erp', 'sales-orders', 'list', '--filter', "status eq 'Open' and customerNumber eq '20000'", '--orderby', 'totalAmountIncludingTax desc', '--select', 'number,status,totalAmountIncludingTax']);
    expect(f.code).toBe(0);
    const rows = json(f.stdout);
    expect(rows.length).toBeGreaterThan(2);
    for (const o of rows) expect(Object.keys(o).sort()).toEqual(['@odata.etag', 'number', 'status', 'totalAmountIncludingTax']);
    const totals = rows.map((o: any) => o.totalAmountIncludingTax);
    expect(totals).toEqual([...totals].sort((a: number, b: number) => b - a));
  });

  it('shows the useful columns in a table', async () => {
    const r = await e2e.run(['erp', 'currencies', 'list', '-o', 'table']);
    expect(r.stdout.split('\n')[0].split(/\s+/)).toEqual(['CODE', 'NAME', 'SYMBOL', 'DECIMALS', 'ROUNDING']);
    expect(r.stdout).toContain('Pound sterling');
  });

  it('lists every set through its aliases', async () => {
    for (const [noun, n] of [['salespeoplepurchasers', 5], ['salespeople', 5], ['jobqueueentries', 4], ['job-queue-entries', 4], ['salesquotes', 6], ['sales-quotes', 6], ['currencies', 5]] as const) {
      const r = await e2e.run(['erp', noun, 'list']);
      expect(r.code, noun).toBe(0);
      expect(json(r.stdout), noun).toHaveLength(n);
    }
    expect(e2e.emu.log.map((l) => l.path.replace(/companies\([^)]*\)/, 'c'))).toContain('/api/v1.0/c/currencies');
  });

  it('takes --company over VX_ERP_COMPANY', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'list', '--company', '7a9c2d4e-6f80-4b1c-8d2e-3f4a5b6c7d8e']);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toEqual([]);
  });

  it('rejects a bad option before sending anything: exit 2, one line (every rule: unit/erp-crud-inproc)', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'list', '--top', '-1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: invalid value "-1" for --top: expected a whole number of at least 1\n');
    expect(r.stdout).toBe('');
    expect(sent()).toBe(0);
  });

  it('reports a bad $filter from the service (exit 1), 401 (exit 3), a missing token (exit 3, nothing sent) and 404 (exit 4)', async () => {
    const bad = await e2e.run(['erp', 'currencies', 'list', '--filter', "nosuch eq 'x'"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/HTTP 400 .*BadRequest.*nosuch/);
    const unauth = await e2e.run(['erp', 'currencies', 'list'], { env: { VX_ERP_TOKEN: 'wrong' } });
    expect(unauth.code).toBe(3);
    expect(unauth.stderr).toMatch(/HTTP 401 .*Authentication_InvalidCredentials/);
    expect(unauth.stderr).not.toContain('wrong');
    const before = sent();
    const none = await e2e.run(['erp', 'currencies', 'list'], { env: { VX_ERP_TOKEN: undefined } });
    expect(none.code).toBe(3);
    expect(sent()).toBe(before);
    const missing = await e2e.run(['erp', 'sales-orders', 'get', '11111111-2222-4333-8444-555555555555']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/^vx: HTTP 404 Not Found BadRequest_NotFound: .*\(request id [0-9a-f-]+\)\n$/);
  });
});

describe('erp tables', () => {
  it('at 80 columns the ids stay whole and the other columns are cut', async () => {
    const r = await e2e.run(['erp', 'companies', 'list', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'NAME              DISPLAY NAME      ID\n' +
        'CRONUS USA, Inc.  CRONUS USA, Inc.  5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f\n' +
        'My Company        My Company        7a9c2d4e-6f80-4b1c-8d2e-3f4a5b6c7d8e\n',
    );
    const narrow = await e2e.run(['erp', 'job-queue-entries', 'list', '-o', 'table', '--top', '2'], { env: { COLUMNS: '40' } });
    expect(narrow.stdout).toBe('DESCR…  ID\nPost …  0000100c-0000-4000-8000-0000000c0001\nAdjus…  0000100c-0000-4000-8000-0000000c0002\n');
  });
});

describe('erp.prefix', () => {
  it('copied with its /api/v2.0 (or /companies(...)) is exit 2 naming the prefix to use, nothing sent (every request went to .../api/v2.0/api/v2.0/..., a 404 read as not found); profile set refuses it too', async () => {
    const base = e2e.env.VX_ERP_PREFIX!;
    for (const prefix of [`${base}/api/v2.0`, `${base}/api/v1.0/`, `${base}/api/v2.0/companies(${e2e.env.VX_ERP_COMPANY})`]) {
      const r = await e2e.run(['erp', 'currencies', 'list'], { env: { VX_ERP_PREFIX: prefix } });
      expect([r.code, r.stdout], prefix).toEqual([2, '']);
      expect(r.stderr, prefix).toBe(
        `vx: invalid erp.prefix "${prefix.replace(/\/$/, '')}" (from VX_ERP_PREFIX): expected the address before /api/<version> (vx adds /api/v2.0 or /api/v1.0 per entity set, and the company from --company or erp.company), e.g. ${base}; nothing was sent\n`,
      );
    }
    expect(e2e.emu.log).toEqual([]);
    const set = await e2e.run(['profile', 'set', 'erp.prefix', `${base}/api/v2.0`]);
    expect(set.code).toBe(2);
    expect(set.stderr).toMatch(/^vx: invalid value ".*\/api\/v2\.0" for erp\.prefix: expected the address before \/api\/<version>/);
    // a path that only looks alike is a prefix (the service's own address carries /v2.0/<tenant>/<environment>)
    expect((await e2e.run(['profile', 'set', 'erp.prefix', 'https://api.example.com/v2.0/contoso/Production'])).code).toBe(0);
  });
});

describe('erp get', () => {
  it('prints the entity as returned, with --select and --expand', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'get', ORDER, '--select', 'number,status', '--expand', 'salesOrderLines']);
    expect(r.code).toBe(0);
    const o = json(r.stdout);
    expect(o['@odata.context']).toContain('/salesOrders/$entity');
    expect(o['@odata.etag']).toBe(store('salesOrders')[0]['@odata.etag']);
    expect(o.number).toBe('S-ORD101001');
    expect(o.customerName).toBeUndefined();
    expect(o.salesOrderLines).toHaveLength(2);
    expect(e2e.emu.log[0].path).toBe(`/api/v2.0/companies(${company()})/salesOrders(${ORDER})?$select=number,status&$expand=salesOrderLines`);
  });
});

describe('erp create', () => {
  it('POSTs typed --set values to the collection and prints the 201 entity', async () => {
    const r = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=CHF', '--set', 'displayName=Swiss franc', '--set', 'amountRoundingPrecision=0.05', '--set', 'amountDecimalPlaces=2:2']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const c = json(r.stdout);
    expect(c).toMatchObject({ code: 'CHF', displayName: 'Swiss franc', amountRoundingPrecision: 0.05, amountDecimalPlaces: '2:2' });
    expect(c['@odata.etag']).toMatch(/^W\/"/);
    expect(store('currencies').find((x) => x.code === 'CHF')?.id).toBe(c.id);
    expect(e2e.emu.count({ family: 'erp', method: 'POST', path: /\/api\/v1\.0\/companies\([^)]+\)\/currencies$/ })).toBe(1);
  });

  it('merges --data @file with --set (which wins); salespeople create is a POST to the collection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vx-erp-'));
    const file = join(dir, 'sp.json');
    writeFileSync(file, JSON.stringify({ code: 'ZZ', displayName: 'From file', commisionPercent: 1.5, blocked: false }));
    const r = await e2e.run(['erp', 'salespeople', 'create', '--data', `@${file}`, '--set', 'displayName=From set', '--set', 'blocked=true', '--set', 'commisionPercent=7']);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ code: 'ZZ', displayName: 'From set', blocked: true, commisionPercent: 7 });
    expect(e2e.emu.count({ family: 'erp', method: 'POST', path: /salespeoplePurchasers$/ })).toBe(1);
    const stdin = await e2e.run(['erp', 'sales-orders', 'create', '--data', '-', '--set', 'orderDate=2026-04-01'], { input: '{"customerNumber":"20000","externalDocumentNumber":"PO-1"}' });
    expect(stdin.code).toBe(0);
    expect(json(stdin.stdout)).toMatchObject({ customerNumber: '20000', customerName: 'Trey Research', orderDate: '2026-04-01', status: 'Draft', number: 'S-ORD101046' });
  });

  it('refuses a malformed value: exit 2, nothing sent (every type and field rule: unit/erp-crud-inproc)', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'create', '--set', 'discountAmount=12,5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^vx: --set discountAmount: invalid value "12,5": expected number/);
    expect(r.stdout).toBe('');
    expect(sent()).toBe(0);
  });

  it('reports a duplicate code from the service (exit 1) and an ambiguous failure with a way to check (exit 8, not repeated)', async () => {
    const dup = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=EUR']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/HTTP 400 .*Internal_EntityWithSameKeyExists/);
    e2e.emu.setFaults('erp/reset-after:1x');
    const lost = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=NOK']);
    expect(lost.code).toBe(8);
    expect(lost.stderr).toMatch(/create currency: .*outcome is unknown.*check with: vx erp currencies list --filter "code eq 'NOK'"/);
    expect(e2e.emu.count({ family: 'erp', method: 'POST' })).toBe(2);
    expect(store('currencies').filter((c) => c.code === 'NOK')).toHaveLength(1);
  });

  it('the check command of a lost create quotes the key for the shell: a code such as $(...) or `...` is not run when the command is pasted', async () => {
    e2e.emu.setFaults('erp/reset-after:1x');
    const lost = await e2e.run(['erp', 'salespeople', 'create', '--set', 'code=$(id)`x`"\\']);
    expect(lost.code).toBe(8);
    expect(lost.stderr).toContain('check with: vx erp salespeople list --filter "code eq \'\\$(id)\\`x\\`\\"\\\\\'"');
  });

  it('--dry-run prints the request and sends nothing', async () => {
    const r = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=SEK', '--dry-run']);
    expect(r.code).toBe(0);
    const [req] = json(r.stdout);
    expect(req).toMatchObject({ method: 'POST', url: `${e2e.env.VX_ERP_PREFIX}/api/v1.0/companies(${company()})/currencies`, body: { code: 'SEK' } });
    expect(req.headers.authorization).not.toContain('emulator-token');
    expect(sent()).toBe(0);
  });
});

describe('erp update (If-Match)', () => {
  it('without --if-match reads the record first and sends its @odata.etag; PATCH carries only the given fields', async () => {
    const before = { ...store('salesOrders')[0] };
    const r = await e2e.run(['erp', 'sales-orders', 'update', ORDER, '--set', 'discountAmount=5', '--set', 'requestedDeliveryDate=2026-05-01']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const o = json(r.stdout);
    expect(o).toMatchObject({ discountAmount: 5, requestedDeliveryDate: '2026-05-01', customerName: before.customerName, status: before.status });
    expect(o['@odata.etag']).not.toBe(before['@odata.etag']);
    expect(e2e.emu.log.map((l) => l.method)).toEqual(['GET', 'PATCH']);

    const dry = await e2e.run(['erp', 'sales-orders', 'update', ORDER, '--set', 'discountAmount=6', '--dry-run']);
    const reqs = json(dry.stdout);
    expect(reqs.map((x: any) => x.method)).toEqual(['GET', 'PATCH']);
    expect(reqs[1].body).toEqual({ discountAmount: 6 });
    expect(reqs[1].headers['if-match']).toMatch(/fresh GET/);
  });

  it('sends --if-match as given (no read); a stale ETag exits 5 and leaves the record as it was', async () => {
    const etag = store('currencies')[0]['@odata.etag'];
    const ok = await e2e.run(['erp', 'currencies', 'update', CURRENCY_EUR, '--set', 'symbol=EUR', '--if-match', etag]);
    expect(ok.code).toBe(0);
    expect(e2e.emu.log.map((l) => l.method)).toEqual(['PATCH']);
    const stale = await e2e.run(['erp', 'currencies', 'update', CURRENCY_EUR, '--set', 'symbol=XX', '--if-match', etag]);
    expect(stale.code).toBe(5);
    expect(stale.stderr).toMatch(/changed by someone else.*left as it was.*HTTP 412 .*Request_EntityChanged/);
    expect(store('currencies')[0].symbol).toBe('EUR');
  });

  it('an empty --if-match (a script\'s unset "$etag") is exit 2 with nothing sent, for update and delete: not a silent fresh read that overwrites what changed', async () => {
    const msg = 'vx: --if-match may not be empty: give the ETag the record must still have, or leave --if-match out to use the ETag of a fresh read; nothing was sent\n';
    for (const a of [
      ['erp', 'currencies', 'update', CURRENCY_EUR, '--set', 'symbol=XX', '--if-match', ''],
      ['erp', 'currencies', 'update', 'EUR', '--set', 'symbol=XX', '--if-match', ' '],
      ['erp', 'currencies', 'delete', CURRENCY_EUR, '-y', '--if-match', ''],
    ]) {
      const r = await e2e.run(a);
      expect([r.code, r.stdout, r.stderr], a.join(' ')).toEqual([2, '', msg]);
    }
    expect(sent()).toBe(0);
    expect(store('currencies')[0].symbol).toBe('€');
  });

  it('a field named like a property every JS object has (constructor, toString, hasOwnProperty) is an unknown field: exit 2, nothing sent', async () => {
    const writable = 'writable fields: code, displayName, symbol, amountDecimalPlaces, amountRoundingPrecision';
    for (const [a, msg] of [
      [['--set', 'constructor=x'], `vx: --set constructor: unknown field "constructor" of a currency; ${writable}\n`],
      [['--set', 'toString=1'], `vx: --set toString: unknown field "toString" of a currency; ${writable}\n`],
      [['--data', '{"hasOwnProperty":"x"}'], `vx: --data field "hasOwnProperty": unknown field "hasOwnProperty" of a currency; ${writable}\n`],
    ] as const) {
      const r = await e2e.run(['erp', 'currencies', 'update', CURRENCY_EUR, ...a]);
      expect([r.code, r.stderr], a.join(' ')).toEqual([2, msg]);
    }
    expect(sent()).toBe(0);
  });

  it('an --if-match that is not an ETag (JSON escapes kept, quotes lost) is exit 2 with nothing sent, not "changed by someone else" (exit 5)', async () => {
    for (const v of ['W/\\"JzE5OzEx\\"', 'JzE5OzEx', 'W/JzE5OzEx', '"a"b"']) {
      const r = await e2e.run(['erp', 'currencies', 'update', CURRENCY_EUR, '--set', 'symbol=XX', '--if-match', v]);
      expect([r.code, r.stderr], v).toEqual([
        2,
        `vx: --if-match ${JSON.stringify(v)} is not an ETag: give it as the record's @odata.etag reads, e.g. W/"JzE5OzEx…" (quotes included, without JSON's backslashes), or *; nothing was sent\n`,
      ]);
    }
    expect(sent()).toBe(0);
    // a list of ETags and a strong one are ETags
    const etag = store('currencies')[0]['@odata.etag'] as string;
    const ok = await e2e.run(['erp', 'currencies', 'update', CURRENCY_EUR, '--set', 'symbol=XX', '--if-match', `"other", ${etag}`]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('--force sends If-Match: *', async () => {
    const dry = await e2e.run(['erp', 'salespeople', 'update', SALESPERSON, '--set', 'jobTitle=Boss', '--force', '--dry-run']);
    expect(json(dry.stdout)).toEqual([expect.objectContaining({ method: 'PATCH', headers: expect.objectContaining({ 'if-match': '*' }), body: { jobTitle: 'Boss' } })]);
    const r = await e2e.run(['erp', 'salespeople', 'update', SALESPERSON, '--set', 'jobTitle=Boss', '--force']);
    expect(r.code).toBe(0);
    expect(json(r.stdout).jobTitle).toBe('Boss');
    expect(e2e.emu.log.map((l) => l.method)).toEqual(['PATCH']);
  });
  // its usage errors (nothing to change, --if-match with --force, read-only fields): unit/erp-crud-inproc
});

describe('erp get', () => {
  it('an empty --select or --expand is exit 2 with nothing sent, as for list (it was sent and answered 400, exit 1)', async () => {
    for (const [flag, v] of [['--select', ''], ['--expand', ' ']]) {
      const r = await e2e.run(['erp', 'sales-orders', 'get', ORDER, flag!, v!]);
      expect([r.code, r.stderr], flag).toEqual([2, `vx: ${flag} may not be empty\n`]);
    }
    expect(sent()).toBe(0);
  });
});

describe('erp delete', () => {
  it('needs --yes without a terminal: exit 2, nothing sent', async () => {
    const r = await e2e.run(['erp', 'sales-quotes', 'delete', '00001010-0000-4000-8000-000000100001']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/confirmation needed; pass --yes/);
    expect(sent()).toBe(0);
  });

  it('with --yes reads the ETag, deletes (204, no output) and the record is gone', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'delete', ORDER, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(e2e.emu.log.map((l) => l.method)).toEqual(['GET', 'DELETE']);
    const gone = await e2e.run(['erp', 'sales-orders', 'get', ORDER]);
    expect(gone.code).toBe(4);
  });

  it('a stale --if-match exits 5 and keeps the record; --force deletes without a read', async () => {
    const stale = await e2e.run(['erp', 'currencies', 'delete', CURRENCY_EUR, '-y', '--if-match', 'W/"old"']);
    expect(stale.code).toBe(5);
    expect(stale.stderr).toMatch(/changed by someone else/);
    expect(store('currencies')).toHaveLength(5);
    const forced = await e2e.run(['erp', 'currencies', 'delete', CURRENCY_EUR, '-y', '--force']);
    expect(forced.code).toBe(0);
    expect(store('currencies')).toHaveLength(4);
    expect(e2e.emu.log.map((l) => l.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('a missing record is exit 4', async () => {
    const r = await e2e.run(['erp', 'salespeople', 'delete', '11111111-2222-4333-8444-555555555555', '--yes']);
    expect(r.code).toBe(4);
  });
});

describe('job queue entries (read-only)', () => {
  it('lists and gets (no write verbs: unit/erp-crud-inproc)', async () => {
    const list = await e2e.run(['erp', 'job-queue-entries', 'list', '--filter', "status eq 'Error'"]);
    const [entry] = json(list.stdout);
    expect(entry.description).toBe('Sync with email');
    const get = await e2e.run(['erp', 'jobqueueentries', 'get', entry.id]);
    expect(json(get.stdout).startingTime).toBe('06:00:00');
  });
});
