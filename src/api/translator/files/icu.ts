// ICU MessageFormat arguments inside a unit's text, read with FormatJS's parser
// (@formatjs/icu-messageformat-parser: the parser of react-intl, with the start and end offset of
// every element). An argument is found where a `{` opens a balanced span that the parser reads as
// one argument: `{name}`, `{n, number}`, `{count, plural, one {# file} other {# files}}`. Its
// syntax (the head up to the first case, the `} other {` between cases, the closing `}`, `#`) becomes
// placeholders, the case messages' text is text (split further by the caller, so HTML tags and
// printf directives inside a case stay placeholders), and its skeleton (argument names, types,
// styles, case keys; the arguments in any order) is what a translation must keep.
//
// The parser is loaded on demand (loadIcu); until it is, no ICU argument is recognised. The work is
// bounded: each candidate span is scanned once, spans are parsed at most a few times the text's
// length in all, so a hostile text of nested or unclosed braces costs linear time.
import type { MessageFormatElement, PluralOrSelectOption } from '@formatjs/icu-messageformat-parser';
import type { Piece } from './piece.js';
import { pluralCategories } from './plurals.js';

type Parse = typeof import('@formatjs/icu-messageformat-parser').parse;
let parser: Parse | undefined;

export async function loadIcu(): Promise<void> {
  parser ??= (await import('@formatjs/icu-messageformat-parser')).parse;
}

// element types of the parser (its TYPE enum)
const LITERAL = 0;
const ARGUMENT = 1;
const SELECT = 5;
const PLURAL = 6;
const POUND = 7;

/** The longest span tried as one ICU argument (a unit longer than a request cannot be sent anyway). */
const MAX_SPAN = 200_000;

/** How much parsing a text may cost: characters scanned and parsed, a few times its length. */
export interface IcuBudget {
  left: number;
}

export function icuBudget(text: string): IcuBudget {
  return { left: 4 * text.length + 4096 };
}

/**
 * Where the `{` at `i` closes, by ICU's rules (an apostrophe before a brace or angle bracket
 * quotes it, `''` is an apostrophe), or undefined when it does not within MAX_SPAN.
 */
