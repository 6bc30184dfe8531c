// The tree is declared only as far as the command line needs (start-up time): every command's
// help must read exactly as in the whole tree, so placeholders cannot drift from the real thing.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

function walk(c: Command, path: string[] = [], out: { path: string[]; cmd: Command }[] = []) {
  out.push({ path, cmd: c });
  for (const sub of c.commands) walk(sub, [...path, sub.name()], out);
  return out;
}

function find(root: Command, path: string[]): Command | undefined {
  let c: Command | undefined = root;
  for (const w of path) c = c?.commands.find((s) => s.name() === w);
  return c;
}

describe('lazily declared command tree', () => {
  const full = walk(buildProgram());

  it('has the same root help as the whole tree', () => {
    expect(buildProgram([]).helpInformation()).toBe(buildProgram().helpInformation());
    expect(buildProgram(['--help']).helpInformation()).toBe(buildProgram().helpInformation());
  });

  it('gives every command the help it has in the whole tree when it is named', () => {
    expect(full.length).toBeGreaterThan(30);
    for (const { path, cmd } of full) {
      const lazy = find(buildProgram(path), path);
      expect(lazy, path.join(' ')).toBeDefined();
      expect([path.join(' '), lazy!.helpInformation()]).toEqual([path.join(' '), cmd.helpInformation()]);
    }
  });

  it('declares the options of a named command (an alias names it too)', () => {
    const p = buildProgram(['erp', 'salespeoplepurchasers', 'list', '--top', '3']);
    const list = find(p, ['erp', 'salespeople', 'list']);
    expect(list?.options.map((o) => o.long)).toContain('--top');
  });
});
