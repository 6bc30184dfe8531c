// An import holds only the rows in flight: the rows are read again from the input as batches are
// made (runBatches pulls them), and the results are counted and spooled to disk, not kept (only
// those that did not succeed are). The output is the same: -o json, csv and tsv in row order.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchClient, OpResult } from '../../src/api/erp/batch.js';
import { runBatches, type BulkItem } from '../../src/api/erp/bulk.js';
import { readCsv } from '../../src/api/erp/rows-csv.js';
import { findSet } from '../../src/model/erp/index.js';
import { render, type Format } from '../../src/core/output/index.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const people = findSet('salespeople')!;

describe('erp import reads its rows as it sends them', () => {
  it('readCsv(..., lazy): the rows are read again from the text at each pass; the problems and the count come from the first', async () => {
    const parsed = await readCsv(people, 'create', 'code,displayName\nA1,Ann\nB2\nC3,Cy\n', 'p.csv', true);
    expect(Array.isArray(parsed.rows)).toBe(false);
    expect(parsed.problems).toEqual([{ row: 3, message: 'has 1 field; the header has 2' }]);
    expect(parsed.total).toBe(3);
    const codes = () => [...parsed.rows].map((r) => r.body.code);
    expect(codes()).toEqual(['A1', 'C3']);
    expect(codes()).toEqual(['A1', 'C3']);
  });

  it('runBatches pulls the items as it makes batches: a batch leaves before the rows after it are read', async () => {
    let pulled = 0;
    const atSend: number[] = [];
    function* items(): Generator<BulkItem> {
      for (let row = 1; row <= 6; row++) {
        pulled++;
        yield { row, op: { method: 'POST', url: 'x', body: {} } };
      }
    }
    const batch = { send: async (ops: unknown[]) => ops.map((): OpResult => ({ kind: 'ok', status: 201, body: {} }) as unknown as OpResult) } as unknown as BatchClient;
    const done: number[][] = [];
    await runBatches(batch, items(), { batchSize: 2, concurrency: 1 }, () => atSend.push(pulled), (chunk) => done.push(chunk.map((c) => c.row)));
    expect(atSend).toEqual([2, 4, 6]);
    expect(done).toEqual([[1, 2], [3, 4], [5, 6]]);
  });
});

describe('erp import results', () => {
  const env = offlineEnv();
  const dir = mkdtempSync(join(tmpdir(), 'vx-import-stream-'));
  const p = join(dir, 'people.csv');
  writeFileSync(p, 'code,displayName\nR1,A\nR2,B\nR3,C\nR4,D\nR5,E\n');
  for (const format of ['json', 'csv', 'tsv'] as const) {
    it(`-o ${format}: every row once, in row order, as the whole list renders (batches answered out of order)`, async () => {
      let n = 0;
      const r = await runInProc(['erp', 'salespeople', 'import', '--file', p, '--journal', join(dir, `${format}.journal`), '--batch-size', '2', '--concurrency', '3', '-o', format], {
        env,
        setup: (t) =>
          t.http.stub(
            'POST',
            /\/\$batch$/,
            async (req) => {
              const ops = (JSON.parse(req.text) as { requests: { id: string; body: { code: string } }[] }).requests;
              // the first batch is answered last
              if (n++ === 0) await new Promise((res) => setTimeout(res, 30));
              return json(200, { responses: ops.map((o) => ({ id: o.id, status: o.body.code === 'R4' ? 400 : 201, headers: {}, body: o.body.code === 'R4' ? { error: { code: 'BadRequest', message: 'no' } } : { id: `id-${o.body.code}`, code: o.body.code } })) });
            },
            3,
          ),
      });
      expect(r.code).toBe(1);
      if (format === 'json') {
        expect(JSON.parse(r.stdout)).toEqual(
          [1, 2, 3, 4, 5].map((i) => (i === 4 ? { row: 5, status: 'failed', code: 'R4', httpStatus: 400, errorCode: 'BadRequest', message: 'no' } : { row: i + 1, status: 'created', id: `id-R${i}`, code: `R${i}` })),
        );
        expect(r.stdout).toBe(await render(JSON.parse(r.stdout), 'json' as Format));
      } else {
        const lines = r.stdout.trim().split('\n');
        if (format === 'csv') expect(lines.shift()).toBe('ROW,STATUS,CODE,ID,ERROR,MESSAGE');
        expect(lines.map((l) => l.split(format === 'csv' ? ',' : '\t')[0])).toEqual(['2', '3', '4', '5', '6']);
      }
    });
  }
});
