// vx translate against the emulator: every flag as sent on the wire, input from arguments, --file
// and stdin, each output format, --out, --debug/--verbose, and the usage/auth errors.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TranslateCall } from '../../src/emulator/translator/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv, BIN } from '../helpers/vx.js';

const e2e = useEmulator();
const calls = () => e2e.emu.state.translator.calls as TranslateCall[];
const sent = () => e2e.emu.count({ family: 'translator' });
const query = (i = 0) => new URLSearchParams(calls()[i].query);
const dir = mkdtempSync(join(tmpdir(), 'vx-translate-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('translate: request', () => {
  it('POSTs /translate?api-version=3.0 with the key, JSON content type, a fresh X-ClientTraceId per request and the items as [{Text}]', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Good morning', 'Good night']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[de] Ĝööð ɱöŕñîñĝ\n[de] Ĝööð ñîĝĥţ\n');
    expect(e2e.emu.log.map((l) => [l.method, l.path])).toEqual([['POST', '/translate?api-version=3.0&to=de&from=en']]);
    const c = calls()[0];
    expect(c.texts).toEqual(['Good morning', 'Good night']);
    expect(c.contentType).toBe('application/json; charset=UTF-8');
    expect(c.clientTraceId).toMatch(GUID);
    await e2e.run(['translate', '--to', 'de', 'x']);
    expect(calls()[1].clientTraceId).toMatch(GUID);
    expect(calls()[1].clientTraceId).not.toBe(c.clientTraceId);
  });

  it('sends every query parameter, one flag each, in spec order', async () => {
    const r = await e2e.run([
      'translate', 'Hello world', '--to', 'de,fr', '--to', 'it', '--from', 'en', '--text-type', 'Plain', '--category', 'general',
      '--profanity-action', 'marked', '--profanity-marker', 'tag', '--alignment', '--sentence-length',
      '--from-script', 'latn', '--to-script', 'Latn,Cyrl', '--to-script', 'Grek', '--no-fallback', '-o', 'json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(calls()[0].query).toBe(
      '?api-version=3.0&to=de&to=fr&to=it&from=en&textType=plain&category=general&profanityAction=Marked&profanityMarker=Tag' +
        '&includeAlignment=true&includeSentenceLength=true&fromScript=Latn&toScript=Latn&toScript=Cyrl&toScript=Grek&allowFallback=false',
    );
    const [res] = JSON.parse(r.stdout);
    expect(res.translations.map((t: any) => [t.to, t.transliteration.script])).toEqual([['de', 'Latn'], ['fr', 'Cyrl'], ['it', 'Grek']]);
    expect(res.translations[0].transliteration.text).toBe('[de] Hello world');
    expect(res.translations[1].transliteration.text).toBe('[фр] Хелло ворлд');
    expect(res.translations[0].alignment.proj).toBe('0:4-5:9 6:10-11:15');
    expect(res.translations[0].sentLen).toEqual({ srcSentLen: [11], transSentLen: [16] });
    expect(res.detectedLanguage).toBeUndefined();
  });

  it('an older code the service still accepts (--to zh-cn) is answered as the current one (zh-Hans), as the published recording shows, and printed', async () => {
    // recording_with_profanity.json: to=zh-cn -> "to": "zh-Hans"; vx called that answer a mismatch (exit 1)
    const r = await e2e.run(['translate', '--to', 'zh-cn,de', '--from', 'en', 'Good morning', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(query().getAll('to')).toEqual(['zh-cn', 'de']);
    expect(JSON.parse(r.stdout)[0].translations.map((t: any) => t.to)).toEqual(['zh-Hans', 'de']);
    const text = await e2e.run(['translate', '--to', 'zh-chs', '--from', 'en', 'Good morning']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('[zh-Hans] Ĝööð ɱöŕñîñĝ\n');
  });

  it('after --, a text that names a subcommand (memory, file, sync) is a text to translate; without -- the name still chooses the subcommand', async () => {
    // commander dispatched `-- memory` to `translate memory` (its help, exit 2) and `-- file` to `translate file`
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--', 'memory', 'file', 'sync']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[de] ɱéɱöŕý\n[de] ƒîļé\n[de] šýñç\n');
    expect(calls()[0].texts).toEqual(['memory', 'file', 'sync']);
    // the `--` right after the command (met by the top-level parser): the options after it are texts too
    const first = await e2e.run(['translate', '--', 'file']);
    expect(first.stderr).toBe('vx: --to is required: the target language(s), e.g. --to de or --to de,fr\n');
    expect(first.code).toBe(2);
    const sub = await e2e.run(['translate', '--to', 'de', 'file']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/missing required argument 'source'/);
    expect(sent()).toBe(1);
  });

  it('--suggested-from is sent without --from; the detected language comes back', async () => {
    const r = await e2e.run(['translate', '--to', 'fr', '--suggested-from', 'de', '12345', 'Good morning, how are you today?', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(query().get('suggestedFrom')).toBe('de');
    const out = JSON.parse(r.stdout);
    expect(out[0].detectedLanguage).toEqual({ language: 'de', score: 0 });
    expect(out[1].detectedLanguage.language).toBe('en');
  });

  it('--trace-id is the X-ClientTraceId of every request', async () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const input = Array.from({ length: 1500 }, (_, i) => `line ${i}`).join('\n');
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--trace-id', id.toUpperCase()], { input });
    expect(r.code).toBe(0);
    expect(calls().map((c) => c.clientTraceId)).toEqual([id, id]);
  });

  it('sends the region header when the profile has one', async () => {
    const r = await e2e.run(['translate', '--to', 'de', 'hi'], { env: { VX_TRANSLATOR_REGION: 'westeurope' } });
    expect(r.code).toBe(0);
    expect(calls()[0].region).toBe('westeurope');
  });

  it('--category with a custom system: Custom in X-MT-System; --no-fallback refuses a pair it lacks (400079, exit 1)', async () => {
    const cat = '0000c0de-0000-4000-8000-00000000c001-TECH';
    const r = await e2e.run(['translate', '--to', 'de,it', '--from', 'en', '--category', cat, 'Hello', '--debug']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('de\t[de:custom] Ĥéļļö\nit\t[it] Ĥéļļö\n');
    expect(r.stderr).toMatch(/X-MT-System Custom,Microsoft/);
    const no = await e2e.run(['translate', '--to', 'de,it', '--from', 'en', '--category', cat, '--no-fallback', 'Hello']);
    expect(no.code).toBe(1);
    expect(no.stderr).toMatch(/^vx: HTTP 400 Bad Request 400079: No custom system of category '.*-TECH' translates from en to it \(allowFallback=false\)\. \(request id TRAN\.[0-9A-Z.]+\) \(client trace id [0-9a-f-]+\)\nnot translated: argument 1\n$/);
  });

  it('a custom system still being prepared answers 408001: retried, then exit 7', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--category', '0000c0de-0000-4000-8000-00000000c002-LEGAL', '--retries', '2', 'Hello']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/HTTP 408 Request Timeout 408001: .*being prepared.*\(after 3 attempts\)/);
    expect(sent()).toBe(3);
  });
});

describe('translate: input', () => {
  it('reads stdin when it is not a terminal, one item per line (CRLF, BOM, a last line without newline, empty lines kept)', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en'], { input: '\ufeffone\r\ntwo\n\nthree' });
    expect(r.code).toBe(0);
    expect(calls()[0].texts).toEqual(['one', 'two', '', 'three']);
    expect(r.stdout).toBe('[de] öñé\n[de] ţŵö\n\n[de] ţĥŕéé\n');
  });

  it('stdin redirected from a file is checked whole before sending, like --file', async () => {
    const lines = Array.from({ length: 1500 }, (_, i) => `s${i}`);
    const run = (p: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const fd = openSync(p, 'r');
        const child = spawn(process.execPath, [BIN, 'translate', '--to', 'de', '--from', 'en'], { env: { ...baseEnv(e2e.configDir), ...e2e.env }, stdio: [fd, 'pipe', 'pipe'] });
        closeSync(fd);
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (c) => (stdout += c));
        child.stderr!.on('data', (c) => (stderr += c));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const ok = await run(file('redirect.txt', `${lines.join('\n')}\n`));
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')).toHaveLength(1501);
    expect(calls().flatMap((c) => c.texts)).toEqual(lines);
    e2e.emu.reset();
    const bad = await run(file('redirect-bad.txt', `${lines.join('\n')}\n${'x'.repeat(50_001)}\n`));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('vx: line 1,501 of standard input is too long: 50,001 characters; one item may have at most 50,000; nothing was sent\n');
    expect(sent()).toBe(0);
  });

  it('reads --file, and - as stdin', async () => {
    const p = file('in.txt', 'alpha\nbeta\n');
    const a = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-f', p]);
    expect(a.stdout).toBe('[de] åļþĥå\n[de] ƀéţå\n');
    const b = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--file', '-'], { input: 'gamma\n' });
    expect(b.stdout).toBe('[de] ĝåɱɱå\n');
    expect(calls().map((c) => c.texts)).toEqual([['alpha', 'beta'], ['gamma']]);
  });

  it('--whole sends the whole input as one item (one trailing newline dropped); arguments are joined with spaces', async () => {
    const p = file('page.html', '<div>\n  <p>Hello <b>world</b></p>\n  <p class="notranslate">Hello world</p>\n</div>\n');
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--text-type', 'html', '--whole', '-f', p]);
    expect(r.code).toBe(0);
    expect(calls()[0].texts).toEqual(['<div>\n  <p>Hello <b>world</b></p>\n  <p class="notranslate">Hello world</p>\n</div>']);
    expect(r.stdout).toBe('<div>\n  <p>[de] Ĥéļļö <b>ŵöŕļð</b></p>\n  <p class="notranslate">Hello world</p>\n</div>\n');
    const a = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--whole', 'Good', 'morning']);
    expect(a.stdout).toBe('[de] Ĝööð ɱöŕñîñĝ\n');
    expect(calls()[1].texts).toEqual(['Good morning']);
  });

  it('text with --to-script: a tab inside a translation or its transliteration is written \\t, so the transliteration stays the last column', async () => {
    const r = await e2e.run(['translate', '--to', 'de,ru', '--to-script', 'Latn,Cyrl', '--from', 'en', 'a\tb']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('de\t[de] å\\tƀ\t[de] a\\tb\nru\t[ru] å\\tƀ\t[ру] а\\tб\n');
    // without a transliteration the text is the last column: kept as it is
    const plain = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'a\tb']);
    expect(plain.stdout).toBe('[de] å\tƀ\n');
  });

  it('--whole with several targets (or --to-script) keeps text as <lang><TAB><text> lines: the line breaks are written \\n (the lines of the translations mixed, with no way to tell them apart)', async () => {
    const input = '# Title\n\nSome text.\n';
    const r = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '--whole'], { input });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('de\t[de] # Ţîţļé\\n\\nŠöɱé ţéẋţ.\nfr\t[fr] # Ţîţļé\\n\\nŠöɱé ţéẋţ.\n');
    const s = await e2e.run(['translate', '--to', 'ru', '--to-script', 'Latn', '--from', 'en', '--whole'], { input });
    expect(s.stdout).toBe('[ru] # Ţîţļé\\n\\nŠöɱé ţéẋţ.\t[ru] # Title\\n\\nSome text.\n');
    // one target: the document as it is
    const one = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--whole'], { input });
    expect(one.stdout).toBe('[de] # Ţîţļé\n\nŠöɱé ţéẋţ.\n');
  });

  it('--text-type html with a file translates each line as one element', async () => {
    const p = file('lines.html', '<p>One</p>\n<p class=notranslate>Two</p>\n');
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--text-type', 'html', '-f', p]);
    expect(r.stdout).toBe('<p>[de] Öñé</p>\n<p class=notranslate>Two</p>\n');
    expect(query().get('textType')).toBe('html');
  });

  it('an empty input translates nothing and sends nothing', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '-o', 'json'], { input: '' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[]\n');
    expect(sent()).toBe(0);
  });
});

