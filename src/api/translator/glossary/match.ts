// Finding a glossary's terms in a source text, and what the service is sent and must give back.
//
// A term matches case-sensitively (as the service's dictionary is) and as whole words by Unicode's
// word boundaries (UAX #29, as Intl.Segmenter finds them): the characters either side are no
// letter, mark, digit or connector (`_`), and no apostrophe, period or colon joins them to one
// (`Contoso's`, `contoso.com`, `Contoso:x` are words of their own). Scripts written without spaces
// (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) have no such boundary: a term of them
// matches inside a run of text. Where terms overlap, the longest wins (of two as long, the first).
// Never inside markup (tags, comments, entities, an existing dictionary
// element), code (`code`, `pre`, `kbd`, `samp`, `var`, script and style elements, backquoted
// spans), URLs and e-mail addresses, placeholders ({0}, {{x}}, %s, %1$d, ${x}, $t(x)), or an
// element marked notranslate (vx translate file's protected spans).
import { DICTIONARY_ENTRY, decodeAttribute, dictionaryEntry, escapeHtml } from '../../../model/translator.js';
import type { TermEntry, TermTable } from './terms.js';

/** what a text without terms holds */
const NONE: readonly Hit[] = Object.freeze([]);

/** one occurrence: [start, end) in the text, and its entry */
export interface Hit {
  start: number;
  end: number;
  entry: TermEntry;
}

