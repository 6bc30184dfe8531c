// The results of a bulk run hold counts and what stderr names, not one result per row that did
// not succeed: a run where every row fails keeps the first 20 failures (named on stderr), the
// batches rolled back, the rows of unknown outcome (a check is made of them), and at a terminal
// the first 1,000 rows for the table (the others counted).
import { describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/api/erp/bulk.js';
import { erpSets } from '../../src/model/erp/index.js';
import { finishRun, Results } from '../../src/cli/erp/results.js';
import { testCtx } from '../helpers/ctx.js';

const set = erpSets().find((s) => s.name === 'salespeoplePurchasers')!;
const failure = (row: number): RowResult => ({ row, status: 'failed', httpStatus: 400, code: 'BadRequest', message: `row ${row} is bad` });

describe('bulk results in bounded memory', () => {
  it('keeps the first 20 failures of 5,000 and counts the rest; the summary and exit say all', async () => {
    const t = testCtx({ globals: { output: 'none' } });
    const results = new Results(t.ctx, 5000, set);
    for (let row = 1; row <= 5000; row++) results.add(row % 1000 === 0 ? { row, status: 'unknown', message: 'lost' } : failure(row));
    expect([results.failed, results.failureCount, results.failures.length, results.unknown.map((r) => r.row)]).toEqual([5000, 4995, 20, [1000, 2000, 3000, 4000, 5000]]);
    await expect(finishRun(t.ctx, results, 'imported', undefined, [])).rejects.toThrow('5,000 of 5,000 rows did not succeed');
    const lines = t.stderr.text.split('\n');
    expect(lines[0]).toBe('imported 5,000 rows: 4,995 failed, 5 unknown');
    expect(lines[1]).toMatch(/^5 rows have an unknown outcome \(rows 1000, 2000, 3000, 4000, 5000\)/);
    expect(lines.filter((l) => l.startsWith('  row '))).toHaveLength(20);
    expect(lines).toContain('  … and 4975 more (all of them with -o ndjson)');
  });

  it('at a terminal without -o the table lists the first 1,000 rows that did not succeed and counts the others', async () => {
    const t = testCtx({ stdoutTTY: true });
    const results = new Results(t.ctx, 1003, set);
    for (let row = 1; row <= 1003; row++) results.add(failure(row));
    await expect(finishRun(t.ctx, results, 'imported', undefined, [])).rejects.toThrow('1,003 of 1,003 rows did not succeed');
    const rows = t.stdout.text.split('\n').filter((l) => /^\s*\d+\s+failed/.test(l));
    expect([rows.length, rows[0]?.trim().split(/\s+/)[0], rows.at(-1)?.trim().split(/\s+/)[0]]).toEqual([1000, '1', '1000']);
    expect(t.stderr.text).toContain('… and 3 more rows not listed (all of them with -o ndjson)\n');
  });

  it('names the batches rolled back (--atomic) by their rows', async () => {
    const t = testCtx({ globals: { output: 'none' } });
    const results = new Results(t.ctx, 6, set);
    for (let row = 1; row <= 6; row++) results.add(row === 2 ? { ...failure(row), batch: 1 } : { row, status: 'rolled-back', batch: row <= 3 ? 1 : 2 });
    await expect(finishRun(t.ctx, results, 'imported', undefined, [])).rejects.toThrow();
    expect(t.stderr.text).toContain('rolled back (--atomic): batch 1 (rows 1-3), batch 2 (rows 4-6); their rows were not changed\n');
  });
});
