// The placeholder grammar of each app platform's strings (printf.ts): Android's Java Formatter
// and Apple's Foundation read C's directives (Apple's with `%@`), .NET composite format strings
// `{0}`. Reading a text with its grammar makes the check a platform's own: an unnumbered `%s` may
// not trade places with a `%d` (the app would format a number as a string, or crash), a numbered
// `%1$s` may move, a type may not change.
import type { Flavour } from './printf.js';
import { tokenize, type Piece } from './protect.js';

/** Pieces with their text read by a platform's grammar (other pieces kept as they are). */
export function withSyntax(pieces: readonly Piece[], printf: Flavour): Piece[] {
  return pieces.flatMap((p) => (p.kind === 'text' ? tokenize(p.value, { syntax: { printf } }) : [p]));
}
