// Pay once, end to end against the emulator: duplicates sent once per run with the output unchanged,
// the translation memory (second run sends nothing; two processes at once; a crash leaves it valid;
// bad files refused naming the path, exit 2, untouched), --estimate, --budget, throttling waited out,
// and the memory commands (stats, TMX export/import, prune).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { BIN, baseEnv, removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const dir = tempDir('vx-tm-e2e-');
afterAll(() => removeDir(dir));

interface Call {
  texts: string[];
  billed: number;
}
const calls = () => (e2e.emu.state.translator as { calls: Call[] }).calls;
const sentTexts = () => calls().flatMap((c) => c.texts);
const UI = ['Save', 'Cancel', 'Open file', 'Save', 'Save', '', 'Cancel'];

function file(name: string, lines: string[]): string {
  const p = join(dir, name);
  writeFileSync(p, lines.map((l) => `${l}\n`).join(''));
  return p;
}

/**
 * vx under a file size limit of `blocks` (sh counts 512-byte blocks), as on a full disk: writes past
 * it fail (EFBIG) instead of killing the process (SIGXFSZ ignored)
 */
/**
 * Another process that takes the memory's write lock and keeps it `ms`: at once (it prints a line
 * once it holds it), or once the file `when` exists (it prints a line when it is ready).
 */
function holdLock(mem: string, ms: number, when?: string): ChildProcess {
  return spawn(process.execPath, ['--input-type=module', '-e', `
    import { existsSync } from 'node:fs';
    import { open } from 'lmdb';
    const db = open({ path: ${JSON.stringify(mem)}, noSubdir: true });
    const when = ${JSON.stringify(when ?? null)};
    if (when) { console.log('ready'); while (!existsSync(when)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5); }
    db.transactionSync(() => { db.putSync('held', 'x'); console.log('locked'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms}); });
  `], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
}

function runUnderFileLimit(blocks: number, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', `trap "" XFSZ; ulimit -f ${blocks}; exec "$0" "$@"`, process.execPath, BIN, ...args], { env: { ...baseEnv(e2e.configDir), ...e2e.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('dedupe within a run', () => {
  it('sends each distinct text once; -o json is what the service answers item by item', async () => {
    const lines = Array.from({ length: 700 }, (_, i) => UI[i % UI.length]);
    const r = await e2e.run(['translate', '--to', 'de,fr', '-f', file('ui.txt', lines), '-o', 'json', '--verbose']);
    expect(r.code).toBe(0);
    expect(sentTexts()).toEqual(['Save', 'Cancel', 'Open file', '']);
    expect(calls().map((c) => c.billed)).toEqual([2 * (4 + 6 + 9)]);
    // each distinct text alone, as the service answers it
    const one = new Map<string, unknown>();
    for (const t of new Set(lines)) {
      const s = await e2e.run(['translate', '--to', 'de,fr', '-o', 'json', t === '' ? '' : t]);
      one.set(t, JSON.parse(s.stdout)[0]);
    }
    expect(r.stdout).toBe(`${JSON.stringify(lines.map((l) => one.get(l)), null, 2)}\n`);
    // --verbose ends with the summary (each request's line comes before it)
    expect(r.stderr).toMatch(/^POST \S+ -> 200 in \d+ ms \(request id [^)]+\)\ntranslated 700 items in 1 request; billed characters: 38 \(X-Metered-Usage of 1 request\)\nmemory hits: 0; duplicates not sent: 696; distinct texts sent: 4; effective rate: [\d,]+ billed characters a minute; throttled \(429\): 0\n$/);
  });
});

describe('dedupe over more lines than the reader may hold ahead', () => {
  it('25,000 lines of 8 distinct strings from a file: one request, every line answered in order', async () => {
    const strings = ['Save', 'Cancel', 'Open file', 'Close', 'Settings', 'Delete item', 'Are you sure?', 'Export all rows to spreadsheet'];
    const lines = Array.from({ length: 25_000 }, (_, i) => strings[(i * 7 + (i >> 3)) % strings.length]);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', file('many.txt', lines)]);
    expect(r.code).toBe(0);
    expect(calls().map((c) => c.texts.length)).toEqual([8]);
    const out = r.stdout.split('\n');
    expect(out.pop()).toBe('');
    expect(out).toHaveLength(25_000);
    const one = new Map(calls()[0].texts.map((t) => [t, '']));
    expect(new Set(out).size).toBe(one.size);
    expect(out[0]).toBe(out[lines.indexOf(lines[0], 1)]);
  });
});

