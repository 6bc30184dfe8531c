// Keys a user marks as not text: --skip-keys, the translate.skipKeys setting and a .vxskip file
// beside the source, together. Such a unit is never sent, never checked, and a target gets the
// source's value (JSON, YAML: the app needs it) or keeps its own; XLIFF and PO leave it as the
// source file has it. Markdown's --front-matter keys are translated, the rest of the front matter
// kept byte for byte. In-process against the emulator.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const sent = () => e2e.emu.state.translator.calls.flatMap((c) => c.texts);
const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');

describe('--skip-keys', () => {
  it('flag, setting and .vxskip together: those keys are never sent, the target has the source value (or keeps its own)', async () => {
    const dir = tempDir('vx-skip-');
    try {
      writeFileSync(join(dir, 'en.json'), '{\n  "title": "Orders",\n  "meta": { "url": "https://example.com/help", "version": "Release 2" },\n  "links": { "docs": { "url": "https://example.com/docs" } },\n  "brand": "Contoso Cloud",\n  "id": "order-page"\n}\n');
      writeFileSync(join(dir, '.vxskip'), '# not text\nbrand\n');
      writeFileSync(join(dir, 'de.json'), '{ "brand": "Contoso Wolke" }\n');
      const env = { VX_TRANSLATE_SKIP_KEYS: 'id' };
      const r = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de', '--skip-keys', 'meta.*,**.url', '-o', 'json'], { cwd: dir, env });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(sent()).toEqual(['Orders']);
      expect(JSON.parse(read(dir, 'de.json'))).toEqual({ title: '[de] Öŕðéŕš', meta: { url: 'https://example.com/help', version: 'Release 2' }, links: { docs: { url: 'https://example.com/docs' } }, brand: 'Contoso Wolke', id: 'order-page' });
      expect(JSON.parse(r.stdout)[0]).toMatchObject({ translated: 1, kept: 0, unchanged: 0 });
      // not in the lock, not listed by --check, not checked
      expect(Object.keys(JSON.parse(read(dir, 'en.json.vxlock')).languages.de.units)).toEqual(['title']);
      const check = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de', '--skip-keys', 'meta.*,**.url', '--check'], { cwd: dir, env });
      expect(check.code).toBe(0);
      // a key named nowhere any more is a unit again: the value the target has is taken as its own
      const all = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de', '-o', 'json'], { cwd: dir });
      expect([all.code, JSON.parse(all.stdout)[0]]).toEqual([0, expect.objectContaining({ translated: 0, unchanged: 5 })]);
    } finally {
      removeDir(dir);
    }
  });

  it('XLIFF and PO: a skipped unit is left as the source file has it (no target, an empty msgstr)', async () => {
    const dir = tempDir('vx-skip-');
    try {
      writeFileSync(join(dir, 'messages.pot'), 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Contoso"\nmsgstr ""\n\nmsgid "Open"\nmsgstr ""\n');
      writeFileSync(join(dir, 'A.xlf'), '<xliff version="1.2"><file source-language="en" original="A"><body>\n<trans-unit id="brand"><source>Contoso</source></trans-unit>\n<trans-unit id="open"><source>Open</source></trans-unit>\n</body></file></xliff>\n');
      const r = await e2e.run(['translate', 'file', 'messages.pot', 'A.xlf', '--to', 'de', '--skip-keys', 'Contoso,A/brand'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(sent()).toEqual(['Open']);
      expect(read(dir, 'de.po')).toContain('msgid "Contoso"\nmsgstr ""\n');
      expect(read(dir, 'A.de.xlf')).toContain('<trans-unit id="brand"><source>Contoso</source></trans-unit>\n<trans-unit id="open"><source>Open</source><target state="needs-review-translation">[de] Öþéñ</target></trans-unit>');
    } finally {
      removeDir(dir);
    }
  });
});

describe('--front-matter', () => {
  it('YAML: the chosen keys are translated (double-quoted), the rest of the front matter kept; a line break from the service leaves the value as it was', async () => {
    const dir = tempDir('vx-front-');
    try {
      const page = '---\ntitle: Getting started\ndescription: >\n  How to install\n  and run it.\nweight: 10\ntags: [setup]\nslug: getting-started\n---\n\n# Install\n\nRun the installer.\n';
      writeFileSync(join(dir, 'start.md'), page);
      const r = await e2e.run(['translate', 'file', 'start.md', '--to', 'de', '--front-matter', 'title,description,slug'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(read(dir, 'start.de.md')).toBe(
        '---\ntitle: "[de] Ĝéţţîñĝ šţåŕţéð"\ndescription: "[de] Ĥöŵ ţö îñšţåļļ åñð ŕûñ îţ.\\n"\nweight: 10\ntags: [setup]\nslug: "[de] ĝéţţîñĝ-šţåŕţéð"\n---\n\n# [de] Îñšţåļļ\n\n[de] Ŕûñ ţĥé îñšţåļļéŕ.\n',
      );
      const n = e2e.emu.state.translator.calls.length;
      const again = await e2e.run(['translate', 'sync', 'start.md', '--to', 'de', '--front-matter', 'title,description,slug'], { cwd: dir });
      expect([again.code, again.stderr, e2e.emu.state.translator.calls.length]).toEqual([0, '', n]);
      // without --front-matter the page's front matter is not text
      const plain = await e2e.run(['translate', 'file', 'start.md', '--to', 'fr'], { cwd: dir });
      expect(plain.code).toBe(0);
      expect(read(dir, 'start.fr.md').startsWith(page.slice(0, page.indexOf('# Install')))).toBe(true);
    } finally {
      removeDir(dir);
    }
  });

  it('TOML (+++): a basic string on its line; keys of a table are not top-level', async () => {
    const dir = tempDir('vx-front-');
    try {
      writeFileSync(join(dir, 'page.md'), '+++\ntitle = "Release notes" # shown in the menu\ndate = 2024-05-01\n[params]\ndescription = "Not this one"\n+++\n\nText.\n');
      const r = await e2e.run(['translate', 'file', 'page.md', '--to', 'de', '--front-matter', 'title,description'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(read(dir, 'page.de.md')).toBe('+++\ntitle = "[de] Ŕéļéåšé ñöţéš" # shown in the menu\ndate = 2024-05-01\n[params]\ndescription = "Not this one"\n+++\n\n[de] Ţéẋţ.\n');
    } finally {
      removeDir(dir);
    }
  });
});
