// `--state <file>` of the wrong shape is refused at start (exit 2, one line naming the file and
// what is wrong), not served with 500s and then overwritten; a state the emulator saved loads.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { runVxInProc } from '../helpers/inproc.js';
import { removeDir, runVx, tempDir } from '../helpers/vx.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('vx-state-');
});
afterAll(() => removeDir(dir));

const FAMILIES = 'translator, erp, lcs, mgmt, auth';

/** a state file the emulator saved, parsed (fresh seed) */
async function savedState(): Promise<Record<string, any>> {
  const p = join(dir, 'seed.json');
  const emu = await startEmulator({ port: 0, statePath: p });
  await emu.close();
  return JSON.parse(readFileSync(p, 'utf8'));
}

describe('emulator --state of the wrong shape', () => {
  it('is refused at start with exit 2, the path and where it is wrong; the file is left as it was', async () => {
    const seed = await savedState();
    const company = seed.erp.defaultCompany;
    const cases: [string, unknown, string][] = [
      ['array', [], `expected a JSON object with an entry per family (${FAMILIES}), got an array`],
      ['text', 'x', `expected a JSON object with an entry per family (${FAMILIES}), got text`],
      ['null', null, `expected a JSON object with an entry per family (${FAMILIES}), got null`],
      ['other tool', { name: 'my-app', version: '1.0.0' }, `"name" is not a family of the emulator (${FAMILIES}): is it an emulator state file?`],
      ['erp array', { erp: [] }, 'erp: expected an object, got an array'],
      ['erp data missing', { erp: { ...seed.erp, data: undefined } }, 'erp.data: missing'],
      ['lcs operations object', { lcs: { operations: {} } }, 'lcs.operations: expected an array, got an object'],
      ['a record field of the wrong type', { erp: { ...seed.erp, data: { ...seed.erp.data, [company]: { ...seed.erp.data[company], salesOrders: [{ ...seed.erp.data[company].salesOrders[0], totalAmountIncludingTax: '12.5' }] } } } }, `erp.data["${company}"].salesOrders[0].totalAmountIncludingTax: expected a number, got text`],
      ['a record that is not an object', { erp: { ...seed.erp, data: { ...seed.erp.data, [company]: { ...seed.erp.data[company], currencies: [null] } } } }, `erp.data["${company}"].currencies[0]: expected an object, got null`],
      ['default company without data', { erp: { ...seed.erp, defaultCompany: '00000000-0000-0000-0000-000000000001' } }, 'erp.defaultCompany: "00000000-0000-0000-0000-000000000001" is not a company of erp.data'],
      ['mgmt subscriptions', { mgmt: { ...seed.mgmt, subscriptions: 'x' } }, 'mgmt.subscriptions: expected an array, got text'],
      ['translator categories', { translator: { categories: { x: { status: 'ready' } } } }, 'translator.categories["x"].pairs: missing'],
      ['auth', { auth: { tokenTtl: '3600', refreshTtl: 1, deviceInterval: 1 } }, 'auth.tokenTtl: expected a number, got text'],
    ];
    for (const [name, content, why] of cases) {
      const p = join(dir, `bad-${name.replace(/\W+/g, '-')}.json`);
      const text = JSON.stringify(content);
      writeFileSync(p, text);
      const r = await runVxInProc(['emulator', 'start', '--port', '0', '--state', p]);
      expect([r.code, r.stdout, r.stderr], name).toEqual([2, '', `vx: cannot load emulator state from ${p}: ${why}\n`]);
      expect(readFileSync(p, 'utf8'), name).toBe(text);
    }
  });

  it('an empty --state (an unset "$STATE") is refused rather than run with nothing saved', async () => {
    for (const cmd of [['start', '--port', '0'], ['exec']]) {
      const r = await runVxInProc(['emulator', ...cmd, '--state', '', ...(cmd[0] === 'exec' ? ['--', 'node', '-e', 'console.log("ran")'] : [])], { timeoutMs: 8000 });
      expect([r.code, r.stdout, r.stderr], cmd[0]).toEqual([2, '', 'vx: invalid --state "": name the JSON file to load the state from and save it to\n']);
    }
  });

  it('emulator exec refuses it the same way, before running the command', async () => {
    const p = join(dir, 'exec.json');
    writeFileSync(p, '[]');
    const r = await runVxInProc(['emulator', 'exec', '--state', p, '--', 'node', '-e', 'console.log("ran")']);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `vx: cannot load emulator state from ${p}: expected a JSON object with an entry per family (${FAMILIES}), got an array\n`]);
  });

  it('takes what the emulator saved after work in every family, and a file with some families only (the others seeded)', async () => {
    const p = join(dir, 'worked.json');
    const emu = await startEmulator({ port: 0, statePath: p });
    const env = emu.env();
    const run = async (args: string[]) => expect((await runVxInProc(args, { env })).code, args.join(' ')).toBe(0);
    await run(['erp', 'currencies', 'create', '--set', 'code=NOK', '--set', 'displayName=Krone']);
    await run(['erp', 'sales-orders', 'ship-and-invoice', 'S-ORD101001', '--yes']);
    await run(['erp', 'sales-quotes', 'make-order', 'S-QUO1001', '--yes']);
    await run(['erp', 'salespeople', 'update', 'AH', '--set', 'blocked=true']);
    await run(['erp', 'refresh', '--project', '1', '--source', 'a', '--target', 'b', '--yes']);
    await run(['mgmt', 'quota', 'set', 'cores', '--provider', 'Vendor.Compute', '--location', 'eastus', '--limit', '120', '--no-wait', '--yes']);
    await run(['mgmt', 'version-sets', 'create', 'v9', '--resource-group', 'web', '--service', 'contoso-api', '--display-name', 'V9', '--scheme', 'Segment']);
    await run(['translate', 'Hello', '--to', 'de']);
    await emu.close();
    const again = await startEmulator({ port: 0, statePath: p });
    expect((await runVxInProc(['erp', 'currencies', 'get', 'NOK', '-q', 'displayName', '-o', 'json'], { env: again.env() })).stdout).toBe('"Krone"\n');
    await again.close();
    const some = join(dir, 'some.json');
    writeFileSync(some, JSON.stringify({ lcs: { operations: [] } }));
    const third = await startEmulator({ port: 0, statePath: some });
    expect(third.state.erp.companies).toHaveLength(2);
    await third.close();
  });
});

