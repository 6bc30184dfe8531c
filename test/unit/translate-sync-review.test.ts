// vx translate sync when a source changes under a translation a person wrote: each format's review
// convention (PO: msgmerge's fuzzy entry with the previous msgid as #|; XLIFF 1.2
// needs-review-translation, 2.x state="translated" subState="vx:needs-review"), nothing sent, the
// lock recording it; --retranslate-changed sends it instead. In-process against the emulator.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const calls = () => e2e.emu.state.translator.calls.length;
const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');

const POT = (msgid: string) => `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

#: src/a.c:1
#, c-format
msgid "${msgid}"
msgstr ""

#: src/a.c:2
msgid "Quit"
msgstr ""
`;

describe('PO: a msgid that changed under a translation by hand', () => {
  it('becomes fuzzy with the previous msgid as #| (as msgmerge --previous), nothing sent, msgfmt -c accepts it; --retranslate-changed sends it', async () => {
    const dir = tempDir('vx-review-');
    try {
      writeFileSync(join(dir, 'messages.pot'), POT('Delete %d files?'));
      expect((await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      // a translator writes the German by hand, then the developer rewords the msgid
      writeFileSync(join(dir, 'de.po'), read(dir, 'de.po').replace(/msgstr "\[de\][^"]*%d[^"]*"/, 'msgstr "%d Dateien löschen?"'));
      writeFileSync(join(dir, 'messages.pot'), POT('Delete %d files now?'));
      const n = calls();
      const check = await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '--check', '-o', 'json'], { cwd: dir });
      expect(check.code).toBe(9);
      expect(JSON.parse(check.stdout)).toEqual([{ source: 'messages.pot', language: 'de', target: 'de.po', unit: 'Delete %d files now?', line: 5, status: 'stale (translated by hand)' }]);
      const r = await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect(r.stderr).toBe('de.po: kept the translation of "Delete %d files?" for unit "Delete %d files now?" (line 5 of messages.pot), whose source it was before it changed: marked fuzzy, the previous source kept as #|\n');
      expect(r.code).toBe(0);
      expect(calls()).toBe(n);
      expect(JSON.parse(r.stdout)[0]).toMatchObject({ translated: 0, kept: 1, unchanged: 1 });
      const de = read(dir, 'de.po');
      expect(de).toContain('#: src/a.c:1\n#, fuzzy, c-format\n#| msgid "Delete %d files?"\nmsgid "Delete %d files now?"\nmsgstr "%d Dateien löschen?"\n');
      expect(de).not.toContain('#~');
      execFileSync('msgfmt', ['-c', '--check-format', '-o', '/dev/null', join(dir, 'de.po')], { stdio: 'pipe' });
      // recorded: the next sync has nothing to do and leaves the fuzzy entry for the translator
      const again = await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect([again.code, again.stderr, calls()]).toEqual([0, '', n]);
      expect(read(dir, 'de.po')).toBe(de);
      // the translator reviews it (fuzzy and #| gone): kept as theirs
      writeFileSync(join(dir, 'de.po'), de.replace('#, fuzzy, c-format\n#| msgid "Delete %d files?"\n', '#, c-format\n').replace('"%d Dateien löschen?"', '"%d Dateien jetzt löschen?"'));
      expect((await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '--check'], { cwd: dir })).code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });

  it("vx's own translation of the old msgid is translated again, and --retranslate-changed translates a person's anew", async () => {
    const dir = tempDir('vx-review-');
    try {
      writeFileSync(join(dir, 'messages.pot'), POT('Delete %d files?'));
      expect((await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      writeFileSync(join(dir, 'messages.pot'), POT('Delete %d files now?'));
      const r = await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(JSON.parse(r.stdout)[0]).toMatchObject({ translated: 1, kept: 0 });
      expect(read(dir, 'de.po')).toContain('#, c-format\nmsgid "Delete %d files now?"\nmsgstr "[de] Ðéļéţé %d ƒîļéš ñöŵ?"\n');
      // by hand, then changed, with --retranslate-changed
      writeFileSync(join(dir, 'de.po'), read(dir, 'de.po').replace(/msgstr "\[de\][^"]*%d[^"]*"/, 'msgstr "Jetzt %d Dateien löschen?"'));
      writeFileSync(join(dir, 'messages.pot'), POT('Delete all %d files now?'));
      const n = calls();
      const again = await e2e.run(['translate', 'sync', 'messages.pot', '--to', 'de', '--retranslate-changed', '-o', 'json'], { cwd: dir });
      expect([again.code, again.stderr, calls()]).toEqual([0, '', n + 1]);
      expect(read(dir, 'de.po')).toContain('#, c-format\nmsgid "Delete all %d files now?"\nmsgstr "[de] Ðéļéţé åļļ %d ƒîļéš ñöŵ?"\n');
      expect(read(dir, 'de.po')).toContain('#~ msgid "Delete %d files now?"\n#~ msgstr "Jetzt %d Dateien löschen?"\n');
    } finally {
      removeDir(dir);
    }
  });
});

describe('XLIFF: a source that changed under a translation by hand', () => {
  const unit12 = (id: string, text: string) => `      <trans-unit id="${id}">\n        <source>${text}</source>\n      </trans-unit>\n`;
  const xlf12 = (body: string) => `<xliff version="1.2">\n  <file source-language="en" original="A">\n    <body>\n${body}    </body>\n  </file>\n</xliff>\n`;

  it('1.2: the target is kept with state="needs-review-translation", nothing sent; --retranslate-changed sends it', async () => {
    const dir = tempDir('vx-review-');
    try {
      writeFileSync(join(dir, 'A.g.xlf'), xlf12(unit12('a', 'Save') + unit12('b', 'Open')));
      expect((await e2e.run(['translate', 'sync', 'A.g.xlf', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      writeFileSync(join(dir, 'A.de.xlf'), read(dir, 'A.de.xlf').replace('<target state="needs-review-translation">[de] Öþéñ</target>', '<target state="signed-off">Öffnen</target>'));
      writeFileSync(join(dir, 'A.g.xlf'), xlf12(unit12('a', 'Save') + unit12('b', 'Open file')));
      const n = calls();
      const r = await e2e.run(['translate', 'sync', 'A.g.xlf', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect([r.code, r.stderr, calls()]).toEqual([0, 'A.de.xlf: kept manual edit of unit "A/b" (line 8 of A.g.xlf); its source changed since: marked for review (its state)\n', n]);
      const de = read(dir, 'A.de.xlf');
      expect(de).toContain('        <source>Open file</source>\n        <target state="needs-review-translation">Öffnen</target>\n');
      // the next sync keeps it as it is
      const again = await e2e.run(['translate', 'sync', 'A.g.xlf', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect([again.code, again.stderr, calls()]).toEqual([0, '', n]);
      expect(read(dir, 'A.de.xlf')).toBe(de);
      writeFileSync(join(dir, 'A.g.xlf'), xlf12(unit12('a', 'Save') + unit12('b', 'Open the file')));
      const anew = await e2e.run(['translate', 'sync', 'A.g.xlf', '--to', 'de', '--retranslate-changed', '-o', 'none'], { cwd: dir });
      expect([anew.code, anew.stderr, calls()]).toEqual([0, '', n + 1]);
      expect(read(dir, 'A.de.xlf')).toContain('<source>Open the file</source>\n        <target state="needs-review-translation">[de] Öþéñ ţĥé ƒîļé</target>\n');
    } finally {
      removeDir(dir);
    }
  });

  it('2.0: the segment goes back to state="translated" with subState="vx:needs-review", the target kept; both survive the next sync', async () => {
    const dir = tempDir('vx-review-');
    try {
      const seg = (id: string, text: string, target = '', state = '') => `    <unit id="${id}">\n      <segment${state}>\n        <source>${text}</source>\n${target}      </segment>\n    </unit>\n`;
      const xlf2 = (lang: string, body: string) => `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en"${lang}>\n  <file id="f">\n${body}  </file>\n</xliff>\n`;
      writeFileSync(join(dir, 'm.xlf'), xlf2('', seg('a', 'Save') + seg('b', 'Open')));
      writeFileSync(join(dir, 'm.de.xlf'), xlf2(' trgLang="de"', seg('a', 'Save', '        <target>Speichern</target>\n', ' state="final"') + seg('b', 'Open', '        <target>Öffnen</target>\n', ' state="reviewed"')));
      expect((await e2e.run(['translate', 'sync', 'm.xlf', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      writeFileSync(join(dir, 'm.xlf'), xlf2('', seg('a', 'Save') + seg('b', 'Open file')));
      const n = calls();
      const r = await e2e.run(['translate', 'sync', 'm.xlf', '--to', 'de', '-o', 'none'], { cwd: dir });
      expect([r.code, calls()]).toEqual([0, n]);
      const want = xlf2(' trgLang="de"', seg('a', 'Save', '        <target>Speichern</target>\n', ' state="final"') + seg('b', 'Open file', '        <target>Öffnen</target>\n', ' state="translated" subState="vx:needs-review"'));
      expect(read(dir, 'm.de.xlf')).toBe(want);
      expect((await e2e.run(['translate', 'sync', 'm.xlf', '--to', 'de', '-o', 'none'], { cwd: dir })).code).toBe(0);
      expect(read(dir, 'm.de.xlf')).toBe(want);
    } finally {
      removeDir(dir);
    }
  });
});
