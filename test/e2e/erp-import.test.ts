// vx erp <set> import: rows checked first, sent over $batch, one result per row, the journal.
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashFields } from '../../src/api/erp/rows.js';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
let dir: string;
beforeAll(() => {
  dir = tempDir('vx-import-');
});
afterAll(() => removeDir(dir));

function file(name: string, text: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}
const batches = () => e2e.emu.log.filter((e) => e.family === 'erp' && e.method === 'POST' && e.path.endsWith('/$batch'));
const lines = (s: string) => s.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
/**
 * The journal as an earlier run left it long enough ago that its requests can no longer be
 * running on the service (--check-unknown looks up only those): send times and the file's time an hour back.
 */
function aged(journal: string): void {
  const hour = 3_600_000;
  writeFileSync(journal, readFileSync(journal, 'utf8').replace(/"at":(\d+)/g, (_, at: string) => `"at":${Number(at) - hour}`));
  const then = (Date.now() - hour) / 1000;
  utimesSync(journal, then, then);
}

async function codes(): Promise<string[]> {
  const r = await e2e.run(['erp', 'salespeople', 'list', '--query', '[].code', '-o', 'json']);
  return JSON.parse(r.stdout);
}

describe('erp import', () => {
  it('creates one record per CSV row in $batch requests and prints one result per row', async () => {
    // (booleans as spreadsheets write them too)
    const p = file('people.csv', 'code,displayName,commisionPercent,blocked\nN1,Ann,5,FALSE\nN2,"Bob, Jr",7.5,\nN3,Cy,,True\n');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson', '--batch-size', '2']);
    expect(r.stderr).toContain('imported 3 rows: 3 created');
    expect(r.code).toBe(0);
    const res = lines(r.stdout).sort((a, b) => a.row - b.row);
    expect(res.map((x) => [x.row, x.status])).toEqual([[2, 'created'], [3, 'created'], [4, 'created']]);
    expect(res.every((x) => /^[0-9a-f-]{36}$/.test(x.id))).toBe(true);
    const sent = batches();
    expect(sent).toHaveLength(2);
    expect(sent[0].headers!.prefer).toBe('odata.continue-on-error');
    expect(sent[0].headers!.isolation).toBeUndefined();
    const first = JSON.parse(sent.find((b) => JSON.parse(b.body!).requests.length === 2)!.body!);
    expect(first.requests[0]).toEqual({
      id: '1',
      method: 'POST',
      url: `companies(${e2e.env.VX_ERP_COMPANY})/salespeoplePurchasers`,
      headers: { 'Content-Type': 'application/json' },
      body: { code: 'N1', displayName: 'Ann', commisionPercent: 5, blocked: false },
    });
    expect(first.requests[1].body).toEqual({ code: 'N2', displayName: 'Bob, Jr', commisionPercent: 7.5 });
    expect(JSON.parse(sent.find((b) => JSON.parse(b.body!).requests.length === 1)!.body!).requests[0].body).toEqual({ code: 'N3', displayName: 'Cy', blocked: true });
    expect(await codes()).toEqual(expect.arrayContaining(['N1', 'N2', 'N3']));
    expect(existsSync(`${p}.vx-journal`)).toBe(true);
  });

  it('reads a BOM, CRLF line ends and quoted newlines; row numbers are the lines rows start on', async () => {
    const p = file('crlf.csv', Buffer.from('\uFEFFcode,displayName,jobTitle\r\nQ1,"two\r\nlines",x\r\nQ2,Zed,"a ""quoted"" title"\r\n'));
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout).map((x) => x.row).sort()).toEqual([2, 4]);
    const ops = JSON.parse(batches()[0].body!).requests;
    expect(ops.map((o: any) => o.body)).toEqual([
      { code: 'Q1', displayName: 'two\r\nlines', jobTitle: 'x' },
      { code: 'Q2', displayName: 'Zed', jobTitle: 'a "quoted" title' },
    ]);
  });

  it("a spreadsheet's CSV: semicolons, a BOM, CRLF, TRUE/FALSE and blank rows; .tsv read as tab-separated", async () => {
    const p = file('excel.csv', Buffer.from('\uFEFFcode;displayName;blocked\r\nX1;"Smith; Jones";FALSE\r\n;;\r\nX2;Lee;TRUE\r\n;;\r\n'));
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(r.stderr).toContain('imported 2 rows: 2 created');
    expect(r.code).toBe(0);
    expect(lines(r.stdout).map((x) => [x.row, x.status]).sort()).toEqual([[2, 'created'], [4, 'created']]);
    expect(JSON.parse(batches()[0].body!).requests.map((q: { body: unknown }) => q.body)).toEqual([
      { code: 'X1', displayName: 'Smith; Jones', blocked: false },
      { code: 'X2', displayName: 'Lee', blocked: true },
    ]);
    const t = file('people.tsv', 'code\tdisplayName\nX3\tTab, Person\n');
    const tr = await e2e.run(['erp', 'salespeople', 'import', '--file', t, '-o', 'ndjson']);
    expect(tr.code).toBe(0);
    expect(JSON.parse(batches().at(-1)!.body!).requests[0].body).toEqual({ code: 'X3', displayName: 'Tab, Person' });
  });

  it('lists every bad row with its number, exits 2 and sends nothing', async () => {
    const p = file('bad.csv', 'code,displayName,commisionPercent\nB1,Ann,abc\nB2\n,NoCode,1\nB4,"x",2,extra\nB5,fine,3\n');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.csv row 2: field "commisionPercent": invalid value "abc": expected number');
    expect(r.stderr).toContain('bad.csv row 3: has 1 field; the header has 3');
    expect(r.stderr).toContain('bad.csv row 4: a new salesperson/purchaser needs code');
    expect(r.stderr).toContain('bad.csv row 5: has 4 fields; the header has 3');
    expect(r.stderr).toMatch(/vx: 4 of 5 rows are invalid \(listed above\); nothing was sent/);
    expect(e2e.emu.count({ family: 'erp' })).toBe(0);
    expect(existsSync(`${p}.vx-journal`)).toBe(false);
  });

  it('--skip-invalid sends the valid rows and exits 1 reporting the invalid ones', async () => {
    const p = file('skip.csv', 'code,commisionPercent\nK1,abc\nK2,2\n');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--skip-invalid', '-o', 'ndjson']);
    expect(r.code).toBe(1);
    const res = lines(r.stdout).sort((a, b) => a.row - b.row);
    expect(res[0]).toEqual({ row: 2, status: 'invalid', message: 'field "commisionPercent": invalid value "abc": expected number' });
    expect(res[1]).toMatchObject({ row: 3, status: 'created' });
    expect(r.stderr).toContain('vx: 1 of 2 rows did not succeed');
  });

  // wrong, read-only and duplicate column names, an empty file, bad CSV: unit/erp-import-inproc

  it('NDJSON: a bad line is named by its number; JSON values are checked like --data', async () => {
    const p = file('rows.ndjson', '{"code":"J1"}\n\n{"code":"J2",\n{"code":"J3","commisionPercent":"5"}\n');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/rows\.ndjson row 3: not valid JSON/);
    expect(r.stderr).toContain('rows.ndjson row 4: field "commisionPercent": expected number (got "5")');
    const ok = await e2e.run(['erp', 'salespeople', 'import', '--file', '-', '--format', 'ndjson', '--journal', join(dir, 'stdin.journal'), '-o', 'ndjson'], { input: '{"code":"J1","blocked":true}\n' });
    expect(ok.code).toBe(0);
    expect(JSON.parse(batches()[0].body!).requests[0].body).toEqual({ code: 'J1', blocked: true });
    const nojournal = await e2e.run(['erp', 'salespeople', 'import', '--file', '-', '--format', 'ndjson'], { input: '{"code":"J9"}\n' });
    expect(nojournal.code).toBe(2);
    expect(nojournal.stderr).toContain('name a journal with --journal <file>');
  });

  it('a rerun skips the rows created before; a journal of another input or command is refused', async () => {
    const p = file('again.csv', 'code\nR1\nR2\n');
    expect((await e2e.run(['erp', 'salespeople', 'import', '--file', p])).code).toBe(0);
    const before = batches().length;
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout).map((x) => x.status)).toEqual(['skipped', 'skipped']);
    expect(batches().length).toBe(before);
    const other = file('other.csv', 'code\nR1\nR2\n');
    const x = await e2e.run(['erp', 'salespeople', 'import', '--file', other, '--journal', `${p}.vx-journal`]);
    expect(x.code).toBe(2);
    expect(x.stderr).toMatch(/the journal .*again\.csv\.vx-journal belongs to another input/);
    const y = await e2e.run(['erp', 'currencies', 'import', '--file', p, '--journal', `${p}.vx-journal`]);
    expect(y.code).toBe(2);
    expect(y.stderr).toMatch(/belongs to another command/);
    writeFileSync(p, 'code\nR1\nR2-changed\n');
    const z = await e2e.run(['erp', 'salespeople', 'import', '--file', p]);
    expect(z.code).toBe(2);
    // deleting the journal sends every row again: the message says that creates the done ones twice
    expect(z.stderr).toBe(
      `vx: the journal ${p}.vx-journal belongs to another version of the input: row 3 was sent before with other content (rows are told apart by their line: add new rows at the end); name another file with --journal, or delete it to send every row again (the rows it records as created would be created twice)\n`,
    );
    expect(batches().length).toBe(before);
  });

  it('a journal another run is using is refused (exit 2, nothing sent); the lock of a run that is gone is taken over', async () => {
    const p = file('locked.csv', 'code\nLK1\n');
    writeFileSync(`${p}.vx-journal.lock`, `${process.pid}\n`); // a live process holds it
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p], { spawn: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`vx: the journal ${p}.vx-journal is in use by another vx run (process ${process.pid}); wait for it to end, or remove ${p}.vx-journal.lock if no such run is going\n`);
    expect(batches()).toHaveLength(0);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!; // a process that has ended
    writeFileSync(`${p}.vx-journal.lock`, `${gone}\n`);
    const s = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(s.code).toBe(0);
    expect(lines(s.stdout).map((x) => x.status)).toEqual(['created']);
    expect(existsSync(`${p}.vx-journal.lock`)).toBe(false); // let go at the end
    const j = join(dir, 'no-such-dir', 'x.journal');
    const w = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--journal', j]);
    expect(w.code).toBe(2);
    expect(w.stderr).toMatch(new RegExp(`^vx: cannot write the journal ${j.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOENT.*; name a writable file with --journal\n$`));
  });

  it('a lost answer leaves the rows unknown, with a check; a rerun does not resend them unless --resend-unknown', async () => {
    const p = file('lost.csv', 'code\nL1\nL2\n');
    e2e.emu.setFaults('erp/POST/reset-after:1x');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(r.code).toBe(1);
    const res = lines(r.stdout);
    expect(res.map((x) => x.status)).toEqual(['unknown', 'unknown']);
    expect(res[0].check).toBe(`vx erp salespeople list --filter "code eq 'L1'"`);
    expect(r.stderr).toContain("check with: vx erp salespeople list --filter \"code eq 'L1' or code eq 'L2'\"");
    expect(await codes()).toEqual(expect.arrayContaining(['L1', 'L2'])); // the batch was done; its answer was lost
    const n = batches().length;
    const again = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(again.code).toBe(1);
    expect(lines(again.stdout).map((x) => x.status)).toEqual(['unknown', 'unknown']);
    // listed with the query that checks them, as the run that lost the answer did
    expect(lines(again.stdout)[1].check).toBe(`vx erp salespeople list --filter "code eq 'L2'"`);
    expect(again.stderr).toContain("check with: vx erp salespeople list --filter \"code eq 'L1' or code eq 'L2'\"");
    expect(batches().length).toBe(n);
    const resend = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--resend-unknown', '-o', 'ndjson']);
    expect(resend.code).toBe(1); // they exist now: the service refuses duplicates
    expect(lines(resend.stdout).map((x) => [x.code, x.errorCode])).toEqual([['L1', 'Internal_EntityWithSameKeyExists'], ['L2', 'Internal_EntityWithSameKeyExists']]);
  });

  it('--check-unknown: rows found by their key are journaled created and not sent; a row the service lacks is sent once; exit 0', async () => {
    const p = file('check.csv', 'code,displayName\nK1,One\nK2,Two\nK3,Three\n');
    e2e.emu.setFaults('erp/POST/reset-after:1x');
    const lost = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson', '--batch-size', '2', '--concurrency', '1']);
    expect(lost.code).toBe(1);
    expect(lines(lost.stdout).map((x) => [x.row, x.status])).toEqual([[2, 'unknown'], [3, 'unknown'], [4, 'created']]);
    expect(lost.stderr).toContain('--check-unknown looks them up');
    // K1 and K2 were created (their answer was lost); then K2 is deleted: the check must find K1 and send K2 again
    const all = JSON.parse((await e2e.run(['erp', 'salespeople', 'list', '-o', 'json'])).stdout) as { id: string; code: string }[];
    const k1 = all.find((x) => x.code === 'K1')!;
    const k2 = all.find((x) => x.code === 'K2')!;
    expect((await e2e.run(['erp', 'salespeople', 'delete', k2.id, '--yes', '--force'])).code).toBe(0);
    const before = readFileSync(`${p}.vx-journal`, 'utf8');
    const n = batches().length;
    aged(`${p}.vx-journal`);
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '-o', 'ndjson']);
    expect(r.stderr).toBe(
      '--check-unknown: 2 rows looked up: 1 found done, 1 not there (sent now), 0 still unknown\n' + `imported 3 rows: 2 created, 1 skipped (done before, per the journal)\njournal: ${p}.vx-journal\n`,
    );
    expect(r.code).toBe(0);
    const out = lines(r.stdout).sort((a, b) => a.row - b.row);
    expect(out[0]).toEqual({ row: 2, status: 'created', id: k1.id, code: 'K1', message: "found by --check-unknown (code K1): the earlier run created it" });
    expect(out[1]).toEqual({ row: 3, status: 'created', id: expect.stringMatching(/^[0-9a-f-]{36}$/), code: 'K2' });
    expect(out[2]).toMatchObject({ row: 4, status: 'skipped' });
    // one batch of lookups (GETs by code), then one POST of K2 alone
    const sent = batches().slice(n).map((b) => JSON.parse(b.body!).requests as { method: string; url: string; body?: unknown }[]);
    expect(sent.map((reqs) => reqs.map((q) => q.method))).toEqual([['GET', 'GET'], ['POST']]);
    expect(sent[0].map((q) => decodeURIComponent(q.url))).toEqual([
      `companies(${e2e.env.VX_ERP_COMPANY})/salespeoplePurchasers?$filter=code eq 'K1'&$select=id,code&$top=2`,
      `companies(${e2e.env.VX_ERP_COMPANY})/salespeoplePurchasers?$filter=code eq 'K2'&$select=id,code&$top=2`,
    ]);
    expect(sent[1][0].body).toEqual({ code: 'K2', displayName: 'Two' });
    expect((await codes()).filter((c) => /^K\d$/.test(c)).sort()).toEqual(['K1', 'K2', 'K3']);
    const hash = (c: string, d: string) => hashFields([c, d]);
    expect(readFileSync(`${p}.vx-journal`, 'utf8').slice(before.length).replace(/"at":\d+/, '"at":0')).toBe(
      `{"row":2,"hash":"${hash('K1', 'One')}","state":"done","id":"${k1.id}","key":"K1"}\n` +
        `{"row":3,"hash":"${hash('K2', 'Two')}","state":"sent","at":0}\n` +
        `{"row":3,"hash":"${hash('K2', 'Two')}","state":"done","id":"${out[1].id}","key":"K2"}\n`,
    );
    // the journal now has every row done: a rerun sends nothing and exits 0
    aged(`${p}.vx-journal`);
    const again = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '-o', 'ndjson']);
    expect(again.code).toBe(0);
    expect(lines(again.stdout).map((x) => x.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(batches().length).toBe(n + 2);
  });

  it('--check-unknown: two rows of the file naming the record found stay unknown (only one can have created it); nothing is sent', async () => {
    const p = file('check-dup.csv', 'code,displayName\nD1,One\nD1,Two\n');
    e2e.emu.setFaults('erp/POST/reset-after:1x');
    const lost = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(lines(lost.stdout).map((x) => x.status)).toEqual(['unknown', 'unknown']);
    const n = batches().length;
    aged(`${p}.vx-journal`);
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '-o', 'ndjson']);
    expect(r.code).toBe(1);
    const out = lines(r.stdout).sort((a, b) => a.row - b.row);
    expect(out.map((x) => [x.row, x.status, x.id])).toEqual([[2, 'unknown', undefined], [3, 'unknown', undefined]]);
    expect(out[0].message).toBe('--check-unknown found a salesperson/purchaser (code D1), but rows 2 and 3 of the file all name it and only one of them can have created it; check by hand; not sent again');
    // the lookups only: no POST
    const sent = batches().slice(n).map((b) => (JSON.parse(b.body!).requests as { method: string }[]).map((q) => q.method));
    expect(sent.flat().every((m) => m === 'GET')).toBe(true);
    expect((await codes()).filter((c) => c === 'D1')).toHaveLength(1);
  });

  it('--check-unknown: a row whose key finds the record the journal records as created by another row stays unknown (it cannot have created it); nothing is sent', async () => {
    // row 2 is imported; row 3 (the same code) is added at the end and its answer is lost
    const p = file('check-other.csv', 'code,displayName\nE1,One\n');
    const first = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(first.code).toBe(0);
    const [created] = lines(first.stdout);
    expect(created).toMatchObject({ row: 2, status: 'created' });
    writeFileSync(p, 'code,displayName\nE1,One\nE1,Two\n');
    e2e.emu.setFaults('erp/POST/reset-after:1x');
    const lost = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(lines(lost.stdout).map((x) => [x.row, x.status])).toEqual([[2, 'skipped'], [3, 'unknown']]);
    const before = readFileSync(`${p}.vx-journal`, 'utf8');
    const n = batches().length;
    aged(`${p}.vx-journal`);
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '-o', 'ndjson']);
    expect(r.code).toBe(1);
    expect(lines(r.stdout).sort((a, b) => a.row - b.row)).toEqual([
      { row: 2, status: 'skipped', id: created.id, code: 'E1' },
      {
        row: 3,
        status: 'unknown',
        code: 'E1',
        message: `--check-unknown found a salesperson/purchaser (code E1), but it is the one row 2 created (the journal records its id ${created.id}): this row cannot have created it; check by hand; not sent again`,
        check: `vx erp salespeople list --filter "code eq 'E1'"`,
      },
    ]);
    expect(r.stderr).toContain('--check-unknown: 1 row looked up: 0 found done, 0 not there (sent now), 1 still unknown\n');
    // the lookup only: no POST
    const sent = batches().slice(n).map((b) => (JSON.parse(b.body!).requests as { method: string }[]).map((q) => q.method));
    expect(sent).toEqual([['GET']]);
    expect(readFileSync(`${p}.vx-journal`, 'utf8').slice(before.length)).toBe(
      `{"row":3,"hash":"${hashFields(['E1', 'Two'])}","state":"unknown","key":"E1"}\n`,
    );
    expect((await codes()).filter((c) => c === 'E1')).toHaveLength(1);
  });

  it('--check-unknown leaves unknown, with why, the rows it cannot prove: a key the service may store otherwise, a lookup that failed, no key', async () => {
    const head = (p: string, command = 'erp salespeople import') => ({ kind: 'vx-erp-import-journal', version: 1, command, company: e2e.env.VX_ERP_COMPANY, input: p });
    const p = file('check-edge.csv', 'code\nlow1\nK9\n');
    writeFileSync(`${p}.vx-journal`, [head(p), { row: 2, hash: hashFields(['low1']), state: 'unknown' }, { row: 3, hash: hashFields(['K9']), state: 'sent' }].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const n = batches().length;
    // the lookup of the first batch is answered with a lost connection: K9 is not provably absent
    e2e.emu.setFaults('erp/POST/reset:1x');
    aged(`${p}.vx-journal`);
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '-o', 'ndjson', '--retries', '0']);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out.map((x) => [x.row, x.status])).toEqual([[2, 'unknown'], [3, 'unknown']]);
    expect(out[0].message).toMatch(/^--check-unknown could not look it up: reading the salesperson\/purchaser failed: .+; not sent again$/);
    expect(out[1].check).toBe(`vx erp salespeople list --filter "code eq 'K9'"`);
    expect(batches().slice(n).every((b) => JSON.parse(b.body!).requests.every((q: { method: string }) => q.method === 'GET'))).toBe(true);
    expect(r.stderr).toContain('--check-unknown: 2 rows looked up: 0 found done, 0 not there (sent now), 2 still unknown\n');
    expect(r.stderr).toContain('2 of 2 rows did not succeed');
    // answered: low1 is not there as written, but the service keeps codes in capitals: not sent; K9 is sent
    const m = batches().length;
    aged(`${p}.vx-journal`);
    const s = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '-o', 'ndjson']);
    expect(s.code).toBe(1);
    const res = lines(s.stdout).sort((a, b) => a.row - b.row);
    expect(res[0]).toEqual({
      row: 2,
      status: 'unknown',
      code: 'low1',
      message: '--check-unknown found no salesperson/purchaser with code low1, but the service keeps code in capitals without surrounding spaces, so it may hold it otherwise; check by hand; not sent again',
      check: `vx erp salespeople list --filter "code eq 'low1'"`,
    });
    expect(res[1]).toMatchObject({ row: 3, status: 'created' });
    expect(batches().slice(m).flatMap((b) => JSON.parse(b.body!).requests.filter((q: { method: string }) => q.method === 'POST').map((q: { body: unknown }) => q.body))).toEqual([{ code: 'K9' }]);
    // sales orders: a row without externalDocumentNumber names no record (its number is set by the service)
    const o = file('check-orders.csv', 'customerNumber\n10000\n');
    writeFileSync(`${o}.vx-journal`, [head(o, 'erp sales-orders import'), { row: 2, hash: hashFields(['10000']), state: 'unknown' }].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const k = batches().length;
    aged(`${o}.vx-journal`);
    const so = await e2e.run(['erp', 'sales-orders', 'import', '--file', o, '--check-unknown', '-o', 'ndjson']);
    expect(so.code).toBe(1);
    expect(lines(so.stdout)).toEqual([
      {
        row: 2,
        status: 'unknown',
        message: '--check-unknown cannot look it up: nothing in the row identifies the sales order it would have created (its number is set by the service and the row has no externalDocumentNumber); check by hand; not sent again',
        check: 'vx erp sales-orders list --orderby "lastModifiedDateTime desc" --top 1',
      },
    ]);
    expect(batches().length).toBe(k);
    const stdin = await e2e.run(['erp', 'salespeople', 'import', '--file', '-', '--format', 'csv', '--check-unknown'], { input: 'code\nK9\n' });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toBe('vx: --check-unknown needs the journal of the earlier run (--journal <file>)\n');
    const both = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '--resend-unknown']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('vx: --check-unknown and --resend-unknown do not go together: --check-unknown sends only the rows the service proves it does not have\n');
  });

  it('--check-unknown by a key the service does not keep unique (externalDocumentNumber): found counts only with the row\'s values', async () => {
    const create = async (po: string, customer: string) => JSON.parse((await e2e.run(['erp', 'sales-orders', 'create', '--set', `customerNumber=${customer}`, '--set', `externalDocumentNumber=${po}`, '-o', 'json'])).stdout) as { id: string; number: string };
    const mine = await create('PO-77', '10000');
    const other = await create('PO-78', '20000');
    const p = file('check-po.csv', 'externalDocumentNumber,customerNumber\nPO-77,10000\nPO-78,10000\n');
    const head = { kind: 'vx-erp-import-journal', version: 1, command: 'erp sales-orders import', company: e2e.env.VX_ERP_COMPANY, input: p };
    writeFileSync(`${p}.vx-journal`, [head, { row: 2, hash: hashFields(['PO-77', '10000']), state: 'unknown' }, { row: 3, hash: hashFields(['PO-78', '10000']), state: 'unknown' }].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const n = batches().length;
    aged(`${p}.vx-journal`);
    const r = await e2e.run(['erp', 'sales-orders', 'import', '--file', p, '--check-unknown', '-o', 'ndjson']);
    expect(r.code).toBe(1);
    expect(lines(r.stdout).sort((a, b) => a.row - b.row)).toEqual([
      { row: 2, status: 'created', id: mine.id, number: mine.number, message: "found by --check-unknown (externalDocumentNumber PO-77, with the row's values): the earlier run created it" },
      {
        row: 3,
        status: 'unknown',
        message: `--check-unknown found a sales order (externalDocumentNumber PO-78) without the row's values (customerNumber is "20000", the row has "10000"): it may be another's, or changed since; check by hand; not sent again (--resend-unknown sends it)`,
        check: `vx erp sales-orders list --filter "externalDocumentNumber eq 'PO-78'"`,
      },
    ]);
    const reqs = batches().slice(n).flatMap((x) => JSON.parse(x.body!).requests as { method: string; url: string }[]);
    expect(reqs.map((q) => q.method)).toEqual(['GET', 'GET']);
    expect(decodeURIComponent(reqs[0].url)).toBe(`companies(${e2e.env.VX_ERP_COMPANY})/salesOrders?$filter=externalDocumentNumber eq 'PO-77'&$select=id,number,externalDocumentNumber,customerNumber&$top=2`);
    expect(other.id).not.toBe(mine.id);
  });

  it('--check-unknown interrupted by Ctrl-C while the lookups are out: the rows stay unknown, with their check, and nothing is sent', async () => {
    const p = file('check-int.csv', 'code\nI1\nI2\n');
    const head = { kind: 'vx-erp-import-journal', version: 1, command: 'erp salespeople import', company: e2e.env.VX_ERP_COMPANY, input: p };
    writeFileSync(`${p}.vx-journal`, [head, { row: 2, hash: hashFields(['I1']), state: 'unknown' }, { row: 3, hash: hashFields(['I2']), state: 'sent' }].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const before = readFileSync(`${p}.vx-journal`, 'utf8');
    e2e.emu.setFaults('erp/POST/hang:1x');
    aged(`${p}.vx-journal`);
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--check-unknown', '-o', 'ndjson'], {
      onSpawn: (child) => {
        const wait = setInterval(() => {
          if (batches().length) {
            clearInterval(wait);
            child.kill('SIGINT');
          }
        }, 20);
      },
    });
    expect(r.code).toBe(130);
    expect(lines(r.stdout).sort((a, b) => a.row - b.row)).toEqual([
      { row: 2, status: 'unknown', code: 'I1', message: '--check-unknown was interrupted before it learned about it; not sent again', check: `vx erp salespeople list --filter "code eq 'I1'"` },
      { row: 3, status: 'unknown', code: 'I2', message: '--check-unknown was interrupted before it learned about it; not sent again', check: `vx erp salespeople list --filter "code eq 'I2'"` },
    ]);
    expect(r.stderr).toContain('imported 2 rows: 2 unknown\n');
    expect(batches().flatMap((b) => JSON.parse(b.body!).requests.map((q: { method: string }) => q.method))).toEqual(['GET', 'GET']);
    const after = readFileSync(`${p}.vx-journal`, 'utf8');
    expect(after.slice(before.length)).toBe(`{"row":2,"hash":"${hashFields(['I1'])}","state":"unknown","key":"I1"}\n{"row":3,"hash":"${hashFields(['I2'])}","state":"unknown","key":"I2"}\n`);
  }, 30_000);

  it('--update --check-unknown: a record holding the row\'s values is journaled updated; one without them stays unknown; nothing is sent', async () => {
    const [a, b] = JSON.parse((await e2e.run(['erp', 'salespeople', 'list', '-o', 'json'])).stdout);
    expect((await e2e.run(['erp', 'salespeople', 'update', a.id, '--set', 'jobTitle=Checked', '--force'])).code).toBe(0);
    const p = file('check-upd.csv', `code,jobTitle\n${a.code},Checked\n${b.code},Checked\n`);
    const head = { kind: 'vx-erp-import-journal', version: 1, command: 'erp salespeople import --update', company: e2e.env.VX_ERP_COMPANY, input: p };
    writeFileSync(`${p}.vx-journal`, [head, { row: 2, hash: hashFields([a.code, 'Checked']), state: 'unknown', id: a.id }, { row: 3, hash: hashFields([b.code, 'Checked']), state: 'sent' }].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const before = readFileSync(`${p}.vx-journal`, 'utf8');
    aged(`${p}.vx-journal`);
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--update', '--check-unknown', '-o', 'ndjson']);
    expect(r.code).toBe(1);
    expect(lines(r.stdout).sort((x, y) => x.row - y.row)).toEqual([
      { row: 2, status: 'updated', id: a.id, code: a.code, message: `found by --check-unknown (id ${a.id}) with the row's values: the earlier run updated it` },
      {
        row: 3,
        status: 'unknown',
        id: b.id,
        code: b.code,
        message: `--check-unknown found a salesperson/purchaser (code ${b.code}) without the row's values (jobTitle is ${JSON.stringify(b.jobTitle)}, the row has "Checked"): the update was not done, or the record changed since; not sent again (--resend-unknown sends it)`,
        check: `vx erp salespeople list --filter "id eq ${b.id}"`,
      },
    ]);
    const reqs = batches().flatMap((x) => JSON.parse(x.body!).requests as { method: string; url: string }[]);
    expect(reqs.map((q) => q.method)).toEqual(['GET', 'GET']);
    expect(decodeURIComponent(reqs[0].url)).toBe(`companies(${e2e.env.VX_ERP_COMPANY})/salespeoplePurchasers(${a.id})?$select=id,code,jobTitle`);
    expect(r.stderr).toContain('--check-unknown: 2 rows looked up: 1 found done, 1 still unknown\n');
    expect(readFileSync(`${p}.vx-journal`, 'utf8').slice(before.length)).toBe(
      `{"row":2,"hash":"${hashFields([a.code, 'Checked'])}","state":"done","id":"${a.id}","key":"${a.code}"}\n{"row":3,"hash":"${hashFields([b.code, 'Checked'])}","state":"unknown","id":"${b.id}","key":"${b.code}"}\n`,
    );
  });

  it('--update: rows an earlier run left unknown are listed with a check, by id where the journal has it, else by their key', async () => {
    const [a, b] = JSON.parse((await e2e.run(['erp', 'salespeople', 'list', '-o', 'json'])).stdout);
    const p = file('lost-upd.csv', `code,jobTitle\n${a.code},Lost\n${b.code},Lost\n`);
    const head = { kind: 'vx-erp-import-journal', version: 1, command: 'erp salespeople import --update', company: e2e.env.VX_ERP_COMPANY, input: p };
    // row 2: its answer was lost (the id was known from the lookup); row 3: killed after it was sent
    const journal = [head, { row: 2, hash: hashFields([a.code, 'Lost']), state: 'unknown', id: a.id }, { row: 3, hash: hashFields([b.code, 'Lost']), state: 'sent' }];
    writeFileSync(`${p}.vx-journal`, journal.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--update', '-o', 'ndjson']);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      { row: 2, status: 'unknown', id: a.id, code: a.code, message: expect.any(String), check: `vx erp salespeople list --filter "id eq ${a.id}"` },
      { row: 3, status: 'unknown', code: b.code, message: expect.any(String), check: `vx erp salespeople list --filter "code eq '${b.code}'"` },
    ]);
    expect(r.stderr).toContain(`check with: vx erp salespeople list --filter "id eq ${a.id}"\n  check with: vx erp salespeople list --filter "code eq '${b.code}'"`);
    expect(batches()).toHaveLength(0);
  });

  it('a batch whose answer does not come in time is unknown, said as a timeout', async () => {
    const p = file('slow.csv', 'code\nTO1\n');
    e2e.emu.setFaults('erp/POST/hang:1x');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson', '--timeout', '1']);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([{ row: 2, status: 'unknown', code: 'TO1', message: 'no answer came in time (--timeout) after the batch was sent', check: `vx erp salespeople list --filter "code eq 'TO1'"` }]);
    expect(r.stderr).toContain('1 row has an unknown outcome (row 2): it may or may not have been done, and was not sent again');
  });

  it('--atomic sends Isolation: snapshot and says which batches were rolled back', async () => {
    const p = file('atomic.csv', 'code\nM1\nM2\nM1\nM4\n');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--atomic', '--batch-size', '2', '--concurrency', '1', '-o', 'ndjson']);
    expect(r.code).toBe(1);
    const res = lines(r.stdout).sort((a, b) => a.row - b.row);
    expect(res.map((x) => x.status)).toEqual(['created', 'created', 'failed', 'rolled-back']);
    expect(res[2]).toMatchObject({ code: 'M1', httpStatus: 400, errorCode: 'Internal_EntityWithSameKeyExists', batch: 2 });
    expect(res[3]).toMatchObject({ batch: 2 });
    expect(r.stderr).toContain('rolled back (--atomic): batch 2 (rows 4-5); their rows were not changed');
    expect(batches()[0].headers!.isolation).toBe('snapshot');
    expect(await codes()).not.toContain('M4');
    // the rolled-back and failed rows are sent again by a rerun (after fixing the file, a new journal)
  });

  it('--update finds records by code, sends If-Match from a fresh read, and reports a stale row etag as a conflict', async () => {
    const list = JSON.parse((await e2e.run(['erp', 'salespeople', 'list', '-o', 'json'])).stdout);
    const [a, b] = list;
    const p = file('upd.csv', `code,jobTitle\n${a.code},Chief\n`);
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--update', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([{ row: 2, status: 'updated', id: a.id, code: a.code }]);
    const patch = JSON.parse(batches().at(-1)!.body!).requests[0];
    expect(patch).toMatchObject({ method: 'PATCH', headers: { 'If-Match': a['@odata.etag'] }, body: { jobTitle: 'Chief' } });
    const q = file('stale.ndjson', `${JSON.stringify({ id: b.id, '@odata.etag': 'W/"stale"', jobTitle: 'X' })}\n`);
    const s = await e2e.run(['erp', 'salespeople', 'import', '--file', q, '--update', '-o', 'ndjson']);
    expect(s.code).toBe(1);
    expect(lines(s.stdout)[0]).toMatchObject({ row: 1, status: 'failed', httpStatus: 412, errorCode: 'Request_EntityChanged', id: b.id });
    expect(lines(s.stdout)[0].message).toMatch(/^the salesperson\/purchaser was changed by someone else since its ETag was read; it was left as it was/);
  });
});

