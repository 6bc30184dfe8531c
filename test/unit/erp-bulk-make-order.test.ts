// Bound actions that create a record, run on many records (--filter, --ids): each result names the
// source record and the record its action made (a quote's makeOrder answers 204 without it), in
// JSON and in the table at a terminal, in-process against the emulator.
import { describe, expect, it } from 'vitest';
import { confirmingPrompter } from '../helpers/ctx.js';
import { useEmulator } from '../helpers/emulator.js';
import { runInProc } from '../helpers/inproc.js';

const e2e = useEmulator();
const company = () => e2e.emu.state.erp.defaultCompany as string;
const store = (set: string) => e2e.emu.state.erp.data[company()][set] as Record<string, any>[];
const run = (argv: string[], o: Parameters<typeof runInProc>[1] = {}) => runInProc(argv, { env: e2e.env, network: true, ...o });

describe('sales-quotes make-order on many quotes', () => {
  it('-o json: each result holds the quote (id, number) and the order it made (id, number)', async () => {
    const quotes = store('salesQuotes').filter((q) => q.status === 'Draft');
    expect(quotes).toHaveLength(5);
    const orders = store('salesOrders').length;
    const r = await run(['erp', 'sales-quotes', 'make-order', '--filter', "status eq 'Draft'", '-o', 'json', '--yes']);
    expect(r.stderr).toBe('make-order: 5 rows: 5 done\n');
    expect(r.code).toBe(0);
    const made = store('salesOrders').slice(orders);
    expect(made).toHaveLength(5);
    expect(JSON.parse(r.stdout)).toEqual(
      quotes.map((q, i) => ({ row: i + 1, status: 'done', id: q.id, number: q.number, created: { id: made[i].id, number: made[i].number } })),
    );
    // each order is the one holding its quote's values that did not before
    made.forEach((o, i) => expect(o.totalAmountIncludingTax).toBe(quotes[i].totalAmountIncludingTax));
  });

  it('at a terminal: a table row per quote with the number of the order it made', async () => {
    const [a, b] = store('salesQuotes');
    const orders = store('salesOrders').length;
    const { prompter } = confirmingPrompter(true);
    const r = await run(['erp', 'sales-quotes', 'make-order', '--ids', '-'], { stdin: `${a.id}\n${b.id}\n`, prompter, stdoutTTY: true, stderrTTY: true });
    expect(r.code).toBe(0);
    const [x, y] = store('salesOrders').slice(orders);
    const rows = r.stdout.split('\n').filter(Boolean).map((l) => l.trim().split(/\s+/));
    expect(rows[0].slice(0, 4)).toEqual(['ROW', 'STATUS', 'NUMBER', 'SALES']);
    expect(rows.slice(1).map((c) => c.slice(0, 4))).toEqual([
      ['1', 'done', a.number, x.number],
      ['2', 'done', b.number, y.number],
    ]);
  });
});
