// Apple String Catalogs: real catalogs (NetNewsWire, Maccy) translated in place through the
// emulator's pseudo-translation and through vx itself in-process against the emulator: the file is
// still exactly what Xcode writes (every byte of the result equals Xcode's layout of its JSON, as
// the real files do), other languages, comments and extraction states untouched, plural
// variations and substitutions per target language from CLDR, device variations kept.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadXcstrings, xcodeJson, xcstrings } from '../../src/api/translator/files/xcstrings.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runInProc } from '../helpers/inproc.js';
import { removeDir, ROOT, tempDir } from '../helpers/vx.js';
import { readText, translateDoc } from '../helpers/formats.js';

const DIR = join(ROOT, 'test', 'fixtures', 'files', 'xcstrings');
type Json = Record<string, Record<string, Record<string, unknown>>>;

beforeAll(async () => {
  await loadXcstrings();
});

describe('String Catalog, the format', () => {
  it('Xcode\'s layout is what vx writes: the real catalogs are byte for byte their JSON in that layout', () => {
    for (const f of ['maccy/Localizable.xcstrings', 'netnewswire/Localizable.xcstrings', 'netnewswire/DefaultAccountNames.xcstrings']) {
      const text = readText(join(DIR, f));
      expect(xcodeJson(JSON.parse(text), ''), f).toBe(text.trimEnd());
    }
  });

  it('Maccy: a language it lacks is added to every string, in Xcode\'s place; the rest is untouched', () => {
    const file = join(DIR, 'maccy', 'Localizable.xcstrings');
    const text = readText(file);
    const doc = xcstrings.parseSource(text, file);
    expect(doc.language).toBe('en');
    const r = translateDoc(xcstrings, doc, 'pl', { target: xcstrings.parseTarget(text, file, doc, 'pl') });
    expect(r.problems).toEqual(new Map());
    expect(xcodeJson(JSON.parse(r.text), '')).toBe(r.text.trimEnd());
    const src = JSON.parse(text) as Json;
    const tgt = JSON.parse(r.text) as Json;
    for (const [k, e] of Object.entries(src.strings)) {
      const { pl, ...rest } = tgt.strings[k].localizations as Record<string, unknown>;
      expect(rest, k).toEqual(e.localizations);
      if (e.shouldTranslate !== false) expect(pl, k).toMatchObject({ stringUnit: { state: 'needs_review' } });
    }
    expect((tgt.strings.about.localizations as Record<string, unknown>).pl).toEqual({ stringUnit: { state: 'needs_review', value: '[pl] Åƀöûţ' } });
  });

  it('NetNewsWire: a source-only catalog; empty entries get a localization; comments and extraction states stay', () => {
    const file = join(DIR, 'netnewswire', 'Localizable.xcstrings');
    const text = readText(file);
    const doc = xcstrings.parseSource(text, file);
    const r = translateDoc(xcstrings, doc, 'de');
    expect(r.problems).toEqual(new Map());
    expect(xcodeJson(JSON.parse(r.text), '')).toBe(r.text.trimEnd());
    expect(r.text).toContain('    "(No Text)" : {\n      "comment" : "No Text",\n      "localizations" : {\n        "de" : {\n          "stringUnit" : {\n            "state" : "needs_review",\n            "value" : "[de] (Ñö Ţéẋţ)"\n          }\n        }\n      }\n    },');
    expect(r.text).toContain('    "%@ of %@" : {\n      "comment" : "Status bar progress",\n      "localizations" : {\n        "de" : {\n          "stringUnit" : {\n            "state" : "needs_review",\n            "value" : "%1$@ [de] öƒ %2$@"\n          }\n        },\n        "en" : {');
  });

  it('device variations keep their devices; plural variations and substitutions get the language\'s categories', () => {
    const dev = join(DIR, 'netnewswire', 'DefaultAccountNames.xcstrings');
    const d = translateDoc(xcstrings, xcstrings.parseSource(readText(dev), dev), 'ja');
    const devices = (JSON.parse(d.text) as Json).strings['account.name.on-my-device'].localizations as Record<string, { variations: { device: Record<string, unknown> } }>;
    expect(Object.keys(devices.ja.variations.device)).toEqual(Object.keys(devices.en.variations.device));
    const src = xcodeJson(
      {
        sourceLanguage: 'en',
        strings: {
          '%lld files': { localizations: { en: { variations: { plural: { one: { stringUnit: { state: 'translated', value: '%lld file' } }, other: { stringUnit: { state: 'translated', value: '%lld files' } } } } } } },
          'Found %lld in %@': {
            localizations: {
              en: {
                stringUnit: { state: 'translated', value: 'Found %#@items@ in %@' },
                substitutions: { items: { argNum: 1, formatSpecifier: 'lld', variations: { plural: { one: { stringUnit: { state: 'translated', value: '%arg item' } }, other: { stringUnit: { state: 'translated', value: '%arg items' } } } } } },
              },
            },
          },
          Brand: { shouldTranslate: false },
        },
        version: '1.0',
      },
      '',
    );
    const doc = xcstrings.parseSource(src, 'Localizable.xcstrings');
    expect(doc.units.map((u) => u.key)).toEqual(['%lld files', 'Found %lld in %@']);
    const r = translateDoc(xcstrings, doc, 'ru');
    expect(r.problems).toEqual(new Map());
    const ru = (JSON.parse(r.text) as Json).strings;
    const plural = (ru['%lld files'].localizations as Record<string, { variations: { plural: Record<string, { stringUnit: { value: string } }> } }>).ru.variations.plural;
    expect(Object.keys(plural)).toEqual(['few', 'many', 'one', 'other']);
    expect(plural.few.stringUnit.value).toBe('%lld [ru] ƒîļéš');
    const sub = (ru['Found %lld in %@'].localizations as Record<string, { substitutions: { items: { argNum: number; formatSpecifier: string; variations: { plural: Record<string, unknown> } } }; stringUnit: { value: string } }>).ru;
    expect(sub.stringUnit.value).toBe('[ru] Ƒöûñð %#@items@ îñ %@');
    expect([sub.substitutions.items.argNum, sub.substitutions.items.formatSpecifier, Object.keys(sub.substitutions.items.variations.plural)]).toEqual([1, 'lld', ['few', 'many', 'one', 'other']]);
    expect(xcodeJson(JSON.parse(r.text), '')).toBe(r.text);
  });
});

