// Every command of the `vx erp` tree for every entity set (issue 4, "Done when"): each verb
// through the built CLI, checked as the emulated service received it (method, path with the
// spec's api version, If-Match, exact body) and as vx printed it; every field in --help; and
// table/tsv columns that follow --select.
import { describe, expect, it } from 'vitest';
import { erpSets, typeText, type ErpSet } from '../../src/model/erp/index.js';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const company = () => e2e.emu.state.erp.defaultCompany as string;
const store = (name: string) => e2e.emu.state.erp.data[company()][name] as Record<string, any>[];
const json = (s: string) => JSON.parse(s);
const set = (name: string) => erpSets().find((s) => s.name === name)!;

/** the api version of each collection as the spec's Versioning table gives it */
const SPEC_VERSION: Record<string, string> = {
  salespeoplePurchasers: 'v2.0',
  currencies: 'v1.0',
  jobQueueEntries: 'v2.0',
  salesOrders: 'v2.0',
  salesQuotes: 'v1.0',
};

interface Sample {
  /** a seeded record */
  id: string;
  create?: { args: string[]; body: Record<string, unknown> };
  update?: { args: string[]; body: Record<string, unknown> };
}

const SAMPLES: Record<string, Sample> = {
  salespeoplePurchasers: {
    id: '0000100a-0000-4000-8000-0000000a0001',
    create: {
      args: ['--set', 'code=NEW1', '--set', 'displayName=New One', '--set', 'commisionPercent=2.5', '--set', 'privacyBlocked=false', '--set', 'email=new1@cronus.example'],
      body: { code: 'NEW1', displayName: 'New One', commisionPercent: 2.5, privacyBlocked: false, email: 'new1@cronus.example' },
    },
    update: { args: ['--set', 'jobTitle=Team lead', '--set', 'blocked=true'], body: { jobTitle: 'Team lead', blocked: true } },
  },
  currencies: {
    id: '0000100b-0000-4000-8000-0000000b0001',
    create: {
      args: ['--set', 'code=CHF', '--set', 'displayName=Swiss franc', '--set', 'symbol=Fr.', '--set', 'amountDecimalPlaces=2:2', '--set', 'amountRoundingPrecision=0.05'],
      body: { code: 'CHF', displayName: 'Swiss franc', symbol: 'Fr.', amountDecimalPlaces: '2:2', amountRoundingPrecision: 0.05 },
    },
    update: { args: ['--set', 'amountRoundingPrecision=0.01'], body: { amountRoundingPrecision: 0.01 } },
  },
  jobQueueEntries: { id: '0000100c-0000-4000-8000-0000000c0001' },
  salesOrders: {
    id: '0000100e-0000-4000-8000-0000000e0001',
    create: {
      args: ['--set', 'customerNumber=20000', '--set', 'orderDate=2026-04-01', '--set', 'partialShipping=true', '--set', 'paymentTermsId=00001002-0000-4000-8000-000000020001'],
      body: { customerNumber: '20000', orderDate: '2026-04-01', partialShipping: true, paymentTermsId: '00001002-0000-4000-8000-000000020001' },
    },
    update: { args: ['--set', 'status=In Review', '--set', 'discountAmount=12.5'], body: { status: 'In Review', discountAmount: 12.5 } },
  },
  salesQuotes: {
    id: '00001010-0000-4000-8000-000000100001',
    create: {
      args: ['--set', 'customerNumber=10000', '--set', 'documentDate=2026-03-01', '--set', 'currencyCode=EUR', '--set', 'paymentTermsId=00001002-0000-4000-8000-000000020001'],
      body: { customerNumber: '10000', documentDate: '2026-03-01', currencyCode: 'EUR', paymentTermsId: '00001002-0000-4000-8000-000000020001' },
    },
    update: { args: ['--set', 'validUntilDate=2026-04-30'], body: { validUntilDate: '2026-04-30' } },
  },
};

