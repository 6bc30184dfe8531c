// Apple .stringsdict plural tables: an XML property list whose top-level keys each hold an
// NSStringLocalizedFormatKey (`%#@files@ left`) and, per variable, a rule dictionary
// (NSStringPluralRuleType: the CLDR categories zero...other; NSStringVariableWidthRuleType: widths).
// Read with saxes through xml-tree.ts rather than a plist library: a plist reader gives values, not
// offsets, and a target is the source with only the translated strings replaced (indentation with
// tabs, comments, key order and the DOCTYPE stay byte for byte). A target gets its language's
// plural categories (Intl.PluralRules), each from the source's same category or `other`; a unit left
// untranslated stays in the source language. `%#@var@` references are placeholders.
import { UsageError } from '../../../core/errors.js';
import { characterProblem } from './checks.js';
import { withSyntax } from './app-syntax.js';
import { formPairs, formsFor } from './plurals.js';
import type { Piece } from './protect.js';
import { lprojLanguage, lprojTargetPath } from './apple-strings.js';
import { applyEdits, hash, joinParts, lineAt, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc, type UnitValue } from './types.js';
import { indentOf, inner, loadXmlTree, xmlDecode, xmlEscape, xmlTree, type XmlNode } from './xml-tree.js';

export const loadStringsdict = loadXmlTree;

/** A variable's rule dictionary: its plural forms (category -> <string>), or other entries kept as parts. */
interface Rule {
  dict: XmlNode;
  plural: boolean;
  /** the <key>/<string> pairs that are text: categories (plural) or widths */
  forms: { key: string; keyNode: XmlNode; value: XmlNode }[];
}

interface DUnit extends SourceUnit {
  dict: XmlNode;
  format?: XmlNode;
  rules: Rule[];
}

interface DSource extends SourceDoc {
  dUnits: DUnit[];
}

interface DTarget extends TargetDoc {
  dicts: Map<string, { dict: XmlNode; format?: XmlNode; rules: Map<string, Map<string, XmlNode>> }>;
}

/** `%#@files@`, `%1$#@count@` (a variable of the format key), `%arg` (a String Catalog substitution's argument) */
const VARIABLE = /%(?:\d+\$?)?#@[A-Za-z_]\w*@|%arg\b/g;

/** Apple's format text as pieces, its variable references as placeholders. */
export function splitVariables(s: string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const m of s.matchAll(VARIABLE)) {
    if (m.index > last) out.push({ kind: 'text', value: s.slice(last, m.index) });
    out.push({ kind: 'token', value: m[0], tag: 'other' });
    last = m.index + m[0].length;
  }
  if (last < s.length) out.push({ kind: 'text', value: s.slice(last) });
  return out;
}

/** A <string>'s text as pieces. */
const pieces = (text: string, node: XmlNode) => withSyntax(splitVariables(xmlDecode(inner(text, node))), 'objc');

const encode = (p: readonly Piece[]) => xmlEscape(p.map((x) => x.value).join(''));

/** A <dict>'s entries: each <key> with the element after it. */
function pairs(text: string, dict: XmlNode): { key: string; keyNode: XmlNode; value: XmlNode }[] {
  const out: { key: string; keyNode: XmlNode; value: XmlNode }[] = [];
  for (let i = 0; i + 1 < dict.children.length; i++) {
    const k = dict.children[i];
    if (k.name !== 'key') continue;
    out.push({ key: xmlDecode(inner(text, k)), keyNode: k, value: dict.children[i + 1] });
    i++;
  }
  return out;
}

/** The top-level entries of a .stringsdict, each with its format key and rule dictionaries. */
function readDicts(text: string, file: string) {
  const root = xmlTree(text, file);
  const top = root.name === 'plist' ? root.children.find((c) => c.name === 'dict') : undefined;
  if (!top) throw new UsageError(`${file}:${lineAt(text, root.start)}: not a property list of strings (expected <plist><dict>)`);
  return pairs(text, top)
    .filter((p) => p.value.name === 'dict')
    .map((p) => {
      const entries = pairs(text, p.value);
      const format = entries.find((e) => e.key === 'NSStringLocalizedFormatKey' && e.value.name === 'string')?.value;
      const rules: (Rule & { name: string })[] = [];
      for (const e of entries) {
        if (e.value.name !== 'dict') continue;
        const kv = pairs(text, e.value);
        const type = kv.find((x) => x.key === 'NSStringFormatSpecTypeKey');
        const plural = type !== undefined && inner(text, type.value) === 'NSStringPluralRuleType';
        const forms = kv.filter((x) => !x.key.startsWith('NSString') && x.value.name === 'string');
        rules.push({ name: e.key, dict: e.value, plural, forms });
      }
      return { key: p.key, keyNode: p.keyNode, dict: p.value, format, rules };
    });
}

/** The forms of a plural rule a target language gets (a width rule keeps its own). */
function targetForms(rule: Rule, lang: string): { key: string; from: number }[] {
  if (!rule.plural) return rule.forms.map((f, i) => ({ key: f.key, from: i }));
  return formsFor(lang, rule.forms.map((f) => f.key)).map((f) => ({ key: f.cat, from: f.from }));
}

