// Tables as an operator reads them at an 80-column terminal (COLUMNS=80 stands for the terminal).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();

describe('tables at 80 columns', () => {
  it('translate: the translation wraps under its column instead of being cut; no line is longer than 80', async () => {
    const long = 'The quick brown fox jumps over the lazy dog and keeps running far away into the forest';
    const r = await e2e.run(['translate', '--to', 'de', '-o', 'table', long, 'Second line'], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    expect(lines[0]).toBe('INPUT                         DETECTED  SCORE  TO  TRANSLATION');
    expect(lines[1].startsWith('The quick brown fox jumps o…  en         1.00  de  [de] ')).toBe(true);
    // the continuation lines start under TRANSLATION, and together they are the whole translation
    const at = lines[0].indexOf('TRANSLATION');
    const cont = lines.slice(2, 5);
    for (const l of cont) expect(l.slice(0, at)).toBe(' '.repeat(at));
    const whole = [lines[1].slice(at), ...cont.map((l) => l.slice(at))].join(' ');
    const json = await e2e.run(['translate', '--to', 'de', '-o', 'json', long]);
    expect(whole).toBe(JSON.parse(json.stdout)[0].translations[0].text);
    expect(lines[5].startsWith('Second line ')).toBe(true);
    expect(lines).toHaveLength(6);
  });

  it('a short last column (a quota request message) is still cut, not wrapped a word a line', async () => {
    const scope = ['--provider', 'Vendor.Compute', '--location', 'eastus', '--top', '1'];
    const r = await e2e.run(['mgmt', 'quota', 'requests', 'list', ...scope, '-o', 'table'], { env: { COLUMNS: '80' } });
    const first = JSON.parse((await e2e.run(['mgmt', 'quota', 'requests', 'list', ...scope])).stdout)[0];
    expect(r.stdout.split('\n')).toEqual([
      'REQUEST ID                            STATE      SUBMITTED          MESSAGE',
      expect.stringMatching(new RegExp(`^${first.name.split('/').pop()}  ${first.properties.provisioningState.padEnd(9)}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\dZ  .{11}…$`)),
      '',
    ]);
  });
});
