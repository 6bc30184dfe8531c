// Flutter ARB files (app_en.arb): a JSON object of ICU messages, each with its `@key` metadata
// (description, placeholders with their types), `@@locale` naming the language. Read with
// jsonc-parser (offsets of every node) so that a target is the source with only the messages
// replaced: metadata, `@@x-...` entries, key order and indentation stay byte for byte; `@@locale`
// is set to the target's (added first when the source has none). A message left untranslated is
// left out (gen-l10n takes the template's).
//
// A message that is one plural (or selectordinal) argument, with text around it or not, gets the
// target language's CLDR categories (Intl.PluralRules): each from the source's case of the same
// category, else `other`; exact cases (`=0`, `=1`) are kept. Its parts are the text before, each
// case's message and the text after; `#` in a case is a placeholder. Other ICU arguments (`{name}`,
// selects, nested plurals) are placeholders and case texts as in every format (tokens.ts).
import type { Node } from 'jsonc-parser';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { UsageError } from '../../../core/errors.js';
import { formsFor } from './plurals.js';
import { piecesText, type Piece } from './protect.js';
import { applyEdits, hash, isLanguage, lineAt, position, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc } from './types.js';

let jsonc: typeof import('jsonc-parser') | undefined;
let icu: typeof import('@formatjs/icu-messageformat-parser') | undefined;

export async function loadArb(): Promise<void> {
  jsonc ??= (await import('jsonc-parser/lib/esm/main.js')) as unknown as typeof import('jsonc-parser');
  icu ??= await import('@formatjs/icu-messageformat-parser');
}

/** A message that is one plural argument: the text around it and its cases, by offset in the message. */
interface Plural {
  head: string;
  ordinal: boolean;
  before: string;
  after: string;
  /** case key -> its message (without braces) */
  cases: [string, string][];
}

interface AUnit extends SourceUnit {
  prop: Node;
  value: Node;
  plural?: Plural;
}

interface ASource extends SourceDoc {
  root: Node;
  aUnits: AUnit[];
  locale?: Node;
}

interface ATarget extends TargetDoc {
  nodes: Map<string, Node>;
}

function parse(text: string, file: string): Node {
  const errors: import('jsonc-parser').ParseError[] = [];
  const root = jsonc!.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length || !root || root.type !== 'object') {
    const at = position(text, errors[0]?.offset ?? 0);
    throw new UsageError(`${file}:${at.line}:${at.column}: malformed ARB: ${errors.length ? jsonc!.printParseErrorCode(errors[0].error) : 'an ARB file is a JSON object'}`);
  }
  return root;
}

/** The plural a message is made of, or undefined (no plural, or several, or one the parser refuses). */
function pluralOf(message: string): Plural | undefined {
  let ast: MessageFormatElement[];
  try {
    ast = icu!.parse(message, { captureLocation: true, ignoreTag: true });
  } catch {
    return undefined;
  }
  const plurals = ast.filter((e) => e.type === icu!.TYPE.plural);
  if (plurals.length !== 1) return undefined;
  const p = plurals[0] as import('@formatjs/icu-messageformat-parser').PluralElement;
  const start = p.location!.start.offset;
  const end = p.location!.end.offset;
  const cases = Object.entries(p.options).map(([k, o]) => [k, message.slice(o.location!.start.offset + 1, o.location!.end.offset - 1)] as [string, string]);
  const firstCase = Object.values(p.options)[0].location!.start.offset;
  const head = message.slice(start, firstCase).replace(/\s*(?:=\d+|[a-z]+)\s*$/, '');
  return { head: head.trimEnd(), ordinal: p.pluralType === 'ordinal', before: message.slice(0, start), after: message.slice(end), cases };
}

/** A case's message as pieces: `#` (outside nested arguments) a placeholder. */
function casePieces(s: string): Piece[] {
  const out: Piece[] = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === '#' && depth === 0) {
      if (i > last) out.push({ kind: 'text', value: s.slice(last, i) });
      out.push({ kind: 'token', value: '#', tag: 'icu' });
      last = i + 1;
    }
  }
  if (last < s.length) out.push({ kind: 'text', value: s.slice(last) });
  return out;
}

/** A translated plural message for a language: exact cases kept, the language's categories added. */
function pluralMessage(pl: Plural, lang: string, parts: Piece[][]): string {
  const text = (i: number) => piecesText(parts[i]);
  const exact = pl.cases.map(([k], i) => [k, i] as const).filter(([k]) => k.startsWith('='));
  const cats = pl.cases.map(([k]) => k).filter((k) => !k.startsWith('='));
  const forms = formsFor(lang, cats, pl.ordinal).map((f) => [f.cat, pl.cases.findIndex(([k]) => k === cats[f.from])] as const);
  const body = [...exact, ...forms].map(([k, i]) => `${k}{${text(i + 1)}}`).join(' ');
  return `${text(0)}${pl.head} ${body}}${text(pl.cases.length + 1)}`;
}

function message(u: AUnit, lang: string, parts: Piece[][]): string {
  return u.plural ? pluralMessage(u.plural, lang, parts) : piecesText(parts[0]);
}

/** Flutter's name of a locale: pt-BR -> pt_BR (gen-l10n reads both; its file names use underscores). */
const flutterLocale = (lang: string) => lang.replaceAll('-', '_');

