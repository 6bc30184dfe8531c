// i18next JSON v3 plurals (`key`/`key_plural`, `key_0..key_5`, read by apps on compatibilityJSON
// v3): detected from the file (or --i18next-format v3), a target gets its language's suffixes from
// i18next's own table (Polish `_0 _1 _2`, Japanese `_0`, German `key`/`key_plural`), each form
// translated from the source form of the same CLDR category; a v4 file keeps `_one/_other`.
// In-process against the emulator.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { v3Forms } from '../../src/api/translator/files/json-plurals.js';
import { useEmulator } from '../helpers/emulator.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const read = (dir: string, f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;

const V3 = `{
  "title": "Inbox",
  "message": "{{count}} message",
  "message_plural": "{{count}} messages",
  "friend_male": "A boyfriend",
  "friend_male_plural": "{{count}} boyfriends",
  "step_1": "First step"
}
`;

describe('i18next v3 plural keys', () => {
  it("i18next's table: the suffixes and the CLDR category of each", () => {
    expect(v3Forms('pl')).toEqual([{ suffix: '_0', cat: 'one' }, { suffix: '_1', cat: 'few' }, { suffix: '_2', cat: 'many' }]);
    expect(v3Forms('de-AT')).toEqual([{ suffix: '', cat: 'one' }, { suffix: '_plural', cat: 'other' }]);
    expect(v3Forms('ja').map((f) => f.suffix)).toEqual(['_0']);
    expect(v3Forms('ar').map((f) => f.cat)).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(v3Forms('sl').map((f) => `${f.suffix}=${f.cat}`)).toEqual(['_0=other', '_1=one', '_2=two', '_3=few']);
  });

  it('detected from key/key_plural: pl gets _0 _1 _2, ja _0, de key/key_plural; numbered keys of an English file stay keys; a second sync sends nothing', async () => {
    const dir = tempDir('vx-v3-');
    try {
      writeFileSync(join(dir, 'en.json'), V3);
      const r = await e2e.run(['translate', 'file', 'en.json', '--to', 'pl,ja,de', '-o', 'json'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      const pl = read(dir, 'pl.json');
      expect(Object.keys(pl)).toEqual(['title', 'message_0', 'message_1', 'message_2', 'friend_male_0', 'friend_male_1', 'friend_male_2', 'step_1']);
      // _0 (one) from the singular, _1 (few) and _2 (many) from the plural
      expect([pl.message_0, pl.message_1, pl.message_2]).toEqual(['{{count}} [pl] ɱéššåĝé', '{{count}} [pl] ɱéššåĝéš', '{{count}} [pl] ɱéššåĝéš']);
      expect(Object.keys(read(dir, 'ja.json'))).toEqual(['title', 'message_0', 'friend_male_0', 'step_1']);
      expect(read(dir, 'ja.json').message_0).toBe('{{count}} [ja] ɱéššåĝéš');
      expect(Object.keys(read(dir, 'de.json'))).toEqual(['title', 'message', 'message_plural', 'friend_male', 'friend_male_plural', 'step_1']);
      expect(readFileSync(join(dir, 'pl.json'), 'utf8')).toMatch(/^\{\n {2}"title": "\[pl\] Îñƀöẋ",\n {2}"message_0": /);
      const n = e2e.emu.state.translator.calls.length;
      const again = await e2e.run(['translate', 'sync', 'en.json', '--to', 'pl,ja,de'], { cwd: dir });
      expect([again.code, again.stderr, e2e.emu.state.translator.calls.length]).toEqual([0, '', n]);
      // and check reads the targets the same way
      const check = await e2e.run(['translate', 'check', 'en.json', '--to', 'pl,ja,de'], { cwd: dir });
      expect([check.code, check.stdout]).toEqual([0, '']);
    } finally {
      removeDir(dir);
    }
  });

  it('--i18next-format v3 for a Polish source of numbered keys (nothing to detect); v4 keeps a key_plural a key', async () => {
    const dir = tempDir('vx-v3-');
    try {
      writeFileSync(join(dir, 'pl.json'), '{ "files_0": "{{count}} plik", "files_1": "{{count}} pliki", "files_2": "{{count}} plików" }\n');
      const r = await e2e.run(['translate', 'file', 'pl.json', '--to', 'en', '--i18next-format', 'v3'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(read(dir, 'en.json')).toEqual({ files: '{{count}} [en] þļîķ', files_plural: '{{count}} [en] þļîķóŵ' });
      writeFileSync(join(dir, 'en.json'), V3);
      const v4 = await e2e.run(['translate', 'file', 'en.json', '--to', 'pl', '--i18next-format', 'v4'], { cwd: dir });
      expect(v4.code).toBe(0);
      expect(Object.keys(read(dir, 'pl.json'))).toContain('message_plural');
      const wrong = await e2e.run(['translate', 'file', 'pl.json', '--to', 'en', '--i18next-format', 'v5'], { cwd: dir });
      expect([wrong.code, wrong.stderr]).toEqual([2, 'vx: invalid value "v5" for --i18next-format: allowed v3, v4\n']);
      writeFileSync(join(dir, 'messages.pot'), 'msgid "Hello"\nmsgstr ""\n');
      const notJson = await e2e.run(['translate', 'file', 'messages.pot', '--to', 'de', '--i18next-format', 'v3'], { cwd: dir });
      expect([notJson.code, notJson.stderr]).toEqual([2, 'vx: --i18next-format applies to JSON files; messages.pot is po\n']);
    } finally {
      removeDir(dir);
    }
  });
});
