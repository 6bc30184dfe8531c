// Java .properties resource bundles, read by hand with java.util.Properties' own rules (logical
// lines joined by a trailing backslash, `#`/`!` comments, key ended by an unescaped `=`, `:` or
// white space, `\uXXXX` and `\t\n\r\f` escapes): no JavaScript reader keeps the offsets a
// byte-for-byte target needs. A target is the source with each translated value replaced (on one
// logical line), untranslated keys left out (ResourceBundle falls back to the base bundle).
//
// Charset: ISO-8859-1 (java.util.Properties.load(InputStream)) unless the file is valid UTF-8 with
// non-ASCII bytes (what PropertyResourceBundle reads since Java 9); a target is written in the
// source's charset, and in ISO-8859-1 every non-ASCII character of a translation as `\uXXXX`.
//
// MessageFormat: a value with an argument (`{0}`, `{1,number,integer}`) or a doubled quote is a
// pattern: its arguments are placeholders, `''` is a quote, a quoted `'...'` literal is kept
// verbatim, and a translation's quotes are doubled again.
import { isUtf8 } from 'node:buffer';
import type { Piece } from './protect.js';
import { characterProblem } from './checks.js';
import { applyEdits, hash, isLanguage, lineAt, type FileEncoding, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc } from './types.js';

interface Entry {
  key: string;
  /** the whole logical line, from its first character to its end (line break excluded) */
  start: number;
  end: number;
  /** the raw value */
  valueStart: number;
}

interface PUnit extends SourceUnit {
  entry: Entry;
  pattern: boolean;
}

interface PSource extends SourceDoc {
  pUnits: PUnit[];
}

interface PTarget extends TargetDoc {
  entries: Map<string, Entry>;
}


const ESC: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

/** A key or value with its escapes resolved (line continuations already removed). */
function unescape(s: string): string {
  return s.replace(/\\(u[0-9A-Fa-f]{4}|[\s\S])/g, (_m, e: string) => (e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (ESC[e] ?? e)));
}

/** The logical lines of a file: each entry's key, where it starts, ends and where its value starts. */
function entries(text: string): Entry[] {
  const out: Entry[] = [];
  let i = 0;
  while (i < text.length) {
    // leading white space, then a comment, a blank line or an entry
    while (i < text.length && ' \t\f'.includes(text[i])) i++;
    const start = i;
    let end = i;
    // the logical line: a line ending in an odd number of backslashes goes on
    for (;;) {
      let j = end;
      while (j < text.length && text[j] !== '\n' && text[j] !== '\r') j++;
      let slashes = 0;
      for (let k = j - 1; k >= end && text[k] === '\\'; k--) slashes++;
      end = j;
      const isComment = text[start] === '#' || text[start] === '!';
      if (isComment || slashes % 2 === 0 || j >= text.length) break;
      end = j + (text.startsWith('\r\n', j) ? 2 : 1);
      while (end < text.length && ' \t\f'.includes(text[end])) end++;
    }
    if (end > start && text[start] !== '#' && text[start] !== '!') out.push(parseEntry(text, start, end));
    i = end;
    if (text.startsWith('\r\n', i)) i += 2;
    else if (i < text.length) i++;
  }
  return out;
}

function parseEntry(text: string, start: number, end: number): Entry {
  let k = start;
  while (k < end && !'=: \t\f'.includes(text[k])) k += text[k] === '\\' ? 2 : 1;
  const rawKey = text.slice(start, Math.min(k, end));
  let v = k;
  while (v < end && ' \t\f'.includes(text[v])) v++;
  if (v < end && (text[v] === '=' || text[v] === ':')) v++;
  while (v < end && ' \t\f'.includes(text[v])) v++;
  return { key: unescape(joinLines(rawKey)), start, end, valueStart: v };
}

/** A raw value's continuation lines joined as Properties joins them (the backslash, line break and leading white space go). */
function joinLines(raw: string): string {
  return raw.replace(/\\(\r\n|\r|\n)[ \t\f]*/g, (m, _nl, offset: number, s: string) => {
    let slashes = 0;
    for (let k = offset - 1; k >= 0 && s[k] === '\\'; k--) slashes++;
    return slashes % 2 === 0 ? '' : m;
  });
}

/** a bundle name's locale suffix, as ResourceBundle writes it: _de, _pt_BR, _zh_Hans, _sr_Latn_RS, _es_419 */
const BUNDLE_LANGUAGE = /_([a-z]{2,3}(?:_[A-Z][a-z]{3})?(?:_[A-Z]{2}|_\d{3})?)$/;

const isPattern = (v: string) => /\{\d/.test(v) || v.includes("''");

/** A MessageFormat argument's end (balanced braces), from its `{`. */
function argumentEnd(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    if (s[j] === '{') depth++;
    else if (s[j] === '}' && --depth === 0) return j + 1;
  }
  return s.length;
}

