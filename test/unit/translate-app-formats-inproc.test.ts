// vx translate file|sync on the app formats (Android, .resx, .properties, Apple .strings and
// .stringsdict, Flutter ARB), in-process against the emulator started in-process: each known without --format,
// targets where the platform expects them, a second sync sends nothing, a changed source unit is
// the only one sent, --check names stale units by key, hostile answers leave the unit out (or in
// the source language) with exit 1 and everything else written.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';
import { json } from '../helpers/httpmock.js';
import type { TestCtx } from '../helpers/ctx.js';
import { removeDir, ROOT, tempDir } from '../helpers/vx.js';
import { loadProperties, parsePlist, parseResx } from '../helpers/validators.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'files');
let emu: Emulator;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(() => {
  emu.reset();
  dir = tempDir('vx-appformats-');
  env = { ...emu.env(), VX_CONFIG_DIR: join(dir, '.config') };
  return () => removeDir(dir);
});

/** Copies a fixture into the scratch directory at `to` (relative). */
function put(from: string, to: string): string {
  const p = join(dir, to);
  mkdirSync(dirname(p), { recursive: true });
  cpSync(join(FIXTURES, from), p);
  return p;
}

const vx = (argv: string[]) => runInProc(argv, { env, network: true });
const sent = () => emu.state.translator.calls.flatMap((c) => c.texts);

interface Case {
  name: string;
  fixture: string;
  source: string;
  targets: Record<string, string>;
  /** a source edit of one unit (its key) */
  edit: [string, string, string];
}

const CASES: Case[] = [
  {
    name: 'Android',
    fixture: 'android/thunderbird/values/strings.xml',
    source: 'app/src/main/res/values/strings.xml',
    targets: { de: 'app/src/main/res/values-de/strings.xml', 'pt-BR': 'app/src/main/res/values-pt-rBR/strings.xml' },
    edit: ['>Open Camera<', '>Open the camera<', 'open_camera'],
  },
  {
    name: '.resx',
    fixture: 'resx/Properties/Resources.resx',
    source: 'src/Properties/Resources.resx',
    targets: { de: 'src/Properties/Resources.de.resx', 'pt-BR': 'src/Properties/Resources.pt-BR.resx' },
    edit: ['<value>never</value>', '<value>not ever</value>', 'DateHumanize_Never'],
  },
  {
    name: '.properties',
    fixture: 'properties/jenkins/Messages.properties',
    source: 'hudson/model/Messages.properties',
    targets: { de: 'hudson/model/Messages_de.properties', 'pt-BR': 'hudson/model/Messages_pt_BR.properties' },
    edit: ['AbstractItem.Pronoun=Item', 'AbstractItem.Pronoun=Element', 'AbstractItem.Pronoun'],
  },
  {
    name: '.strings (UTF-16)',
    fixture: 'apple/sequelpro/English.lproj/Console.strings',
    source: 'Resources/English.lproj/Console.strings',
    targets: { de: 'Resources/de.lproj/Console.strings', 'pt-BR': 'Resources/pt-BR.lproj/Console.strings' },
    edit: ['"Clear" = "Clear";', '"Clear" = "Clear all";', 'Clear'],
  },
  {
    name: '.stringsdict',
    fixture: 'apple/duckduckgo/en.lproj/Localizable.stringsdict',
    source: 'App/en.lproj/Localizable.stringsdict',
    targets: { de: 'App/de.lproj/Localizable.stringsdict', 'pt-BR': 'App/pt-BR.lproj/Localizable.stringsdict' },
    edit: ['Are you sure you want to delete this folder and %d item?', 'Delete this folder and its %d item?', 'bookmark.deleteFolderAlert.message'],
  },
  {
    name: 'Flutter ARB',
    fixture: 'arb/l10n/intl_en.arb',
    source: 'lib/l10n/intl_en.arb',
    targets: { de: 'lib/l10n/intl_de.arb', 'pt-BR': 'lib/l10n/intl_pt_BR.arb' },
    edit: ['"deselect": "Deselect"', '"deselect": "Unselect"', 'deselect'],
  },
];

function decode(path: string): string {
  const buf = readFileSync(path);
  return buf[0] === 0xff && buf[1] === 0xfe ? buf.subarray(2).toString('utf16le') : buf.toString('utf8');
}

describe.each(CASES)('$name', (c) => {
  it('file: known without --format, targets where the platform expects them; sync sends nothing; a changed unit alone is sent; --check names it', async () => {
    const src = put(c.fixture, c.source);
    const r = await vx(['translate', 'file', src, '--to', 'de,pt-BR', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { target: string; translated: number; untranslated: number }[];
    expect(rows.map((x) => x.target)).toEqual(Object.values(c.targets).map((t) => join(dir, t)));
    expect(rows.every((x) => x.translated > 0 && x.untranslated === 0)).toBe(true);
    for (const t of Object.values(c.targets)) expect(existsSync(join(dir, t)), t).toBe(true);
    const first = emu.state.translator.calls.length;
    expect(first).toBeGreaterThan(0);

    // a second sync: nothing to send, nothing rewritten
    const before = Object.values(c.targets).map((t) => readFileSync(join(dir, t)));
    const again = await vx(['translate', 'sync', src, '--to', 'de,pt-BR']);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(emu.state.translator.calls.length).toBe(first);
    expect(Object.values(c.targets).map((t) => readFileSync(join(dir, t)))).toEqual(before);

    // one source unit changed: --check names it by its key, sync sends it alone
    const data = c.name.includes('UTF-16') ? decode(src) : readFileSync(src, 'utf8');
    expect(data).toContain(c.edit[0]);
    const changed = data.replace(c.edit[0], c.edit[1]);
    writeFileSync(src, c.name.includes('UTF-16') ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(changed, 'utf16le')]) : changed);
    const check = await vx(['translate', 'sync', src, '--to', 'de,pt-BR', '--check', '-o', 'json']);
    expect(check.code).toBe(9);
    expect((JSON.parse(check.stdout) as { unit: string; status: string; language: string }[]).map((x) => [x.language, x.unit, x.status])).toEqual([
      ['de', c.edit[2], 'stale'],
      ['pt-BR', c.edit[2], 'stale'],
    ]);
    emu.reset();
    const sync = await vx(['translate', 'sync', src, '--to', 'de,pt-BR']);
    expect([sync.code, sync.stderr]).toEqual([0, '']);
    const texts = sent();
    expect(texts.length, JSON.stringify(texts)).toBeGreaterThan(0);
    // only the changed unit's texts (a plural unit is sent whole: its forms are one unit)
    expect(texts.every((t) => /Open the camera|not ever|Element|Clear all|this folder and|Unselect/.test(t)), JSON.stringify(texts)).toBe(true);
  });
});

