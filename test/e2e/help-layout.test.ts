// Help laid out as gh and az do: a group's commands first, its own options next, global options last.
import { describe, expect, it } from 'vitest';
import { runVxInProc } from '../helpers/inproc.js';

/** the section headings of a help text, in order */
const headings = (help: string) => help.split('\n').filter((l) => /^[A-Z][A-Za-z ]*:( |$)/.test(l)).map((l) => l.split(':')[0]);

describe('group help', () => {
  it('vx erp sales-orders --help: usage, commands, options, global options, nothing before the commands', async () => {
    const r = await runVxInProc(['erp', 'sales-orders', '--help']);
    expect(r.code).toBe(0);
    expect(headings(r.stdout)).toEqual(['Usage', 'Commands', 'Options', 'Global Options', 'Examples']);
    const lines = r.stdout.split('\n');
    // the first command follows the description directly: no global option in between
    expect(lines.slice(0, lines.indexOf('Commands:')).join('\n')).not.toContain('--profile');
    expect(lines[lines.indexOf('Commands:') + 1]).toMatch(/^ {2}list \[options\] +list sales order records/);
  });

  it('every group (vx, vx erp, vx mgmt quota, vx profile) lists its commands before any option', async () => {
    for (const args of [[], ['erp'], ['mgmt', 'quota'], ['profile'], ['emulator']]) {
      const r = await runVxInProc([...args, '--help']);
      const h = headings(r.stdout);
      expect(h[1], args.join(' ')).toBe('Commands');
      expect(h.indexOf('Options'), args.join(' ')).toBeGreaterThan(1);
      if (args.length) expect(h.at(-1) === 'Global Options' || h.at(-2) === 'Global Options', args.join(' ')).toBe(true);
    }
  });

  it('a leaf command keeps arguments, options, then global options', async () => {
    const r = await runVxInProc(['erp', 'sales-orders', 'get', '--help']);
    const h = headings(r.stdout);
    expect(h.slice(0, 4)).toEqual(['Usage', 'Arguments', 'Options', 'Global Options']);
    expect(h).not.toContain('Commands');
  });
});
