// vx translate check: the checks every answer of the service passes, run on translations whoever
// made them. Real catalogues (XZ Utils' Polish PO passes; Maccy's String Catalog holds two real
// mistakes: the Japanese lost a %@, the Arabic translated the names of its {pane} and {settings});
// every format's targets as vx writes them pass, and one translation broken by hand in each is the
// one line reported, with the file and line of the translation; exit 9, nothing sent.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';
import { removeDir, ROOT, tempDir } from '../helpers/vx.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'files');
let emu: Emulator;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(() => {
  dir = tempDir('vx-check-');
  return () => removeDir(dir);
});

/** a run that may send nothing: the HttpMock has no stub, so any request would fail it */
const check = (argv: string[]) => runInProc(['translate', 'check', ...argv], { env: { ...offlineEnv(), VX_CONFIG_DIR: join(dir, '.config') } });
const translate = (argv: string[]) => runInProc(['translate', 'file', ...argv], { env: { ...emu.env(), VX_CONFIG_DIR: join(dir, '.config') }, network: true });

function put(from: string, to: string): string {
  const p = join(dir, to);
  mkdirSync(dirname(p), { recursive: true });
  cpSync(join(FIXTURES, from), p);
  return p;
}

describe('real catalogues', () => {
  it("XZ Utils' Polish catalogue passes (as msgfmt -c passes it): exit 0, nothing printed, nothing sent", async () => {
    const r = await check([join(FIXTURES, 'real', 'xz', 'pl.po')]);
    expect([r.code, r.stdout, r.stderr, r.http.requests]).toEqual([0, '', '', []]);
  });

  it("Maccy's String Catalog in 19 languages: the two real mistakes, one line each, exit 9", async () => {
    const file = join(FIXTURES, 'xcstrings', 'maccy', 'Localizable.xcstrings');
    const langs = 'ar,bs,de,en,es,fr,he,hr,it,ja,ko,nb,nl,ru,th,tr,uk,zh-Hans,zh-Hant';
    const r = await check([file, '--to', langs]);
    expect(r.stdout).toBe(
      `${file}:242: ar: unit "accessibility_alert_comment": ICU message changed: {pane} is {الإعدادات} {الجزء} in the translation\n` +
        `${file}:1789: ja: unit "copy_modifiers_config": missing %@\n`,
    );
    expect([r.code, r.stderr, r.http.requests]).toEqual([9, 'vx: 2 translations fail the checks\n', []]);
    // the German, which puts {settings} before {pane}, passes: ICU arguments are named
    const json = await check([file, '--to', langs, '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { file, line: 242, language: 'ar', unit: 'accessibility_alert_comment', problem: 'ICU message changed: {pane} is {الإعدادات} {الجزء} in the translation', shared: true },
      { file, line: 1789, language: 'ja', unit: 'copy_modifiers_config', problem: 'missing %@', shared: true },
    ]);
  });
});

describe('a PO catalogue checked in itself', () => {
  it('printf by the entry flag, a singular without its number, ICU plural cases of the language, control characters', async () => {
    const po = join(dir, 'de.po');
    writeFileSync(
      po,
      [
        'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n',
        '#, c-format\nmsgid "%.5g%s%s"\nmsgstr "%s%.5g%s"\n',
        '#, c-format\nmsgid "%1$s of %2$d"\nmsgstr "%2$d von %1$s"\n',
        '#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "Eine Datei"\nmsgstr[1] "%d Dateien"\n',
        '#, c-format\nmsgid "%d folder"\nmsgid_plural "%d folders"\nmsgstr[0] "%d Ordner"\nmsgstr[1] "Ordner"\n',
        'msgid "{n, plural, one {# day} other {# days}}"\nmsgstr "{n, plural, one {ein Tag} few {# Tage} other {# Tage}}"\n',
        'msgid "Save"\nmsgstr "Spei\u0007chern"\n',
        'msgid "Open <b>it</b>"\nmsgstr "<b>Öffnen</i>"\n',
        '#, fuzzy\nmsgid "Close <b>it</b>"\nmsgstr "<b>Schließen</i>"\n',
      ].join('\n'),
    );
    const r = await check([po]);
    expect(r.stdout).toBe(
      [
        `${po}:7: unit "%.5g%s%s": c-format: argument 1 is %s in the translation, %.5g in the source: unnumbered directives must keep their order (only numbered ones such as %1$s may move)`,
        `${po}:21: unit "%d folder": missing %d`,
        `${po}:27: unit "{n, plural, one {# day} other {# days}}": ICU message changed: {n, plural} is {n, plural} (few is not a plural category of de) in the translation`,
        `${po}:30: unit "Save": the translation has the control character U+0007`,
        `${po}:33: unit "Open <b>it</b>": missing </b>; unexpected </i>`,
        '',
      ].join('\n'),
    );
    expect([r.code, r.stderr]).toEqual([9, 'vx: 5 translations fail the checks\n']);
  });

  it('a JSON file without --to is exit 2 saying to give it; --out without --to too', async () => {
    const en = put('en.json', 'en.json');
    expect(await check([en]).then((r) => [r.code, r.stderr])).toEqual([2, `vx: ${en} is a JSON file, which holds one language: give --to with the languages of its targets (found as vx translate sync finds them)\n`]);
    expect(await check([en, '--out', 'x/{lang}.json']).then((r) => [r.code, r.stderr])).toEqual([2, 'vx: --out says where the targets of --to are: give --to\n']);
  });
});