describe('every verb of every entity set', () => {
  const sets = erpSets().filter((s) => s.scope !== 'root');
  it('covers the five sets of the spec', () => {
    expect(sets.map((s) => s.name)).toEqual(Object.keys(SPEC_VERSION));
  });

  for (const s of sets) {
    it(`${s.noun}: ${s.operations.join(', ')} as the service receives them (api ${SPEC_VERSION[s.name]})`, async () => {
      const sample = SAMPLES[s.name];
      const base = `/api/${SPEC_VERSION[s.name]}/companies(${company()})/${s.name}`;
      const seen = () => e2e.emu.log.map((l) => `${l.method} ${l.path} ${l.status}`);
      const vx = async (args: string[]) => {
        e2e.emu.log.length = 0;
        const r = await e2e.run(['erp', s.noun, ...args]);
        expect(r.stderr, args.join(' ')).toBe('');
        expect(r.code, args.join(' ')).toBe(0);
        return r;
      };

      // list: every record, one array, as stored
      const list = json((await vx(['list'])).stdout);
      expect(seen()).toEqual([`GET ${base} 200`]);
      expect(list).toEqual(store(s.name));

      // get: the entity as returned, with its @odata.etag and context
      const got = json((await vx(['get', sample.id])).stdout);
      expect(seen()).toEqual([`GET ${base}(${sample.id}) 200`]);
      const row = store(s.name).find((x) => x.id === sample.id)!;
      expect(got).toEqual({ '@odata.context': expect.stringMatching(new RegExp(`/${s.name}/\\$entity$`)), ...row });

      if (!s.operations.includes('create')) {
        for (const verb of ['create', 'update', 'delete']) {
          const r = await e2e.run(['erp', s.noun, verb, sample.id, '--yes']);
          expect(r.code, verb).toBe(2);
          expect(r.stderr, verb).toMatch(/unknown command/);
        }
        return;
      }

      // create: POST to the collection, the typed body exactly
      const created = json((await vx(['create', ...sample.create!.args])).stdout);
      expect(seen()).toEqual([`POST ${base} 201`]);
      const post = e2e.emu.log[0];
      expect(post.headers!['content-type']).toBe('application/json');
      expect(post.headers!.authorization).toBe('Bearer emulator-token');
      expect(post.body).toBe(JSON.stringify(sample.create!.body));
      expect(created).toMatchObject(sample.create!.body);
      const id = created.id as string;
      expect(store(s.name).find((x) => x.id === id)).toEqual(Object.fromEntries(Object.entries(created).filter(([k]) => k !== '@odata.context')));

      // update: a fresh GET, then PATCH with its ETag and only the given fields
      const updated = json((await vx(['update', id, ...sample.update!.args])).stdout);
      expect(seen()).toEqual([`GET ${base}(${id}) 200`, `PATCH ${base}(${id}) 200`]);
      expect(e2e.emu.log[1].headers!['if-match']).toBe(created['@odata.etag']);
      expect(e2e.emu.log[1].body).toBe(JSON.stringify(sample.update!.body));
      expect(updated).toMatchObject(sample.update!.body);
      expect(updated['@odata.etag']).not.toBe(created['@odata.etag']);

      // delete: a fresh GET, then DELETE with the current ETag; 204 prints nothing
      const del = await vx(['delete', id, '--yes']);
      expect(del.stdout).toBe('');
      expect(seen()).toEqual([`GET ${base}(${id}) 200`, `DELETE ${base}(${id}) 204`]);
      expect(e2e.emu.log[1].headers!['if-match']).toBe(updated['@odata.etag']);
      expect(store(s.name).find((x) => x.id === id)).toBeUndefined();
    });
  }
});

describe('--help documents every field', () => {
  /** the field lines under "Fields of a …:" as [name, rest] */
  const fieldLines = (help: string) => {
    const section = help.slice(help.indexOf('\nFields of a '));
    return section
      .split('\n')
      .slice(2)
      .filter((l) => /^ {2}\S/.test(l))
      .map((l) => /^ {2}(\S+)\s+(.*)$/.exec(l)!.slice(1));
  };
  for (const s of erpSets()) {
    it(`${s.noun}: list/get show every field with its type; create/update every writable field`, async () => {
      const help = async (verb: string) => {
        const r = await e2e.run(['erp', s.noun, verb, '--help']);
        expect(r.code, verb).toBe(0);
        return fieldLines(r.stdout);
      };
      const all = Object.entries(s.fields);
      for (const verb of (['list', 'get'] as const).filter((v) => s.operations.includes(v))) {
        const lines = await help(verb);
        expect(lines.map(([n]) => n), verb).toEqual(all.map(([n]) => n));
        lines.forEach(([n, rest], i) => {
          expect(rest.startsWith(typeText(all[i][1])), `${verb} ${n}`).toBe(true);
          expect(rest.includes('read-only'), `${verb} ${n}`).toBe(Boolean(all[i][1].readOnly));
        });
      }
      const writable = all.filter(([, f]) => !f.readOnly).map(([n]) => n);
      for (const verb of (['create', 'update'] as const).filter((v) => s.operations.includes(v))) {
        expect((await help(verb)).map(([n]) => n), verb).toEqual(writable);
      }
    });
  }
  it('read-only markings follow the spec (sales order id, number, pricesIncludeTax, totals, lastModifiedDateTime)', () => {
    const ro = (x: ErpSet) => Object.entries(x.fields).filter(([, f]) => f.readOnly).map(([n]) => n).sort();
    expect(ro(set('salesOrders'))).toEqual(['id', 'lastModifiedDateTime', 'number', 'pricesIncludeTax', 'totalAmountExcludingTax', 'totalAmountIncludingTax', 'totalTaxAmount']);
    expect(Object.values(set('jobQueueEntries').fields).every((f) => f.readOnly)).toBe(true);
  });
});

