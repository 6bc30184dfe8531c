// Tables as an operator reads them at an 80-column terminal (COLUMNS=80 stands for the terminal).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();

describe('tables at 80 columns', () => {
  it('translate: the translation wraps under its column instead of being cut; no line is longer than 80', async () => {
    const long = 'The quick brown fox jumps over the lazy dog and keeps running far away into the forest';
    const r = await e2e.run(['translate', '--to', 'de', '-o', 'table', long, 'Second line'], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    expect(lines[0]).toBe('INPUT                         DETECTED  SCORE  TO  TRANSLATION');
    expect(lines[1].startsWith('The quick brown fox jumps o…  en         1.00  de  [de] ')).toBe(true);
    // the continuation lines start under TRANSLATION, and together they are the whole translation
    const at = lines[0].indexOf('TRANSLATION');
    const cont = lines.slice(2, 5);
    for (const l of cont) expect(l.slice(0, at)).toBe(' '.repeat(at));
    const whole = [lines[1].slice(at), ...cont.map((l) => l.slice(at))].join(' ');
    const json = await e2e.run(['translate', '--to', 'de', '-o', 'json', long]);
    expect(whole).toBe(JSON.parse(json.stdout)[0].translations[0].text);
    expect(lines[5].startsWith('Second line ')).toBe(true);
    expect(lines).toHaveLength(6);
  });

  it('a short last column (a quota request message) is still cut, not wrapped a word a line', async () => {
    const scope = ['--provider', 'Vendor.Compute', '--location', 'eastus', '--top', '1'];
    const r = await e2e.run(['mgmt', 'quota', 'requests', 'list', ...scope, '-o', 'table'], { env: { COLUMNS: '80' } });
    const first = JSON.parse((await e2e.run(['mgmt', 'quota', 'requests', 'list', ...scope])).stdout)[0];
    expect(r.stdout.split('\n')).toEqual([
      'REQUEST ID                            STATE      SUBMITTED          MESSAGE',
      expect.stringMatching(new RegExp(`^${first.name.split('/').pop()}  ${first.properties.provisioningState.padEnd(9)}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\dZ  .{11}…$`)),
      '',
    ]);
  });
});

/** the header cells of a table (columns are separated by two spaces or more) */
const headers = (out: string) => out.split('\n')[0].split(/\s{2,}/);
const widest = (out: string) => Math.max(...out.trimEnd().split('\n').map((l) => [...l].length));

describe('tables chosen for a person: the human key, name, state, amount; headers in words', () => {
  it('sales orders at 80 columns: number, customer, date, status and total with its currency; the GUID only with -o wide', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'list', '--top', '3', '-o', 'table'], { env: { COLUMNS: '80' } });
    // the amount carries its currency (none: the local currency), the numbers aligned
    expect(r.stdout).toBe(
      [
        'NUMBER       CUSTOMER            ORDER DATE  STATUS  TOTAL INCL. TAX',
        'S-ORD101001  Adatum Corporation  2026-01-01  Draft        735.00',
        'S-ORD101002  Trey Research       2026-02-02  Open       1,350.00 EUR',
        'S-ORD101003  School of Fine Art  2026-03-03  Open       1,170.00 USD',
        '',
      ].join('\n'),
    );
    const at140 = await e2e.run(['erp', 'sales-orders', 'list', '--top', '3', '-o', 'table'], { env: { COLUMNS: '140' } });
    expect(headers(at140.stdout)).toEqual(['NUMBER', 'CUSTOMER', 'ORDER DATE', 'STATUS', 'TOTAL INCL. TAX', 'CUSTOMER NO.', 'SHIPPED']);
    // -o wide: every column, the currency and the GUID too, whatever the width; VX_OUTPUT=wide too
    const wide = await e2e.run(['erp', 'sales-orders', 'list', '--top', '3'], { env: { COLUMNS: '80', VX_OUTPUT: 'wide' } });
    expect(headers(wide.stdout)).toEqual(['NUMBER', 'CUSTOMER', 'ORDER DATE', 'STATUS', 'TOTAL INCL. TAX', 'CURRENCY', 'CUSTOMER NO.', 'SHIPPED', 'ID']);
    expect(wide.stdout.split('\n')[1]).toMatch(/  0000100e-0000-4000-8000-0000000e0001$/);
    // tsv and csv: the amount as a number, its currency in a column of its own
    const tsv = await e2e.run(['erp', 'sales-orders', 'list', '--top', '3', '-o', 'tsv']);
    expect(tsv.stdout.split('\n')[1].split('\t').slice(4, 6)).toEqual(['1350.00', 'EUR']);
  });

  it('the lines of a sales order (related ... salesOrderLines) at 80 columns: line, item, description, quantity, amounts', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'related', 'S-ORD101001', 'salesOrderLines', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'LINE   TYPE  NO.     DESCRIPTION        QUANTITY  UNIT PRICE  AMOUNT INCL. TAX',
        '10000  Item  1911-S  PARIS Guest Chair         2      111.00            277.50',
        '20000  Item  1912-S  ROME Guest Chair          3      122.00            457.50',
        '',
      ].join('\n'),
    );
    // the unit of measure when there is room; -o wide: every column, the GUID last
    const at140 = await e2e.run(['erp', 'sales-orders', 'related', 'S-ORD101001', 'salesOrderLines', '-o', 'table'], { env: { COLUMNS: '140' } });
    expect(headers(at140.stdout)).toEqual(['LINE', 'TYPE', 'NO.', 'DESCRIPTION', 'QUANTITY', 'UNIT', 'UNIT PRICE', 'AMOUNT INCL. TAX']);
    const wide = await e2e.run(['erp', 'sales-orders', 'related', 'S-ORD101001', 'salesOrderLines', '-o', 'wide']);
    expect(headers(wide.stdout)).toEqual([...headers(at140.stdout), 'ID']);
  });

  it('every erp set fits 80 columns with its key whole and words for headers; more columns at 140', async () => {
    const expected: Record<string, [string[], string[]]> = {
      'sales-quotes': [
        ['NUMBER', 'CUSTOMER', 'DATE', 'STATUS', 'TOTAL INCL. TAX', 'VALID UNTIL'],
        ['NUMBER', 'CUSTOMER', 'DATE', 'STATUS', 'TOTAL INCL. TAX', 'VALID UNTIL', 'CUSTOMER NO.'],
      ],
      'job-queue-entries': [
        ['DESCRIPTION', 'STATUS', 'ID'],
        ['DESCRIPTION', 'STATUS', 'OBJECT', 'EARLIEST START', 'ID'],
      ],
      salespeople: [
        ['CODE', 'NAME', 'EMAIL', 'JOB TITLE', 'BLOCKED'],
        ['CODE', 'NAME', 'EMAIL', 'JOB TITLE', 'COMMISSION %', 'BLOCKED'],
      ],
      currencies: [
        ['CODE', 'NAME', 'SYMBOL', 'DECIMALS', 'ROUNDING'],
        ['CODE', 'NAME', 'SYMBOL', 'DECIMALS', 'ROUNDING'],
      ],
      companies: [
        ['NAME', 'DISPLAY NAME', 'ID'],
        ['NAME', 'DISPLAY NAME', 'VERSION', 'ID'],
      ],
    };
    for (const [noun, [at80, at140]] of Object.entries(expected)) {
      const narrow = await e2e.run(['erp', noun, 'list', '-o', 'table'], { env: { COLUMNS: '80' } });
      expect(narrow.code, noun).toBe(0);
      expect(headers(narrow.stdout), noun).toEqual(at80);
      expect(widest(narrow.stdout), noun).toBeLessThanOrEqual(80);
      const wide = await e2e.run(['erp', noun, 'list', '-o', 'table'], { env: { COLUMNS: '140' } });
      expect(headers(wide.stdout), noun).toEqual(at140);
      // the key (first or ID column) is never cut
      expect(narrow.stdout, noun).not.toMatch(/^\S*…/m);
      expect(narrow.stdout).not.toMatch(/[0-9a-f]{8}-[0-9a-f-]*…/);
    }
    const jobs = await e2e.run(['erp', 'job-queue-entries', 'list', '--top', '1', '-o', 'table'], { env: { COLUMNS: '140' } });
    expect(jobs.stdout.split('\n')[1]).toBe('Post inventory cost to G/L  Ready   Codeunit 1509  2026-01-16 06:00Z  0000100c-0000-4000-8000-0000000c0001');
  });

  it('health events: the title is whole at 140 columns (optional columns give way), cut only at 80', async () => {
    const json = JSON.parse((await e2e.run(['mgmt', 'health', 'events', 'list', '-o', 'json'])).stdout) as { name: string; properties: { title: string } }[];
    const longest = Math.max(...json.map((e) => e.properties.title.length));
    expect(longest).toBeGreaterThan(24);
    const r = await e2e.run(['mgmt', 'health', 'events', 'list', '-o', 'table'], { env: { COLUMNS: '140' } });
    expect(widest(r.stdout)).toBeLessThanOrEqual(140);
    for (const e of json) expect(r.stdout).toContain(`${e.name.padEnd(11)}  ${e.properties.title}`);
    expect(headers(r.stdout)).toEqual(['TRACKING ID', 'TITLE', 'TYPE', 'LEVEL', 'STATUS', 'LAST UPDATE']);
    const narrow = await e2e.run(['mgmt', 'health', 'events', 'list', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(headers(narrow.stdout)).toEqual(['TRACKING ID', 'TITLE', 'LEVEL', 'STATUS', 'LAST UPDATE']);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(80);
    for (const e of json) expect(narrow.stdout).toContain(`${e.name}  `);
  });

  it('quota and version sets use the same style: words, the key first and whole', async () => {
    const q = await e2e.run(['mgmt', 'quota', 'get', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(q.stdout).toBe('NAME   DISPLAY NAME          LIMIT  USAGE  USED  UNIT   PERIOD\ncores  Total Regional vCPUs    100     42   42%  Count\n');
    await e2e.run(['mgmt', 'version-sets', 'create', 'legacy', '--resource-group', 'web', '--service', 'contoso-api', '--display-name', 'Orders API', '--scheme', 'Header', '--header-name', 'Api-Version', '--description', 'Versions of the orders API, kept by the platform team for every client']);
    const v = await e2e.run(['mgmt', 'version-sets', 'list', '--resource-group', 'web', '--service', 'contoso-api', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(headers(v.stdout)).toEqual(['NAME', 'DISPLAY NAME', 'SCHEME', 'VERSION IN', 'DESCRIPTION']);
    expect(widest(v.stdout)).toBeLessThanOrEqual(80);
    expect(v.stdout).toMatch(/^legacy +Orders API +Header +Api-Version +Versions of the/m);
  });
});
