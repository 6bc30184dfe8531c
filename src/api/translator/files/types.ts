// What every file format gives the translation of files: units (each one or more parts to
// translate) read from the source, the current target value of each unit read from an existing
// target, and a target rendered from the source with a value per unit, by surgical edits of the
// source text (what vx does not translate is copied byte for byte).
import { createHash } from 'node:crypto';
import type { Piece } from './piece.js';
import { findLanguage } from '../../../model/translator.js';

export const FORMAT_NAMES = ['xliff', 'json', 'yaml', 'po', 'md'] as const;
/** the formats of app platforms (Android, Apple, Flutter, .NET, Java) */
export const APP_FORMAT_NAMES = ['android', 'resx', 'properties', 'strings', 'stringsdict', 'xcstrings', 'arb'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];
export type AppFormatName = (typeof APP_FORMAT_NAMES)[number];

export interface SourceUnit {
  /** stable within the file: an XLIFF id, a JSON key path, a PO msgctxt+msgid, a Markdown block's text hash */
  key: string;
  /** the texts to translate (a PO plural entry has two, an i18next plural group one per form) */
  parts: Piece[][];
  /** hash of the unit's source (what the lock file compares) */
  hash: string;
  /** where the unit starts (1-based line), for messages */
  line: number;
}

/** A unit's value in a rendered target. */
export type UnitValue =
  /**
   * the existing target's value, carried over as it is. `review`: its source changed since a person
   * wrote it (XLIFF: a needs-review state). `from`: the key under which the target holds it, the
   * unit of a source that changed into this one (PO: msgmerge's fuzzy match, written fuzzy with the
   * old msgid as `#|`); only formats with `previous()` get it
   */
  | { kind: 'keep'; review?: boolean; from?: string }
  /** a new translation, one piece list per part; `review`: written, but marked for review (PO fuzzy) */
  | { kind: 'new'; parts: Piece[][]; review?: boolean };

export interface SourceDoc {
  format: FormatName | AppFormatName;
  file: string;
  text: string;
  /** the source language the file names (XLIFF source-language/srcLang, PO Language, a JSON file named en.json) */
  language?: string;
  units: SourceUnit[];
  /** the charset its bytes are in, where the format has more than one (FileFormat.decode says; else UTF-8) */
  encoding?: FileEncoding;
  /** a file that holds translations beside its source (a PO catalogue, an XLIFF file with targets): their language */
  targetLanguage?: string;
  /** units whose keys the user skips (skip.ts): not among `units`, written to targets as the source has them */
  skipped?: SourceUnit[];
}

/** A translation beside the source it translates (vx translate check). */
export interface TranslationPair {
  source: Piece[];
  translation: Piece[];
  /** a plural form for one number (a singular: "one file"): it may leave out placeholders of its source */
  mayOmit?: boolean;
}

/** The charsets of the formats that are not always UTF-8 (Apple .strings: UTF-16; Java .properties: ISO-8859-1). */
export type FileEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'latin1';

export interface TargetDoc {
  text: string;
  /** each unit's current translation, as one string (parts joined), for units that have one */
  values: Map<string, string>;
  /**
   * units whose value the file itself marks as not translated yet (XLIFF state="new",
   * "needs-translation", 2.x "initial": a tool's copy of the source): not adopted as translations
   * by hand when the lock has no entry for them
   */
  pending?: Set<string>;
  /**
   * the key a unit had in this target as an earlier vx wrote it, where it differs (XLIFF 2.x
   * segments with an id were keyed by position): a lock entry under it is the unit's entry
   */
  aliases?: Map<string, string>;
  /** where each unit's translation is in this file (1-based line), for messages */
  lines?: Map<string, number>;
  /** units whose translation the file marks as not in use (a PO entry flagged fuzzy: gettext does not use it) */
  unused?: Set<string>;
}

/** What reading a source may be told beyond its text (options of the run). */
export interface ReadOptions {
  /** Markdown: the front-matter keys whose values are text to translate (--front-matter title,description) */
  frontMatter?: readonly string[];
  /** i18next JSON: the plural suffixes the app reads (v4 `_one`/`_other`; v3 `key`/`key_plural`, `key_0`...); default: detected from the file */
  i18next?: 'v3' | 'v4';
  /** the source language when the run says it (--from): what a format reads by it (i18next v3's suffixes) */
  from?: string;
}

