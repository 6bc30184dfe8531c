// Checks of a translation's characters, for the formats whose files cannot hold what a hostile or
// broken answer may carry: control characters (XML 1.0 forbids most C0 controls; in a .strings,
// .properties or JSON file they are invisible text no translator wrote), U+FFFE/U+FFFF, lone
// surrogates, and line breaks where the source has none (a one-line value split in two).
import type { Piece } from './protect.js';

const BAD = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const text = (pieces: readonly Piece[]) => pieces.filter((p) => p.kind === 'text').map((p) => p.value).join('');

/** The first character of a translation's text that the source's text does not have and no file should get, or undefined. */
export function characterProblem(source: readonly Piece[], translation: readonly Piece[]): string | undefined {
  const t = text(translation);
  const m = BAD.exec(t);
  if (m) return `the translation has the control character U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (/[\r\n]/.test(t) && !/[\r\n]/.test(text(source))) return 'the translation has a line break the source does not have';
  return undefined;
}
