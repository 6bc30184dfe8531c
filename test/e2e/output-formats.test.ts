// Output formats in every family: rows that are arrays (tsv/table/csv), one object as key<TAB>value
// lines of its payload (tsv/text), and -o csv (header, RFC 4180 quoting, the columns of tsv).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const json = (s: string) => JSON.parse(s);
const SCOPE = ['--provider', 'Vendor.Compute', '--location', 'eastus'];

/** RFC 4180 quoting, as a test oracle independent of the renderer */
const q = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

describe('erp', () => {
  it('rows that are arrays: tsv values separated by tabs, table columns COLUMN1.., csv Column1..', async () => {
    const query = ['--query', '[].[number,customerName]', '--top', '2'];
    const tsv = await e2e.run(['erp', 'sales-orders', 'list', ...query, '-o', 'tsv']);
    expect(tsv.stderr).toBe('');
    expect(tsv.stdout).toBe('S-ORD101001\tAdatum Corporation\nS-ORD101002\tTrey Research\n');
    const text = await e2e.run(['erp', 'sales-orders', 'list', ...query, '-o', 'text']);
    expect(text.stdout).toBe(tsv.stdout);
    const table = await e2e.run(['erp', 'sales-orders', 'list', ...query, '-o', 'table']);
    expect(table.stdout).toBe('COLUMN1      COLUMN2\nS-ORD101001  Adatum Corporation\nS-ORD101002  Trey Research\n');
    const csv = await e2e.run(['erp', 'sales-orders', 'list', ...query, '-o', 'csv']);
    expect(csv.stdout).toBe('Column1,Column2\nS-ORD101001,Adatum Corporation\nS-ORD101002,Trey Research\n');
  });

  it('-o csv of a list has the columns of -o tsv (the table\'s wide set, raw values), headed by the fields they show', async () => {
    const args = ['erp', 'sales-orders', 'list', '--top', '2', '--expand', 'salesOrderLines'];
    const all = json((await e2e.run([...args, '-o', 'json'])).stdout) as Record<string, unknown>[];
    const r = await e2e.run([...args, '-o', 'csv']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const tsv = (await e2e.run([...args, '-o', 'tsv'])).stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('number,customerName,orderDate,status,totalAmountIncludingTax,currencyCode,customerNumber,fullyShipped,id');
    expect(lines.slice(1)).toEqual(tsv.map((cells) => cells.map(q).join(',')));
    expect(lines[1].split(',').slice(0, 2)).toEqual([all[0].number, all[0].customerName].map(q));
    expect(lines[1].endsWith(`,${all[0].id}`)).toBe(true);
    // nested values (the expanded lines) are JSON's: not a column
    expect(r.stdout).not.toContain('@odata');
  });

  it('-o csv honours VX_OUTPUT; get -o text and -o tsv are key<TAB>value lines of the payload', async () => {
    const env = await e2e.run(['erp', 'currencies', 'list', '--select', 'code,displayName', '--top', '1'], { env: { VX_OUTPUT: 'csv' } });
    const first = json((await e2e.run(['erp', 'currencies', 'list', '--top', '1'])).stdout)[0];
    expect(env.stdout).toBe(`code,displayName\n${q(first.code)},${q(first.displayName)}\n`);
    for (const f of ['text', 'tsv']) {
      const r = await e2e.run(['erp', 'currencies', 'get', first.id, '-o', f]);
      const lines = Object.entries(first).filter(([k]) => !k.startsWith('@odata')).map(([k, v]) => `${k}\t${v}\n`).join('');
      expect(r.stdout).toBe(lines);
    }
  });
});

describe('mgmt', () => {
  it('quota get -o text and -o tsv print the payload as key<TAB>value lines, not table cells', async () => {
    const payload = json((await e2e.run(['mgmt', 'quota', 'get', 'cores', ...SCOPE, '-o', 'json'])).stdout) as Record<string, unknown>;
    const expected = Object.entries(payload).map(([k, v]) => `${k}\t${typeof v === 'object' ? JSON.stringify(v) : v}\n`).join('');
    for (const f of ['text', 'tsv']) {
      const r = await e2e.run(['mgmt', 'quota', 'get', 'cores', ...SCOPE, '-o', f]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(expected);
      expect(r.stdout).not.toContain('%');
    }
  });

  it('quota list as csv through --query; health events as csv in the columns of tsv, in the same order', async () => {
    const r = await e2e.run(['mgmt', 'quota', 'get', 'cores', ...SCOPE, '--query', '{name: name, limit: properties.limit, used: properties.currentValue}', '-o', 'csv']);
    expect(r.stdout).toBe('name,limit,used\ncores,100,42\n');
    const csv = await e2e.run(['mgmt', 'health', 'events', 'list', '-o', 'csv']);
    expect(csv.code).toBe(0);
    const tsv = (await e2e.run(['mgmt', 'health', 'events', 'list', '-o', 'tsv'])).stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    const lines = csv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Tracking id,Title,Type,Level,Status,Services,Regions,Start,Last update');
    expect(lines.slice(1)).toEqual(tsv.map((cells) => cells.map(q).join(',')));
    expect(csv.stdout).not.toContain('properties');
  });
});

describe('translate', () => {
  it('-o csv has the columns of the table, one line per item and target, input repeated', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--to', 'fr', '--from', 'en', '-o', 'csv', 'Hello, world', 'Say "hi"']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const res = json((await e2e.run(['translate', '--to', 'de', '--to', 'fr', '--from', 'en', '-o', 'json', 'Hello, world', 'Say "hi"'])).stdout);
    const lines = ['input,to,translation'];
    ['Hello, world', 'Say "hi"'].forEach((input, i) => {
      for (const t of res[i].translations) lines.push([input, t.to, t.text].map(q).join(','));
    });
    expect(r.stdout).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(r.stdout.split('\n')[1]).toMatch(/^"Hello, world",de,/);
  });

  it('-o csv with --query renders the query result', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '-o', 'csv', '--query', '[].[translations[0].to, length(translations)]', 'Hello']);
    expect(r.stdout).toBe('Column1,Column2\nde,1\n');
  });
});

describe('vx api and profiles', () => {
  it('vx api: array rows as tsv and table columns, csv of the payload', async () => {
    const args = ['api', 'GET', '/api/v2.0/companies', '--service', 'erp', '--query', 'value[].[name,id]'];
    const rows = json((await e2e.run([...args, '-o', 'json'])).stdout) as string[][];
    expect((await e2e.run([...args, '-o', 'tsv'])).stdout).toBe(rows.map((r) => `${r.join('\t')}\n`).join(''));
    const table = (await e2e.run([...args, '-o', 'table'])).stdout.split('\n');
    expect(table[0]).toMatch(/^COLUMN1 +COLUMN2$/);
    expect(table[1]).toMatch(new RegExp(`^CRONUS USA, Inc\\. +${rows[0][1]}$`));
    expect((await e2e.run([...args, '-o', 'csv'])).stdout).toBe(`Column1,Column2\n${rows.map((r) => `${r.map(q).join(',')}\n`).join('')}`);
  });

  it('profile show -o csv lists the settings with their source; auth status -o csv', async () => {
    const r = await e2e.run(['profile', 'show', '-o', 'csv']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('key,value,source');
    expect(lines).toContain(`erp.prefix,${e2e.env.VX_ERP_PREFIX},env VX_ERP_PREFIX`);
    const a = await e2e.run(['auth', 'status', '-o', 'csv']);
    expect(a.code).toBe(0);
    expect(a.stdout.split('\n')[0]).toMatch(/^service,status,/);
  });
});