export interface RenderOptions {
  /** XLIFF: the state written on machine-translated segments */
  state?: string;
  /** PO: machine translations are marked fuzzy */
  fuzzy?: boolean;
}

export interface FileFormat {
  name: FormatName | AppFormatName;
  /** its file holds every language (an Apple String Catalog): the targets are written into the source */
  inPlace?: boolean;
  /**
   * a unit left untranslated stays in the source language in the target (rendered from a `new`
   * value with `review` and the source's parts), not left out: the app would show a key, not text
   */
  keepsSource?: boolean;
  /**
   * a unit without a value stays as the source has it (the target is the source with the
   * translations edited in: a YAML value, a Markdown block): in the source language, not left out
   */
  leavesSource?: boolean;
  parseSource(text: string, file: string, opts?: ReadOptions): SourceDoc;
  /** `order`: the unit keys of the target as vx last wrote it (Markdown aligns blocks by it) */
  parseTarget(text: string, file: string, source: SourceDoc, lang: string, order?: readonly string[]): TargetDoc;
  /**
   * The target for `lang`: the source with each unit's value (a unit without one is left
   * untranslated), and the file's language set to `lang`.
   */
  render(source: SourceDoc, lang: string, values: Map<string, UnitValue>, target: TargetDoc | undefined, opts: RenderOptions): string;
  /**
   * What parseTarget will read as the unit's value once `value` (a new translation) is rendered,
   * without parsing the rendered target again (optional: without it the caller parses it).
   */
  written?(source: SourceDoc, unit: SourceUnit, value: Extract<UnitValue, { kind: 'new' }>, lang: string, target: TargetDoc | undefined): string;
  /** A file's text from its bytes, for a format whose charset is not always UTF-8 (without it: UTF-8). */
  decode?(data: Uint8Array, file: string): { text: string; encoding: FileEncoding };
  /** A rendered target's bytes in the source's charset (with decode). */
  encode?(text: string, encoding: FileEncoding): Uint8Array;
  /**
   * What makes a checked translation unfit for this format (characters it cannot hold, a line
   * break where one breaks its structure), or undefined: such a unit is left untranslated.
   */
  check?(source: readonly Piece[], translation: readonly Piece[]): string | undefined;
  /**
   * For a unit the target lacks: the key under which the target holds the translation of the
   * source it changed from (PO: the entry msgmerge would match fuzzily), when the format finds one.
   */
  previous?(source: SourceDoc, target: TargetDoc, units: readonly SourceUnit[]): Map<string, string>;
  /**
   * vx translate check: a target's translation of a unit (its value, parts joined) as pieces, each
   * beside the source part it translates (a plural form beside the form it comes from). Without
   * it, each part of the value is text beside the unit's part of the same index.
   */
  translations?(unit: SourceUnit, value: string, lang: string, source: SourceDoc, target: TargetDoc): TranslationPair[];
  /** the conventional target file name for `lang` (a name only; the directory is the caller's) */
  targetName(sourceName: string, lang: string, sourceLanguage?: string): string;
}

/** Short content hash (sha-256, 72 bits, base64url): enough to tell versions of one unit apart. */
export function hash(s: string): string {
  return createHash('sha256').update(s).digest('base64url').slice(0, 12);
}

let lineIndex: { text: string; starts: number[] } | undefined;

/** Offsets where each line starts (kept for the last text asked about: units are numbered in order). */
function lineStarts(text: string): number[] {
  if (lineIndex?.text === text) {
    // the text asked about is kept: a text of the same content (a target identical to its
    // source) is compared whole once, then found by identity at each of its units
    lineIndex.text = text;
    return lineIndex.starts;
  }
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  lineIndex = { text, starts };
  return starts;
}

/** The 1-based line and column of an offset (for messages naming file:line:column). */
export function position(text: string, offset: number): { line: number; column: number } {
  const starts = lineStarts(text);
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1 };
}

