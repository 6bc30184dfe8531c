// One record at a terminal (`vx erp <set> get`): the fields that hold something, the ones never set
// (empty text, the blank date 0001-01-01, the zero GUID, an empty address) counted on a last line;
// -o wide, json and tsv show every field.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runInProc } from '../helpers/inproc.js';

const e2e = useEmulator();
const atTerminal = (args: string[]) => runInProc(args, { env: { ...e2e.env, COLUMNS: '100' }, network: true, stdoutTTY: true });

describe('a record at a terminal', () => {
  it('sales-orders get: the table leaves out the empty fields and says how many; -o wide shows all', async () => {
    const record = JSON.parse((await e2e.run(['erp', 'sales-orders', 'get', 'S-ORD101001', '-o', 'json'])).stdout) as Record<string, unknown>;
    const fields = Object.keys(record).filter((k) => !k.startsWith('@odata'));
    const unset = fields.filter((k) => ['', null, '0001-01-01', '00000000-0000-0000-0000-000000000000'].includes(record[k] as string));
    expect(unset).toEqual(expect.arrayContaining(['shipToContact', 'currencyCode', 'currencyId', 'requestedDeliveryDate']));

    const r = await atTerminal(['erp', 'sales-orders', 'get', 'S-ORD101001']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const shown = lines.slice(1, -1).map((l) => l.split(/\s+/)[0]);
    expect(shown).toEqual(fields.filter((k) => !unset.includes(k)));
    // false and 0 are values, not empty
    expect(shown).toEqual(expect.arrayContaining(['pricesIncludeTax', 'discountAmount']));
    expect(lines.at(-1)).toBe(`(${unset.length} empty fields not shown; -o wide shows every field)`);

    const wide = await atTerminal(['erp', 'sales-orders', 'get', 'S-ORD101001', '-o', 'wide']);
    expect(wide.stdout.trimEnd().split('\n').slice(1).map((l) => l.split(/\s+/)[0])).toEqual(fields);
    const tsv = await e2e.run(['erp', 'sales-orders', 'get', 'S-ORD101001', '-o', 'tsv']);
    expect(tsv.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(fields);
  });

  it('a record with nothing empty has no such line', async () => {
    const r = await atTerminal(['erp', 'currencies', 'get', 'EUR']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('not shown');
  });
});
