import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeUtf8, readAllBytes, readAllStdin, readBodyArg, readJsonArg } from '../../src/core/input.js';

const stdin = (data: string | Buffer) => Readable.from([typeof data === 'string' ? Buffer.from(data) : data]);

describe('input', () => {
  it('decodes UTF-8 strictly and drops one leading BOM', () => {
    expect(decodeUtf8(Buffer.from('\uFEFF\uFEFFx'), 'f')).toBe('\uFEFFx');
    expect(decodeUtf8(Buffer.from('日本\r\n'), 'f')).toBe('日本\r\n');
    expect(() => decodeUtf8(Buffer.from([0xc3, 0x28]), 'the file')).toThrow(new UsageError('the file is not valid UTF-8'));
    expect(() => decodeUtf8(Buffer.from([0xed, 0xa0, 0x80]), 'x')).toThrow(UsageError); // a lone surrogate
  });
  it('readAllBytes: a file in one read, - from stdin; missing and directory paths are usage errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vx-input-'));
    writeFileSync(join(dir, 'a.csv'), 'code\nA\n');
    expect(await readAllBytes(join(dir, 'a.csv'))).toEqual({ name: join(dir, 'a.csv'), bytes: Buffer.from('code\nA\n') });
    expect(await readAllBytes('-', () => stdin('x,y'))).toEqual({ name: 'standard input', bytes: Buffer.from('x,y') });
    await expect(readAllBytes(join(dir, 'none.csv'))).rejects.toThrow(new UsageError(`cannot read ${join(dir, 'none.csv')}: no such file`));
    await expect(readAllBytes(dir)).rejects.toThrow(new UsageError(`cannot read ${dir}: it is a directory`));
  });
  it('reads stdin whole, across chunks split inside a character', async () => {
    const bytes = Buffer.from('añ日');
    expect(await readAllStdin(Readable.from([bytes.subarray(0, 2), bytes.subarray(2, 4), bytes.subarray(4)]))).toBe('añ日');
  });
  it('--data: JSON text, @file, -; empty and malformed are usage errors naming the source', async () => {
    expect(await readJsonArg('{"a":1}', stdin(''))).toEqual({ a: 1 });
    expect(await readJsonArg('-', stdin('\uFEFF[1]\r\n'))).toEqual([1]);
    await expect(readJsonArg('-', stdin(' \n'))).rejects.toThrow('--data: standard input is empty');
    await expect(readJsonArg('{bad', stdin(''), '--body')).rejects.toThrow(/^--body is not valid JSON/);
    await expect(readJsonArg('@/nonexistent/x.json', stdin(''))).rejects.toThrow('cannot read /nonexistent/x.json: no such file');
    expect(await readBodyArg('plain', stdin(''))).toBe('plain');
    expect(await readBodyArg('-', stdin('a\r\nb'))).toBe('a\r\nb');
    await expect(readBodyArg('-', stdin(''))).rejects.toThrow('--data: standard input is empty; nothing was sent');
    await expect(readBodyArg('', stdin(''))).rejects.toThrow('--data is empty; nothing was sent');
  });
});
