// A unit's text as pieces: `text` (translatable), `token` (a placeholder: printf, .NET/AL, i18next,
// ICU syntax, HTML tags and entities, --protect matches) and `raw` (a format's own inline markup,
// e.g. an XLIFF <ph/> element, written back verbatim). Tokens are found in one pass, each grammar
// anchored where it may start, with no backtracking over unbounded input: a 10 MB text costs linear
// time.
//
// A unit's text may cross its raw pieces (an ICU plural whose cases hold XLIFF <pc>/<ph> elements):
// the text is tokenized as one string, each raw piece standing in it as one private-use character,
// so the ICU parser sees the whole message, and the raw pieces are put back in place afterwards.
import { icuArgumentAt, icuBudget, type IcuBudget, type LoosePlurals } from './icu.js';
import { directiveAt, type Flavour } from './printf.js';
import type { Piece } from './piece.js';

export type { Piece } from './piece.js';

/** What the placeholders of a unit follow beyond the common ones (a PO entry's format flag, YAML's strftime). */
export interface Syntax {
  printf?: Flavour;
}

export interface ProtectOptions {
  /** extra token patterns (--protect) */
  custom?: readonly RegExp[];
  syntax?: Syntax;
  /** receives the skeleton of every ICU argument found (the check compares them) */
  skeletons?: string[];
  /** ICU plurals are read as a translation into another language may write them (vx translate check) */
  loosePlurals?: LoosePlurals;
}

