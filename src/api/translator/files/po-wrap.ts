// A PO string field written as GNU gettext writes it (msgcat, msgmerge: write-po.c), so that a
// catalogue vx fills in diffs like one a translator's tools wrote: the text cut after each `\n`,
// each part escaped and wrapped at 79 columns where Unicode's line breaking algorithm (UAX #14)
// allows a break, never inside an escape sequence or a format directive, never just before a final
// `\n`; a field that wraps or has several parts starts with `msgid ""`.
import { eastAsianWidth } from 'get-east-asian-width';
import { directiveAt, type Flavour } from './printf.js';

const PAGE_WIDTH = 79;

/** Line breaking classes of UAX #14 that decide where gettext may wrap (others count as AL). */
type Lb = 'AL' | 'SP' | 'BA' | 'HY' | 'BB' | 'CL' | 'CP' | 'EX' | 'IS' | 'SY' | 'OP' | 'QU' | 'NU' | 'PR' | 'PO' | 'ID' | 'NS' | 'GL' | 'CM' | 'WJ' | 'ZW' | 'IN' | 'B2';

const ASCII: Record<string, Lb> = {
  ' ': 'SP', '!': 'EX', '"': 'QU', '#': 'AL', $: 'PR', '%': 'PO', '&': 'AL', "'": 'QU', '(': 'OP', ')': 'CP', '*': 'AL', '+': 'PR', ',': 'IS', '-': 'HY', '.': 'IS', '/': 'SY',
  ':': 'IS', ';': 'IS', '<': 'AL', '=': 'AL', '>': 'AL', '?': 'EX', '@': 'AL', '[': 'OP', '\\': 'PR', ']': 'CP', '^': 'AL', _: 'AL', '`': 'AL', '{': 'OP', '|': 'BA', '}': 'CL', '~': 'AL',
};

function lbClass(cp: number): Lb {
  if (cp < 0x80) {
    const c = String.fromCharCode(cp);
    if (c >= '0' && c <= '9') return 'NU';
    return ASCII[c] ?? 'AL';
  }
  if (cp === 0xa0 || cp === 0x202f || cp === 0x2007 || cp === 0x2011 || cp === 0xfeff) return cp === 0xfeff ? 'WJ' : 'GL';
  if (cp === 0x200b) return 'ZW';
  if (cp === 0x2060) return 'WJ';
  if (cp === 0x2014) return 'B2';
  if (cp === 0xad || cp === 0x2010 || cp === 0x2013 || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a && cp !== 0x2007)) return 'BA';
  if (cp === 0xab || cp === 0xbb || (cp >= 0x2018 && cp <= 0x201f) || cp === 0x2039 || cp === 0x203a) return 'QU';
  if (cp === 0x2026 || cp === 0x2024 || cp === 0x2025) return 'IN';
  if (cp === 0xb4) return 'BB';
  if (cp === 0xa1 || cp === 0xbf) return 'OP';
  if (cp === 0xa2 || cp === 0xb0 || cp === 0x2030 || cp === 0x2032 || cp === 0x2033) return 'PO';
  if (cp === 0xa3 || cp === 0xa4 || cp === 0xa5 || cp === 0xb1 || cp === 0x20ac || cp === 0x2116) return 'PR';
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) || (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe20 && cp <= 0xfe2f) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 'CM';
  if (cp === 0x3001 || cp === 0x3002 || cp === 0xff0c || cp === 0xff0e || cp === 0x300d || cp === 0x300f || cp === 0x3011 || cp === 0xff09) return 'CL';
  if (cp === 0x300c || cp === 0x300e || cp === 0x3010 || cp === 0xff08) return 'OP';
  if (cp === 0xff01 || cp === 0xff1f) return 'EX';
  if (cp === 0xff1a || cp === 0xff1b || cp === 0x30fc || cp === 0x3005 || cp === 0x303b || (cp >= 0x3041 && cp <= 0x3049 && cp % 2 === 1) || cp === 0x3063 || cp === 0x30c3 || cp === 0x3083 || cp === 0x3085 || cp === 0x3087 || cp === 0x30e3 || cp === 0x30e5 || cp === 0x30e7) return 'NS';
  if ((cp >= 0x2e80 && cp <= 0x2fff) || (cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff01 && cp <= 0xff60) || (cp >= 0x20000 && cp <= 0x3fffd) || (cp >= 0x3000 && cp <= 0x303f)) return 'ID';
  if ((cp >= 0x660 && cp <= 0x669) || (cp >= 0x6f0 && cp <= 0x6f9) || (cp >= 0x966 && cp <= 0x96f)) return 'NU';
  return 'AL';
}

const NO_BREAK_BEFORE = new Set<Lb>(['CL', 'CP', 'EX', 'IS', 'SY', 'SP', 'ZW', 'WJ']);

