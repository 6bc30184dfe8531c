// The Used column of `quota list` and `quota report` at a terminal: a bar and the percentage,
// coloured by how full the quota is; piped, the percentage alone.
import { describe, expect, it } from 'vitest';
import { usageBar } from '../../src/cli/mgmt/quota/usage-bar.js';
import { useEmulator } from '../helpers/emulator.js';
import { runInProc } from '../helpers/inproc.js';

const e2e = useEmulator();
const SUB = () => e2e.emu.state.mgmt.defaultSubscription as string;
const ESC = '\u001b';
const terminal = (args: string[], env: Record<string, string> = {}) =>
  runInProc(args, { network: true, stdoutTTY: true, env: { ...e2e.env, COLUMNS: '200', ...env } });
const LIST = ['mgmt', 'quota', 'list', '--provider', 'Vendor.Compute', '--location', 'westus2'];
const REPORT = ['mgmt', 'quota', 'report', '--provider', 'Vendor.Compute', '--location', 'westus2'];
const cells = (out: string) => out.split('\n').filter(Boolean).map((l) => l.split(/\s{2,}/));

describe('quota usage bars', () => {
  it('one cell a tenth of the limit, a used quota at least one, the percentage after it', () => {
    expect(usageBar(0, '0%')).toBe('░░░░░░░░░░     0%');
    expect(usageBar(0.4, '0.4%')).toBe('█░░░░░░░░░   0.4%');
    expect(usageBar(75, '75%')).toBe('████████░░    75%');
    expect(usageBar(100, '100%+')).toBe('██████████  100%+');
    expect(usageBar(250, '250%')).toBe('██████████   250%');
  });

  it('quota list at a terminal draws the bar without colour under NO_COLOR', async () => {
    const r = await terminal(LIST, { NO_COLOR: '1' });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(cells(r.stdout)).toEqual([
      ['NAME', 'DISPLAY NAME', 'LIMIT', 'USAGE', 'USED', 'UNIT', 'PERIOD'],
      ['cores', 'Total Regional vCPUs', '200', '150', '████████░░', '75%', 'Count'],
      ['standardDSv3Family', 'Standard DSv3 Family vCPUs', '100', '96', '██████████', '96%', 'Count'],
      ['standardNCFamily', 'Standard NC Family vCPUs', '24', '0', '░░░░░░░░░░', '0%', 'Count'],
    ]);
  });

  it('colours the bar green below 80% used, yellow from 80%, red from 95%, and keeps the columns aligned', async () => {
    const r = await terminal(LIST, { NO_COLOR: '' });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toContain(`${ESC}[32m████████${ESC}[39m${ESC}[2m░░${ESC}[22m    75%`);
    expect(lines[2]).toContain(`${ESC}[31m██████████${ESC}[39m    96%`);
    expect(lines[3]).toContain(`${ESC}[2m░░░░░░░░░░${ESC}[22m     0%`);
    const plain = lines.map((l) => l.replace(/\u001b\[\d+m/g, ''));
    expect(plain[1].indexOf('Count')).toBe(plain[0].indexOf('UNIT'));
    e2e.emu.state.mgmt.quotas[`${SUB().toLowerCase()}|vendor.compute|westus2`].cores.quota.properties.currentValue = 170;
    const warn = await terminal(LIST, { NO_COLOR: '' });
    expect(warn.stdout.split('\n')[1]).toContain(`${ESC}[33m█████████${ESC}[39m${ESC}[2m░${ESC}[22m    85%`);
  });

  it('quota report at a terminal draws the bar; piped, -o tsv and --query read the percentage as before', async () => {
    const t = await terminal(REPORT, { NO_COLOR: '1' });
    expect([t.code, t.stderr]).toEqual([0, '']);
    expect(cells(t.stdout)[1]).toEqual(['westus2', 'standardDSv3Family', '100', '96', 'Count', '4', '██████████', '96%']);
    const piped = await e2e.run([...REPORT, '-o', 'table'], { env: { COLUMNS: '200' } });
    expect(cells(piped.stdout)[1]).toEqual(['westus2', 'standardDSv3Family', '100', '96', 'Count', '4', '96%']);
    const tsv = await terminal([...REPORT, '-o', 'tsv'], { NO_COLOR: '' });
    expect(tsv.stdout.split('\n')[0].split('\t')).toEqual([SUB(), 'Vendor.Compute', 'westus2', 'standardDSv3Family', 'Standard DSv3 Family vCPUs', '100', '96', 'Count', '4', '96']);
    const q = await terminal([...LIST, '--query', '[0].properties.currentValue', '-o', 'table'], { NO_COLOR: '' });
    expect(q.stdout).not.toContain('█');
  });
});
