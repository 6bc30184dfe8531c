// Every renderer, --query, CJK-safe tables, and the colour decision.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import {
  amountText,
  groupedAmount,
  applyQuery,
  displayWidth,
  inferColumns,
  parseFormat,
  render,
  renderCsv,
  StreamRenderer,
  renderJson,
  renderNdjson,
  renderTable,
  renderText,
  renderTsv,
  shortTime,
  truncateToWidth,
} from '../../src/core/output/index.js';
import { colorEnabled, makePalette, terminalWidth } from '../../src/core/term.js';
import { parseExact } from '../../src/core/json.js';

const rows = [
  { id: 1, name: 'alpha', nested: { a: 1 }, '@odata.etag': 'W/"1"', note: 'tab\there' },
  { id: 22, name: 'beta', nested: null, note: 'line\nbreak' },
];

describe('formats', () => {
  it('parses the nine formats case-insensitively and refuses others', () => {
    for (const f of ['json', 'YAML', 'table', 'Wide', 'tsv', 'CSV', 'ndjson', 'text', 'none']) expect(parseFormat(f)).toBe(f.toLowerCase());
    expect(() => parseFormat('xml')).toThrow(UsageError);
    expect(() => parseFormat('xml')).toThrow('invalid output format "xml"; allowed: json, yaml, table, wide, tsv, csv, ndjson, text, none');
    expect(parseFormat(undefined)).toBeUndefined();
  });

  it('json: 2-space indentation, key order kept, newline at the end', async () => {
    expect(renderJson({ b: 1, a: [1, { c: 'ü' }] })).toBe('{\n  "b": 1,\n  "a": [\n    1,\n    {\n      "c": "ü"\n    }\n  ]\n}\n');
    expect(await render([], 'json')).toBe('[]\n');
    expect(await render(undefined, 'json')).toBe('');
  });

  it('ndjson: one compact value per line', () => {
    expect(renderNdjson(rows.slice(0, 1))).toBe('{"id":1,"name":"alpha","nested":{"a":1},"@odata.etag":"W/\\"1\\"","note":"tab\\there"}\n');
    expect(renderNdjson({ a: 1 })).toBe('{"a":1}\n');
    expect(renderNdjson([])).toBe('');
  });

  it('yaml', async () => {
    expect(await render({ a: 1, list: ['x', 'z'], s: 'a: b' }, 'yaml')).toBe('a: 1\nlist:\n  - x\n  - z\ns: "a: b"\n');
    // strings a YAML 1.1 reader (PyYAML) takes for booleans or numbers are quoted (a translation "yes" was written bare)
    expect(await render({ t: ['yes', 'No', 'on', 'OFF', 'y', '012', 'text'], b: true, count: 12 }, 'yaml')).toBe('t:\n  - "yes"\n  - "No"\n  - "on"\n  - "OFF"\n  - "y"\n  - "012"\n  - text\nb: true\ncount: 12\n');
  });

  // a tab was written bare in a plain scalar ('name: a<TAB>b'), which PyYAML refuses ("found
  // character '\\t' that cannot start any token"); NEL, LS and PS were written raw, which a YAML 1.1
  // reader takes for line breaks
  it('yaml writes an object that occurs twice out each time (no anchors, no aliases)', async () => {
    const shared = { translations: [{ text: 'Hallo', to: 'de' }] };
    expect(await render([shared, shared], 'yaml')).toBe('- translations:\n    - text: Hallo\n      to: de\n- translations:\n    - text: Hallo\n      to: de\n');
  });

  it('yaml a YAML 1.1 reader can read: tabs, line separators, BOM and C1 controls are escaped in double quotes', async () => {
    const value = { name: 'Research\tDev, "x"', 'k\tz': 1, ls: 'a\u2028b\u2029c', nel: 'x\u0085y', bom: '\ufeffz', c1: 'a\u009bb', both: 'a\tb\nc', plain: 'plain' };
    const out = await render(value, 'yaml');
    expect(out).toBe(
      'name: "Research\\tDev, \\"x\\""\n"k\\tz": 1\nls: "a\\u2028b\\u2029c"\nnel: "x\\u0085y"\nbom: "\\ufeffz"\nc1: "a\\u009bb"\nboth: "a\\tb\\nc"\nplain: plain\n',
    );
    const YAML = (await import('yaml')).default;
    expect(YAML.parse(out)).toEqual(value);
  });

  // numbers a double cannot hold were written rounded (12345678901234567890.12 as
  // 12345678901234567000, an id 9007199254740993 as ...992), where -o json keeps them exact
  it('yaml writes the numbers a double cannot hold as the service sent them', async () => {
    const value = parseExact('{"amount":12345678901234567890.12,"id":9007199254740993,"tiny":0.12345678901234567891,"x":1.5,"s":"12345678901234567890"}');
    expect(await render(value, 'yaml')).toBe('amount: 12345678901234567890.12\nid: 9007199254740993\ntiny: 0.12345678901234567891\nx: 1.5\ns: "12345678901234567890"\n');
  });

  it('tsv: no header, scalar columns, escaped tabs/newlines/backslashes', () => {
    expect(renderTsv(rows)).toBe('1\talpha\ttab\\there\n22\tbeta\tline\\nbreak\n');
    expect(renderTsv(['a', 'b\\c'])).toBe('a\nb\\\\c\n');
    expect(renderTsv(rows, [{ header: 'n', get: 'nested.a' }, { header: 'f', get: (r: { id: number }) => r.id * 2 }])).toBe('1\t2\n\t44\n');
    expect(renderTsv(null)).toBe('');
  });

  it('tsv: a column shown shortened in the table (a time) carries its raw value', () => {
    const cols = [{ header: 'id', get: 'id' }, { header: 'at', get: (r: { at: string }) => shortTime(r.at), raw: 'at' }];
    const rows2 = [{ id: 'E1', at: '2026-01-15T08:00:42.5Z' }];
    expect(renderTsv(rows2, cols)).toBe('E1\t2026-01-15T08:00:42.5Z\n');
    expect(renderTable(rows2, { columns: cols })).toBe('ID  AT\nE1  2026-01-15 08:00Z\n');
  });
  it('tsv: rows that are arrays are their values separated by tabs (az), nested values as JSON', () => {
    expect(renderTsv([['S-1', 'Adatum'], ['S-2', 'Trey\tResearch', { a: 1 }]])).toBe('S-1\tAdatum\t\nS-2\tTrey\\tResearch\t{"a":1}\n');
    expect(renderTsv([['a', null], 'x'])).toBe('a\t\nx\t\n');
    // typed columns do not apply to rows that are arrays
    expect(renderTsv([[1, 2]], [{ header: 'x', get: 'x' }])).toBe('1\t2\n');
  });

  it('tsv and text of one object: key<TAB>value lines of the payload, never the cells of its table', async () => {
    const quota = { id: '/x/y', name: 'cores', properties: { limit: 10, unit: 'Count' }, '@odata.etag': 'e' };
    const cols = [{ header: 'Limit', get: 'properties.limit' }, { header: 'Used', get: () => '50%' }, { header: 'Empty', get: 'nope' }];
    const lines = 'id\t/x/y\nname\tcores\nproperties\t{"limit":10,"unit":"Count"}\n';
    expect(renderTsv(quota, cols)).toBe(lines);
    expect(renderText(quota, cols)).toBe(lines);
    expect(await render(quota, 'tsv', { columns: cols })).toBe(lines);
    expect(await render(quota, 'text', { columns: cols })).toBe(lines);
    // a list of one object is still a row
    expect(renderTsv([quota], cols)).toBe('10\t50%\t\n');
  });

  it('text: scalars plain, objects key<TAB>value, lists like tsv', () => {
    expect(renderText('hello')).toBe('hello\n');
    expect(renderText(42)).toBe('42\n');
    expect(renderText({ a: 1, b: { c: 2 }, '@odata.context': 'x' })).toBe('a\t1\nb\t{"c":2}\n');
    expect(renderText(['x', 'y'])).toBe('x\ny\n');
    expect(renderText(null)).toBe('');
  });

  it('csv: header row, RFC 4180 quoting, the scalar fields in first-seen order (as tsv and the table)', async () => {
    expect(renderCsv(rows)).toBe('id,name,note\n1,alpha,tab\there\n22,beta,"line\nbreak"\n');
    expect(renderCsv([{ a: 'x,y', b: 'say "hi"' }, { c: 'cr\rhere', a: ' sp ' }])).toBe('a,b,c\n"x,y","say ""hi""",\n sp ,,"cr\rhere"\n');
    expect(renderCsv({ id: 7, tags: ['a', 'b'], '@odata.etag': 'e' })).toBe('id\n7\n');
    expect(renderCsv([{ 'a.b': 1, a: { b: 2 } }])).toBe('a.b\n1\n');
    expect(renderCsv([['S-1', 'Adatum, Inc.'], ['S-2']])).toBe('Column1,Column2\nS-1,"Adatum, Inc."\nS-2,\n');
    expect(renderCsv(['a', 'b'])).toBe('Column1\na\nb\n');
    expect(renderCsv(42)).toBe('Column1\n42\n');
    expect(renderCsv([])).toBe('');
    expect(renderCsv(null)).toBe('');
    expect(renderCsv([], [{ header: 'input', get: 'input' }])).toBe('input\n');
    expect(renderCsv([{ x: 1, y: 2 }], [{ header: 'why', get: 'y' }])).toBe('why\n2\n');
    expect(renderCsv([{ n: 12345678901234567890n, b: true, z: 0 }])).toBe('n,b,z\n12345678901234567890,true,0\n');
  });

  it("csv and tsv of a list have the same columns: the table's, wide ones included, raw values; csv headed by field", async () => {
    const cols = [
      { header: 'Name', name: 'name', get: 'name' },
      { header: 'Limit', get: 'properties.limit' },
      { header: 'Used', get: () => '50%', raw: () => 50 },
      { header: 'Id', name: 'id', get: 'id', wide: true },
    ];
    const list = [{ id: '/x/y', name: 'cores', properties: { limit: 10, unit: 'Count' } }];
    expect(await render(list, 'csv', { columns: cols })).toBe('name,Limit,Used,id\ncores,10,50,/x/y\n');
    expect(await render(list, 'tsv', { columns: cols })).toBe('cores\t10\t50\t/x/y\n');
    expect(await render(list, 'table', { columns: cols })).toBe('NAME   LIMIT  USED\ncores  10     50%\n');
  });

  it('csv streamed item by item is the same as csv of the whole list', () => {
    const s = new StreamRenderer('csv');
    expect(s.items(rows.slice(0, 1)) + s.items(rows.slice(1)) + s.end()).toBe(renderCsv(rows));
    const cols = [{ header: 'input', get: 'input' }, { header: 'to', get: 'to' }];
    const t = new StreamRenderer('csv', { columns: cols, rows: (v) => (v as string[]).map((to) => ({ input: 'a,b', to })) });
    expect(t.items([['de', 'fr']]) + t.items([[]]) + t.items([['it']]) + t.end()).toBe('input,to\n"a,b",de\n"a,b",fr\n"a,b",it\n');
    expect(new StreamRenderer('csv', { columns: cols }).end()).toBe('input,to\n');
    expect(new StreamRenderer('csv').end()).toBe('');
  });

  it('none prints nothing; text may be customised by the command', async () => {
    expect(await render(rows, 'none')).toBe('');
    expect(await render(rows, 'text', { text: (v) => `${(v as unknown[]).length} rows\n` })).toBe('2 rows\n');
  });
});

