// What a translation must keep of its source, checked on every answer of the service before it is
// written (and by `vx translate check` on catalogues whoever translated them):
// - the same placeholders (as a multiset: a translation may reorder `{0}` and `{1}`);
// - printf directives by their format's rules (printf.ts: an unnumbered `%s` may not trade places
//   with a `%d`; a numbered `%1$s` may move);
// - the same ICU arguments (names, types, styles, case keys), read again with the ICU parser;
// - inline elements nested as in the source (an XLIFF <pc>, an HTML tag, an ICU case: the target
//   must stay well-formed);
// - no control character and no line break the source does not have (a service's U+0007 makes an
//   XLIFF target that is not XML, a line break splits a Markdown heading). characterProblem is also
//   the `check` of formats that need only it.
import { directivesProblem, type Flavour } from './printf.js';
import { joinWithSentinels, tokenize, type Piece, type ProtectOptions } from './tokens.js';

/** How a translation is compared with its source beyond the placeholders' own rules. */
export interface CheckOptions extends ProtectOptions {
  /**
   * a translation made for another language by anyone (vx translate check): its ICU plurals have
   * that language's case keys (compared by the arguments they hold, their syntax apart)
   */
  languages?: { source?: string; target?: string };
  /** a plural form for one number (a singular): it may leave out placeholders of its source form ("one file") */
  mayOmit?: boolean;
}

/** The placeholders of pieces, sorted (raw pieces marked), white space normalised; ICU syntax left to the skeleton check when `icu` is false. */
function placeholders(pieces: readonly Piece[], icu = true): string[] {
  const all: string[] = [];
  for (const p of pieces) if (p.kind !== 'text' && (icu || p.tag !== 'icu')) all.push(p.kind === 'raw' ? `raw:${p.value}` : p.value.replace(/\s+/g, ' '));
  return all.sort();
}

function countOf(xs: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

function placeholderDiff(source: readonly Piece[], translation: readonly Piece[], o: CheckOptions): string | undefined {
  const ca = countOf(placeholders(source, !o.languages));
  const cb = countOf(placeholders(translation, !o.languages));
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [k, n] of ca) for (let i = cb.get(k) ?? 0; i < n; i++) missing.push(k);
  for (const [k, n] of cb) for (let i = ca.get(k) ?? 0; i < n; i++) extra.push(k);
  const show = (xs: string[]) => xs.map((x) => x.replace(/^raw:/, '')).join(' ');
  const parts: string[] = [];
  if (missing.length && !o.mayOmit) parts.push(`missing ${show(missing)}`);
  if (extra.length) parts.push(`unexpected ${show(extra)}`);
  return parts.length ? parts.join('; ') : undefined;
}

function printfOrder(source: readonly Piece[], translation: readonly Piece[], o: CheckOptions): string | undefined {
  const fmt = source.find((p) => p.fmt)?.fmt;
  if (!fmt) return undefined;
  const of = (ps: readonly Piece[], f: Flavour) => ps.filter((p) => p.kind === 'token' && p.tag === 'printf' && p.fmt === f).map((p) => p.value);
  const [a, b] = [of(source, fmt), of(translation, fmt)];
  // (a singular that leaves the number out: gettext allows it)
  if (o.mayOmit && b.length < a.length) return undefined;
  return directivesProblem(fmt, a, b);
}

/** The skeletons of the ICU arguments of pieces, read again across their raw pieces. */
export function icuSkeletons(pieces: readonly Piece[], opts: ProtectOptions = {}): string[] | undefined {
  const joined = joinWithSentinels(pieces);
  if (joined === undefined) return undefined;
  const skeletons: string[] = [];
  tokenize(joined, { ...opts, skeletons });
  return skeletons;
}