describe('String Catalog, vx translate file|sync in-process', () => {
  let emu: Emulator;
  let dir: string;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    dir = tempDir('vx-xcstrings-');
  });
  afterAll(async () => {
    await emu?.close();
    removeDir(dir);
  });

  it('targets go into the catalog itself, languages one after the other; a second sync sends nothing; --check names a stale string', async () => {
    const file = join(dir, 'Localizable.xcstrings');
    cpSync(join(DIR, 'netnewswire', 'Localizable.xcstrings'), file);
    const env = { ...emu.env(), VX_CONFIG_DIR: join(dir, '.config') };
    const vx = (argv: string[]) => runInProc(argv, { env, network: true });
    const r = await vx(['translate', 'sync', file, '--to', 'de,pl']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const text = readFileSync(file, 'utf8');
    expect(xcodeJson(JSON.parse(text), '')).toBe(text.trimEnd());
    const locs = (JSON.parse(text) as Json).strings['(No Text)'].localizations as Record<string, unknown>;
    expect(Object.keys(locs)).toEqual(['de', 'pl']);
    const calls = emu.state.translator.calls.length;
    const again = await vx(['translate', 'sync', file, '--to', 'de,pl']);
    expect([again.code, again.stderr, emu.state.translator.calls.length]).toEqual([0, '', calls]);
    expect(readFileSync(file, 'utf8')).toBe(text);
    // a source string changed: stale in both languages, by its key
    const src = JSON.parse(text) as Json;
    (src.strings['%@ of %@'].localizations as Record<string, { stringUnit: { value: string } }>).en.stringUnit.value = '%1$@ out of %2$@';
    writeFileSync(file, `${xcodeJson(src, '')}\n`);
    const check = await vx(['translate', 'sync', file, '--to', 'de,pl', '--check', '-o', 'json']);
    expect(check.code).toBe(9);
    expect((JSON.parse(check.stdout) as { language: string; unit: string }[]).map((x) => `${x.language} ${x.unit}`)).toEqual(['de %@ of %@', 'pl %@ of %@']);
  });
});