describe('translate: profanity', () => {
  it('--profanity-action NoAction|Marked|Deleted and --profanity-marker Asterisk|Tag change the translation', async () => {
    const t = async (...flags: string[]) => (await e2e.run(['translate', '--to', 'de', '--from', 'en', 'what the hell', ...flags])).stdout;
    expect(await t()).toBe('[de] ŵĥåţ ţĥé hell\n');
    expect(await t('--profanity-action', 'NoAction')).toBe('[de] ŵĥåţ ţĥé hell\n');
    expect(await t('--profanity-action', 'Marked')).toBe('[de] ŵĥåţ ţĥé ****\n');
    expect(await t('--profanity-action', 'Marked', '--profanity-marker', 'Asterisk')).toBe('[de] ŵĥåţ ţĥé ****\n');
    expect(await t('--profanity-action', 'Marked', '--profanity-marker', 'Tag')).toBe('[de] ŵĥåţ ţĥé <profanity>hell</profanity>\n');
    expect(await t('--profanity-action', 'Deleted')).toBe('[de] ŵĥåţ ţĥé\n');
    expect(calls().map((c) => new URLSearchParams(c.query).get('profanityAction'))).toEqual([null, 'NoAction', 'Marked', 'Marked', 'Marked', 'Deleted']);
  });
});

