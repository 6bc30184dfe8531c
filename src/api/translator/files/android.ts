// Android string resources (res/values/strings.xml and the other XML files of a values directory).
// Read with saxes through xml-tree.ts; a target is the source with only the translated content
// replaced, written by hand at the parser's offsets because no Android resource library for Node
// keeps the rest of a file byte for byte (comments, attributes, `\'` escapes, CDATA, indentation).
//
// Units: <string> (one text), <string-array> (one text per <item>, the array translated or left out
// whole: its length is the app's), <plurals> (one text per quantity; a target gets the quantities
// of its language, from CLDR through Intl.PluralRules). Not text: translatable="false", references
// (`@string/x`, `?attr/y`), every other resource type: a target holds its translations only (the
// app falls back to values/ for the rest, and lint wants untranslatable strings kept out of
// values-xx). Inside a text, child elements (<b>, <xliff:g id="n">%1$s</xliff:g>, <annotation>)
// and Android escapes that are not characters (`\n`, `\t`, an unescaped quote) are kept verbatim;
// a text that is one CDATA section is HTML for Html.fromHtml, its tags sent as markup.
import type { Piece } from './protect.js';
import { applyEdits, hash, joinParts, lineAt, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc, type UnitValue } from './types.js';
import { indentOf, inner, lineStart, loadXmlTree, removalRange, xmlDecode, xmlEscape, xmlTree, type XmlNode } from './xml-tree.js';
import { formPairs, formsFor } from './plurals.js';
import { UsageError } from '../../../core/errors.js';
import { characterProblem } from './checks.js';
import { withSyntax } from './app-syntax.js';

export const loadAndroid = loadXmlTree;

type Kind = 'string' | 'plurals' | 'string-array';

interface AUnit extends SourceUnit {
  kind: Kind;
  node: XmlNode;
  /** the elements holding each part (the <string> itself, or its <item>s) */
  holders: XmlNode[];
  /** plurals: the quantity of each part */
  cats: string[];
  /** whether each part is one CDATA section */
  cdata: boolean[];
}

interface ASource extends SourceDoc {
  root: XmlNode;
  aUnits: AUnit[];
}

interface ATarget extends TargetDoc {
  root: XmlNode;
  byKey: Map<string, XmlNode>;
}

const REFERENCE = /^\s*[@?][\w.:+-]*\/[\w.]+\s*$|^\s*@null\s*$/;

/** Where a resource file sits: a values directory (res/values/strings.xml, res/values-fr/arrays.xml). */
export function isAndroidResource(path: string): boolean {
  return /(?:^|[\\/])values(?:-[^\\/]+)?[\\/][^\\/]+\.xml$/i.test(path);
}

function localName(n: string): string {
  return n.slice(n.indexOf(':') + 1);
}

/**
 * Android escapes in character data (as aapt2 reads them): `\uXXXX` and escaped characters are
 * characters (an unknown escape is its character); `\n`, `\t` and an unescaped quote (which keeps
 * white space and is not shown) are kept verbatim.
 */
function unescapeText(s: string, out: Piece[]): void {
  let text = '';
  const raw = (value: string) => {
    if (text) out.push({ kind: 'text', value: text });
    text = '';
    out.push({ kind: 'raw', value });
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') raw(c);
    else if (c !== '\\' || i === s.length - 1) text += c;
    else {
      const n = s[++i];
      const u = n === 'u' ? /^[0-9A-Fa-f]{4}/.exec(s.slice(i + 1, i + 5)) : null;
      if (u) {
        text += String.fromCharCode(parseInt(u[0], 16));
        i += 4;
      } else if (n === 'n' || n === 't') raw(`\\${n}`);
      else text += n;
    }
  }
  if (text) out.push({ kind: 'text', value: text });
}

const TAG = /<\/?[A-Za-z][\w:.-]*(?:\s[^<>]*?)?\/?>/g;
const ESCAPED_TAG = /&lt;\/?[A-Za-z][\w:.-]*(?:\s[^<>]*?)?\/?(?:&gt;|>)/g;

