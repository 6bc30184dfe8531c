// vx translate file|sync|check on locale files as open-source projects publish them
// (test/fixtures/files/real/SOURCES.md), against the emulator in-process: every target passes the
// format's own reader (msgfmt -c, Python's XML parser, PyYAML, JSON.parse), what vx does not
// translate stays byte for byte, a second sync sends nothing, and `check` finds nothing in vx's
// targets (nor in the projects' own translations that are right).
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { parseXliff, parseYaml } from '../helpers/validators.js';
import { removeDir, ROOT, tempDir } from '../helpers/vx.js';

const REAL = join(ROOT, 'test', 'fixtures', 'files', 'real');
const e2e = useEmulator();
let dir: string;
beforeEach(() => {
  dir = tempDir('vx-real-');
  cpSync(REAL, dir, { recursive: true });
  return () => removeDir(dir);
});

const read = (f: string) => readFileSync(join(dir, f), 'utf8');
const calls = () => e2e.emu.state.translator.calls.length;
const vx = (...args: string[]) => e2e.run(args, { cwd: dir });

/** The lines of a text that are not in another (a multiset difference, in order). */
function linesNotIn(text: string, other: string): string[] {
  const left = new Map<string, number>();
  for (const l of other.split('\n')) left.set(l, (left.get(l) ?? 0) + 1);
  return text.split('\n').filter((l) => {
    const n = left.get(l) ?? 0;
    if (n) left.set(l, n - 1);
    return !n;
  });
}

/** The fuzzy entries of a PO file: msgid -> the previous msgid of its #| lines. */
function fuzzyEntries(po: string): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  const str = (lines: string) => (lines.match(/"(?:[^"\\]|\\.)*"/g) ?? []).map((q) => JSON.parse(q) as string).join('');
  for (const block of po.split('\n\n')) {
    if (!/^#, .*fuzzy/m.test(block) || block.startsWith('#~')) continue;
    const id = /^msgid ((?:".*"\n)+)/m.exec(`${block}\n`);
    const prev = /^#\| msgid ((?:(?:#\| )?".*"\n)+)/m.exec(`${block}\n`);
    if (id) out.set(str(id[1]), prev ? str(prev[1]) : undefined);
  }
  return out;
}

describe('XZ Utils: the Polish catalogue of 5.6 synced with the template of 5.7', () => {
  it('marks the same entries fuzzy with the same #| previous msgid as msgmerge --previous, sends only the rest, and msgfmt -c accepts it', async () => {
    execFileSync('msgmerge', ['--previous', '-q', '-o', join(dir, 'merged.po'), join(dir, 'xz', 'pl.po'), join(dir, 'xz', 'xz.pot')]);
    const r = await vx('translate', 'sync', 'xz/xz.pot', '--to', 'pl', '-o', 'json');
    expect(r.code).toBe(0);
    const merged = fuzzyEntries(read('merged.po'));
    const ours = fuzzyEntries(read('xz/pl.po'));
    expect(merged.size).toBeGreaterThan(30);
    expect(ours).toEqual(merged);
    // the kept ones are said, nothing else
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(merged.size);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ kept: merged.size, untranslated: 0 });
    execFileSync('msgfmt', ['-c', '--check-format', '-o', '/dev/null', join(dir, 'xz', 'pl.po')], { stdio: 'pipe' });
    // the catalogue's own translations pass vx's checks as they pass msgfmt -c
    expect((await vx('translate', 'check', 'xz/pl.po')).code).toBe(0);
    const n = calls();
    expect((await vx('translate', 'sync', 'xz/xz.pot', '--to', 'pl')).code).toBe(0);
    expect(calls()).toBe(n);
  });
});

