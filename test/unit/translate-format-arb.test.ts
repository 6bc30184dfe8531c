// Flutter ARB: the Flutter Gallery's template translated through the emulator's pseudo-translation,
// the target read back by JSON.parse and its ICU messages by FormatJS's parser; metadata byte for
// byte, @@locale set, plural cases per target language (CLDR), exact cases kept.
import { join } from 'node:path';
import { parse as parseIcu } from '@formatjs/icu-messageformat-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { arb, arbTargetPath, loadArb } from '../../src/api/translator/files/arb.js';
import { loadIcu } from '../../src/api/translator/files/icu.js';
import { ROOT } from '../helpers/vx.js';
import { readText, translateDoc } from '../helpers/formats.js';

const file = join(ROOT, 'test', 'fixtures', 'files', 'arb', 'l10n', 'intl_en.arb');
const text = readText(file);

beforeAll(async () => {
  await loadArb();
  await loadIcu();
});

describe('Flutter ARB', () => {
  it('Gallery: every message translated, @key metadata untouched, @@locale added first, ICU still parses', () => {
    const doc = arb.parseSource(text, file);
    expect(doc.language).toBe('en');
    const r = translateDoc(arb, doc, 'pl');
    expect(r.problems).toEqual(new Map());
    const src = JSON.parse(text) as Record<string, unknown>;
    const tgt = JSON.parse(r.text) as Record<string, unknown>;
    expect(Object.keys(tgt)).toEqual(['@@locale', ...Object.keys(src)]);
    expect(tgt['@@locale']).toBe('pl');
    for (const [k, v] of Object.entries(src)) {
      if (k.startsWith('@')) expect(tgt[k], k).toEqual(v);
      else expect(() => parseIcu(tgt[k] as string, { ignoreTag: true }), k).not.toThrow();
    }
    // a plural gets Polish categories, its exact cases kept, # and {quantity} kept
    expect(tgt.shrineCartItemCount).toBe('{quantity, plural, =0{[pl] ÑÖ ÎŢÉṀŠ} =1{[pl] 1 ÎŢÉṀ} one{{quantity} [pl] ÎŢÉṀŠ} few{{quantity} [pl] ÎŢÉṀŠ} many{{quantity} [pl] ÎŢÉṀŠ} other{{quantity} [pl] ÎŢÉṀŠ}}');
    expect(JSON.parse(arb.render(doc, 'ja', r.values, undefined, {})).shrineCartItemCount).toBe('{quantity, plural, =0{[pl] ÑÖ ÎŢÉṀŠ} =1{[pl] 1 ÎŢÉṀ} other{{quantity} [pl] ÎŢÉṀŠ}}');
    // the text around the first message is the source's, byte for byte
    expect(r.text).toMatch(/^\{\n  "@@locale": "pl",\n  "githubRepo": "\{repoName\} \[pl\] /);
    expect(r.text).toContain('  "@githubRepo": {\n    "description": "Represents a link to a GitHub repository.",');
  });

  it('the value read back is what written() says; keeping every unit changes nothing; an untranslated message is left out', () => {
    const doc = arb.parseSource(text, file);
    const r = translateDoc(arb, doc, 'de');
    const target = arb.parseTarget(r.text, 'intl_de.arb', doc, 'de');
    for (const u of doc.units) expect(target.values.get(u.key), u.key).toBe(arb.written!(doc, u, r.values.get(u.key) as never, 'de', undefined));
    expect(arb.render(doc, 'de', new Map(doc.units.map((u) => [u.key, { kind: 'keep' as const }])), target, {})).toBe(r.text);
    const src = '{\n  "@@locale": "en",\n  "hello": "Hello {name}",\n  "@hello": {"placeholders": {"name": {"type": "String"}}},\n  "bye": "Bye"\n}\n';
    const small = arb.parseSource(src, 'app_en.arb');
    const h = translateDoc(arb, small, 'pt-BR', { answer: (x, l) => (x.includes('Bye') ? `${x}\u0007` : `[${l}] ${x}`) });
    expect([...h.problems.keys()]).toEqual(['bye']);
    expect(h.text).toBe('{\n  "@@locale": "pt_BR",\n  "hello": "[pt-BR] Hello {name}",\n  "@hello": {"placeholders": {"name": {"type": "String"}}}\n}\n');
  });

  it('targets: app_en.arb -> app_de.arb, intl_en.arb -> intl_pt_BR.arb', () => {
    expect(arbTargetPath('lib/l10n/app_en.arb', 'de')).toBe('lib/l10n/app_de.arb');
    expect(arbTargetPath('lib/l10n/intl_en.arb', 'pt-BR', 'en')).toBe('lib/l10n/intl_pt_BR.arb');
    expect(arbTargetPath('lib/l10n/strings.arb', 'de')).toBe('lib/l10n/strings_de.arb');
  });
});
