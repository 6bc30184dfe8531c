// vx translate file|sync end to end against the emulator: real-world shaped fixtures of each
// format round-trip with untouched parts byte for byte (the whole target is compared with a
// reviewed expected file), a second sync sends no request, edits by hand are kept, removed units
// go, --check fails CI, bad input is exit 2 with no target touched, and a translation whose
// placeholders changed is not written as translated.
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { hasPty, runOnPty } from '../helpers/pty.js';
import { removeDir, ROOT, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const FIXTURES = join(ROOT, 'test', 'fixtures', 'files');
const EXPECTED = join(FIXTURES, 'expected');

function scratch(): string {
  const dir = tempDir('vx-files-');
  for (const f of readdirSync(FIXTURES)) if (statSync(join(FIXTURES, f)).isFile()) cpSync(join(FIXTURES, f), join(dir, f));
  return dir;
}

const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');
const calls = () => e2e.emu.state.translator.calls.length;

/** Compares a target with its reviewed expected file (VX_UPDATE_FIXTURES=1 writes them). */
function expectTarget(dir: string, name: string): void {
  const got = read(dir, name);
  if (process.env.VX_UPDATE_FIXTURES) writeFileSync(join(EXPECTED, name), got);
  expect(got).toBe(readFileSync(join(EXPECTED, name), 'utf8'));
}

/** Text upper-cased outside tags and protected spans (a stand-in for a translation). */
const upper = (html: string) => html.replace(/<span class="notranslate">[^<]*<\/span>|<[^>]*>|[^<]+/g, (m) => (m.startsWith('<') ? m : m.toUpperCase()));

/**
 * A translator on loopback that answers each text with answer(text, to) for every `to` (a string is
 * the translation's text, an object the whole translation); `sent` holds the texts it got,
 * `targets` the `to` of each request.
 */
function stubTranslator(answer: (text: string, to: string) => string | Record<string, unknown>) {
  const sent: string[] = [];
  const targets: string[][] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const to = new URL(req.url!, 'http://x').searchParams.getAll('to');
      const items = JSON.parse(body) as { Text: string }[];
      sent.push(...items.map((i) => i.Text));
      targets.push(to);
      const translation = (text: string, t: string) => {
        const a = answer(text, t);
        return typeof a === 'string' ? { to: t, text: a } : a;
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(items.map(({ Text }) => ({ translations: to.map((t) => translation(Text, t)) }))));
    });
  });
  return {
    sent,
    targets,
    listen: () => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as { port: number }).port}`))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('vx translate file', () => {
  it('XLIFF 1.2 from the compiler: targets after each source, target-language set, notes and translate="no" units untouched', async () => {
    const dir = scratch();
    try {
      const r = await e2e.run(['translate', 'file', 'SalesTools.g.xlf', '--to', 'de-DE,fr-FR', '-o', 'json'], { cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([
        { source: 'SalesTools.g.xlf', language: 'de-DE', target: 'SalesTools.de-DE.xlf', translated: 3, unchanged: 0, kept: 0, untranslated: 0, removed: 0 },
        { source: 'SalesTools.g.xlf', language: 'fr-FR', target: 'SalesTools.fr-FR.xlf', translated: 3, unchanged: 0, kept: 0, untranslated: 0, removed: 0 },
      ]);
      expectTarget(dir, 'SalesTools.de-DE.xlf');
      // one request for both languages; the service is asked for de and fr; placeholders in notranslate spans, markup kept
      const [call] = e2e.emu.state.translator.calls;
      expect(e2e.emu.state.translator.calls).toHaveLength(1);
      expect(call.query).toBe('?api-version=3.0&to=de&to=fr&from=en&textType=html');
      expect(call.texts).toContain('Customer <span class="notranslate">%1</span> has an overdue balance of <span class="notranslate">%2</span> &amp; must pay by <span class="notranslate">{0}</span>.');
      expect(call.texts).toContain('Specifies the <b>number</b> of the customer.');
      expect(call.texts).not.toContain('SALES-TOOLS');
      const lock = JSON.parse(read(dir, 'SalesTools.g.xlf.vxlock'));
      expect(Object.keys(lock.languages)).toEqual(['de-DE', 'fr-FR']);
      expect(lock.languages['de-DE'].target).toBe('SalesTools.de-DE.xlf');
    } finally {
      removeDir(dir);
    }
  });

  it('XLIFF 2.0: trgLang, segment state, inline elements and ignorables kept; --state chooses the state', async () => {
    const dir = scratch();
    try {
      const r = await e2e.run(['translate', 'file', 'app.xlf', '--to', 'de', '--state', 'reviewed'], { cwd: dir });
      expect(r.code).toBe(0);
      expectTarget(dir, 'app.de.xlf');
      const bad = await e2e.run(['translate', 'file', 'app.xlf', '--to', 'de', '--state', 'needs-review-translation'], { cwd: dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe('vx: invalid value "needs-review-translation" for --state with XLIFF 2.0 (app.xlf): allowed translated, initial, reviewed, final\n');
    } finally {
      removeDir(dir);
    }
  });

  it('i18next JSON: nested keys, plural forms of the target language, context keys, $t() and {{x}} kept, non-strings untouched', async () => {
    const dir = scratch();
    try {
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'pl', '-o', 'none'], { cwd: dir });
      expect(r.code).toBe(0);
      expectTarget(dir, 'pl.json');
      const pl = JSON.parse(read(dir, 'pl.json'));
      expect(Object.keys(pl).filter((k) => k.startsWith('items_'))).toEqual(['items_one', 'items_few', 'items_many', 'items_other']);
      expect(pl.app.saved).toMatch(/\$t\(common\.undo\)$/);
    } finally {
      removeDir(dir);
    }
  });

  it('PO from a template: header (Language, Plural-Forms, charset) set, msgctxt entries apart, msgstr[n] per the target, comments kept', async () => {
    const dir = scratch();
    try {
      const r = await e2e.run(['translate', 'file', 'messages.pot', '--to', 'pl', '-o', 'none'], { cwd: dir });
      expect(r.code).toBe(0);
      expectTarget(dir, 'pl.po');
    } finally {
      removeDir(dir);
    }
  });

  it('Markdown: front matter, code, HTML blocks, link targets and table structure untouched', async () => {
    const dir = scratch();
    try {
      const r = await e2e.run(['translate', 'file', 'README.md', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect(r.code).toBe(0);
      expectTarget(dir, 'README.de.md');
    } finally {
      removeDir(dir);
    }
  });

  it('--out pattern and --out-dir name the targets; the lock goes above per-language directories', async () => {
    const dir = scratch();
    try {
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'de,fr', '--out', 'locales/{lang}/{name}.json', '-o', 'none'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(existsSync(join(dir, 'locales/de/en.json'))).toBe(true);
      expect(existsSync(join(dir, 'locales/fr/en.json'))).toBe(true);
      expect(JSON.parse(read(dir, 'locales/en.json.vxlock')).languages.de.target).toBe('de/en.json');
      const d = await e2e.run(['translate', 'file', 'README.md', '--to', 'fr', '--out-dir', 'docs', '-o', 'none'], { cwd: dir });
      expect(d.code).toBe(0);
      expect(existsSync(join(dir, 'docs/README.fr.md'))).toBe(true);
    } finally {
      removeDir(dir);
    }
  });
});

describe('vx translate sync', () => {
  it('a second sync with nothing changed sends no request and rewrites nothing', async () => {
    const dir = scratch();
    try {
      const files = ['SalesTools.g.xlf', 'app.xlf', 'en.json', 'messages.pot', 'README.md'];
      const first = await e2e.run(['translate', 'sync', ...files, '--to', 'de,ja', '-o', 'none'], { cwd: dir });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const n = calls();
      expect(n).toBeGreaterThan(0);
      // one request per language set: every file's texts together
      expect(n).toBe(1);
      const before = readdirSync(dir).map((f) => [f, read(dir, f)]);
      const again = await e2e.run(['translate', 'sync', ...files, '--to', 'de,ja', '-o', 'json'], { cwd: dir });
      expect(again.code).toBe(0);
      expect(calls()).toBe(n);
      expect(JSON.parse(again.stdout).every((s: { translated: number }) => s.translated === 0)).toBe(true);
      expect(readdirSync(dir).map((f) => [f, read(dir, f)])).toEqual(before);
      const check = await e2e.run(['translate', 'sync', ...files, '--to', 'de,ja', '--check', '-o', 'json'], { cwd: dir });
      expect(check.code).toBe(0);
      expect(JSON.parse(check.stdout)).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('only changed and new units are sent; a manual edit is kept; removed keys leave the target; --check lists what is stale and exits 9', async () => {
    const dir = scratch();
    try {
      expect((await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '-o', 'none'], { cwd: dir })).code).toBe(0);
      // a translator fixes one German value by hand; the developer changes one text, adds one and removes one
      writeFileSync(join(dir, 'de.json'), read(dir, 'de.json').replace(/"title": "[^"]*"/, '"title": "Auftragsverwaltung"'));
      writeFileSync(
        join(dir, 'en.json'),
        read(dir, 'en.json')
          .replace('"Undo"', '"Undo the change"')
          .replace('"friend_female": "A girlfriend",', '"friend_female": "A girlfriend",\n  "added": "Brand new",')
          .replace('  "friend_male": "A boyfriend",\n', ''),
      );
      const check = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '--check', '-o', 'json'], { cwd: dir });
      expect(check.code).toBe(9);
      expect(check.stderr).toBe('vx: 4 units are missing or stale (de: 2, fr: 2); run vx translate sync to translate them\n');
      expect(JSON.parse(check.stdout).map((s: { language: string; unit: string; status: string }) => `${s.language} ${s.unit} ${s.status}`)).toEqual([
        'de common.undo stale',
        'de added missing',
        'fr common.undo stale',
        'fr added missing',
      ]);
      const n = calls();
      const r = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '-o', 'json'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('vx: de.json: kept manual edit of unit "app.title" (line 3 of en.json)\n'.replace('vx: ', ''));
      // the two texts, to both languages, in one request
      expect(calls()).toBe(n + 1);
      expect(e2e.emu.state.translator.calls[n].texts).toEqual(['Undo the change', 'Brand new']);
      const de = JSON.parse(read(dir, 'de.json'));
      expect(de.app.title).toBe('Auftragsverwaltung');
      expect(de.common.undo).toBe('[de] Ûñðö ţĥé çĥåñĝé');
      expect(de.added).toBe('[de] Ɓŕåñð ñéŵ');
      expect('friend_male' in de).toBe(false);
      expect(JSON.parse(r.stdout)).toEqual([
        { source: 'en.json', language: 'de', target: 'de.json', translated: 2, unchanged: 9, kept: 1, untranslated: 0, removed: 1 },
        { source: 'en.json', language: 'fr', target: 'fr.json', translated: 2, unchanged: 10, kept: 0, untranslated: 0, removed: 1 },
      ]);
      // the manual edit is now what the lock knows: nothing to do
      const after = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '--check'], { cwd: dir });
      expect(after.code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });

  it('PO: an entry the template lost is kept as obsolete; translator comments and fuzzy flags of the target survive', async () => {
    const dir = scratch();
    try {
      expect((await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      writeFileSync(join(dir, 'de.po'), read(dir, 'de.po').replace('#: src/main.c:42\n', '# Checked by Anna\n#: src/main.c:42\n#, fuzzy\n'));
      writeFileSync(join(dir, 'messages.pot'), read(dir, 'messages.pot').replace(/#: src\/menu\.c:12\nmsgctxt "menu"\nmsgid "Open"\nmsgstr ""\n\n/, ''));
      const r = await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect(r.code).toBe(0);
      const de = read(dir, 'de.po');
      expect(de).toContain('# Checked by Anna\n#. The main window\'s title\n#: src/main.c:42\n#, fuzzy\nmsgid "Order manager"\nmsgstr "[de] Öŕðéŕ ɱåñåĝéŕ"\n');
      expect(de.endsWith('\n#: src/menu.c:12\n#~ msgctxt "menu"\n#~ msgid "Open"\n#~ msgstr "[de] Öþéñ"\n')).toBe(true);
    } finally {
      removeDir(dir);
    }
  });
  it('XLIFF: approved="yes" and a translator\'s note added in the target survive a sync that translates another unit again', async () => {
    const dir = tempDir('vx-files-');
    try {
      const unit = (id: string, text: string) => `      <trans-unit id="${id}">\n        <source>${text}</source>\n      </trans-unit>\n`;
      const xlf = (body: string) => `<xliff version="1.2">\n  <file source-language="en" original="A">\n    <body>\n${body}    </body>\n  </file>\n</xliff>\n`;
      writeFileSync(join(dir, 'A.g.xlf'), xlf(unit('a', 'Save') + unit('b', 'Open')));
      expect((await e2e.run(['translate', 'sync', 'A.g.xlf', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      // a reviewer approves a and leaves a note; the source of b changes
      const reviewed = read(dir, 'A.de.xlf')
        .replace('<trans-unit id="a">', '<trans-unit id="a" approved="yes">')
        .replace('<target state="needs-review-translation">[de] Šåṽé</target>\n', '<target state="signed-off">[de] Šåṽé</target>\n        <note from="reviewer">Checked in the UI</note>\n');
      writeFileSync(join(dir, 'A.de.xlf'), reviewed);
      writeFileSync(join(dir, 'A.g.xlf'), xlf(unit('a', 'Save') + unit('b', 'Open all')));
      const r = await e2e.run(['translate', 'sync', 'A.g.xlf', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(JSON.parse(r.stdout)[0]).toMatchObject({ translated: 1, unchanged: 1 });
      expect(read(dir, 'A.de.xlf')).toBe(
        xlf(
          '      <trans-unit id="a" approved="yes">\n        <source>Save</source>\n        <target state="signed-off">[de] Šåṽé</target>\n        <note from="reviewer">Checked in the UI</note>\n      </trans-unit>\n' +
            '      <trans-unit id="b">\n        <source>Open all</source>\n        <target state="needs-review-translation">[de] Öþéñ åļļ</target>\n      </trans-unit>\n',
        ).replace('original="A"', 'original="A" target-language="de"'),
      );
    } finally {
      removeDir(dir);
    }
  });
});

describe('segmented XLIFF 1.2 (<seg-source>, as CAT tools and Okapi write it)', () => {
  it('the target follows <seg-source> (the schema order) and mirrors its <mrk mtype="seg"> segments, each translated; a second sync sends nothing', async () => {
    const dir = tempDir('vx-files-segsrc-');
    try {
      const unit = (target = '') =>
        '      <trans-unit id="1">\n        <source>First sentence. Second <g id="1">bold</g> one.</source>\n' +
        '        <seg-source><mrk mtype="seg" mid="1">First sentence.</mrk> <mrk mtype="seg" mid="2">Second <g id="1">bold</g> one.</mrk></seg-source>\n' +
        target +
        '      </trans-unit>\n';
      const doc = (lang: string, body: string) =>
        `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file original="doc.html" source-language="en" datatype="html"${lang}>\n    <body>\n${body}    </body>\n  </file>\n</xliff>\n`;
      writeFileSync(join(dir, 'doc.xlf'), doc('', unit()));
      const n = calls();
      const r = await e2e.run(['translate', 'file', 'doc.xlf', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(e2e.emu.state.translator.calls.slice(n).flatMap((c) => c.texts).sort()).toEqual(['First sentence.', 'Second <span class="notranslate">&lt;g id="1"&gt;</span>bold<span class="notranslate">&lt;/g&gt;</span> one.']);
      expect(read(dir, 'doc.de.xlf')).toBe(
        doc(
          ' target-language="de"',
          unit(
            '        <target state="needs-review-translation"><mrk mtype="seg" mid="1">[de] Ƒîŕšţ šéñţéñçé.</mrk> <mrk mtype="seg" mid="2">[de] Šéçöñð <g id="1">ƀöļð</g> öñé.</mrk></target>\n',
          ),
        ),
      );
      const m = calls();
      const again = await e2e.run(['translate', 'sync', 'doc.xlf', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect([again.code, JSON.parse(again.stdout)[0].unchanged, calls()]).toEqual([0, 1, m]);
    } finally {
      removeDir(dir);
    }
  });
});

describe('YAML locale files', () => {
  const SOURCE = [
    '# Rails locale',
    'en:',
    '  hello: Hello world',
    '  greeting: "Hello, %{name}!"',
    "  quoted: 'It''s here'",
    '  long: |',
    '    First line',
    '    Second line',
    '  base: &base Anchored text',
    '  alias: *base',
    '  count: 42',
    '  list: [Apples, "Pears"]',
    '  inbox:',
    '    one: "%{count} message"',
    '    other: "%{count} messages"',
    '  files: {one: "1 file", other: "%{count} files"}',
    '  nested:',
    '    deep: Deep value # a trailing comment',
    '',
  ].join('\n');

  it('Rails: the root language key becomes the target language, values replaced in place, plural forms per language, the rest byte for byte', async () => {
    const dir = tempDir('vx-files-yaml-');
    try {
      writeFileSync(join(dir, 'en.yml'), SOURCE);
      const r = await e2e.run(['translate', 'file', 'en.yml', '--to', 'pl', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr, JSON.parse(r.stdout)[0].target]).toEqual([0, '', 'pl.yml']);
      // from=en, taken from the root key
      expect(new URLSearchParams(e2e.emu.state.translator.calls.at(-1)!.query).get('from')).toBe('en');
      expect(read(dir, 'pl.yml')).toBe(
        [
          '# Rails locale',
          'pl:',
          '  hello: "[pl] Ĥéļļö ŵöŕļð"',
          '  greeting: "[pl] Ĥéļļö, %{name}!"',
          '  quoted: "[pl] Îţ\'š ĥéŕé"',
          '  long: "[pl] Ƒîŕšţ ļîñé\\nŠéçöñð ļîñé\\n"',
          '  base: &base "[pl] Åñçĥöŕéð ţéẋţ"',
          '  alias: *base',
          '  count: 42',
          '  list: ["[pl] Åþþļéš", "[pl] Þéåŕš"]',
          '  inbox:',
          '    one: "%{count} [pl] ɱéššåĝé"',
          '    few: "%{count} [pl] ɱéššåĝéš"',
          '    many: "%{count} [pl] ɱéššåĝéš"',
          '    other: "%{count} [pl] ɱéššåĝéš"',
          '  files: { one: "[pl] 1 ƒîļé", few: "%{count} [pl] ƒîļéš", many: "%{count} [pl] ƒîļéš", other: "%{count} [pl] ƒîļéš" }',
          '  nested:',
          '    deep: "[pl] Ðééþ ṽåļûé" # a trailing comment',
          '',
        ].join('\n'),
      );
      // sync: a value changed by hand is kept, a new key and a changed source are translated, the rest is not sent again
      writeFileSync(join(dir, 'pl.yml'), read(dir, 'pl.yml').replace('"[pl] Ĥéļļö ŵöŕļð"', 'Witaj świecie'));
      writeFileSync(join(dir, 'en.yml'), SOURCE.replace('  count: 42', '  count: 42\n  added: New text').replace('Deep value', 'Deeper value'));
      const n = calls();
      const sync = await e2e.run(['translate', 'sync', 'en.yml', '--to', 'pl', '-o', 'json'], { cwd: dir });
      expect([sync.code, JSON.parse(sync.stdout)[0]]).toMatchObject([0, { translated: 2, kept: 1 }]);
      expect(e2e.emu.state.translator.calls.slice(n).flatMap((c) => c.texts).sort()).toEqual(['Deeper value', 'New text']);
      expect(read(dir, 'pl.yml')).toContain('  hello: Witaj świecie\n');
      expect(read(dir, 'pl.yml')).toContain('  count: 42\n  added: "[pl] Ñéŵ ţéẋţ"\n');
      const m = calls();
      const check = await e2e.run(['translate', 'sync', 'en.yml', '--to', 'pl', '--check', '-o', 'json'], { cwd: dir });
      expect([check.code, JSON.parse(check.stdout), calls()]).toEqual([0, [], m]);
      // plural forms written by hand for some of the language's forms are kept: only the missing ones are translated
      writeFileSync(join(dir, 'pl.yml'), read(dir, 'pl.yml').replace(/  inbox:\n(    .*\n)+/, '  inbox:\n    one: "%{count} wiadomość"\n    other: "%{count} wiadomości"\n'));
      const forms = await e2e.run(['translate', 'sync', 'en.yml', '--to', 'pl', '-o', 'none'], { cwd: dir });
      expect(forms.code).toBe(0);
      expect(read(dir, 'pl.yml')).toContain('  inbox:\n    one: "%{count} wiadomość"\n    few: "%{count} [pl] ɱéššåĝéš"\n    many: "%{count} [pl] ɱéššåĝéš"\n    other: "%{count} wiadomości"\n');
    } finally {
      removeDir(dir);
    }
  });

  it('a file without a root language key goes beside its source; CRLF is kept; malformed YAML is exit 2 naming the place, nothing written', async () => {
    const dir = tempDir('vx-files-yaml2-');
    try {
      writeFileSync(join(dir, 'strings.yml'), 'title: Settings\r\nbody: |\r\n  Two\r\n  lines\r\nafter: Done\r\n');
      const r = await e2e.run(['translate', 'file', 'strings.yml', '--to', 'de', '--from', 'en', '-o', 'none'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(read(dir, 'strings.de.yml')).toBe('title: "[de] Šéţţîñĝš"\r\nbody: "[de] Ţŵö\\nļîñéš\\n"\r\nafter: "[de] Ðöñé"\r\n');
      writeFileSync(join(dir, 'bad.yml'), 'a: x\na: y\n');
      const bad = await e2e.run(['translate', 'file', 'bad.yml', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect([bad.code, bad.stderr]).toEqual([2, 'vx: bad.yml:2:1: malformed YAML: Map keys must be unique\n']);
      expect(existsSync(join(dir, 'bad.de.yml'))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });
});

describe('vx translate file over translations made by hand', () => {
  it('replaces them (file translates every unit) but says so, naming how many and that sync keeps them', async () => {
    const dir = tempDir('vx-files-byhand-');
    try {
      writeFileSync(join(dir, 'en.json'), '{ "a": "Save", "b": "Open", "c": "Close" }\n');
      expect((await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      // a reviewer fixes two of them
      writeFileSync(join(dir, 'de.json'), read(dir, 'de.json').replace('[de] Šåṽé', 'Speichern').replace('[de] Öþéñ', 'Öffnen'));
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, 'warning: de.json: 2 translations not written by vx (edited by hand, or there before vx) were replaced by machine translations; vx translate sync keeps them\n']);
      expect(JSON.parse(read(dir, 'de.json')).a).toBe('[de] Šåṽé');
      // a run over its own translations says nothing
      const again = await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect([again.code, again.stderr]).toEqual([0, '']);
    } finally {
      removeDir(dir);
    }
  });
});

describe('file names that are words, not languages', () => {
  it('app.json, ui.json, web/strings.json name no language: detected, targets beside them (they were sent as from=app, 400035)', async () => {
    const dir = tempDir('vx-files-names-');
    try {
      for (const f of ['app.json', 'ui.json', 'web/strings.json', 'en.json', 'fil.json', 'pt_BR.json']) {
        mkdirSync(join(dir, f, '..'), { recursive: true });
        writeFileSync(join(dir, f), '{ "a": "Save changes" }\n');
      }
      const n = calls();
      const r = await e2e.run(['translate', 'file', 'app.json', 'ui.json', 'web/strings.json', '--to', 'fr', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(JSON.parse(r.stdout).map((x: { target: string }) => x.target)).toEqual(['app.fr.json', 'ui.fr.json', 'web/strings.fr.json']);
      expect(e2e.emu.state.translator.calls.slice(n).map((c) => new URLSearchParams(c.query).get('from'))).toEqual([null]);
      // a name that is a language still is one (a language of the service's scope, or one Intl knows)
      for (const [f, from, target] of [['en.json', 'en', 'fr.json'], ['fil.json', 'fil', 'fr.json'], ['pt_BR.json', 'pt', 'fr.json']]) {
        const m = calls();
        const x = await e2e.run(['translate', 'file', f, '--to', 'fr', '-o', 'json'], { cwd: dir });
        expect([x.code, JSON.parse(x.stdout)[0].target], f).toEqual([0, target]);
        expect(new URLSearchParams(e2e.emu.state.translator.calls[m].query).get('from'), f).toBe(from);
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('translation memory and budget', () => {
  it('targets translated again (a fresh checkout) come from the memory: nothing sent again', async () => {
    const dir = scratch();
    try {
      const first = await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '--memory', 'vx.tm', '--verbose', '-o', 'none'], { cwd: dir });
      expect(first.code).toBe(0);
      // --verbose tells each request when its answer arrives, names the files it creates, and ends with the summary
      expect(first.stderr).toMatch(/^POST \S+ -> 200 in \d+ ms \(request id [^)]+\)\ncreated the translation memory \S+vx\.tm .*\ncreated en\.json\.vxlock: .*\nsent 12 distinct texts in 1 request; .*; memory hits: 0\n$/);
      const n = calls();
      // the targets are gone (a fresh checkout): everything is translated again, from the memory
      for (const f of ['de.json', 'en.json.vxlock']) (await import('node:fs')).rmSync(join(dir, f));
      const again = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de', '--memory', 'vx.tm', '--verbose', '-o', 'json'], { cwd: dir });
      expect(again.code).toBe(0);
      expect(calls()).toBe(n);
      expect(again.stderr).toMatch(/sent 0 distinct texts in 0 requests; .*; memory hits: 12/);
      expect(JSON.parse(read(dir, 'de.json')).app.title).toBe('[de] Öŕðéŕ ɱåñåĝéŕ');
    } finally {
      removeDir(dir);
    }
  });

  it('a language added to a project pays for that language alone: what the memory holds for the others is not sent again', async () => {
    const dir = scratch();
    try {
      expect((await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '--memory', 'vx.tm', '-o', 'none'], { cwd: dir })).code).toBe(0);
      const n = calls();
      // a fresh checkout (no targets) that also adds fr: de comes from the memory, only fr is sent
      for (const f of ['de.json', 'en.json.vxlock']) (await import('node:fs')).rmSync(join(dir, f));
      const r = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '--memory', 'vx.tm', '--verbose', '-o', 'none'], { cwd: dir });
      expect(r.code).toBe(0);
      const sent = e2e.emu.state.translator.calls.slice(n);
      expect(sent.map((c) => new URLSearchParams(c.query).getAll('to'))).toEqual([['fr']]);
      // --verbose says the memory answered them for de (it said "memory hits: 0")
      expect(r.stderr).toMatch(/sent 12 distinct texts in 1 request; .*; memory hits: 0 \(and 12 for some languages, sent for the others only\)\n$/);
      expect(sent[0].texts).toHaveLength(12);
      expect(JSON.parse(read(dir, 'de.json')).app.title).toBe('[de] Öŕðéŕ ɱåñåĝéŕ');
      expect(JSON.parse(read(dir, 'fr.json')).app.title).toBe('[fr] Öŕðéŕ ɱåñåĝéŕ');
    } finally {
      removeDir(dir);
    }
  });

  it("a vendor's TMX imported into the memory answers the units it holds (placeholders and markup included): only the rest is sent", async () => {
    const dir = tempDir('vx-files-tmx-');
    try {
      writeFileSync(
        join(dir, 'en.json'),
        JSON.stringify({ save: 'Save changes', hello: 'Hello {{name}}', title: 'My <b>App</b>', amp: 'Fish &amp; chips', printf: '  %d files  ', other: 'Not in the TMX' }, null, 2),
      );
      // as a CAT tool writes it: en-US -> de-DE, inline codes as <ph>/<bpt>/<ept>
      const tu = (en: string, de: string) => `<tu><tuv xml:lang="en-US"><seg>${en}</seg></tuv><tuv xml:lang="de-DE"><seg>${de}</seg></tuv></tu>`;
      writeFileSync(
        join(dir, 'vendor.tmx'),
        `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="cat" creationtoolversion="1" segtype="sentence" o-tmf="cat" adminlang="en" srclang="en-US" datatype="plaintext"/><body>\n` +
          tu('Save changes', 'Änderungen speichern') +
          tu('Hello <ph x="1">{{name}}</ph>', 'Hallo <ph x="1">{{name}}</ph>') +
          tu('My <bpt i="1">&lt;b&gt;</bpt>App<ept i="1">&lt;/b&gt;</ept>', 'Meine <bpt i="1">&lt;b&gt;</bpt>App<ept i="1">&lt;/b&gt;</ept>') +
          tu('Fish &amp;amp; chips', 'Fisch &amp;amp; Pommes') +
          tu('%d files', '%d Dateien') +
          '\n</body></tmx>\n',
      );
      const imp = await e2e.run(['translate', 'memory', 'import', 'vendor.tmx', '--memory', 'vx.tm'], { cwd: dir });
      expect(imp.code).toBe(0);
      const n = calls();
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'de-DE', '--from', 'en', '--memory', 'vx.tm', '--verbose', '-o', 'none'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/sent 1 distinct text in 1 request; .*; memory hits: 5\n$/);
      expect(e2e.emu.state.translator.calls.slice(n).map((c) => c.texts)).toEqual([['Not in the TMX']]);
      expect(JSON.parse(read(dir, 'de-DE.json'))).toEqual({
        save: 'Änderungen speichern',
        hello: 'Hallo {{name}}',
        title: 'Meine <b>App</b>',
        amp: 'Fisch &amp; Pommes',
        printf: '  %d Dateien  ',
        other: '[de] Ñöţ îñ ţĥé ŢṀẊ',
      });
      // an entry whose placeholders do not match the unit's is not taken: the unit is sent
      writeFileSync(join(dir, 'bad.tmx'), readFileSync(join(dir, 'vendor.tmx'), 'utf8').replace('Hallo <ph x="1">{{name}}</ph>', 'Hallo {{nom}}'));
      expect((await e2e.run(['translate', 'memory', 'import', 'bad.tmx', '--memory', 'vx2.tm'], { cwd: dir })).code).toBe(0);
      const m = calls();
      const bad = await e2e.run(['translate', 'file', 'en.json', '--to', 'de-DE', '--from', 'en', '--memory', 'vx2.tm', '--out', '{name}.{lang}.json', '-o', 'none'], { cwd: dir });
      expect(bad.code).toBe(0);
      expect(e2e.emu.state.translator.calls.slice(m).flatMap((c) => c.texts).sort()).toEqual(['Hello <span class="notranslate">{{name}}</span>', 'Not in the TMX']);
      expect(JSON.parse(read(dir, 'en.de-DE.json')).hello).toBe('[de] Ĥéļļö {{name}}');
    } finally {
      removeDir(dir);
    }
  });

  it('--budget stops before a request that would cross it: exit 6, nothing written', async () => {
    const dir = scratch();
    try {
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'de,fr', '--budget', '100'], { cwd: dir });
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/^vx: --budget 100 characters reached/);
      expect(calls()).toBe(0);
      expect(existsSync(join(dir, 'de.json'))).toBe(false);
      // --dry-run plans the same run: the requests up to the one that would cross the budget, then the run's stop
      writeFileSync(join(dir, 'big.json'), JSON.stringify(Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`k${i}`, `Text ${i}`]))));
      const all = await e2e.run(['translate', 'file', 'big.json', '--from', 'en', '--to', 'de,fr', '--dry-run', '-o', 'json'], { cwd: dir });
      const planned = JSON.parse(all.stdout) as { url: string; body: { Text: string }[] }[];
      expect([all.code, planned.length > 1]).toEqual([0, true]);
      const cost = (p: (typeof planned)[number]) => p.body.reduce((n, b) => n + [...b.Text].length, 0) * new URL(p.url).searchParams.getAll('to').length;
      const budget = String(cost(planned[0]));
      const n = (x: number) => x.toLocaleString('en-US');
      const dry = await e2e.run(['translate', 'file', 'big.json', '--from', 'en', '--to', 'de,fr', '--budget', budget, '--dry-run', '-o', 'json'], { cwd: dir });
      const real = await e2e.run(['translate', 'file', 'big.json', '--from', 'en', '--to', 'de,fr', '--budget', budget, '--concurrency', '1'], { cwd: dir });
      expect([real.code, real.stderr]).toEqual([6, `vx: --budget ${n(+budget)} characters reached: ${n(+budget)} billed so far, the next request would bill ${n(cost(planned[1]))} more\nno target was written (each stays as it was)\n`]);
      const requests = (ps: typeof planned) => ps.map((p) => [p.url, p.body]);
      expect([dry.code, dry.stderr, requests(JSON.parse(dry.stdout) as typeof planned)]).toEqual([6, real.stderr, requests(planned.slice(0, 1))]);
      expect(calls()).toBe(1);
      expect(existsSync(join(dir, 'big.de.json'))).toBe(false);
      const est = await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '--estimate'], { cwd: dir });
      expect([est.code, est.stderr]).toEqual([2, "vx: --estimate does not apply to vx translate file: 'vx translate sync --check' lists what would be sent, --dry-run prints the requests\n"]);
    } finally {
      removeDir(dir);
    }
  });
});

describe('bad input', () => {
  it('malformed XML, JSON and PO name file, line and column; exit 2; no target touched', async () => {
    const dir = scratch();
    try {
      writeFileSync(join(dir, 'bad.xlf'), '<xliff version="1.2">\n  <file>\n    <body></file>\n</xliff>\n');
      writeFileSync(join(dir, 'bad.json'), '{\n  "a": "x",\n  "b": \n}\n');
      writeFileSync(join(dir, 'bad.po'), 'msgid "a"\nmsgstr "b"\n\nmsgid "c\nmsgstr ""\n');
      writeFileSync(join(dir, 'de.json'), 'untouched');
      const x = await e2e.run(['translate', 'file', 'bad.xlf', '--to', 'de'], { cwd: dir });
      expect([x.code, x.stderr]).toEqual([2, 'vx: bad.xlf:3:17: unexpected close tag\n']);
      const j = await e2e.run(['translate', 'file', 'bad.json', '--to', 'de'], { cwd: dir });
      expect([j.code, j.stderr]).toEqual([2, 'vx: bad.json:4:1: malformed JSON: value expected\n']);
      const p = await e2e.run(['translate', 'file', 'bad.po', '--to', 'de'], { cwd: dir });
      expect([p.code, p.stderr]).toEqual([2, 'vx: bad.po:4:1: malformed PO: expected a quoted string, found "\\"c"\n']);
      // a malformed existing target: nothing written either
      writeFileSync(join(dir, 'en.json'), '{"a": "Hello"}');
      const t = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de'], { cwd: dir });
      expect([t.code, t.stderr]).toEqual([2, 'vx: de.json:1:1: malformed JSON: invalid symbol\n']);
      expect(read(dir, 'de.json')).toBe('untouched');
      expect(calls()).toBe(0);
      expect(readdirSync(dir).filter((f) => f.endsWith('.vxlock') || f.endsWith('.tmp'))).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('a JSON key given twice is refused naming the key and both lines (readers keep only the last); exit 2, nothing sent', async () => {
    const dir = tempDir('vx-files-');
    try {
      writeFileSync(join(dir, 'en.json'), '{\n  "menu": {\n    "open": "Open",\n    "save": "Save",\n    "open": "Open file"\n  }\n}\n');
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'de'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([2, 'vx: en.json:5:5: duplicate key "menu.open" (first on line 3): JSON readers keep only its last value; remove one of them\n']);
      expect(existsSync(join(dir, 'de.json'))).toBe(false);
      // in an existing target too: which copy to keep is not vx's to guess
      writeFileSync(join(dir, 'en.json'), '{"a": "Open", "b": "Save"}\n');
      writeFileSync(join(dir, 'de.json'), '{"a": "Öffnen", "b": "Speichern", "a": "Aufmachen"}\n');
      const t = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de'], { cwd: dir });
      expect([t.code, t.stderr]).toEqual([2, 'vx: de.json:1:35: duplicate key "a" (first on line 1): JSON readers keep only its last value; remove one of them\n']);
      expect(read(dir, 'de.json')).toBe('{"a": "Öffnen", "b": "Speichern", "a": "Aufmachen"}\n');
      expect(calls()).toBe(0);
    } finally {
      removeDir(dir);
    }
  });

  it('a PO file in Latin-1 is refused naming its charset and msgconv; an ASCII file declaring Latin-1 gets a target saying UTF-8', async () => {
    const dir = tempDir('vx-files-');
    try {
      const pot = (charset: string, msgid: string) =>
        `msgid ""\nmsgstr ""\n"Language: \\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=${charset}\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n\nmsgid "${msgid}"\nmsgstr ""\n`;
      writeFileSync(join(dir, 'messages.pot'), Buffer.from(pot('ISO-8859-1', 'Caf\u00e9'), 'latin1'));
      const r = await e2e.run(['translate', 'file', 'messages.pot', '--to', 'de'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([2, 'vx: messages.pot is in ISO-8859-1 (its header says charset=ISO-8859-1), not UTF-8: vx reads and writes PO files in UTF-8 only; convert it first: msgconv --to-code=UTF-8 messages.pot -o messages.pot\n']);
      // the command to run is quoted for the shell where the name needs it
      writeFileSync(join(dir, "my app's.pot"), Buffer.from(pot('latin1', 'Caf\u00e9'), 'latin1'));
      const q = await e2e.run(['translate', 'file', "my app's.pot", '--to', 'de'], { cwd: dir });
      expect([q.code, q.stderr]).toEqual([2, `vx: my app's.pot is in latin1 (its header says charset=latin1), not UTF-8: vx reads and writes PO files in UTF-8 only; convert it first: msgconv --to-code=UTF-8 'my app'\\''s.pot' -o 'my app'\\''s.pot'\n`]);
      rmSync(join(dir, "my app's.pot"));
      // an existing target in Latin-1: refused, left as it was
      writeFileSync(join(dir, 'messages.pot'), pot('UTF-8', 'Coffee'));
      const old = Buffer.from(pot('ISO-8859-1', 'Coffee').replace('msgstr ""\n', 'msgstr ""\n').replace(/msgstr ""\n$/, 'msgstr "Kaff\u00e9e"\n'), 'latin1');
      writeFileSync(join(dir, 'de.po'), old);
      const t = await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de'], { cwd: dir });
      expect([t.code, t.stderr]).toEqual([2, 'vx: de.po is in ISO-8859-1 (its header says charset=ISO-8859-1), not UTF-8: vx reads and writes PO files in UTF-8 only; convert it first: msgconv --to-code=UTF-8 de.po -o de.po\n']);
      expect(readFileSync(join(dir, 'de.po')).equals(old)).toBe(true);
      expect(calls()).toBe(0);
      // ASCII bytes under a Latin-1 header read as UTF-8; the target, written in UTF-8, says so
      rmSync(join(dir, 'de.po'));
      writeFileSync(join(dir, 'messages.pot'), pot('ISO-8859-1', 'Coffee'));
      expect((await e2e.run(['translate', 'file', 'messages.pot', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      expect(read(dir, 'de.po')).toContain('"Content-Type: text/plain; charset=UTF-8\\n"\n');
      writeFileSync(join(dir, 'de.po'), read(dir, 'de.po').replace('charset=UTF-8', 'charset=ISO-8859-1').replace(/msgstr "[^"]+"\n$/, 'msgstr ""\n'));
      expect((await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      expect(read(dir, 'de.po')).toContain('"Content-Type: text/plain; charset=UTF-8\\n"\n');
      expect(read(dir, 'de.po')).toMatch(/msgid "Coffee"\nmsgstr "\[de\] [^"]+"\n$/);
    } finally {
      removeDir(dir);
    }
  });

  it('a service failure after the retries: its exit code, and no target written', async () => {
    const dir = scratch();
    try {
      e2e.emu.setFaults('translator/503:1,retry-after:0');
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '--retries', '1'], { cwd: dir });
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/^vx: HTTP 503 .*\nno target was written \(each stays as it was\)\n$/);
      expect(existsSync(join(dir, 'de.json'))).toBe(false);
      expect(existsSync(join(dir, 'en.json.vxlock'))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });

  it('an unknown --format or extension is exit 2 naming the formats', async () => {
    const dir = scratch();
    try {
      writeFileSync(join(dir, 'notes.txt'), 'hello');
      const f = await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '--format', 'toml'], { cwd: dir });
      expect(f.code).toBe(2);
      expect(f.stderr).toMatch(/--format.*xliff, json, yaml, po, md, android, resx, properties, strings, stringsdict, arb, xcstrings, auto/);
      const a = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de', '--alignment'], { cwd: dir });
      expect([a.code, a.stderr]).toEqual([2, 'vx: --alignment does not apply to vx translate sync (locale files are sent as HTML with their placeholders protected)\n']);
      const e = await e2e.run(['translate', 'file', 'notes.txt', '--to', 'de'], { cwd: dir });
      expect([e.code, e.stderr]).toEqual([2, 'vx: cannot tell the format of notes.txt from its extension: give --format xliff|json|yaml|po|md|android|resx|properties|strings|stringsdict|arb|xcstrings (known extensions: .xlf .xliff .xlf2 .json .yml .yaml .po .pot .md .markdown .mdx .resx .properties .strings .stringsdict .arb .xcstrings; an Android res/values*/*.xml by its place)\n']);
    } finally {
      removeDir(dir);
    }
  });

  it('a source and a target with different unit sets are reconciled: extra target keys go, missing ones are translated', async () => {
    const dir = scratch();
    try {
      writeFileSync(join(dir, 'de.json'), '{\n  "app": { "title": "Auftragsverwaltung", "old": "Alt" },\n  "gone": "Weg"\n}\n');
      const r = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect(r.code).toBe(0);
      const de = JSON.parse(read(dir, 'de.json'));
      expect(de.app.title).toBe('Auftragsverwaltung');
      expect(de.app.old).toBeUndefined();
      expect(de.gone).toBeUndefined();
      expect(de.common.undo).toBe('[de] Ûñðö');
    } finally {
      removeDir(dir);
    }
  });
});

describe('an answer whose placeholders the service broke, with a memory', () => {
  it('is not kept in the memory (nor taken from it when an earlier run kept it): the next run sends that unit again', async () => {
    const dir = tempDir('vx-files-brokenph-');
    // a translator that drops the protected {{name}} while broken
    let broken = true;
    const stub = stubTranslator((text, to) => `${to}:${broken ? text.replace(/<span class="notranslate">[^<]*<\/span>/, '') : text}`);
    const url = await stub.listen();
    try {
      writeFileSync(join(dir, 'en.json'), '{ "a": "Hello {{name}}", "b": "Bye" }\n');
      const env = { VX_TRANSLATOR_ENDPOINT: url };
      const args = ['translate', 'file', 'en.json', '--to', 'de', '--from', 'en', '--memory', 'vx.tm', '-o', 'none'];
      const r = await e2e.run(args, { cwd: dir, env });
      expect([r.code, r.stderr]).toEqual([1, 'warning: de.json: unit "a" (line 1 of en.json): placeholders changed (missing {{name}}); left untranslated\nvx: 1 unit was not translated (listed above); everything else was written\n']);
      broken = false;
      stub.sent.length = 0;
      const again = await e2e.run(args, { cwd: dir, env });
      expect([again.code, again.stderr, stub.sent]).toEqual([0, '', ['Hello <span class="notranslate">{{name}}</span>']]);
      expect(JSON.parse(read(dir, 'de.json'))).toEqual({ a: 'de:Hello {{name}}', b: 'de:Bye' });
      // a broken answer an earlier vx kept (here: vx translate with the same options) is not taken either
      broken = true;
      rmSync(join(dir, 'vx.tm'));
      rmSync(join(dir, 'vx.tm-lock'), { force: true });
      const kept = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--text-type', 'html', '--memory', 'vx.tm', 'Hello <span class="notranslate">{{name}}</span>'], { cwd: dir, env });
      expect([kept.code, kept.stdout]).toEqual([0, 'de:Hello \n']);
      broken = false;
      stub.sent.length = 0;
      const healed = await e2e.run(args, { cwd: dir, env });
      expect([healed.code, stub.sent]).toEqual([0, ['Hello <span class="notranslate">{{name}}</span>', 'Bye']]);
    } finally {
      await stub.close();
      removeDir(dir);
    }
  });
});

describe('an answer without a text for a target', () => {
  it('is not written and not stored in the memory: the next run sends it again (the memory answered nothing for it ever after)', async () => {
    const dir = tempDir('vx-files-notext-');
    // a translator whose answer for de lacks its text
    let broken = true;
    const stub = stubTranslator((text, to) => (broken && to === 'de' ? { to } : `${to}:${text}`));
    const url = await stub.listen();
    try {
      writeFileSync(join(dir, 'en.json'), '{ "a": "Hello" }\n');
      const env = { VX_TRANSLATOR_ENDPOINT: url };
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'de,fr', '--memory', 'vx.tm', '-o', 'none'], { cwd: dir, env });
      expect([r.code, r.stderr]).toEqual([1, 'warning: de.json: unit "a" (line 1 of en.json): the service gave no translation; left untranslated\nvx: 1 unit was not translated (listed above); everything else was written\n']);
      expect(read(dir, 'fr.json')).toBe('{ "a": "fr:Hello" }\n');
      // the service is well again: de is sent (fr comes from the memory), and written
      broken = false;
      const again = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '--memory', 'vx.tm', '-o', 'none'], { cwd: dir, env });
      expect([again.code, again.stderr]).toEqual([0, '']);
      expect([stub.sent, stub.targets]).toEqual([['Hello', 'Hello'], [['de', 'fr'], ['de']]]);
      expect(read(dir, 'de.json')).toBe('{ "a": "de:Hello" }\n');
    } finally {
      await stub.close();
      removeDir(dir);
    }
  });
});

