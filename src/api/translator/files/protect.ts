// Placeholders and markup that a translation must never change, protected before sending and
// checked after. A unit's text is a list of pieces (tokens.ts: text, placeholder tokens, a format's
// raw inline markup).
//
// What is sent is HTML (textType=html): text escaped, HTML tags as markup (the service keeps
// them and may move them with the words they wrap), every other token inside
// `<span class="notranslate">` (the service leaves such spans alone). What comes back is split
// the same way and checked (checks.ts), else the unit is not written as translated.
import { translationProblem } from './checks.js';
import { mergeText, tokenize, type Piece, type ProtectOptions, type Syntax } from './tokens.js';

export { piecesText, tokenize, translatable, type Piece, type ProtectOptions, type Syntax } from './tokens.js';

/** Compiles --protect patterns (matched where a token may start); a bad one is a usage error naming it. */
export function customPatterns(sources: readonly string[]): RegExp[] {
  return sources.map((src) => {
    try {
      return new RegExp(src, 'uy');
    } catch (e) {
      throw new RangeError(`invalid regular expression "${src}" for --protect: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
    }
  });
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function unescapeHtml(s: string): string {
  return s.replace(/&(?:([A-Za-z]+)|#(\d+)|#[xX]([0-9A-Fa-f]+));/g, (m, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return NAMED[name.toLowerCase()] ?? m;
    const cp = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
}

const SPAN_OPEN = '<span class="notranslate">';

/** Whether the HTML tags of a unit nest properly (then they are sent as markup; else as protected spans). */
function tagsBalanced(pieces: readonly Piece[]): boolean {
  const stack: string[] = [];
  for (const p of pieces) {
    if (p.kind !== 'token' || p.tag !== 'html' || p.value.startsWith('<!--')) continue;
    const m = /^<(\/?)([A-Za-z][\w:.-]*)/.exec(p.value)!;
    const name = m[2].toLowerCase();
    if (p.value.endsWith('/>') || VOID.has(name)) continue;
    if (!m[1]) stack.push(name);
    else if (stack.pop() !== name) return false;
  }
  return stack.length === 0;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/**
 * The white space (line breaks included) a unit begins and ends with. It is not sent (a service
 * may trim it) and is put back around the translation: gettext requires a msgstr to begin and end
 * with the \n its msgid does, an XLIFF target keeps the spacing of its source.
 */
function edges(pieces: readonly Piece[]): [string, string] {
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  // (trimStart/trimEnd: the white space of \s, in linear time)
  const lead = first?.kind === 'text' ? first.value.slice(0, first.value.length - first.value.trimStart().length) : '';
  const trail = last?.kind === 'text' && !(first === last && lead === first.value) ? last.value.slice(last.value.trimEnd().length) : '';
  return [lead, trail];
}

/** The HTML sent for a unit's pieces (without the white space around them). Raw pieces are protected like tokens (keyed by their index). */
export function toHtml(pieces: readonly Piece[]): string {
  const markup = tagsBalanced(pieces);
  const [lead, trail] = edges(pieces);
  let s = '';
  pieces.forEach((p, i) => {
    if (p.kind === 'text') s += escapeHtml(p.value.slice(i === 0 ? lead.length : 0, i === pieces.length - 1 ? p.value.length - trail.length : undefined));
    else if (p.kind === 'token' && p.tag === 'html' && markup) s += p.value;
    else s += `${SPAN_OPEN}${escapeHtml(p.value)}</span>`;
  });
  return s;
}

const SPANS = /<span class="notranslate">([\s\S]*?)<\/span>/g;

/**
 * The unit's text as toHtml sent it, without the markup of the sending: each protected span back
 * to its placeholder, the text unescaped, tags kept. That is how a TMX of another tool holds the
 * unit (inline codes read as their text: `Hello <ph>{{name}}</ph>` is `Hello {{name}}`).
 */
export function plainOfHtml(html: string): string {
  let out = '';
  let last = 0;
  SPANS.lastIndex = 0;
  for (let m = SPANS.exec(html); m; m = SPANS.exec(html)) {
    out += unescapeHtml(html.slice(last, m.index)) + unescapeHtml(m[1]);
    last = m.index + m[0].length;
  }
  return out + unescapeHtml(html.slice(last));
}

/** a protected span (its content is escaped text: no tag), a tag, a comment */
const BACK = /(<span\s+class\s*=\s*(?:"notranslate"|'notranslate'|notranslate)\s*>)([^<]*)<\/span>|<\/?[A-Za-z][\w:.-]*(?:[\s/][^<>]*)?>|<!--[\s\S]*?-->/gi;

/**
 * Reads a translation back into pieces: protected spans become the tokens (or raw pieces) of
 * the source they name, tags stay tags, text is unescaped and tokenized again (a placeholder the
 * service wrote outside a span is still a placeholder, so the check sees it).
 */
export function fromHtml(html: string, source: readonly Piece[], opts: ProtectOptions = {}): Piece[] {
  const known = new Map<string, Piece>();
  for (const p of source) if (p.kind !== 'text') known.set(p.value, p);
  // a directive the service wrote outside its span is read by the unit's own grammar
  const o: ProtectOptions = { ...opts, skeletons: undefined, syntax: opts.syntax ?? syntaxOf(source) };
  const out: Piece[] = [];
  let last = 0;
  const text = (s: string) => {
    if (s) out.push(...tokenize(unescapeHtml(s), o));
  };
  BACK.lastIndex = 0;
  for (let m = BACK.exec(html); m; m = BACK.exec(html)) {
    text(html.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] !== undefined) {
      const p = known.get(unescapeHtml(m[2]));
      if (p) out.push({ ...p });
      else {
        // not a placeholder vx protected: the string's own notranslate span (a brand name kept
        // from machine translation), markup around text
        out.push({ kind: 'token', value: m[1], tag: 'html' });
        text(m[2]);
        out.push({ kind: 'token', value: m[0].slice(m[1].length + m[2].length), tag: 'html' });
      }
    } else out.push({ kind: 'token', value: m[0], tag: 'html' });
  }
  text(html.slice(last));
  // the source's white space around the translation, in place of the service's
  const [lead, trail] = edges(source);
  const core = mergeText(out);
  const n = core.length - 1;
  if (core[0]?.kind === 'text') core[0].value = core[0].value.trimStart();
  if (core[n]?.kind === 'text') core[n].value = core[n].value.trimEnd();
  return mergeText([{ kind: 'text', value: lead }, ...core, { kind: 'text', value: trail }]).filter((p) => p.kind !== 'text' || p.value);
}

/** The syntax a unit's pieces were read with (the printf grammar of its directives). */
export function syntaxOf(pieces: readonly Piece[]): Syntax | undefined {
  const fmt = pieces.find((p) => p.fmt)?.fmt;
  return fmt ? { printf: fmt } : undefined;
}

/**
 * What is wrong with a translation of `source` (undefined when nothing): placeholders missing,
 * added, reordered where their format fixes the order, ICU syntax changed, control characters or
 * line breaks the source does not have. See checks.ts.
 */
export function placeholderProblem(source: readonly Piece[], translation: readonly Piece[], opts: ProtectOptions = {}): string | undefined {
  return translationProblem(source, translation, opts);
}
