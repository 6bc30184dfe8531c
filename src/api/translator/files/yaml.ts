// YAML locale files (Rails i18n, Symfony, Hugo and the like). Read with the `yaml` package (a
// conforming parser that gives every node's source range), so a target is the source with only
// its string values replaced: comments, key order, indentation, anchors and untouched values stay
// byte for byte. A translated value is written double-quoted (the one style that holds any text).
//
// Rails conventions: a document whose root is one key naming a language (`en:`) has the language
// there; the target's root key is its language (`de:`), and unit keys leave it out. A mapping
// whose keys are plural categories with `other` among them (`one:`/`other:`) is one unit; a target
// gets the forms its language needs (Intl.PluralRules), each translated from the source's same
// form or else from `other`; `zero` is kept when the source has it. Aliases (`*name`) follow their
// anchor and are not units of their own.
import type { Document, Node as YNode, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { UsageError } from '../../../core/errors.js';
import { keyOf } from './json.js';
import { formPairs, pluralCategories } from './plurals.js';
import { piecesText, tokenize, type Piece } from './protect.js';
import { applyEdits, fileLanguage, hash, isLanguage, joinParts, LANGUAGE_NAME, lineAt, localeTargetPath, position, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc, type UnitValue } from './types.js';

let Y: typeof import('yaml') | undefined;

/** The yaml package, once loadYaml has loaded it (Markdown's front matter reads with it too). */
export function yamlLib(): typeof import('yaml') {
  return Y!;
}

export async function loadYaml(): Promise<void> {
  if (Y) return;
  const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  // the bundled CommonJS build exposes its functions on `default`
  Y = mod.default ?? mod;
}

const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;

interface YUnit extends SourceUnit {
  /** a string scalar */
  node?: Scalar;
  /** a plural mapping: category -> its string scalar, in source order */
  forms?: Map<string, Scalar>;
  map?: YAMLMap;
  /** the path below the root language key */
  path: (string | number)[];
}

interface YamlSource extends SourceDoc {
  doc: Document;
  yUnits: YUnit[];
  /** the root key naming the language (Rails), when there is one */
  rootKey?: Scalar;
}

interface YamlTarget extends TargetDoc {
  /** the node under which the units' paths start (the root, or the value of its language key) */
  top: YNode | null;
}

function parse(text: string, file: string): Document {
  // (duplicate keys are found by duplicateKey: the library's own check is quadratic in a mapping's size)
  const docs = Y!.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false });
  if (!Array.isArray(docs)) throw new UsageError(`${file}:1:1: malformed YAML: empty document`);
  const doc = docs[0];
  if (!doc) throw new UsageError(`${file}:1:1: malformed YAML: empty document`);
  const err = docs.flatMap((d) => d.errors)[0];
  if (err) {
    const at = position(text, err.pos[0]);
    throw new UsageError(`${file}:${at.line}:${at.column}: malformed YAML: ${err.message.split('\n')[0]}`);
  }
  if (docs.length > 1) throw new UsageError(`${file}:${lineAt(text, docs[1].range[0])}: a YAML locale file holds one document, this one has ${docs.length}`);
  if (!Y!.isMap(doc.contents)) throw new UsageError(`${file}:1:1: a YAML locale file must be a mapping of keys and texts`);
  const dup = duplicateKey(doc.contents);
  if (dup) {
    const at = position(text, dup.range![0]);
    throw new UsageError(`${file}:${at.line}:${at.column}: malformed YAML: Map keys must be unique`);
  }
  return doc;
}

/** The first key that a mapping of the tree has twice (by its text, as the application reads it). */
function duplicateKey(node: unknown): Scalar | undefined {
  if (Y!.isMap(node)) {
    const seen = new Set<string>();
    for (const p of node.items as Pair[]) {
      if (Y!.isScalar(p.key)) {
        const k = String(p.key.value);
        if (seen.has(k)) return p.key;
        seen.add(k);
      }
      const d = duplicateKey(p.value);
      if (d) return d;
    }
  } else if (Y!.isSeq(node)) {
    for (const c of node.items) {
      const d = duplicateKey(c);
      if (d) return d;
    }
  }
  return undefined;
}

const isString = (n: unknown): n is Scalar => Y!.isScalar(n) && typeof (n as Scalar).value === 'string';

function keyText(p: Pair): string | undefined {
  return Y!.isScalar(p.key) && (typeof p.key.value === 'string' || typeof p.key.value === 'number') ? String(p.key.value) : undefined;
}

/** The root language key of a Rails file: the root's only key, naming a language, over a mapping. */
function rootLanguage(doc: Document): Pair | undefined {
  const root = doc.contents as YAMLMap;
  if (root.items.length !== 1) return undefined;
  const p = root.items[0] as Pair;
  const k = keyText(p);
  return k !== undefined && LANGUAGE_NAME.test(k) && isLanguage(k) && Y!.isMap(p.value) ? p : undefined;
}

