// vx erp <set> import: the header checks, run in-process (test/helpers/inproc.ts): exit 2, the
// message, nothing sent (the httpmock registry has no stubs), no journal. Moved from e2e/erp-import,
// which keeps the spawned bad-rows case for the exit code of the real process.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const env = offlineEnv();
const dir = mkdtempSync(join(tmpdir(), 'vx-import-inproc-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('erp import: the header and the file are checked before anything is sent', () => {
  const cases: [string, string, string, RegExp[]][] = [
    [
      'wrong column names (listing the fields)',
      'cols.csv',
      'code,name,id\nX,Y,Z\n',
      [/^vx: \S*cols\.csv: unknown column "name": not fields of a salesperson\/purchaser; its writable fields are code, displayName, email, email2, phoneNo, jobTitle, commisionPercent, privacyBlocked, blocked\n$/],
    ],
    ['duplicate column names', 'dup.csv', 'code,code\nX,Y\n', [/duplicate column name: "code"/]],
    ['an empty file', 'empty.csv', '', [/empty\.csv is empty: expected a header line naming the fields/]],
    ['a quote left open', 'quote.csv', 'code\n"open\n', [/quote\.csv line \d+: not valid CSV/]],
  ];
  for (const [name, fileName, text, messages] of cases) {
    it(name, async () => {
      const p = file(fileName, text);
      const r = await runInProc(['erp', 'salespeople', 'import', '--file', p], { env });
      expect(r.code).toBe(2);
      for (const m of messages) expect(r.stderr).toMatch(m);
      expect(r.stdout).toBe('');
      expect(r.http.requests).toEqual([]);
      expect(existsSync(`${p}.vx-journal`)).toBe(false);
    });
  }
});
