// vx translate file|sync|check with a glossary, in-process against the emulator: the terms go in
// the markup to each language they apply to; a glossary beside the sources is found by name; a
// sync after one term changed sends exactly the units that hold it; an answer that drops a term
// is not written as translated (per format: left out, PO fuzzy); check reports missing and
// forbidden terms.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const TBX = resolve('test/fixtures/glossary/terms.tbx');
const calls = () => e2e.emu.state.translator.calls.map((c) => ({ to: new URLSearchParams(c.query).getAll('to').join(','), texts: c.texts }));
const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');

function project(): string {
  const dir = tempDir('vx-glossary-files-');
  writeFileSync(join(dir, 'en.json'), JSON.stringify({ title: 'Your account statement', save: 'Save the invoice', hello: 'Hello {name}' }, null, 2));
  writeFileSync(join(dir, '.vxglossary.yaml'), 'account statement:\n  de: Kontoauszug\n  fr: relevé de compte\ninvoice:\n  de: Rechnung\n');
  return dir;
}

describe('vx translate sync with a glossary', () => {
  it('the glossary beside the source: terms in the markup per language; a changed term sends exactly the units holding it', async () => {
    const dir = project();
    try {
      const r = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '--from', 'en', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(JSON.parse(read(dir, 'de.json'))).toEqual({ title: '[de] Ýöûŕ Kontoauszug', save: '[de] Šåṽé ţĥé Rechnung', hello: '[de] Ĥéļļö {name}' });
      expect(JSON.parse(read(dir, 'fr.json')).title).toBe('[fr] Ýöûŕ relevé de compte');
      const sent = calls();
      expect(sent).toContainEqual({ to: 'de', texts: ['Your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary>', 'Save the <mstrans:dictionary translation="Rechnung">invoice</mstrans:dictionary>'] });
      // (a text no term of a language applies to goes with that language's others)
      expect(sent).toContainEqual({ to: 'fr', texts: ['Your <mstrans:dictionary translation="relevé de compte">account statement</mstrans:dictionary>', 'Save the invoice'] });
      // what holds no term goes as before, to every language it needs at once
      expect(sent).toContainEqual({ to: 'de,fr', texts: ['Hello <span class="notranslate">{name}</span>'] });
      expect(sent).toHaveLength(3);
      // nothing changed: nothing sent
      e2e.emu.reset();
      expect((await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '--from', 'en'], { cwd: dir })).code).toBe(0);
      expect(calls()).toEqual([]);
      // one term edited for one language: only the unit holding it, only to that language
      writeFileSync(join(dir, '.vxglossary.yaml'), 'account statement:\n  de: Kontoübersicht\n  fr: relevé de compte\ninvoice:\n  de: Rechnung\n');
      const again = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '--from', 'en', '-o', 'json'], { cwd: dir });
      expect(again.code).toBe(0);
      expect(calls()).toEqual([{ to: 'de', texts: ['Your <mstrans:dictionary translation="Kontoübersicht">account statement</mstrans:dictionary>'] }]);
      expect(JSON.parse(read(dir, 'de.json')).title).toBe('[de] Ýöûŕ Kontoübersicht');
      // sync --check knows the glossary too
      writeFileSync(join(dir, '.vxglossary.yaml'), 'account statement:\n  de: Kontoauszug\n');
      const check = await e2e.run(['translate', 'sync', 'en.json', '--to', 'de,fr', '--from', 'en', '--check'], { cwd: dir });
      expect(check.code).toBe(9);
      // (the de term changed, invoice lost its de entry, account statement its fr one)
      expect((JSON.parse(check.stdout) as { language: string; unit: string; status: string }[]).map((u) => `${u.language} ${u.unit} ${u.status}`)).toEqual(['de title stale', 'de save stale', 'fr title stale']);
    } finally {
      removeDir(dir);
    }
  });

  it('needs the source language: exit 2 naming the glossary found, nothing sent', async () => {
    const dir = project();
    try {
      writeFileSync(join(dir, 'messages.pot'), 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Your account statement"\nmsgstr ""\n');
      const r = await e2e.run(['translate', 'file', 'messages.pot', '--to', 'de'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--glossary needs the source language: give --from <lang> \(the sources name no language, or not the same one\); .*\.vxglossary\.yaml is the glossary beside them/);
      expect(calls()).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('an answer that drops a term: the unit is not written as translated (JSON: left out; PO: fuzzy), exit 1', async () => {
    const dir = project();
    writeFileSync(join(dir, 'messages.pot'), 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Your account statement"\nmsgstr ""\n');
    try {
      const answer = (req: { text: string; url: string }) => {
        const to = new URL(req.url).searchParams.getAll('to');
        const texts = JSON.parse(req.text) as { Text: string }[];
        return json(200, texts.map((t) => ({ translations: to.map((l) => ({ to: l, text: t.Text.replace(/<mstrans:dictionary[^>]*>[^<]*<\/mstrans:dictionary>/g, 'Kontoübersicht') })) })));
      };
      const r = await runInProc(['translate', 'file', join(dir, 'en.json'), join(dir, 'messages.pot'), '--to', 'de', '--from', 'en', '-o', 'json'], { env: offlineEnv(), setup: (t) => t.http.stub('POST', /\/translate\?/, answer) });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`warning: ${join(dir, 'de.json')}: unit "title" (line 2 of ${join(dir, 'en.json')}): the term "account statement" is not translated as "Kontoauszug"; left untranslated`);
      expect(r.stderr).toContain('the term "account statement" is not translated as "Kontoauszug"; written as fuzzy (for review)');
      // ("invoice" lost its translation too)
      expect(r.stderr).toContain('unit "save" (line 3 of');
      expect(JSON.parse(read(dir, 'de.json'))).toEqual({ hello: 'Hello {name}' });
      expect(read(dir, 'de.po')).toContain('#, fuzzy\nmsgid "Your account statement"\nmsgstr "Your Kontoübersicht"');
    } finally {
      removeDir(dir);
    }
  });
});

describe('vx translate check --glossary', () => {
  it('term pairs that name no language check one catalogue language; two are refused in one line, nothing printed', async () => {
    const dir = tempDir('vx-glossary-check-pairs-');
    try {
      const pairs = join(dir, 'pairs.csv');
      writeFileSync(pairs, 'account statement,Kontoauszug\n');
      const po = (lang: string, str: string) => `msgid ""\nmsgstr "Language: ${lang}\\nContent-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Your account statement"\nmsgstr "${str}"\n`;
      writeFileSync(join(dir, 'de.po'), po('de', 'Ihr Kontoübersicht'));
      writeFileSync(join(dir, 'fr.po'), po('fr', 'Votre relevé de compte'));
      const one = await e2e.run(['translate', 'check', 'de.po', '--from', 'en', '--glossary', pairs], { cwd: dir });
      expect([one.code, one.stdout]).toEqual([9, 'de.po:4: unit "Your account statement": the term "account statement" is not translated as "Kontoauszug"\n']);
      const two = await e2e.run(['translate', 'check', 'de.po', 'fr.po', '--from', 'en', '--glossary', pairs], { cwd: dir });
      expect([two.code, two.stdout, two.stderr]).toEqual([2, '', `vx: glossary ${pairs}: it pairs each term with one translation and names no language: check one language at a time with it (this check: de, fr)\n`]);
    } finally {
      removeDir(dir);
    }
  });

  it('reports terms not translated as the glossary says and forbidden terms, whoever translated the catalogue', async () => {
    const dir = tempDir('vx-glossary-check-');
    try {
      writeFileSync(join(dir, 'de.po'), 'msgid ""\nmsgstr "Language: de\\nContent-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Your account statement"\nmsgstr "Ihr Kontoauszug"\n\nmsgid "Open the account statement"\nmsgstr "Kontoübersicht öffnen"\n\nmsgid "Contoso Cloud"\nmsgstr "Contoso-Wolke"\n');
      const r = await e2e.run(['translate', 'check', 'de.po', '--from', 'en', '--glossary', TBX], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([9, 'vx: 2 translations fail the checks\n']);
      expect(r.stdout.trim().split('\n')).toEqual([
        'de.po:7: unit "Open the account statement": the term "account statement" is not translated as "Kontoauszug"; the forbidden term "Kontoübersicht"',
        'de.po:10: unit "Contoso Cloud": the term "Contoso Cloud" is not translated as "Contoso Cloud"; the forbidden term "Contoso-Wolke"',
      ]);
    } finally {
      removeDir(dir);
    }
  });
});