/** A MessageFormat pattern as pieces: arguments as tokens, quoted literals raw, `''` a quote. */
function patternPieces(s: string): Piece[] {
  const out: Piece[] = [];
  let text = '';
  const push = (p: Piece) => {
    if (text) out.push({ kind: 'text', value: text });
    text = '';
    out.push(p);
  };
  for (let i = 0; i < s.length; ) {
    if (s.startsWith("''", i)) {
      text += "'";
      i += 2;
    } else if (s[i] === "'") {
      const close = s.indexOf("'", i + 1);
      const end = close < 0 ? s.length : close + 1;
      push({ kind: 'raw', value: s.slice(i, end) });
      i = end;
    } else if (s[i] === '{') {
      const end = argumentEnd(s, i);
      push({ kind: 'token', value: s.slice(i, end), tag: 'other' });
      i = end;
    } else text += s[i++];
  }
  if (text) out.push({ kind: 'text', value: text });
  return out;
}

/** A translation as a .properties value: pattern quotes doubled, escapes for the file's syntax and charset. */
function encode(pieces: readonly Piece[], pattern: boolean, charset: FileEncoding | undefined): string {
  const value = pieces.map((p) => (pattern && p.kind === 'text' ? p.value.replaceAll("'", "''") : p.value)).join('');
  const escaped = value.replace(/[\\\t\n\r\f]/g, (c) => (c === '\\' ? '\\\\' : `\\${'tnrf'['\t\n\r\f'.indexOf(c)]}`)).replace(/^ /, '\\ ');
  return charset !== 'utf8' ? escaped.replace(/[^\u0000-\u007e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : escaped;
}

export const properties: FileFormat = {
  name: 'properties',
  /** ISO-8859-1, unless the bytes are UTF-8 with non-ASCII characters (see the head of this file) */
  decode(data) {
    const utf8 = isUtf8(data) && data.some((b) => b >= 0x80);
    return { text: Buffer.from(data).toString(utf8 ? 'utf8' : 'latin1'), encoding: utf8 ? 'utf8' : 'latin1' };
  },
  encode: (text, encoding) => Buffer.from(text, encoding === 'utf8' ? 'utf8' : 'latin1'),

  parseSource(text, file): PSource {
    const seen = new Map<string, number>();
    const pUnits: PUnit[] = [];
    for (const entry of entries(text)) {
      const line = lineAt(text, entry.start);
      if (seen.has(entry.key)) continue;
      seen.set(entry.key, line);
      const raw = text.slice(entry.valueStart, entry.end);
      const value = unescape(joinLines(raw));
      const pattern = isPattern(value);
      pUnits.push({ key: entry.key, parts: [pattern ? patternPieces(value) : [{ kind: 'text', value }]], hash: hash(raw), line, entry, pattern });
    }
    const name = file.split(/[\\/]/).pop()!.replace(/\.properties$/i, '');
    const lang = BUNDLE_LANGUAGE.exec(name)?.[1];
    const language = lang && isLanguage(lang) ? lang.replaceAll('_', '-') : undefined;
    return { format: 'properties', file, text, units: pUnits, pUnits, ...(language ? { language } : {}) };
  },

  parseTarget(text): PTarget {
    const map = new Map<string, Entry>();
    for (const e of entries(text)) if (!map.has(e.key)) map.set(e.key, e);
    return { text, values: new Map([...map].map(([k, e]) => [k, text.slice(e.valueStart, e.end)])), entries: map, lines: new Map([...map].map(([k, e]) => [k, lineAt(text, e.start)])) };
  },

  render(source, _lang, values, target): string {
    const src = source as PSource;
    const old = target as PTarget | undefined;
    const edits: [number, number, string][] = [];
    for (const u of src.pUnits) {
      const v = values.get(u.key);
      const e = u.entry;
      if (!v) {
        // the logical line with its line break
        const nl = /^\r?\n/.exec(src.text.slice(e.end, e.end + 2))?.[0] ?? '';
        edits.push([src.text.lastIndexOf('\n', e.start - 1) + 1, e.end + nl.length, '']);
      } else if (v.kind === 'keep') {
        const was = old!.entries.get(u.key)!;
        edits.push([e.valueStart, e.end, old!.text.slice(was.valueStart, was.end)]);
      } else edits.push([e.valueStart, e.end, encode(v.parts[0], u.pattern, src.encoding)]);
    }
    return applyEdits(src.text, edits);
  },

  written: (source, unit, value) => encode(value.parts[0], (unit as PUnit).pattern, source.encoding),

  check: characterProblem,
  translations(unit, value) {
    const text = unescape(joinLines(value));
    return [{ source: unit.parts[0], translation: (unit as PUnit).pattern ? patternPieces(text) : [{ kind: 'text', value: text }] }];
  },

  targetName(name, lang) {
    return propertiesTargetPath(name, lang);
  },
};

/** messages.properties, messages_en.properties -> messages_de.properties (pt-BR: _pt_BR, zh-Hans: _zh_Hans), as ResourceBundle names them. */
export function propertiesTargetPath(path: string, lang: string): string {
  const ext = /\.properties$/i.exec(path)?.[0] ?? '';
  const name = path.slice(0, path.length - ext.length);
  const named = BUNDLE_LANGUAGE.exec(name);
  const base = named && isLanguage(named[1]) ? name.slice(0, named.index) : name;
  return `${base}_${lang.replaceAll('-', '_')}${ext || '.properties'}`;
}