describe('table', () => {
  it('-o wide shows the columns marked wide, none dropped or cut; table leaves them out', async () => {
    const data = [{ n: 'S-1', title: 'a long title that would be cut', id: '0000100e-0000-4000-8000-0000000e0001', x: 'extra' }];
    const cols = [
      { header: 'Number', get: 'n', keep: true },
      { header: 'Title', get: 'title' },
      { header: 'Extra', get: 'x', optional: true },
      { header: 'ID', get: 'id', keep: true, wide: true },
    ];
    expect(await render(data, 'table', { columns: cols, width: 30 })).toBe('NUMBER  TITLE\nS-1     a long title that\n        would be cut\n');
    expect(await render(data, 'wide', { columns: cols, width: 30 })).toBe(
      'NUMBER  TITLE                           EXTRA  ID\nS-1     a long title that would be cut  extra  0000100e-0000-4000-8000-0000000e0001\n',
    );
    // tsv rows carry every column, the wide ones too
    expect(renderTsv(data, cols)).toBe('S-1\ta long title that would be cut\textra\t0000100e-0000-4000-8000-0000000e0001\n');
  });

  it('a primary column (a title) is not cut short to keep optional columns', () => {
    const data = [{ id: 'K1', title: 'Storage - West Europe - Data access errors', type: 'ServiceIssue', svc: 'Storage, Backup', st: 'Active' }];
    const cols = [
      { header: 'Id', get: 'id', keep: true },
      { header: 'Title', get: 'title', primary: true },
      { header: 'Type', get: 'type', optional: true },
      { header: 'Services', get: 'svc', optional: true },
      { header: 'Status', get: 'st' },
    ];
    expect(renderTable(data, { columns: cols, width: 80 })).toBe('ID  TITLE                                       TYPE          STATUS\nK1  Storage - West Europe - Data access errors  ServiceIssue  Active\n');
    // without primary the optional columns stay and the title is cut
    const plain = cols.map((c) => ({ ...c, primary: undefined }));
    expect(renderTable(data, { columns: plain, width: 80 })).toContain('TYPE          SERVICES');
  });

  it('rows that are arrays get columns Column1, Column2, ... (as az)', () => {
    expect(renderTable([['S-ORD1', 'Adatum'], ['S-ORD22', 'Trey', 3]])).toBe('COLUMN1  COLUMN2  COLUMN3\nS-ORD1   Adatum\nS-ORD22  Trey     3\n');
    expect(renderTable(['a', 'b'])).toBe('a\nb\n');
  });
  it('infers scalar columns (no @odata, no objects), upper-case headers, aligned', () => {
    expect(inferColumns(rows).map((c) => c.header)).toEqual(['id', 'name', 'note']);
    expect(renderTable(rows)).toBe('ID  NAME   NOTE\n1   alpha  tab here\n22  beta   line break\n');
  });
  it('a tab inside a cell is a space: a raw tab jumps to the next tab stop and shifts the columns after it', () => {
    const t = renderTable([
      { input: 'line\twith tab', to: 'de' },
      { input: 'plain text', to: 'ja' },
    ]);
    expect(t).toBe('INPUT          TO\nline with tab  de\nplain text     ja\n');
    expect(renderTable({ a: 'x\ty' })).toBe('FIELD  VALUE\na      x y\n');
  });
  it('one object is shown as FIELD/VALUE', () => {
    expect(renderTable({ id: 7, name: 'x', '@odata.etag': 'e' })).toBe('FIELD  VALUE\nid     7\nname   x\n');
  });
  it('right-aligns, colours the header only when asked, shows the empty text', () => {
    const t = renderTable([{ n: 5 }, { n: 100 }], { columns: [{ header: 'n', get: 'n', align: 'right' }], color: true });
    expect(t).toBe('\u001b[1m  N\u001b[22m\n  5\n100\n');
    expect(renderTable([], { empty: '(no items)' })).toBe('(no items)\n');
    expect(renderTable([])).toBe('');
    expect(renderTable(['a', 'b'])).toBe('a\nb\n');
  });
  it('counts CJK and emoji as two cells, so columns stay aligned', () => {
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('ab')).toBe(2);
    const t = renderTable([
      { lang: 'ja', text: 'こんにちは', n: 1 },
      { lang: 'de', text: 'Hallo', n: 2 },
    ]);
    const lines = t.trimEnd().split('\n');
    expect(lines[1]).toBe('ja    こんにちは  1');
    expect(lines[2]).toBe('de    Hallo       2');
    // the third column starts at the same terminal cell on every line
    const col = (l: string) => displayWidth(l.slice(0, l.lastIndexOf(' ') + 1));
    expect(col(lines[1])).toBe(col(lines[2]));
  });
  it('fits the terminal width: drops optional columns, then shrinks the widest; the last column wraps', () => {
    const data = [{ id: 'ORD-1', description: 'a very long description that will not fit', extra: 'optional stuff' }];
    const cols = [
      { header: 'id', get: 'id' },
      { header: 'description', get: 'description' },
      { header: 'extra', get: 'extra', optional: true },
    ];
    const t = renderTable(data, { columns: cols, width: 30 });
    for (const l of t.trimEnd().split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(30);
    expect(t).not.toContain('EXTRA');
    expect(t).toBe('ID     DESCRIPTION\nORD-1  a very long description\n       that will not fit\n');
    expect(renderTable(data, { columns: cols, width: 200 })).toContain('EXTRA');
  });
  it('never cuts a keep column (an id); shares the cut out among the others; drops rather than wraps', () => {
    const data = [{ id: '0000100e-0000-4000-8000-0000000e0001', title: 'Storage - West Europe - Data access errors', level: 'Informational', when: '2026-11-23 12:52Z' }];
    const cols = [
      { header: 'id', get: 'id', keep: true },
      { header: 'title', get: 'title' },
      { header: 'level', get: 'level' },
      { header: 'when', get: 'when', keep: true },
    ];
    // 36 + 17 kept, 6 for the gaps: 21 cells for title and level, 10 and 11 (not 6 and 15)
    expect(renderTable(data, { columns: cols, width: 80 })).toBe(
      'ID                                    TITLE       LEVEL        WHEN\n' +
        '0000100e-0000-4000-8000-0000000e0001  Storage -…  Informatio…  2026-11-23 12:52Z\n',
    );
    // too narrow even at the smallest widths: cuttable columns go from the right, ids stay whole
    expect(renderTable(data, { columns: cols, width: 40 })).toBe('ID                                    WHEN\n0000100e-0000-4000-8000-0000000e0001  2026-11-23 12:52Z\n');
    expect(renderTable(data, { columns: cols.slice(0, 2), width: 30 })).toBe('ID\n0000100e-0000-4000-8000-0000000e0001\n');
  });
  it('the last column wraps under itself when it has 20 cells or more, and is cut when narrower', () => {
    const rows = [
      { input: 'The quick brown fox jumps over the lazy dog', to: 'de', translation: 'Der schnelle braune Fuchs springt über den faulen Hund' },
      { input: 'Second line', to: 'de', translation: 'Zweite Zeile' },
    ];
    const cols = [
      { header: 'input', get: 'input' },
      { header: 'to', get: 'to' },
      { header: 'translation', get: 'translation' },
    ];
    expect(renderTable(rows, { columns: cols, width: 60 })).toBe(
      'INPUT                        TO  TRANSLATION\n' +
        'The quick brown fox jumps …  de  Der schnelle braune Fuchs\n' +
        '                                 springt über den faulen\n' +
        '                                 Hund\n' +
        'Second line                  de  Zweite Zeile\n',
    );
    expect(renderTable(rows, { columns: cols, width: 36 })).toBe(
      'INPUT            TO  TRANSLATION\nThe quick brow…  de  Der schnelle b…\nSecond line      de  Zweite Zeile\n',
    );
  });
  it('a last cell with a word longer than its column is cut on one line, not wrapped then cut', () => {
    const rows = [{ key: 'translator.endpoint', value: 'http://127.0.0.1:43603/translator', source: 'env VX_TRANSLATOR_ENDPOINT' }];
    const cols = [
      { header: 'key', get: 'key' },
      { header: 'value', get: 'value', keep: true },
      { header: 'source', get: 'source' },
    ];
    expect(renderTable(rows, { columns: cols, width: 77 })).toBe('KEY                  VALUE                              SOURCE\ntranslator.endpoint  http://127.0.0.1:43603/translator  env VX_TRANSLATOR_EN…\n');
  });
  it('keeps an optional column when the table fits with long cells cut to 20', () => {
    const data = [{ id: 'E1', title: 'x'.repeat(60), extra: 'Storage, Backup' }];
    const cols = [
      { header: 'id', get: 'id', keep: true },
      { header: 'title', get: 'title' },
      { header: 'extra', get: 'extra', optional: true },
    ];
    expect(renderTable(data, { columns: cols, width: 60 })).toBe(`ID  TITLE${' '.repeat(36)}EXTRA\nE1  ${'x'.repeat(38)}…  Storage, Backup\n`);
    expect(renderTable(data, { columns: cols, width: 30 })).toBe(`ID  TITLE\nE1  ${'x'.repeat(25)}…\n`);
  });
  it('one record reads whole: long values wrap under VALUE at spaces, words (ids) are never split', () => {
    const event = { trackingId: '9VS6-0W8', summary: 'Customers may see intermittent connection failures to virtual machines.' };
    expect(renderTable(event, { width: 40 })).toBe(
      'FIELD       VALUE\n' +
        'trackingId  9VS6-0W8\n' +
        'summary     Customers may see\n' +
        '            intermittent connection\n' +
        '            failures to virtual\n' +
        '            machines.\n',
    );
    expect(renderTable({ id: '0000100b-0000-4000-8000-0000000b0002', code: 'USD' }, { width: 30 })).toBe('FIELD  VALUE\nid     0000100b-0000-4000-8000-0000000b0002\ncode   USD\n');
    // without a width (not a terminal, no COLUMNS) nothing wraps
    expect(renderTable(event)).toBe(`FIELD       VALUE\ntrackingId  9VS6-0W8\nsummary     ${event.summary}\n`);
  });
  it('a structured value in a FIELD/VALUE view is cut, not wrapped at the spaces inside its JSON', () => {
    const page = { value: [{ id: 'a', name: 'CRONUS USA, Inc.' }, { id: 'b', name: 'My Company' }], count: 2 };
    expect(renderTable(page, { width: 40 })).toBe('FIELD  VALUE\nvalue  [{"id":"a","name":"CRONUS USA, I…\ncount  2\n');
  });
  it('inferred columns (vx api): a GUID id stays whole, columns after the fourth go first', () => {
    const rows = [{ id: '5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f', systemVersion: '26.0.12345.0', timestamp: 1155, name: 'CRONUS USA, Inc.', displayName: 'CRONUS USA, Inc.', businessProfileId: '' }];
    expect(renderTable(rows, { width: 80 })).toBe(
      'ID                                    SYSTEMVERSION  TIMESTAMP  NAME\n5f1b6a3e-0c4d-4e2a-9b7f-1a2b3c4d5e6f  26.0.12345.0   1155       CRONUS USA, Inc.\n',
    );
    // an ARM resource id is a long path: it is cut like any other cell
    const arm = [{ id: `/subscriptions/${'0'.repeat(36)}/providers/Vendor.ResourceHealth/events/9VS6-0W8`, name: '9VS6-0W8' }];
    expect(renderTable(arm, { width: 40 })).toBe(`ID${' '.repeat(30)}NAME\n/subscriptions/00000000000000…  9VS6-0W8\n`);
  });
  it('one record with columns that does not fit its row is shown as FIELD/VALUE lines, every column kept', () => {
    const req = { name: '1d3f1c2a-0005-4a5b-9c8d-00000000a005', state: 'Invalid', message: 'The requested limit is below the current usage of 4' };
    const cols = [
      { header: 'Request id', get: 'name', keep: true },
      { header: 'State', get: 'state' },
      { header: 'Extra', get: 'state', optional: true },
      { header: 'Message', get: 'message' },
    ];
    expect(renderTable(req, { columns: cols, width: 80 })).toBe(
      'FIELD       VALUE\nRequest id  1d3f1c2a-0005-4a5b-9c8d-00000000a005\nState       Invalid\nExtra       Invalid\nMessage     The requested limit is below the current usage of 4\n',
    );
    // a list of one stays a table
    expect(renderTable([req], { columns: cols, width: 80 }).split('\n')[0]).toBe('REQUEST ID                            STATE    EXTRA    MESSAGE');
  });
  it('truncates CJK by cells, never splitting a wide character', () => {
    expect(truncateToWidth('日本語テキスト', 7)).toBe('日本語…');
    expect(displayWidth(truncateToWidth('日本語テキスト', 6))).toBeLessThanOrEqual(6);
    expect(truncateToWidth('abc', 3)).toBe('abc');
    expect(truncateToWidth('abc', 0)).toBe('');
  });
});

