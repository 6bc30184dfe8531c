// vx in shell pipelines: `--out -` is standard output (as `--file -` and `--data -` are standard
// input), never a file named "-".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const cwd = tempDir('vx-pipes-');
afterAll(() => removeDir(cwd));

describe('--out - writes to standard output', () => {
  it('translate: the text on stdout, no file named "-"', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--out', '-'], { input: 'Hello\n', cwd });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe('[de] Ĥéļļö\n');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('erp export: the CSV on stdout, no file named "-"', async () => {
    const r = await e2e.run(['erp', 'currencies', 'export', '--select', 'code', '--top', '2', '-o', 'csv', '--out', '-'], { cwd });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')[0]).toBe('code');
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('erp related pdfDocument: the document bytes on stdout, no file named "-"', async () => {
    const file = join(cwd, 'order.pdf');
    const saved = await e2e.run(['erp', 'sales-orders', 'related', 'S-ORD101001', 'pdfDocument', '--out', file], { cwd });
    expect(saved.code).toBe(0);
    const r = await e2e.run(['erp', 'sales-orders', 'related', 'S-ORD101001', 'pdfDocument', '--out', '-'], { cwd });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(readFileSync(file, 'utf8'));
    expect(existsSync(join(cwd, '-'))).toBe(false);
    removeDir(file);
  });
});