/** A mapping of plural forms: string values only, keys plural categories, `other` among them. */
function pluralForms(m: YAMLMap): Map<string, Scalar> | undefined {
  const forms = new Map<string, Scalar>();
  for (const it of m.items as Pair[]) {
    const k = keyText(it);
    if (k === undefined || !(CATEGORIES as readonly string[]).includes(k) || !isString(it.value)) return undefined;
    forms.set(k, it.value);
  }
  return forms.has('other') ? forms : undefined;
}

function unitsOf(text: string, top: YNode): YUnit[] {
  const out: YUnit[] = [];
  const walk = (node: YNode | null, path: (string | number)[]) => {
    if (Y!.isMap(node)) {
      const forms = path.length ? pluralForms(node) : undefined;
      if (forms) {
        const parts = [...forms.values()].map((s) => text1(s.value as string));
        const raw = joinParts([...forms].map(([k, s]) => `${k}=${s.value as string}`));
        out.push({ key: keyOf(path), parts, hash: hash(raw), line: lineAt(text, node.range![0]), forms, map: node, path });
        return;
      }
      for (const p of node.items as Pair[]) {
        const k = keyText(p);
        if (k === undefined) continue;
        if (isText(p.value)) out.push(scalarUnit(text, p.value, [...path, k]));
        else if (isString(p.value)) continue;
        else walk(p.value as YNode, [...path, k]);
      }
    } else if (Y!.isSeq(node)) {
      (node as YAMLSeq).items.forEach((c, i) => {
        if (isText(c)) out.push(scalarUnit(text, c, [...path, i]));
        else if (isString(c)) return;
        else walk(c as YNode, [...path, i]);
      });
    }
  };
  walk(top, []);
  return out;
}

function scalarUnit(text: string, node: Scalar, path: (string | number)[]): YUnit {
  const v = node.value as string;
  return { key: keyOf(path), parts: [text1(v)], hash: hash(v), line: lineAt(text, node.range![0]), node, path };
}

/**
 * A value's pieces: Rails' %{count}, and Ruby's strftime and number-format directives (%Y-%m-%d,
 * %b, %-d, %u%n), which a translation may reorder (%d.%m.%Y) but never change.
 */
function text1(s: string): Piece[] {
  return tokenize(s, { syntax: { printf: 'strftime' } });
}

/** A Ruby symbol (`:year` in `order: [:year, :month, :day]`, `!ruby/symbol year`): code, never sent, copied as it is. */
function isSymbol(n: Scalar): boolean {
  return n.tag === '!ruby/symbol' || n.tag === '!ruby/sym' || (n.type === 'PLAIN' && /^:[A-Za-z_]\w*[?!=]?$/.test(n.value as string));
}

/** A string value that is text to translate (not a Ruby symbol). */
const isText = (n: unknown): n is Scalar => isString(n) && !isSymbol(n);

const indexes = new WeakMap<object, Map<string, YNode>>();

/** The node at a path below `top` (undefined when absent); one walk per tree builds an index by keyOf(path). */
function nodeAt(top: YNode | null, path: readonly (string | number)[]): YNode | undefined {
  if (!top) return undefined;
  let index = indexes.get(top);
  if (!index) {
    const m = new Map<string, YNode>();
    const walk = (n: YNode, at: (string | number)[]) => {
      m.set(keyOf(at), n);
      if (Y!.isMap(n)) {
        for (const p of n.items as Pair[]) {
          const k = keyText(p);
          if (k !== undefined && p.value) walk(p.value as YNode, [...at, k]);
        }
      } else if (Y!.isSeq(n)) (n as YAMLSeq).items.forEach((c, i) => c && walk(c as YNode, [...at, i]));
    };
    walk(top, []);
    indexes.set(top, (index = m));
  }
  return index.get(keyOf(path));
}

/** The forms a target language gets for a plural unit, each with the index of the source form it is translated from. */
function targetForms(forms: Map<string, Scalar>, lang: string): { cat: string; from: number }[] {
  const cats = pluralCategories(lang);
  if (forms.has('zero') && !cats.includes('zero')) cats.unshift('zero');
  const src = [...forms.keys()];
  return cats.map((cat) => ({ cat, from: src.includes(cat) ? src.indexOf(cat) : src.indexOf('other') }));
}

/**
 * The forms of a plural unit an incomplete target already has (pl written by hand with only
 * `one` and `other`): kept when the unit is translated, only the missing forms are filled in.
 */
function keptForms(u: YUnit, lang: string, old: YamlTarget | undefined): (Scalar | undefined)[] {
  const map = old ? nodeAt(old.top, u.path) : undefined;
  if (!Y!.isMap(map)) return [];
  const nodes = targetForms(u.forms!, lang).map((f) => nodeAt(map, [f.cat])).map((n) => (isString(n) ? n : undefined));
  return nodes.every((n) => n) ? [] : nodes;
}

