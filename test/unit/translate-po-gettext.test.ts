// PO catalogues as GNU gettext's own tools write and read them, on real files (test/fixtures/files/real/xz,
// XZ Utils' template and Polish catalogue): vx wraps a msgstr exactly as msgcat does, keeps the lines of
// entries it does not touch, finds the entry a changed msgid replaced as `msgmerge --previous` does, and
// what it writes passes `msgfmt -c --check-format`. gettext comes from Debian's package (.ci/run installs it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadIcu } from '../../src/api/translator/files/icu.js';
import { po } from '../../src/api/translator/files/po.js';
import { parsePo, quote } from '../../src/api/translator/files/po-parse.js';
import { wrapField } from '../../src/api/translator/files/po-wrap.js';
import { flavourOfFlags } from '../../src/api/translator/files/printf.js';
import type { UnitValue } from '../../src/api/translator/files/types.js';

const DIR = join(import.meta.dirname, '../fixtures/files/real/xz');
const pot = readFileSync(join(DIR, 'xz.pot'), 'utf8');
const pl = readFileSync(join(DIR, 'pl.po'), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'vx-po-'));
const gettext = (tool: string, ...args: string[]) => execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(async () => {
  await loadIcu();
});

describe('msgstr wrapping', () => {
  it('every msgstr of the Polish catalogue is wrapped as msgcat wraps it', () => {
    const out = join(tmp, 'msgcat.po');
    gettext('msgcat', '-o', out, join(DIR, 'pl.po'));
    const doc = parsePo(readFileSync(out, 'utf8'), out);
    let compared = 0;
    for (const e of doc.entries) {
      if (e.obsolete || !e.msgstrLines) continue;
      const lines = e.msgstr.flatMap((s, k) => wrapField(e.msgidPlural === undefined ? 'msgstr' : `msgstr[${k}]`, s, '', flavourOfFlags(e.flags)));
      expect(lines).toEqual(doc.lines.slice(...e.msgstrLines));
      compared++;
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('CJK, URLs, escapes, directives and long words wrap as msgcat wraps them', () => {
    const texts = [
      '设置压缩、解压缩、多线程解压缩或者共同的内存用量限制；所指定限制量单位为字节，或以百分号 % 结尾表示内存比例，或者指定 0 取软件默认值',
      'ファイルを圧縮または展開します。「--files」オプションを使用してください。ファイル名は改行文字で終わる必要があります。',
      'Besuchen Sie https://example.org/a/very/long/path/that/goes/on/and/on/index.html?query=1&x=2 für Details und mehr Informationen',
      'Zeile mit "Anführungszeichen" und \\Backslash\\ und\tTab, dazu eine lange Fortsetzung, die umbrochen werden muss.\nUnd weiter.\n',
      'Anzahl der Threads wurde von %1$s auf %2$s reduziert, um die Speicherbedarfsbegrenzung von %3$s MiB nicht zu übersteigen',
      'Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenherstellungsbetriebsangehörigenverband ist ein Wort',
    ];
    const file = join(tmp, 'texts.po');
    writeFileSync(file, `msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n${texts.map((t, i) => `\n#, c-format\nmsgid "m${i}"\nmsgstr ${quote(t)}\n`).join('')}`);
    const out = join(tmp, 'texts.out.po');
    gettext('msgcat', '-o', out, file);
    const doc = parsePo(readFileSync(out, 'utf8'), out);
    const entries = doc.entries.filter((e) => e.msgid !== '');
    expect(entries).toHaveLength(texts.length);
    for (const e of entries) expect(wrapField('msgstr', e.msgstr[0], '', 'c')).toEqual(doc.lines.slice(...e.msgstrLines!));
  });
});

describe('a template against the catalogue of the version before', () => {
  const src = po.parseSource(pot, 'xz.pot');
  const old = po.parseTarget(pl, 'pl.po', src, 'pl');
  const missing = src.units.filter((u) => !old.values.has(u.key));

  it('finds the entries whose msgid changed as msgmerge --previous does', () => {
    const merged = join(tmp, 'merged.po');
    gettext('msgmerge', '-q', '--previous', '-o', merged, join(DIR, 'pl.po'), join(DIR, 'xz.pot'));
    const text = readFileSync(merged, 'utf8');
    const doc = parsePo(text, merged);
    const live = new Set(src.units.map((u) => u.key));
    const expected = new Map<string, string>();
    for (const e of doc.entries) {
      const prev = e.comments.map((i) => doc.lines[i]).filter((l) => l.startsWith('#| msgid') || (l.startsWith('#| "') && expected.size >= 0));
      if (!prev.length) continue;
      const msgid = prev.map((l) => JSON.parse(l.replace(/^#\| (?:msgid )?/, '')) as string).join('');
      // (msgmerge also matches entries the template still has; vx only those it no longer has)
      if (!live.has(msgid)) expected.set(e.key, msgid);
    }
    const found = po.previous!(src, old, missing);
    expect(expected.size).toBeGreaterThan(20);
    for (const [key, from] of expected) expect([key, found.get(key)]).toEqual([key, from]);
  });

  it('renders them fuzzy with #|, keeps untouched entries byte for byte, and msgfmt -c accepts the catalogue', () => {
    const found = po.previous!(src, old, missing);
    const values = new Map<string, UnitValue>();
    for (const u of src.units) {
      if (old.values.has(u.key)) values.set(u.key, { kind: 'keep' });
      else if (found.has(u.key)) values.set(u.key, { kind: 'keep', from: found.get(u.key) });
    }
    const out = po.render(src, 'pl', values, old, {});
    const file = join(tmp, 'pl.po');
    writeFileSync(file, out);
    gettext('msgfmt', '-c', '--check-format', '-o', '/dev/null', file);
    // an entry kept as it was: its lines as the catalogue had them
    const entry = (text: string, msgid: string) => text.split('\n\n').find((b) => b.includes(`msgid "${msgid}"`));
    expect(entry(out, 'Compression support was disabled at build time')).toBe(entry(pl, 'Compression support was disabled at build time'));
    // the carried one: fuzzy, with the msgid it was made for
    const carried = entry(out, 'Compress or decompress FILEs in the .xz format.')!;
    expect(carried).toMatch(/^#\. .*\n#: src\/xz\/message\.c\n#, fuzzy\n#\| msgid ""\n#\| "Usage: %s \[OPTION\]\.\.\. \[FILE\]\.\.\.\\n"\n/);
    // and the old entry is not also written as obsolete
    expect(out).not.toMatch(/^#~ msgid ""\n#~ "Usage: %s \[OPTION\]\.\.\. \[FILE\]\.\.\.\\n"\n#~ "Compress/m);
  });
});

describe('parsePo: the structure it reads and the lines it refuses', () => {
  const po = ['# translator', '#, fuzzy, c-format', 'msgctxt "menu"', 'msgid ""', '"Open "', '"%s"', 'msgid_plural "Open many"', 'msgstr[0] "Öffnen"', 'msgstr[1] ""', '"Viele"', '', '#~ msgid "gone"', '#~ msgstr "weg"', ''].join('\r\n');

  it('reads fields, continued strings, plurals, flags and obsolete entries with their line ranges', () => {
    const doc = parsePo(po, 'a.po');
    expect(doc.eol).toBe('\r\n');
    expect(doc.entries).toEqual([
      { start: 0, end: 10, comments: [0, 1], flagsLine: 1, flags: ['fuzzy', 'c-format'], msgctxt: 'menu', msgid: 'Open %s', msgidPlural: 'Open many', msgstr: ['Öffnen', 'Viele'], msgstrLines: [7, 10], obsolete: false, key: 'menu\u0004Open %s' },
      { start: 11, end: 13, comments: [], flags: [], msgid: 'gone', msgstr: ['weg'], msgstrLines: [12, 13], obsolete: true, key: 'gone' },
    ]);
  });

  it('refuses an entry without msgid, a duplicate message and a line of no kind, naming file:line', () => {
    expect(() => parsePo('#. note\nmsgstr "x"\n', 'b.po')).toThrow('b.po:1:1: malformed PO: an entry without msgid');
    expect(() => parsePo('msgid "a"\nmsgstr "x"\n\nmsgid "a"\nmsgstr "y"\n', 'c.po')).toThrow('c.po:4:1: malformed PO: duplicate message "a"');
    expect(() => parsePo('msgid "a"\nmsgstr "x"\nwhat is this\n', 'd.po')).toThrow('d.po:3:1: malformed PO: unexpected "what is this"');
    expect(() => parsePo('#~ msgid "a"\n#~ junk\n', 'e.po')).toThrow('e.po:2:1: malformed PO: unexpected "junk"');
  });
});