interface Case {
  name: string;
  fixture: string;
  source: string;
  target: string;
  /** the unit broken by hand in the target, how, and what check says of it */
  unit: string;
  break: [RegExp, string];
  problem: string;
}

const CASES: Case[] = [
  { name: 'i18next JSON', fixture: 'en.json', source: 'en.json', target: 'de.json', unit: 'app.welcome', break: [/\{\{name\}\}/, '{{nom}}'], problem: 'missing {{name}}; unexpected {{nom}}' },
  { name: 'XLIFF 1.2', fixture: 'SalesTools.g.xlf', source: 'SalesTools.g.xlf', target: 'SalesTools.de.xlf', unit: 'Sales Tools/Codeunit 1296262074 - NamedType 3710291032', break: [/(<target[^>]*>[^<]*)%2/, '$1%3'], problem: 'missing %2; unexpected %3' },
  { name: 'PO', fixture: 'messages.pot', source: 'messages.pot', target: 'de.po', unit: 'Order %s was shipped on %s.', break: [/(msgstr "[^"\n]*)%s/, '$1%d'], problem: 'missing %s; unexpected %d' },
  { name: 'Markdown', fixture: 'README.md', source: 'README.md', target: 'README.de.md', unit: '', break: [/`orders --help`/, 'orders --help'], problem: 'missing `orders --help`' },
  { name: 'Android', fixture: 'android/thunderbird/values/strings.xml', source: 'res/values/strings.xml', target: 'res/values-de/strings.xml', unit: 'changelog_version_title', break: [/(name="changelog_version_title">[^<]*)%s/, '$1%d'], problem: 'missing %s; unexpected %d' },
  { name: '.resx', fixture: 'resx/Properties/Resources.resx', source: 'Resources.resx', target: 'Resources.de.resx', unit: 'DateHumanize_MultipleSecondsAgo', break: [/(name="DateHumanize_MultipleSecondsAgo"[^>]*>\s*<value>[^<]*)\{0\}/, '$1{1}'], problem: 'missing {0}; unexpected {1}' },
  { name: '.properties', fixture: 'properties/jenkins/Messages.properties', source: 'Messages.properties', target: 'Messages_de.properties', unit: 'AbstractBuild.BuildingRemotely', break: [/(AbstractBuild\.BuildingRemotely=[^\n]*)\{0\}/, '$1'], problem: 'missing {0}' },
  { name: '.strings', fixture: 'apple/duckduckgo/en.lproj/Localizable.strings', source: 'en.lproj/Localizable.strings', target: 'de.lproj/Localizable.strings', unit: 'action.text-zoom-menu-item', break: [/("action\.text-zoom-menu-item" = "[^"]*)%d/, '$1'], problem: 'missing %d' },
  { name: '.stringsdict', fixture: 'apple/duckduckgo/en.lproj/Localizable.stringsdict', source: 'en.lproj/Localizable.stringsdict', target: 'de.lproj/Localizable.stringsdict', unit: 'bookmark.deleteFolderAlert.message', break: [/(<key>other<\/key>\s*<string>[^<]*)%d/, '$1%@'], problem: 'missing %d; unexpected %@' },
  { name: 'Flutter ARB', fixture: 'arb/l10n/intl_en.arb', source: 'intl_en.arb', target: 'intl_de.arb', unit: 'githubRepo', break: [/\{repoName\}/, '{repo}'], problem: 'ICU message changed: {repoName} is {repo} in the translation' },
];

describe.each(CASES)('$name: the targets vx writes pass; a translation broken by hand is the one line reported', (c) => {
  it('check --to de', async () => {
    emu.reset();
    const src = put(c.fixture, c.source);
    const made = await translate([src, '--to', 'de']);
    expect([made.code, made.stderr]).toEqual([0, '']);
    const target = join(dir, c.target);
    const ok = await check([src, '--to', 'de']);
    expect([ok.code, ok.stdout, ok.stderr]).toEqual([0, '', '']);
    const text = readFileSync(target, 'utf8');
    const broken = text.replace(c.break[0], c.break[1]);
    expect(broken).not.toBe(text);
    writeFileSync(target, broken);
    const at = broken.slice(0, [...broken].findIndex((_, i) => broken[i] !== text[i])).split('\n').length;
    const r = await check([src, '--to', 'de', '-o', 'json']);
    const [p] = JSON.parse(r.stdout) as { file: string; line: number; unit: string; problem: string }[];
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(p).toMatchObject({ file: target, problem: c.problem, ...(c.unit ? { unit: c.unit } : {}) });
    // the line of the unit in the target: at or before the broken text
    expect(p.line).toBeLessThanOrEqual(at);
    expect(at - p.line).toBeLessThan(20);
    expect([r.code, r.stderr, r.http.requests]).toEqual([9, 'vx: 1 translation fails the checks\n', []]);
  });
});