describe('placeholders the service broke', () => {
  // a translator that drops the protecting spans of the first placeholder of each text
  const stub = stubTranslator((text) => upper(text.replace(/<span class="notranslate">[^<]*<\/span>/, '')));
  let url: string;
  beforeAll(async () => {
    url = await stub.listen();
  });
  afterAll(() => stub.close());

  it('are not written as translated, are listed on stderr, and the run exits 1 after writing everything else', async () => {
    const dir = scratch();
    try {
      const env = { VX_TRANSLATOR_ENDPOINT: url };
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '-o', 'none'], { cwd: dir, env });
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toContain('warning: de.json: unit "app.welcome" (line 4 of en.json): placeholders changed (missing {{name}}); left untranslated');
      expect(lines[lines.length - 1]).toMatch(/^vx: \d+ units were not translated \(listed above\); everything else was written$/);
      const de = JSON.parse(read(dir, 'de.json'));
      expect(de.app.welcome).toBeUndefined();
      expect(de.app.title).toBe('ORDER MANAGER');
      // PO can say "for review": the broken translation is written fuzzy
      const p = await e2e.run(['translate', 'file', 'messages.pot', '--to', 'de', '-o', 'none'], { cwd: dir, env });
      expect(p.code).toBe(1);
      expect(read(dir, 'de.po')).toContain('#, fuzzy, c-format\nmsgid "Order %s was shipped on %s."\nmsgstr "ORDER  WAS SHIPPED ON %s."\n');
      // and the next sync tries them again
      const again = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de', '--check', '-o', 'json'], { cwd: dir, env });
      expect(again.code).toBe(9);
      expect(JSON.parse(again.stdout).map((s: { unit: string }) => s.unit)).toContain('app.welcome');
    } finally {
      removeDir(dir);
    }
  });
});

