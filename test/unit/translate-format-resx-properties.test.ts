// .NET .resx and Java .properties: real files translated through the emulator's pseudo-translation,
// each target read back by another reader (Python's XML parser; java.util.Properties itself), what
// vx does not translate byte for byte, MessageFormat quoting, charsets, and hostile answers.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResx, resx } from '../../src/api/translator/files/resx.js';
import { properties, propertiesTargetPath } from '../../src/api/translator/files/properties.js';
import type { SourceDoc } from '../../src/api/translator/files/types.js';
import { ROOT } from '../helpers/vx.js';
import { readText, translateDoc } from '../helpers/formats.js';
import { loadProperties, parseResx } from '../helpers/validators.js';
import { readFileSync } from 'node:fs';

const DIR = join(ROOT, 'test', 'fixtures', 'files');

beforeAll(async () => {
  await loadResx();
});

describe('.resx', () => {
  const file = join(DIR, 'resx', 'Properties', 'Resources.resx');
  const text = readText(file);

  it('Humanizer: every string translated with its {0} kept, comments and the schema header untouched', () => {
    const doc = resx.parseSource(text, file);
    expect(doc.units.length).toBe(Object.keys(parseResx(text)).length);
    const r = translateDoc(resx, doc, 'de');
    expect(r.problems).toEqual(new Map());
    const src = parseResx(text);
    const tgt = parseResx(r.text);
    expect(Object.keys(tgt)).toEqual(Object.keys(src));
    for (const [name, s] of Object.entries(src)) {
      expect(tgt[name].comment, name).toBe(s.comment);
      expect(tgt[name].value!.match(/\{\d+\}/g), name).toEqual(s.value!.match(/\{\d+\}/g));
      if (/\p{L}/u.test(s.value!.replace(/\{\d+\}/g, ''))) expect(tgt[name].value, name).toContain('[de] ');
    }
    // the header (and its commented-out examples) byte for byte
    const head = text.slice(0, text.indexOf('<resheader'));
    expect(r.text.startsWith(head)).toBe(true);
  });

  it('non-string resources stay, designer properties are not text, an untranslated string is left out', () => {
    const src = [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<root>',
      '  <data name="Greeting" xml:space="preserve">',
      '    <value>Hello {0} &amp; welcome</value>',
      '    <comment>shown at start</comment>',
      '  </data>',
      '  <data name="Logo" type="System.Resources.ResXFileRef, System.Windows.Forms">',
      '    <value>..\\logo.png;System.Drawing.Bitmap, System.Drawing</value>',
      '  </data>',
      '  <data name="&gt;&gt;button1.Name" xml:space="preserve"><value>button1</value></data>',
      '  <data name="Bye" xml:space="preserve"><value>Goodbye</value></data>',
      '</root>',
      '',
    ].join('\r\n');
    const doc = resx.parseSource(src, 'Form1.resx');
    expect(doc.units.map((u) => u.key)).toEqual(['Greeting', 'Bye']);
    const r = translateDoc(resx, doc, 'de', { answer: (h, l) => (h.includes('Goodbye') ? `${h}\u0001` : `[${l}] ${h}`) });
    expect([...r.problems.keys()]).toEqual(['Bye']);
    expect(r.text).toBe(src.replace('Hello', '[de] Hello').replace('  <data name="Bye" xml:space="preserve"><value>Goodbye</value></data>\r\n', ''));
    expect(parseResx(r.text).Greeting.value).toBe('[de] Hello {0} & welcome');
  });

  it('targets: Resources.resx -> Resources.de.resx, Strings.en.resx -> Strings.pt-BR.resx', () => {
    expect(resx.targetName('Properties/Resources.resx', 'de')).toBe('Properties/Resources.de.resx');
    expect(resx.targetName('Strings.en.resx', 'pt-BR', 'en')).toBe('Strings.pt-BR.resx');
  });
});

