// What `export` writes imports again as it is, for records the emulator made itself.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_COMPANY } from '../../src/emulator/erp/seed.js';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
let dir: string;
beforeAll(() => {
  dir = tempDir('vx-roundtrip-');
});
afterAll(() => removeDir(dir));

describe('export | import round trips', () => {
  it('a currency created with its code only gets the table\'s initial values (2:2, 0.01), and its export imports into another company', async () => {
    const made = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=NOK', '-o', 'json']);
    expect(made.code).toBe(0);
    const nok = JSON.parse(made.stdout);
    expect([nok.amountDecimalPlaces, nok.amountRoundingPrecision]).toEqual(['2:2', 0.01]);
    for (const format of ['ndjson', 'json', 'csv']) {
      e2e.emu.reset();
      expect((await e2e.run(['erp', 'currencies', 'create', '--set', 'code=NOK'])).code).toBe(0);
      const out = await e2e.run(['erp', 'currencies', 'export', '-o', format]);
      expect(out.code).toBe(0);
      const p = join(dir, `cur.${format}`);
      writeFileSync(p, out.stdout);
      const r = await e2e.run(['erp', 'currencies', 'import', '--file', p, '--company', OTHER_COMPANY, '-o', 'ndjson']);
      expect(r.stderr, format).toContain('imported 6 rows: 6 created');
      expect(r.code).toBe(0);
    }
  });
});

describe('what the service says is not masked as a secret', () => {
  it("a duplicate key names the record that exists (Code='EUR'), in a create's error and in an import's result", async () => {
    const r = await e2e.run(['erp', 'currencies', 'create', '--set', 'code=EUR']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Identification fields and values: Code='EUR'\. CorrelationId:/);
    const p = join(dir, 'dup.csv');
    writeFileSync(p, 'code\nEUR\n');
    const imp = await e2e.run(['erp', 'currencies', 'import', '--file', p, '-o', 'ndjson']);
    expect(JSON.parse(imp.stdout).message).toContain("Code='EUR'");
  });
});
