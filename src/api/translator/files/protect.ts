// Placeholders and markup that a translation must never change, protected before sending and
// checked after. A unit's text is a list of pieces: `text` (translatable), `token` (a placeholder:
// printf, .NET/AL, i18next, ICU, HTML tags and entities, --protect matches) and `raw` (a
// format's own inline markup, e.g. an XLIFF <x/> element, written back verbatim).
//
// What is sent is HTML (textType=html): text escaped, HTML tags as markup (the service keeps
// them and may move them with the words they wrap), every other token inside
// `<span class="notranslate">` (the service leaves such spans alone). What comes back is split
// the same way and checked: the same placeholders (as a multiset: a translation may reorder
// arguments) and ICU's plural/select syntax in the same order, else the unit is not written as
// translated.

export type PieceKind = 'text' | 'token' | 'raw';

export interface Piece {
  kind: PieceKind;
  /** logical text (text, token) or the format's raw markup (raw) */
  value: string;
  /** for tokens: what kind of placeholder (ICU syntax must keep its order; HTML tags are sent as markup) */
  tag?: 'html' | 'icu' | 'md' | 'other';
}

export interface ProtectOptions {
  /** extra token patterns (--protect) */
  custom?: readonly RegExp[];
}

const HTML_TAG = /<\/?[A-Za-z][\w:.-]*(?:\s+[^<>]*?)?\s*\/?>|<!--[\s\S]*?-->/y;
const ENTITY = /&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);/y;
const PRINTF = /%(?:%|\d+\$[-+0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspn@]|[-+0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcsp@]|\{[A-Za-z_][\w.]*\}|\([A-Za-z_]\w*\)[-+0#]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|\d+)/y;
const I18NEXT = /\{\{[^{}]+\}\}/y;
const DOTNET = /\{\d+(?:\s*,\s*-?\d+)?(?::[^{}]*)?\}/y;
const ICU_SIMPLE = /\{\s*[\p{L}_][\p{L}\p{N}_.-]*\s*(?:,\s*(?:number|date|time|spellout|ordinal|duration)\s*(?:,[^{}]*)?)?\}/uy;
const ICU_COMPLEX_HEAD = /\{\s*[\p{L}_][\p{L}\p{N}_.-]*\s*,\s*(?:plural|select|selectordinal)\s*,\s*(?:offset:\s*\d+\s*)?/uy;
/** attribute lists of Markdown extensions (Pandoc, Markdown Extra, kramdown, MkDocs, Hugo): `## Title {#title}`, `{: .note}` */
const ATTRIBUTES = /\{:?[ \t]*[#.][A-Za-z_][\w.:-]*(?:[ \t]+[^{}\n]*)?\}/y;
const ICU_CASE = /\s*(?:=\s*-?\d+|[\p{L}_][\p{L}\p{N}_-]*)\s*\{/uy;

/** `$t(key)` / `$t(key, {"count": 1})`: the call with balanced parentheses, or undefined. */
function nesting(s: string, i: number): number | undefined {
  if (!s.startsWith('$t(', i)) return undefined;
  let depth = 0;
  for (let j = i + 2; j < s.length; j++) {
    if (s[j] === '(') depth++;
    else if (s[j] === ')' && --depth === 0) return j + 1;
  }
  return undefined;
}

function sticky(re: RegExp, s: string, i: number): number | undefined {
  re.lastIndex = i;
  const m = re.exec(s);
  return m ? i + m[0].length : undefined;
}

/**
 * An ICU plural/select argument starting at `i`: its syntax (head, case openers, closers, `#`)
 * becomes tokens, the case messages are split recursively. Undefined when it is not one.
 */
function icuComplex(s: string, i: number, opts: ProtectOptions, out: Piece[]): number | undefined {
  let j = sticky(ICU_COMPLEX_HEAD, s, i);
  if (j === undefined) return undefined;
  const plural = /,\s*(?:plural|selectordinal)\s*,/u.test(s.slice(i, j));
  const pieces: Piece[] = [];
  let syntax = s.slice(i, j);
  let cases = 0;
  for (;;) {
    const open = sticky(ICU_CASE, s, j);
    if (open === undefined) break;
    syntax += s.slice(j, open);
    pieces.push({ kind: 'token', value: syntax, tag: 'icu' });
    syntax = '';
    // the message up to the matching close brace
    let depth = 1;
    let k = open;
    for (; k < s.length; k++) {
      if (s[k] === '{') depth++;
      else if (s[k] === '}' && --depth === 0) break;
    }
    if (k >= s.length) return undefined;
    splitInto(s.slice(open, k), opts, pieces, plural);
    syntax = '}';
    j = k + 1;
    cases++;
  }
  const close = /\s*\}/y;
  close.lastIndex = j;
  const m = close.exec(s);
  if (!cases || !m) return undefined;
  syntax += m[0];
  pieces.push({ kind: 'token', value: syntax, tag: 'icu' });
  out.push(...pieces);
  return j + m[0].length;
}

function splitInto(s: string, opts: ProtectOptions, out: Piece[], inPlural = false): void {
  let text = '';
  const token = (value: string, tag: Piece['tag'] = 'other') => {
    if (text) out.push({ kind: 'text', value: text });
    text = '';
    out.push({ kind: 'token', value, tag });
  };
  let i = 0;
  outer: while (i < s.length) {
    const c = s[i];
    for (const re of opts.custom ?? []) {
      const e = sticky(re, s, i);
      if (e !== undefined && e > i) {
        token(s.slice(i, e));
        i = e;
        continue outer;
      }
    }
    let end: number | undefined;
    if (c === '%') end = sticky(PRINTF, s, i);
    else if (c === '{') {
      end = sticky(I18NEXT, s, i) ?? sticky(DOTNET, s, i) ?? sticky(ICU_SIMPLE, s, i) ?? sticky(ATTRIBUTES, s, i);
      if (end === undefined) {
        const before = out.length;
        if (text) out.push({ kind: 'text', value: text });
        const e = icuComplex(s, i, opts, out);
        if (e !== undefined) {
          text = '';
          i = e;
          continue;
        }
        out.length = before;
      }
    } else if (c === '$') end = nesting(s, i);
    else if (c === '<') {
      end = sticky(HTML_TAG, s, i);
      if (end !== undefined) {
        token(s.slice(i, end), 'html');
        i = end;
        continue;
      }
    } else if (c === '&') end = sticky(ENTITY, s, i);
    else if (c === '#' && inPlural) end = i + 1;
    if (end !== undefined) {
      token(s.slice(i, end), c === '#' ? 'icu' : 'other');
      i = end;
      continue;
    }
    text += c;
    i++;
  }
  if (text) out.push({ kind: 'text', value: text });
}

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

/**
 * Splits text pieces further into text and placeholder tokens (token and raw pieces are kept).
 * Adjacent text pieces are merged.
 */
export function tokenize(pieces: readonly Piece[] | string, opts: ProtectOptions = {}): Piece[] {
  const input = typeof pieces === 'string' ? [{ kind: 'text' as const, value: pieces }] : pieces;
  const out: Piece[] = [];
  for (const p of input) {
    if (p.kind === 'text') splitInto(p.value, opts, out);
    else out.push(p);
  }
  return mergeText(out);
}

function mergeText(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if (p.kind === 'text' && last?.kind === 'text') last.value += p.value;
    else out.push({ ...p });
  }
  return out;
}

/** Whether there is anything to translate (a letter outside the placeholders). */
export function translatable(pieces: readonly Piece[]): boolean {
  return pieces.some((p) => p.kind === 'text' && /\p{L}/u.test(p.value));
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
  const lead = first?.kind === 'text' ? /^\s*/u.exec(first.value)![0] : '';
  const trail = last?.kind === 'text' && !(first === last && lead === first.value) ? /\s*$/u.exec(last.value)![0] : '';
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
const BACK = /(<span\s+class\s*=\s*(?:"notranslate"|'notranslate'|notranslate)\s*>)([^<]*)<\/span>|<\/?[A-Za-z][\w:.-]*(?:\s+[^<>]*?)?\s*\/?>|<!--[\s\S]*?-->/gi;

/**
 * Reads a translation back into pieces: protected spans become the tokens (or raw pieces) of
 * the source they name, tags stay tags, text is unescaped and tokenized again (a placeholder the
 * service wrote outside a span is still a placeholder, so the check sees it).
 */
export function fromHtml(html: string, source: readonly Piece[], opts: ProtectOptions = {}): Piece[] {
  const known = new Map<string, Piece>();
  for (const p of source) if (p.kind !== 'text') known.set(p.value, p);
  const out: Piece[] = [];
  let last = 0;
  const text = (s: string) => {
    if (s) out.push(...tokenize(unescapeHtml(s), opts));
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

/** The placeholders of pieces: [every token/raw value sorted, ICU syntax in order]. */
function signature(pieces: readonly Piece[]): { all: string[]; icu: string[] } {
  const all: string[] = [];
  const icu: string[] = [];
  for (const p of pieces) {
    if (p.kind === 'text') continue;
    const v = p.kind === 'raw' ? `raw:${p.value}` : p.value.replace(/\s+/g, ' ');
    all.push(v);
    if (p.tag === 'icu' && p.value !== '#') icu.push(v);
  }
  all.sort();
  return { all, icu };
}

/**
 * What differs between the placeholders of a source and its translation (undefined when they
 * match): "missing {0}", "unexpected <b>", "ICU syntax reordered".
 */
export function placeholderProblem(source: readonly Piece[], translation: readonly Piece[]): string | undefined {
  const a = signature(source);
  const b = signature(translation);
  const count = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
  const ca = count(a.all);
  const cb = count(b.all);
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [k, n] of ca) for (let i = cb.get(k) ?? 0; i < n; i++) missing.push(k);
  for (const [k, n] of cb) for (let i = ca.get(k) ?? 0; i < n; i++) extra.push(k);
  const show = (xs: string[]) => xs.map((x) => x.replace(/^raw:/, '')).join(' ');
  const parts: string[] = [];
  if (missing.length) parts.push(`missing ${show(missing)}`);
  if (extra.length) parts.push(`unexpected ${show(extra)}`);
  if (!parts.length && a.icu.join('\u0000') !== b.icu.join('\u0000')) parts.push('ICU plural/select syntax reordered');
  return parts.length ? parts.join('; ') : undefined;
}

/** The logical text of pieces (raw pieces as they are). */
export function piecesText(pieces: readonly Piece[]): string {
  return pieces.map((p) => p.value).join('');
}
