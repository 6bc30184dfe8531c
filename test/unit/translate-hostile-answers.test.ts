// A service answer that breaks a unit (a placeholder dropped or retyped, a control character, a
// line break the source does not have), in every format vx translate file writes: that unit is not
// written as translated (left out, left in the source language, or PO fuzzy), it is named on
// stderr, the run exits 1, the other unit is written, and the target passes the format's own
// reader (JSON.parse, Python's XML parser, PyYAML, plistlib, msgfmt -c). In-process, the service
// a stub.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { json } from '../helpers/httpmock.js';
import type { TestCtx } from '../helpers/ctx.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';
import { parseAndroid, parsePlist, parseResx, parseXliff, parseYaml } from '../helpers/validators.js';
import { removeDir, tempDir } from '../helpers/vx.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('vx-hostile-');
  return () => removeDir(dir);
});

/** The service: items holding "Delete" get `bad(text)`, the others `[de] text`. */
const service = (bad: (html: string) => string) => (t: TestCtx) =>
  void t.http.stub('POST', /\/translate\?/, (req) => json(200, (JSON.parse(req.text) as { Text: string }[]).map((i) => ({ translations: [{ to: 'de', text: i.Text.includes('Delete') ? bad(i.Text) : `[de] ${i.Text}` }] }))));

