// The cheap forms of the import hot path say exactly what the plain forms say: the row hash's
// base-36 text, the $batch body written as text, the journal's hash of a row.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchClient, type BatchOp } from '../../src/api/erp/batch.js';
import { outcomeLine, sentLine, type RowState } from '../../src/api/erp/journal.js';
import Papa from 'papaparse';
import { csvRecords } from '../../src/api/erp/csv-records.js';
import { base36, hashFields, hashText } from '../../src/api/erp/rows.js';
import { Http, type HttpRequest } from '../../src/core/http/index.js';
import { ExactNumber, stringifyExact } from '../../src/core/json.js';
import { fixedAuth, sentHeaders } from '../helpers/authenticator.js';

describe('import hot path', () => {
  it('base36 is Number#toString(36) for every whole number below 2^53', () => {
    for (const n of [0, 1, 35, 36, 2 ** 32 - 1, 2 ** 32, 36 ** 6, 36 ** 6 - 1, 36 ** 7, 36 ** 7 - 1, 36 ** 6 * 1234567 - 1, 2 ** 53 - 1]) expect(base36(n)).toBe(n.toString(36));
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => base36(n) === n.toString(36)), { numRuns: 20_000 });
  });

  it('hashText keeps the values journals already hold', () => {
    // a journal written by an earlier version must still match its rows (values of the former toString(36))
    expect(hashText('P1\u0001Salesperson 1\u00010.5')).toBe('243957utanq');
    expect(hashText('')).toBe('wvjl67o803');
  });

  it('journal lines are JSON.stringify of the entries they stand for', () => {
    const text = fc.string({ unit: 'binary' });
    fc.assert(
      fc.property(
        fc.nat(),
        text,
        fc.nat(),
        fc.constantFrom<RowState>('done', 'failed', 'unknown', 'rolled-back'),
        fc.record({ id: fc.option(text, { nil: undefined }), key: fc.option(text, { nil: undefined }), httpStatus: fc.option(fc.nat(599), { nil: undefined }), code: fc.option(text, { nil: undefined }) }),
        (row, hash, at, state, r) => {
          expect(sentLine(row, hash, at)).toBe(`${JSON.stringify({ row, hash, state: 'sent', at })}\n`);
          const entry: Record<string, unknown> = { row, hash, state };
          if (r.id) entry.id = r.id;
          if (r.key) entry.key = r.key;
          if (r.httpStatus) entry.status = r.httpStatus;
          if (r.code) entry.code = r.code;
          expect(outcomeLine(row, hash, state, r)).toBe(`${JSON.stringify(entry)}\n`);
        },
      ),
    );
  });

  it('hashFields is hashText of the fields joined by U+0001', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: 'binary' })), (fields) => hashFields(fields) === hashText(fields.join('\u0001'))));
    expect(hashFields([])).toBe(hashText(''));
  });

  it('CSV without quotes or CRs is cut into the records papaparse gives', async () => {
    const all = async (text: string) => {
      const r = await csvRecords(text);
      const out: string[][] = [];
      for (let x = r.next(); x; x = r.next()) out.push(x);
      return out;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('a', 'b', ',', '\n', ' ', 'é', '\t', ';')).map((cs) => cs.join('')), async (text) => {
        const mine = await all(text);
        const papa = Papa.parse<string[]>(text, { delimiter: ',', quoteChar: '"', escapeChar: '"' }).data;
        // (papaparse gives no record at all for empty text; an empty line is skipped either way)
        return JSON.stringify(text ? papa : [['']]) === JSON.stringify(mine);
      }),
      { numRuns: 2000 },
    );
    // quotes or CRs: papaparse's records, with its quote errors
    expect(await all('a,"b\r\nc"\r\nd,e')).toEqual([['a', 'b\r\nc'], ['d', 'e']]);
    expect((await csvRecords('a,"b\n')).quoteError).toMatchObject({ row: 0 });
  });

  it('bodyText is the JSON of body(), character for character', () => {
    const root = 'http://127.0.0.1:1/api/v2.0/';
    const batch = new BatchClient(new Http(), root, fixedAuth({}));
    const url = `${root}companies(1)/salespeoplePurchasers`;
    const ops: BatchOp[] = [
      { method: 'POST', url, body: { code: 'A"\u2028', commisionPercent: 2.5, x: null } },
      { method: 'POST', url, body: { big: new ExactNumber('12345678901234567890') } },
      { method: 'PATCH', url: `${url}(abc)`, headers: { 'If-Match': 'W/"x"' }, body: { displayName: 'B' } },
      { method: 'DELETE', url: `${url}(abc)`, headers: { 'If-Match': '*' } },
      { method: 'GET', url: `${url}?$filter=code eq 'A'` },
      { method: 'POST', url: `${url}(abc)/Vendor.NAV.ship` },
    ];
    expect(batch.bodyText(ops)).toBe(stringifyExact(batch.body(ops)));
    expect(batch.bodyText([])).toBe(stringifyExact(batch.body([])));
    expect(() => batch.bodyText([{ method: 'GET', url: 'http://elsewhere/x' }])).toThrow(/batch operation outside/);
  });

  it('matches responses to operations in order or by id (string or number); a missing one is unknown', async () => {
    const root = 'http://127.0.0.1:1/api/v2.0/';
    const url = `${root}companies(1)/salespeoplePurchasers`;
    const ops: BatchOp[] = [1, 2, 3].map((n) => ({ method: 'POST', url, body: { code: `C${n}` } }));
    const answering = (responses: unknown[]) => {
      const sent: HttpRequest[] = [];
      const http = { send: async (req: HttpRequest) => (sent.push(req), { headers: {}, json: () => ({ responses }) }) } as unknown as Http;
      return { batch: new BatchClient(http, root, fixedAuth({ Authorization: 'Bearer t' })), sent };
    };
    const done = (id: unknown, code: string) => ({ id, status: 201, headers: { ETag: 'W/"1"' }, body: { id: `g-${code}`, code } });
    const inOrder = answering([done('1', 'C1'), done(2, 'C2'), done('3', 'C3')]);
    const r1 = await inOrder.batch.send(ops);
    expect(r1.map((r) => (r.kind === 'done' ? (r.body as { code: string }).code : r.kind))).toEqual(['C1', 'C2', 'C3']);
    expect(r1[0]).toMatchObject({ kind: 'done', status: 201, headers: { etag: 'W/"1"' } });
    // the body goes out as the JSON text of body(), with its content type
    expect(Buffer.from(inOrder.sent[0].body as Uint8Array).toString('utf8')).toBe(stringifyExact(inOrder.batch.body(ops)));
    expect(sentHeaders(inOrder.sent[0])).toMatchObject({ 'Content-Type': 'application/json', Prefer: 'odata.continue-on-error', Authorization: 'Bearer t' });
    const shuffled = await answering([done('3', 'C3'), done('1', 'C1'), { id: '2', status: 400, body: { error: { code: 'BadRequest', message: 'no' } } }]).batch.send(ops);
    expect(shuffled.map((r) => r.kind)).toEqual(['done', 'failed', 'done']);
    expect((shuffled[2] as { body: { code: string } }).body.code).toBe('C3');
    expect(shuffled[1]).toMatchObject({ kind: 'failed', status: 400, code: 'BadRequest', message: 'no' });
    const short = await answering([done('1', 'C1'), done('3', 'C3')]).batch.send(ops);
    expect(short.map((r) => r.kind)).toEqual(['done', 'unknown', 'done']);
    // an id given twice: the last one counts, as before
    const twice = await answering([done('1', 'C1'), done('2', 'C2'), done('2', 'X')]).batch.send(ops);
    expect(twice.map((r) => (r.kind === 'done' ? (r.body as { code: string }).code : r.kind))).toEqual(['C1', 'X', 'unknown']);
  });
});