/** Text with tags: each tag one piece (made by `tag`), the text between unescaped. */
function splitTags(s: string, re: RegExp, tag: (value: string) => Piece, decode: (s: string) => string, out: Piece[]): void {
  let last = 0;
  re.lastIndex = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    unescapeText(decode(s.slice(last, m.index)), out);
    out.push(tag(m[0]));
    last = m.index + m[0].length;
  }
  unescapeText(decode(s.slice(last)), out);
}

/**
 * The pieces of an element's content: child elements (an xliff:g span with its content), comments,
 * CDATA sections and escaped markup (`&lt;b>`) kept verbatim as raw pieces. Content that is one
 * CDATA section is HTML: its tags are markup tokens, written back as they are.
 */
function contentPieces(raw: string): { pieces: Piece[]; cdata: boolean } {
  const only = /^(\s*)<!\[CDATA\[([\s\S]*?)\]\]>(\s*)$/.exec(raw);
  const pieces: Piece[] = [];
  if (only && !only[2].includes(']]>')) {
    if (only[1]) pieces.push({ kind: 'raw', value: only[1] });
    splitTags(only[2], TAG, (value) => ({ kind: 'token', value, tag: 'html' }), (x) => x, pieces);
    if (only[3]) pieces.push({ kind: 'raw', value: only[3] });
    return { pieces, cdata: true };
  }
  let i = 0;
  while (i < raw.length) {
    if (raw[i] !== '<') {
      const j = raw.indexOf('<', i);
      const end = j < 0 ? raw.length : j;
      splitTags(raw.slice(i, end), ESCAPED_TAG, (value) => ({ kind: 'raw', value }), xmlDecode, pieces);
      i = end;
      continue;
    }
    let end: number;
    if (raw.startsWith('<![CDATA[', i)) end = raw.indexOf(']]>', i) + 3;
    else if (raw.startsWith('<!--', i)) end = raw.indexOf('-->', i) + 3;
    else {
      end = raw.indexOf('>', i) + 1;
      const name = /^<([\w.:-]+)/.exec(raw.slice(i))?.[1];
      // an xliff:g span is not to be translated: its content goes with it
      if (name && localName(name) === 'g' && !raw.slice(i, end).endsWith('/>')) {
        const close = raw.indexOf(`</${name}>`, end);
        if (close >= 0) end = close + name.length + 3;
      }
    }
    pieces.push({ kind: 'raw', value: raw.slice(i, end) });
    i = end;
  }
  return { pieces, cdata: false };
}