/** The 1-based line of an offset (for unit positions). */
export function lineAt(text: string, offset: number): number {
  return position(text, offset).line;
}

/** Applies replacements [start, end, text] (non-overlapping) to a text. */
export function applyEdits(text: string, edits: [number, number, string][]): string {
  edits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let out = '';
  let last = 0;
  for (const [s, e, t] of edits) {
    out += text.slice(last, s) + t;
    last = e;
  }
  return out + text.slice(last);
}

/** A name that looks like a language code: de, pt-BR, pt_BR, zh-Hans, sr-Latn, es-419 (two letters first: not src, app). */
export const LANGUAGE_NAME = /^[a-z]{2}(?:[-_](?:[A-Za-z]{2}|[A-Z][a-z]{3}|\d{3}))?(?:[-_][A-Z]{2})?$/;

let displayNames: Intl.DisplayNames | undefined;

/**
 * Whether a code a file or directory is named is a language, not a word that has the shape of one
 * (`app.json`, `ui.json`, `web/`): a language of the service's scope (`en`, `fil`, `mww`), or a
 * two-letter language Intl knows (`la`, `pt_BR`). Three letters must be the service's: most
 * three-letter names are words.
 */
export function isLanguage(code: string): boolean {
  const c = code.replaceAll('_', '-');
  const primary = c.split('-')[0];
  if (findLanguage(c) || findLanguage(primary)) return true;
  if (primary.length !== 2) return false;
  try {
    displayNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    return displayNames.of(primary) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Whether a file or directory name names the source language (`en_US` names `en-US`); without a
 * known source language, whether it is a language code (not `ui`, `db`).
 */
export function namesLanguage(name: string, sourceLanguage?: string): boolean {
  const norm = (l: string) => l.replaceAll('_', '-').toLowerCase();
  return sourceLanguage ? norm(name) === norm(sourceLanguage) : LANGUAGE_NAME.test(name) && isLanguage(name);
}

/**
 * The language a locale file's name gives: en.json, app.en.json, locales/en/common.json (`ext`
 * matches the extension); not app.json or ui/strings.json (words, not languages).
 */
export function fileLanguage(file: string, ext: RegExp): string | undefined {
  const name = file.split(/[\\/]/);
  const base = name[name.length - 1].replace(ext, '');
  const named = /(?:^|\.)([a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)$/.exec(base)?.[1];
  const dir = name.length > 1 ? name[name.length - 2] : undefined;
  const lang = named && isLanguage(named) ? named : dir !== undefined && LANGUAGE_NAME.test(dir) && isLanguage(dir) ? dir : undefined;
  return lang?.replace('_', '-');
}

/**
 * A locale file's target for `lang`: en.json -> de.json; app.en.json -> app.de.json;
 * locales/en/common.json -> locales/de/common.json; anything else: name.de.json beside it.
 * `ext` matches the extension (its group 1 is kept), `defaultExt` is added to a name without one.
 */
export function localeTargetPath(path: string, lang: string, sourceLanguage: string | undefined, ext: RegExp, defaultExt: string): string {
  const parts = path.split('/');
  const file = parts[parts.length - 1];
  const m = new RegExp(`^(?:(.*)\\.)?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)${ext.source}`, 'i').exec(file);
  const isLang = (s: string) => namesLanguage(s, sourceLanguage);
  if (m && isLang(m[2])) {
    parts[parts.length - 1] = `${m[1] !== undefined ? `${m[1]}.` : ''}${lang}.${m[3]}`;
    return parts.join('/');
  }
  if (parts.length > 1 && isLang(parts[parts.length - 2])) {
    parts[parts.length - 2] = lang;
    return parts.join('/');
  }
  const e = ext.exec(file);
  parts[parts.length - 1] = e ? `${file.slice(0, e.index)}.${lang}.${e[1]}` : `${file}.${lang}.${defaultExt}`;
  return parts.join('/');
}

/** Parts joined into the one string a unit's value is hashed and compared as. */
export function joinParts(parts: readonly string[]): string {
  return parts.join('\u0000');
}
