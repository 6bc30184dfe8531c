// .NET resources (.resx): the string <data> entries of a ResX document. Read with saxes through
// xml-tree.ts and written by surgical edits at its offsets (System.Resources.ResXResourceWriter
// is .NET's, and regenerating the document would rewrite its schema header, whitespace and
// comments). A string resource is a <data> without type= or mimetype= (those are images, sizes,
// file references: kept as they are) whose name is not a designer property (`>>button1.Name`,
// `$this.Icon`); its <value> is the text, its <comment> is kept. `{0}`, `{1:N2}` and `{0,-10}`
// (composite format) are placeholders. A unit left untranslated is left out of the target (the
// satellite assembly falls back to the neutral resources).
import { UsageError } from '../../../core/errors.js';
import type { Piece } from './protect.js';
import { characterProblem } from './checks.js';
import { withSyntax } from './app-syntax.js';
import { applyEdits, fileLanguage, hash, lineAt, localeTargetPath, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc } from './types.js';
import { inner, loadXmlTree, removalRange, xmlDecode, xmlEscape, xmlTree, type XmlNode } from './xml-tree.js';

export const loadResx = loadXmlTree;

interface RUnit extends SourceUnit {
  data: XmlNode;
  value: XmlNode;
}

interface RSource extends SourceDoc {
  root: XmlNode;
  rUnits: RUnit[];
}

interface RTarget extends TargetDoc {
  byName: Map<string, XmlNode>;
}

function isText(data: XmlNode): boolean {
  const name = data.attrs.name ?? '';
  return data.attrs.type === undefined && data.attrs.mimetype === undefined && !name.startsWith('>>') && !name.startsWith('$this.');
}

const valueOf = (data: XmlNode) => data.children.find((c) => c.name === 'value');

function dataByName(text: string, file: string, root: XmlNode): Map<string, XmlNode> {
  if (root.name !== 'root') throw new UsageError(`${file}:${lineAt(text, root.start)}: not a .resx document (the root element is <${root.name}>, not <root>)`);
  const byName = new Map<string, XmlNode>();
  for (const d of root.children) {
    if (d.name !== 'data' || d.attrs.name === undefined) continue;
    if (byName.has(d.attrs.name)) throw new UsageError(`${file}:${lineAt(text, d.start)}: the resource "${d.attrs.name}" is defined twice`);
    byName.set(d.attrs.name, d);
  }
  return byName;
}

const encode = (pieces: readonly Piece[]) => xmlEscape(pieces.map((p) => p.value).join(''));

export const resx: FileFormat = {
  name: 'resx',
  parseSource(text, file): RSource {
    const root = xmlTree(text, file);
    const rUnits: RUnit[] = [];
    for (const [name, data] of dataByName(text, file, root)) {
      const value = valueOf(data);
      if (!value || !isText(data)) continue;
      const raw = inner(text, value);
      rUnits.push({ key: name, parts: [withSyntax([{ kind: 'text', value: xmlDecode(raw) }], 'csharp')], hash: hash(raw), line: lineAt(text, data.start), data, value });
    }
    const language = fileLanguage(file, /\.resx$/i);
    return { format: 'resx', file, text, units: rUnits, rUnits, root, ...(language ? { language } : {}) };
  },

  parseTarget(text, file): RTarget {
    const byName = dataByName(text, file, xmlTree(text, file));
    const values = new Map<string, string>();
    for (const [name, data] of byName) {
      const value = valueOf(data);
      if (value && isText(data)) values.set(name, inner(text, value));
    }
    return { text, values, byName, lines: new Map([...byName].map(([k, d]) => [k, lineAt(text, d.start)])) };
  },

  render(source, _lang, values, target): string {
    const src = source as RSource;
    const old = target as RTarget | undefined;
    const edits: [number, number, string][] = [];
    for (const u of src.rUnits) {
      const v = values.get(u.key);
      if (!v) {
        const [s, e] = removalRange(src.text, u.data);
        edits.push([s, e, '']);
      } else if (v.kind === 'keep') edits.push([u.value.openEnd, u.value.closeStart, inner(old!.text, valueOf(old!.byName.get(u.key)!)!)]);
      else edits.push([u.value.openEnd, u.value.closeStart, encode(v.parts[0])]);
    }
    return applyEdits(src.text, edits);
  },

  written: (_source, _unit, value) => encode(value.parts[0]),

  check: characterProblem,
  translations: (unit, value) => [{ source: unit.parts[0], translation: [{ kind: 'text', value: xmlDecode(value) }] }],

  targetName(name, lang, sourceLanguage) {
    return localeTargetPath(name, lang, sourceLanguage, /\.(resx)$/i, 'resx');
  },
};
