// Apple .strings tables (`"key" = "value";` with /* */ and // comments), read by hand: they are
// old-style property lists, which no well-kept JavaScript library reads with offsets (plist
// libraries read the XML and binary forms). UTF-16 (with its byte order mark, as Xcode long wrote
// them) or UTF-8; a target is written in the source's charset. A target is the source with each
// translated value replaced; a value left untranslated stays in the source language (a key
// missing from a table shows the key itself, not the development language's text).
import { UsageError } from '../../../core/errors.js';
import { characterProblem } from './checks.js';
import { withSyntax } from './app-syntax.js';
import type { Piece } from './protect.js';
import { applyEdits, hash, lineAt, type FileEncoding, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc } from './types.js';

interface Entry {
  key: string;
  keyStart: number;
  /** the value as written (quotes included); a key-only entry (`"key";`) has none */
  valueStart: number;
  valueEnd: number;
}

interface SUnit extends SourceUnit {
  /** every entry of the key (ibtool writes a text used twice in a nib twice; Apple reads the last) */
  entries: Entry[];
}

interface SSource extends SourceDoc {
  sUnits: SUnit[];
}

interface STarget extends TargetDoc {
  entries: Map<string, Entry>;
}

const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', f: '\f', v: '\v', '0': '\0' };

/** A quoted string's content with its escapes resolved (\U and \u four hex digits, octal, \n...). */
export function unescapeStrings(s: string): string {
  return s.replace(/\\([Uu][0-9A-Fa-f]{4}|[0-7]{1,3}|[\s\S])/g, (_m, e: string) => {
    if (e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e) && e !== '0') return String.fromCharCode(parseInt(e, 8));
    return ESC[e] ?? e;
  });
}

/** A value as a quoted string. */
export function quoteStrings(s: string): string {
  return `"${s.replace(/[\\"\n\t\r]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : c === '\n' ? '\\n' : c === '\t' ? '\\t' : '\\r'))}"`;
}

/** The entries of a table, in order; a syntax error is a usage error naming file:line. */
function entries(text: string, file: string): Entry[] {
  const out: Entry[] = [];
  let i = 0;
  const fail = (what: string) => new UsageError(`${file}:${lineAt(text, i)}: malformed .strings: ${what}`);
  const skip = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i])) i++;
      if (text.startsWith('/*', i)) {
        const e = text.indexOf('*/', i + 2);
        if (e < 0) throw fail('a comment is not closed');
        i = e + 2;
      } else if (text.startsWith('//', i)) {
        const e = text.indexOf('\n', i);
        i = e < 0 ? text.length : e + 1;
      } else return;
    }
  };
  const token = (): [number, number] => {
    const start = i;
    if (text[i] === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (i >= text.length) throw fail('a string is not closed');
      i++;
    } else {
      while (i < text.length && /[\w.$:/-]/.test(text[i])) i++;
      if (i === start) throw fail(`expected a string, found ${JSON.stringify(text.slice(i, i + 20))}`);
    }
    return [start, i];
  };
  const value = (s: number, e: number) => (text[s] === '"' ? unescapeStrings(text.slice(s + 1, e - 1)) : text.slice(s, e));
  for (skip(); i < text.length; skip()) {
    const [ks, ke] = token();
    skip();
    let vs = ke;
    let ve = ke;
    if (text[i] === '=') {
      i++;
      skip();
      [vs, ve] = token();
      skip();
    }
    if (text[i] !== ';') throw fail(`expected ; after the entry of ${JSON.stringify(value(ks, ke))}`);
    i++;
    out.push({ key: value(ks, ke), keyStart: ks, valueStart: vs, valueEnd: ve });
  }
  return out;
}

function entryValue(text: string, e: Entry): string {
  if (e.valueStart === e.valueEnd) return e.key;
  const raw = text.slice(e.valueStart, e.valueEnd);
  return raw.startsWith('"') ? unescapeStrings(raw.slice(1, -1)) : raw;
}

const encode = (pieces: readonly Piece[]) => quoteStrings(pieces.map((p) => p.value).join(''));