describe('erp import against a service that answers badly', () => {
  it('a short answer or a non-JSON body makes those rows unknown, not failed or created', async () => {
    let mode: 'short' | 'html' = 'short';
    const srv = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (mode === 'html') {
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html>gateway</html>');
        }
        const n = JSON.parse(body).requests.length;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ responses: [{ id: '1', status: 201, headers: {}, body: { id: '11111111-1111-1111-1111-111111111111' } }].slice(0, Math.min(1, n)) }));
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    try {
      const p = file('short.csv', 'code\nS1\nS2\n');
      const env = { VX_ERP_PREFIX: url };
      const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson'], { env });
      expect(r.code).toBe(1);
      const res = lines(r.stdout).sort((a, b) => a.row - b.row);
      expect(res[0]).toMatchObject({ row: 2, status: 'created', id: '11111111-1111-1111-1111-111111111111' });
      expect(res[1]).toMatchObject({ row: 3, status: 'unknown', message: 'the batch answer had no response for this operation' });
      mode = 'html';
      const q = file('html.csv', 'code\nH1\n');
      const h = await e2e.run(['erp', 'salespeople', 'import', '--file', q, '-o', 'ndjson'], { env });
      expect(h.code).toBe(1);
      expect(lines(h.stdout)[0]).toMatchObject({ row: 2, status: 'unknown', message: 'the batch answer was not JSON (text/html)' });
      expect(readFileSync(`${q}.vx-journal`, 'utf8')).toContain('"state":"unknown"');
    } finally {
      srv.close();
    }
  });
});