describe('translation memory', () => {
  it('a second run sends nothing and writes the same; the profile setting works too, VX_TRANSLATE_MEMORY= turns it off', async () => {
    const mem = join(dir, 'a.tm');
    const input = file('a.txt', ['Good morning', 'Hello', 'Good morning']);
    const first = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input, '--memory', mem]);
    expect(first.code).toBe(0);
    expect(sentTexts()).toEqual(['Good morning', 'Hello']);
    e2e.emu.reset();
    const second = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input, '--verbose'], { env: { VX_TRANSLATE_MEMORY: mem } });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(calls()).toEqual([]);
    expect(second.stderr).toMatch(/^translated 3 items in 0 requests; billed characters: 0\nmemory hits: 2; duplicates not sent: 1; distinct texts sent: 0;/);
    // another option is another answer: sent
    await e2e.run(['translate', '--to', 'de', '--from', 'en', '--profanity-action', 'Deleted', '-f', input, '--memory', mem]);
    expect(sentTexts()).toEqual(['Good morning', 'Hello']);
    e2e.emu.reset();
    await e2e.run(['profile', 'set', 'translate.memory', mem]);
    await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input], { env: { VX_TRANSLATE_MEMORY: '' } });
    await e2e.run(['profile', 'unset', 'translate.memory']);
    expect(sentTexts()).toEqual(['Good morning', 'Hello']);
  });

  it('a memory path starting with ~ is in the home directory (a profile setting is not expanded by a shell, nor --memory=~/…)', async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, 'tm'), { recursive: true });
    const env = { HOME: home };
    await e2e.run(['profile', 'set', 'translate.memory', '~/tm/notes.tm']);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Hello'], { env, spawn: true });
    await e2e.run(['profile', 'unset', 'translate.memory']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(existsSync(join(home, 'tm', 'notes.tm'))).toBe(true);
    const stats = await e2e.run(['translate', 'memory', 'stats', '--memory=~/tm/notes.tm', '-o', 'json'], { env, spawn: true });
    expect(JSON.parse(stats.stdout)).toMatchObject({ path: join(home, 'tm', 'notes.tm'), entries: 1 });
    // VX_TRANSLATE_MEMORY set to blanks is set empty (no memory), not a file named " "
    const r2 = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Hello'], { env: { ...env, VX_TRANSLATE_MEMORY: ' ' }, cwd: home });
    expect([r2.code, r2.stderr]).toEqual([0, '']);
    expect(readdirSync(home)).toEqual(['tm']);
  });

  it('a target added to a run that went before is the only one paid for: sent for the texts the memory holds for the others; output as one request would give', async () => {
    const mem = join(dir, 'added.tm');
    const input = file('added.txt', ['Good morning', 'Hello', 'Good morning', 'Goodbye']);
    expect((await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', file('first.txt', ['Good morning', 'Hello']), '--memory', mem])).code).toBe(0);
    e2e.emu.reset();
    const r = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '-f', input, '--memory', mem, '-o', 'json', '--verbose']);
    expect(r.code).toBe(0);
    // Good morning and Hello to fr alone; Goodbye (in no memory) to both
    const sent = calls().map((c) => ({ query: new URLSearchParams((c as Call & { query: string }).query).getAll('to'), texts: c.texts, billed: c.billed }));
    expect(sent.sort((a, b) => a.query.length - b.query.length)).toEqual([
      { query: ['fr'], texts: ['Good morning', 'Hello'], billed: 17 },
      { query: ['de', 'fr'], texts: ['Goodbye'], billed: 14 },
    ]);
    expect(r.stderr).toMatch(/^(POST .*\n){2}translated 4 items in 2 requests; billed characters: 31 \(X-Metered-Usage of 2 requests\)\nmemory hits: 0 \(and 2 for some targets, sent for the others only\); duplicates not sent: 1; distinct texts sent: 3;/);
    // exactly what the service answers when asked for both (without a memory)
    e2e.emu.reset();
    const plain = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '-f', input, '-o', 'json']);
    expect(r.stdout).toBe(plain.stdout);
    // the memory now holds both targets: nothing is sent
    e2e.emu.reset();
    const again = await e2e.run(['translate', '--to', 'fr,de', '--from', 'en', '-f', input, '--memory', mem, '--estimate']);
    expect(JSON.parse(again.stdout)).toMatchObject({ memoryHits: 3, partialHits: 0, billedCharacters: 0 });
    // --dry-run shows the request to the missing target
    const dry = await e2e.run(['translate', '--to', 'de,it', '--from', 'en', '-f', input, '--memory', mem, '--dry-run', '-o', 'json']);
    const planned = JSON.parse(dry.stdout) as { url: string; body: { Text: string }[] }[];
    expect(planned.map((p) => [new URL(p.url).searchParams.getAll('to'), p.body.map((b) => b.Text)])).toEqual([[['it'], ['Good morning', 'Hello', 'Goodbye']]]);
    expect(calls()).toEqual([]);
  });

  it('--estimate sends nothing and counts items, duplicates, memory hits and billed characters', async () => {
    const mem = join(dir, 'est.tm');
    await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, 'Hello']);
    e2e.emu.reset();
    const r = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '--memory', mem, '--estimate', '-f', file('est.txt', ['Hello', 'Hello', 'Good day', 'Hello'])]);
    expect(r.code).toBe(0);
    // Hello is in the memory for de only: sent for fr alone (5 x 1), Good day to both (8 x 2)
    expect(JSON.parse(r.stdout)).toEqual({ items: 4, distinct: 2, duplicates: 2, memoryHits: 0, partialHits: 1, toSend: 2, characters: 13, targets: 2, billedCharacters: 21 });
    const de = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, '--estimate', '-f', join(dir, 'est.txt')]);
    expect(JSON.parse(de.stdout)).toMatchObject({ memoryHits: 1, toSend: 1, billedCharacters: 8 });
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
    // an estimate never creates the memory
    const none = await e2e.run(['translate', '--to', 'de', '--memory', join(dir, 'never.tm'), '--estimate', 'x']);
    expect(JSON.parse(none.stdout)).toMatchObject({ toSend: 1 });
    expect(existsSync(join(dir, 'never.tm'))).toBe(false);
  });

  it('--estimate and --dry-run of a pipe refuse a line no request can carry, naming its line as the run does (exit 2)', async () => {
    // (a regular file is checked whole first; a pipe was counted as if the line could be sent, and --dry-run named the distinct text's index)
    // 30,000 characters to two targets can be carried (one request per target): counted and planned so
    const input = `a\na\n${'b'.repeat(30_000)}\n`;
    const est = await e2e.run(['translate', '--to', 'de,fr', '--estimate', '-o', 'json'], { input });
    expect(est.code).toBe(0);
    expect(JSON.parse(est.stdout)).toMatchObject({ items: 3, distinct: 2, duplicates: 1, toSend: 2, characters: 30_001, billedCharacters: 60_002 });
    const plan = await e2e.run(['translate', '--to', 'de,fr', '--dry-run'], { input });
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout).map((q: any) => [new URL(q.url).searchParams.getAll('to').join(','), q.body.length])).toEqual([['de,fr', 1], ['de', 1], ['fr', 1]]);
    const long = await e2e.run(['translate', '--to', 'de', '--estimate'], { input: `x\n${'c'.repeat(50_001)}\n` });
    expect([long.code, long.stderr]).toEqual([2, 'vx: line 2 of standard input is too long: 50,001 characters; one item may have at most 50,000; nothing was sent\n']);
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
  });

  it('--budget translates what fits: the batch that would cross it is cut there, exit 6, the translated part written, the rest named', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `item ${String(i).padStart(4, '0')}`); // 9 characters each
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--concurrency', '1', '--budget', '10000', '-f', file('budget.txt', lines)]);
    expect(r.code).toBe(6);
    // 1,111 lines of 9 characters fit 10,000: the second batch of 1,000 is sent as 111 and 889, which stops
    expect(r.stdout.split('\n').slice(0, -1)).toHaveLength(1111);
    expect(r.stdout.split('\n')[1110]).toBe('[de] îţéɱ 1110');
    expect(r.stderr).toBe('vx: --budget 10,000 characters reached: 9,999 billed so far, the next request would bill 8,001 more\nnot translated: lines 1,112-2,500; the output holds lines 1-1,111\n');
    expect(calls().map((c) => c.billed)).toEqual([9000, 999]);
    // --verbose counts the texts sent, not those the budget kept back (it said 2,500)
    const v = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--concurrency', '1', '--budget', '10000', '-f', join(dir, 'budget.txt'), '--verbose', '-o', 'none']);
    expect(v.stderr).toMatch(/\ntranslated 1,111 items in 2 requests; billed characters: 9,999 \(X-Metered-Usage of 2 requests\)\nmemory hits: 0; duplicates not sent: 0; distinct texts sent: 1,111; /);
    for (const bad of ['-1', '1.5', '2k', 'abc', '']) {
      const r = await e2e.run(['translate', '--to', 'de', '--budget', bad, 'x']);
      expect([r.code, r.stderr]).toEqual([2, `vx: invalid value "${bad}" for --budget: expected a whole number of characters from 0, e.g. 2000000\n`]);
    }
    // a whole number, too large to count exactly: said as such
    const huge = await e2e.run(['translate', '--to', 'de', '--budget', '99999999999999999999', 'x']);
    expect([huge.code, huge.stderr]).toEqual([2, 'vx: invalid value "99999999999999999999" for --budget: at most 9,007,199,254,740,991 characters\n']);
  });

  it('--dry-run and --estimate with --budget plan the run: the requests up to the one that would cross it, then its exit 6 and message', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `item ${String(i).padStart(4, '0')}`); // 9 characters each, 1,000 a request
    const input = file('budget-dry.txt', lines);
    const stop = 'vx: --budget 10,000 characters reached: 9,999 billed so far, the next request would bill 8,001 more\nnot translated: lines 1,112-2,500; the output holds lines 1-1,111\n';
    const dry = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--budget', '10000', '-f', input, '--dry-run', '-o', 'json']);
    expect([dry.code, dry.stderr]).toEqual([6, stop]);
    const planned = JSON.parse(dry.stdout) as { body: { Text: string }[] }[];
    expect(planned.map((p) => [p.body[0].Text, p.body.length])).toEqual([['item 0000', 1000], ['item 1000', 111]]);
    // within the budget: every request, exit 0
    const all = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--budget', '22500', '-f', input, '--dry-run', '-o', 'json']);
    expect([all.code, all.stderr, (JSON.parse(all.stdout) as unknown[]).length]).toEqual([0, '', 3]);
    // --estimate counts the whole input and says where the budget stops the run
    const est = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--budget', '10000', '-f', input, '--estimate', '-o', 'json']);
    expect([est.code, est.stderr]).toEqual([6, stop]);
    expect(JSON.parse(est.stdout)).toMatchObject({ items: 2500, toSend: 2500, billedCharacters: 22500 });
    const fits = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--budget', '22500', '-f', input, '--estimate', '-o', 'json']);
    expect([fits.code, fits.stderr]).toEqual([0, '']);
    expect(calls()).toEqual([]);
  });

  it('--budget 0 bills nothing: what the memory holds is written, the first text it lacks stops the run (exit 6)', async () => {
    const mem = join(dir, 'budget0.tm');
    expect((await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, 'Hello', 'Goodbye'])).code).toBe(0);
    e2e.emu.reset();
    const held = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, '--budget', '0', 'Goodbye', 'Hello', 'Goodbye']);
    expect([held.code, held.stdout, held.stderr]).toEqual([0, '[de] Ĝööðƀýé\n[de] Ĥéļļö\n[de] Ĝööðƀýé\n', '']);
    const lacking = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, '--budget', '0', 'Hello', 'New', 'Hello']);
    expect([lacking.code, lacking.stdout]).toEqual([6, '[de] Ĥéļļö\n']);
    expect(lacking.stderr).toBe('vx: --budget 0 characters reached: 0 billed so far, the next request would bill 3 more\nnot translated: arguments 2-3; the output holds argument 1\n');
    // --dry-run plans the same: no request, the same stop
    const dry = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, '--budget', '0', '--dry-run', 'Hello', 'New', 'Hello']);
    expect([dry.code, dry.stdout, dry.stderr]).toEqual([6, '', lacking.stderr]);
    expect(calls()).toEqual([]);
  });

  it('a bad --max-chars-per-minute, or translate.maxRate, is a usage error naming where it came from (the variable, the profile), nothing sent', async () => {
    const expected = (v: string, where: string) => `vx: invalid value "${v}" for ${where}: expected a whole number of characters from 1, e.g. 2000000\n`;
    for (const v of ['0', '-1', '1.5', '2k', 'abc']) {
      const r = await e2e.run(['translate', '--to', 'de', 'x', '--max-chars-per-minute', v]);
      expect([r.code, r.stderr]).toEqual([2, expected(v, '--max-chars-per-minute')]);
    }
    const env = await e2e.run(['translate', '--to', 'de', 'x'], { env: { VX_TRANSLATE_MAX_RATE: 'fast' } });
    expect([env.code, env.stderr]).toEqual([2, expected('fast', 'VX_TRANSLATE_MAX_RATE (the translate.maxRate setting)')]);
    const configDir = tempDir('vx-maxrate-');
    try {
      // profile set refuses it; a hand-edited config file is checked when used
      const set = await e2e.run(['profile', 'set', 'translate.maxRate', '0'], { configDir });
      expect([set.code, set.stderr]).toEqual([2, 'vx: invalid value "0" for translate.maxRate: expected a whole number of characters from 1, e.g. 2000000\n']);
      writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: { 'translate.maxRate': '0' } } }));
      const profile = await e2e.run(['translate', '--to', 'de', 'x'], { configDir });
      expect([profile.code, profile.stderr]).toEqual([2, expected('0', 'the translate.maxRate setting of profile "default"')]);
      // the flag wins over the setting
      expect((await e2e.run(['translate', '--to', 'de', 'x', '--max-chars-per-minute', '2,000,000'], { configDir })).code).toBe(0);
    } finally {
      removeDir(configDir);
    }
    expect(e2e.emu.count({ family: 'translator' })).toBe(1);
  });

  it('--budget with a format that needs the whole result (yaml, table, --query): what was translated is still written, as the hint says', async () => {
    // (they printed nothing while the second line said "the output holds lines 1-1,000")
    const lines = Array.from({ length: 1500 }, (_, i) => `item ${String(i).padStart(4, '0')}`);
    const input = file('budget-kept.txt', lines);
    const hint = 'not translated: lines 1,112-1,500; the output holds lines 1-1,111\n';
    const q = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--budget', '10000', '-f', input, '-o', 'json', '--query', '[-1].translations[0].text']);
    expect([q.code, q.stdout, q.stderr.split('\n')[1] + '\n']).toEqual([6, '"[de] îţéɱ 1110"\n', hint]);
    const y = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--budget', '10000', '-f', input, '-o', 'yaml']);
    expect(y.code).toBe(6);
    expect(y.stdout.match(/^- translations:$/gm)).toHaveLength(1111);
    const t = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--budget', '10000', '-f', input, '-o', 'table']);
    expect(t.code).toBe(6);
    expect(t.stdout.split('\n').filter((l) => l.startsWith('item '))).toHaveLength(1111);
    expect(t.stderr).toBe(`vx: --budget 10,000 characters reached: 9,999 billed so far, the next request would bill 3,501 more\n${hint}`);
  });

  it('a throttled run waits 429s out and they teach the pacer (a service answering only 429 meets --retries: exit 6)', async () => {
    e2e.emu.setFaults('translator/429:3x,retry-after:1');
    // the three 1 s waits on a fake clock
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--verbose', 'Hello'], { clock: new FakeClock() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[de] Ĥéļļö\n');
    expect(e2e.emu.log.filter((l) => l.family === 'translator').map((l) => l.status)).toEqual([429, 429, 429, 200]);
    expect(r.stderr).toMatch(/throttled \(429\): 3; limit learned: [\d,]+ characters a minute\n/);
  });

  it('a file that is not a memory is refused naming it (exit 2), nothing sent, the file untouched', async () => {
    const notes = file('notes.txt', ['my notes']);
    const r = await e2e.run(['translate', '--to', 'de', '--memory', notes, 'Hello']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`vx: translation memory ${notes}: not a translation memory (another format, or damaged); vx does not overwrite it\n`);
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n');
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
    const missing = await e2e.run(['translate', 'memory', 'stats', '--memory', join(dir, 'nope.tm')]);
    expect(missing.stderr).toBe(`vx: translation memory ${join(dir, 'nope.tm')}: no such file\n`);
    expect(missing.code).toBe(2);
  });

  it('an empty file (touch) holds nothing: the commands that only read it answer as for an empty memory instead of crashing, and leave it empty', async () => {
    const mem = join(dir, 'empty.tm');
    writeFileSync(mem, '');
    const stats = await e2e.run(['translate', 'memory', 'stats', '--memory', mem, '-o', 'json']);
    expect(stats.stderr).toBe('');
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toEqual({ path: mem, entries: 0, bytes: 0, pairs: {} });
    const ex = await e2e.run(['translate', 'memory', 'export', '--memory', mem]);
    expect([ex.code, ex.stdout.split('<tu ').length]).toEqual([0, 1]);
    expect(ex.stdout).toMatch(/<body>\n {2}<\/body>\n<\/tmx>\n$/);
    const est = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, '--estimate', '-o', 'json', 'Hello']);
    expect(est.code).toBe(0);
    expect(JSON.parse(est.stdout)).toMatchObject({ items: 1, memoryHits: 0, billedCharacters: 5 });
    expect((await e2e.run(['translate', 'memory', 'prune', '--memory', mem, '--all', '--dry-run'])).code).toBe(0);
    expect(readFileSync(mem, 'utf8')).toBe('');
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
    // a run that writes makes it a memory
    expect((await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, 'Hello'])).code).toBe(0);
    expect(JSON.parse((await e2e.run(['translate', 'memory', 'stats', '--memory', mem, '-o', 'json'])).stdout)).toMatchObject({ entries: 1 });
  });

  it('a lock file LMDB cannot open (here a directory in its place; also one it may not write) is refused naming it (exit 2) instead of crashing', async () => {
    const mem = join(dir, 'lockdir.tm');
    expect((await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, 'Hello'])).code).toBe(0);
    rmSync(`${mem}-lock`);
    mkdirSync(`${mem}-lock`);
    e2e.emu.reset();
    for (const args of [['translate', '--to', 'de', '--from', 'en', '--memory', mem, 'Goodbye'], ['translate', 'memory', 'stats', '--memory', mem]]) {
      const r = await e2e.run(args);
      expect(r.stderr).toBe(`vx: translation memory ${mem}: its lock file ${mem}-lock is not a file\n`);
      expect(r.code).toBe(2);
    }
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
  });

  it('prune of a memory that does not exist, or of a language code that is not one, is refused (exit 2) and changes nothing', async () => {
    const mem = join(dir, 'typo.tm');
    const r = await e2e.run(['translate', 'memory', 'prune', '--memory', mem, '--all', '--yes']);
    expect(r.stderr).toBe(`vx: translation memory ${mem}: no such file\n`);
    expect(r.code).toBe(2);
    expect(existsSync(mem)).toBe(false);
    expect(existsSync(`${mem}-lock`)).toBe(false);
    // a typo in a language would remove nothing and say so with exit 0
    const real = join(dir, 'langs.tm');
    await e2e.run(['translate', '--to', 'de', '--memory', real, 'Hello']);
    for (const [flag, value] of [['--to', 'german'], ['--from', 'e n']]) {
      const bad = await e2e.run(['translate', 'memory', 'prune', '--memory', real, flag, value, '--yes']);
      expect(bad.stderr).toBe(`vx: invalid language code "${value}" for ${flag}: expected a code like de, pt-PT or zh-Hans\n`);
      expect(bad.code).toBe(2);
    }
    const auto = await e2e.run(['translate', 'memory', 'prune', '--memory', real, '--from', 'auto', '--to', 'DE', '--yes', '-o', 'json']);
    expect(JSON.parse(auto.stdout)).toEqual({ removed: 1, remaining: 0, memory: real });
  });

  it('a memory cut short (an interrupted copy) is refused naming it (exit 2) instead of crashing, nothing sent, the file untouched', async () => {
    const mem = join(dir, 'cut.tm');
    expect((await e2e.run(['translate', '--to', 'de', '--memory', mem, '-f', file('many.txt', Array.from({ length: 2000 }, (_, i) => `line ${i}`))])).code).toBe(0);
    const whole = readFileSync(mem);
    const pages = whole.length / 4096;
    writeFileSync(mem, whole.subarray(0, 4 * 4096));
    e2e.emu.reset();
    for (const args of [['translate', '--to', 'de', '--memory', mem, 'Hello'], ['translate', 'memory', 'stats', '--memory', mem]]) {
      const r = await e2e.run(args);
      expect(r.stderr).toBe(`vx: translation memory ${mem}: damaged (it has 4 pages of the ${pages} its header counts: cut short?); vx does not overwrite it\n`);
      expect(r.code).toBe(2);
    }
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
    expect(readFileSync(mem).equals(whole.subarray(0, 4 * 4096))).toBe(true);
  });

  it('a memory locked by another process past the timeout: exit 2 naming it and the process, nothing sent', async () => {
    const mem = join(dir, 'locked.tm');
    await e2e.run(['translate', '--to', 'de', '--memory', mem, 'x']);
    e2e.emu.reset();
    const holder = holdLock(mem, 5000);
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const r = await e2e.run(['translate', '--to', 'de', '--memory', mem, 'Hello'], { spawn: true, env: { VX_TRANSLATE_MEMORY_LOCK_MS: '500' } });
    holder.kill();
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`vx: translation memory ${mem}: locked by process ${holder.pid} (node) for more than 1 s\n`);
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
  });

  // the answer had arrived, its write queued behind the other process's lock: vx said nothing and
  // took ~3 s to leave on SIGTERM (the process waited for the write as it exited)
  it("SIGTERM while the answer waits for another process's lock: said who holds it, gone at once (143)", async () => {
    const mem = join(dir, 'locked-late.tm');
    const go = join(dir, 'locked-late.go');
    await e2e.run(['translate', '--to', 'de', '--memory', mem, 'x']);
    // the holder takes the lock once the request is out (its answer comes 1.5 s later)
    const holder = holdLock(mem, 20_000, go);
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    e2e.emu.setFaults('latency:1500');
    let stoppedAt = 0;
    const r = await e2e.run(['translate', '--to', 'de', '--memory', mem, '--debug', 'Hello'], {
      onSpawn: (child) => {
        child.stderr!.on('data', (c: Buffer) => {
          if (c.toString().includes('> POST ')) writeFileSync(go, '');
          if (!stoppedAt && c.toString().includes('is locked by')) (stoppedAt = Date.now()), child.kill('SIGTERM');
        });
      },
    });
    const leftAfter = Date.now() - stoppedAt;
    e2e.emu.setFaults('');
    holder.kill();
    expect(r.stderr).toContain(`\nwarning: translation memory ${mem} is locked by process ${holder.pid} (node): waiting for it, at most 15 s\n`);
    expect(r.stderr).toMatch(/\nvx: interrupted \(SIGTERM\)\n$/);
    // the write stays queued behind the lock: vx leaves by the signal itself (a shell sees 143)
    expect([r.code, r.signal]).toEqual([null, 'SIGTERM']);
    expect(leftAfter).toBeLessThan(1000);
  });

  it('two processes at once share one memory; a run killed mid-way leaves every stored entry valid', async () => {
    const mem = join(dir, 'shared.tm');
    const a = Array.from({ length: 3000 }, (_, i) => `a ${i}`);
    const b = Array.from({ length: 3000 }, (_, i) => `b ${i}`);
    // two processes (in one process the two runs' LMDB write transactions wait for each other)
    const [ra, rb] = await Promise.all([
      e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, '-f', file('pa.txt', a)], { spawn: true }),
      e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, '-f', file('pb.txt', b)], { spawn: true }),
    ]);
    expect([ra.code, rb.code, ra.stderr, rb.stderr]).toEqual([0, 0, '', '']);
    const stats = await e2e.run(['translate', 'memory', 'stats', '--memory', mem, '-o', 'json']);
    expect(JSON.parse(stats.stdout)).toMatchObject({ entries: 6000, pairs: { 'en>de': 6000 } });
    // killed while answers are being stored
    e2e.emu.setFaults('latency:200');
    const c = Array.from({ length: 20_000 }, (_, i) => `c ${i}`);
    await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, '--concurrency', '2', '-f', file('pc.txt', c)], {
      onSpawn: (child) => void setTimeout(() => child.kill('SIGKILL'), 1500),
    });
    e2e.emu.setFaults('');
    const after = await e2e.run(['translate', 'memory', 'export', '--memory', mem]);
    expect(after.code).toBe(0);
    const units = after.stdout.split('<tu ').length - 1;
    expect(units).toBeGreaterThanOrEqual(6000);
    e2e.emu.reset();
    const rerun = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, '-f', join(dir, 'pc.txt')]);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout.split('\n')).toHaveLength(20_001);
    expect(sentTexts()).toHaveLength(20_000 - (units - 6000));
  }, 60_000);
});

