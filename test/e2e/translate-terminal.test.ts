// vx translate in-process with a fake terminal: the progress bar on stderr only at a terminal,
// table by default at a terminal, and no input at a terminal is a usage error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/api/settings.js';
import { run as runTranslate } from '../../src/cli/translate/translate.js';
import { Ctx, type GlobalOptions } from '../../src/core/context.js';
import { UsageError } from '../../src/core/errors.js';
import { Progress } from '../../src/core/progress.js';
import type { TranslateCall } from '../../src/emulator/translator/index.js';
import { tty } from '../helpers/tty.js';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();

const stream = (isTTY: boolean) => {
  const s = tty(100);
  s.isTTY = isTTY;
  return s;
};

function session(opts: { stdoutTTY: boolean; stderrTTY: boolean; stdinTTY?: boolean }, globals: GlobalOptions = {}) {
  const stdout = stream(opts.stdoutTTY);
  const stderr = stream(opts.stderrTTY);
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = opts.stdinTTY ?? false;
  const env = { ...e2e.env, VX_CONFIG_DIR: e2e.configDir, NO_COLOR: '1' };
  const ctx = new Ctx(globals, SETTINGS, { io: { stdout: stdout as any, stderr: stderr as any, stdin: stdin as any }, signal: new AbortController().signal, env });
  return { ctx, stdout, stderr, stdin };
}

const dir = mkdtempSync(join(tmpdir(), 'vx-translate-tty-'));