/** A text as a YAML double-quoted scalar: JSON's escapes, and those YAML wants for characters JSON leaves bare. */
export function yamlString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The source range of a node's value: a block scalar keeps the line break it ends with. */
export function valueRange(text: string, n: YNode): [number, number, string] {
  const [start, end] = n.range!;
  const slice = text.slice(start, end);
  return [start, end, slice.endsWith('\r\n') ? '\r\n' : slice.endsWith('\n') ? '\n' : ''];
}

export const yaml: FileFormat = {
  name: 'yaml',
  leavesSource: true,
  parseSource(text, file): YamlSource {
    const doc = parse(text, file);
    const rootPair = rootLanguage(doc);
    const top = rootPair ? (rootPair.value as YNode) : (doc.contents as YNode);
    const yUnits = unitsOf(text, top);
    // a Rails file names its language in its root key; else its name may (en.yml, devise.en.yml, locales/en/app.yml)
    const language = rootPair ? keyText(rootPair)?.replace('_', '-') : fileLanguage(file, /\.ya?ml$/i);
    return { format: 'yaml', file, text, units: yUnits, yUnits, doc, rootKey: rootPair?.key as Scalar | undefined, language };
  },

  parseTarget(text, file, source, lang): YamlTarget {
    const src = source as YamlSource;
    const doc = parse(text, file);
    const rootPair = src.rootKey ? (doc.contents as YAMLMap).items.length === 1 ? (doc.contents as YAMLMap).items[0] as Pair : undefined : undefined;
    const top = src.rootKey ? ((rootPair?.value as YNode | undefined) ?? null) : (doc.contents as YNode);
    const values = new Map<string, string>();
    const lines = new Map<string, number>();
    for (const u of src.yUnits) {
      const n = nodeAt(top, u.path);
      if (u.forms) {
        if (!Y!.isMap(n)) continue;
        const forms = targetForms(u.forms, lang).map((f) => nodeAt(n, [f.cat]));
        if (forms.every(isString)) values.set(u.key, joinParts(forms.map((s) => (s as Scalar).value as string)));
      } else if (isString(n)) values.set(u.key, n.value as string);
      if (n?.range) lines.set(u.key, lineAt(text, n.range[0]));
    }
    return { text, values, top, lines };
  },

  render(source, lang, values, target): string {
    const src = source as YamlSource;
    const text = src.text;
    const old = target as YamlTarget | undefined;
    const edits: [number, number, string][] = [];
    if (src.rootKey) edits.push([src.rootKey.range![0], src.rootKey.range![1], /^[A-Za-z0-9_-]+$/.test(lang) ? lang : yamlString(lang)]);
    /** the existing target's text of a unit's value (carried over as it is) */
    const oldRaw = (u: YUnit) => {
      const n = nodeAt(old!.top, u.path)!;
      const [s, e] = valueRange(old!.text, n);
      return old!.text.slice(s, e).replace(/\r?\n$/, '');
    };
    for (const u of src.yUnits) {
      const v: UnitValue | undefined = values.get(u.key);
      // untranslated: left in the source language (the lock says it is not translated: the next sync tries again)
      if (!v) continue;
      const node: YNode = u.forms ? u.map! : u.node!;
      const [start, end, nl] = valueRange(text, node);
      if (v.kind === 'keep') {
        edits.push([start, end, oldRaw(u) + nl]);
        continue;
      }
      if (!u.forms) {
        edits.push([start, end, yamlString(piecesText(v.parts[0])) + nl]);
        continue;
      }
      const kept = keptForms(u, lang, old);
      const forms = targetForms(u.forms, lang).map((f, i) => {
        const k = kept[i];
        return `${f.cat}: ${k ? old!.text.slice(k.range![0], k.range![1]) : yamlString(piecesText(v.parts[f.from]))}`;
      });
      if (u.map!.flow) edits.push([start, end, `{ ${forms.join(', ')} }`]);
      else {
        // a block mapping: one line per form at the indentation of its first key
        const indent = /[ \t]*$/.exec(text.slice(text.lastIndexOf('\n', start - 1) + 1, start))![0];
        edits.push([start, end, forms.join(`${text.includes('\r\n') ? '\r\n' : '\n'}${indent}`) + nl]);
      }
    }
    return applyEdits(text, edits);
  },

  written(_source, unit, value, lang, target) {
    const u = unit as YUnit;
    if (!u.forms) return piecesText(value.parts[0]);
    const kept = keptForms(u, lang, target as YamlTarget | undefined);
    return joinParts(targetForms(u.forms, lang).map((f, i) => (kept[i] ? (kept[i].value as string) : piecesText(value.parts[f.from]))));
  },

  translations(unit, value, lang) {
    const u = unit as YUnit;
    return formPairs(u.parts, value.split('\u0000').map((v) => [{ kind: 'text', value: v }]), u.forms ? targetForms(u.forms, lang) : undefined);
  },

  targetName(name, lang, sourceLanguage) {
    // en.yml -> de.yml; devise.en.yml -> devise.de.yml; locales/en/app.yml -> locales/de/app.yml; app.yml -> app.de.yml
    return localeTargetPath(name, lang, sourceLanguage, /\.(ya?ml)$/i, 'yml');
  },
};
