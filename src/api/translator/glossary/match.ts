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
import { countChars, decodeAttribute, DICTIONARY_ENTRY, dictionaryEntry, escapeHtml } from '../../../model/translator.js';
import type { TermEntry, TermTable } from './terms.js';
import { asciiWord, boundaryAt, boundaryFast, charAt, charBefore, isWord, isWordUnit, noSpace, wordEnd } from './words.js';

/** what a text without terms holds */
export const NONE: readonly Hit[] = Object.freeze([]);
/** what a translation that lacks nothing lacks (not frozen: a loop over a frozen array is not made as fast as over others) */
export const NO_PROBLEMS: readonly string[] = [];

/** one occurrence: [start, end) in the text, its entry, and the entry's dictionary element per target (undefined where it has no translation) */
export interface Hit {
  start: number;
  end: number;
  entry: TermEntry;
  marks: readonly (string | undefined)[];
  /** the billed characters its element adds to the text per target (0 where it has none) */
  extras: readonly number[];
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
/** a text without any of these has nothing protected */
const MAY_PROTECT = String.raw`[<&\u0060{%$@]|:\/\/|www\.`;

/** whether what a search for MAY_PROTECT or a unit ended at `e` (the unit before it `c`) is MAY_PROTECT's */
const protectEnds = (text: string, e: number, c: number) =>
  // (< & ` { % $ @)
  c === 60 || c === 38 || c === 96 || c === 123 || c === 37 || c === 36 || c === 64 || (c === 47 && text.startsWith('://', e - 3)) || (c === 46 && text.startsWith('www.', e - 4));

// (the matcher's records are classes: each has a map of its own. An object literal shares its
// map with every literal whose first fields have the same names (`{text, ...}` with the service's
// translations), and a field another one changes makes V8 compile again the code that reads it.)

class Indexed {
  constructor(
    readonly entry: TermEntry,
    /** its dictionary element per target (made once: a hit is the term itself, matching is exact) */
    readonly marks: (string | undefined)[],
    /** whether its first and last characters need a word boundary beside them */
    readonly startBound: boolean,
    readonly endBound: boolean,
    /** the billed characters each element adds to the term */
    readonly extras = marks.map((el) => (el === undefined ? 0 : countChars(el) - countChars(entry.term))),
  ) {}
}

/** a source term (each once, in UTF-16 unit order) and what of the table it stands for */
class Term {
  constructor(
    readonly text: string,
    /** its entries (one, unless the table gives the term twice) */
    readonly items: Indexed[],
    /** the longest other term that begins this one (its index), -1 when none: the terms that begin a text are such a chain */
    readonly parent: number,
  ) {}
}

/** an occurrence found (see Hit) */
class Occurrence implements Hit {
  constructor(
    readonly start: number,
    readonly end: number,
    readonly entry: TermEntry,
    readonly marks: readonly (string | undefined)[],
    readonly extras: readonly number[],
  ) {}
}

/** what a UTF-16 unit may start (bits of TermMatcher.kinds): a term that needs a word boundary before it, one that needs none */
const STARTS_BOUND = 1;
const STARTS_FREE = 2;

/** a character class of UTF-16 units (each as \uXXXX: a lone surrogate is one too) */
const unitClass = (units: readonly number[]) => `[${units.map((c) => `\\u${c.toString(16).padStart(4, '0')}`).join('')}]`;

/** how many units `t` and text[i, to) have in common from their start, comparing from unit `k` */
function common(t: string, text: string, i: number, to: number, k: number): number {
  const n = Math.min(t.length, to - i);
  while (k < n && t.charCodeAt(k) === text.charCodeAt(i + k)) k++;
  return k;
}

/** the range [lo, hi) of the sorted terms that begin with a run of ASCII word units */
interface WordRange {
  lo: number;
  hi: number;
}

/**
 * Finds a table's terms in texts (see the top of this file). Where a term may start (a unit some
 * term starts with), the terms that begin with that unit (a range of the sorted terms) are
 * searched for the last one not after the text there, and the terms that begin it are all that can
 * match. A text is searched for such units, and for anything that may start a protected span, by
 * one regular expression (native code from a run's first texts on, where a loop over each unit
 * would run interpreted for thousands of texts); a text that may hold protected spans is read
 * between them unit by unit.
 */
export class TermMatcher {
  private readonly terms: Term[] = [];
  /** per UTF-16 unit: STARTS_BOUND, STARTS_FREE */
  private readonly kinds = new Uint8Array(65536);
  /** per first UTF-16 unit: the range [lo, hi) of the terms that start with it */
  private readonly firsts = new Map<number, WordRange>();
  /**
   * per run of ASCII letters, digits and `_` that begins a term (up to its first other unit): the
   * range [lo, hi) of the terms that begin with it. A term that begins with such a unit matches only
   * where the text's run is the same (each side of it needs a word boundary), so a text's run finds
   * its few terms by one lookup instead of a search among all that share its first unit.
   */
  private readonly words = new Map<string, WordRange>();
  /** the terms that begin the text at a position (as long as the longest chain of terms that begin one another) */
  private readonly chain: Int32Array;
  /**
   * the occurrences found in the text being read (one list for every text: a text that holds some
   * takes a copy. An array made by a literal for each text would be counted by V8 at its literal,
   * and once enough of them outlive a collection V8 throws away the code that makes them, mid-run,
   * to make them in the old generation from then on)
   */
  private readonly found: Hit[] = [];
  /**
   * what may start a protected span (first: where it does, it is what a search meets), and the
   * units where a term may start (an ASCII unit that only terms needing a word boundary start
   * with, not after an ASCII letter, digit or `_`)
   */
  private readonly starts: RegExp;