function closingBrace(s: string, i: number, budget: IcuBudget): number | undefined {
  let depth = 0;
  const end = Math.min(s.length, i + MAX_SPAN);
  for (let j = i; j < end; j++) {
    budget.left--;
    const c = s[j];
    if (c === "'") {
      const n = s[j + 1];
      if (n === "'") j++;
      else if (n === '{' || n === '}' || n === '<' || n === '>') {
        const q = s.indexOf("'", j + 2);
        if (q < 0 || q >= end) return undefined;
        budget.left -= q - j;
        j = q;
      }
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j + 1;
    if (budget.left <= 0) return undefined;
  }
  return undefined;
}

function parseOne(span: string, budget: IcuBudget): MessageFormatElement | undefined {
  if (!parser) return undefined;
  budget.left -= span.length;
  if (budget.left < 0) return undefined;
  const parse = (s: string) => {
    const ast = parser!(s, { captureLocation: true, ignoreTag: true, requiresOtherClause: false });
    return ast.length === 1 && ast[0].type !== LITERAL ? ast[0] : undefined;
  };
  try {
    return parse(span);
  } catch {
    // Angular writes `=other` for `other` (its ICU reader takes any key): read so, each `=` a space (the offsets stay)
    if (/=[A-Za-z]/.test(span)) {
      try {
        return parse(span.replace(/=(?=[A-Za-z])/g, ' '));
      } catch {
        /* not ICU either */
      }
    }
    // not ICU (or nested beyond the parser's stack): the caller reads it as text
    return undefined;
  }
}

/** What an ICU argument at `i` gives: its end, its pieces, its skeleton. */
export interface IcuArgument {
  end: number;
  pieces: Piece[];
  skeleton: string;
}

/** The caller's splitting of a case message's text (HTML tags, printf, ... as placeholders). */
export type SplitText = (text: string, out: Piece[]) => void;

/**
 * How a translation made for another language is compared (vx translate check): its plurals'
 * case keys are that language's CLDR categories (pl: one, few, many, other), a case may drop `#`,
 * so a plural's skeleton is its argument and the arguments its cases hold, whatever the case.
 */
export interface LoosePlurals {
  /** the language of the message read (its case keys must be categories of it; unknown: any) */
  lang?: string;
}

/** The ICU argument whose `{` is at `i`, or undefined when none starts there. */
export function icuArgumentAt(s: string, i: number, budget: IcuBudget, split: SplitText, loose?: LoosePlurals): IcuArgument | undefined {
  const close = closingBrace(s, i, budget);
  if (close === undefined) return undefined;
  const el = parseOne(s.slice(i, close), budget);
  if (!el) return undefined;
  const pieces: Piece[] = [];
  emit(s, i, el, split, pieces);
  return { end: close, pieces, skeleton: skeleton(el, loose) };
}

const at = (base: number, loc: { offset: number }) => base + loc.offset;

/** An element's pieces: a simple argument is one placeholder; plural/select are syntax around case messages. */
function emit(s: string, base: number, el: MessageFormatElement, split: SplitText, out: Piece[]): void {
  const start = at(base, el.location!.start);
  const end = at(base, el.location!.end);
  if (el.type !== PLURAL && el.type !== SELECT) {
    out.push({ kind: 'token', value: s.slice(start, end), tag: 'icu' });
    return;
  }
  let from = start;
  for (const option of Object.values(el.options) as PluralOrSelectOption[]) {
    const open = at(base, option.location!.start) + 1;
    const shut = at(base, option.location!.end) - 1;
    out.push({ kind: 'token', value: s.slice(from, open), tag: 'icu' });
    message(s, base, option.value, open, shut, split, out);
    from = shut;
  }
  out.push({ kind: 'token', value: s.slice(from, end), tag: 'icu' });
}

/** A case message between `open` and `shut`: literal text split by the caller, `#`, nested arguments. */
function message(s: string, base: number, elements: MessageFormatElement[], open: number, shut: number, split: SplitText, out: Piece[]): void {
  let at0 = open;
  for (const el of elements) {
    const a = at(base, el.location!.start);
    const b = at(base, el.location!.end);
    if (a > at0) split(s.slice(at0, a), out);
    if (el.type === LITERAL) split(s.slice(a, b), out);
    else if (el.type === POUND) out.push({ kind: 'token', value: '#', tag: 'icu' });
    else emit(s, base, el, split, out);
    at0 = b;
  }
  if (shut > at0) split(s.slice(at0, shut), out);
}

/** What a translation must keep of an argument: its name, type, style and case keys (recursively), not its text. */
function skeleton(el: MessageFormatElement, loose?: LoosePlurals): string {
  switch (el.type) {
    case LITERAL:
      return '';
    case POUND:
      return '#';
    case ARGUMENT:
      return `{${el.value}}`;
    case PLURAL:
    case SELECT: {
      const kind = el.type === SELECT ? 'select' : el.pluralType === 'ordinal' ? 'selectordinal' : 'plural';
      const offset = el.type === PLURAL && el.offset ? ` offset:${el.offset}` : '';
      const options = el.options as Record<string, PluralOrSelectOption>;
      if (loose && el.type === PLURAL) return looseSkeleton(el.value, kind, offset, options, loose, el.pluralType === 'ordinal');
      const cases = Object.entries(options).map(([k, o]) => `${k} {${o.value.map((x) => skeleton(x, loose)).join('')}}`);
      return `{${el.value}, ${kind},${offset} ${cases.join(' ')}}`;
    }
    default: {
      // number, date, time: the style as written (a skeleton's text, or a named style)
      const style = 'style' in el && el.style ? (typeof el.style === 'string' ? el.style : `::${'pattern' in el.style ? el.style.pattern : el.style.tokens.map((t) => [t.stem, ...t.options].join('/')).join(' ')}`) : '';
      return `{${(el as { value: string }).value}, ${['', '', 'number', 'date', 'time'][el.type] ?? 'tag'}${style ? `, ${style}` : ''}}`;
    }
  }
}

/**
 * A plural as a translation into another language may write it: its argument and the arguments its
 * cases hold (`{n, plural: {name}}`), and what is wrong with its case keys for the language.
 */
function looseSkeleton(name: string, kind: string, offset: string, options: Record<string, PluralOrSelectOption>, loose: LoosePlurals, ordinal: boolean): string {
  const held = new Set<string>();
  for (const o of Object.values(options)) for (const x of o.value) if (x.type !== LITERAL && x.type !== POUND) held.add(skeleton(x, loose));
  const keys = Object.keys(options);
  const cats = loose.lang ? pluralCategories(loose.lang, ordinal) : undefined;
  const foreign = cats ? keys.filter((k) => !k.startsWith('=') && !cats.includes(k)) : [];
  const notes = [...(keys.includes('other') ? [] : ['no other case']), ...(foreign.length ? [`${foreign.join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not ${ordinal ? 'an ordinal' : 'a plural'} category of ${loose.lang}`] : [])];
  return `{${name}, ${kind}${offset}${held.size ? `: ${[...held].sort().join(' ')}` : ''}}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}
