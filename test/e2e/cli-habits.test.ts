// Habits of the neighbours (issue 14 item 15): -g for --resource-group as az, enum values in any
// case in every family, one --top rule everywhere, and subscription ids checked as GUIDs.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const SVC = ['--service', 'contoso-api'];

describe('neighbours\' habits', () => {
  it('-g is --resource-group', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'get', 'orders', '-g', 'web', ...SVC, '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).name).toBe('orders');
  });

  it('enum values are taken in any case and sent as the service spells them', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'create', 'lowercase', '-g', 'web', ...SVC, '--display-name', 'L', '--scheme', 'header', '--header-name', 'H', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).properties.versioningScheme).toBe('Header');
    const nav = await e2e.run(['erp', 'sales-orders', 'related', 'S-ORD101001', 'CUSTOMER', '-o', 'json']);
    expect(nav.code).toBe(0);
    expect(JSON.parse(nav.stdout).number).toBe('10000');
    const shell = await e2e.run(['completion', 'BASH']);
    expect(shell.code).toBe(0);
    expect(shell.stdout).toMatch(/^# bash completion for vx/);
    const tt = await e2e.run(['translate', '--to', 'de', '--text-type', 'HTML', '--profanity-action', 'marked', '<b>Hello</b>', '-o', 'json']);
    expect(tt.code).toBe(0);
    expect(new URLSearchParams((e2e.emu.state.translator.calls as { query: string }[]).at(-1)!.query).get('textType')).toBe('html');
  });

  it('a value outside the choices is still refused, in commander\'s words, nothing sent', async () => {
    const r = await e2e.run(['mgmt', 'version-sets', 'create', 'x1', '-g', 'web', ...SVC, '--display-name', 'X', '--scheme', 'Path']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("vx: option '--scheme <scheme>' argument 'Path' is invalid; allowed: Segment, Query, Header (run `vx mgmt version-sets create --help` for usage)\n");
    expect(e2e.emu.count({ family: 'mgmt' })).toBe(0);
  });

  it('--top is at least 1 in every family (erp accepted 0, mgmt refused it)', async () => {
    for (const args of [
      ['erp', 'sales-orders', 'list', '--top', '0'],
      ['erp', 'currencies', 'export', '--top', '0', '-o', 'csv'],
      ['mgmt', 'health', 'events', 'list', '--top', '0'],
      ['mgmt', 'version-sets', 'list', '-g', 'web', ...SVC, '--top', '0'],
    ]) {
      const r = await e2e.run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/--top.*(at least 1|from 1)/);
    }
    expect(e2e.emu.log.filter((l) => l.family !== 'control')).toEqual([]);
  });
});