describe("an AL extension's XLIFF 1.2 (Microsoft's AMC Banking 365 Fundamentals)", () => {
  it('targets after each source, %1 kept, translate="no" units and notes byte for byte, the BOM kept; XML parses; check finds nothing; a sync sends nothing', async () => {
    const src = 'al/AMC Banking 365 Fundamentals.g.xlf';
    const r = await vx('translate', 'file', src, '--to', 'de-DE', '-o', 'json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const target = 'al/AMC Banking 365 Fundamentals.de-DE.xlf';
    const text = read(target);
    expect(text.startsWith('\ufeff<?xml')).toBe(true);
    const units = parseXliff(text);
    expect(Object.values(units).filter((t) => t !== null && /%1/.test(t)).length).toBeGreaterThan(15);
    // only <target> lines and the target-language attribute are new
    const added = linesNotIn(text, read(src));
    expect(added.filter((l) => !/^\s*<target state="needs-review-translation">.*<\/target>$/.test(l))).toEqual([expect.stringContaining('target-language="de-DE"')]);
    expect(linesNotIn(read(src), text)).toEqual([expect.stringContaining('target-language="en-US"')]);
    expect((await vx('translate', 'check', target)).code).toBe(0);
    const n = calls();
    expect((await vx('translate', 'sync', src, '--to', 'de-DE')).code).toBe(0);
    expect(calls()).toBe(n);
  });
});

describe('Angular: XLIFF 2.0 as its extractor writes it, ICU plurals and selects holding <pc>/<ph>', () => {
  it('the French file of the project passes check; vx targets keep every ICU keyword and inline element, parse as XML and pass check', async () => {
    const real = await vx('translate', 'check', 'angular/messages.fr.xlf');
    expect([real.code, real.stdout]).toEqual([0, '']);
    const r = await vx('translate', 'file', 'angular/messages.xlf', '--to', 'pl,ja', '--out', 'angular/out/messages.{lang}.xlf');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const pl = read('angular/out/messages.pl.xlf');
    const targets = parseXliff(pl);
    expect(targets.baz).toBe('{VAR_PLURAL, plural, =0 {{VAR_SELECT, select, other {[pl] ðééþļý ñéšţéð} } } }');
    expect(pl).toContain('<target>{VAR_PLURAL, plural, =0 {{VAR_SELECT, select, other {<pc id="0" equivStart="START_PARAGRAPH" equivEnd="CLOSE_PARAGRAPH" type="other" dispStart="&lt;p&gt;" dispEnd="&lt;/p&gt;">[pl] ðééþļý ñéšţéð</pc>} } } =other {å ļöţ} }</target>');
    expect((await vx('translate', 'check', 'angular/messages.xlf', '--to', 'pl,ja', '--out', 'angular/out/messages.{lang}.xlf')).code).toBe(0);
  });
});

describe('i18next JSON of Rocket.Chat Desktop', () => {
  it('v3 (i18next 20): a Polish target gets unreadMention_0/_1/_2 (the project\'s own Polish has unreadMention_plural, which i18next 20 never reads for Polish)', async () => {
    const r = await vx('translate', 'file', 'rocketchat/v3/en.i18n.json', '--from', 'en', '--to', 'pl,ja', '--out', 'rocketchat/v3/out/{lang}.i18n.json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const pl = JSON.parse(read('rocketchat/v3/out/pl.i18n.json')) as { tray: { tooltip: Record<string, string> } };
    expect(Object.keys(pl.tray.tooltip).filter((k) => k.startsWith('unreadMention'))).toEqual(['unreadMention_0', 'unreadMention_1', 'unreadMention_2']);
    const ja = JSON.parse(read('rocketchat/v3/out/ja.i18n.json')) as { tray: { tooltip: Record<string, string> } };
    expect(Object.keys(ja.tray.tooltip).filter((k) => k.startsWith('unreadMention'))).toEqual(['unreadMention_0']);
    // {{- appName}} and {{receivedBytes, byteSize}} kept
    expect(read('rocketchat/v3/out/pl.i18n.json')).toContain('{{receivedBytes, byteSize}}');
    // the project's Polish, checked against the English: nothing wrong in what it has
    const real = await vx('translate', 'check', 'rocketchat/v3/en.i18n.json', '--from', 'en', '--to', 'pl', '--out', 'rocketchat/v3/{lang}.i18n.json');
    expect([real.code, real.stdout]).toEqual([0, '']);
  });

  it('v4 (i18next 23) with a _plural left over: _one/_few/_many/_other for Polish, the leftover an ordinary key', async () => {
    const r = await vx('translate', 'file', 'rocketchat/v4/en.i18n.json', '--from', 'en', '--to', 'pl', '--out', 'rocketchat/v4/out/{lang}.i18n.json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const text = read('rocketchat/v4/out/pl.i18n.json');
    const keys = [...text.matchAll(/"(unreadMessage_\w+|unreadMention\w*)":/g)].map((m) => m[1]);
    expect(keys).toEqual(expect.arrayContaining(['unreadMessage_one', 'unreadMessage_few', 'unreadMessage_many', 'unreadMessage_other', 'unreadMention', 'unreadMention_plural']));
    expect(keys).not.toContain('unreadMention_0');
    JSON.parse(text);
    expect((await vx('translate', 'check', 'rocketchat/v4/en.i18n.json', '--from', 'en', '--to', 'pl', '--out', 'rocketchat/v4/out/{lang}.i18n.json')).code).toBe(0);
  });
});

describe("Rails' own locale (Active Support's en.yml)", () => {
  it('a Polish target: PyYAML reads it, the Ruby symbols, nil and date formats as the source has them, the names translated; check finds nothing', async () => {
    const r = await vx('translate', 'file', 'rails/en.yml', '--to', 'pl');
    expect([r.code, r.stderr]).toEqual([0, '']);
    type Locale = { date: Record<string, unknown> & { month_names: (string | null)[] }; time: { formats: Record<string, string> }; support: { array: Record<string, string> } };
    const en = (parseYaml(read('rails/en.yml')) as { en: Locale }).en;
    const pl = (parseYaml(read('rails/pl.yml')) as { pl: Locale }).pl;
    expect(pl.date.order).toEqual([':year', ':month', ':day']);
    expect(pl.date.formats).toEqual(en.date.formats);
    expect(pl.time.formats).toEqual(en.time.formats);
    expect(pl.date.month_names[0]).toBeNull();
    expect(pl.date.month_names[1]).toBe('[pl] Ĵåñûåŕý');
    expect(pl.support.array).toEqual({ words_connector: ', ', two_words_connector: ' [pl] åñð ', last_word_connector: '[pl] , åñð ' });
    expect((await vx('translate', 'check', 'rails/en.yml', '--to', 'pl')).code).toBe(0);
  });
});

describe('Markdown docs with shortcodes', () => {
  it("Jekyll's docs: {% raw %} blocks and Liquid tags byte for byte, the front-matter title translated; check finds nothing", async () => {
    const r = await vx('translate', 'file', 'jekyll/includes.md', '--to', 'de', '--front-matter', 'title');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const src = read('jekyll/includes.md');
    const de = read('jekyll/includes.de.md');
    for (const block of src.match(/\{% raw %\}\n[\s\S]*?\{% endraw %\}\n/g)!) expect(de).toContain(block);
    expect(de).toContain('{% raw %}`{{ include.content }}`{% endraw %}');
    expect((parseYaml(de.split('---\n')[1]) as { title: string; permalink: string })).toEqual({ title: '[de] Îñçļûðéš', permalink: '/docs/includes/' });
    expect((await vx('translate', 'check', 'jekyll/includes.md', '--to', 'de', '--front-matter', 'title')).code).toBe(0);
  });

  it("Hugo's docs: code-toggle blocks and {{< >}} shortcodes kept, `> [!NOTE]` alerts keep their line, title and description translated", async () => {
    const r = await vx('translate', 'file', 'hugo/shortcodes.md', '--to', 'de', '--front-matter', 'title,description');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const src = read('hugo/shortcodes.md');
    const de = read('hugo/shortcodes.de.md');
    for (const block of src.match(/\{\{< code-toggle[^}]*>\}\}[\s\S]*?\{\{< \/code-toggle >\}\}/g)!) expect(de).toContain(block);
    for (const code of src.match(/^```[\s\S]*?^```$/gm)!) expect(de).toContain(code);
    expect(de.match(/^> \[!NOTE\]$/gm)).toHaveLength(src.match(/^> \[!NOTE\]$/gm)!.length);
    const front = parseYaml(de.split('---\n')[1]) as Record<string, unknown>;
    expect(front.title).toBe('[de] Šĥöŕţçöðéš');
    expect(front.aliases).toEqual(['/extras/shortcodes/']);
    const n = calls();
    expect((await vx('translate', 'sync', 'hugo/shortcodes.md', '--to', 'de', '--front-matter', 'title,description')).code).toBe(0);
    expect(calls()).toBe(n);
    expect((await vx('translate', 'check', 'hugo/shortcodes.md', '--to', 'de', '--front-matter', 'title,description')).code).toBe(0);
  });
});