/** The strings a unit's target holds, in order: the format key, then each rule's forms. */
function writtenStrings(u: DUnit, lang: string, parts: Piece[][]): string[] {
  const out: string[] = [];
  let p = 0;
  if (u.format) out.push(encode(parts[p++]));
  for (const r of u.rules) {
    for (const f of targetForms(r, lang)) out.push(encode(parts[p + f.from]));
    p += r.forms.length;
  }
  return out;
}

function renderRule(text: string, r: Rule, values: string[], keys: string[]): [number, number, string] {
  const first = r.forms[0].keyNode;
  const last = r.forms[r.forms.length - 1].value;
  const indent = indentOf(text, first);
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const body = keys.map((k, i) => `${i ? indent : ''}<key>${xmlEscape(k)}</key>${nl}${indent}<string>${values[i]}</string>`).join(nl);
  return [first.start, last.end, body];
}

function renderUnit(text: string, u: DUnit, lang: string, v: Extract<UnitValue, { kind: 'new' }>, edits: [number, number, string][]): void {
  const strings = writtenStrings(u, lang, v.parts);
  let s = 0;
  if (u.format) edits.push([u.format.openEnd, u.format.closeStart, strings[s++]]);
  for (const r of u.rules) {
    if (!r.forms.length) continue;
    const keys = targetForms(r, lang).map((f) => f.key);
    edits.push(renderRule(text, r, strings.slice(s, s + keys.length), keys));
    s += keys.length;
  }
}

export const stringsdict: FileFormat = {
  name: 'stringsdict',
  keepsSource: true,
  parseSource(text, file): DSource {
    const dUnits: DUnit[] = readDicts(text, file).map((d) => {
      const parts: Piece[][] = [];
      if (d.format) parts.push(pieces(text, d.format));
      for (const r of d.rules) for (const f of r.forms) parts.push(pieces(text, f.value));
      const raw = joinParts([d.format ? inner(text, d.format) : '', ...d.rules.flatMap((r) => r.forms.map((f) => `${r.name}.${f.key}=${inner(text, f.value)}`))]);
      return { key: d.key, parts, hash: hash(raw), line: lineAt(text, d.keyNode.start), dict: d.dict, format: d.format, rules: d.rules };
    });
    const language = lprojLanguage(file);
    return { format: 'stringsdict', file, text, units: dUnits, dUnits, ...(language ? { language } : {}) };
  },

  parseTarget(text, file, source, lang): DTarget {
    const dicts: DTarget['dicts'] = new Map();
    const lines = new Map<string, number>();
    for (const d of readDicts(text, file)) {
      dicts.set(d.key, { dict: d.dict, format: d.format, rules: new Map(d.rules.map((r) => [r.name, new Map(r.forms.map((f) => [f.key, f.value]))])) });
      lines.set(d.key, lineAt(text, d.keyNode.start));
    }
    const values = new Map<string, string>();
    for (const u of (source as DSource).dUnits) {
      const d = dicts.get(u.key);
      if (!d) continue;
      const strings: (string | undefined)[] = u.format ? [d.format && inner(text, d.format)] : [];
      for (const r of u.rules) {
        const forms = d.rules.get(ruleName(source.text, u, r));
        for (const f of targetForms(r, lang)) strings.push(forms?.get(f.key) && inner(text, forms.get(f.key)!));
      }
      if (strings.every((x) => x !== undefined)) values.set(u.key, joinParts(strings as string[]));
    }
    return { text, values, dicts, lines };
  },

  render(source, lang, values, target): string {
    const src = source as DSource;
    const old = target as DTarget | undefined;
    const edits: [number, number, string][] = [];
    for (const u of src.dUnits) {
      const v = values.get(u.key);
      if (v?.kind === 'keep') {
        const was = old!.dicts.get(u.key)!.dict;
        edits.push([u.dict.openEnd, u.dict.closeStart, inner(old!.text, was)]);
      } else if (v && !v.review) renderUnit(src.text, u, lang, v, edits);
    }
    return applyEdits(src.text, edits);
  },

  written: (_source, unit, value, lang) => joinParts(writtenStrings(unit as DUnit, lang, value.parts)),
  check: characterProblem,
  translations(unit, value, lang) {
    const u = unit as DUnit;
    // the format key, then each rule's forms for the language, each beside the source form it comes from
    const forms: { cat: string; from: number }[] = u.format ? [{ cat: 'format', from: 0 }] : [];
    let p = forms.length;
    for (const r of u.rules) {
      for (const f of targetForms(r, lang)) forms.push({ cat: f.key, from: p + f.from });
      p += r.forms.length;
    }
    return formPairs(u.parts, value.split('\u0000').map((v) => splitVariables(xmlDecode(v))), forms);
  },
  targetName: (name, lang) => lprojTargetPath(name, lang),
};

/** A rule's variable name (the <key> before its dictionary). */
function ruleName(text: string, u: DUnit, r: Rule): string {
  const i = u.dict.children.indexOf(r.dict);
  return xmlDecode(inner(text, u.dict.children[i - 1]));
}
