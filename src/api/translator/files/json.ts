// JSON locale files, nested or flat (i18next and the like). Read with jsonc-parser (Microsoft's
// well-kept scanner: a tree with the offset of every node, strict mode errors with offsets), so a
// target is the source with only its string values replaced: key order, indentation, escapes of
// untouched values and non-string values stay byte for byte.
//
// i18next plurals (json-plurals.ts: v4 `_one/_other`, v3 `key`/`key_plural` and `key_0...`): the
// forms of a key are one unit; a target gets the forms its language needs, each translated from
// the source's form of the same category or else from its `other`. Context keys (`friend_male`)
// are ordinary keys; `$t(...)` nesting and `{{x}}` are placeholders (protect.ts).
import type { Node, ParseError } from 'jsonc-parser';
import { UsageError } from '../../../core/errors.js';
import { looksV3, pluralGroups, targetForms, type Group, type I18nextFormat } from './json-plurals.js';
import { formPairs } from './plurals.js';
import { piecesText, type Piece } from './protect.js';
import { applyEdits, fileLanguage, hash, joinParts, lineAt, localeTargetPath, position, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc, type UnitValue } from './types.js';

let jsonc: typeof import('jsonc-parser') | undefined;

// the package's ES build: its UMD main requires files by computed names a bundler cannot follow

export async function loadJson(): Promise<void> {
  jsonc ??= (await import('jsonc-parser/lib/esm/main.js')) as unknown as typeof import('jsonc-parser');
}

interface JUnit extends SourceUnit {
  /** a plain string value (or array element) */
  node?: Node;
  /** the property node of a plain value inside an object (removed when untranslated) */
  prop?: Node;
  group?: Group;
  /** the path of the value (a group: its base key in the parent) */
  path: (string | number)[];
}

interface JsonSource extends SourceDoc {
  root: Node;
  jUnits: JUnit[];
}

function parse(text: string, file: string): Node {
  const errors: ParseError[] = [];
  const root = jsonc!.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length || !root) {
    const e = errors[0];
    const at = position(text, e?.offset ?? 0);
    const what = e ? jsonc!.printParseErrorCode(e.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() : 'empty document';
    throw new UsageError(`${file}:${at.line}:${at.column}: malformed JSON: ${what}`);
  }
  if (root.type !== 'object') throw new UsageError(`${file}:1:1: a JSON locale file must be an object of keys and texts, not ${root.type === 'array' ? 'an array' : `a ${root.type}`}`);
  duplicateKey(text, file, root);
  return root;
}

/**
 * A key an object has twice is refused: JSON readers (JSON.parse, i18next) keep the last value
 * only, so the first copy is dead text, and vx translated the last value into every copy. Which
 * one the file's author meant is theirs to say.
 */
function duplicateKey(text: string, file: string, node: Node, path: (string | number)[] = []): void {
  if (node.type !== 'object' && node.type !== 'array') return;
  const seen = node.type === 'object' ? new Map<string, Node>() : undefined;
  (node.children ?? []).forEach((c, i) => {
    if (seen && c.type === 'property') {
      const keyNode = c.children![0];
      const k = keyNode.value as string;
      const first = seen.get(k);
      if (first) {
        const at = position(text, keyNode.offset);
        throw new UsageError(`${file}:${at.line}:${at.column}: duplicate key ${JSON.stringify(keyOf([...path, k]))} (first on line ${lineAt(text, first.offset)}): JSON readers keep only its last value; remove one of them`);
      }
      seen.set(k, keyNode);
      if (c.children![1]) duplicateKey(text, file, c.children![1], [...path, k]);
    } else duplicateKey(text, file, c, [...path, i]);
  });
}

export function keyOf(path: readonly (string | number)[]): string {
  return path.map((c) => String(c).replace(/[\\.]/g, '\\$&')).join('.');
}