const ENTITY = /&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);/y;
const PRINTF = /%(?:%|\d+\$[-+ #0']*(?:[1-9]\d*|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspn@]|[-+#0']*(?:[1-9]\d*|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcsp@]|\{[A-Za-z_][\w.]*\}|\([A-Za-z_]\w*\)[-+#0]*(?:[1-9]\d*)?(?:\.\d+)?[diouxXeEfFgGcrsa]|\d+)/y;
const I18NEXT = /\{\{[^{}]+\}\}/y;
const DOTNET = /\{\d+(?:\s*,\s*-?\d+)?(?::[^{}]*)?\}/y;
/** attribute lists of Markdown extensions (Pandoc, Markdown Extra, kramdown, MkDocs, Hugo): `## Title {#title}`, `{: .note}` */
const ATTRIBUTES = /\{:?[ \t]*[#.][A-Za-z_][\w.:-]*(?:[ \t][^{}\n]*)?\}/y;
const TAG = /<(\/?)([A-Za-z][\w:.-]*)(?:[\s/][^<>]*)?>/y;
/** react-i18next's Trans components: <0>, </1>, <2/> */
const NUMBERED_TAG = /<\/?\d+\/?>/y;
/** an i18next nesting call longer than this is not one (its options are a short JSON object): bounded work per `$t(` */
const NESTING_MAX = 256;

/** HTML's elements: a tag of one of these names is markup wherever it stands. */
const HTML_ELEMENTS = new Set(
  'a abbr acronym address area article aside audio b base bdi bdo big blockquote body br button canvas caption center cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map mark menu meta meter nav noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp script search section select slot small source span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr'.split(
    ' ',
  ),
);

interface Scan {
  s: string;
  opts: ProtectOptions;
  budget: IcuBudget;
  /** names of unknown elements that the text both opens and closes (then they are markup: <bold>x</bold>) */
  paired: Set<string>;
  /** where the next `-->` is (-1: none after the last one looked for) */
  commentEnd?: number;
}

function sticky(re: RegExp, s: string, i: number): number | undefined {
  re.lastIndex = i;
  const m = re.exec(s);
  return m ? i + m[0].length : undefined;
}

/** Names of elements the text has both an opening and a closing tag of. */
function pairedNames(s: string): Set<string> {
  const open = new Set<string>();
  const close = new Set<string>();
  const re = /<(\/?)([A-Za-z][\w:.-]*)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) (m[1] ? close : open).add(m[2].toLowerCase());
  return new Set([...open].filter((n) => close.has(n)));
}

/**
 * A tag at `i`: an HTML element's, a self-closing one, or one of an element the text opens and
 * closes; else (`<no title>`, `<username>`) it is text that only looks like markup.
 */
function tagAt(sc: Scan, i: number): { end: number; tag: Piece['tag'] } | undefined {
  const { s } = sc;
  if (s.startsWith('<!--', i)) {
    if (sc.commentEnd === undefined || (sc.commentEnd >= 0 && sc.commentEnd < i + 4)) sc.commentEnd = s.indexOf('-->', i + 4);
    return sc.commentEnd >= 0 ? { end: sc.commentEnd + 3, tag: 'html' } : undefined;
  }
  const n = sticky(NUMBERED_TAG, s, i);
  if (n !== undefined) return { end: n, tag: 'other' };
  TAG.lastIndex = i;
  const m = TAG.exec(s);
  if (!m) return undefined;
  const name = m[2].toLowerCase();
  const markup = HTML_ELEMENTS.has(name) || m[0].endsWith('/>') || sc.paired.has(name);
  return markup ? { end: i + m[0].length, tag: 'html' } : undefined;
}

/** `$t(key)` / `$t(key, {"count": 1})`: the call with balanced parentheses, or undefined. */
function nesting(s: string, i: number): number | undefined {
  if (!s.startsWith('$t(', i)) return undefined;
  let depth = 0;
  const end = Math.min(s.length, i + NESTING_MAX);
  for (let j = i + 2; j < end; j++) {
    if (s[j] === '(') depth++;
    else if (s[j] === ')' && --depth === 0) return j + 1;
  }
  return undefined;
}

/** A token starting at `i` (not ICU): its end and kind. */
function tokenAt(sc: Scan, i: number): { end: number; tag: Piece['tag']; fmt?: Flavour } | undefined {
  const { s, opts } = sc;
  const c = s[i];
  for (const re of opts.custom ?? []) {
    const e = sticky(re, s, i);
    if (e !== undefined && e > i) return { end: e, tag: 'other' };
  }
  const flavour = opts.syntax?.printf;
  if (flavour) {
    const e = directiveAt(flavour, s, i);
    if (e !== undefined) return { end: e, tag: 'printf', fmt: flavour };
  }
  let end: number | undefined;
  if (c === '%') end = sticky(PRINTF, s, i);
  else if (c === '{') end = sticky(I18NEXT, s, i) ?? sticky(DOTNET, s, i) ?? sticky(ATTRIBUTES, s, i);
  else if (c === '$') end = nesting(s, i);
  else if (c === '<') return tagAt(sc, i);
  else if (c === '&') end = sticky(ENTITY, s, i);
  return end === undefined ? undefined : { end, tag: 'other' };
}

function splitInto(sc: Scan, out: Piece[]): void {
  const { s } = sc;
  let textStart = 0;
  const flush = (i: number) => {
    if (i > textStart) out.push({ kind: 'text', value: s.slice(textStart, i) });
  };
  const plain = !sc.opts.custom?.length;
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (plain && c !== '%' && c !== '{' && c !== '}' && c !== '$' && c !== '<' && c !== '&') {
      i++;
      continue;
    }
    const t = tokenAt(sc, i);
    if (t) {
      flush(i);
      out.push({ kind: 'token', value: s.slice(i, t.end), tag: t.tag, ...(t.fmt ? { fmt: t.fmt } : {}) });
      i = textStart = t.end;
      continue;
    }
    if (c === '{' && s[i + 1] !== '{') {
      const a = icuArgumentAt(s, i, sc.budget, (sub, into) => splitInto({ ...sc, s: sub, opts: { ...sc.opts, skeletons: undefined }, commentEnd: undefined }, into), sc.opts.loosePlurals);
      if (a) {
        flush(i);
        out.push(...a.pieces);
        sc.opts.skeletons?.push(a.skeleton);
        i = textStart = a.end;
        continue;
      }
    }
    i++;
  }
  flush(s.length);
}

/** Private-use characters standing for a unit's raw pieces while its text is tokenized as one string. */
const SENTINEL = 0xe000;
const SENTINELS = 0x1900;
const HAS_SENTINEL = /[\ue000-\uf8ff]/;

function split(s: string, opts: ProtectOptions): Piece[] {
  const out: Piece[] = [];
  splitInto({ s, opts, budget: icuBudget(s), paired: pairedNames(s) }, out);
  return out;
}

/**
 * Splits text pieces into text and placeholder tokens (token and raw pieces are kept). Adjacent
 * text pieces are merged.
 */
export function tokenize(pieces: readonly Piece[] | string, opts: ProtectOptions = {}): Piece[] {
  const input = typeof pieces === 'string' ? [{ kind: 'text' as const, value: pieces }] : pieces;
  const others = input.filter((p) => p.kind !== 'text');
  if (!others.length) return mergeText(split(input.map((p) => p.value).join(''), opts));
  if (others.length > SENTINELS || input.some((p) => p.kind === 'text' && HAS_SENTINEL.test(p.value))) {
    // (a text with private-use characters of its own: each text piece on its own)
    return mergeText(input.flatMap((p) => (p.kind === 'text' ? split(p.value, opts) : [{ ...p }])));
  }
  let k = 0;
  const joined = input.map((p) => (p.kind === 'text' ? p.value : String.fromCharCode(SENTINEL + k++))).join('');
  const out: Piece[] = [];
  for (const p of split(joined, opts)) {
    if (!HAS_SENTINEL.test(p.value)) out.push(p);
    else for (const part of p.value.split(/([\ue000-\uf8ff])/)) {
      if (part.length === 1 && HAS_SENTINEL.test(part)) out.push({ ...others[part.charCodeAt(0) - SENTINEL] });
      else if (part) out.push({ kind: 'text', value: part });
    }
  }
  return mergeText(out);
}

export function mergeText(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if (p.kind === 'text' && last?.kind === 'text') last.value += p.value;
    else out.push({ ...p });
  }
  return out;
}

/** The pieces' text with each raw piece as one private-use character (for reading a message across them). */
export function joinWithSentinels(pieces: readonly Piece[]): string | undefined {
  let k = 0;
  const raw = pieces.filter((p) => p.kind === 'raw').length;
  if (raw > SENTINELS || pieces.some((p) => p.kind !== 'raw' && HAS_SENTINEL.test(p.value))) return undefined;
  return pieces.map((p) => (p.kind === 'raw' ? String.fromCharCode(SENTINEL + k++) : p.value)).join('');
}

/** Whether there is anything to translate (a letter outside the placeholders). */
export function translatable(pieces: readonly Piece[]): boolean {
  return pieces.some((p) => p.kind === 'text' && /\p{L}/u.test(p.value));
}

/** The logical text of pieces (raw pieces as they are). */
export function piecesText(pieces: readonly Piece[]): string {
  return pieces.map((p) => p.value).join('');
}
