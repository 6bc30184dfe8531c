// A rerun reads the earlier journal as a stream of lines and keeps, per row, where its last entry
// is and its state (RowIndex, 8 bytes a row); the entries are read again from the file when a row
// needs one. In-process, against the httpmock.
import { mkdtempSync, openSync, closeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/api/erp/journal.js';
import { fileLines, lineAt, RowIndex } from '../../src/api/erp/journal-index.js';
import { hashFields } from '../../src/api/erp/rows.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const env = offlineEnv();
const company = env.VX_ERP_COMPANY;
const dir = mkdtempSync(join(tmpdir(), 'vx-import-resume-'));
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the journal read as a stream', () => {
  it('fileLines: every line with the byte offset it starts at, across chunks; the last piece too; lineAt reads one back', () => {
    const lines = ['{"a":1}', 'é'.repeat(40_000), '', 'x'.repeat(300_000), 'end'];
    const p = join(dir, 'lines');
    writeFileSync(p, lines.join('\n'));
    const fd = openSync(p, 'r');
    const got = [...fileLines(fd, 1 << 20, (n) => new Error(`line ${n}`))];
    expect(got.map((l) => l.text)).toEqual(lines);
    expect(got.map((l) => l.last)).toEqual([false, false, false, false, true]);
    let at = 0;
    for (const [i, l] of got.entries()) {
      expect(l.at).toBe(at);
      expect(lineAt(fd, l.at)).toBe(lines[i]);
      at += Buffer.byteLength(lines[i]) + 1;
    }
    expect(() => [...fileLines(fd, 100_000, (n) => new Error(`line ${n} too long`))]).toThrow('line 4 too long');
    closeSync(fd);
  });

  it('RowIndex: state and place of each row, across pages, in row order', () => {
    const ix = new RowIndex();
    ix.set(70_000, 123_456_789_012, 'done');
    ix.set(2, 40, 'sent');
    ix.set(2, 80, 'unknown');
    ix.set(3, 0, 'rolled-back');
    expect(ix.size).toBe(3);
    expect([...ix.rows()]).toEqual([2, 3, 70_000]);
    expect([ix.state(2), ix.offset(2), ix.state(70_000), ix.offset(70_000), ix.state(3), ix.state(4)]).toEqual(['unknown', 80, 'done', 123_456_789_012, 'rolled-back', undefined]);
  });

  it('Journal: the last entry of each row, read again from the file, with the time its batch was sent', () => {
    const p = join(dir, 'j.journal');
    const lines = [{ kind: 'vx-erp-import-journal', version: 1, command: 'erp salespeople import', company, input: '/x.csv' }];
    const entries: object[] = [];
    for (let r = 2; r < 3000; r++) entries.push({ row: r, hash: hashFields([`C${r}`]), state: 'sent', at: 1000 + r }, { row: r, hash: hashFields([`C${r}`]), state: 'done', id: id(r), key: `C${r}` });
    entries.push({ row: 5, hash: 'h', state: 'sent', at: 7 }, { row: 5, hash: 'h', state: 'unknown' }, { row: 6, hash: 'h', state: 'failed', status: 400 });
    writeFileSync(p, [...lines, ...entries].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const j = Journal.open(p, { command: 'erp salespeople import', company, input: '/x.csv' });
    try {
      expect(j.size).toBe(2998);
      expect(j.entry(2999)).toEqual({ row: 2999, hash: hashFields(['C2999']), state: 'done', id: id(2999), key: 'C2999' });
      expect(j.entry(5)).toEqual({ row: 5, hash: 'h', state: 'unknown', at: 7 });
      expect([j.state(5), j.sentTime(5), j.state(6), j.sentTime(6), j.state(2), j.entry(3000)]).toEqual(['unknown', 7, 'failed', undefined, 'done', undefined]);
      expect(j.createdBy(new Set([id(7), id(2500).toUpperCase().toLowerCase(), 'nope']))).toEqual(new Map([[id(7), 7], [id(2500), 2500]]));
    } finally {
      j.close();
    }
  });
});

describe('erp import: a rerun goes on from a long journal', () => {
  it('the rows done are skipped with the id the journal has, the failed one is sent again, the new one sent', async () => {
    const p = join(dir, 'people.csv');
    const codes = Array.from({ length: 2000 }, (_, i) => `K${i}`);
    writeFileSync(p, `code\n${codes.join('\n')}\n`);
    const head = { kind: 'vx-erp-import-journal', version: 1, command: 'erp salespeople import', company, input: p };
    const done = codes.slice(0, 1998).flatMap((c, i) => [
      { row: i + 2, hash: hashFields([c]), state: 'sent', at: 1 },
      { row: i + 2, hash: hashFields([c]), state: i === 10 ? 'failed' : 'done', ...(i === 10 ? {} : { id: id(i + 2), key: c }) },
    ]);
    writeFileSync(`${p}.vx-journal`, [head, ...done].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const sent: string[] = [];
    const r = await runInProc(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson'], {
      env,
      setup: (t) =>
        t.http.stub('POST', /\/\$batch$/, (req) => {
          const ops = (JSON.parse(req.text) as { requests: { id: string; body: { code: string } }[] }).requests;
          sent.push(...ops.map((o) => o.body.code));
          return json(200, { responses: ops.map((o) => ({ id: o.id, status: 201, headers: {}, body: { id: id(9000 + sent.length), code: o.body.code } })) });
        }),
    });
    expect(r.code).toBe(0);
    expect(sent).toEqual(['K10', 'K1998', 'K1999']);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { row: number; status: string; id?: string; code?: string });
    expect(out.filter((x) => x.status === 'skipped')).toHaveLength(1997);
    expect(out.find((x) => x.row === 1500)).toEqual({ row: 1500, status: 'skipped', id: id(1500), code: 'K1498' });
    expect(out.filter((x) => x.status === 'created').map((x) => x.row)).toEqual([12, 2000, 2001]);
  });

  it('a journal of another version of the input: the first ten rows named, the others counted, nothing sent', async () => {
    const p = join(dir, 'other.csv');
    writeFileSync(p, `code\n${Array.from({ length: 13 }, (_, i) => `N${i}`).join('\n')}\n`);
    const head = { kind: 'vx-erp-import-journal', version: 1, command: 'erp salespeople import', company, input: p };
    const old = Array.from({ length: 13 }, (_, i) => ({ row: i + 2, hash: hashFields([`O${i}`]), state: 'done', id: id(i) }));
    writeFileSync(`${p}.vx-journal`, [head, ...old].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const r = await runInProc(['erp', 'salespeople', 'import', '--file', p], { env });
    expect(r.stderr).toBe(
      `vx: the journal ${p}.vx-journal belongs to another version of the input: rows 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … 3 more were sent before with other content (rows are told apart by their line: add new rows at the end); name another file with --journal, or delete it to send every row again (the rows it records as created would be created twice)\n`,
    );
    expect([r.code, r.http.requests.length]).toEqual([2, 0]);
  });
});