describe('erp import under the per-user rate limit', () => {
  it('paces under 429 + Retry-After (every row created once), and stays under a configured erp.rateLimit without any 429', async () => {
    const { startEmulator } = await import('../../src/emulator/index.js');
    const emu = await startEmulator({ port: 0, rateLimit: '3/1' });
    try {
      const env = emu.env();
      const p = file('paced.csv', 'code\nP1\nP2\nP3\nP4\nP5\nP6\n');
      const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--batch-size', '1', '--concurrency', '2', '-o', 'ndjson'], { env, timeoutMs: 60_000 });
      expect(r.stderr).toContain('imported 6 rows: 6 created');
      expect(r.code).toBe(0);
      const posts = emu.log.filter((e) => e.path.endsWith('/$batch'));
      expect(posts.filter((e) => e.status === 429).length).toBeGreaterThan(0);
      expect(posts.filter((e) => e.status === 200)).toHaveLength(6);
      emu.reset();
      await new Promise((r) => setTimeout(r, 1100)); // the first run's requests leave the emulator's window
      const q = file('paced2.csv', 'code\nP1\nP2\nP3\nP4\nP5\n');
      const s = await e2e.run(['erp', 'salespeople', 'import', '--file', q, '--batch-size', '1', '--concurrency', '2'], { env: { ...env, VX_ERP_RATE_LIMIT: '3/2' }, timeoutMs: 60_000 });
      expect(s.code).toBe(0);
      expect(emu.log.filter((e) => e.status === 429)).toHaveLength(0);
      expect(emu.log.filter((e) => e.path.endsWith('/$batch') && e.status === 200)).toHaveLength(5);
    } finally {
      await emu.close();
    }
  }, 60_000);
});

