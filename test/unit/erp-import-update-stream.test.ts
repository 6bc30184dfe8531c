// An import with --update holds no more rows than one with create: its rows are read again from the
// input as they are sent, looked up and sent a window at a time (25 batches of the run's size and
// concurrency); two rows for one record are found by their keys' hashes and compared by the keys.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/api/erp/rows-csv.js';
import { findSet } from '../../src/model/erp/index.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const people = findSet('salespeople')!;
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('erp import --update reads its rows as it sends them', () => {
  it('the rows are not kept: read again at each pass; a second row for one record is a problem and left out', async () => {
    const parsed = await readCsv(people, 'update', `code,jobTitle\nAH,one\nBC,x\nAH,two\nBC\n${id(1)},y\n${id(1).toUpperCase()},z\n`, 'f.csv', true);
    expect(Array.isArray(parsed.rows)).toBe(false);
    expect(parsed.problems).toEqual([
      { row: 4, message: 'updates the same salesperson/purchaser as row 2 (code AH): give each record one row' },
      { row: 5, message: 'has 1 field; the header has 2' },
      { row: 7, message: `updates the same salesperson/purchaser as row 6 (code ${id(1)}): give each record one row` },
    ]);
    const rows = () => [...parsed.rows].map((r) => r.row);
    expect(rows()).toEqual([2, 3, 6]);
    expect(rows()).toEqual([2, 3, 6]);
  });

  it('rows are looked up and sent a window at a time: the first PATCH leaves before the last rows are looked up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vx-import-update-'));
    const p = join(dir, 'people.csv');
    writeFileSync(p, `code,jobTitle\n${Array.from({ length: 60 }, (_, i) => `U${i},T`).join('\n')}\n`);
    const kinds: string[] = [];
    const r = await runInProc(['erp', 'salespeople', 'import', '--file', p, '--update', '--batch-size', '2', '--concurrency', '1', '-o', 'ndjson'], {
      env: offlineEnv(),
      setup: (t) =>
        t.http.stub(
          'POST',
          /\/\$batch$/,
          (req) => {
            const ops = (JSON.parse(req.text) as { requests: { id: string; method: string; url: string }[] }).requests;
            kinds.push(ops.map((o) => o.method).join(','));
            return json(200, {
              responses: ops.map((o) => {
                const code = /code eq '([^']*)'/.exec(decodeURIComponent(o.url))?.[1] ?? '';
                const n = Number(/\((\w+-\w+-\w+-\w+-0*(\d+))\)/.exec(o.url)?.[2] ?? code.slice(1));
                return { id: o.id, status: 200, headers: {}, body: o.method === 'GET' ? { value: [{ id: id(n), code, '@odata.etag': 'W/"1"' }] } : { id: id(n), code: `U${n}` } };
              }),
            });
          },
          60,
        ),
    });
    expect(r.stderr).toBe(`updated from 60 rows: 60 updated\njournal: ${p}.vx-journal\n`);
    expect(r.code).toBe(0);
    // 25 batches of 2 rows: 50 rows looked up, then sent; then the last 10
    expect(kinds).toEqual([...Array(25).fill('GET,GET'), ...Array(25).fill('PATCH,PATCH'), ...Array(5).fill('GET,GET'), ...Array(5).fill('PATCH,PATCH')]);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { row: number; status: string });
    expect(out.map((x) => x.status)).toEqual(Array(60).fill('updated'));
    expect(out.map((x) => x.row).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 2));
  });
});