describe('translate: output formats', () => {
  const args = ['translate', '--to', 'de', '--to', 'fr', 'Good morning', 'Danke schön'];

  it('json: the result arrays merged, exactly as the service returned them', async () => {
    const r = await e2e.run([...args, '-o', 'json']);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(2);
    expect(out[0].detectedLanguage.language).toBe('en');
    expect(out[0].translations).toEqual([{ to: 'de', text: '[de] Ĝööð ɱöŕñîñĝ' }, { to: 'fr', text: '[fr] Ĝööð ɱöŕñîñĝ' }]);
    expect(r.stdout).toBe(`${JSON.stringify(out, null, 2)}\n`);
  });

  it('text: <lang>TAB<text> lines in --to order with several targets; the transliteration as a column', async () => {
    const r = await e2e.run([...args.slice(0, 5), 'Good morning', '--from', 'en']);
    expect(r.stdout).toBe('de\t[de] Ĝööð ɱöŕñîñĝ\nfr\t[fr] Ĝööð ɱöŕñîñĝ\n');
    const t = await e2e.run(['translate', '--to', 'ru', '--from', 'en', '--to-script', 'Latn', 'Good morning']);
    expect(t.stdout).toBe('[ru] Ĝööð ɱöŕñîñĝ\t[ru] Good morning\n');
  });

  it('ndjson: one result per line', async () => {
    const r = await e2e.run([...args, '-o', 'ndjson']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]).translations[1]).toEqual({ to: 'fr', text: '[fr] Ðåñķé šçĥöñ' });
  });

  it('table: input, detected language and score, target, translation (+ asked extras)', async () => {
    const r = await e2e.run([...args, '-o', 'table', '--sentence-length', '--alignment']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['INPUT', 'DETECTED', 'SCORE', 'TO', 'TRANSLATION', 'ALIGNMENT', 'SENTENCE LENGTHS']);
    expect(lines[1]).toMatch(/^Good morning\s+en\s+\d\.\d\d\s+de\s+\[de\] Ĝööð ɱöŕñîñĝ\s+0:3-5:8 5:11-10:16\s+12 -> 17$/);
    expect(lines[2]).toMatch(/^\s+en\s+\d\.\d\d\s+fr\s+\[fr\] Ĝööð ɱöŕñîñĝ/);
    expect(lines).toHaveLength(5);
    const f = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Hi', '-o', 'table']);
    expect(f.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['INPUT', 'TO', 'TRANSLATION']);
    const t = await e2e.run(['translate', '--to', 'ru', '--from', 'en', '--to-script', 'Cyrl', 'Hi there', '-o', 'table']);
    expect(t.stdout).toBe('INPUT     TO  TRANSLATION    TRANSLITERATION\nHi there  ru  [ru] Ĥî ţĥéŕé  [ру] Хи тхере\n');
  });

  it('tsv: the table rows without a header, the input on every row', async () => {
    const r = await e2e.run([...args, '-o', 'tsv', '--from', 'en']);
    expect(r.stdout).toBe('Good morning\tde\t[de] Ĝööð ɱöŕñîñĝ\nGood morning\tfr\t[fr] Ĝööð ɱöŕñîñĝ\nDanke schön\tde\t[de] Ðåñķé šçĥöñ\nDanke schön\tfr\t[fr] Ðåñķé šçĥöñ\n');
  });

  it('yaml, none and --query', async () => {
    const y = await e2e.run([...args, '-o', 'yaml', '--from', 'en']);
    expect(y.stdout).toMatch(/^- translations:\n {4}- to: de\n {6}text: "\[de\] Ĝööð ɱöŕñîñĝ"/);
    const n = await e2e.run([...args, '-o', 'none']);
    expect(n.stdout).toBe('');
    expect(n.code).toBe(0);
    const q = await e2e.run([...args, '-q', '[].translations[0].text', '-o', 'json']);
    expect(JSON.parse(q.stdout)).toEqual(['[de] Ĝööð ɱöŕñîñĝ', 'Danke schön']); // detected as German: German to German stays as it is
  });

  it('--out writes the file (text by default) and nothing to stdout', async () => {
    const out = join(dir, 'out.txt');
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'one', 'two', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe('[de] öñé\n[de] ţŵö\n');
    const j = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'one', '--out', out, '-o', 'ndjson']);
    expect(j.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).translations[0].text).toBe('[de] öñé');
  });

  // -o table --out wrote the terminal's bold escape codes into the file and cut its columns to the
  // terminal's width (an input cut with … is lost from the file)
  it('-o table --out: the file has no colour codes and no column cut to the terminal width', async () => {
    const out = join(dir, 'table.txt');
    const input = 'a rather long input line that a narrow terminal would cut short';
    const r = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', input, '-o', 'table', '--out', out], { env: { FORCE_COLOR: '1', COLUMNS: '40' } });
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('…');
    expect(text.split('\n')[0]).toMatch(/^INPUT {2,}TO  TRANSLATION$/);
    expect(text.split('\n')[1].startsWith(`${input}  de  [de] `)).toBe(true);
  });

  it('--verbose prints the billed characters; --debug shows X-RequestId, X-MT-System and X-Metered-Usage, key redacted', async () => {
    const v = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', 'Hello', 'world!', '--verbose']);
    expect(v.code).toBe(0);
    expect(v.stderr).toMatch(/^translated 2 items in 1 request; billed characters: 22 \(X-Metered-Usage of 1 request\)$/m);
    const d = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Hello', '--debug']);
    expect(d.code).toBe(0);
    expect(d.stderr).toMatch(/< x-requestid: TRAN\.EMU1\.[0-9A-F]{4}\.\d{4}T\d{4}\.[0-9A-F]{6}/);
    expect(d.stderr).toMatch(/< x-mt-system: Microsoft/);
    expect(d.stderr).toMatch(/< x-metered-usage: 5/);
    expect(d.stderr).toMatch(/> x-clienttraceid: [0-9a-f-]{36}/);
    expect(d.stderr).toMatch(/batch 1: argument 1 \(1 items, 5 characters x 1\): X-RequestId TRAN\.EMU1\.[0-9A-F]{4}\.\d{4}T\d{4}\.[0-9A-F]{6}, X-MT-System Microsoft, X-Metered-Usage 5, X-ClientTraceId [0-9a-f-]{36}/);
    expect(d.stderr).toMatch(/vendor-subscription-key: \*\*\*/);
    expect(d.stderr).not.toContain('emulator-key');
  });

  it('--dry-run prints the batches as requests and sends nothing', async () => {
    const input = Array.from({ length: 1200 }, (_, i) => `l${i}`).join('\n');
    const r = await e2e.run(['translate', '--to', 'de', '--dry-run'], { input });
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.map((p: any) => p.body.length)).toEqual([1000, 200]);
    expect(plan[0].method).toBe('POST');
    expect(plan[0].url).toBe(`${e2e.env.VX_TRANSLATOR_ENDPOINT}/translate?api-version=3.0&to=de`);
    expect(plan[0].headers['vendor-subscription-key']).toBe('***');
    expect(plan[1].body[199]).toEqual({ Text: 'l1199' });
    expect(sent()).toBe(0);
  });
});