  constructor(readonly table: TermTable) {
    const byText = new Map<string, Indexed[]>();
    for (const entry of table.entries) {
      const t = entry.term;
      if (!t) continue;
      const last = charBefore(t, t.length);
      const marks = entry.to.map((tr) => (tr === undefined ? undefined : dictionaryEntry(t, tr)));
      const item = new Indexed(entry, marks, isWord(charAt(t, 0)) && !noSpace(charAt(t, 0)), isWord(last) && !noSpace(last));
      const items = byText.get(t);
      if (items) items.push(item);
      else byText.set(t, [item]);
    }
    const texts = [...byText.keys()].sort();
    const chain: number[] = [];
    let depth = 0;
    for (let k = 0; k < texts.length; k++) {
      const t = texts[k];
      // (a term that does not begin this one begins none after it: they sort between)
      while (chain.length && !t.startsWith(texts[chain[chain.length - 1]])) chain.pop();
      const items = byText.get(t)!;
      this.terms.push(new Term(t, items, chain.length ? chain[chain.length - 1] : -1));
      chain.push(k);
      depth = Math.max(depth, chain.length);
      const c = t.charCodeAt(0);
      const first = this.firsts.get(c);
      if (first) first.hi = k + 1;
      else this.firsts.set(c, { lo: k, hi: k + 1 });
      for (const x of items) this.kinds[c] |= x.startBound ? STARTS_BOUND : STARTS_FREE;
    }
    this.chain = new Int32Array(depth);
    this.starts = this.startsExpression();
    for (let k = 0; k < texts.length; k++) {
      const t = texts[k];
      if (!asciiWord(t.charCodeAt(0))) continue;
      const run = t.slice(0, wordEnd(t, 0, t.length));
      if (this.words.has(run)) continue;
      // (sorted: the terms that begin with the run follow one another, from the first)
      let lo = k;
      while (lo > 0 && texts[lo - 1].startsWith(run)) lo--;
      let hi = k + 1;
      while (hi < texts.length && texts[hi].startsWith(run)) hi++;
      this.words.set(run, { lo, hi });
    }
  }

  private startsExpression(): RegExp {
    const bound: number[] = [];
    const any: number[] = [];
    for (const c of [...this.firsts.keys()].sort((a, b) => a - b)) (this.kinds[c] === STARTS_BOUND && c < 128 ? bound : any).push(c);
    const parts = [MAY_PROTECT, ...(bound.length ? [`(?<![0-9A-Za-z_])${unitClass(bound)}`] : []), ...(any.length ? [unitClass(any)] : [])];
    return new RegExp(parts.join('|'), 'g');
  }

  get size(): number {
    return this.table.entries.length;
  }

  /** Whether `text` may hold a term (false: find gives none), by one search of the units that may begin one (or a protected span). */
  mayHold(text: string): boolean {
    if (!this.terms.length) return false;
    const re = this.starts;
    re.lastIndex = 0;
    const may = re.test(text);
    re.lastIndex = 0;
    return may;
  }

  /** The occurrences of terms in `text` (HTML when `html`), in order, never overlapping. */
  find(text: string, html: boolean): readonly Hit[] {
    if (!this.terms.length) return NONE;
    const hits = this.found;
    if (!this.findAll(text, hits)) this.findBetween(text, html ? PROTECTED_HTML : PROTECTED_PLAIN, hits);
    if (!hits.length) return NONE;
    const own = overlapping(hits) ? longestFirst(hits) : hits.slice();
    hits.length = 0;
    return own;
  }

  /** the terms of a text, searched in one pass while nothing may start a protected span; false (none added) when something may */
  private findAll(text: string, hits: Hit[]): boolean {
    const re = this.starts;
    const to = text.length;
    re.lastIndex = 0;
    while (re.test(text)) {
      const i = re.lastIndex - 1;
      const c = text.charCodeAt(i);
      if (protectEnds(text, i + 1, c)) {
        re.lastIndex = 0;
        if (hits.length) hits.length = 0;
        return false;
      }
      if (this.startsAt(text, i, 0, c)) this.termsAt(text, i, 0, to, hits);
    }
    return true;
  }

  /** whether a term that starts with `c` may start at `i` (inside a word, none that needs a word boundary before it does) */
  private startsAt(text: string, i: number, from: number, c: number): boolean {
    const f = this.kinds[c];
    if (f === 0) return false;
    return (f & STARTS_FREE) !== 0 || !(i > from && isWordUnit(text.charCodeAt(i - 1)) && !noSpace(charAt(text, i)));
  }

