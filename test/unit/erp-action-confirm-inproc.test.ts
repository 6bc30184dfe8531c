// The one rule of confirmation on erp's bound actions of one record, in-process against the
// emulator: an action that cannot be undone (ship-and-invoice, make-order, make-invoice, send) asks
// at a terminal, naming the record, and needs --yes without one (exit 2, nothing sent); one that can
// be run again (a job's restart) runs without a question.
import { describe, expect, it } from 'vitest';
import { confirmingPrompter } from '../helpers/ctx.js';
import { useEmulator } from '../helpers/emulator.js';
import { runInProc } from '../helpers/inproc.js';

const e2e = useEmulator();
const ORDER = '0000100e-0000-4000-8000-0000000e0001';
const QUOTE = '00001010-0000-4000-8000-000000100001';
const JOB_IN_ERROR = '0000100c-0000-4000-8000-0000000c0003';
const run = (argv: string[], o: Parameters<typeof runInProc>[1] = {}) => runInProc(argv, { env: e2e.env, network: true, ...o });

describe('irreversible actions of one record', () => {
  it.each([
    ['sales-orders', 'ship-and-invoice', 'S-ORD101001', 'Ship and invoice sales order S-ORD101001'],
    ['sales-quotes', 'make-order', QUOTE, 'Turn sales quote'],
    ['sales-quotes', 'make-invoice', QUOTE, 'Turn sales quote'],
    ['sales-quotes', 'send', QUOTE, 'Send sales quote'],
  ])('%s %s without a terminal and without --yes: exit 2, nothing sent', async (noun, verb, key, question) => {
    const r = await run(['erp', noun, verb, key]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`vx: ${question}`);
    expect(r.stderr).toMatch(/: confirmation needed; pass --yes to proceed without a terminal \(nothing was sent\)\n$/);
    expect(e2e.emu.count({ family: 'erp' })).toBe(0);
  });

  it('ship-and-invoice at a terminal asks, naming the order; "no" sends no action (exit 2)', async () => {
    const { prompter, asked } = confirmingPrompter(false);
    const r = await run(['erp', 'sales-orders', 'ship-and-invoice', ORDER], { prompter, stderrTTY: true });
    expect(r.code).toBe(2);
    expect(asked).toEqual(['Ship and invoice sales order S-ORD101001 (Adatum Corporation)?']);
    expect(r.stderr).toBe('vx: cancelled; nothing was sent\n');
    expect(e2e.emu.count({ family: 'erp', method: 'POST' })).toBe(0);
  });

  it('make-order at a terminal: "yes" runs the action once', async () => {
    const { prompter, asked } = confirmingPrompter(true);
    const r = await run(['erp', 'sales-quotes', 'make-order', QUOTE], { prompter, stderrTTY: true });
    expect(r.code).toBe(0);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Turn sales quote \S+ \(.+\) into a sales order\?$/);
    expect(e2e.emu.log.filter((l) => l.method === 'POST').map((l) => l.path.replace(/.*\//, ''))).toEqual(['Vendor.NAV.makeOrder']);
  });

  it('--yes runs it without a terminal; --dry-run asks nothing and sends nothing', async () => {
    const yes = await run(['erp', 'sales-orders', 'ship-and-invoice', ORDER, '--yes']);
    expect(yes.code).toBe(0);
    expect(e2e.emu.count({ family: 'erp', method: 'POST' })).toBe(1);
    const dry = await run(['erp', 'sales-quotes', 'send', QUOTE, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).map((x: { method: string }) => x.method)).toEqual(['POST']);
    expect(e2e.emu.count({ family: 'erp' })).toBe(1);
  });
});

describe('an action that can be run again', () => {
  it('job-queue-entries restart runs without --yes and without a question', async () => {
    const r = await run(['erp', 'job-queue-entries', 'restart', JOB_IN_ERROR]);
    expect(r.code).toBe(0);
    expect(e2e.emu.count({ family: 'erp', method: 'POST' })).toBe(1);
  });

  it('restart of the entries a filter chooses is confirmed all the same (many records)', async () => {
    const r = await run(['erp', 'job-queue-entries', 'restart', '--filter', "status eq 'Error'"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/confirmation needed; pass --yes/);
    expect(e2e.emu.count({ family: 'erp' })).toBe(0);
  });
});