function unitsOf(text: string, root: Node, format: I18nextFormat, sourceLang: string | undefined): JUnit[] {
  const out: JUnit[] = [];
  const walk = (node: Node, path: (string | number)[]) => {
    if (node.type === 'object') {
      const props = node.children ?? [];
      const inGroup = pluralGroups(props, format, sourceLang);
      const done = new Set<Group>();
      for (const p of props) {
        const k = p.children![0].value as string;
        const v = p.children![1];
        const g = inGroup.get(p);
        if (g) {
          if (done.has(g)) continue;
          done.add(g);
          const parts = g.members.map((m) => tokenizeValue(m.children![1].value as string));
          const raw = joinParts(g.members.map((m) => `${m.children![0].value}=${m.children![1].value}`));
          const gpath = [...path, `${g.base}_${g.ordinal ? 'ordinal_' : ''}*`];
          out.push({ key: keyOf(gpath), parts, hash: hash(raw), line: lineAt(text, p.offset), group: g, path: gpath });
          continue;
        }
        if (v.type === 'string') out.push({ key: keyOf([...path, k]), parts: [tokenizeValue(v.value)], hash: hash(v.value), line: lineAt(text, v.offset), node: v, prop: p, path: [...path, k] });
        else walk(v, [...path, k]);
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((c, i) => {
        if (c.type === 'string') out.push({ key: keyOf([...path, i]), parts: [tokenizeValue(c.value)], hash: hash(c.value), line: lineAt(text, c.offset), node: c, path: [...path, i] });
        else walk(c, [...path, i]);
      });
    }
  };
  walk(root, []);
  return out;
}

/** A JSON string value as one text piece (placeholders are found later by protect.ts). */
function tokenizeValue(s: string): Piece[] {
  return [{ kind: 'text', value: s }];
}

const indexes = new WeakMap<Node, Map<string, Node>>();

const esc = (c: string | number) => String(c).replace(/[\\.]/g, '\\$&');

/** Finds the value node at a path in a tree (undefined when absent); one walk per tree builds an index by keyOf(path). */
function nodeAt(root: Node, path: readonly (string | number)[]): Node | undefined {
  return nodeAtKey(root, keyOf(path));
}

function nodeAtKey(root: Node, key: string): Node | undefined {
  let index = indexes.get(root);
  if (!index) {
    const m = new Map<string, Node>();
    const walk = (n: Node, k: string) => {
      m.set(k, n);
      if (n.type === 'object') for (const prop of n.children ?? []) walk(prop.children![1], k ? `${k}.${esc(prop.children![0].value as string)}` : esc(prop.children![0].value as string));
      else if (n.type === 'array') (n.children ?? []).forEach((c, i) => walk(c, k ? `${k}.${i}` : String(i)));
    };
    walk(root, '');
    indexes.set(root, (index = m));
  }
  return index.get(key);
}

interface JsonTarget extends TargetDoc {
  root: Node;
}

/** The nodes of a plural group's target forms in a tree (undefined where the tree lacks one). */
function formNodes(root: Node, u: JUnit, lang: string): (Node | undefined)[] {
  const parentKey = keyOf(u.path.slice(0, -1));
  return targetForms(u.group!, lang).map((f) => nodeAtKey(root, parentKey ? `${parentKey}.${esc(f.key)}` : esc(f.key)));
}

/**
 * The forms of a plural group an incomplete target already has (pl with only _one and _other,
 * written by hand): kept when the group is translated, only the missing forms are filled in.
 */
function keptForms(u: JUnit, lang: string, old: JsonTarget | undefined): (Node | undefined)[] {
  const nodes = old ? formNodes(old.root, u, lang).map((n) => (n?.type === 'string' ? n : undefined)) : [];
  return nodes.every((n) => n) ? [] : nodes;
}

export const json: FileFormat = {
  name: 'json',
  parseSource(text, file, opts): JsonSource {
    const root = parse(text, file);
    const language = fileLanguage(file, /\.json$/i);
    const jUnits = unitsOf(text, root, opts?.i18next ?? (looksV3(root) ? 'v3' : 'v4'), opts?.from ?? language);
    return { format: 'json', file, text, units: jUnits, jUnits, root, language };
  },

  parseTarget(text, file, source, lang): JsonTarget {
    const root = parse(text, file);
    const values = new Map<string, string>();
    const lines = new Map<string, number>();
    for (const u of (source as JsonSource).jUnits) {
      if (u.group) {
        const parent = nodeAt(root, u.path.slice(0, -1));
        if (!parent || parent.type !== 'object') continue;
        const forms = formNodes(root, u, lang);
        if (forms.every((n) => n?.type === 'string')) {
          values.set(u.key, joinParts(forms.map((n) => n!.value as string)));
          lines.set(u.key, lineAt(text, forms[0]!.offset));
        }
      } else {
        const n = nodeAtKey(root, u.key);
        if (n?.type === 'string') {
          values.set(u.key, n.value as string);
          lines.set(u.key, lineAt(text, n.offset));
        }
      }
    }
    return { text, values, root, lines };
  },

  render(source, lang, values, target): string {
    const src = source as JsonSource;
    const text = src.text;
    const old = target as JsonTarget | undefined;
    const edits: [number, number, string][] = [];
    const removed = new Set<Node>();
    const oldRaw = (key: string) => {
      const n = nodeAtKey(old!.root, key)!;
      return old!.text.slice(n.offset, n.offset + n.length);
    };
    for (const u of src.jUnits) {
      const v: UnitValue | undefined = values.get(u.key);
      if (u.group) {
        const g = u.group;
        const forms = targetForms(g, lang);
        const first = g.members[0];
        const last = g.members[g.members.length - 1];
        if (!v) {
          for (const m of g.members) removed.add(m);
          continue;
        }
        const sep = g.members.length > 1 ? text.slice(first.offset + first.length, g.members[1].offset) : `,${/\n([ \t]*)$/.exec(text.slice(0, first.offset))?.[0] ?? ' '}`;
        const keyNode = first.children![0];
        const colon = text.slice(keyNode.offset + keyNode.length, first.children![1].offset);
        const parentPath = u.path.slice(0, -1);
        const kept = v.kind === 'new' ? keptForms(u, lang, old) : [];
        const body = forms
          .map((f, i) => {
            const k = kept[i];
            const value = v.kind === 'keep' ? oldRaw(keyOf([...parentPath, f.key])) : k ? old!.text.slice(k.offset, k.offset + k.length) : JSON.stringify(piecesText(v.parts[f.from]));
            return `${JSON.stringify(f.key)}${colon}${value}`;
          })
          .join(sep);
        edits.push([first.offset, last.offset + last.length, body]);
        continue;
      }
      const n = u.node!;
      if (!v) {
        // untranslated: the key is left out (the app falls back to its source language); an array keeps its length
        if (u.prop) removed.add(u.prop);
        continue;
      }
      const value = v.kind === 'keep' ? oldRaw(u.key) : JSON.stringify(piecesText(v.parts[0]));
      edits.push([n.offset, n.offset + n.length, value]);
    }
    if (removed.size) removeProps(src.root, removed, edits);
    return applyEdits(text, edits);
  },

  written(_source, unit, value, lang, target) {
    const u = unit as JUnit;
    if (!u.group) return piecesText(value.parts[0]);
    const kept = keptForms(u, lang, target as JsonTarget | undefined);
    return joinParts(targetForms(u.group, lang).map((f, i) => (kept[i] ? (kept[i].value as string) : piecesText(value.parts[f.from]))));
  },

  translations(unit, value, lang) {
    const u = unit as JUnit;
    return formPairs(u.parts, value.split('\u0000').map((v) => [{ kind: 'text', value: v }]), u.group ? targetForms(u.group, lang) : undefined);
  },

  targetName(name, lang, sourceLanguage) {
    return jsonTargetPath(name, lang, sourceLanguage);
  },
};

/**
 * en.json -> de.json; app.en.json -> app.de.json; locales/en/common.json -> locales/de/common.json;
 * anything else: name.de.json beside it.
 */
export function jsonTargetPath(path: string, lang: string, sourceLanguage?: string): string {
  return localeTargetPath(path, lang, sourceLanguage, /\.(json)$/i, 'json');
}

/**
 * Removes properties from their objects with the commas that separated them: a property followed
 * by a kept one goes with the text up to that one; a trailing run goes with the text after the
 * last kept one; an object left empty becomes `{}`.
 */
function removeProps(root: Node, removed: Set<Node>, edits: [number, number, string][]): void {
  const visit = (node: Node) => {
    if (node.type === 'object' || node.type === 'array') {
      const kids = node.children ?? [];
      if (node.type === 'object' && kids.some((k) => removed.has(k))) {
        let lastKept = -1;
        kids.forEach((k, i) => {
          if (!removed.has(k)) lastKept = i;
        });
        if (lastKept < 0) edits.push([node.offset + 1, node.offset + node.length - 1, '']);
        else {
          for (let i = 0; i < lastKept; i++) if (removed.has(kids[i])) edits.push([kids[i].offset, kids[i + 1].offset, '']);
          if (lastKept < kids.length - 1) {
            const k = kids[lastKept];
            const end = kids[kids.length - 1];
            edits.push([k.offset + k.length, end.offset + end.length, '']);
          }
        }
      }
      for (const k of kids) {
        if (removed.has(k)) continue;
        if (k.type === 'property') visit(k.children![1]);
        else visit(k);
      }
    }
  };
  visit(root);
}
