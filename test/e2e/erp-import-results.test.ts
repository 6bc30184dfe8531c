// vx erp <set> import: the results add up (one per row, whatever the number of problems a row
// has) and identify the records. Run in-process against the emulator (test/helpers/emulator.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
let dir: string;
beforeAll(() => {
  dir = tempDir('vx-import-results-');
});
afterAll(() => removeDir(dir));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('erp import: one result per row', () => {
  it('--skip-invalid of one valid row and one row with two problems: two results, "1 created, 1 invalid", exit 1', async () => {
    const p = file('two.csv', 'code,commisionPercent,blocked\nV1,5,false\nV2,abc,maybe\n');
    const r = await e2e.run(['erp', 'salespeople', 'import', '--file', p, '--skip-invalid', '-o', 'json']);
    const results = JSON.parse(r.stdout);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ row: 2, status: 'created' });
    expect(results[1]).toEqual({
      row: 3,
      status: 'invalid',
      message: 'field "commisionPercent": invalid value "abc": expected number; field "blocked": invalid value "maybe": expected true or false',
    });
    expect(r.stderr).toContain('imported 2 rows: 1 created, 1 invalid\n');
    expect(r.stderr).toContain('vx: 1 of 2 rows did not succeed');
    expect(r.code).toBe(1);
  });
});