describe('translate at a terminal', () => {
  it('shows a progress bar on stderr when stderr is a terminal, and clears it', async () => {
    const p = join(dir, 'in.txt');
    writeFileSync(p, Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n'));
    const { ctx, stdout, stderr } = session({ stdoutTTY: false, stderrTTY: true });
    await runTranslate(ctx, { fallback: true, to: ['de'], from: 'en', file: p });
    expect(stdout.text.split('\n')).toHaveLength(3001);
    expect(stderr.text).toMatch(/\r\u001b\[K\[#+-*\]\s+\d+%\s+\d+\/3000 lines\s+[\d.k]+ lines\/s/);
    expect(stderr.text.endsWith('\r\u001b[K')).toBe(true);
  });

  it('no progress bar flashes for one phrase: a count that completes the total is not drawn', async () => {
    const { ctx, stdout, stderr } = session({ stdoutTTY: false, stderrTTY: true });
    await runTranslate(ctx, { fallback: true, to: ['de'], from: 'en' }, ['Good morning']);
    expect([stdout.text, stderr.text]).toEqual(['[de] Ĝööð ɱöŕñîñĝ\n', '']);
  });

  it('no progress bar when stderr is not a terminal', async () => {
    const { ctx, stderr } = session({ stdoutTTY: false, stderrTTY: false });
    await runTranslate(ctx, { fallback: true, to: ['de'], from: 'en' }, ['a', 'b']);
    expect(stderr.text).toBe('');
  });

  it('defaults to a table at a terminal and to text elsewhere', async () => {
    const t = session({ stdoutTTY: true, stderrTTY: true });
    await runTranslate(t.ctx, { fallback: true, to: ['de'], from: 'en' }, ['Hello']);
    expect(t.stdout.text).toBe('INPUT  TO  TRANSLATION\nHello  de  [de] Ĥéļļö\n');
    const p = session({ stdoutTTY: false, stderrTTY: false });
    await runTranslate(p.ctx, { fallback: true, to: ['de'], from: 'en' }, ['Hello']);
    expect(p.stdout.text).toBe('[de] Ĥéļļö\n');
  });

  it('with no arguments, no --file and stdin at a terminal: usage error, nothing sent', async () => {
    const { ctx } = session({ stdoutTTY: true, stderrTTY: true, stdinTTY: true });
    await expect(runTranslate(ctx, { fallback: true, to: ['de'] }, [])).rejects.toThrow(UsageError);
    await expect(runTranslate(ctx, { fallback: true, to: ['de'] }, [])).rejects.toThrow(/nothing to translate: give the text as arguments, with --file <path>, or on standard input/);
    expect(e2e.emu.count({ family: 'translator' })).toBe(0);
  });

  it('parameters the service ignores in this combination are sent, with a warning at a terminal only', async () => {
    const t = session({ stdoutTTY: false, stderrTTY: true });
    await runTranslate(t.ctx, { fallback: true, to: ['de'], from: 'en', suggestedFrom: 'fr', profanityMarker: 'Tag' }, ['Hello']);
    expect(t.stdout.text).toBe('[de] Ĥéļļö\n');
    expect(t.stderr.text.split('\n').slice(0, 2)).toEqual([
      'warning: --suggested-from fr has no effect with --from en: it is used only when the source language is detected',
      'warning: --profanity-marker Tag has no effect without --profanity-action Marked',
    ]);
    const calls = e2e.emu.state.translator.calls as TranslateCall[];
    const q = new URLSearchParams(calls.at(-1)!.query);
    expect([q.get('from'), q.get('suggestedFrom'), q.get('profanityMarker'), q.get('profanityAction')]).toEqual(['en', 'fr', 'Tag', null]);
    const p = session({ stdoutTTY: false, stderrTTY: false });
    await runTranslate(p.ctx, { fallback: true, to: ['de'], from: 'en', suggestedFrom: 'fr', profanityMarker: 'Tag' }, ['Hello']);
    expect(p.stderr.text).toBe('');
    expect(p.stdout.text).toBe('[de] Ĥéļļö\n');
  });

  it('--alignment with --text-type html is sent as given, with its warning at a terminal only (it was printed in pipelines too)', async () => {
    const t = session({ stdoutTTY: false, stderrTTY: true });
    await runTranslate(t.ctx, { fallback: true, to: ['de'], from: 'en', alignment: true, textType: 'html' }, ['<b>Hello</b>']);
    expect(t.stdout.text).toBe('<b>[de] Ĥéļļö</b>\n');
    expect(t.stderr.text.split('\n')[0]).toBe('warning: --alignment has no effect with --text-type html: the service produces no alignment for HTML (the alignment fields are empty)');
    const q = new URLSearchParams((e2e.emu.state.translator.calls as TranslateCall[]).at(-1)!.query);
    expect([q.get('textType'), q.get('includeAlignment')]).toEqual(['html', 'true']);
    const p = session({ stdoutTTY: false, stderrTTY: false });
    await runTranslate(p.ctx, { fallback: true, to: ['de'], from: 'en', alignment: true, textType: 'html' }, ['<b>Hello</b>']);
    expect(p.stderr.text).toBe('');
    expect(p.stdout.text).toBe('<b>[de] Ĥéļļö</b>\n');
  });

  it('reads a piped stdin stream', async () => {
    const { ctx, stdout, stdin } = session({ stdoutTTY: false, stderrTTY: false });
    stdin.end('one\ntwo\n');
    await runTranslate(ctx, { fallback: true, to: ['de'], from: 'en' }, []);
    expect(stdout.text).toBe('[de] öñé\n[de] ţŵö\n');
  });
});

describe('progress line', () => {
  it('fits the width, with and without a known total', () => {
    let t = 0;
    const p = new Progress(stream(true) as any, { unit: 'lines', total: 20_000, now: () => t });
    t = 2000;
    p.update(5000);
    expect(p.line(80, t)).toBe(`[${'#'.repeat(10)}${'-'.repeat(30)}]  25%  5000/20k lines  2500 lines/s`);
    expect(p.line(80, t).length).toBeLessThan(80);
    expect(p.line(30, t)).toBe('25%  5000/20k lines  2500 lin');
    t = 0;
    const q = new Progress(stream(true) as any, { unit: 'lines', now: () => t });
    t = 2000;
    q.update(123_456);
    expect(q.line(80, t)).toBe('123k lines  61.7k lines/s');
  });

  it('draws nothing for a count that completes its total, nor in the first 300 ms of a run of unknown length', () => {
    let t = 0;
    const known = stream(true);
    const p = new Progress(known as any, { unit: 'lines', total: 2, now: () => t });
    t = 1000;
    p.update(2);
    p.stop();
    expect(known.text).toBe('');
    p.update(1);
    expect(known.text).toBe('\r\u001b[K[####################--------------------]  50%  1/2 lines  1 lines/s');
    const unknown = stream(true);
    t = 0;
    const q = new Progress(unknown as any, { unit: 'lines', now: () => t });
    t = 299;
    q.update(1);
    expect(unknown.text).toBe('');
    t = 300;
    q.update(2);
    expect(unknown.text).toBe('\r\u001b[K2 lines  7 lines/s');
  });
});
