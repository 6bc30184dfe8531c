// An import reads its input as a stream, a chunk at a time, from the file each time (a check
// pass, then a send pass): whatever the chunks, the rows, problems and errors are those of the
// whole text; standard input is kept in a temporary file without a name for the two passes.
import { mkdtempSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fdInput, openImportInput, type ImportInput } from '../../src/api/erp/import-input.js';
import { readImportFile } from '../../src/api/erp/import.js';
import { readCsv } from '../../src/api/erp/rows-csv.js';
import type { ReadRows } from '../../src/api/erp/rows.js';
import { jsonProblem, readJsonRows } from '../../src/api/erp/rows-json.js';
import { jsonErrorWithoutText } from '../../src/core/json.js';
import { findSet } from '../../src/model/erp/index.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const people = findSet('salespeople')!;
const dir = mkdtempSync(join(tmpdir(), 'vx-import-input-'));
let files = 0;

/** The text as a file read `chunk` bytes at a time. */
function chunked(text: string, chunk: number): ImportInput {
  const p = join(dir, `in-${files++}`);
  writeFileSync(p, text);
  return fdInput(openSync(p, 'r'), 'f', Buffer.byteLength(text), true, chunk);
}

/** What reading gives: the rows (twice: each pass reads the input again), problems and count, or the error. */
async function outcome(read: () => Promise<ReadRows>): Promise<unknown> {
  try {
    const r = await read();
    return { rows: [...r.rows], again: [...r.rows].length, problems: r.problems, total: r.total, ignored: r.ignored };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

describe('erp import input read a chunk at a time', () => {
  it('CSV: the rows, problems, row numbers and quote errors of the whole text, whatever the chunks', async () => {
    const cell = fc.constantFrom('A1', 'b', '"q"', '"x,y"', '"l\nm"', '"o""p"', '"', 'é', ' ', '', '\r');
    const line = fc.array(cell, { minLength: 1, maxLength: 3 }).map((cs) => cs.join(','));
    const text = fc.array(line, { maxLength: 8 }).chain((ls) => fc.constantFrom('\n', '\r\n', '\r').map((nl) => `code,displayName${nl}${ls.join(nl)}`));
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 9 }), async (t, chunk) => {
        const whole = await outcome(() => readCsv(people, 'create', t, 'f', true));
        const input = chunked(t, chunk);
        const parts = await outcome(() => readCsv(people, 'create', input, 'f', true));
        input.close();
        expect(parts).toEqual(whole);
      }),
      { numRuns: 120 },
    );
  });

  it('a JSON array is read an element at a time: the rows, and the error JSON.parse gives for the whole text at its line and column', async () => {
    const el = fc.constantFrom('{"code":"A"}', '{"code":"B","displayName":"x, ]"}', '{"code" "C"}', '1', '[2]', 'tru', '{"code":"D"', '"s', '', '{"a":{"b":[1,{}]}}');
    const text = fc.array(el, { maxLength: 5 }).chain((es) => fc.constantFrom(',', ', ', ',\n  ', '\n').chain((sep) => fc.constantFrom(']', '\n]\n', '] x', '', ',]').map((end) => `[\n${es.join(sep)}${end}`)));
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 7 }), async (t, chunk) => {
        const input = chunked(t, chunk);
        const parts = await outcome(() => readJsonRows(people, 'create', 'json', input, 'f.json', true));
        input.close();
        let expected: unknown;
        try {
          JSON.parse(t);
          expected = await outcome(() => readJsonRows(people, 'create', 'json', t, 'f.json', true));
        } catch (e) {
          // the message of the whole text's parse
          expected = { error: `f.json: not valid JSON: ${jsonProblem(t, jsonErrorWithoutText(t, e as Error))}` };
        }
        expect(parts).toEqual(expected);
      }),
      { numRuns: 120 },
    );
    // the message names the place in the whole text
    const bad = '[\n  {"code":"A"},\n  {"code":"B"},\n  {"code" "C"}\n]';
    for (const chunk of [1, 5, 64]) {
      const input = chunked(bad, chunk);
      await expect(readJsonRows(people, 'create', 'json', input, 'f.json', true)).rejects.toMatchObject({ message: "f.json: not valid JSON: Expected ':' after property name at line 4, column 11" });
      input.close();
    }
    const trailing = chunked('[{"code":"A"},\n{"code":"B"},\n]', 4);
    await expect(readJsonRows(people, 'create', 'json', trailing, 'f.json', true)).rejects.toMatchObject({ message: "f.json: not valid JSON: Unexpected token ']'" });
    trailing.close();
  });

  it('NDJSON: the lines of the whole text, whatever the chunks', async () => {
    const t = '{"code":"A"}\r\n\n{"code":"é"}\n{oops\n[1]\n{"code":"B"}';
    const whole = await outcome(() => readJsonRows(people, 'create', 'ndjson', t, 'f', true));
    for (const chunk of [1, 2, 3, 7]) {
      const input = chunked(t, chunk);
      expect(await outcome(() => readJsonRows(people, 'create', 'ndjson', input, 'f', true))).toEqual(whole);
      input.close();
    }
  });

  it('the input is not held: each pass reads the file again, a chunk at a time', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => `P${i},Person ${i}`).join('\n');
    const input = chunked(`code,displayName\n${rows}\n`, 16);
    const reads: number[] = [];
    const chunks = input.chunks.bind(input);
    input.chunks = function* () {
      let n = 0;
      for (const c of chunks()) {
        expect(c.length).toBeLessThanOrEqual(16);
        n++;
        yield c;
      }
      reads.push(n);
    };
    const parsed = await readCsv(people, 'create', input, 'f', true);
    expect(reads).toHaveLength(1);
    const codes = [...parsed.rows].map((r) => r.body.code);
    expect(codes).toHaveLength(50);
    expect(reads).toEqual([reads[0], reads[0]]);
    expect(reads[0]).toBeGreaterThan(40);
    input.close();
  });

  it('standard input is kept in a temporary file that has no name, read twice', async () => {
    const tmp = mkdtempSync(join(dir, 'tmp-'));
    const stdin = () => Readable.from([Buffer.from('code,displayName\nS1,'), Buffer.from('One\nS2,Two\n')]);
    const { parsed, name, input } = await readImportFile(people, 'create', '-', 'csv', stdin, tmp);
    expect(name).toBe('standard input');
    expect(readdirSync(tmp)).toEqual([]);
    expect([...parsed.rows].map((r) => r.body.code)).toEqual(['S1', 'S2']);
    expect([...parsed.rows].map((r) => r.row)).toEqual([2, 3]);
    input.close();
    // a stream that never ends (`yes |`, a device) fills no disk: refused past the bound, nothing left
    const endless = () => Readable.from((function* () { for (;;) yield Buffer.alloc(64 * 1024, 'a'); })());
    await expect(openImportInput('-', endless, tmp, 1 << 20)).rejects.toMatchObject({ message: 'standard input is larger than 1 MiB, more than vx keeps of a stream (a regular file named with --file is read where it is); nothing was sent' });
    await expect(openImportInput('/dev/zero', endless, tmp, 1 << 20)).rejects.toMatchObject({ message: '/dev/zero is larger than 1 MiB, more than vx keeps of a stream (a regular file named with --file is read where it is); nothing was sent' });
    expect(readdirSync(tmp)).toEqual([]);
    await expect(openImportInput('-', stdin, join(tmp, 'none'))).rejects.toMatchObject({ message: `cannot keep standard input in the temporary directory ${join(tmp, 'none')}: it is no such directory; an import reads its input twice (once to check every row, once to send them): set TMPDIR to another directory (nothing was sent)` });
  });

  it('the problems are not all held: past 10,000 they are read again from the input, in row order', async () => {
    const rows = Array.from({ length: 10_050 }, (_, i) => (i === 5 ? 'A,B' : `R${i}`)).join('\n');
    const parsed = await readCsv(people, 'create', `code,displayName\n${rows}\n`, 'f.csv', true);
    expect(parsed.problems).toHaveLength(10_000);
    expect(parsed.badRows).toBe(10_049);
    const all = [...parsed.allProblems()];
    expect(all).toHaveLength(10_049);
    expect(all.slice(4, 6)).toEqual([{ row: 6, message: 'has 1 field; the header has 2' }, { row: 8, message: 'has 1 field; the header has 2' }]);
    expect(all.at(-1)).toEqual({ row: 10_051, message: 'has 1 field; the header has 2' });
    expect([...parsed.rows].map((r) => r.row)).toEqual([7]);
    // listed every one, nothing sent
    const p = join(dir, 'ragged.csv');
    writeFileSync(p, `code,displayName\n${rows}\n`);
    const r = await runInProc(['erp', 'salespeople', 'import', '--file', p], { env: offlineEnv() });
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(10_050);
    expect(lines[10_048]).toBe(`${p} row 10051: has 1 field; the header has 2`);
    expect(lines.at(-1)).toBe('vx: 10049 of 10050 rows are invalid (listed above); nothing was sent (--skip-invalid sends the valid rows)');
    expect([r.code, r.http.requests.length]).toEqual([2, 0]);
  });

  it('text that is not UTF-8 is said first, as when the input was read whole', async () => {
    const p = join(dir, 'bad.csv');
    writeFileSync(p, Buffer.concat([Buffer.from('nope\n'), Buffer.alloc(70_000, 'a'), Buffer.from([0xff])]));
    await expect(readImportFile(people, 'create', p, undefined, () => process.stdin, dir)).rejects.toMatchObject({ message: `${p} is not valid UTF-8 text` });
  });
});