describe('amounts in tables', () => {
  it('one record: -o table leaves out its empty fields and counts them; -o wide shows every field', () => {
    const rec = { a: 1, b: '', c: null, d: [], e: { street: '', city: '' }, f: false, g: 0, h: 'x' };
    expect(renderTable(rec)).toBe('FIELD  VALUE\na      1\nf      false\ng      0\nh      x\n(4 empty fields not shown; -o wide shows every field)\n');
    expect(renderTable(rec, { wide: true }).split('\n')).toHaveLength(1 + 8 + 1);
    expect(renderTable({ a: 1, b: 'n/a' }, { blank: (v) => v === 'n/a' })).toBe('FIELD  VALUE\na      1\n(1 empty field not shown; -o wide shows every field)\n');
    expect(renderTable({ a: 1 })).toBe('FIELD  VALUE\na      1\n');
  });

  it('show two decimals at least and every decimal the value has: never a rounded amount', async () => {
    expect([735, 735.5, 1350, 0, -12.3].map(amountText)).toEqual(['735.00', '735.50', '1350.00', '0.00', '-12.30']);
    // a three-decimal currency (KWD, BHD) and a unit price of five decimals were shown as 735.13 and 0.00
    expect([735.125, 0.00125, 1234.56789, 0.1 + 0.2].map(amountText)).toEqual(['735.125', '0.00125', '1234.56789', '0.30000000000000004']);
    expect(amountText('n/a')).toBe('n/a');
    expect(amountText(null)).toBe(null);
    const { columnsOf } = await import('../../src/cli/erp/columns.js');
    const { findSet } = await import('../../src/model/erp/index.js');
    const table = renderTable([{ number: 'S-1', customerName: 'Adatum', totalAmountIncludingTax: 735.125 }], { columns: columnsOf(findSet('salesOrders')), width: 200 });
    expect(table).toContain('735.125');
  });

  it('group their thousands and carry their currency, aligned down the column; tsv and csv keep the number and the currency apart', async () => {
    expect([735, 1350, 1234567.5, -12345.678, 'n/a'].map(groupedAmount)).toEqual(['735.00', '1,350.00', '1,234,567.50', '-12,345.678', 'n/a']);
    const cols = [
      { header: 'Number', get: 'n' },
      { header: 'Total', get: (r: { t: number }) => groupedAmount(r.t), raw: 't', unit: 'cur', align: 'right' as const },
      { header: 'Currency', name: 'cur', get: 'cur', wide: true },
    ];
    const rows = [
      { n: 'S-1', t: 735, cur: '' },
      { n: 'S-2', t: 1350, cur: 'EUR' },
      { n: 'S-3', t: 99.5, cur: 'KWD' },
    ];
    expect(renderTable(rows, { columns: cols, width: 80 })).toBe('NUMBER         TOTAL\nS-1       735.00\nS-2     1,350.00 EUR\nS-3        99.50 KWD\n');
    expect(renderTsv(rows, cols)).toBe('S-1\t735\t\nS-2\t1350\tEUR\nS-3\t99.5\tKWD\n');
    // no row with a currency: nothing after the amounts
    expect(renderTable([{ n: 'S-1', t: 735, cur: '' }], { columns: cols })).toBe('NUMBER   TOTAL\nS-1     735.00\n');
  });
});