describe('translate: errors', () => {
  // the checks of option values run in-process: test/unit/translate-inprocess.test.ts
  const usage: [string, string[], RegExp][] = [
    ['an unknown flag', ['--to', 'de', '--colour', 'x'], /unknown option '--colour'/],
  ];
  for (const [name, args, message] of usage) {
    it(`usage error, exit 2, nothing sent: ${name}`, async () => {
      const r = await e2e.run(['translate', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
      expect(r.stdout).toBe('');
      expect(sent()).toBe(0);
    });
  }

  it('an item over the per-item limit names its line and sends nothing (a file is checked before sending)', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    lines[2500] = 'x'.repeat(50_001);
    const p = file('long.txt', lines.join('\n'));
    const r = await e2e.run(['translate', '--to', 'de', '-f', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`vx: line 2,501 of ${p} is too long: 50,001 characters; one item may have at most 50,000; nothing was sent\n`);
    expect(sent()).toBe(0);
    const a = await e2e.run(['translate', '--to', 'de', 'ok', 'z'.repeat(50_001)]);
    expect(a.stderr).toMatch(/^vx: argument 2 is too long/);
    expect(sent()).toBe(0);
  });

  it('a UTF-16 file (a byte order mark at the start) is named as such with the way out, from a file and from a pipe; nothing sent', async () => {
    // it was only "not valid UTF-8 (line 1)"
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Hello\r\nWorld\r\n', 'utf16le')]);
    const p = join(dir, 'utf16.txt');
    writeFileSync(p, bytes);
    const hint = 'is not valid UTF-8 (line 1): it is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8 or convert it: iconv -f UTF-16 -t UTF-8\n';
    const f = await e2e.run(['translate', '--to', 'de', '-f', p]);
    expect(f.code).toBe(2);
    expect(f.stderr).toBe(`vx: ${p} ${hint}`);
    const piped = await e2e.run(['translate', '--to', 'de'], { input: bytes });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toBe(`vx: standard input ${hint}`);
    const whole = await e2e.run(['translate', '--to', 'de', '--whole', '-f', p]);
    expect(whole.code).toBe(2);
    expect(whole.stderr).toBe(`vx: ${p} ${hint.replace(' (line 1)', '')}`);
    expect(sent()).toBe(0);
  });

  it('an item whose characters x targets are more than one request may count goes alone, one request per group of targets that fits (it was refused)', async () => {
    // 30,000 characters to de,fr,it: 90,000 counted; one target per request (30,000 each), in --to order
    const long = 'Hello '.repeat(5_000);
    const p = file('two.txt', `short\n${long}\nafter\n`);
    const r = await e2e.run(['translate', '--to', 'de,fr,it', '--from', 'en', '-f', p, '-o', 'json', '--verbose', '--concurrency', '1']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(3);
    expect(out[1].translations.map((t: any) => t.to)).toEqual(['de', 'fr', 'it']);
    expect(out[1].translations[2].text.startsWith('[it] Ĥéļļö Ĥéļļö')).toBe(true);
    expect(calls().map((c) => [new URLSearchParams(c.query).getAll('to').join(','), c.texts.length, c.billed])).toEqual([
      ['de,fr,it', 1, 15],
      ['de', 1, 30_000],
      ['fr', 1, 30_000],
      ['it', 1, 30_000],
      ['de,fr,it', 1, 15],
    ]);
    expect(r.stderr).toMatch(/^translated 3 items in 5 requests; billed characters: 90,030 \(X-Metered-Usage of 5 requests\)$/m);
    // two targets per request when they fit: 20,000 characters to de,fr,it
    const twenty = await e2e.run(['translate', '--to', 'de,fr,it', '--from', 'en', '--dry-run', 'x'.repeat(20_000)]);
    expect(twenty.code).toBe(0);
    expect(JSON.parse(twenty.stdout).map((q: any) => new URL(q.url).searchParams.getAll('to').join(','))).toEqual(['de,fr', 'it']);
    // with --to-script, each request carries the scripts of its targets
    const scripts = await e2e.run(['translate', '--to', 'de,ru', '--to-script', 'Latn,Cyrl', '--from', 'en', 'y'.repeat(30_000), '-o', 'json']);
    expect(scripts.code).toBe(0);
    expect(JSON.parse(scripts.stdout)[0].translations.map((t: any) => [t.to, t.transliteration.script])).toEqual([['de', 'Latn'], ['ru', 'Cyrl']]);
    expect(calls().slice(-2).map((c) => new URLSearchParams(c.query).getAll('toScript'))).toEqual([['Latn'], ['Cyrl']]);
  });

  it('a long line on piped stdin is caught before anything is sent when it is in the first batch', async () => {
    const r = await e2e.run(['translate', '--to', 'de'], { input: `a\nb\n${'x'.repeat(60_000)}\n` });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: line 3 of standard input is too long: 60,000 characters; one item may have at most 50,000; nothing was sent\n');
    expect(sent()).toBe(0);
  });

  it('a long line late in piped stdin: exit 2 naming it; the lines before it are translated and the JSON stays well-formed', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `row ${i}`);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '-o', 'json'], { input: `${lines.join('\n')}\n${'x'.repeat(50_001)}\nafter\n` });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: line 2,501 of standard input is too long: 50,001 characters; one item may have at most 50,000; nothing from this line on was sent\nlines 1-2,500 were translated and written\n');
    expect(JSON.parse(r.stdout)).toHaveLength(2500);
    expect(calls().flatMap((c) => c.texts)).toEqual(lines);
  });

  it('invalid UTF-8 in a file is a usage error before sending', async () => {
    const p = join(dir, 'bad.txt');
    writeFileSync(p, Buffer.from([0x61, 0x0a, 0xff, 0xfe, 0x0a]));
    const r = await e2e.run(['translate', '--to', 'de', '-f', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`vx: ${p} is not valid UTF-8 (line 2)\n`);
    expect(sent()).toBe(0);
  });

  it('--whole input over the per-item limit is a usage error, nothing sent', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--whole'], { input: 'w '.repeat(60_000) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('vx: the input (--whole, standard input) is too long: more than 50,000 characters; one item may have at most 50,000; nothing was sent\n');
    expect(sent()).toBe(0);
    // 30,000 characters to two targets is no longer too long: one request per target
    const two = await e2e.run(['translate', '--to', 'de,fr', '--whole'], { input: 'v'.repeat(30_000) });
    expect([two.code, two.stderr]).toEqual([0, '']);
    expect(sent()).toBe(2);
  });

  it('--timeout: an answer that never comes is retried, then exit 8 naming what was not translated', async () => {
    e2e.emu.setFaults('hang:1');
    const r = await e2e.run(['translate', '--to', 'de', '--timeout', '0.3', '--retries', '1', 'one', 'two']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/^vx: POST .*\/translate\?api-version=3\.0&to=de: timed out after \d+ ms \(after 2 attempts\) \(client trace id [0-9a-f-]{36}\)\nnot translated: arguments 1-2\n$/);
    expect(sent()).toBe(2);
  });

  it('a wrong key is 401000, exit 3; no key configured is exit 3 with nothing sent', async () => {
    const r = await e2e.run(['translate', '--to', 'de', 'x'], { env: { VX_TRANSLATOR_KEY: 'wrong-key-123' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^vx: HTTP 401 Unauthorized 401000: .*credentials are missing or invalid.*\(request id TRAN\.[0-9A-Z.]+\) \(client trace id [0-9a-f-]+\)\n/);
    expect(r.stderr).not.toContain('wrong-key-123');
    expect(sent()).toBe(1);
    const none = await e2e.run(['translate', '--to', 'de', 'x'], { env: { VX_TRANSLATOR_KEY: undefined } });
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/no credentials configured: translator subscription key is not set/);
    expect(sent()).toBe(1);
  });

  it('a service error leaves no file under --out', async () => {
    const out = join(dir, 'never.txt');
    const r = await e2e.run(['translate', '--to', 'de', 'x', '--out', out], { env: { VX_TRANSLATOR_KEY: 'wrong-key-123' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/nothing was written to .*never\.txt/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('never'))).toEqual([]);
  });

  it('an empty --out is a usage error', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--out', '']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out needs a file name/);
  });
});
