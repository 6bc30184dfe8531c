// Apple String Catalogs (.xcstrings): one JSON file holding every language, so a target is the
// same file with the target language's localizations added (FileFormat.inPlace). Read with
// jsonc-parser (offsets of every node): a language vx adds is inserted where Xcode puts it (keys in
// Xcode's order, two-space indentation, `" : "` separators) and nothing else of the file moves, so a
// catalog that lacks the asked languages keeps every other byte. A string's source is its
// sourceLanguage localization (or its key, for a string Xcode extracted without one); a string
// with `"shouldTranslate" : false` is not text. Plural variations (in a localization or in its
// substitutions) get the target language's CLDR categories (Intl.PluralRules), each from the
// source's same category else other; device variations keep their devices. Comments,
// extractionState and other languages are untouched; a unit left untranslated gets no localization
// (the app shows the source language). `%@`, `%lld`, `%1$@`, `%#@arg@` and `%arg` are placeholders.
import type { Node } from 'jsonc-parser';
import { UsageError } from '../../../core/errors.js';
import { formsFor } from './plurals.js';
import { splitVariables } from './stringsdict.js';
import { withSyntax } from './app-syntax.js';
import type { Piece } from './protect.js';
import { applyEdits, hash, joinParts, lineAt, position, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc, type UnitValue } from './types.js';

let jsonc: typeof import('jsonc-parser') | undefined;

export async function loadXcstrings(): Promise<void> {
  jsonc ??= (await import('jsonc-parser/lib/esm/main.js')) as unknown as typeof import('jsonc-parser');
}

/** A localization's shape: its string unit, plural and device variations, substitutions. */
interface Tree {
  unit?: string;
  plural?: [string, Tree][];
  device?: [string, Tree][];
  subs?: [string, Sub][];
}

/** A substitution (`%#@count@`): its argument and format, and its plural forms. */
interface Sub {
  argNum?: unknown;
  formatSpecifier?: unknown;
  plural: [string, Tree][];
}

interface XUnit extends SourceUnit {
  tree: Tree;
}

