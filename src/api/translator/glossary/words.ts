// Word boundaries as the glossary's matcher reads them (see match.ts): Unicode's (UAX #29) for
// any text, and at once for ASCII on either side, which is most of what a run reads.

const WORD_CHAR = /[\p{L}\p{M}\p{N}\p{Pc}]/u;
const NO_SPACE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;

/** whether a UTF-16 unit is an ASCII letter, digit or `_` */
export const asciiWord = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/** the code point at `i` as a string (a surrogate pair whole) */
export function charAt(s: string, i: number): string {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? s.slice(i, i + 2) : s[i];
}
/** the code point that ends just before `i` */
export function charBefore(s: string, i: number): string {
  const c = s.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? s.slice(i - 2, i) : s[i - 1];
}

export function isWord(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const c = ch.charCodeAt(0);
  if (c < 128) return asciiWord(c);
  return WORD_CHAR.test(ch);
}
/** whether a UTF-16 unit is a word character of a script written with spaces (no word boundary after it before another): ASCII at once */
export function isWordUnit(c: number): boolean {
  if (c < 128) return asciiWord(c);
  // (a low surrogate: its pair is read where a boundary is checked; it may be a letter)
  if (c >= 0xdc00 && c <= 0xdfff) return false;
  const ch = String.fromCharCode(c);
  return WORD_CHAR.test(ch) && !noSpace(ch);
}
export const noSpace = (ch: string | undefined) => ch !== undefined && ch.charCodeAt(0) >= 0x0e00 && NO_SPACE.test(ch);
/** apostrophes, periods and colons join the letters either side into one word (UAX #29 MidLetter, MidNumLet) */
export const isMid = (ch: string | undefined) => ch === "'" || ch === '\u2019' || ch === '.' || ch === ':' || ch === '\u00b7';

/** whether a word boundary is at `i` (between the characters before and after it) */
export function boundaryAt(s: string, i: number): boolean {
  if (i <= 0 || i >= s.length) return true;
  const before = charBefore(s, i);
  const after = charAt(s, i);
  if (noSpace(before) || noSpace(after)) return true;
  if (isWord(before) && isWord(after)) return false;
  if (isMid(after) && isWord(before) && isWord(charAt(s, i + 1))) return false;
  if (isMid(before) && isWord(after) && i >= 2 && isWord(charBefore(s, i - 1))) return false;
  return true;
}

/** the end of the run of ASCII letters, digits and `_` of s from `i` (at most `to`) */
export function wordEnd(s: string, i: number, to: number): number {
  while (i < to && asciiWord(s.charCodeAt(i))) i++;
  return i;
}

/** whether a word boundary is at `i`: ASCII either side at once, others as boundaryAt says */
export function boundaryFast(s: string, i: number): boolean {
  if (i > 0 && i < s.length) {
    const b = s.charCodeAt(i - 1);
    const a = s.charCodeAt(i);
    // (apostrophes, periods and colons: see isMid)
    if (b < 128 && a < 128 && b !== 39 && b !== 46 && b !== 58 && a !== 39 && a !== 46 && a !== 58) return !(isWordUnit(b) && isWordUnit(a));
  }
  return boundaryAt(s, i);
}
