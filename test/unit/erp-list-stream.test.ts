// vx erp <set> list streams: -o ndjson|json|csv|tsv off a terminal write each page's records as it
// arrives (a page is written before the next is asked for), the chunks adding up to what the whole
// list renders; a next-page chain longer than --max-pages stops with exit 1 saying so. In-process,
// against the httpmock.
import { describe, expect, it } from 'vitest';
import { columnsOf } from '../../src/cli/erp/columns.js';
import { render, type Format } from '../../src/core/output/index.js';
import { findSet } from '../../src/model/erp/index.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const env = offlineEnv();
const PEOPLE = /\/salespeoplePurchasers(\?|$)/;
const person = (i: number) => ({
  '@odata.etag': `W/"JzQ0O${i}'"`,
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  code: `C${i}`,
  displayName: `Salesperson ${i}, "quoted"\tand tabbed`,
  email: `p${i}@example.com`,
  commisionPercent: i / 4,
  blocked: i % 2 === 0,
  lastModifiedDateTime: '2026-11-22T10:00:00Z',
});
const page = (from: number, n: number, next?: string) => ({ value: Array.from({ length: n }, (_, k) => person(from + k)), ...(next ? { '@odata.nextLink': next } : {}) });
const nextUrl = (req: { url: string }, token: number) => `${req.url.split('?')[0]}?$skiptoken=${token}`;

describe('erp list streams its records as the pages arrive', () => {
  for (const format of ['ndjson', 'json', 'csv', 'tsv'] as const) {
    it(`-o ${format}: page 1 is written before page 2 is asked for; the whole is what the list renders`, async () => {
      const writtenBeforePage2: string[] = [];
      const r = await runInProc(['erp', 'salespeople', 'list', '-o', format], {
        env,
        setup: (t) => {
          t.http.stub('GET', PEOPLE, (req) => json(200, page(1, 3, nextUrl(req, 4))));
          t.http.stub('GET', PEOPLE, (req) => {
            writtenBeforePage2.push(t.stdout.text);
            return json(200, page(4, 2, nextUrl(req, 6)));
          });
          t.http.stub('GET', PEOPLE, () => json(200, page(6, 1)));
        },
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const all = [1, 2, 3, 4, 5, 6].map(person);
      const whole = await render(all, format as Format, { columns: columnsOf(findSet('salespeople')!) });
      expect(r.stdout).toBe(whole);
      // the first page's records were out before the second page was read
      const first = await render([1, 2, 3].map(person), format as Format, { columns: columnsOf(findSet('salespeople')!) });
      const firstOnly = format === 'json' ? first.slice(0, first.lastIndexOf('\n]')) : first;
      expect(writtenBeforePage2).toEqual([firstOnly]);
    });
  }

  it('an empty list: what the whole renders ([] for json, the header for csv)', async () => {
    for (const format of ['json', 'csv', 'ndjson'] as const) {
      const r = await runInProc(['erp', 'salespeople', 'list', '-o', format], { env, setup: (t) => t.http.stub('GET', PEOPLE, json(200, { value: [] })) });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(await render([], format, { columns: columnsOf(findSet('salespeople')!) }));
    }
  });

  it('a next-page chain longer than --max-pages: exit 1 saying so, the pages read written', async () => {
    let served = 0;
    const r = await runInProc(['erp', 'salespeople', 'list', '-o', 'ndjson', '--max-pages', '3'], {
      env,
      setup: (t) =>
        t.http.stub(
          'GET',
          PEOPLE,
          (req) => {
            served++;
            return json(200, page(served, 1, nextUrl(req, served + 1)));
          },
          3,
        ),
    });
    expect(r.stderr).toBe("vx: stopped after 3 pages: the service's next-page links did not end (--max-pages raises the limit); the records of those pages were read\n");
    expect(r.code).toBe(1);
    expect(served).toBe(3);
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { code: string }).code)).toEqual(['C1', 'C2', 'C3']);
  });

  it('--max-pages takes a whole number of at least 1 (exit 2, nothing sent)', async () => {
    const r = await runInProc(['erp', 'salespeople', 'list', '--max-pages', '0'], { env });
    expect(r.stderr).toBe('vx: invalid value "0" for --max-pages: expected a whole number of at least 1\n');
    expect(r.code).toBe(2);
    expect(r.http.requests).toEqual([]);
  });
});
