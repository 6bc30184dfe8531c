// A unit's text as the placeholder machinery sees it: runs of text, placeholders (tokens) and the
// format's own markup, each kept apart so that only text is sent and every token comes back.
import type { Flavour } from './printf.js';

export type PieceKind = 'text' | 'token' | 'raw';

export interface Piece {
  kind: PieceKind;
  /** logical text (text, token) or the format's raw markup (raw) */
  value: string;
  /** for tokens: what kind of placeholder (ICU syntax is checked as a message; HTML tags are sent as markup) */
  tag?: 'html' | 'icu' | 'md' | 'printf' | 'other';
  /** for printf tokens: the grammar they follow (their order and types are checked by its rules) */
  fmt?: Flavour;
}