describe('--query', () => {
  it('applies JMESPath before rendering, in every format', async () => {
    const data = [{ name: 'a', n: 1 }, { name: 'b', n: 2 }];
    const q = await applyQuery(data, '[?n > `1`].name');
    expect(q).toEqual(['b']);
    expect(await render(q, 'json')).toBe('[\n  "b"\n]\n');
    expect(await render(await applyQuery(data, '[0]'), 'table')).toBe('FIELD  VALUE\nname   a\nn      1\n');
    expect(await render(await applyQuery(data, 'length(@)'), 'text')).toBe('2\n');
    expect(await render(await applyQuery(data, '[].{x: name}'), 'tsv')).toBe('a\nb\n');
    expect(await applyQuery(data, undefined)).toBe(data);
  });
  // az users write [?code==`W9`] (a backtick literal that is not JSON: a string in jmespath.py); it was a syntax error
  it('reads a backtick literal that is not JSON as a string, as az does; JSON literals as before', async () => {
    const data = [{ code: 'W9', n: 1 }, { code: 'X', n: 2 }];
    expect(await applyQuery(data, '[?code==`W9`].n')).toEqual([1]);
    expect(await applyQuery(data, '[?n==`2`].code')).toEqual(['X']);
    expect(await applyQuery(data, '[?code==`"X"`].n')).toEqual([2]);
  });
  it('a bad expression is a usage error naming it', async () => {
    await expect(applyQuery([], '[?')).rejects.toThrow(UsageError);
    await expect(applyQuery([], '[?')).rejects.toThrow(/invalid --query expression "\[\?"/);
  });
  it('a valid expression that does not fit the data says the request was done', async () => {
    await expect(applyQuery({ a: 'x' }, 'a / `2`')).rejects.toThrow(/^--query "a \/ `2`" failed on the result: .*\(the request itself was sent and succeeded\)$/);
  });
});