/** The edits that remove properties from the root object with the commas that separated them. */
function removeProps(root: Node, removed: Set<Node>, edits: [number, number, string][]): void {
  const kids = root.children ?? [];
  const kept = kids.filter((k) => !removed.has(k));
  if (!kept.length) return void edits.push([root.offset + 1, root.offset + root.length - 1, '']);
  const lastKept = kids.indexOf(kept[kept.length - 1]);
  kids.forEach((k, i) => {
    if (!removed.has(k)) return;
    if (i < lastKept) edits.push([k.offset, kids[i + 1].offset, '']);
    else if (i === lastKept + 1) edits.push([kids[lastKept].offset + kids[lastKept].length, kids[kids.length - 1].offset + kids[kids.length - 1].length, '']);
  });
}

export const arb: FileFormat = {
  name: 'arb',
  parseSource(text, file): ASource {
    const root = parse(text, file);
    const aUnits: AUnit[] = [];
    let locale: Node | undefined;
    for (const prop of root.children ?? []) {
      const [k, v] = prop.children!;
      const key = k.value as string;
      if (key === '@@locale') locale = v;
      if (key.startsWith('@') || v.type !== 'string') continue;
      const msg = v.value as string;
      const plural = pluralOf(msg);
      const parts: Piece[][] = plural ? [[{ kind: 'text', value: plural.before }], ...plural.cases.map(([, c]) => casePieces(c)), [{ kind: 'text', value: plural.after }]] : [[{ kind: 'text', value: msg }]];
      aUnits.push({ key, parts: parts.map((p) => p.filter((x) => x.value !== '')), hash: hash(msg), line: lineAt(text, prop.offset), prop, value: v, ...(plural ? { plural } : {}) });
    }
    const named = locale?.value ?? /(?:^|[_/\\-])([a-z]{2,3}(?:_[A-Z][a-z]{3})?(?:_[A-Z]{2}|_\d{3})?)\.arb$/.exec(file)?.[1];
    const language = typeof named === 'string' && isLanguage(named) ? named.replaceAll('_', '-') : undefined;
    return { format: 'arb', file, text, units: aUnits, aUnits, root, ...(locale ? { locale } : {}), ...(language ? { language } : {}) };
  },

  parseTarget(text, file): ATarget {
    const root = parse(text, file);
    const nodes = new Map<string, Node>();
    for (const prop of root.children ?? []) nodes.set(prop.children![0].value as string, prop.children![1]);
    const values = new Map<string, string>();
    for (const [k, v] of nodes) if (!k.startsWith('@') && v.type === 'string') values.set(k, v.value as string);
    return { text, values, nodes, lines: new Map([...nodes].map(([k, n]) => [k, lineAt(text, n.offset)])) };
  },

  render(source, lang, values, target): string {
    const src = source as ASource;
    const old = target as ATarget | undefined;
    const edits: [number, number, string][] = [];
    const removed = new Set<Node>();
    for (const u of src.aUnits) {
      const v = values.get(u.key);
      if (!v) removed.add(u.prop);
      else if (v.kind === 'keep') {
        const n = old!.nodes.get(u.key)!;
        edits.push([u.value.offset, u.value.offset + u.value.length, old!.text.slice(n.offset, n.offset + n.length)]);
      } else edits.push([u.value.offset, u.value.offset + u.value.length, JSON.stringify(message(u, lang, v.parts))]);
    }
    const loc = JSON.stringify(flutterLocale(lang));
    if (src.locale) edits.push([src.locale.offset, src.locale.offset + src.locale.length, loc]);
    else {
      const first = src.root.children?.[0];
      const indent = first ? src.text.slice(src.text.lastIndexOf('\n', first.offset) + 1, first.offset) : '';
      if (first) edits.push([first.offset, first.offset, `"@@locale": ${loc},\n${indent}`]);
      else edits.push([src.root.offset + 1, src.root.offset + 1, `"@@locale": ${loc}`]);
    }
    removeProps(src.root, removed, edits);
    return applyEdits(src.text, edits);
  },

  written: (_source, unit, value, lang) => message(unit as AUnit, lang, value.parts),
  // the whole message beside the whole source message (its plural's cases are the target language's)
  translations: (unit, value) => [{ source: [{ kind: 'text', value: (unit as AUnit).value.value as string }], translation: [{ kind: 'text', value }] }],

  targetName(name, lang, sourceLanguage) {
    return arbTargetPath(name, lang, sourceLanguage);
  },
};

/** app_en.arb -> app_de.arb (pt-BR: app_pt_BR.arb); a name without a locale gets one: strings.arb -> strings_de.arb. */
export function arbTargetPath(path: string, lang: string, sourceLanguage?: string): string {
  const m = /^(.*?)([_-]?)([a-z]{2,3}(?:_[A-Z][a-z]{3})?(?:_[A-Z]{2}|_\d{3})?)\.arb$/.exec(path);
  const norm = (l: string) => l.replaceAll('-', '_').toLowerCase();
  if (m && (sourceLanguage ? norm(m[3]) === norm(sourceLanguage) : isLanguage(m[3])) && (m[2] || /(?:^|\/)$/.test(m[1]))) return `${m[1]}${m[2]}${flutterLocale(lang)}.arb`;
  return `${path.replace(/\.arb$/i, '')}_${flutterLocale(lang)}.arb`;
}