describe('one emulator per --state file', () => {
  it('a second emulator on the same file is refused (exit 2, naming the first); once the first stops it starts and sees its changes', async () => {
    const p = join(dir, 'shared.json');
    const first = await startEmulator({ port: 0, statePath: p });
    expect((await runVxInProc(['erp', 'currencies', 'create', '--set', 'code=ONE', '--set', 'displayName=One', '-o', 'none'], { env: first.env() })).code).toBe(0);
    for (const args of [['emulator', 'start', '--port', '0', '--state', p], ['emulator', 'exec', '--state', p, '--', 'node', '-e', 'console.log("ran")']]) {
      const r = await runVx(args);
      expect([r.code, r.stdout, r.stderr], args[1]).toEqual([2, '', `vx: ${p} is in use by another emulator (process ${process.pid}): stop it, or give this one another --state (if no emulator runs, delete ${p}.lock)\n`]);
    }
    await first.close();
    expect(existsSync(`${p}.lock`)).toBe(false);
    const r = await runVx(['emulator', 'exec', '--state', p, '--', 'vx', 'erp', 'currencies', 'get', 'ONE', '-q', 'displayName', '-o', 'json']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '"One"\n', '']);
    expect(existsSync(`${p}.lock`)).toBe(false);
  });

  it('the lock of an emulator that is gone (kill -9) is taken over', async () => {
    const p = join(dir, 'killed.json');
    const first = await startEmulator({ port: 0, statePath: p });
    await first.close();
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeFileSync(`${p}.lock`, gone.stdout);
    const r = await runVx(['emulator', 'exec', '--state', p, '--', 'node', '-e', 'console.log("ran")']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'ran\n', '']);
    expect(existsSync(`${p}.lock`)).toBe(false);
  });

  it('the half-written saves of an emulator killed while saving are removed at the next start; other files are left', async () => {
    const p = join(dir, 'half.json');
    const left = `${p}.0b6c2f8e-3d1a-4c5b-9e7f-123456789abc.tmp`;
    writeFileSync(left, '{"erp": {');
    writeFileSync(`${p}.notes.tmp`, 'mine');
    const r = await runVx(['emulator', 'exec', '--state', p, '--', 'node', '-e', '']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect([existsSync(left), existsSync(`${p}.notes.tmp`)]).toEqual([false, true]);
  });

  it('an emulator that fails to start (port in use) lets go of the file', async () => {
    const p = join(dir, 'busy.json');
    const holder = await startEmulator({ port: 0 });
    const port = new URL(holder.url).port;
    const r = await runVx(['emulator', 'start', '--port', port, '--state', p]);
    expect([r.code, r.stderr]).toEqual([2, `vx: port ${port} is in use; pick another with --port (0 picks a free one)\n`]);
    expect(existsSync(`${p}.lock`)).toBe(false);
    await holder.close();
  });
});