const PLACEHOLDER = String.raw`\{\{[^{}]*\}\}|\{[^{}\s]*\}|%(?:\d+\$)?[-+ 0#]*\d*(?:\.\d+)?[sdifuxXoeEgGcp@]|%\d+|\$\{[^}]*\}|\$t\([^)]*\)`;
const URL = String.raw`\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s<>"'\u0060]*|\bwww\.[^\s<>"'\u0060]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+`;
const MARKUP = String.raw`<mstrans:dictionary\b[\s\S]*?<\/mstrans:dictionary>|<!--[\s\S]*?-->|<\/?[A-Za-z](?:[^<>"']|"[^"]*"|'[^']*')*>|&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);`;
const CODE_SPAN = '`[^`\\n]*`';
const CODE_ELEMENT = String.raw`<(code|pre|kbd|samp|var|script|style)\b[^>]*>[\s\S]*?<\/\1\s*>`;
const NOTRANSLATE = String.raw`<([A-Za-z][\w:-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*?\s(?:class\s*=\s*(?:"[^"]*\bnotranslate\b[^"]*"|'[^']*\bnotranslate\b[^']*'|notranslate\b)|translate\s*=\s*["']?no\b)[^>]*>[\s\S]*?<\/\2\s*>`;
/** what no term may be matched inside, in plain text and in HTML (elements first: they hold tags) */
const PROTECTED_PLAIN = new RegExp(`${MARKUP}|${URL}|${CODE_SPAN}|${PLACEHOLDER}`, 'g');
const PROTECTED_HTML = new RegExp(`${CODE_ELEMENT}|${NOTRANSLATE}|${MARKUP}|${URL}|${CODE_SPAN}|${PLACEHOLDER}`, 'g');
/** a cheap test: a text without any of these has nothing protected */
const MAY_PROTECT = /[<&`{%$@]|:\/\/|www\./;

const WORD_CHAR = /[\p{L}\p{M}\p{N}\p{Pc}]/u;
const NO_SPACE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;

/** the code point at `i` as a string (a surrogate pair whole) */
function charAt(s: string, i: number): string {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? s.slice(i, i + 2) : s[i];
}
/** the code point that ends just before `i` */
function charBefore(s: string, i: number): string {
  const c = s.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? s.slice(i - 2, i) : s[i - 1];
}

function isWord(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  return WORD_CHAR.test(ch);
}
/** whether a UTF-16 unit is a word character of a script written with spaces (no word boundary after it before another): ASCII at once */
function isWordUnit(c: number): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  // (a low surrogate: its pair is read where a boundary is checked; it may be a letter)
  if (c >= 0xdc00 && c <= 0xdfff) return false;
  const ch = String.fromCharCode(c);
  return WORD_CHAR.test(ch) && !noSpace(ch);
}
const noSpace = (ch: string | undefined) => ch !== undefined && ch.charCodeAt(0) >= 0x0e00 && NO_SPACE.test(ch);
/** apostrophes, periods and colons join the letters either side into one word (UAX #29 MidLetter, MidNumLet) */
const isMid = (ch: string | undefined) => ch === "'" || ch === '\u2019' || ch === '.' || ch === ':' || ch === '\u00b7';

/** whether a word boundary is at `i` (between the characters before and after it) */
function boundaryAt(s: string, i: number): boolean {
  if (i <= 0 || i >= s.length) return true;
  const before = charBefore(s, i);
  const after = charAt(s, i);
  if (noSpace(before) || noSpace(after)) return true;
  if (isWord(before) && isWord(after)) return false;
  if (isMid(after) && isWord(before) && isWord(charAt(s, i + 1))) return false;
  if (isMid(before) && isWord(after) && i >= 2 && isWord(charBefore(s, i - 1))) return false;
  return true;
}

interface Indexed {
  entry: TermEntry;
  /** whether its first and last characters need a word boundary beside them */
  startBound: boolean;
  endBound: boolean;
}

/** a trie of the terms by UTF-16 unit: a text is walked from each position only as far as some term goes */
interface Node {
  next: Map<number, Node>;
  /** the only unit that may follow (-1 when none or several): most of a term's length is such a chain, walked without a map lookup */
  one: number;
  oneNext?: Node;
  /**
   * the units that must follow, when nothing ends and nothing branches until after them (''
   * when not so), and the node after them: a term's tail is compared at once, not walked
   */
  tail: string;
  tailEnd?: Node;
  /** the terms that end here */
  terms?: Indexed[];
}

const newNode = (): Node => ({ next: new Map(), one: -1, tail: '' });

/** The node after `node` by the unit `c`. */
function step(node: Node, c: number): Node | undefined {
  return node.one >= 0 ? (node.one === c ? node.oneNext : undefined) : node.next.get(c);
}

/** Marks each node that one unit only may follow (see Node.one). */
function chain(root: Node): void {
  const todo = [root];
  for (let node = todo.pop(); node; node = todo.pop()) {
    if (node.next.size === 1) [[node.one, node.oneNext]] = node.next;
    todo.push(...node.next.values());
  }
  const chains = [root];
  for (let node = chains.pop(); node; node = chains.pop()) {
    let end = node.oneNext;
    let tail = '';
    if (end) {
      tail = String.fromCharCode(node.one);
      while (!end.terms && end.oneNext) {
        tail += String.fromCharCode(end.one);
        end = end.oneNext;
      }
    }
    if (tail.length > 1) {
      node.tail = tail;
      node.tailEnd = end;
    }
    chains.push(...node.next.values());
  }
}

/** Finds a table's terms in texts (see the top of this file). */
export class TermMatcher {
  private readonly root: Node = newNode();
  /**
   * per UTF-16 unit: 1 when a term starts with it, 2 when one of those needs no word boundary
   * before it (CJK, punctuation): most positions of a text are passed over on one look
   */
  private readonly first = new Uint8Array(65536);

  constructor(readonly table: TermTable) {
    for (const entry of table.entries) {
      const t = entry.term;
      if (!t) continue;
      const last = charBefore(t, t.length);
      const item = { entry, startBound: isWord(charAt(t, 0)) && !noSpace(charAt(t, 0)), endBound: isWord(last) && !noSpace(last) };
      const c0 = t.charCodeAt(0);
      this.first[c0] = Math.max(this.first[c0], item.startBound ? 1 : 2);
      let node = this.root;
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        let n = node.next.get(c);
        if (!n) node.next.set(c, (n = newNode()));
        node = n;
      }
      (node.terms ??= []).push(item);
    }
    chain(this.root);
  }

  get size(): number {
    return this.table.entries.length;
  }

  /** The occurrences of terms in `text` (HTML when `html`), in order, never overlapping. */
  find(text: string, html: boolean): readonly Hit[] {
    if (!this.root.next.size || !this.mayHold(text)) return NONE;
    const hits: Hit[] = [];
    let from = 0;
    if (MAY_PROTECT.test(text)) {
      const re = html ? PROTECTED_HTML : PROTECTED_PLAIN;
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0].length === 0) {
          re.lastIndex++;
          continue;
        }
        this.scan(text, from, m.index, hits);
        from = m.index + m[0].length;
      }
    }
    this.scan(text, from, text.length, hits);
    if (!hits.length) return NONE;
    return overlapping(hits) ? longestFirst(hits) : hits;
  }

  /** whether any character of the text starts a term */
  private mayHold(text: string): boolean {
    const first = this.first;
    for (let i = 0; i < text.length; i++) if (first[text.charCodeAt(i)]) return true;
    return false;
  }

  /**
   * every term at each position of text[from, to) (a protected span beside the range is a
   * boundary: `%sCloud` holds the word Cloud)
   */
  private scan(text: string, from: number, to: number, hits: Hit[]): void {
    const root = this.root.next;
    const first = this.first;
    for (let i = from; i < to; i++) {
      const f = first[text.charCodeAt(i)];
      // (inside a word no term that needs a boundary before it starts)
      if (f === 0 || (f === 1 && i > from && isWordUnit(text.charCodeAt(i - 1)) && !noSpace(charAt(text, i)))) continue;
      let node = root.get(text.charCodeAt(i));
      for (let j = i + 1; node; j++) {
        if (node.terms) {
          for (const x of node.terms) {
            if (x.startBound && i !== from && !boundaryAt(text, i)) continue;
            if (x.endBound && j !== to && !boundaryAt(text, j)) continue;
            hits.push({ start: i, end: j, entry: x.entry });
          }
        }
        if (node.tail) {
          // (the loop's j++ then stands after the tail)
          const t = node.tail;
          node = j + t.length <= to && text.startsWith(t, j) ? node.tailEnd : undefined;
          j += t.length - 1;
        } else node = j < to ? step(node, text.charCodeAt(j)) : undefined;
      }
    }
  }
}

function overlapping(hits: readonly Hit[]): boolean {
  for (let i = 1; i < hits.length; i++) if (hits[i].start < hits[i - 1].end) return true;
  return false;
}

/** Of overlapping hits, the longest (of two as long, the first), then the longest of the rest that overlap none taken, ...; in text order. */
function longestFirst(hits: readonly Hit[]): Hit[] {
  const taken: Hit[] = [];
  const byLength = [...hits].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  for (const h of byLength) if (!taken.some((t) => h.start < t.end && t.start < h.end)) taken.push(h);
  return taken.sort((a, b) => a.start - b.start);
}

/** each entry's dictionary element per target, made once (a hit is the term itself: matching is exact) */
const ELEMENTS = new WeakMap<TermEntry, string[]>();

function elementOf(entry: TermEntry, k: number, tr: string): string {
  let els = ELEMENTS.get(entry);
  if (!els) ELEMENTS.set(entry, (els = []));
  return (els[k] ??= dictionaryEntry(entry.term, tr));
}

/** `text` with each hit that has a translation into target `k` wrapped in the dictionary markup; undefined when none has. */
export function markText(text: string, hits: readonly Hit[], k: number): string | undefined {
  let out = '';
  let last = 0;
  for (const h of hits) {
    const tr = h.entry.to[k];
    if (tr === undefined) continue;
    out += text.slice(last, h.start) + elementOf(h.entry, k, tr);
    last = h.end;
  }
  return last === 0 ? undefined : out + text.slice(last);
}

/** What of the glossary applied to a text for target `k` (part of its memory key): its terms and their translations; undefined when none. */
export function appliedTerms(hits: readonly Hit[], k: number): string | undefined {
  const pairs = new Set<string>();
  for (const h of hits) {
    const tr = h.entry.to[k];
    if (tr !== undefined) pairs.add(`${h.entry.term}\u0001${tr}`);
  }
  return pairs.size ? [...pairs].sort().join('\u0002') : undefined;
}

/** A translation with any dictionary element the service left in it replaced by its translation (the markup never reaches the output). */
export function stripMarkup(text: string, html: boolean): string {
  if (!text.includes('<mstrans:dictionary')) return text;
  return text.replace(DICTIONARY_ENTRY, (_, tr: string) => (html || !tr.includes('&') ? tr : decodeAttribute(tr)));
}

/** The terms whose translation into target `k` a translation lacks: "term" should be "translation". */
export function missingTerms(hits: readonly Hit[], k: number, translation: string): string[] {
  const out: string[] = [];
  // (a term found twice is said once; most texts hold one term, and need no set)
  const seen = hits.length > 1 ? new Set<string>() : undefined;
  for (const h of hits) {
    const tr = h.entry.to[k];
    if (tr === undefined || seen?.has(h.entry.term)) continue;
    seen?.add(h.entry.term);
    if (!translation.includes(tr) && !translation.includes(escapeHtml(tr))) out.push(`the term ${JSON.stringify(h.entry.term)} is not translated as ${JSON.stringify(tr)}`);
  }
  return out;
}

/** Forbidden terms of target `k` that a translation uses (as whole words). */
export function forbiddenTerms(table: TermTable, k: number, translation: string): string[] {
  const out: string[] = [];
  for (const f of table.forbidden[k] ?? []) {
    for (let i = translation.indexOf(f); i >= 0; i = translation.indexOf(f, i + 1)) {
      const first = charAt(f, 0);
      const last = charBefore(f, f.length);
      const startOk = !isWord(first) || noSpace(first) || boundaryAt(translation, i);
      const endOk = !isWord(last) || noSpace(last) || boundaryAt(translation, i + f.length);
      if (startOk && endOk) {
        out.push(`the forbidden term ${JSON.stringify(f)}`);
        break;
      }
    }
  }
  return out;
}