describe('Ctrl-C', () => {
  let server: Server;
  let url: string;
  let arrived: () => void = () => undefined;
  beforeAll(async () => {
    // a translator that answers the first request and holds every later one (the run is interrupted meanwhile)
    let n = 0;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (n++ > 0) return arrived();
        const to = new URL(req.url!, 'http://x').searchParams.getAll('to');
        const items = JSON.parse(body) as { Text: string }[];
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(items.map(({ Text }) => ({ translations: to.map((t) => ({ to: t, text: Text })) }))));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });

  it('leaves every target and the lock as they were, and no temporary file', async () => {
    const dir = scratch();
    try {
      // 1,500 units: two requests (1,000 items each at most); the second never answers
      const src = Object.fromEntries(Array.from({ length: 1500 }, (_x, i) => [`k${i}`, `Text number ${i}`]));
      writeFileSync(join(dir, 'big.json'), JSON.stringify(src, null, 2));
      writeFileSync(join(dir, 'big.de.json'), '{"k1": "Vorher"}\n');
      const before = readdirSync(dir).sort();
      const got = new Promise<void>((r) => (arrived = r));
      const r = await e2e.run(['translate', 'sync', 'big.json', '--to', 'de', '--concurrency', '1'], {
        cwd: dir,
        env: { VX_TRANSLATOR_ENDPOINT: url },
        onSpawn: (child) => void got.then(() => child.kill('SIGINT')),
      });
      expect(r.code).toBe(130);
      expect(read(dir, 'big.de.json')).toBe('{"k1": "Vorher"}\n');
      expect(readdirSync(dir).sort()).toEqual(before);
    } finally {
      removeDir(dir);
    }
  });
});

