// A Rails locale (Active Support's own en.yml, test/fixtures/files/real/rails): strftime and
// number-format directives are placeholders a translation may reorder but not change, Ruby symbols
// (`order: [:year, :month, :day]`) are code and never sent, and the target is valid YAML.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromHtml, placeholderProblem, toHtml, translatable } from '../../src/api/translator/files/protect.js';
import type { UnitValue } from '../../src/api/translator/files/types.js';
import { loadYaml, yaml } from '../../src/api/translator/files/yaml.js';

const EN = readFileSync(join(import.meta.dirname, '../fixtures/files/real/rails/en.yml'), 'utf8');

beforeAll(async () => {
  await loadYaml();
});

describe('Rails locale', () => {
  it('symbols are not units; date formats are placeholders only, not sent', async () => {
    const doc = yaml.parseSource(EN, 'config/locales/en.yml');
    const keys = doc.units.map((u) => u.key);
    expect(keys.filter((k) => k.startsWith('date.order'))).toEqual([]);
    const unit = (k: string) => doc.units.find((u) => u.key === k)!;
    // nothing to translate in "%Y-%m-%d" or "%b %d": it stays as the source has it
    expect(translatable(unit('date.formats.default').parts[0])).toBe(false);
    expect(unit('time.formats.default').parts[0].filter((p) => p.kind === 'token').map((p) => p.value)).toEqual(['%a', '%d', '%b', '%Y', '%H', '%M', '%S', '%z']);
    expect(toHtml(unit('date.formats.long').parts[0])).toBe('<span class="notranslate">%B</span> <span class="notranslate">%d</span>, <span class="notranslate">%Y</span>');
  });

  it('a translation may reorder directives (German dates), not change their kind (%b to %B)', () => {
    const doc = yaml.parseSource(EN, 'config/locales/en.yml');
    const p = doc.units.find((u) => u.key === 'time.formats.long')!.parts[0];
    const s = (x: string) => `<span class="notranslate">${x}</span>`;
    expect(placeholderProblem(p, fromHtml(`${s('%d')}. ${s('%B')} ${s('%Y')}, ${s('%H')}:${s('%M')}`, p))).toBeUndefined();
    expect(placeholderProblem(p, fromHtml(`${s('%d')}. %b ${s('%Y')}, ${s('%H')}:${s('%M')}`, p))).toBe('missing %B; unexpected %b');
  });

  it('the German target keeps the symbols and formats as they are, and is YAML 1.2 a parser reads back', async () => {
    const doc = yaml.parseSource(EN, 'config/locales/en.yml');
    const values = new Map<string, UnitValue>(doc.units.map((u) => [u.key, { kind: 'new', parts: u.parts }]));
    const out = yaml.render(doc, 'de', values, undefined, {});
    expect(out).toContain('    order:\n      - :year\n      - :month\n      - :day\n');
    const { parse } = (await import('yaml')) as typeof import('yaml');
    const tree = parse(out, { version: '1.2' }) as { de: { date: { order: string[]; formats: Record<string, string> } } };
    expect(tree.de.date.order).toEqual([':year', ':month', ':day']);
    expect(tree.de.date.formats.default).toBe('%Y-%m-%d');
  });
});