/** The charset of Apple's text resources (.strings): UTF-16 by its byte order mark, else UTF-8. */
export function decodeApple(data: Uint8Array): { text: string; encoding: FileEncoding } {
  const buf = Buffer.from(data);
  if (buf[0] === 0xff && buf[1] === 0xfe) return { text: buf.subarray(2).toString('utf16le'), encoding: 'utf16le' };
  if (buf[0] === 0xfe && buf[1] === 0xff) return { text: Buffer.from(buf.subarray(2)).swap16().toString('utf16le'), encoding: 'utf16be' };
  return { text: buf.toString('utf8').replace(/^\ufeff/, ''), encoding: 'utf8' };
}

export function encodeApple(text: string, encoding: FileEncoding): Uint8Array {
  if (encoding === 'utf16le') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  if (encoding === 'utf16be') return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
  return Buffer.from(text, 'utf8');
}

export const appleStrings: FileFormat = {
  name: 'strings',
  keepsSource: true,
  decode: decodeApple,
  encode: encodeApple,

  parseSource(text, file): SSource {
    const byKey = new Map<string, SUnit>();
    for (const entry of entries(text, file)) {
      const had = byKey.get(entry.key);
      const value = entryValue(text, entry);
      if (had) byKey.delete(entry.key);
      // in the order Apple reads them: a key given again takes its place (and value) there
      byKey.set(entry.key, { key: entry.key, parts: [withSyntax([{ kind: 'text', value }], 'objc')], hash: hash(value), line: lineAt(text, entry.keyStart), entries: [...(had?.entries ?? []), entry] });
    }
    const sUnits = [...byKey.values()];
    const language = lprojLanguage(file);
    return { format: 'strings', file, text, units: sUnits, sUnits, ...(language ? { language } : {}) };
  },

  parseTarget(text, file): STarget {
    const map = new Map(entries(text, file).map((e) => [e.key, e]));
    return { text, values: new Map([...map].map(([k, e]) => [k, text.slice(e.valueStart, e.valueEnd)])), entries: map, lines: new Map([...map].map(([k, e]) => [k, lineAt(text, e.keyStart)])) };
  },

  render(source, _lang, values, target): string {
    const src = source as SSource;
    const old = target as STarget | undefined;
    const edits: [number, number, string][] = [];
    for (const u of src.sUnits) {
      const v = values.get(u.key);
      // untranslated (or kept in the source language for review): the source's entry as it is
      if (!v || (v.kind === 'new' && v.review)) continue;
      const was = v.kind === 'keep' ? old!.entries.get(u.key)! : undefined;
      const value = was ? (was.valueStart === was.valueEnd ? quoteStrings(was.key) : old!.text.slice(was.valueStart, was.valueEnd)) : encode((v as Extract<typeof v, { kind: 'new' }>).parts[0]);
      // a key-only entry gets its value after the key
      for (const e of u.entries) edits.push(e.valueStart === e.valueEnd ? [e.valueEnd, e.valueEnd, ` = ${value}`] : [e.valueStart, e.valueEnd, value]);
    }
    return applyEdits(src.text, edits);
  },

  written: (_source, _unit, value) => encode(value.parts[0]),
  check: characterProblem,
  translations: (unit, value) => [{ source: unit.parts[0], translation: [{ kind: 'text', value: value.startsWith('"') ? unescapeStrings(value.slice(1, -1)) : value }] }],
  targetName: (name, lang) => lprojTargetPath(name, lang),
};

/** Old project directories named for a language in English (Xcode wrote them until 2009). */
const LEGACY_LPROJ: Record<string, string> = { English: 'en', German: 'de', French: 'fr', Japanese: 'ja', Spanish: 'es', Italian: 'it', Dutch: 'nl' };

/** The language of a file in a <lang>.lproj directory (Base.lproj names none). */
export function lprojLanguage(file: string): string | undefined {
  const dir = /([^\\/]+)\.lproj[\\/][^\\/]+$/.exec(file)?.[1];
  if (!dir || dir === 'Base') return undefined;
  return LEGACY_LPROJ[dir] ?? dir.replaceAll('_', '-');
}

/** en.lproj/Localizable.strings (or Base.lproj, English.lproj) -> de.lproj/Localizable.strings; elsewhere de.lproj/ beside the file. */
export function lprojTargetPath(path: string, lang: string): string {
  const parts = path.split('/');
  const target = `${lang.replaceAll('_', '-')}.lproj`;
  if (parts.length > 1 && parts[parts.length - 2].endsWith('.lproj')) parts[parts.length - 2] = target;
  else parts.splice(parts.length - 1, 0, target);
  return parts.join('/');
}
