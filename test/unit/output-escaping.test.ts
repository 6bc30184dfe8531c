// Text a service sends is shown so that it can neither drive the terminal nor be mistaken for
// another text: one-line translations are reversible (a backslash is escaped too), bidirectional
// overrides are escaped like C0/C1 controls, and columns appear only when they were asked for.
import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../helpers/ctx.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const env = offlineEnv();
const TRANSLATE = /^http:\/\/127\.0\.0\.1:9\/translator\/translate\?/;

/** the inverse of a one-line translation (the tsv convention): \\ \t \n \r \uXXXX */
function unescapeLine(s: string): string {
  return s.replace(/\\(\\|t|n|r|u[0-9a-f]{4})/g, (_, e: string) => (e === '\\' ? '\\' : e === 't' ? '\t' : e === 'n' ? '\n' : e === 'r' ? '\r' : String.fromCharCode(parseInt(e.slice(1), 16))));
}

describe('translate -o text: a line reads back to exactly one text', () => {
  // the first translation is the text `C:\new\table`, the second holds a line feed and a tab
  // where the first holds `\n` and `\t`: written alike, the two could not be told apart
  const texts = ['C:\\new\\table', 'C:\new\table', 'back\\slash\r\nand ESC \u001b[31m', 'plain'];

  it('one target: a backslash is written \\\\, line breaks \\n and \\r (a tab, the last column, as it is)', async () => {
    const r = await runInProc(['translate', '--to', 'de', '--from', 'en', '-o', 'text', 'a', 'b', 'c', 'd'], {
      env,
      setup: (t) => t.http.stub('POST', TRANSLATE, json(200, texts.map((text) => ({ translations: [{ text, to: 'de' }] })))),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').slice(0, -1);
    expect(lines).toEqual(['C:\\\\new\\\\table', 'C:\\new\table', 'back\\\\slash\\r\\nand ESC \\u001b[31m', 'plain']);
    expect(lines.map(unescapeLine)).toEqual(texts);
  });

  it('several targets: <lang><TAB><text>, the text escaped the same way', async () => {
    const r = await runInProc(['translate', '--to', 'de,fr', '--from', 'en', '-o', 'text', 'a'], {
      env,
      setup: (t) => t.http.stub('POST', TRANSLATE, json(200, [{ translations: [{ text: texts[0], to: 'de' }, { text: texts[1], to: 'fr' }] }])),
    });
    expect(r.stdout).toBe('de\tC:\\\\new\\\\table\nfr\tC:\\new\table\n');
  });

  it('--to-script: a tab is written \\t in both columns, the backslash \\\\', async () => {
    const r = await runInProc(['translate', '--to', 'ru', '--to-script', 'Latn', '--from', 'en', '-o', 'text', 'a'], {
      env,
      setup: (t) => t.http.stub('POST', TRANSLATE, json(200, [{ translations: [{ text: 'a\tb\\t', to: 'ru', transliteration: { text: 'c\\d\te', script: 'Latn' } }] }])),
    });
    expect(r.stdout).toBe('a\\tb\\\\t\tc\\\\d\\te\n');
    expect(r.stdout.slice(0, -1).split('\t').map(unescapeLine)).toEqual(['a\tb\\t', 'c\\d\te']);
  });

  it('--whole with one target writes the document as it is', async () => {
    const r = await runInProc(['translate', '--to', 'de', '--from', 'en', '-o', 'text', '--whole', '-f', '-'], {
      env,
      stdin: 'a\nb\n',
      setup: (t) => t.http.stub('POST', TRANSLATE, json(200, [{ translations: [{ text: 'C:\\new\nzwei\n', to: 'de' }] }])),
    });
    expect(r.stdout).toBe('C:\\new\nzwei\n\n');
  });
});

describe('translate: a transliteration is a column only when --to-script asked for it', () => {
  const answer = [{ translations: [{ text: 'Привет', to: 'ru', transliteration: { text: 'Privet', script: 'Latn' } }] }];

  it('text without --to-script: the translation alone', async () => {
    const r = await runInProc(['translate', '--to', 'ru', '--from', 'en', '-o', 'text', 'hello'], { env, setup: (t) => t.http.stub('POST', TRANSLATE, json(200, answer)) });
    expect(r.stdout).toBe('Привет\n');
  });

  it('text with --to-script: the transliteration follows a tab', async () => {
    const r = await runInProc(['translate', '--to', 'ru', '--to-script', 'Latn', '--from', 'en', '-o', 'text', 'hello'], { env, setup: (t) => t.http.stub('POST', TRANSLATE, json(200, answer)) });
    expect(r.stdout).toBe('Привет\tPrivet\n');
  });

  it('tsv without --to-script: input, to, translation', async () => {
    const r = await runInProc(['translate', '--to', 'ru', '--from', 'en', '-o', 'tsv', 'hello'], { env, setup: (t) => t.http.stub('POST', TRANSLATE, json(200, answer)) });
    expect(r.stdout).toBe('hello\tru\tПривет\n');
  });
});

describe('bidirectional overrides from a service are escaped like control characters', () => {
  // U+202E (RIGHT-TO-LEFT OVERRIDE) shows "evil.exe" for "exe.live"; U+2066 starts an isolate
  const title = 'Maintenance \u202eexe.live\u202c \u2067x\u2069';
  const escaped = 'Maintenance \\u202eexe.live\\u202c \\u2067x\\u2069';
  const sub = '7c1b3e5a-2f4d-4b6a-9c8e-1a2b3c4d5e6f';
  const event = { name: 'AB12-XYZ', id: '/providers/Vendor.ResourceHealth/events/AB12-XYZ', properties: { title, eventType: 'PlannedMaintenance', eventLevel: 'Informational', status: 'Active', lastUpdateTime: '2026-01-01T10:00:00Z' } };
  const events = (t: TestCtx) =>
    t.http.stub('GET', new RegExp(`/subscriptions/${sub}/providers/Vendor\\.ResourceHealth/events\\?`), json(200, { value: [event] }));

  for (const format of ['table', 'tsv', 'text']) {
    it(`-o ${format}`, async () => {
      const r = await runInProc(['mgmt', 'health', 'events', 'list', '-o', format], { env: { ...env, COLUMNS: '200' }, setup: (t) => void events(t) });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(escaped);
      expect(r.stdout).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    });
  }

  it('-o json keeps the payload exact', async () => {
    const r = await runInProc(['mgmt', 'health', 'events', 'list', '-o', 'json'], { env, setup: (t) => void events(t) });
    expect(JSON.parse(r.stdout)[0].properties.title).toBe(title);
  });

  it('an error line', async () => {
    const r = await runInProc(['mgmt', 'health', 'events', 'list'], {
      env,
      setup: (t) => t.http.stub('GET', /events\?/, json(400, { error: { code: 'BadThing', message: `no \u202eexe.live here` } })),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no \\u202eexe.live here');
    expect(r.stderr).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('translate -o text', async () => {
    const r = await runInProc(['translate', '--to', 'he', '--from', 'en', '-o', 'text', 'x'], {
      env,
      // the marks (U+200F RIGHT-TO-LEFT MARK) belong to ordinary right-to-left text: kept
      setup: (t) => t.http.stub('POST', TRANSLATE, json(200, [{ translations: [{ text: 'שלום\u200f \u202eabc', to: 'he' }] }])),
    });
    expect(r.stdout).toBe('שלום\u200f \\u202eabc\n');
  });
});
