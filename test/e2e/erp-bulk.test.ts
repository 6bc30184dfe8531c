// vx erp <set> export, and delete / bound actions over --filter and --ids.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
let dir: string;
beforeAll(() => {
  dir = tempDir('vx-bulk-');
});
afterAll(() => removeDir(dir));

const lines = (s: string) => s.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const batches = () => e2e.emu.log.filter((e) => e.family === 'erp' && e.method === 'POST' && e.path.endsWith('/$batch'));

describe('erp export', () => {
  it('streams every page as CSV with the --select columns, into --out atomically', async () => {
    const out = join(dir, 'orders.csv');
    const r = await e2e.run(['erp', 'sales-orders', 'export', '--select', 'number,customerName,totalAmountIncludingTax', '--page-size', '10', '-o', 'csv', '--out', out]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8').split('\n');
    expect(text[0]).toBe('number,customerName,totalAmountIncludingTax');
    expect(text.filter(Boolean)).toHaveLength(46); // 45 orders over 5 pages
    expect(e2e.emu.count({ family: 'erp', method: 'GET' })).toBe(5);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('ndjson by default, one record per line as the service returned it', async () => {
    const r = await e2e.run(['erp', 'salespeople', 'export', '--filter', "code eq 'JO'"]);
    expect(r.code).toBe(0);
    const rows = lines(r.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ code: 'JO' });
    expect(rows[0]['@odata.etag']).toMatch(/^W\//);
  });

  it('a failure leaves no --out file behind', async () => {
    e2e.emu.setFaults('erp/GET/500:1');
    const out = join(dir, 'fail.json');
    const r = await e2e.run(['erp', 'salespeople', 'export', '--out', out, '--retries', '0']);
    expect(r.code).toBe(7);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('fail.json'))).toEqual([]);
  });

  it('what export writes imports again: edited and back with --update, or into another company (read-only columns named, not sent)', async () => {
    const out = join(dir, 'people.csv');
    expect((await e2e.run(['erp', 'salespeople', 'export', '-o', 'csv', '--out', out])).code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text.split('\n')[0]).toBe('id,code,displayName,email,email2,phoneNo,jobTitle,commisionPercent,privacyBlocked,blocked,lastModifiedDateTime,@odata.etag');
    const count = text.trim().split('\n').length - 1;
    const edited = join(dir, 'people-edited.csv');
    writeFileSync(edited, text.replace(',Annette Hill,', ',Annette Hill-Smith,'));
    e2e.emu.reset();
    const up = await e2e.run(['erp', 'salespeople', 'import', '--update', '--file', edited, '-o', 'ndjson']);
    expect(up.stderr).toBe(`${edited}: read-only column "lastModifiedDateTime" is not sent (the service sets it)\nupdated from ${count} rows: ${count} updated\njournal: ${edited}.vx-journal\n`);
    expect(up.code).toBe(0);
    // the row's ETag is the If-Match (no fresh read), the read-only column is not in the body
    const ops = JSON.parse(batches()[0].body!).requests;
    expect(ops).toHaveLength(count);
    expect(ops[0].method).toBe('PATCH');
    expect(ops[0].headers['If-Match']).toMatch(/^W\//);
    expect(Object.keys(ops[0].body).sort()).toEqual(['blocked', 'code', 'commisionPercent', 'displayName', 'email', 'jobTitle', 'privacyBlocked']);
    expect(e2e.emu.count({ family: 'erp', method: 'GET' })).toBe(0);
    expect(JSON.parse((await e2e.run(['erp', 'salespeople', 'get', 'AH', '-o', 'json'])).stdout).displayName).toBe('Annette Hill-Smith');
    // a copy into the other company: created, id and lastModifiedDateTime left to the service
    const other = '7a9c2d4e-6f80-4b1c-8d2e-3f4a5b6c7d8e';
    const copy = await e2e.run(['erp', 'salespeople', 'import', '--company', other, '--file', out, '--journal', join(dir, 'copy.journal'), '-o', 'ndjson']);
    expect(copy.stderr).toContain(`${out}: read-only columns "id", "lastModifiedDateTime" are not sent (the service sets them)\n`);
    expect(copy.code).toBe(0);
    expect(lines(copy.stdout).every((x) => x.status === 'created')).toBe(true);
    const created = JSON.parse(batches().at(-1)!.body!).requests[0].body;
    expect(created.id).toBeUndefined();
    expect(created.lastModifiedDateTime).toBeUndefined();
    // @odata.etag named in --select is a column, not a $select item (the service refuses it there)
    const sel = await e2e.run(['erp', 'salespeople', 'export', '-o', 'csv', '--select', 'code,@odata.etag', '--filter', "code eq 'AH'"]);
    expect(sel.code).toBe(0);
    expect(sel.stdout).toMatch(/^code,@odata\.etag\nAH,"W\/""[^\n]+"""\n$/);
    expect(e2e.emu.log.at(-1)!.path).toMatch(/[?&]\$select=code(&|$)/);
  });

  it('the --out name wins over VX_OUTPUT, and a display preference (table) neither stops an export nor changes its format', async () => {
    const out = join(dir, 'pref.csv');
    for (const pref of ['table', 'json']) {
      const r = await e2e.run(['erp', 'salespeople', 'export', '--select', 'code', '--filter', "code eq 'AH'", '--out', out], { env: { VX_OUTPUT: pref } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe('code\nAH\n');
    }
    // without --out: VX_OUTPUT when export writes it, else ndjson
    const csv = await e2e.run(['erp', 'salespeople', 'export', '--select', 'code', '--filter', "code eq 'AH'"], { env: { VX_OUTPUT: 'csv' } });
    expect(csv.stdout).toBe('code\nAH\n');
    const table = await e2e.run(['erp', 'salespeople', 'export', '--select', 'code', '--filter', "code eq 'AH'"], { env: { VX_OUTPUT: 'table' } });
    expect(table.code).toBe(0);
    expect(lines(table.stdout)).toEqual([{ '@odata.etag': expect.stringMatching(/^W\//), code: 'AH' }]);
    // -o still wins over the file name
    const flag = await e2e.run(['erp', 'salespeople', 'export', '--select', 'code', '--filter', "code eq 'AH'", '--out', out, '-o', 'ndjson']);
    expect(flag.code).toBe(0);
    expect(lines(readFileSync(out, 'utf8'))).toHaveLength(1);
  });

  it('refuses formats it cannot stream', async () => {
    const r = await e2e.run(['erp', 'salespeople', 'export', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('export writes csv, ndjson, json, tsv; -o table is not one of them');
    expect(e2e.emu.count({ family: 'erp' })).toBe(0);
  });
});

describe('erp bulk actions', () => {
  it('ship-and-invoice --filter counts, needs --yes without a terminal, then runs the action over $batch per order', async () => {
    const filter = "status eq 'Draft'";
    const drafts = JSON.parse((await e2e.run(['erp', 'sales-orders', 'list', '--filter', filter, '-o', 'json'])).stdout);
    expect(drafts.length).toBeGreaterThan(2);
    const no = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', '--filter', filter]);
    expect(no.code).toBe(2);
    // refused before the records are read: nothing at all is sent (issue 13's fuzz)
    expect(no.stderr).toContain(`Ship and invoice the sales order records matching ${filter}: confirmation needed; pass --yes`);
    expect(batches()).toHaveLength(0);
    expect(e2e.emu.count({ family: 'erp', method: 'GET', path: 'salesOrders' })).toBe(1); // the list above only
    const r = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', '--filter', filter, '--yes', '-o', 'ndjson', '--batch-size', '100']);
    expect(r.code).toBe(0);
    const res = lines(r.stdout);
    expect(res).toHaveLength(drafts.length);
    expect(res.every((x) => x.status === 'done')).toBe(true);
    expect(res.map((x) => x.number).sort()).toEqual(drafts.map((d: any) => d.number).sort());
    const ops = JSON.parse(batches()[0].body!).requests;
    expect(ops[0]).toEqual({ id: '1', method: 'POST', url: `companies(${e2e.env.VX_ERP_COMPANY})/salesOrders(${drafts[0].id})/Vendor.NAV.shipAndInvoice`, headers: {} });
    // a second run: the service refuses each order that is shipped already; exit 1, one line per order
    const ids = drafts.map((d: any) => d.id).join('\n');
    const again = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', '--ids', '-', '--yes', '-o', 'ndjson'], { input: `${ids}\n` });
    expect(again.code).toBe(1);
    expect(lines(again.stdout).every((x) => x.status === 'failed' && x.errorCode === 'Application_DialogException')).toBe(true);
  });

  it('--ids refuses a bad id (line named) before sending; <id> with --filter is a usage error', async () => {
    const r = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', '--ids', '-', '--yes'], { input: '\nnot-a-guid\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('standard input line 2: "not-a-guid" is not a GUID');
    const both = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', '00000000-0000-0000-0000-000000000001', '--filter', "status eq 'Open'"]);
    expect(both.code).toBe(2);
    expect(e2e.emu.count({ family: 'erp' })).toBe(0);
  });

  it('--dry-run never asks: --ids shows the reads for the ETags, then the batches; --filter shows the listing as it is sent', async () => {
    const [a, b] = ['00001010-0000-4000-8000-000000100001', '00001010-0000-4000-8000-000000100002'];
    const r = await e2e.run(['erp', 'sales-quotes', 'delete', '--ids', '-', '--dry-run'], { input: `${a}\n${b}\n` });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.map((p: any) => [p.method, p.url.replace(/^.*\/api\//, '')])).toEqual([['POST', 'v1.0/$batch'], ['POST', 'v1.0/$batch']]);
    const C = e2e.env.VX_ERP_COMPANY;
    expect(plan[0].body.requests.map((o: any) => [o.method, o.url])).toEqual([
      ['GET', `companies(${C})/salesQuotes(${a})?$select=id,number`],
      ['GET', `companies(${C})/salesQuotes(${b})?$select=id,number`],
    ]);
    expect(plan[1].body.requests.map((o: any) => [o.method, o.url, o.headers['If-Match']])).toEqual([
      ['DELETE', `companies(${C})/salesQuotes(${a})`, '<@odata.etag of a fresh read>'],
      ['DELETE', `companies(${C})/salesQuotes(${b})`, '<@odata.etag of a fresh read>'],
    ]);
    const act = await e2e.run(['erp', 'sales-quotes', 'send', '--ids', '-', '--dry-run'], { input: `${a}\n` });
    expect(act.code).toBe(0);
    expect(JSON.parse(act.stdout)[0].body.requests).toEqual([{ id: '1', method: 'POST', url: `companies(${C})/salesQuotes(${a})/Vendor.NAV.send`, headers: {} }]);
    const f = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', '--filter', "status eq 'Draft'", '--dry-run']);
    expect(f.code).toBe(0);
    expect(JSON.parse(f.stdout)[0].url).toMatch(/\/salesOrders\?\$filter=status%20eq%20%27Draft%27&\$select=id,number$/);
    // an empty filter (which would match every record) is refused with or without --dry-run
    for (const dry of [['--dry-run'], ['--yes']]) {
      const empty = await e2e.run(['erp', 'currencies', 'delete', '--filter', ' ', ...dry]);
      expect(empty.code).toBe(2);
      expect(empty.stdout).toBe('');
      expect(empty.stderr).toBe('vx: --filter may not be empty\n');
    }
    expect(e2e.emu.count({ family: 'erp' })).toBe(0);
  });

  it('an id listed twice is acted on once (a quote is not sent to the customer twice)', async () => {
    const a = '00001010-0000-4000-8000-000000100001';
    const r = await e2e.run(['erp', 'sales-quotes', 'send', '--ids', '-', '--yes', '-o', 'ndjson'], { input: `${a}\r\n${a.toUpperCase()}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`standard input line 2: ${a.toUpperCase()} repeats line 1; it is acted on once\nsend: 1 row: 1 done\n`);
    expect(lines(r.stdout)).toEqual([{ row: 1, status: 'done', id: a }]);
    expect(JSON.parse(batches()[0].body!).requests).toHaveLength(1);
  });

  it('asks in words that fit the action, naming standard input', async () => {
    const r = await e2e.run(['erp', 'sales-quotes', 'make-order', '--ids', '-'], { input: '00001010-0000-4000-8000-000000100001\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: Turn the sales quote records listed in standard input into a sales order: confirmation needed; pass --yes to proceed without a terminal (nothing was sent)\n');
    const s = await e2e.run(['erp', 'sales-quotes', 'send', '--filter', "status eq 'Draft'"]);
    expect(s.stderr).toBe("vx: Send the sales quote records matching status eq 'Draft' to the customer: confirmation needed; pass --yes to proceed without a terminal (nothing was sent)\n");
    expect(e2e.emu.count({ family: 'erp' })).toBe(0);
  });

  it('Ctrl-C: exit 130, and the summary counts the orders never sent', async () => {
    e2e.emu.setFaults('latency:200');
    const r = await e2e.run(['erp', 'sales-orders', 'ship-and-invoice', '--filter', "status ne 'x'", '--yes', '--batch-size', '1', '--concurrency', '1', '-o', 'ndjson'], {
      onSpawn: (child) => child.stdout!.once('data', () => child.kill('SIGINT')),
    });
    expect(r.code).toBe(130);
    const m = /^ship-and-invoice: 45 rows: (\d+) done, (?:(\d+) unknown, )?(\d+) not sent \(interrupted\)$/m.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const [done, unknown, left] = [Number(m![1]), Number(m![2] ?? 0), Number(m![3])];
    expect(done + unknown + left).toBe(45);
    expect(left).toBeGreaterThan(0);
    expect(lines(r.stdout)).toHaveLength(done + unknown);
    // (the batch that was out when Ctrl-C came may not be logged yet)
    expect(batches().length).toBeGreaterThanOrEqual(done);
    expect(batches().length).toBeLessThanOrEqual(done + unknown);
  }, 30_000);

  it('delete --filter sends If-Match from the listing and reports per record', async () => {
    const r = await e2e.run(['erp', 'currencies', 'delete', '--filter', "code ne 'USD'", '--yes', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const res = lines(r.stdout);
    expect(res.length).toBe(4);
    expect(res.every((x) => x.status === 'deleted')).toBe(true);
    const op = JSON.parse(batches()[0].body!).requests[0];
    expect(op.method).toBe('DELETE');
    expect(op.headers['If-Match']).toMatch(/^W\//);
    expect(op.url).toMatch(/^companies\([0-9a-f-]+\)\/currencies\('?[0-9a-f-]+'?\)$/);
    const left = JSON.parse((await e2e.run(['erp', 'currencies', 'list', '-o', 'json'])).stdout);
    expect(left.map((c: any) => c.code)).toEqual(['USD']);
  });
});