/** Whether UAX #14 allows a break between `a` and `b`; `sp`: spaces between them, `a` the class before the spaces. */
function allowed(a: Lb, b: Lb, sp: boolean): boolean {
  if (NO_BREAK_BEFORE.has(b)) return false; // LB7, LB11, LB13
  if (a === 'ZW') return true; // LB8
  if (a === 'WJ' || b === 'CM') return false; // LB9, LB11
  if (a === 'OP') return false; // LB14
  if (a === 'QU' && b === 'OP') return false; // LB15
  if ((a === 'CL' || a === 'CP') && b === 'NS') return false; // LB16
  if (a === 'B2' && b === 'B2') return false; // LB17
  if (sp) return true; // LB18
  if (a === 'GL') return false; // LB12
  if (b === 'GL') return a === 'BA' || a === 'HY'; // LB12a
  if (b === 'QU' || a === 'QU') return false; // LB19
  if (b === 'BA' || b === 'HY' || b === 'NS' || a === 'BB') return false; // LB21
  if (b === 'IN') return false; // LB22
  if ((a === 'AL' && b === 'NU') || (a === 'NU' && b === 'AL')) return false; // LB23
  if ((a === 'PR' && b === 'ID') || (a === 'ID' && b === 'PO')) return false; // LB23a
  if ((a === 'PR' || a === 'PO') && b === 'AL') return false; // LB24
  if (a === 'AL' && (b === 'PR' || b === 'PO')) return false; // LB24
  if (b === 'NU' && (a === 'PR' || a === 'PO' || a === 'HY' || a === 'IS' || a === 'NU' || a === 'SY')) return false; // LB25
  if (a === 'NU' && (b === 'PO' || b === 'PR' || b === 'NU')) return false; // LB25
  if (a === 'AL' && b === 'AL') return false; // LB28
  if ((a === 'AL' || a === 'NU') && b === 'OP') return false; // LB30 (OP after AL or NU)
  if (a === 'CP' && (b === 'AL' || b === 'NU')) return false; // LB30
  return true; // LB31
}

/** One character of a portion: its text as written (an escape is two or four), width, class, and whether a break may come before it. */
interface Cell {
  text: string;
  width: number;
  lb: Lb;
  /** false: never break before it (inside an escape or a directive, before the final \n) */
  may: boolean;
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\\': '\\\\', '"': '\\"' };

function cells(part: string, flavour: Flavour | undefined): Cell[] {
  const out: Cell[] = [];
  // inside a format directive (after its first character) no break (write-po.c: "Don't break inside format directives")
  let directiveEnd = -1;
  for (let i = 0; i < part.length; ) {
    const cp = part.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const may = i >= directiveEnd;
    if (may && flavour) directiveEnd = directiveAt(flavour, part, i) ?? -1;
    const escaped = ESCAPES[ch] ?? (cp < 0x20 || cp === 0x7f ? `\\${cp.toString(8).padStart(3, '0')}` : undefined);
    if (escaped === undefined) out.push({ text: ch, width: charWidth(cp), lb: lbClass(cp), may });
    // an escape sequence is written whole on one line
    else for (let k = 0; k < escaped.length; k++) out.push({ text: escaped[k], width: 1, lb: lbClass(escaped.charCodeAt(k)), may: k === 0 && may });
    i += ch.length;
  }
  // no break just before the \n that ends the part
  if (part.endsWith('\n') && out.length >= 2) out[out.length - 2].may = false;
  return out;
}

function charWidth(cp: number): number {
  if (cp >= 0x300 && cp <= 0x36f) return 0;
  return eastAsianWidth(cp);
}

/** Where lines break in a portion (indexes of the cells a new line starts with), as gnulib's ulc_width_linebreaks picks them. */
function breaks(cs: readonly Cell[], width: number, startColumn: number): Set<number> {
  // the break opportunities of UAX #14
  const possible: boolean[] = [];
  let before: Lb | undefined;
  let spaces = false;
  cs.forEach((c, i) => {
    possible[i] = i > 0 && before !== undefined && c.may && allowed(before, c.lb, spaces);
    if (c.lb === 'SP') spaces = true;
    else if (c.lb !== 'CM' || before === undefined) {
      before = c.lb;
      spaces = false;
    }
  });
  const out = new Set<number>();
  let last: number | undefined;
  let lastColumn = startColumn;
  let piece = 0;
  cs.forEach((c, i) => {
    if (possible[i]) {
      if (last !== undefined && lastColumn + piece > width) {
        out.add(last);
        lastColumn = 0;
      }
      last = i;
      lastColumn += piece;
      piece = 0;
    }
    piece += c.width;
  });
  if (last !== undefined && lastColumn + piece > width) out.add(last);
  return out;
}

/**
 * The lines of a field (`msgstr`, `msgid`, `msgstr[1]`; `prefix` `#| ` for a previous msgid, `#~ `
 * for an obsolete one) as gettext writes them. `flavour`: the entry's format (no break in a directive).
 */
export function wrapField(name: string, value: string, prefix = '', flavour?: Flavour): string[] {
  const parts = value === '' ? [''] : value.split(/(?<=\n)/);
  const afterBreak = prefix.length + 1;
  const width = PAGE_WIDTH - 1 - afterBreak;
  const lines: string[] = [];
  let first = true;
  parts.forEach((part, k) => {
    const cs = cells(part, flavour);
    let start = prefix.length + (first ? name.length + 1 : 0) + 1 - afterBreak;
    let at = breaks(cs, width, start);
    if (first && cs.length && (k < parts.length - 1 || start > width || at.size)) {
      lines.push(`${prefix}${name} ""`);
      first = false;
      start = prefix.length + 1 - afterBreak;
      at = breaks(cs, width, start);
    }
    let line = `${prefix}${first ? `${name} ` : ''}"`;
    first = false;
    cs.forEach((c, i) => {
      if (at.has(i)) {
        lines.push(`${line}"`);
        line = `${prefix}"`;
      }
      line += c.text;
    });
    lines.push(`${line}"`);
  });
  return lines;
}