  /** the terms of a text that may hold protected spans: those of the ranges between them */
  private findBetween(text: string, re: RegExp, hits: Hit[]): void {
    let from = 0;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      this.scan(text, from, m.index, hits);
      from = m.index + m[0].length;
    }
    this.scan(text, from, text.length, hits);
  }

  /** every term at each position of text[from, to) (a protected span beside the range is a boundary: `%sCloud` holds the word Cloud) */
  private scan(text: string, from: number, to: number, hits: Hit[]): void {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (this.startsAt(text, i, from, c)) this.termsAt(text, i, from, to, hits);
    }
  }

  /** the terms that text[i, to) begins with (among those that start with text[i]) */
  private termsAt(text: string, i: number, from: number, to: number, hits: Hit[]): void {
    const terms = this.terms;
    // the terms that begin with text[i] (a run of ASCII word units: those that begin with the whole run)
    const c = text.charCodeAt(i);
    let range: WordRange | undefined;
    let held = 1;
    if (asciiWord(c)) {
      const end = wordEnd(text, i + 1, to);
      range = this.words.get(text.slice(i, end));
      held = end - i;
    } else range = this.firsts.get(c);
    if (range === undefined) return;
    let lo = range.lo;
    let hi = range.hi;
    // the last term not after text[i, to), and how much of it the text holds; each term between
    // two others holds at least as much of the text as the lesser of theirs (sorted order), so a
    // comparison begins there (every term of the range holds the first `held` units)
    let at = -1;
    let same = 0;
    let below = held;
    let above = held;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = terms[mid].text;
      const k = common(t, text, i, to, below < above ? below : above);
      if (k === t.length || (i + k < to && t.charCodeAt(k) < text.charCodeAt(i + k))) {
        at = mid;
        same = k;
        below = k;
        lo = mid + 1;
      } else {
        above = k;
        hi = mid;
      }
    }
    // (the terms that begin the text, the shorter first, as a text is read)
    const chain = this.chain;
    let n = 0;
    for (; at >= 0; at = terms[at].parent) if (terms[at].text.length <= same) chain[n++] = at;
    while (n > 0) {
      const t = terms[chain[--n]];
      const j = i + t.text.length;
      for (let x = 0; x < t.items.length; x++) {
        const item = t.items[x];
        if (item.startBound && i !== from && !boundaryFast(text, i)) continue;
        if (item.endBound && j !== to && !boundaryFast(text, j)) continue;
        hits.push(new Occurrence(i, j, item.entry, item.marks, item.extras));
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

/** `text` with each hit that has a translation into target `k` wrapped in the dictionary markup; undefined when none has. */
export function markText(text: string, hits: readonly Hit[], k: number): string | undefined {
  // (joined, not added: a string made by + is a tree of its parts, which the request's
  // JSON.stringify copies into one again for each text, and slowly)
  const parts: string[] = [];
  let last = 0;
  // (indexed loops on the paths each text takes: a for-of makes an iterator, which costs most
  // while the code still runs unoptimized, a good part of a run of 100,000 texts)
  for (let x = 0; x < hits.length; x++) {
    const h = hits[x];
    const el = h.marks[k];
    if (el === undefined) continue;
    parts.push(text.slice(last, h.start), el);
    last = h.end;
  }
  if (last === 0) return undefined;
  parts.push(text.slice(last));
  return parts.join('');
}

/**
 * The billed characters that markText(text, hits, k) adds to the text, without making it (0 when
 * no hit has a translation into target `k`): a text's characters are the sum of its parts', and
 * each element adds what it has beyond its term.
 */
export function markupChars(hits: readonly Hit[], k: number): number {
  let n = 0;
  for (let x = 0; x < hits.length; x++) n += hits[x].extras[k];
  return n;
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

const ENTRY_OPEN = '<mstrans:dictionary translation="';

/** A translation with any dictionary element the service left in it replaced by its translation (the markup never reaches the output). */
export function stripMarkup(text: string, html: boolean): string {
  if (!text.includes(ENTRY_OPEN)) return text;
  // (each element as DICTIONARY_ENTRY matches one; in plain text an entity of the attribute is its character)
  return html || !text.includes('&') ? text.replace(DICTIONARY_ENTRY, '$1') : text.replace(DICTIONARY_ENTRY, (_, tr: string) => decodeAttribute(tr));
}

/** The terms whose translation into target `k` a translation lacks: "term" should be "translation". */
export function missingTerms(hits: readonly Hit[], k: number, translation: string): readonly string[] {
  let out: string[] | undefined;
  // (a term found twice is said once; most texts hold one term, and need no set)
  const seen = hits.length > 1 ? new Set<string>() : undefined;
  for (let x = 0; x < hits.length; x++) {
    const h = hits[x];
    const tr = h.entry.to[k];
    if (tr === undefined || seen?.has(h.entry.term)) continue;
    seen?.add(h.entry.term);
    if (!translation.includes(tr) && !translation.includes(escapeHtml(tr))) (out ??= []).push(`the term ${JSON.stringify(h.entry.term)} is not translated as ${JSON.stringify(tr)}`);
  }
  return out ?? NO_PROBLEMS;
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