describe('at a terminal', () => {
  it.skipIf(!hasPty)('one progress bar per language on stderr, removed before the summary', async () => {
    const dir = scratch();
    try {
      const r = await runOnPty(['translate', 'file', join(dir, 'en.json'), '--to', 'de,fr', '-o', 'tsv'], { env: e2e.env, cols: 100 });
      expect(r.code).toBe(0);
      // both bars drawn (the second under the first), then both lines cleared
      expect(r.output).toMatch(/\r\u001b\[Kde {2}\[#{10,}\] 100% {2}12\/12 units {2}[\d,]+ units\/s\r\n\r\u001b\[Kfr {2}\[#{10,}\] 100% {2}12\/12 units/);
      expect(r.output).toContain('\r\u001b[K\u001b[1A\r\u001b[K');
      expect(r.output).toMatch(/de\.json\t12\t0\t0\t0\t0/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('review: keys and lock files', () => {
  it("keys named like an object's own properties (constructor, toString, __proto__) are units like any other, in the lock too", async () => {
    const dir = tempDir('vx-files-');
    try {
      writeFileSync(join(dir, 'en.json'), '{\n  "constructor": "Build",\n  "toString": "Text",\n  "__proto__": "Proto"\n}\n');
      // a target that was there before vx (no lock): adopted, not a crash
      writeFileSync(join(dir, 'de.json'), '{\n  "constructor": "Bauen",\n  "toString": "Text",\n  "__proto__": "Proto"\n}\n');
      const adopt = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect([adopt.code, adopt.stderr]).toEqual([0, '']);
      expect(JSON.parse(adopt.stdout)[0]).toMatchObject({ translated: 0, unchanged: 3 });
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'fr', '-o', 'none'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(Object.keys(JSON.parse(read(dir, 'en.json.vxlock')).languages.fr.units)).toEqual(['__proto__', 'constructor', 'toString']);
      const n = calls();
      const again = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '-o', 'json'], { cwd: dir });
      expect([again.code, again.stderr]).toEqual([0, '']);
      expect(calls()).toBe(n);
      expect(JSON.parse(again.stdout).map((s: { unchanged: number }) => s.unchanged)).toEqual([3, 3]);
    } finally {
      removeDir(dir);
    }
  });

  it('a source named twice (overlapping globs) is translated once', async () => {
    const dir = tempDir('vx-files-');
    try {
      writeFileSync(join(dir, 'en.json'), '{ "a": "One" }\n');
      const r = await e2e.run(['translate', 'file', 'en.json', './en.json', join(dir, 'en.json'), '--to', 'de', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(JSON.parse(r.stdout)).toEqual([{ source: 'en.json', language: 'de', target: 'de.json', translated: 1, unchanged: 0, kept: 0, untranslated: 0, removed: 0 }]);
    } finally {
      removeDir(dir);
    }
  });

  it('languages the service knows as one (de-DE, de-AT, de-CH: de) are asked for once, not billed once each', async () => {
    const dir = tempDir('vx-files-');
    try {
      writeFileSync(join(dir, 'en.json'), '{ "a": "One", "b": "Two" }\n');
      const n = calls();
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'de-DE,de-AT,fr,de-CH', '-o', 'none'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(e2e.emu.state.translator.calls.slice(n).map((c) => c.query)).toEqual(['?api-version=3.0&to=de&to=fr&from=en&textType=html']);
      for (const l of ['de-DE', 'de-AT', 'de-CH']) expect(read(dir, `${l}.json`)).toBe('{ "a": "[de] Öñé", "b": "[de] Ţŵö" }\n');
      expect(read(dir, 'fr.json')).toBe('{ "a": "[fr] Öñé", "b": "[fr] Ţŵö" }\n');
    } finally {
      removeDir(dir);
    }
  });

  it('--state and --fuzzy apply to the sources of their format in a run that mixes formats, and are refused when no source has it', async () => {
    const dir = scratch();
    try {
      const r = await e2e.run(['translate', 'file', 'app.xlf', 'en.json', 'messages.pot', '--to', 'de', '--state', 'reviewed', '--fuzzy', '-o', 'none'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(read(dir, 'app.de.xlf')).toContain('state="reviewed"');
      expect(read(dir, 'de.po')).toMatch(/#, fuzzy\nmsgid "Order manager"/);
      const n = calls();
      const json = await e2e.run(['translate', 'file', 'en.json', '--to', 'de', '--fuzzy'], { cwd: dir });
      expect([json.code, json.stderr]).toEqual([2, 'vx: --fuzzy applies to PO files; en.json is json\n']);
      const two = await e2e.run(['translate', 'file', 'en.json', 'README.md', '--to', 'de', '--state', 'final'], { cwd: dir });
      expect([two.code, two.stderr]).toEqual([2, 'vx: --state applies to XLIFF files; none of the sources is one\n']);
      expect(calls()).toBe(n);
    } finally {
      removeDir(dir);
    }
  });

  it('a lock file of the wrong shape is exit 2 naming it, nothing sent or written', async () => {
    const dir = tempDir('vx-files-');
    try {
      writeFileSync(join(dir, 'en.json'), '{ "a": "One" }\n');
      writeFileSync(join(dir, 'de.json'), '{ "a": "Eins" }\n');
      const n = calls();
      for (const units of ['{ "a": 5 }', 'null', '{ "a": ["x", "y"] }']) {
        writeFileSync(join(dir, 'en.json.vxlock'), `{ "vx": 1, "source": "en.json", "format": "json", "languages": { "de": { "target": "de.json", "units": ${units} } } }\n`);
        const r = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de'], { cwd: dir });
        expect([r.code, r.stderr]).toEqual([2, `vx: en.json.vxlock: not a valid vx lock file (${units === 'null' ? 'language "de"' : 'unit "a" of "de"'}); delete it to translate every unit again\n`]);
      }
      expect(calls()).toBe(n);
      expect(read(dir, 'de.json')).toBe('{ "a": "Eins" }\n');
    } finally {
      removeDir(dir);
    }
  });

  it('a target that is a symbolic link keeps pointing at its file, which gets the new content; an existing target keeps its mode', async () => {
    const dir = tempDir('vx-files-');
    try {
      mkdirSync(join(dir, 'shared'));
      writeFileSync(join(dir, 'en.json'), '{ "a": "One", "b": "Two" }\n');
      writeFileSync(join(dir, 'shared', 'de.json'), '{ "a": "Eins" }\n');
      symlinkSync(join('shared', 'de.json'), join(dir, 'de.json'));
      writeFileSync(join(dir, 'fr.json'), '{ "a": "Un" }\n');
      chmodSync(join(dir, 'fr.json'), 0o600);
      chmodSync(join(dir, 'shared', 'de.json'), 0o664);
      const r = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '-o', 'none'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(lstatSync(join(dir, 'de.json')).isSymbolicLink()).toBe(true);
      expect(read(dir, 'shared/de.json')).toBe('{ "a": "Eins", "b": "[de] Ţŵö" }\n');
      expect(statSync(join(dir, 'shared', 'de.json')).mode & 0o777).toBe(0o664);
      expect(statSync(join(dir, 'fr.json')).mode & 0o777).toBe(0o600);
      expect(read(dir, 'fr.json')).toBe('{ "a": "Un", "b": "[fr] Ţŵö" }\n');
      expect(readdirSync(dir).sort()).toEqual(['de.json', 'en.json', 'en.json.vxlock', 'fr.json', 'shared']);
      expect(readdirSync(join(dir, 'shared'))).toEqual(['de.json']);
    } finally {
      removeDir(dir);
    }
  });

  it('--out with {dir} below {lang}: sources with the same file name in different directories keep a lock each', async () => {
    const dir = tempDir('vx-files-');
    try {
      for (const d of ['web', 'mobile']) mkdirSync(join(dir, d));
      writeFileSync(join(dir, 'web', 'en.json'), '{ "a": "Web one" }\n');
      writeFileSync(join(dir, 'mobile', 'en.json'), '{ "b": "Mobile one" }\n');
      const args = ['translate', 'sync', 'web/en.json', 'mobile/en.json', '--to', 'de', '--out', 'i18n/{lang}/{dir}/{name}.json'];
      expect((await e2e.run([...args, '-o', 'none'], { cwd: dir })).code).toBe(0);
      expect(JSON.parse(read(dir, 'i18n/web/en.json.vxlock')).languages.de).toEqual({ target: '../de/web/en.json', units: { a: expect.any(Array) } });
      expect(JSON.parse(read(dir, 'i18n/mobile/en.json.vxlock')).languages.de.target).toBe('../de/mobile/en.json');
      // the web text changes: it is stale (it was adopted as a translation by hand when the locks were one file)
      writeFileSync(join(dir, 'web', 'en.json'), '{ "a": "Web two" }\n');
      const check = await e2e.run([...args, '--check', '-o', 'json'], { cwd: dir });
      expect(check.code).toBe(9);
      expect(JSON.parse(check.stdout).map((s: { unit: string; status: string; target: string }) => `${s.target} ${s.unit} ${s.status}`)).toEqual([`${join('i18n', 'de', 'web', 'en.json')} a stale`]);
    } finally {
      removeDir(dir);
    }
  });

  it('XLIFF targets a tool prepared (the source copied with state="new" / "needs-translation", 2.x "initial") are translated, not adopted; vx\'s own --state new is not sent again', async () => {
    const dir = tempDir('vx-files-');
    try {
      const unit = (id: string, target: string) => `      <trans-unit id="${id}"><source>Text ${id}</source>${target}</trans-unit>\n`;
      const xlf = (lang: string, body: string) => `<xliff version="1.2"><file source-language="en-US"${lang} original="A"><body>\n${body}    </body></file></xliff>\n`;
      writeFileSync(join(dir, 'A.g.xlf'), xlf('', ['a', 'b', 'c'].map((id) => unit(id, '')).join('')));
      writeFileSync(join(dir, 'A.de-DE.xlf'), xlf(' target-language="de-DE"', unit('a', '<target state="new">Text a</target>') + unit('b', '<target state="needs-translation">Text b</target>') + unit('c', '<target state="translated">Von Hand c</target>')));
      const r = await e2e.run(['translate', 'sync', 'A.g.xlf', '--to', 'de-DE', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(JSON.parse(r.stdout)[0]).toMatchObject({ translated: 2, unchanged: 1 });
      const de = read(dir, 'A.de-DE.xlf');
      expect(de).toContain('<source>Text a</source><target state="needs-review-translation">[de] Ţéẋţ å</target>');
      expect(de).toContain('<source>Text b</source><target state="needs-review-translation">[de] Ţéẋţ ƀ</target>');
      expect(de).toContain('<target state="translated">Von Hand c</target>');
      // 2.x: a segment in state "initial"
      writeFileSync(join(dir, 'm.xlf'), '<xliff version="2.0" srcLang="en"><file id="f"><unit id="u"><segment><source>Hello</source></segment></unit></file></xliff>\n');
      writeFileSync(join(dir, 'm.fr.xlf'), '<xliff version="2.0" srcLang="en" trgLang="fr"><file id="f"><unit id="u"><segment state="initial"><source>Hello</source><target>Hello</target></segment></unit></file></xliff>\n');
      const two = await e2e.run(['translate', 'sync', 'm.xlf', '--to', 'fr', '-o', 'none'], { cwd: dir });
      expect(two.code).toBe(0);
      expect(read(dir, 'm.fr.xlf')).toContain('<segment state="translated"><source>Hello</source><target>[fr] Ĥéļļö</target></segment>');
      // what vx wrote with --state new is its translation: a second sync sends nothing
      const n0 = calls();
      expect((await e2e.run(['translate', 'file', 'A.g.xlf', '--to', 'fr-FR', '--state', 'new', '-o', 'none'], { cwd: dir })).code).toBe(0);
      const n = calls();
      expect(n).toBe(n0 + 1);
      const again = await e2e.run(['translate', 'sync', 'A.g.xlf', '--to', 'fr-FR', '-o', 'json'], { cwd: dir });
      expect(JSON.parse(again.stdout)[0]).toMatchObject({ translated: 0, unchanged: 3 });
      expect(calls()).toBe(n);
    } finally {
      removeDir(dir);
    }
  });
});

describe('review: i18next plural groups', () => {
  it('a target with only some of its language\'s forms (pl by hand: _one and _other) keeps them; only the missing forms are translated', async () => {
    const dir = tempDir('vx-files-');
    try {
      writeFileSync(join(dir, 'en.json'), '{\n  "item_one": "{{count}} item",\n  "item_other": "{{count}} items"\n}\n');
      writeFileSync(join(dir, 'pl.json'), '{\n  "item_one": "{{count}} przedmiot",\n  "item_other": "{{count}} przedmiotu"\n}\n');
      const r = await e2e.run(['translate', 'sync', 'en.json', '--to', 'pl', '-o', 'none'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(read(dir, 'pl.json')).toBe('{\n  "item_one": "{{count}} przedmiot",\n  "item_few": "{{count}} [pl] îţéɱš",\n  "item_many": "{{count}} [pl] îţéɱš",\n  "item_other": "{{count}} przedmiotu"\n}\n');
      // the lock knows what was written: nothing to do next time
      const n = calls();
      const again = await e2e.run(['translate', 'sync', 'en.json', '--to', 'pl', '-o', 'json'], { cwd: dir });
      expect(JSON.parse(again.stdout)[0]).toMatchObject({ translated: 0, unchanged: 1 });
      expect(calls()).toBe(n);
    } finally {
      removeDir(dir);
    }
  });
});

describe('review: a service that trims what it translates', () => {
  // answers each text upper-cased with its leading and trailing white space (line breaks too) removed
  const stub = stubTranslator((text) => upper(text.trim()));
  const sent = stub.sent;
  let url: string;
  beforeAll(async () => {
    url = await stub.listen();
  });
  afterAll(() => stub.close());

  it('the white space and line breaks a text begins and ends with are kept (gettext: msgid and msgstr both end with \\n)', async () => {
    const dir = tempDir('vx-files-');
    try {
      writeFileSync(join(dir, 'messages.pot'), 'msgid ""\nmsgstr ""\n\nmsgid "Usage:\\n"\nmsgstr ""\n\nmsgid "\\n  Options %s\\n\\n"\nmsgstr ""\n');
      const r = await e2e.run(['translate', 'file', 'messages.pot', '--to', 'de', '-o', 'none'], { cwd: dir, env: { VX_TRANSLATOR_ENDPOINT: url } });
      expect([r.code, r.stderr]).toEqual([0, '']);
      const de = read(dir, 'de.po');
      expect(de).toContain('msgid "Usage:\\n"\nmsgstr "USAGE:\\n"\n');
      expect(de).toContain('msgid "\\n  Options %s\\n\\n"\nmsgstr ""\n"\\n"\n"  OPTIONS %s\\n"\n"\\n"\n');
      // what is sent is the text within
      expect(sent).toEqual(['Usage:', 'Options <span class="notranslate">%s</span>']);
    } finally {
      removeDir(dir);
    }
  });
});

describe('review: XLIFF 2.x segments keyed by their id', () => {
  const seg = (id: string, text: string, target?: string) => `<segment id="${id}"${target ? ' state="translated"' : ''}><source>${text}</source>${target ? `<target>${target}</target>` : ''}</segment>`;
  const doc = (segs: string, trg = '') => `<xliff version="2.0" srcLang="en"${trg}><file id="f"><unit id="u">${segs}</unit></file></xliff>\n`;
  const sha = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 12);

  it('a segment inserted before others costs that segment alone; each target stays with its segment; the lock names segments by id', async () => {
    const dir = tempDir('vx-files-');
    try {
      writeFileSync(join(dir, 'a.xlf'), doc(seg('s1', 'One') + seg('s2', 'Two')));
      expect((await e2e.run(['translate', 'sync', 'a.xlf', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      // a hand edit of s2 stays with s2 when s0 is inserted before it
      writeFileSync(join(dir, 'a.de.xlf'), read(dir, 'a.de.xlf').replace('[de] Ţŵö', 'Zwei'));
      writeFileSync(join(dir, 'a.xlf'), doc(seg('s0', 'Zero') + seg('s1', 'One') + seg('s2', 'Two')));
      const n = calls();
      const r = await e2e.run(['translate', 'sync', 'a.xlf', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, 'a.de.xlf: kept manual edit of unit "f/u#s2" (line 1 of a.xlf)\n']);
      expect(JSON.parse(r.stdout)[0]).toMatchObject({ translated: 1, unchanged: 1, kept: 1, removed: 0 });
      expect(calls()).toBe(n + 1);
      expect(e2e.emu.state.translator.calls[n].texts).toEqual(['Zero']);
      expect(read(dir, 'a.de.xlf')).toBe(doc(seg('s0', 'Zero', '[de] Žéŕö') + seg('s1', 'One', '[de] Öñé') + seg('s2', 'Two', 'Zwei'), ' trgLang="de"'));
      expect(Object.keys(JSON.parse(read(dir, 'a.xlf.vxlock')).languages.de.units)).toEqual(['f/u#s0', 'f/u#s1', 'f/u#s2']);
      // and removed again: nothing sent
      writeFileSync(join(dir, 'a.xlf'), doc(seg('s1', 'One') + seg('s2', 'Two')));
      const again = await e2e.run(['translate', 'sync', 'a.xlf', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect(JSON.parse(again.stdout)[0]).toMatchObject({ translated: 0, unchanged: 2, kept: 0, removed: 1 });
      expect(calls()).toBe(n + 1);
      expect(read(dir, 'a.de.xlf')).toBe(doc(seg('s1', 'One', '[de] Öñé') + seg('s2', 'Two', 'Zwei'), ' trgLang="de"'));
    } finally {
      removeDir(dir);
    }
  });

  it('a target and lock written with the position keys of earlier versions keep their translations as vx\'s own on the first sync after', async () => {
    const dir = tempDir('vx-files-');
    try {
      // as an earlier vx wrote them: lock keys f/u/0, f/u/1 (by position)
      writeFileSync(join(dir, 'a.de.xlf'), doc(seg('s1', 'One', 'Eins') + seg('s2', 'Two', 'Zwei'), ' trgLang="de"'));
      const units = { 'f/u/0': [sha('One'), sha('Eins'), 'v'], 'f/u/1': [sha('Two'), sha('Zwei'), 'v'] };
      writeFileSync(join(dir, 'a.xlf.vxlock'), JSON.stringify({ vx: 1, source: 'a.xlf', format: 'xliff', languages: { de: { target: 'a.de.xlf', units } } }));
      // the source gains a segment before them and s2 changes, in the same commit as the upgrade
      writeFileSync(join(dir, 'a.xlf'), doc(seg('s0', 'Zero') + seg('s1', 'One') + seg('s2', 'Two!')));
      const n = calls();
      const r = await e2e.run(['translate', 'sync', 'a.xlf', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(JSON.parse(r.stdout)[0]).toMatchObject({ translated: 2, unchanged: 1, kept: 0, removed: 0 });
      expect(e2e.emu.state.translator.calls.slice(n).map((c) => c.texts)).toEqual([['Zero', 'Two!']]);
      expect(read(dir, 'a.de.xlf')).toBe(doc(seg('s0', 'Zero', '[de] Žéŕö') + seg('s1', 'One', 'Eins') + seg('s2', 'Two!', '[de] Ţŵö!'), ' trgLang="de"'));
      expect(JSON.parse(read(dir, 'a.xlf.vxlock')).languages.de.units).toEqual({
        'f/u#s0': [sha('Zero'), sha('[de] Žéŕö'), 'v'],
        'f/u#s1': [sha('One'), sha('Eins'), 'v'],
        'f/u#s2': [sha('Two!'), sha('[de] Ţŵö!'), 'v'],
      });
    } finally {
      removeDir(dir);
    }
  });
});