describe('a run with --out stopped by the service', () => {
  it('says that what was translated before the stop is in the memory (a rerun does not pay for it), not only that nothing was written', async () => {
    // a translator whose free quota runs out after the first request (403001)
    let n = 0;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const items = JSON.parse(body) as { Text: string }[];
        if (n++ > 0) {
          res.writeHead(403, { 'content-type': 'application/json', 'x-requestid': 'R2' }).end(JSON.stringify({ error: { code: 403001, message: 'The free quota is used up.' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(items.map(({ Text }) => ({ translations: [{ text: `de:${Text}`, to: 'de' }] }))));
      });
    });
    const url = await new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
    try {
      const input = file('quota.txt', Array.from({ length: 1500 }, (_, i) => `Line ${i}`));
      const mem = join(dir, 'quota.tm');
      const out = join(dir, 'quota.out');
      const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input, '--out', out, '--memory', mem, '--concurrency', '1'], { env: { VX_TRANSLATOR_ENDPOINT: url } });
      expect(r.code).toBe(3);
      expect(r.stderr.split('\n').slice(1)).toEqual([`not translated: lines 1,001-1,500; nothing was written to ${out}; lines 1-1,000 are in the translation memory: a rerun does not send them again`, '']);
      expect(existsSync(out)).toBe(false);
      n = 0;
      const again = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', input, '--out', out, '--memory', mem, '--budget', '0'], { env: { VX_TRANSLATOR_ENDPOINT: url } });
      expect(again.stderr).toMatch(/^vx: --budget 0 characters reached: 0 billed so far/);
      expect(again.stderr).toContain(`not translated: lines 1,001-1,500; nothing was written to ${out}; lines 1-1,000 are in the translation memory`);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('vx translate memory', () => {
  it('import names what is wrong with a file it cannot read: missing, a directory, a pipe (read twice: checked whole first)', async () => {
    const mem = join(dir, 'unread.tm');
    for (const [file, why] of [
      [join(dir, 'missing.tmx'), 'no such file'],
      [dir, 'it is a directory'],
      ['/dev/null', 'not a regular file (an import reads the file twice, checking it whole first, and a pipe cannot be read twice)'],
    ]) {
      const r = await e2e.run(['translate', 'memory', 'import', file, '--memory', mem]);
      expect(r.stderr).toBe(`vx: cannot read ${file}: ${why}\n`);
      expect(r.code).toBe(2);
    }
    expect(existsSync(mem)).toBe(false);
  });

  it("import skips a vendor's empty target segments (not translated yet) with a warning: those texts are translated, not answered empty", async () => {
    const file = join(dir, 'untranslated.tmx');
    const mem = join(dir, 'untranslated.tm');
    writeFileSync(
      file,
      '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en-US"/><body>\n' +
        '<tu><tuv xml:lang="en-US"><seg>Open</seg></tuv><tuv xml:lang="de-DE"><seg>Öffnen</seg></tuv></tu>\n' +
        '<tu><tuv xml:lang="en-US"><seg>Close</seg></tuv><tuv xml:lang="de-DE"><seg/></tuv></tu>\n</body></tmx>\n',
    );
    const imp = await e2e.run(['translate', 'memory', 'import', file, '--memory', mem]);
    expect([imp.code, JSON.parse(imp.stdout)]).toEqual([0, { imported: 1, memory: mem }]);
    expect(imp.stderr).toBe(`warning: ${file}: 1 target segment is empty (not translated yet): skipped, so that its text is translated, not answered with nothing\n`);
    const n = calls().length;
    const r = await e2e.run(['translate', '--from', 'en', '--to', 'de', '--memory', mem, 'Open', 'Close']);
    expect([r.code, r.stdout]).toEqual([0, 'Öffnen\n[de] Çļöšé\n']);
    expect(calls().slice(n).map((c) => c.texts)).toEqual([['Close']]);
  });

  it("prune --to/--from take a file's locale (de-DE, en-US, zh-CN) as translate file and import store it (de, en, zh-Hans)", async () => {
    const file = join(dir, 'locales.tmx');
    const mem = join(dir, 'locales.tm');
    writeFileSync(
      file,
      '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en-US"/><body>\n' +
        '<tu><tuv xml:lang="en-US"><seg>Open</seg></tuv><tuv xml:lang="de-DE"><seg>Öffnen</seg></tuv><tuv xml:lang="zh-CN"><seg>打开</seg></tuv><tuv xml:lang="fr-FR"><seg>Ouvrir</seg></tuv></tu>\n</body></tmx>\n',
    );
    expect((await e2e.run(['translate', 'memory', 'import', file, '--memory', mem])).code).toBe(0);
    const prune = async (...args: string[]) => JSON.parse((await e2e.run(['translate', 'memory', 'prune', '--memory', mem, '--yes', '-o', 'json', ...args])).stdout);
    // it said "removed 0" and left them
    expect(await prune('--to', 'de-DE')).toEqual({ removed: 1, remaining: 2, memory: mem });
    expect(await prune('--to', 'zh-CN', '--from', 'en-US')).toEqual({ removed: 1, remaining: 1, memory: mem });
    expect(await prune('--from', 'en-GB')).toEqual({ removed: 1, remaining: 0, memory: mem });
  });

  it('--out naming the memory itself (or a link to it) is refused and the memory is left whole: export, and a run', async () => {
    const mem = join(dir, 'self.tm');
    await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', mem, 'Hello']);
    const before = readFileSync(mem);
    symlinkSync(mem, join(dir, 'self-link.tm'));
    e2e.emu.reset();
    for (const out of [mem, join(dir, 'self-link.tm')]) {
      for (const args of [['translate', 'memory', 'export', '--memory', mem, '--out', out], ['translate', '--to', 'de', '--from', 'en', '--memory', mem, '--out', out, 'Goodbye']]) {
        const r = await e2e.run(args);
        expect(r.stderr).toBe(`vx: --out ${out} is the translation memory itself: name another file (nothing was written)\n`);
        expect(r.code).toBe(2);
      }
    }
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
    expect(readFileSync(mem).equals(before)).toBe(true);
    expect(JSON.parse((await e2e.run(['translate', 'memory', 'stats', '--memory', mem, '-o', 'json'])).stdout)).toMatchObject({ entries: 1 });
  });

  it('a full disk mid-import (here a file size limit) is one line naming the memory (exit 2), no stack trace; what was committed stays valid', async () => {
    const tmx = join(dir, 'fills.tmx');
    const units = Array.from({ length: 80_000 }, (_, i) => `<tu><tuv xml:lang="en"><seg>sentence ${i} that fills the disk</seg></tuv><tuv xml:lang="de"><seg>Satz ${i}</seg></tuv></tu>\n`);
    writeFileSync(tmx, `<?xml version="1.0"?>\n<tmx version="1.4"><header srclang="en"/><body>\n${units.join('')}</body></tmx>\n`);
    const mem = join(dir, 'full.tm');
    // writes past 4 MB fail
    const { code, stdout, stderr } = await runUnderFileLimit(8000, ['translate', 'memory', 'import', tmx, '--memory', mem]);
    expect(stderr).toBe(`vx: translation memory ${mem}: cannot write it: input/output error (a full disk?)\n`);
    expect([code, stdout]).toEqual([2, '']);
    const stats = await e2e.run(['translate', 'memory', 'stats', '--memory', mem, '-o', 'json']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout).entries).toBeGreaterThan(0);
  }, 60_000);

  it('translate file: a memory that cannot be written (a full disk) is named (exit 2) after the paid translations are written to the targets', async () => {
    const src = join(dir, 'fills-src', 'en.json');
    mkdirSync(join(dir, 'fills-src'), { recursive: true });
    // long texts under short keys: the memory (texts and translations, ~10 MB) outgrows the limit (7 MB in 512-byte blocks), the target (keys and translations, ~4 MB) does not
    writeFileSync(src, JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, `sentence ${i} that fills the disk `.repeat(6).trim()]))));
    const mem = join(dir, 'full-files.tm');
    const { code, stderr } = await runUnderFileLimit(14000, ['translate', 'file', src, '--to', 'de', '--memory', mem]);
    expect([code, stderr]).toEqual([2, `vx: translation memory ${mem}: cannot write it: input/output error (a full disk?)\nthe targets were written; the translations the memory could not store are sent again by the next run\n`]);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'fills-src', 'de.json'), 'utf8')))).toHaveLength(10_000);
  }, 60_000);

  it('Ctrl-C stops an export to standard output redirected to a file (written synchronously): exit 130', async () => {
    const tmx = join(dir, 'many.tmx');
    const units = Array.from({ length: 60_000 }, (_, i) => `<tu><tuv xml:lang="en"><seg>line ${i}</seg></tuv><tuv xml:lang="de"><seg>Zeile ${i}</seg></tuv></tu>\n`);
    writeFileSync(tmx, `<?xml version="1.0"?>\n<tmx version="1.4"><header srclang="en"/><body>\n${units.join('')}</body></tmx>\n`);
    const mem = join(dir, 'many.tm');
    expect((await e2e.run(['translate', 'memory', 'import', tmx, '--memory', mem])).code).toBe(0);
    const out = join(dir, 'many-out.tmx');
    const fd = openSync(out, 'w');
    const child = spawn(process.execPath, [BIN, 'translate', 'memory', 'export', '--memory', mem], { env: { ...baseEnv(e2e.configDir), ...e2e.env }, stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // once the export has begun (its header is written)
    while (statSync(out).size === 0) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toBe('vx: interrupted\n');
    expect(readFileSync(out, 'utf8')).not.toMatch(/<\/tmx>\n$/);
  }, 60_000);

  it('Ctrl-C stops an import between entries: exit 130, the entries imported so far are committed and counted', async () => {
    const tmx = join(dir, 'big.tmx');
    const units = Array.from({ length: 100_000 }, (_, i) => `<tu><tuv xml:lang="en"><seg>line ${i}</seg></tuv><tuv xml:lang="de"><seg>Zeile ${i}</seg></tuv></tu>\n`);
    writeFileSync(tmx, `<?xml version="1.0"?>\n<tmx version="1.4"><header srclang="en"/><body>\n${units.join('')}</body></tmx>\n`);
    const mem = join(dir, 'big.tm');
    let child: ChildProcess | undefined;
    const running = e2e.run(['translate', 'memory', 'import', tmx, '--memory', mem], { onSpawn: (c) => (child = c) });
    // the memory appears once the whole file was checked, as the import starts
    while (!existsSync(mem)) await new Promise((r) => setTimeout(r, 20));
    child!.kill('SIGINT');
    const r = await running;
    expect(r.code).toBe(130);
    const m = /^vx: interrupted; ([\d,]+) of the 100,000 entries were imported \(importing the file again is safe\)\n$/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const stats = await e2e.run(['translate', 'memory', 'stats', '--memory', mem, '-o', 'json']);
    expect(JSON.parse(stats.stdout).entries).toBe(Number(m![1].replace(/,/g, '')));
  }, 60_000);

  it('exports TMX 1.4, imports it into another memory (which then answers), prunes with confirmation', async () => {
    const mem = join(dir, 'x.tm');
    await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '--memory', mem, 'Good morning', 'Tom & Jerry']);
    const tmx = join(dir, 'x.tmx');
    const ex = await e2e.run(['translate', 'memory', 'export', '--memory', mem, '--out', tmx]);
    expect(ex.code).toBe(0);
    const text = readFileSync(tmx, 'utf8');
    expect(text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<tmx version="1\.4">\n {2}<header creationtool="vx" /);
    expect(text).toContain('<tuv xml:lang="en"><seg>Tom &amp; Jerry</seg></tuv>');
    expect(text.split('<tu ').length - 1).toBe(4);
    const copy = join(dir, 'copy.tm');
    const im = await e2e.run(['translate', 'memory', 'import', tmx, '--memory', copy, '-o', 'json']);
    expect(JSON.parse(im.stdout)).toEqual({ imported: 4, memory: copy });
    e2e.emu.reset();
    const again = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '--memory', copy, 'Good morning', 'Tom & Jerry']);
    expect(again.stdout).toBe('de\t[de] Ĝööð ɱöŕñîñĝ\nfr\t[fr] Ĝööð ɱöŕñîñĝ\nde\t[de] Ţöɱ & Ĵéŕŕý\nfr\t[fr] Ţöɱ & Ĵéŕŕý\n');
    expect(calls()).toEqual([]);
    // a bad file imports nothing and names the line
    const bad = join(dir, 'bad.tmx');
    writeFileSync(bad, text.replace('xml:lang="fr"', 'xml:lang="f r"'));
    const fresh = join(dir, 'fresh.tm');
    const refused = await e2e.run(['translate', 'memory', 'import', bad, '--memory', fresh]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`^vx: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line \\d+: the <tuv> language \\(xml:lang\\) "f r" is not a language code \\(expected a code like en, de or pt-PT\\); nothing was imported\\n$`));
    expect(existsSync(fresh)).toBe(false);
    // prune: needs a criterion, asks without a terminal unless --yes
    expect((await e2e.run(['translate', 'memory', 'prune', '--memory', copy])).code).toBe(2);
    const ask = await e2e.run(['translate', 'memory', 'prune', '--memory', copy, '--to', 'fr']);
    expect(ask.code).toBe(2);
    expect(ask.stderr).toMatch(/confirmation needed; pass --yes/);
    const pruned = await e2e.run(['translate', 'memory', 'prune', '--memory', copy, '--to', 'fr', '--yes', '-o', 'json']);
    expect(JSON.parse(pruned.stdout)).toEqual({ removed: 2, remaining: 2, memory: copy });
    const stats = await e2e.run(['translate', 'memory', 'stats', '--memory', copy, '-o', 'json']);
    expect(JSON.parse(stats.stdout)).toMatchObject({ entries: 2, pairs: { 'en>de': 2 } });
  });
});
