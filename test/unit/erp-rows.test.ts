// Import rows: columns checked against the model, values typed as --set / --data, row numbers.
import { describe, expect, it } from 'vitest';
import { csvDelimiter } from '../../src/api/erp/csv-records.js';
import { readCsv } from '../../src/api/erp/rows-csv.js';
import { buildRow, checkColumns, formatOf, readOnlyColumns, updateKeys } from '../../src/api/erp/rows.js';
import { readJsonRows } from '../../src/api/erp/rows-json.js';
import { stringifyExact } from '../../src/core/json.js';
import { findSet } from '../../src/model/erp/index.js';

const people = findSet('salespeople')!;
const orders = findSet('sales-orders')!;

describe('import rows', () => {
  it('tells the format from the name or --format', () => {
    expect(formatOf('a.CSV')).toBe('csv');
    expect(formatOf('a.jsonl')).toBe('ndjson');
    expect(formatOf('export.TSV')).toBe('csv');
    expect(formatOf('-', 'json')).toBe('json');
    expect(() => formatOf('-')).toThrow(/cannot tell the format of standard input: pass --format csv, ndjson or json/);
    expect(() => formatOf('a.csv', 'xml')).toThrow(/invalid --format "xml"/);
  });

  it('update keys: id, then the human key, the number, the natural key', () => {
    expect(updateKeys(people)).toEqual(['id', 'code']);
    expect(updateKeys(orders)).toEqual(['id', 'number', 'externalDocumentNumber']);
  });

  it('checks column names: unknown (with the writable fields), read-only, duplicates, missing update key', () => {
    expect(checkColumns(people, 'create', ['code', 'displayName'])).toEqual([]);
    expect(checkColumns(people, 'create', ['code', 'code', 'lastModifiedDateTime'])).toEqual(['duplicate column name: "code"']);
    expect(checkColumns(people, 'update', ['displayName'])).toEqual(['--update needs a column that finds each record: id or code']);
    expect(checkColumns(people, 'create', ['Code', 'displayname', 'nickname'])).toEqual([
      'unknown columns "Code" (did you mean "code"?), "displayname" (did you mean "displayName"?), "nickname": not fields of a salesperson/purchaser; its writable fields are code, displayName, email, email2, phoneNo, jobTitle, commisionPercent, privacyBlocked, blocked',
    ]);
    expect(checkColumns(people, 'create', ['code', 'displayName', ''])).toEqual(['column 3 of 3 has no name (a delimiter at the end of the header line?)']);
    expect(checkColumns(people, 'create', ['code', ' ', 'displayName'])).toEqual(['column 2 of 3 has no name']);
    expect(checkColumns(orders, 'update', ['number', 'externalDocumentNumber', '@odata.etag'])).toEqual([]);
  });

  it("read-only columns that find no record (an export's id, lastModifiedDateTime) are named and not sent", async () => {
    expect(readOnlyColumns(people, 'create', ['id', 'code', 'lastModifiedDateTime', '@odata.etag'])).toEqual(['id', 'lastModifiedDateTime']);
    expect(readOnlyColumns(people, 'update', ['id', 'code', 'lastModifiedDateTime'])).toEqual(['lastModifiedDateTime']);
    const text = 'id,code,displayName,lastModifiedDateTime,@odata.etag\n0000100a-0000-4000-8000-0000000a0001,AH,Ann,2026-01-15T08:00:00Z,"W/""x"""\n';
    const created = await readCsv(people, 'create', text, 'f.csv');
    expect(created.ignored).toEqual(['id', 'lastModifiedDateTime']);
    expect(created.problems).toEqual([]);
    expect(created.rows[0].body).toEqual({ code: 'AH', displayName: 'Ann' });
    const updated = await readCsv(people, 'update', text, 'f.csv');
    expect(updated.ignored).toEqual(['lastModifiedDateTime']);
    expect(updated.rows[0]).toMatchObject({ key: { field: 'id', value: '0000100a-0000-4000-8000-0000000a0001' }, etag: 'W/"x"', body: { code: 'AH', displayName: 'Ann' } });
    const json = await readJsonRows(people, 'create', 'ndjson', '{"id":"x","code":"A"}\n{"code":"B","lastModifiedDateTime":"2026-01-01T00:00:00Z"}\n', 'f.ndjson');
    expect(json.ignored.sort()).toEqual(['id', 'lastModifiedDateTime']);
    expect(json.rows.map((r) => r.body)).toEqual([{ code: 'A' }, { code: 'B' }]);
  });

  it('types CSV text as --set does; an empty cell leaves the field out; null clears', () => {
    const r = buildRow(people, 'create', 2, ['code', 'commisionPercent', 'blocked', 'email'], ['A', '2.5', 'true', ''], true, 'h');
    expect(r.row!.body).toEqual({ code: 'A', commisionPercent: 2.5, blocked: true });
    const n = buildRow(people, 'update', 3, ['code', 'email'], ['A', 'null'], true, 'h');
    expect(n.row).toMatchObject({ key: { field: 'code', value: 'A' }, body: { email: null } });
    const bad = buildRow(people, 'create', 4, ['code', 'blocked'], ['', 'yes'], true, 'h');
    expect(bad.problems).toEqual(['field "blocked": invalid value "yes": expected true or false', 'a new salesperson/purchaser needs code: text (at most 20 characters)']);
  });

  it('row numbers are the lines records start on, across quoted line breaks and blank lines', async () => {
    const r = await readCsv(people, 'create', 'code,displayName\r\nA,"x\r\ny"\r\n\r\nB,z\r\nC\r\n', 'f.csv');
    expect(r.rows.map((x) => [x.row, x.body.code])).toEqual([[2, 'A'], [5, 'B']]);
    expect(r.problems).toEqual([{ row: 6, message: 'has 1 field; the header has 2' }]);
    expect(r.total).toBe(3);
    await expect(readCsv(people, 'create', '', 'e.csv')).rejects.toThrow(/e\.csv is empty/);
  });

  it('fields separated by semicolons or tabs, as the header shows (spreadsheets save ";" where the decimal mark is a comma)', async () => {
    expect(csvDelimiter('code,displayName\nA;B,c\n')).toBe(',');
    expect(csvDelimiter('code;displayName\r\nA,1;x\n')).toBe(';');
    expect(csvDelimiter('"code"\t"displayName"\n')).toBe('\t');
    expect(csvDelimiter('code\nA;B\n')).toBe(',');
    // without quotes (cut directly) and with them (papaparse)
    const semi = await readCsv(people, 'create', 'code;displayName;commisionPercent\nA;Ann, Jr;2.5\n', 'f.csv');
    expect(semi.rows.map((x) => x.body)).toEqual([{ code: 'A', displayName: 'Ann, Jr', commisionPercent: 2.5 }]);
    const quoted = await readCsv(people, 'create', '\uFEFF"code";"displayName"\r\n"B";"two\r\nlines; one row"\r\n"C";"x"\r\n', 'f.csv');
    expect(quoted.rows.map((x) => [x.row, x.body])).toEqual([[2, { code: 'B', displayName: 'two\r\nlines; one row' }], [4, { code: 'C', displayName: 'x' }]]);
    const tsv = await readCsv(people, 'create', 'code\tdisplayName\nD\tDee, D\n', 'f.tsv');
    expect(tsv.rows.map((x) => x.body)).toEqual([{ code: 'D', displayName: 'Dee, D' }]);
  });

  it("a spreadsheet's blank rows (every cell empty) are skipped like blank lines; row numbers stay the lines", async () => {
    const r = await readCsv(people, 'create', 'code,displayName\nA,x\n,\n , \nB,y\n,\n', 'f.csv');
    expect(r.rows.map((x) => [x.row, x.body.code])).toEqual([[2, 'A'], [5, 'B']]);
    expect(r.problems).toEqual([]);
    expect(r.total).toBe(2);
    const q = await readCsv(people, 'create', 'code,displayName\r\n"",""\r\nC,"z"\r\n', 'f.csv');
    expect(q.rows.map((x) => [x.row, x.body.code])).toEqual([[3, 'C']]);
    expect(q.total).toBe(1);
  });

  it('--update finds a record by id whatever the order of the columns; the human key is then a change', async () => {
    const id = '0000100a-0000-4000-8000-0000000a0001';
    for (const [names, values] of [
      [['code', 'displayName', 'id'], ['AH9', 'Renamed', id]],
      [['id', 'code', 'displayName'], [id, 'AH9', 'Renamed']],
    ] as const) {
      const r = buildRow(people, 'update', 2, names, values, true, 'h');
      expect(r.row).toMatchObject({ key: { field: 'id', value: id }, body: { code: 'AH9', displayName: 'Renamed' } });
    }
    // without an id the code finds it
    expect(buildRow(people, 'update', 2, ['code', 'displayName', 'id'], ['AH', 'X', ''], true, 'h').row).toMatchObject({ key: { field: 'code', value: 'AH' }, body: { displayName: 'X' } });
    const json = await readJsonRows(orders, 'update', 'ndjson', '{"externalDocumentNumber":"E-1","number":"S-1","status":"Open"}\n', 'f.ndjson');
    expect(json.rows[0]).toMatchObject({ key: { field: 'number', value: 'S-1' }, body: { externalDocumentNumber: 'E-1', status: 'Open' } });
  });

  it('--update: a second row for the same record (same key) is a problem, not a 412 "changed by someone else"', async () => {
    const id = '0000100a-0000-4000-8000-0000000a0001';
    const r = await readCsv(people, 'update', `code,jobTitle\nAH,one\nBC,x\nAH,two\n`, 'f.csv');
    expect(r.rows.map((x) => x.row)).toEqual([2, 3]);
    expect(r.problems).toEqual([{ row: 4, message: 'updates the same salesperson/purchaser as row 2 (code AH): give each record one row' }]);
    const j = await readJsonRows(people, 'update', 'ndjson', `{"id":"${id}","jobTitle":"a"}\n{"code":"AH","jobTitle":1}\n{"id":"${id.toUpperCase()}","jobTitle":"b"}\n`, 'f.ndjson');
    expect(j.rows.map((x) => x.row)).toEqual([1]);
    expect(j.problems.map((p) => p.row)).toEqual([2, 3]);
    expect(j.problems[1].message).toBe(`updates the same salesperson/purchaser as row 1 (id ${id.toUpperCase()}): give each record one row`);
    // creating: rows are never the same record
    expect((await readCsv(people, 'create', 'code\nZ1\nZ1\n', 'f.csv')).rows).toHaveLength(2);
  });

  it('numbers a double cannot hold are sent as written (CSV and JSON), as --set and --data do', async () => {
    const csv = await readCsv(orders, 'create', 'customerNumber,discountAmount\nC1,1.2345678901234567890123\nC2,0.5\n', 'f.csv');
    expect(csv.problems).toEqual([]);
    expect(stringifyExact(csv.rows.map((r) => r.body))).toBe('[{"customerNumber":"C1","discountAmount":1.2345678901234567890123},{"customerNumber":"C2","discountAmount":0.5}]');
    const nd = await readJsonRows(orders, 'create', 'ndjson', '{"customerNumber":"C1","discountAmount":1.2345678901234567890123}\n12345678901234567890\n', 'f.ndjson');
    expect(stringifyExact(nd.rows[0].body)).toBe('{"customerNumber":"C1","discountAmount":1.2345678901234567890123}');
    expect(nd.problems).toEqual([{ row: 2, message: 'expected a JSON object' }]);
    const js = await readJsonRows(orders, 'create', 'json', '[{"customerNumber":"C1","discountAmount":98765432109876543210.5},{"customerNumber":12345678901234567890}]', 'f.json');
    expect(stringifyExact(js.rows[0].body)).toBe('{"customerNumber":"C1","discountAmount":98765432109876543210.5}');
    expect(js.problems).toEqual([{ row: 2, message: 'field "customerNumber": expected text (at most 20 characters) (got 12345678901234567890)' }]);
    // the journal tells rows apart by every digit
    const other = await readJsonRows(orders, 'create', 'ndjson', '{"customerNumber":"C1","discountAmount":1.2345678901234567890124}\n', 'f.ndjson');
    expect(other.rows[0].hash).not.toBe(nd.rows[0].hash);
  });

  it('NDJSON lines and JSON arrays: values checked as --data, bad lines named', async () => {
    const r = await readJsonRows(people, 'create', 'ndjson', '{"code":"A"}\n\n[1]\n{"code":5}\n{oops\n', 'f.ndjson');
    expect(r.rows.map((x) => x.row)).toEqual([1]);
    expect([...new Set(r.problems.map((p) => p.row))]).toEqual([3, 4, 5]);
    expect(r.problems[0].message).toBe('expected a JSON object');
    await expect(readJsonRows(people, 'create', 'json', '{"code":"A"}', 'f.json')).rejects.toThrow(/expected a JSON array of objects/);
    // a whole-file error names its line and column; NDJSON named .json is told so
    await expect(readJsonRows(people, 'create', 'json', '{"code":"A"}\n{"code":"B"}\n', 'f.json')).rejects.toThrow(/^f\.json: not valid JSON: .*line 2,? column 1\)?; it holds one object per line: for NDJSON pass --format ndjson$/);
    await expect(readJsonRows(people, 'create', 'json', '[\n  {"code":"A"},\n  {"code" "B"}\n]', 'f.json')).rejects.toThrow(/^f\.json: not valid JSON: .*line 3,? column 11\)?$/);
  });
});
