// vx translate in-process (test/helpers/ctx.ts): option checks, the request it builds and the
// rendering, with an httpmock transport instead of a server. Moved from e2e/translate-cli, which
// keeps what needs a process (exit codes, pipes, the emulator, commander's own parsing).
import { describe, expect, it } from 'vitest';
import { run as runTranslate } from '../../src/cli/translate/translate.js';
import type { TranslateOptions } from '../../src/cli/translate/options.js';
import { UsageError } from '../../src/core/errors.js';
import { testCtx } from '../helpers/ctx.js';
import { json } from '../helpers/httpmock.js';

const ENDPOINT = 'http://127.0.0.1:9/translator';
const env = { VX_TRANSLATOR_ENDPOINT: ENDPOINT, VX_TRANSLATOR_KEY: 'test-key' };
const opts = (o: Partial<TranslateOptions>): TranslateOptions => ({ fallback: true, ...o });

describe('translate: usage errors, nothing sent', () => {
  const usage: [string, Partial<TranslateOptions>, string[], RegExp][] = [
    ['no --to', {}, ['x'], /--to is required/],
    ['a bad --to', { to: ['de_DE'] }, ['x'], /invalid language code "de_DE" for --to/],
    ['a --to twice', { to: ['de,DE'] }, ['x'], /--to names DE twice/],
    ['a --to twice under an older code', { to: ['zh-Hans,zh-cn'] }, ['x'], /--to names zh-Hans twice \(as zh-Hans and as zh-cn\)/],
    ['a bad --from', { to: ['de'], from: '12' }, ['x'], /invalid language code "12" for --from/],
    ['a bad --text-type', { to: ['de'], textType: 'xml' }, ['x'], /invalid value "xml" for --text-type: allowed plain, html/],
    ['a bad --profanity-action', { to: ['de'], profanityAction: 'Hide' }, ['x'], /allowed NoAction, Marked, Deleted/],
    ['a bad --profanity-marker', { to: ['de'], profanityAction: 'Marked', profanityMarker: 'Stars' }, ['x'], /allowed Asterisk, Tag/],
    ['a bad --to-script', { to: ['de'], toScript: ['Latin'] }, ['x'], /invalid script code "Latin" for --to-script/],
    ['--to-script count', { to: ['de,fr'], toScript: ['Latn'] }, ['x'], /one script per --to language: 1 given for 2 targets/],
    ['a bad --from-script', { to: ['de'], fromScript: 'L' }, ['x'], /invalid script code "L" for --from-script/],
    ['a bad --category', { to: ['de'], category: 'a b' }, ['x'], /invalid value "a b" for --category/],
    ['a bad --trace-id', { to: ['de'], traceId: 'abc' }, ['x'], /invalid value "abc" for --trace-id: expected a GUID/],
    ['a bad --concurrency', { to: ['de'], concurrency: '0' }, ['x'], /--concurrency: expected a whole number from 1 to 64/],
    ['arguments and --file', { to: ['de'], file: 'x.txt' }, ['x'], /either as arguments or with --file/],
    ['a missing file', { to: ['de'], file: '/nonexistent/x.txt' }, [], /cannot read \/nonexistent\/x.txt: no such file/],
    ['a directory', { to: ['de'], file: '/tmp' }, [], /cannot read \/tmp: it is a directory/],
  ];
  for (const [name, o, args, message] of usage) {
    it(name, async () => {
      const t = testCtx({ env });
      await expect(runTranslate(t.ctx, opts(o), args)).rejects.toThrow(UsageError);
      await expect(runTranslate(t.ctx, opts(o), args)).rejects.toThrow(message);
      expect(t.http.requests).toEqual([]);
      expect(t.stdout.text).toBe('');
    });
  }
});

describe('translate: --out naming the --file (the source would be replaced by its translation)', () => {
  it('is refused before anything is sent, also through another spelling or a link; the file is untouched', async () => {
    const { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'vx-out-in-'));
    try {
      const src = join(dir, 'notes.txt');
      writeFileSync(src, 'one\ntwo\n');
      symlinkSync(src, join(dir, 'link.txt'));
      for (const out of [src, join(dir, '.', 'notes.txt'), join(dir, 'link.txt')]) {
        const t = testCtx({ env });
        await expect(runTranslate(t.ctx, opts({ to: ['de'], file: src, out }), [])).rejects.toThrow(
          new UsageError(`--out ${out} is the input file ${src}: its translation would replace it; name another file (nothing was sent)`),
        );
        expect(t.http.requests).toEqual([]);
      }
      expect(readFileSync(src, 'utf8')).toBe('one\ntwo\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('translate: the request and the rendering', () => {
  it('POSTs /translate?api-version=3.0 with the key, the JSON content type, a trace id and the items as [{Text}]; text out', async () => {
    const t = testCtx({ env });
    t.http.stub('POST', `${ENDPOINT}/translate?api-version=3.0&to=de&from=en`, (req) =>
      json(200, (JSON.parse(req.text) as { Text: string }[]).map((i) => ({ translations: [{ text: `[de] ${i.Text}`, to: 'de' }] })), { 'X-RequestId': 'r-1', 'X-Metered-Usage': '22' }),
    );
    await runTranslate(t.ctx, opts({ to: ['de'], from: 'en' }), ['Good morning', 'Good night']);
    expect(t.stdout.text).toBe('[de] Good morning\n[de] Good night\n');
    const [req] = t.http.requests;
    expect(req.text).toBe('[{"Text":"Good morning"},{"Text":"Good night"}]');
    expect(req.headers['vendor-subscription-key']).toBe('test-key');
    expect(req.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(req.headers['x-clienttraceid']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('a table at a terminal: input, detected language and score, target, translation', async () => {
    const t = testCtx({ env, stdoutTTY: true });
    t.http.stub('POST', `${ENDPOINT}/translate?api-version=3.0&to=de`, json(200, [{ detectedLanguage: { language: 'en', score: 1 }, translations: [{ text: 'Hallo', to: 'de' }] }]));
    await runTranslate(t.ctx, opts({ to: ['de'] }), ['Hello']);
    expect(t.stdout.text).toBe('INPUT  DETECTED  SCORE  TO  TRANSLATION\nHello  en         1.00  de  Hallo\n');
  });

  it('the service answering fewer results than items is a service error naming the trace id; nothing is written', async () => {
    const t = testCtx({ env });
    t.http.stub('POST', /\/translate\?/, json(200, []));
    await expect(runTranslate(t.ctx, opts({ to: ['de'], traceId: '11111111-2222-4333-8444-555555555555' }), ['a'])).rejects.toThrow(
      'the service answered 0 results for 1 items (client trace id 11111111-2222-4333-8444-555555555555)',
    );
    expect(t.stdout.text).toBe('');
  });
});

describe('httpmock', () => {
  it('fails verify() when a stub was never used, and a request no stub matches at once', async () => {
    const { HttpMock } = await import('../helpers/httpmock.js');
    const m = new HttpMock().stub('GET', 'http://127.0.0.1:9/x', json(200, {}));
    expect(() => m.verify()).toThrow('httpmock: stubs never used: GET http://127.0.0.1:9/x (0/1)');
    await expect(m.transport({ method: 'GET', url: 'http://127.0.0.1:9/y', headers: {} }, new AbortController().signal)).rejects.toThrow('httpmock: no stub for GET http://127.0.0.1:9/y');
    await m.transport({ method: 'GET', url: 'http://127.0.0.1:9/x', headers: {} }, new AbortController().signal);
    expect(() => m.verify()).not.toThrow();
  });
});
