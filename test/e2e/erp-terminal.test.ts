// The run functions in-process with a fake terminal (stdout/stderr TTYs and a scripted prompter):
// what vx asks and says when a person is at the terminal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/api/settings.js';
import { run as runAction } from '../../src/cli/erp/action.js';
import { run as runCreate } from '../../src/cli/erp/create.js';
import { run as runDelete } from '../../src/cli/erp/delete.js';
import { run as runRefresh } from '../../src/cli/erp/refresh.js';
import { run as runRelated } from '../../src/cli/erp/related.js';
import { Ctx, type GlobalOptions } from '../../src/core/context.js';
import { UsageError } from '../../src/core/errors.js';
import { confirmingPrompter } from '../helpers/ctx.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { findSet } from '../../src/model/erp/index.js';
import { tty } from '../helpers/tty.js';
import { tempDir, removeDir } from '../helpers/vx.js';

let emu: Emulator;
let configDir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  configDir = tempDir();
});
beforeEach(() => emu.reset());
afterAll(async () => {
  await emu?.close();
  removeDir(configDir);
});

function session(answer: boolean, globals: GlobalOptions = {}) {
  const { prompter, asked } = confirmingPrompter(answer);
  const stdout = tty();
  const stderr = tty();
  // the floor between status reads of a wait (core/poll.ts) is lowered for tests, as test/helpers/vx.ts does for spawned runs
  const env = { ...emu.env(), VX_CONFIG_DIR: configDir, NO_COLOR: '1', VX_POLL_FLOOR_MS: '5' };
  const ctx = new Ctx({ output: 'json', ...globals }, SETTINGS, { io: { stdout: stdout as any, stderr: stderr as any, stdin: process.stdin }, signal: new AbortController().signal, prompter, env });
  return { ctx, asked, stdout, stderr };
}

const ORDER = '0000100e-0000-4000-8000-0000000e0001';
const orders = findSet('salesOrders')!;

describe('at a terminal', () => {
  it('delete asks, naming the record by number and name; "no" deletes nothing (exit 2), "yes" deletes and says so', async () => {
    const no = session(false);
    await expect(runDelete(no.ctx, orders, {}, ORDER)).rejects.toThrow(UsageError);
    expect(no.asked).toEqual(['Delete sales order S-ORD101001 (Adatum Corporation)?']);
    expect(emu.count({ family: 'erp' })).toBe(1); // the read that names it
    expect(emu.count({ family: 'erp', method: 'DELETE' })).toBe(0);
    emu.reset();
    const yes = session(true);
    await runDelete(yes.ctx, orders, {}, ORDER);
    expect(yes.stderr.text).toBe('deleted sales order S-ORD101001 (Adatum Corporation)\n');
    expect(yes.stdout.text).toBe('');
    // one read names it and gives the ETag; then the DELETE
    expect(emu.count({ family: 'erp', method: 'GET' })).toBe(1);
    expect(emu.count({ family: 'erp', method: 'DELETE' })).toBe(1);
    await yes.ctx.http.close();
  });

  it('delete by number: one $filter read names it and gives the ETag', async () => {
    const yes = session(true);
    await runDelete(yes.ctx, findSet('currencies')!, {}, 'EUR');
    expect(yes.asked).toEqual(['Delete currency EUR (Euro)?']);
    expect(yes.stderr.text).toBe('deleted currency EUR (Euro)\n');
    expect(emu.count({ family: 'erp', method: 'GET' })).toBe(1);
    expect(emu.count({ family: 'erp', method: 'DELETE' })).toBe(1);
    await yes.ctx.http.close();
  });

  it('--yes skips the question', async () => {
    const s = session(false, { yes: true });
    await runDelete(s.ctx, orders, { force: true }, ORDER);
    expect(s.asked).toEqual([]);
    await s.ctx.http.close();
  });

  it('ship-and-invoice asks, naming the order, says what happened on stderr and prints nothing on stdout', async () => {
    const s = session(true);
    await runAction(s.ctx, orders, orders.actions![0], {}, ORDER);
    expect(s.stdout.text).toBe('');
    expect(s.asked).toEqual(['Ship and invoice sales order S-ORD101001 (Adatum Corporation)?']);
    expect(s.stderr.text).toBe('sales order S-ORD101001 (Adatum Corporation) shipped and invoiced\n');
    await s.ctx.http.close();
  });

  it('related: a navigation that relates nothing (204) prints nothing and says so on stderr', async () => {
    const s = session(true);
    await runRelated(s.ctx, orders, {} as never, 'S-ORD101001', 'currency');
    expect(s.stdout.text).toBe('');
    expect(s.stderr.text).toBe('sales order S-ORD101001 (Adatum Corporation) has no currency\n');
    await s.ctx.http.close();
  });

  it('create says which record was created', async () => {
    const s = session(true);
    await runCreate(s.ctx, findSet('currencies')!, { set: ['code=NOK'] });
    const created = JSON.parse(s.stdout.text);
    expect(s.stderr.text).toBe(`created currency ${created.id}\n`);
    await s.ctx.http.close();
  });

  it('refresh asks, naming source and target; "no" sends nothing; with --wait progress goes to stderr', async () => {
    const no = session(false);
    await expect(runRefresh(no.ctx, { project: '9', source: 'prod-1', target: 'uat-1', wait: false })).rejects.toThrow(/cancelled/);
    expect(no.asked).toEqual(['Overwrite the database of environment uat-1 with a copy of environment prod-1 (project 9)?']);
    expect(emu.count({ family: 'lcs' })).toBe(0);
    const yes = session(true);
    await runRefresh(yes.ctx, { project: '9', source: 'prod-1', target: 'uat-1', wait: true, pollInterval: '0' });
    const final = JSON.parse(yes.stdout.text);
    expect(final.OperationStatus).toBe('Completed');
    const id = final.OperationActivityId;
    // the start, how to check it, then a spinner redrawn in place (state and time waited) and the final line
    const lines = yes.stderr.text.split('\n');
    expect(lines.slice(0, 2)).toEqual([`database refresh of uat-1 from prod-1 started: operation ${id}`, `check it with: vx erp refresh status ${id} --project 9 --environment uat-1`]);
    expect(lines[2]).toContain(`\r⠙ operation ${id}: NotStarted (0 s)\u001b[K`);
    expect(lines[2]).toContain(`operation ${id}: InProgress (0 s)`);
    expect(lines[2].endsWith(`\r\u001b[Koperation ${id}: Completed after 0 s`)).toBe(true);
    expect(lines[3]).toBe('');
    await yes.ctx.http.close();
  });
});