describe('paging', () => {
  it('--page-size sends Prefer: odata.maxpagesize on every page and follows @odata.nextLink to the end', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'list', '--page-size', '20', '--filter', "status eq 'Open'"]);
    expect(r.code).toBe(0);
    const open = store('salesOrders').filter((o) => o.status === 'Open');
    expect(open.length).toBeGreaterThan(20);
    expect(json(r.stdout)).toEqual(open);
    const base = `/api/v2.0/companies(${company()})/salesOrders?$filter=status%20eq%20'Open'`;
    const pages = Math.ceil(open.length / 20);
    expect(e2e.emu.log.map((l) => decodeURIComponent(l.path))).toEqual(
      Array.from({ length: pages }, (_, i) => decodeURIComponent(i ? `${base}&$skiptoken=${i * 20}` : base)),
    );
    for (const l of e2e.emu.log) expect(l.headers!.prefer).toBe('odata.maxpagesize=20');
  });
});

describe('table and tsv columns', () => {
  it('show the model columns by default and the --select fields when given', async () => {
    const def = await e2e.run(['erp', 'sales-orders', 'list', '--top', '2', '-o', 'table']);
    expect(def.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['NUMBER', 'CUSTOMER', 'ORDER DATE', 'STATUS', 'TOTAL INCL. TAX', 'CUSTOMER NO.', 'SHIPPED']);
    const wide = await e2e.run(['erp', 'sales-orders', 'list', '--top', '2', '-o', 'wide']);
    expect(wide.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['NUMBER', 'CUSTOMER', 'ORDER DATE', 'STATUS', 'TOTAL INCL. TAX', 'CURRENCY', 'CUSTOMER NO.', 'SHIPPED', 'ID']);
    const tsv = await e2e.run(['erp', 'sales-orders', 'list', '--top', '2', '--select', 'number,customerName', '-o', 'tsv']);
    expect(tsv.code).toBe(0);
    expect(tsv.stdout).toBe('S-ORD101001\tAdatum Corporation\nS-ORD101002\tTrey Research\n');
    const table = await e2e.run(['erp', 'sales-orders', 'list', '--top', '2', '--select', 'number, totalAmountIncludingTax', '-o', 'table']);
    expect(table.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['NUMBER', 'TOTAL INCL. TAX']);
    expect(table.stdout.split('\n')[1]).toMatch(/^S-ORD101001\s+735\.00$/);
    const lines = await e2e.run(['erp', 'sales-orders', 'related', SAMPLES.salesOrders.id, 'salesOrderLines', '--select', 'sequence,description', '-o', 'tsv']);
    expect(lines.stdout).toBe('10000\tPARIS Guest Chair\n20000\t' + json((await e2e.run(['erp', 'sales-orders', 'related', SAMPLES.salesOrders.id, 'salesOrderLines', '-o', 'json'])).stdout)[1].description + '\n');
  });
});

describe('set descriptions', () => {
  it('a set is called read-only only when it has no write at all (job queue entries can be restarted)', async () => {
    const { buildProgram } = await import('../../src/cli/program.js');
    const erp = buildProgram().commands.find((c) => c.name() === 'erp')!;
    const desc = (n: string) => erp.commands.find((c) => c.name() === n)!.description();
    expect(desc('companies')).toBe('company records (companies, API v2.0), read-only');
    expect(desc('job-queue-entries')).toBe('job queue entry records (jobQueueEntries, API v2.0): list, get and restart only');
    expect(desc('currencies')).toBe('currency records (currencies, API v1.0)');
  });
});