function propertiesDoc(path: string): SourceDoc {
  const { text, encoding } = properties.decode!(readFileSync(path), path);
  return { ...properties.parseSource(text, path), encoding };
}

describe('.properties', () => {
  it('Jenkins (UTF-8): patterns keep their arguments, quotes doubled, continuation lines read; Java reads the target', () => {
    const file = join(DIR, 'properties', 'jenkins', 'Messages.properties');
    const doc = propertiesDoc(file);
    expect(doc.encoding).toBe('utf8');
    const r = translateDoc(properties, doc, 'fr', { answer: (h, l) => `[${l}] l'${h}` });
    expect(r.problems).toEqual(new Map());
    const data = properties.encode!(r.text, 'utf8');
    const src = loadProperties(readFileSync(file), 'UTF-8');
    const tgt = loadProperties(Buffer.from(data), 'UTF-8');
    expect(Object.keys(tgt)).toEqual(Object.keys(src));
    // a choice format is one placeholder; the service's apostrophe is doubled in a pattern only
    expect(tgt['AbstractItem.FailureToStopBuilds']).toBe("[fr] l''Failed to interrupt and stop {0,choice,1#{0,number,integer} build|1<{0,number,integer} builds} of {1}");
    expect(tgt['AbstractItem.Pronoun']).toBe("[fr] l'Item");
    expect(tgt['AbstractBuild.BuildingInWorkspace']).toBe(" [fr] l''in workspace {0}");
    // a value with '' in the source is a pattern: '' read as a quote, written doubled again
    const quoted = doc.units.find((u) => u.parts[0].some((p) => p.kind === 'text' && p.value.includes("'")))!;
    expect(tgt[quoted.key]).toMatch(/''/);
  });

  it('petclinic (ASCII, so ISO-8859-1): non-ASCII translations written as \\uXXXX; Java reads them back', () => {
    const file = join(DIR, 'properties', 'petclinic', 'messages.properties');
    const doc = propertiesDoc(file);
    expect(doc.encoding).toBe('latin1');
    const r = translateDoc(properties, doc, 'pl');
    expect(r.text).toMatch(/^welcome=\[pl\] \\u0174\\u00e9\\u013c\\u00e7\\u00f6\\u0271\\u00e9$/m);
    expect(r.text).not.toMatch(/[^\x00-\x7e]/);
    const tgt = loadProperties(Buffer.from(properties.encode!(r.text, 'latin1')), 'ISO-8859-1');
    expect(tgt.welcome).toBe('[pl] Ŵéļçöɱé');
  });

  it('keeps comments, blank lines and kept values byte for byte; an untranslated key is left out', () => {
    const src = '# Owners\nowner=Owner\n\n! pets\npet.count=You have {0} pets\nlong=first \\\n    second\n';
    const doc = { ...properties.parseSource(src, 'messages.properties'), encoding: 'latin1' as const };
    const target = properties.parseTarget('owner=Eigent\\u00fcmer\n', 'messages_de.properties', doc, 'de');
    const r = translateDoc(properties, doc, 'de', { target, only: new Set(['long', 'pet.count']), answer: (h, l) => (h.includes('pets') ? h.replace(/<span[^>]*>\{0\}<\/span>/, '{1}') : `[${l}] ${h}`) });
    expect([...r.problems.keys()]).toEqual(['pet.count']);
    expect(r.text).toBe('# Owners\nowner=Eigent\\u00fcmer\n\n! pets\nlong=[de] first second\n');
  });

  it('targets as ResourceBundle names them', () => {
    expect(['de', 'pt-BR', 'zh-Hans'].map((l) => propertiesTargetPath('i18n/messages.properties', l))).toEqual(['i18n/messages_de.properties', 'i18n/messages_pt_BR.properties', 'i18n/messages_zh_Hans.properties']);
    expect(propertiesTargetPath('messages_en.properties', 'de')).toBe('messages_de.properties');
    expect(propertiesTargetPath('my_app.properties', 'de')).toBe('my_app_de.properties');
  });
});