/** A translation written as the element's content: escaped for XML (or in its CDATA section, its tags as they were) and for Android. */
function encode(pieces: readonly Piece[], cdata: boolean): string {
  let out = '';
  pieces.forEach((p, i) => {
    if (p.kind === 'raw' || (cdata && p.tag === 'html')) {
      out += p.value;
      return;
    }
    let s = p.value.replace(/[\\'"]/g, '\\$&');
    if (i === 0 && /^[@?]/.test(s)) s = `\\${s}`;
    out += cdata ? s.replaceAll(']]>', ']]]]><![CDATA[>') : xmlEscape(s);
  });
  return cdata ? out.replace(/^(\s*)([\s\S]*?)(\s*)$/, '$1<![CDATA[$2]]>$3') : out;
}

function keyOf(node: XmlNode, kind: Kind, taken: Set<string>): string {
  const base = node.attrs.product ? `${node.attrs.name}[${node.attrs.product}]` : node.attrs.name;
  return taken.has(base) ? `${base}#${kind}` : base;
}

function unitsOf(text: string, file: string, root: XmlNode): AUnit[] {
  if (root.name !== 'resources') throw new UsageError(`${file}:${lineAt(text, root.start)}: not an Android resource file (the root element is <${root.name}>, not <resources>)`);
  const units: AUnit[] = [];
  const keys = new Set<string>();
  const defined = new Set<string>();
  for (const node of root.children) {
    const kind = node.name as Kind;
    if ((kind !== 'string' && kind !== 'plurals' && kind !== 'string-array') || node.attrs.translatable === 'false' || node.attrs.name === undefined) continue;
    const holders = kind === 'string' ? [node] : node.children.filter((c) => c.name === 'item');
    if (kind === 'string' && REFERENCE.test(inner(text, node))) continue;
    if (kind === 'plurals' && !holders.length) continue;
    const read = holders.map((h) => (REFERENCE.test(inner(text, h)) ? { pieces: [{ kind: 'raw' as const, value: inner(text, h) }], cdata: false } : contentPieces(inner(text, h))));
    const cats = kind === 'plurals' ? holders.map((h) => h.attrs.quantity ?? '') : [];
    const id = `${kind}:${node.attrs.name}:${node.attrs.product ?? ''}`;
    if (defined.has(id)) throw new UsageError(`${file}:${lineAt(text, node.start)}: the ${kind} resource "${node.attrs.name}" is defined twice`);
    defined.add(id);
    const key = keyOf(node, kind, keys);
    keys.add(key);
    const raw = joinParts(holders.map((h, i) => `${cats[i] ?? ''}=${inner(text, h)}`));
    units.push({ key, kind, node, holders, cats, parts: read.map((r) => withSyntax(r.pieces, 'c')), cdata: read.map((r) => r.cdata), hash: hash(raw), line: lineAt(text, node.start) });
  }
  return units;
}

/** The items of a <plurals> by quantity. */
function quantities(node: XmlNode): Map<string, XmlNode> {
  return new Map(node.children.filter((c) => c.name === 'item' && c.attrs.quantity).map((c) => [c.attrs.quantity, c]));
}

/** A plural unit's forms for a language: what each is translated from, and the form a target already has. */
function pluralForms(u: AUnit, lang: string, old: ATarget | undefined): { cat: string; from: number; kept?: XmlNode }[] {
  const have = old?.byKey.get(u.key);
  const items = have?.name === 'plurals' ? quantities(have) : new Map<string, XmlNode>();
  return formsFor(lang, u.cats).map((f) => ({ ...f, kept: items.get(f.cat) }));
}

function pluralValue(u: AUnit, lang: string, old: ATarget | undefined, parts: Piece[][], oldText: string): string[] {
  const forms = pluralForms(u, lang, old);
  // a target with all of its forms is translated again whole; one with some (by hand) keeps them
  const complete = forms.every((f) => f.kept);
  return forms.map((f) => (f.kept && !complete ? inner(oldText, f.kept) : encode(parts[f.from], u.cdata[f.from])));
}

function renderPlurals(text: string, u: AUnit, values: string[], cats: string[]): [number, number, string] {
  const first = u.holders[0];
  const last = u.holders[u.holders.length - 1];
  const indent = indentOf(text, first);
  const from = lineStart(text, first);
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const body = values.map((v, i) => `${i || from !== first.start ? indent : ''}<item quantity="${cats[i]}">${v}</item>`).join(from === first.start ? ' ' : nl);
  return [from, last.end, body];
}

export const android: FileFormat = {
  name: 'android',
  parseSource(text, file): ASource {
    const root = xmlTree(text, file);
    const aUnits = unitsOf(text, file, root);
    const dir = /(?:^|[\\/])values-([a-z]{2,3}(?:-r[A-Z]{2})?)[\\/][^\\/]+$/.exec(file)?.[1];
    const language = root.attrs['tools:locale'] ?? dir?.replace('-r', '-');
    return { format: 'android', file, text, units: aUnits, aUnits, root, ...(language ? { language } : {}) };
  },

  parseTarget(text, file, source, lang): ATarget {
    const root = xmlTree(text, file);
    const byKey = new Map<string, XmlNode>();
    const taken = new Set<string>();
    for (const node of root.children) {
      if (node.attrs.name === undefined) continue;
      const key = keyOf(node, node.name as Kind, taken);
      taken.add(key);
      byKey.set(key, node);
    }
    const values = new Map<string, string>();
    for (const u of (source as ASource).aUnits) {
      const node = byKey.get(u.key);
      if (!node || node.name !== u.kind) continue;
      if (u.kind === 'string') values.set(u.key, inner(text, node));
      else if (u.kind === 'string-array') values.set(u.key, joinParts(node.children.filter((c) => c.name === 'item').map((c) => inner(text, c))));
      else {
        const items = quantities(node);
        const forms = formsFor(lang, u.cats).map((f) => items.get(f.cat));
        if (forms.every((f) => f)) values.set(u.key, joinParts(forms.map((f) => inner(text, f!))));
      }
    }
    return { text, values, root, byKey, lines: new Map([...byKey].map(([k, n]) => [k, lineAt(text, n.start)])) };
  },

  render(source, lang, values, target): string {
    const src = source as ASource;
    const text = src.text;
    const old = target as ATarget | undefined;
    const edits: [number, number, string][] = [];
    const units = new Map(src.aUnits.map((u) => [u.node, u]));
    for (const node of src.root.children) {
      const u = units.get(node);
      const v: UnitValue | undefined = u && values.get(u.key);
      if (!u || !v) {
        // not text, or left untranslated: the app takes it from values/
        const [s, e] = removalRange(text, node);
        edits.push([s, e, '']);
        continue;
      }
      if (v.kind === 'keep') {
        const was = old!.byKey.get(u.key)!;
        edits.push([node.openEnd, node.closeStart, inner(old!.text, was)]);
      } else if (u.kind === 'plurals') {
        edits.push(renderPlurals(text, u, pluralValue(u, lang, old, v.parts, old?.text ?? ''), pluralForms(u, lang, old).map((f) => f.cat)));
      } else u.holders.forEach((h, i) => edits.push([h.openEnd, h.closeStart, encode(v.parts[i], u.cdata[i])]));
    }
    return applyEdits(text, edits);
  },

  written(_source, unit, value, lang, target) {
    const u = unit as AUnit;
    if (u.kind === 'plurals') return joinParts(pluralValue(u, lang, target as ATarget | undefined, value.parts, target?.text ?? ''));
    return joinParts(u.holders.map((_h, i) => encode(value.parts[i], u.cdata[i])));
  },

  check: characterProblem,

  translations(unit, value, lang) {
    const u = unit as AUnit;
    const read = value.split('\u0000').map((v) => (REFERENCE.test(v) ? [{ kind: 'raw' as const, value: v }] : contentPieces(v).pieces));
    return formPairs(u.parts, read, u.kind === 'plurals' ? formsFor(lang, u.cats) : undefined);
  },

  targetName(name, lang) {
    return androidTargetPath(name, lang);
  },
};

/** Android's resource qualifier of a language: de, pt-rBR, b+zh+Hans (BCP 47 with a script), iw/in/ji for he/id/yi. */
export function androidQualifier(lang: string): string {
  const parts = lang.replaceAll('_', '-').split('-');
  const legacy: Record<string, string> = { he: 'iw', id: 'in', yi: 'ji' };
  const primary = legacy[parts[0].toLowerCase()] ?? parts[0].toLowerCase();
  if (parts.length === 1) return primary;
  if (parts.length === 2 && /^[A-Za-z]{2}$/.test(parts[1])) return `${primary}-r${parts[1].toUpperCase()}`;
  return `b+${[parts[0].toLowerCase(), ...parts.slice(1)].join('+')}`;
}

/** res/values/strings.xml -> res/values-de/strings.xml (a values-en source too); elsewhere values-de/ beside the file. */
export function androidTargetPath(path: string, lang: string): string {
  const parts = path.split('/');
  const dir = parts.length > 1 ? parts[parts.length - 2] : undefined;
  if (dir !== undefined && /^values(?:-|$)/.test(dir)) parts[parts.length - 2] = `values-${androidQualifier(lang)}`;
  else parts.splice(parts.length - 1, 0, `values-${androidQualifier(lang)}`);
  return parts.join('/');
}
