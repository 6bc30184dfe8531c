// The import journal on disk: flushed to the disk (fsync) at batch boundaries, so that a power loss
// never loses the record of a batch that left; a damaged line is exit 2 naming it, nothing sent;
// a last line cut short by a crash leaves its row unknown. In-process, against the httpmock.
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { hashFields } from '../../src/api/erp/rows.js';
import { json, type HttpMock } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

// every fsync of the run, with the size of the file it flushed at that moment
const synced: { fd: number; size: number }[] = [];
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    fsyncSync: (fd: number) => {
      real.fsyncSync(fd);
      synced.push({ fd, size: real.fstatSync(fd).size });
    },
  };
});

const env = offlineEnv();
const company = env.VX_ERP_COMPANY;
const dir = mkdtempSync(join(tmpdir(), 'vx-import-journal-'));
function input(name: string, codes: string[]): string {
  const p = join(dir, name);
  writeFileSync(p, `code\n${codes.join('\n')}\n`);
  return p;
}
function head(p: string): string {
  return `${JSON.stringify({ kind: 'vx-erp-import-journal', version: 1, command: 'erp salespeople import', company, input: p })}\n`;
}
const row = (n: number, code: string, state: string, extra = '') => `{"row":${n},"hash":"${hashFields([code])}","state":"${state}"${extra}}\n`;

/** $batch answered 201 for each POST, the record's code echoed; `onBatch` sees each batch as it is sent. */
function answerBatches(http: HttpMock, batches: number, onBatch: (codes: string[]) => void = () => undefined): void {
  http.stub(
    'POST',
    /\/\$batch$/,
    (req) => {
      const ops = (JSON.parse(req.text) as { requests: { id: string; body: { code: string } }[] }).requests;
      onBatch(ops.map((o) => o.body.code));
      return json(200, { responses: ops.map((o, i) => ({ id: o.id, status: 201, headers: {}, body: { id: `00000000-0000-4000-8000-00000000000${i}`, code: o.body.code } })) });
    },
    batches,
  );
}

beforeEach(() => void (synced.length = 0));

describe('erp import: the journal is flushed to the disk at batch boundaries', () => {
  it("each batch leaves after an fsync of the journal that holds its rows' sent lines; its outcomes are flushed too", async () => {
    const p = input('sync.csv', ['S1', 'S2', 'S3']);
    const journal = `${p}.vx-journal`;
    const seen: { codes: string[]; durable: string }[] = [];
    const r = await runInProc(['erp', 'salespeople', 'import', '--file', p, '--batch-size', '2', '--concurrency', '1', '-o', 'none'], {
      env,
      setup: (t) =>
        answerBatches(t.http, 2, (codes) => {
          // what the disk holds when the batch leaves: the journal up to its last fsync
          const last = synced.at(-1);
          seen.push({ codes, durable: last ? readFileSync(journal, 'utf8').slice(0, last.size) : '' });
        }),
    });
    expect(r.stderr).toBe(`imported 3 rows: 3 created\njournal: ${journal}\n`);
    expect(r.code).toBe(0);
    expect(seen.map((s) => s.codes)).toEqual([['S1', 'S2'], ['S3']]);
    for (const { codes, durable } of seen) {
      for (const code of codes) expect(durable).toMatch(new RegExp(`\\{"row":\\d+,"hash":"${hashFields([code])}","state":"sent","at":\\d+\\}\\n`));
    }
    // the outcomes of the last batch are on the disk when the run ends
    const text = readFileSync(journal, 'utf8');
    expect(synced.at(-1)!.size).toBe(Buffer.byteLength(text));
    expect(text).toContain(row(4, 'S3', 'done', ',"id":"00000000-0000-4000-8000-000000000000","key":"S3"'));
  });
});

describe('erp import: a damaged journal', () => {
  it('a line in the middle that is not JSON: exit 2 naming the line, nothing sent, the journal as it was', async () => {
    const p = input('mid.csv', ['M1', 'M2', 'M3']);
    const text = head(p) + row(2, 'M1', 'sent', ',"at":1') + 'x{garbage\n' + row(3, 'M2', 'done');
    writeFileSync(`${p}.vx-journal`, text);
    const r = await runInProc(['erp', 'salespeople', 'import', '--file', p], { env });
    expect(r.stderr).toBe(`vx: the journal ${p}.vx-journal is damaged at line 3 ("x{garbage" is not a row's entry); nothing was sent. Name another file with --journal, or repair the line\n`);
    expect(r.code).toBe(2);
    expect(r.http.requests).toEqual([]);
    expect(readFileSync(`${p}.vx-journal`, 'utf8')).toBe(text);
  });

  it('a JSON line that is not a row entry (no row number, an unknown state) is damage too', async () => {
    const p = input('odd.csv', ['O1']);
    for (const bad of ['{"note":"hello"}', '{"row":2,"hash":"x","state":"maybe"}', '[2]', '{"row":"2","hash":"x","state":"done"}']) {
      writeFileSync(`${p}.vx-journal`, head(p) + bad + '\n' + row(2, 'O1', 'done'));
      const r = await runInProc(['erp', 'salespeople', 'import', '--file', p], { env });
      expect(r.stderr, bad).toMatch(/^vx: the journal .* is damaged at line 2 \(/);
      expect(r.code).toBe(2);
      expect(r.http.requests).toEqual([]);
    }
  });

  it("a last line cut short: its row counts as unknown (not sent), the others go on; the line is ended, so the next run reads the journal", async () => {
    const p = input('torn.csv', ['T1', 'T2', 'T3']);
    const journal = `${p}.vx-journal`;
    // T1 done; T2's sent line cut short by a crash in the middle of its hash
    writeFileSync(journal, head(p) + row(2, 'T1', 'done', ',"id":"00000000-0000-4000-8000-00000000000a"') + '{"row":3,"hash":"' + hashFields(['T2']).slice(0, 3));
    const sent: string[][] = [];
    const r = await runInProc(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson'], { env, setup: (t) => answerBatches(t.http, 1, (c) => sent.push(c)) });
    expect(sent).toEqual([['T3']]);
    expect(r.stderr).toContain("the journal's last line (line 3) was cut short (the run that wrote it stopped mid-write): row 3 counts as unknown\n");
    expect(r.stderr).toContain('imported 3 rows: 1 created, 1 skipped (done before, per the journal), 1 unknown\n');
    expect(r.code).toBe(1);
    const results = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { row: number; status: string });
    expect(results.find((x) => x.row === 3)?.status).toBe('unknown');
    // a second run reads the journal (the cut line was ended before anything was appended)
    const again = await runInProc(['erp', 'salespeople', 'import', '--file', p, '-o', 'ndjson'], { env });
    expect(again.stderr).toContain('imported 3 rows: 2 skipped (done before, per the journal), 1 unknown\n');
    expect(again.http.requests).toEqual([]);
  });
});

// (fs is the mocked module: the import above keeps the type checker honest about the mock's shape)
void fs;