function icuProblem(source: readonly Piece[], translation: readonly Piece[], o: CheckOptions): string | undefined {
  if (!source.some((p) => p.tag === 'icu')) return undefined;
  const { languages, mayOmit: _, ...opts } = o;
  const a = icuSkeletons(source, languages ? { ...opts, loosePlurals: { lang: languages.source } } : opts);
  const b = icuSkeletons(translation, languages ? { ...opts, loosePlurals: { lang: languages.target } } : opts);
  // (arguments are named: a translation may put them in another order)
  if (!a || !b || a.sort().join('\u0000') === b.sort().join('\u0000')) return undefined;
  const gone = a.find((s) => !b.includes(s));
  if (languages) return `ICU message changed: ${clip(gone ?? a.join(' '))} is ${clip(b.join(' ') || 'no ICU argument')} in the translation`;
  return `ICU message changed: ${clip(gone ?? a.join(' '))} is no longer read as such`;
}

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr', 'x', 'bx', 'ex', 'ph', 'sc', 'ec']);

/** Opening and closing of a piece: tags by name, ICU syntax by its braces; undefined when it neither opens nor closes. */
function nestingOf(p: Piece): { open: string[]; close: string[] } | undefined {
  if (p.kind === 'text') return undefined;
  if (p.tag === 'icu') {
    const open: string[] = [];
    const close: string[] = [];
    for (const c of p.value) {
      if (c === '{') open.push('{');
      else if (c === '}') {
        if (open.length) open.pop();
        else close.push('{');
      }
    }
    return { open, close };
  }
  if (p.kind !== 'raw' && p.tag !== 'html') return undefined;
  const m = /^<(\/?)([A-Za-z_][\w:.-]*)[^>]*?(\/?)>$/.exec(p.value);
  if (!m || m[3] || VOID.has(m[2].toLowerCase().replace(/^.*:/, ''))) return undefined;
  return m[1] ? { open: [], close: [m[2]] } : { open: [m[2]], close: [] };
}

/** The first place where the pieces' elements do not nest (undefined when they do). */
function misnested(pieces: readonly Piece[]): string | undefined {
  const stack: string[] = [];
  for (const p of pieces) {
    const n = nestingOf(p);
    if (!n) continue;
    for (const c of n.close) if (stack.pop() !== c) return p.value;
    stack.push(...n.open);
  }
  return stack.length ? `${stack[stack.length - 1]} (never closed)` : undefined;
}

function nestingProblem(source: readonly Piece[], translation: readonly Piece[]): string | undefined {
  if (misnested(source) !== undefined) return undefined;
  const at = misnested(translation);
  return at === undefined ? undefined : `inline elements no longer nest as in the source (at ${clip(at)})`;
}

// C0 controls but tab and line breaks, DEL, C1 controls, U+FFFE/U+FFFF, lone surrogates
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;

const textOf = (pieces: readonly Piece[]) => pieces.filter((p) => p.kind === 'text').map((p) => p.value).join('');

/** A character of a translation's text that no file should get (and its source does not have), or a line break where the source has none. */
export function characterProblem(source: readonly Piece[], translation: readonly Piece[]): string | undefined {
  const a = textOf(source);
  const b = textOf(translation);
  const m = CONTROL.exec(b);
  if (m && !a.includes(m[0])) return `the translation has the control character U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (LINE_BREAK.test(b) && !LINE_BREAK.test(a)) return 'the translation has a line break the source does not have';
  return undefined;
}

/**
 * What is wrong with a translation of `source` (undefined when nothing): "missing {0}",
 * "unexpected <b>", "c-format: argument 1 is %s in the translation, %d in the source...",
 * "ICU message changed: ...", "the translation has the control character U+0007".
 */
export function translationProblem(source: readonly Piece[], translation: readonly Piece[], opts: CheckOptions = {}): string | undefined {
  return placeholderDiff(source, translation, opts) ?? printfOrder(source, translation, opts) ?? icuProblem(source, translation, opts) ?? nestingProblem(source, translation) ?? characterProblem(source, translation);
}
