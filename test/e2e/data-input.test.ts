// Input edge cases for --data (vx api) and --data/stdin (vx erp create): empty, invalid UTF-8,
// CRLF, a BOM, one 60,000-character line, a directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const dir = tempDir();
afterAll(() => removeDir(dir));
const company = () => e2e.emu.state.erp.defaultCompany as string;
const currencies = () => `/api/v1.0/companies(${company()})/currencies`;
const codes = () => (e2e.emu.state.erp.data[company()].currencies as { code: string }[]).map((c) => c.code);
const INVALID_UTF8 = Buffer.from([0x7b, 0x22, 0x63, 0x6f, 0x64, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"code":"\xff\xfe"}

describe('refused before anything is sent (exit 2)', () => {
  const cases: [string, string[], string | Buffer | undefined, RegExp][] = [
    ['empty stdin to vx api', ['api', 'POST', '/x', '--service', 'erp', '--data', '-'], '', /^vx: --data: standard input is empty; nothing was sent\n$/],
    ['empty --data text', ['api', 'POST', '/x', '--service', 'erp', '--data', ''], undefined, /^vx: --data is empty; nothing was sent\n$/],
    ['empty stdin to erp create', ['erp', 'currencies', 'create', '--data', '-'], '', /^vx: --data: standard input is empty\n$/],
    ['whitespace-only stdin to erp create', ['erp', 'currencies', 'create', '--data', '-'], ' \r\n\t\n', /^vx: --data: standard input is empty\n$/],
    ['invalid UTF-8 to vx api', ['api', 'POST', '/x', '--service', 'erp', '--data', '-'], INVALID_UTF8, /^vx: standard input is not valid UTF-8\n$/],
    ['invalid UTF-8 to erp create', ['erp', 'currencies', 'create', '--data', '-'], INVALID_UTF8, /^vx: standard input is not valid UTF-8\n$/],
    ['malformed JSON to erp create', ['erp', 'currencies', 'create', '--data', '-'], '{"code": "X",}', /^vx: --data: standard input is not valid JSON \(.*\)\n$/],
    ['a directory as @file', ['api', 'POST', '/x', '--service', 'erp', '--data', `@${dir}`], undefined, /^vx: cannot read .*: it is a directory\n$/],
  ];
  for (const [name, args, input, re] of cases) {
    it(name, async () => {
      const r = await e2e.run(args, { input });
      expect(r.stderr).toMatch(re);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(e2e.emu.count()).toBe(0);
    });
  }
  it('an invalid UTF-8 file', async () => {
    const f = join(dir, 'bad.json');
    writeFileSync(f, INVALID_UTF8);
    const r = await e2e.run(['erp', 'currencies', 'create', '--data', `@${f}`]);
    expect(r.stderr).toBe(`vx: ${f} is not valid UTF-8\n`);
    expect(r.code).toBe(2);
  });
});

describe('handled', () => {
  it('CRLF line ends: vx api sends the bytes as given; erp create parses them', async () => {
    const text = '{\r\n  "code": "XCR",\r\n  "displayName": "Crlf"\r\n}\r\n';
    const a = await e2e.run(['api', 'POST', currencies(), '--service', 'erp', '--data', '-'], { input: text });
    expect(a.code).toBe(0);
    expect(e2e.emu.log[0].body).toBe(text);
    const f = join(dir, 'crlf.json');
    writeFileSync(f, '{"code":"XCF",\r\n"displayName":"Crlf file"}\r\n');
    const b = await e2e.run(['erp', 'currencies', 'create', '--data', `@${f}`]);
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    expect(JSON.parse(e2e.emu.log[1].body!)).toEqual({ code: 'XCF', displayName: 'Crlf file' });
    expect(codes()).toEqual(expect.arrayContaining(['XCR', 'XCF']));
  });

  it('a UTF-8 BOM is dropped from stdin and files (never sent)', async () => {
    const a = await e2e.run(['api', 'POST', currencies(), '--service', 'erp', '--data', '-'], { input: '\uFEFF{"code":"XBA"}' });
    expect(a.code).toBe(0);
    expect(e2e.emu.log[0].body).toBe('{"code":"XBA"}');
    expect(e2e.emu.log[0].headers?.['content-type']).toBe('application/json');
    const f = join(dir, 'bom.json');
    writeFileSync(f, '\uFEFF{"code":"XBF","displayName":"Bom ü"}\n');
    const b = await e2e.run(['erp', 'currencies', 'create', '--data', `@${f}`]);
    expect(b.code).toBe(0);
    expect(JSON.parse(e2e.emu.log[1].body!)).toEqual({ code: 'XBF', displayName: 'Bom ü' });
    const c = await e2e.run(['erp', 'currencies', 'create', '--data', '-'], { input: '\uFEFF{"code":"XBS"}\r\n' });
    expect(c.code).toBe(0);
    expect(codes()).toEqual(expect.arrayContaining(['XBA', 'XBF', 'XBS']));
  });

  it('a single 60,000-character line is sent exactly by vx api; erp create refuses the too-long field in one short line', async () => {
    const long = JSON.stringify({ code: 'XLL', displayName: 'y'.repeat(60_000) });
    expect(long.length).toBeGreaterThan(60_000);
    const a = await e2e.run(['api', 'POST', '/nowhere', '--service', 'erp', '--data', '-'], { input: long });
    expect(a.code).toBe(4);
    expect(e2e.emu.log[0].body).toBe(long);
    const b = await e2e.run(['erp', 'currencies', 'create', '--data', '-'], { input: long });
    expect(b.stdout).toBe('');
    expect(b.stderr).toMatch(/^vx: --data field "displayName": is 60000 characters long; at most 30 allowed \(got "y{76}…\)\n$/);
    expect(b.code).toBe(2);
    expect(e2e.emu.count({ method: 'POST' })).toBe(1);
    expect(codes()).not.toContain('XLL');
  });

  it('non-JSON text is sent as is by vx api when -H names its Content-Type, without a JSON content type', async () => {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const r = await e2e.run(['api', 'POST', '/nowhere', '--service', 'erp', '--data', 'plain text ✓', '-H', 'Content-Type: text/plain']);
    expect(r.code).toBe(4);
    expect(e2e.emu.log[0].body).toBe('plain text ✓');
    expect(e2e.emu.log[0].headers?.['content-type']).toBe('text/plain');
  });
});