describe('what the targets hold, read by other tools', () => {
  it('.resx by an XML parser, .properties by java.util.Properties, .stringsdict by plistlib', async () => {
    const resx = put('resx/Properties/Resources.resx', 'r/Resources.resx');
    const props = put('properties/petclinic/messages.properties', 'p/messages.properties');
    const dict = put('apple/duckduckgo/en.lproj/Localizable.stringsdict', 'a/en.lproj/Localizable.stringsdict');
    const r = await vx(['translate', 'file', resx, props, dict, '--to', 'pl']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(parseResx(readFileSync(join(dir, 'r/Resources.pl.resx'), 'utf8')).DateHumanize_Never.value).toMatch(/^\[pl\] /);
    expect(loadProperties(readFileSync(join(dir, 'p/messages_pl.properties')), 'ISO-8859-1').welcome).toBe('[pl] Ŵéļçöɱé');
    const plist = parsePlist(readFileSync(join(dir, 'a/pl.lproj/Localizable.stringsdict'))) as Record<string, { items?: Record<string, string> }>;
    expect(Object.keys(plist['bookmark.deleteFolderAlert.message'].items!).filter((k) => !k.startsWith('NS'))).toEqual(['one', 'few', 'many', 'other']);
  });
});

describe('hostile answers', () => {
  const answer = (bad: (text: string) => string) => (t: TestCtx) =>
    void t.http.stub(
      'POST',
      /\/translate\?/,
      (req) => json(200, (JSON.parse(req.text) as { Text: string }[]).map((i) => ({ translations: [{ to: 'de', text: i.Text.includes('Item') || i.Text.includes('Bye') ? bad(i.Text) : `[de] ${i.Text}` }] }))),
      1,
    );

  it('a dropped placeholder or a control character: the unit is left out (Android, .properties) or left in English (.strings), exit 1, the rest written', async () => {
    const android = join(dir, 'res/values/strings.xml');
    mkdirSync(dirname(android), { recursive: true });
    writeFileSync(android, '<resources>\n    <string name="a">Delete <xliff:g id="n">%1$s</xliff:g> Item?</string>\n    <string name="b">Open</string>\n</resources>\n');
    const props = join(dir, 'messages.properties');
    writeFileSync(props, 'a=Item {0}\nb=Open\n');
    const strings = join(dir, 'en.lproj/Localizable.strings');
    mkdirSync(dirname(strings), { recursive: true });
    writeFileSync(strings, '"a" = "Bye %@";\n"b" = "Open";\n');
    const env0 = offlineEnv();
    for (const bad of [(t: string) => t.replace(/<span class="notranslate">[^<]*<\/span>/, ''), (t: string) => `${t}\u0007`]) {
      const r = await runInProc(['translate', 'file', android, props, strings, '--to', 'de'], { env: { ...env0, VX_CONFIG_DIR: join(dir, '.cfg') }, setup: answer(bad) });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/values-de\/strings.xml: unit "a" \(line 2 of .*\): .*; left untranslated/);
      expect(r.stderr).toMatch(/messages_de.properties: unit "a" \(line 1 of .*\): .*; left untranslated/);
      expect(r.stderr).toMatch(/de.lproj\/Localizable.strings: unit "a" \(line 1 of .*\): .*; left in the source language/);
      expect(readFileSync(join(dir, 'res/values-de/strings.xml'), 'utf8')).toBe('<resources>\n    <string name="b">[de] Open</string>\n</resources>\n');
      expect(readFileSync(join(dir, 'messages_de.properties'), 'utf8')).toBe('b=[de] Open\n');
      expect(readFileSync(join(dir, 'de.lproj/Localizable.strings'), 'utf8')).toBe('"a" = "Bye %@";\n"b" = "[de] Open";\n');
    }
    // the units left untranslated (out of the target, or in English) are sent again by the next sync, and only they
    const again = await runInProc(['translate', 'sync', android, props, strings, '--to', 'de'], { env: { ...env0, VX_CONFIG_DIR: join(dir, '.cfg') }, setup: answer((t) => `[de] ${t}`) });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect((JSON.parse(again.http.requests[again.http.requests.length - 1].text) as { Text: string }[]).map((i) => i.Text)).toEqual(['Delete <span class="notranslate">&lt;xliff:g id="n"&gt;%1$s&lt;/xliff:g&gt;</span> Item?', 'Item <span class="notranslate">{0}</span>', 'Bye <span class="notranslate">%@</span>']);
    expect(readFileSync(join(dir, 'de.lproj/Localizable.strings'), 'utf8')).toBe('"a" = "[de] Bye %@";\n"b" = "[de] Open";\n');
  });
});
