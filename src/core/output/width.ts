// The width of text in terminal cells (CJK and emoji count two), cutting and wrapping to a width.
import { eastAsianWidth } from 'get-east-asian-width';

// string-width creates an Intl.Segmenter when it loads, which costs 10-15 ms: it is loaded only
// when a table is rendered (or by loadTextWidth). Until then non-ASCII text is measured per code
// point (marks and joiners zero, East Asian wide and pictographs two), which differs from it only
// for multi-code-point emoji sequences.
let graphemeWidth: ((s: string) => number) | undefined;
export async function loadTextWidth(): Promise<void> {
  graphemeWidth ??= (await import('string-width')).default;
}
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /[\p{Mark}\p{Cc}\p{Cf}\u200b-\u200f\ufe00-\ufe0f]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;

function codePointWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    if (ZERO_WIDTH.test(ch)) continue;
    const cp = ch.codePointAt(0) ?? 0;
    w += cp > 0xff && PICTOGRAPH.test(ch) ? 2 : eastAsianWidth(cp);
  }
  return w;
}

/** Display width of a string in terminal cells (CJK and emoji count two). */
export function displayWidth(s: string): number {
  if (PRINTABLE_ASCII.test(s)) return s.length;
  return graphemeWidth ? graphemeWidth(s) : codePointWidth(s);
}

/** Cuts a string to at most `width` terminal cells, ending with … when cut. */
export function truncateToWidth(s: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(s) <= width) return s;
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = displayWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** Splits text at spaces into lines of at most `width` cells; a longer word gets a line of its own. */
export function wrapToWidth(s: string, width: number): string[] {
  if (width <= 0 || displayWidth(s) <= width) return [s];
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line) lines.push(line);
    line = '';
  };
  for (const w of s.split(/ +/)) {
    if (line && displayWidth(line) + 1 + displayWidth(w) <= width) {
      line += ` ${w}`;
      continue;
    }
    push();
    line = w; // a word longer than the line stays whole (an id split in two cannot be copied)
  }
  push();
  return lines.length ? lines : [''];
}
