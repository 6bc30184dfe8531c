// The check commands printed for rows with an unknown outcome are pasted into a shell as they are.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/api/erp/bulk.js';
import { findSet } from '../../src/model/erp/index.js';

const people = findSet('salespeople')!;

describe('check commands', () => {
  it('name the rows by a key, one OData literal each', () => {
    expect(checkCommand(people, 'code', ['L1'])).toBe(`vx erp salespeople list --filter "code eq 'L1'"`);
    // one field's eq conditions joined by or, which every version of the service runs (`in` needs $schemaversion=2.1: a 501 without it)
    expect(checkCommand(people, 'code', ["O'Neil", 'B'])).toBe(`vx erp salespeople list --filter "code eq 'O''Neil' or code eq 'B'"`);
    expect(checkCommand(people, 'code', [])).toBeUndefined();
  });

  it('a value from the input is taken literally by the shell the command is pasted into: nothing in it runs', () => {
    const values = ['$(echo ran)', '`echo ran`', 'a"b', 'back\\slash', '${HOME}'];
    const cmd = checkCommand(people, 'code', values)!;
    const arg = cmd.slice('vx erp salespeople list --filter '.length);
    expect(execFileSync('sh', ['-c', `printf '%s' ${arg}`], { encoding: 'utf8' })).toBe(values.map((v) => `code eq '${v}'`).join(' or '));
  });
});