describe('erp import interrupted', () => {
  it('Ctrl-C while a batch waits to be sent again after a 429: its rows are not done, and a rerun sends them', async () => {
    const p = file('ctrlc-wait.csv', 'code\nW1\nW2\n');
    e2e.emu.setFaults('erp/POST/429:1x,retry-after:60');
    // (--verbose says when the batch starts waiting for its Retry-After: Ctrl-C comes then)
    const r = await e2e.run(['--verbose', 'erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson'], {
      onSpawn: (child) => {
        let err = '';
        child.stderr!.on('data', (c) => {
          err += c;
          if (/retrying in/.test(err)) child.kill('SIGINT');
        });
      },
    });
    expect(r.code).toBe(130);
    expect(lines(r.stdout).map((x) => [x.row, x.status, x.httpStatus, x.message])).toEqual([
      [2, 'failed', undefined, 'interrupted before its batch was sent: not done (a rerun sends it)'],
      [3, 'failed', undefined, 'interrupted before its batch was sent: not done (a rerun sends it)'],
    ]);
    expect(r.stderr).not.toContain('unknown outcome');
    expect(batches()).toHaveLength(1);
    e2e.emu.setFaults('');
    const again = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(lines(again.stdout).map((x) => [x.row, x.status])).toEqual([[2, 'created'], [3, 'created']]);
    expect(again.code).toBe(0);
  }, 30_000);

  it('a reader of the results that goes away (| head -1) does not cut the import short: every row is done and journaled', async () => {
    const p = file('head.csv', `code\n${Array.from({ length: 12 }, (_, i) => `HD${i}`).join('\n')}\n`);
    e2e.emu.setFaults('latency:150');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson', '--batch-size', '2', '--concurrency', '1'], {
      onSpawn: (child) => child.stdout!.once('data', () => child.stdout!.destroy()),
    });
    expect(r.stderr).toContain('imported 12 rows: 12 created');
    expect(r.stderr).toContain("standard output was closed by its reader: the results after that were not written there (the journal has each row's outcome)");
    expect(r.code).toBe(0);
    expect(readFileSync(`${p}.vx-journal`, 'utf8').match(/"state":"done"/g)).toHaveLength(12);
    e2e.emu.setFaults('');
    expect((await codes()).filter((c) => c.startsWith('HD'))).toHaveLength(12);
  }, 30_000);

  it('a batch refused for its credentials (401) was not done: a rerun with good ones sends its rows', async () => {
    const p = file('auth.csv', 'code\nU1\nU2\n');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson'], { env: { VX_ERP_TOKEN: 'wrong' } });
    expect(r.code).toBe(3);
    expect(lines(r.stdout).map((x) => [x.row, x.status, x.httpStatus, x.errorCode])).toEqual([
      [2, 'failed', 401, 'Authentication_InvalidCredentials'],
      [3, 'failed', 401, 'Authentication_InvalidCredentials'],
    ]);
    const again = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    expect(lines(again.stdout).map((x) => [x.row, x.status])).toEqual([[2, 'created'], [3, 'created']]);
    expect(again.code).toBe(0);
  });

  it('Ctrl-C leaves a journal that a rerun continues from: nothing is created twice', async () => {
    const p = file('ctrlc.csv', `code\n${Array.from({ length: 8 }, (_, i) => `C${i}`).join('\n')}\n`);
    e2e.emu.setFaults('latency:300');
    let stderr = '';
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--batch-size', '1', '--concurrency', '1'], {
      onSpawn: (child) => {
        child.stderr!.on('data', (c) => (stderr += c));
        setTimeout(() => child.kill('SIGINT'), 1500);
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/the journal records what was done: run the same command again to go on/);
    const journal = readFileSync(`${p}.vx-journal`, 'utf8');
    expect(journal).toContain('"state":"done"');
    e2e.emu.setFaults('');
    const again = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson']);
    const res = lines(again.stdout);
    expect(res).toHaveLength(8);
    const by = (s: string) => res.filter((x) => x.status === s).length;
    expect(by('skipped')).toBeGreaterThan(0);
    expect(by('unknown')).toBeLessThanOrEqual(1); // the batch that was out when Ctrl-C came
    expect(by('skipped') + by('created') + by('unknown')).toBe(8);
    expect(again.code).toBe(by('unknown') ? 1 : 0);
    const all = await codes();
    for (let i = 0; i < 8; i++) expect(all.filter((c) => c === `C${i}`).length).toBeLessThanOrEqual(1);
  }, 30_000);
});