describe('colour', () => {
  const tty = { isTTY: true, columns: 100 } as NodeJS.WriteStream;
  const pipe = { isTTY: false } as NodeJS.WriteStream;
  it('only on a terminal; NO_COLOR wins over FORCE_COLOR; --no-color wins over all', () => {
    expect(colorEnabled(tty, false, {})).toBe(true);
    expect(colorEnabled(pipe, false, {})).toBe(false);
    expect(colorEnabled(tty, false, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(tty, false, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(pipe, false, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(pipe, false, { FORCE_COLOR: '' })).toBe(true);
    expect(colorEnabled(tty, false, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled(pipe, false, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(tty, true, { FORCE_COLOR: '1' })).toBe(false);
    expect(colorEnabled(tty, false, { TERM: 'dumb' })).toBe(false);
  });
  it('the palette follows the decision, not a detection of its own', () => {
    expect(makePalette(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(makePalette(false).red('x')).toBe('x');
    expect(makePalette(false).level).toBe(0);
    expect(makePalette(true).level).toBe(1);
  });
  it('the palette writes what chalk writes: a nested style reopened, each line closed and reopened', () => {
    const { red, green, bold, dim } = makePalette(true);
    expect(red(`a${dim('b')}c`)).toBe('\u001b[31ma\u001b[2mb\u001b[22mc\u001b[39m');
    expect(bold(`a${dim('b')}c`)).toBe('\u001b[1ma\u001b[2mb\u001b[22m\u001b[1mc\u001b[22m');
    expect(green('x\r\ny\nz')).toBe('\u001b[32mx\u001b[39m\r\n\u001b[32my\u001b[39m\n\u001b[32mz\u001b[39m');
    expect(red('')).toBe('');
  });
  it('table width: COLUMNS, else the terminal, else unlimited', () => {
    expect(terminalWidth(tty, {})).toBe(100);
    expect(terminalWidth(tty, { COLUMNS: '40' })).toBe(40);
    expect(terminalWidth(pipe, {})).toBeUndefined();
  });
});

describe('csv round trip', () => {
  /** a small RFC 4180 reader, independent of the renderer */
  function parseCsv(text: string): string[][] {
    const out: string[][] = [];
    let row: string[] = [];
    let field = '';
    let i = 0;
    let quoted = false;
    while (i < text.length) {
      const ch = text[i];
      if (quoted) {
        if (ch === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
        else if (ch === '"') (quoted = false), i++;
        else (field += ch), i++;
      } else if (ch === '"') (quoted = true), i++;
      else if (ch === ',') row.push(field), (field = ''), i++;
      else if (ch === '\n') row.push(field), out.push(row), (row = []), (field = ''), i++;
      else (field += ch), i++;
    }
    return out;
  }

  // (and a formula a spreadsheet would run, guarded by a ' that import takes off: csvUnguard)
  it('any records read back field for field (strings with commas, quotes, CR, LF, formulas)', async () => {
    const fc = (await import('fast-check')).default;
    const { csvUnguard } = await import('../../src/core/output/index.js');
    const key = fc.string({ minLength: 1, maxLength: 6 }).filter((k) => !k.startsWith('@odata') && k !== '__proto__');
    const value = fc.oneof(fc.string(), fc.constantFrom(',', '"', '\r\n', 'a "b", c', '=1+1', "'=x", "''@y", '-3', '-3-3', '+', '\tx', '\r'));
    fc.assert(
      fc.property(fc.array(fc.dictionary(key, value, { maxKeys: 4 }), { minLength: 1, maxLength: 5 }), (records) => {
        const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
        const [header, ...rows] = parseCsv(renderCsv(records));
        const parsed = [header, ...rows.map((r) => r.map(csvUnguard))];
        // no key at all: an empty header and empty lines
        if (!keys.length) expect(parsed).toEqual([[''], ...records.map(() => [''])]);
        else expect(parsed).toEqual([keys, ...records.map((r) => keys.map((k) => r[k] ?? ''))]);
      }),
      { numRuns: 300 },
    );
  });
});

// -o csv at a terminal wrote a value's ESC sequence raw (every other format shows it escaped): a
// record could recolour the terminal, retitle it or write the clipboard (OSC 52)
describe('csv at a terminal', () => {
  const printCsv = async (isTTY: boolean) => {
    const { Ctx } = await import('../../src/core/context.js');
    const { SETTINGS } = await import('../../src/api/settings.js');
    const { PassThrough } = await import('node:stream');
    const stdout = Object.assign(new PassThrough(), { isTTY, columns: 80, rows: 24 });
    let text = '';
    stdout.on('data', (d) => (text += d));
    const dir = mkdtempSync(join(tmpdir(), 'vx-csvtty-'));
    const ctx = new Ctx({ output: 'csv' }, SETTINGS, { io: { stdout: stdout as any, stderr: new PassThrough() as any, stdin: new PassThrough() as any }, env: { NO_COLOR: '1', VX_CONFIG_DIR: dir } });
    await ctx.print([{ code: 'W4', email: '\u001b]52;c;ZXZpbA==\u0007x\u001b[31mred', note: 'a\tb\nc' }]);
    // streamed (erp export, translate): the same through the stdout sink
    await ctx.stdoutSink('csv').write('W5,\u001b[2J\n');
    await ctx.stdoutSink('table').write('\u001b[1mA\u001b[22m\n');
    await new Promise((r) => setImmediate(r));
    return text;
  };
  it('shows control characters escaped at a terminal; a pipe or a file gets every character', async () => {
    expect(await printCsv(true)).toBe('code,email,note\nW4,\\u001b]52;c;ZXZpbA==\\u0007x\\u001b[31mred,"a\tb\nc"\nW5,\\u001b[2J\n\u001b[1mA\u001b[22m\n');
    expect(await printCsv(false)).toBe('code,email,note\nW4,\u001b]52;c;ZXZpbA==\u0007x\u001b[31mred,"a\tb\nc"\nW5,\u001b[2J\n\u001b[1mA\u001b[22m\n');
  });
});