const SPAN = /<span class="notranslate">([^<]*)<\/span>/;
const ANSWERS: [string, (html: string) => string, RegExp][] = [
  ['a placeholder dropped', (h) => h.replace(SPAN, ''), /placeholders changed \(missing /],
  // the last protected span's content with an x before its last character: %s is %xs, {0} is {0x}, `tmp` is `tmpx`
  ['a placeholder retyped', (h) => h.replace(/(.*)<span class="notranslate">([^<]*)<\/span>/s, (_m, pre: string, c: string) => `${pre}<span class="notranslate">${c.slice(0, -1)}x${c.slice(-1)}</span>`), /^.*: placeholders changed \(/],
  ['a control character', (h) => `${h}\u0007`, /: the translation has the control character U\+0007;/],
  ['a line break', (h) => h.replace('Delete', 'Delete\n'), /: the translation has a line break the source does not have;/],
];

interface Case {
  name: string;
  source: string;
  text: string | Buffer;
  target: string;
  /** the broken unit as stderr names it ($SRC: the source's path), and what becomes of it */
  unit: string;
  fate: 'left untranslated' | 'left in the source language' | 'written as fuzzy (for review)';
  /** the target read by the format's own reader: the broken unit's value (undefined: none) and the other's */
  read(text: string): [unknown, unknown];
}

const utf16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);

const CASES: Case[] = [
  { name: 'JSON', source: 'en.json', text: '{ "a": "Delete {{name}}?", "b": "Open" }\n', target: 'de.json', unit: 'unit "a" (line 1 of $SRC)', fate: 'left untranslated', read: (t) => [(JSON.parse(t) as Record<string, string>).a, (JSON.parse(t) as Record<string, string>).b] },
  {
    name: 'YAML',
    source: 'en.yml',
    text: 'en:\n  a: "Delete %{name}?"\n  b: Open\n',
    target: 'de.yml',
    unit: 'unit "a" (line 2 of $SRC)',
    fate: 'left in the source language',
    read: (t) => {
      const de = (parseYaml(t) as { de: Record<string, string> }).de;
      return [de.a === 'Delete %{name}?' ? undefined : de.a, de.b];
    },
  },
  {
    name: 'PO',
    source: 'messages.pot',
    text: 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n#, c-format\nmsgid "Delete %s?"\nmsgstr ""\n\nmsgid "Open"\nmsgstr ""\n',
    target: 'de.po',
    unit: 'unit "Delete %s?" (line 4 of $SRC)',
    fate: 'written as fuzzy (for review)',
    read: (t) => {
      const file = join(dir, 'check.po');
      writeFileSync(file, t);
      execFileSync('msgfmt', ['-c', '--check-format', '-o', '/dev/null', file], { stdio: 'pipe' });
      return [/#, fuzzy, c-format\nmsgid "Delete %s\?"/.test(t) ? undefined : 'not fuzzy', /msgid "Open"\nmsgstr "(.*)"/.exec(t)?.[1]];
    },
  },
  {
    name: 'XLIFF 1.2',
    source: 'A.xlf',
    text: '<xliff version="1.2"><file source-language="en" original="A"><body>\n<trans-unit id="a"><source>Delete <x id="1"/> {0}?</source></trans-unit>\n<trans-unit id="b"><source>Open</source></trans-unit>\n</body></file></xliff>\n',
    target: 'A.de.xlf',
    unit: 'unit "A/a" (line 2 of $SRC)',
    fate: 'left untranslated',
    read: (t) => {
      const x = parseXliff(t);
      return [x.a ?? undefined, x.b];
    },
  },
  {
    name: 'XLIFF 2.0',
    source: 'm.xlf',
    text: '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en"><file id="f">\n<unit id="a"><segment><source><pc id="1">Delete</pc> {count}?</source></segment></unit>\n<unit id="b"><segment><source>Open</source></segment></unit>\n</file></xliff>\n',
    target: 'm.de.xlf',
    unit: 'unit "f/a/0" (line 2 of $SRC)',
    fate: 'left untranslated',
    read: (t) => {
      const x = parseXliff(t);
      return [x.a ?? undefined, x.b];
    },
  },
  { name: 'Markdown', source: 'doc.md', text: 'Delete `tmp` now.\n\nOpen\n', target: 'doc.de.md', unit: 'the block at line 1 of $SRC', fate: 'left in the source language', read: (t) => [t.startsWith('Delete `tmp` now.\n') ? undefined : t, t.split('\n\n')[1].trim()] },
  {
    name: 'Android',
    source: 'res/values/strings.xml',
    text: '<resources>\n    <string name="a">Delete %1$s?</string>\n    <string name="b">Open</string>\n</resources>\n',
    target: 'res/values-de/strings.xml',
    unit: 'unit "a" (line 2 of $SRC)',
    fate: 'left untranslated',
    read: (t) => {
      const x = parseAndroid(t).strings;
      return [x.get('a')?.text, x.get('b')?.text];
    },
  },
  {
    name: '.resx',
    source: 'Strings.resx',
    text: '<?xml version="1.0" encoding="utf-8"?>\n<root>\n  <data name="a" xml:space="preserve">\n    <value>Delete {0}?</value>\n  </data>\n  <data name="b" xml:space="preserve">\n    <value>Open</value>\n  </data>\n</root>\n',
    target: 'Strings.de.resx',
    unit: 'unit "a" (line 3 of $SRC)',
    fate: 'left untranslated',
    read: (t) => {
      const x = parseResx(t);
      return [x.a?.value ?? undefined, x.b?.value];
    },
  },
  { name: '.properties', source: 'messages.properties', text: 'a=Delete {0}?\nb=Open\n', target: 'messages_de.properties', unit: 'unit "a" (line 1 of $SRC)', fate: 'left untranslated', read: (t) => [/^a=(.*)$/m.exec(t)?.[1], /^b=(.*)$/m.exec(t)?.[1]] },
  {
    name: '.strings (UTF-16)',
    source: 'en.lproj/Localizable.strings',
    text: utf16('"a" = "Delete %@?";\n"b" = "Open";\n'),
    target: 'de.lproj/Localizable.strings',
    unit: 'unit "a" (line 1 of $SRC)',
    fate: 'left in the source language',
    read: (t) => [/"a" = "(.*)";/.exec(t)?.[1] === 'Delete %@?' ? undefined : 'translated', /"b" = "(.*)";/.exec(t)?.[1]],
  },
  {
    name: '.stringsdict',
    source: 'en.lproj/Localizable.stringsdict',
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n\t<key>a</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>Delete %d file?</string>\n\t\t\t<key>other</key>\n\t\t\t<string>Delete %d files?</string>\n\t\t</dict>\n\t</dict>\n\t<key>b</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>Open %d file</string>\n\t\t\t<key>other</key>\n\t\t\t<string>Open %d files</string>\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n`,
    target: 'de.lproj/Localizable.stringsdict',
    unit: 'unit "a" (line 5 of $SRC)',
    fate: 'left in the source language',
    read: (t) => {
      const p = parsePlist(t) as Record<string, { n: Record<string, string> }>;
      return [p.a.n.other === 'Delete %d files?' ? undefined : p.a.n.other, p.b.n.other];
    },
  },
  {
    name: 'String Catalog',
    source: 'Localizable.xcstrings',
    text: '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "Delete %@?" : {\n\n    },\n    "Open" : {\n\n    }\n  },\n  "version" : "1.0"\n}\n',
    target: 'Localizable.xcstrings',
    unit: 'unit "Delete %@?" (line 4 of $SRC)',
    fate: 'left untranslated',
    read: (t) => {
      const s = (JSON.parse(t) as { strings: Record<string, { localizations?: Record<string, { stringUnit: { value: string } }> }> }).strings;
      return [s['Delete %@?'].localizations?.de?.stringUnit.value, s.Open.localizations?.de?.stringUnit.value];
    },
  },
  { name: 'Flutter ARB', source: 'app_en.arb', text: '{\n  "@@locale": "en",\n  "a": "Delete {name}?",\n  "b": "Open"\n}\n', target: 'app_de.arb', unit: 'unit "a" (line 3 of $SRC)', fate: 'left untranslated', read: (t) => [(JSON.parse(t) as Record<string, string>).a, (JSON.parse(t) as Record<string, string>).b] },
];

describe('unnumbered printf directives the service moved (%s and %d trading places)', () => {
  const swap = (h: string) => {
    const spans = h.match(/<span class="notranslate">[^<]*<\/span>/g)!;
    return h.replace(spans[0], '\u0000').replace(spans[1], spans[0]).replace('\u0000', spans[1]);
  };

  it('PO c-format: written fuzzy (msgfmt -c accepts the catalogue), Android and Apple: left out / in English; a JSON {{a}} {{b}} may move', async () => {
    writeFileSync(join(dir, 'messages.pot'), 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n#, c-format\nmsgid "Delete %s from %d folders?"\nmsgstr ""\n');
    mkdirSync(join(dir, 'res/values'), { recursive: true });
    writeFileSync(join(dir, 'res/values/strings.xml'), '<resources>\n    <string name="a">Delete %s from %d folders?</string>\n</resources>\n');
    mkdirSync(join(dir, 'en.lproj'), { recursive: true });
    writeFileSync(join(dir, 'en.lproj/Localizable.strings'), '"a" = "Delete %@ from %d folders?";\n');
    writeFileSync(join(dir, 'en.json'), '{ "a": "Delete {{name}} from {{count}} folders?" }\n');
    const r = await runInProc(['translate', 'file', join(dir, 'messages.pot'), join(dir, 'res/values/strings.xml'), join(dir, 'en.lproj/Localizable.strings'), join(dir, 'en.json'), '--to', 'de'], { env: { ...offlineEnv(), VX_CONFIG_DIR: join(dir, '.config') }, setup: service(swap) });
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.map((l) => l.replace(dir, '.').replace(/ \(line .*/, ''))).toEqual([
      'warning: ./de.po: unit "Delete %s from %d folders?"',
      'warning: ./res/values-de/strings.xml: unit "a"',
      'warning: ./de.lproj/Localizable.strings: unit "a"',
      'vx: 3 units were not translated (listed above); everything else was written',
    ]);
    expect(lines[0]).toMatch(/c-format: argument 1 is %d in the translation, %s in the source/);
    execFileSync('msgfmt', ['-c', '--check-format', '-o', '/dev/null', join(dir, 'de.po')], { stdio: 'pipe' });
    expect(JSON.parse(readFileSync(join(dir, 'de.json'), 'utf8'))).toEqual({ a: 'Delete {{count}} from {{name}} folders?' });
  });
});

describe.each(CASES)('$name', (c) => {
  it.each(ANSWERS)('%s: the unit is not written as translated, named on stderr, exit 1; the rest written, the target read by its own reader', async (_what, bad, problem) => {
    const src = join(dir, c.source);
    mkdirSync(dirname(src), { recursive: true });
    writeFileSync(src, c.text);
    const r = await runInProc(['translate', 'file', src, '--to', 'de'], { env: { ...offlineEnv(), VX_CONFIG_DIR: join(dir, '.config') }, setup: service(bad) });
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(2);
    expect(lines[0].startsWith(`warning: ${join(dir, c.target)}: ${c.unit.replace('$SRC', src)}: `), lines[0]).toBe(true);
    expect(lines[0]).toMatch(problem);
    expect(lines[0].endsWith(`; ${c.fate}`), lines[0]).toBe(true);
    expect(lines[1]).toBe('vx: 1 unit was not translated (listed above); everything else was written');
    expect(r.code).toBe(1);
    const data = readFileSync(join(dir, c.target));
    const text = data[0] === 0xff && data[1] === 0xfe ? data.subarray(2).toString('utf16le') : data.toString('utf8');
    const [a, b] = c.read(text);
    expect(a).toBeUndefined();
    expect(b).toMatch(/^\[de\] Open/);
    // the lock says it is not translated: the next sync sends it again
    const again = await runInProc(['translate', 'sync', src, '--to', 'de', '--check', '-o', 'json'], { env: { ...offlineEnv(), VX_CONFIG_DIR: join(dir, '.config') } });
    expect([again.code, (JSON.parse(again.stdout) as { status: string }[]).map((s) => s.status)]).toEqual([9, ['missing']]);
  });
});