describe('the emulated clock in --state', () => {
  it('is saved and loaded with the state: a restart keeps the clock, and the health events that had appeared', async () => {
    const p = join(dir, 'clock.json');
    const first = await startEmulator({ port: 0, statePath: p });
    const advanced = await fetch(`${first.url}/_emulator/clock`, { method: 'POST', body: '{"advanceSeconds": 3600}' });
    expect(advanced.status).toBe(200);
    const events = async (env: Record<string, string>) => (await runVxInProc(['mgmt', 'health', 'events', 'list', '-q', 'length(@)', '-o', 'json'], { env })).stdout;
    const before = await events(first.env());
    await first.close();
    expect(JSON.parse(readFileSync(p, 'utf8')).clock).toEqual({ offsetSeconds: 3600 });
    const again = await startEmulator({ port: 0, statePath: p });
    expect(((await (await fetch(`${again.url}/_emulator/clock`)).json()) as { offsetSeconds: number }).offsetSeconds).toBe(3600);
    expect(await events(again.env())).toBe(before);
    await again.close();
  });

  it('a clock entry of the wrong shape is refused at start (exit 2)', async () => {
    const p = join(dir, 'bad-clock.json');
    writeFileSync(p, JSON.stringify({ clock: { offsetSeconds: -5 } }));
    const r = await runVxInProc(['emulator', 'start', '--port', '0', '--state', p]);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `vx: cannot load emulator state from ${p}: clock: expected {"offsetSeconds": <seconds, 0 or more>}, got a number\n`]);
  });
});

describe('a change answered is in the --state file', () => {
  it('before the answer reaches the client (a kill -9 right after it loses nothing)', async () => {
    const p = join(dir, 'acked.json');
    const emu = await startEmulator({ port: 0, statePath: p });
    const env = emu.env();
    const res = await fetch(`${env.VX_ERP_PREFIX}/api/v1.0/companies(${env.VX_ERP_COMPANY})/currencies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.VX_ERP_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'ACK', displayName: 'Acked' }),
    });
    expect(res.status).toBe(201);
    const saved = JSON.parse(readFileSync(p, 'utf8'));
    expect(saved.erp.data[env.VX_ERP_COMPANY].currencies.map((c: { code: string }) => c.code)).toContain('ACK');
    await emu.close();
  });
});

describe('an empty --state file', () => {
  it('(mktemp makes one) starts seeded and is saved to, as a missing file does', async () => {
    const p = join(dir, 'empty.json');
    writeFileSync(p, '');
    const r = await runVx(['emulator', 'exec', '--state', p, '--', 'vx', 'erp', 'currencies', 'create', '--set', 'code=EMP', '--set', 'displayName=Empty', '-o', 'none']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    const saved = JSON.parse(readFileSync(p, 'utf8'));
    expect(saved.erp.data[saved.erp.defaultCompany].currencies.map((c: { code: string }) => c.code)).toContain('EMP');
  });
});
