// vx erp <set> import: the results add up (one per row, whatever the number of problems a row
// has) and identify the records. Run in-process against the emulator (test/helpers/emulator.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
let dir: string;
beforeAll(() => {
  dir = tempDir('vx-import-results-');
});
afterAll(() => removeDir(dir));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('erp import: one result per row', () => {
  it('--skip-invalid of one valid row and one row with two problems: two results, "1 created, 1 invalid", exit 1', async () => {
    const p = file('two.csv', 'code,commisionPercent,blocked\nV1,5,false\nV2,abc,maybe\n');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--skip-invalid', '-o', 'json']);
    const results = JSON.parse(r.stdout);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ row: 2, status: 'created' });
    expect(results[1]).toEqual({
      row: 3,
      status: 'invalid',
      message: 'field "commisionPercent": invalid value "abc": expected number; field "blocked": invalid value "maybe": expected true or false',
    });
    expect(r.stderr).toContain('imported 2 rows: 1 created, 1 invalid\n');
    expect(r.stderr).toContain('vx: 1 of 2 rows did not succeed');
    expect(r.code).toBe(1);
  });
});

describe('erp import: results identify the records', () => {
  it("the table shows each record's own key (CODE of a salesperson) and the service's error code in its own column", async () => {
    const p = file('keys.csv', 'code,displayName\nT1,One\nT1,Again\n');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '-o', 'table', '--concurrency', '1', '--batch-size', '1']);
    expect(r.code).toBe(1);
    const [head, first, second] = r.stdout.split('\n');
    expect(head).toMatch(/^ROW\s+STATUS\s+CODE\s+ID\s+ERROR\s+MESSAGE$/);
    expect(first).toMatch(/^\s*2\s+created\s+T1\s+[0-9a-f-]{36}\s*$/);
    expect(second).toMatch(/^\s*3\s+failed\s+T1\s+400 Internal_EntityWithSameKeyExists\s+\S/);
    const j = await e2e.run(['erp', 'salespeople', 'import', '--file', file('keys2.csv', 'code\nT1\n'), '-o', 'json']);
    expect(JSON.parse(j.stdout)).toEqual([{ row: 2, status: 'failed', code: 'T1', httpStatus: 400, errorCode: 'Internal_EntityWithSameKeyExists', message: expect.any(String) }]);
  });

  it('a sales order is named by its number', async () => {
    const p = file('orders.csv', 'customerNumber,externalDocumentNumber\n10000,PO-1\n');
    const r = await e2e.run(['erp', 'sales-orders', 'import', '--file', p, '-o', 'json']);
    expect(r.code).toBe(0);
    const [res] = JSON.parse(r.stdout);
    expect(res).toEqual({ row: 2, status: 'created', id: expect.any(String), number: expect.stringMatching(/^S-ORD\d+$/) });
    const t = await e2e.run(['erp', 'sales-orders', 'import', '--file', file('orders2.csv', 'customerNumber,externalDocumentNumber\n10000,PO-2\n'), '-o', 'table']);
    expect(t.stdout.split('\n')[0]).toMatch(/^ROW\s+STATUS\s+NUMBER\s+ID\s+ERROR\s+MESSAGE$/);
  });
});