interface XSource extends SourceDoc {
  xUnits: XUnit[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function parse(text: string, file: string): Node {
  const errors: import('jsonc-parser').ParseError[] = [];
  const root = jsonc!.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length || !root || root.type !== 'object') {
    const at = position(text, errors[0]?.offset ?? 0);
    throw new UsageError(`${file}:${at.line}:${at.column}: malformed String Catalog: ${errors.length ? jsonc!.printParseErrorCode(errors[0].error) : 'not a JSON object'}`);
  }
  return root;
}

const child = (n: Node | undefined, key: string) => n?.children?.find((p) => p.children?.[0].value === key)?.children?.[1];

/** The entries of the catalog's `strings` object by key (one pass: catalogs hold thousands). */
function entriesOf(root: Node): Map<string, Node> {
  return new Map((child(root, 'strings')?.children ?? []).map((p) => [p.children![0].value as string, p.children![1]]));
}

function treeOf(loc: Obj): Tree {
  const t: Tree = {};
  const su = loc.stringUnit;
  if (isObj(su) && typeof su.value === 'string') t.unit = su.value;
  const v = isObj(loc.variations) ? loc.variations : undefined;
  const map = (m: unknown) => (isObj(m) ? Object.entries(m).filter(([, x]) => isObj(x)).map(([k, x]) => [k, treeOf(x as Obj)] as [string, Tree]) : undefined);
  if (v && isObj(v.plural)) t.plural = map(v.plural);
  if (v && isObj(v.device)) t.device = map(v.device);
  if (isObj(loc.substitutions)) {
    t.subs = Object.entries(loc.substitutions).flatMap(([name, s]) => {
      if (!isObj(s)) return [];
      const pl = isObj(s.variations) ? map(s.variations.plural) : undefined;
      return [[name, { argNum: s.argNum, formatSpecifier: s.formatSpecifier, plural: pl ?? [] }]] as [string, Sub][];
    });
  }
  return t;
}

/** A tree's plural maps re-keyed for a language (its CLDR categories, each from the source's). */
function forLanguage(t: Tree, lang: string): Tree {
  const plural = (p: [string, Tree][]) => formsFor(lang, p.map(([c]) => c)).map((f) => [f.cat, forLanguage(p[f.from][1], lang)] as [string, Tree]);
  return {
    ...(t.unit !== undefined ? { unit: t.unit } : {}),
    ...(t.plural ? { plural: plural(t.plural) } : {}),
    ...(t.device ? { device: t.device.map(([d, x]) => [d, forLanguage(x, lang)] as [string, Tree]) } : {}),
    ...(t.subs ? { subs: t.subs.map(([n, s]) => [n, { ...s, plural: plural(s.plural) }] as [string, Sub]) } : {}),
  };
}

/** The string values of a tree in order (a leaf without a value is undefined). */
function leaves(t: Tree): (string | undefined)[] {
  return [...('unit' in t ? [t.unit] : []), ...(t.plural ?? []).flatMap(([, x]) => leaves(x)), ...(t.device ?? []).flatMap(([, x]) => leaves(x)), ...(t.subs ?? []).flatMap(([, s]) => s.plural.flatMap(([, x]) => leaves(x)))];
}

/** A tree with its leaf values replaced, in order. */
function fill(t: Tree, values: string[]): Tree {
  let i = 0;
  const go = (x: Tree): Tree => ({
    ...('unit' in x ? { unit: values[i++] } : {}),
    ...(x.plural ? { plural: x.plural.map(([c, y]) => [c, go(y)] as [string, Tree]) } : {}),
    ...(x.device ? { device: x.device.map(([c, y]) => [c, go(y)] as [string, Tree]) } : {}),
    ...(x.subs ? { subs: x.subs.map(([n, s]) => [n, { ...s, plural: s.plural.map(([c, y]) => [c, go(y)] as [string, Tree]) }] as [string, Sub]) } : {}),
  });
  return go(t);
}

/** The source leaves translated: which source part each target leaf comes from. */
function targetValues(u: XUnit, lang: string, parts: Piece[][]): string[] {
  // the source leaves carry their index; the target tree names the index of the leaf it came from
  let n = 0;
  const indexed = fill(u.tree, leaves(u.tree).map(() => String(n++)));
  return leaves(forLanguage(indexed, lang)).map((i) => parts[Number(i)].map((p) => p.value).join(''));
}

/** Xcode's key order (its JSON encoder sorts keys as Finder does: numbers by value, case after). */
const collator = new Intl.Collator('en', { numeric: true });
const order = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/** A value in Xcode's layout at an indentation (two spaces a level, `" : "`). */
export function xcodeJson(v: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (isObj(v)) {
    const keys = Object.keys(v).sort(order);
    if (!keys.length) return '{\n\n' + indent + '}';
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)} : ${xcodeJson(v[k], inner)}`).join(',\n')}\n${indent}}`;
  }
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => `${inner}${xcodeJson(x, inner)}`).join(',\n')}\n${indent}]` : '[\n\n' + indent + ']';
  return JSON.stringify(v);
}

/** The JSON of a localization from a tree of values, with the state vx writes. */
function localization(t: Tree, state: string): Obj {
  const o: Obj = {};
  const map = (p: [string, Tree][]) => Object.fromEntries(p.map(([k, x]) => [k, localization(x, state)]));
  if (t.unit !== undefined) o.stringUnit = { state, value: t.unit };
  if (t.plural || t.device) o.variations = { ...(t.plural ? { plural: map(t.plural) } : {}), ...(t.device ? { device: map(t.device) } : {}) };
  if (t.subs) o.substitutions = Object.fromEntries(t.subs.map(([n, s]) => [n, { ...(s.argNum !== undefined ? { argNum: s.argNum } : {}), ...(s.formatSpecifier !== undefined ? { formatSpecifier: s.formatSpecifier } : {}), variations: { plural: map(s.plural) } }]));
  return o;
}

/** The indentation of the line a node starts on. */
const indentAt = (text: string, offset: number) => /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1))![0];

/** The edit that puts `key : value` into an object node at Xcode's place (replacing an existing one). */
function putProperty(text: string, obj: Node, key: string, value: (indent: string) => string): [number, number, string] {
  const props = obj.children ?? [];
  const existing = props.find((p) => p.children![0].value === key);
  if (existing) {
    const v = existing.children![1];
    return [v.offset, v.offset + v.length, value(indentAt(text, existing.offset))];
  }
  const indent = props.length ? indentAt(text, props[0].offset) : `${indentAt(text, obj.offset)}  `;
  const entry = `${JSON.stringify(key)} : ${value(indent)}`;
  if (!props.length) return [obj.offset, obj.offset + obj.length, `{\n${indent}${entry}\n${indentAt(text, obj.offset)}}`];
  const after = props.find((p) => order(p.children![0].value as string, key) > 0);
  if (after) return [after.offset, after.offset, `${entry},\n${indent}`];
  const last = props[props.length - 1];
  return [last.offset + last.length, last.offset + last.length, `,\n${indent}${entry}`];
}

export const xcstrings: FileFormat = {
  name: 'xcstrings',
  inPlace: true,
  parseSource(text, file): XSource {
    const root = parse(text, file);
    const doc = jsonc!.getNodeValue(root) as Obj;
    const sourceLanguage = typeof doc.sourceLanguage === 'string' ? doc.sourceLanguage : 'en';
    const strings = child(root, 'strings');
    const xUnits: XUnit[] = [];
    for (const prop of strings?.children ?? []) {
      const key = prop.children![0].value as string;
      const entry = jsonc!.getNodeValue(prop.children![1]) as unknown;
      if (!isObj(entry) || entry.shouldTranslate === false) continue;
      const loc = isObj(entry.localizations) ? entry.localizations[sourceLanguage] : undefined;
      const tree = isObj(loc) ? treeOf(loc) : { unit: key };
      const values = leaves(tree);
      if (!values.length || values.some((v) => v === undefined)) continue;
      xUnits.push({ key, parts: values.map((v) => withSyntax(splitVariables(v!), 'objc')), hash: hash(JSON.stringify(isObj(loc) ? loc : key)), line: lineAt(text, prop.offset), tree });
    }
    return { format: 'xcstrings', file, text, units: xUnits, xUnits, language: sourceLanguage };
  },

  parseTarget(text, file, source, lang): TargetDoc {
    const entries = entriesOf(parse(text, file));
    const values = new Map<string, string>();
    const pending = new Set<string>();
    for (const u of (source as XSource).xUnits) {
      const loc = child(child(entries.get(u.key), 'localizations'), lang);
      if (!loc) continue;
      const obj = jsonc!.getNodeValue(loc) as Obj;
      const have = treeOf(obj);
      const want = forLanguage(u.tree, lang);
      const got = leaves(fillFrom(want, have));
      if (got.every((v) => v !== undefined)) values.set(u.key, joinParts(got as string[]));
      if (JSON.stringify(obj).includes('"state":"new"')) pending.add(u.key);
    }
    return { text, values, pending };
  },

  render(source, lang, values, target, opts): string {
    const src = source as XSource;
    const base = target?.text ?? src.text;
    const entries = entriesOf(parse(base, src.file));
    const edits: [number, number, string][] = [];
    for (const u of src.xUnits) {
      const v: UnitValue | undefined = values.get(u.key);
      if (!v || v.kind === 'keep' || v.review) continue;
      const entry = entries.get(u.key);
      if (!entry || entry.type !== 'object') continue;
      const loc = localization(fill(forLanguage(u.tree, lang), targetValues(u, lang, v.parts)), opts.state ?? 'needs_review');
      const locs = child(entry, 'localizations');
      if (locs?.type === 'object') edits.push(putProperty(base, locs, lang, (indent) => xcodeJson(loc, indent)));
      else edits.push(putProperty(base, entry, 'localizations', (indent) => xcodeJson({ [lang]: loc }, indent)));
    }
    return applyEdits(base, edits);
  },

  written: (_source, unit, value, lang) => joinParts(targetValues(unit as XUnit, lang, value.parts)),

  targetName: (name) => name,
};

/** The target's values in the shape vx wants for the language (a leaf the target lacks is undefined). */
function fillFrom(want: Tree, have: Tree): Tree {
  const pick = (w: [string, Tree][] | undefined, h: [string, Tree][] | undefined) => w?.map(([k, x]) => [k, fillFrom(x, h?.find(([hk]) => hk === k)?.[1] ?? {})] as [string, Tree]);
  return {
    ...('unit' in want ? { unit: have.unit } : {}),
    ...(want.plural ? { plural: pick(want.plural, have.plural) } : {}),
    ...(want.device ? { device: pick(want.device, have.device) } : {}),
    ...(want.subs ? { subs: want.subs.map(([n, s]) => [n, { ...s, plural: pick(s.plural, have.subs?.find(([hn]) => hn === n)?.[1].plural)! }] as [string, Sub]) } : {}),
  };
}
