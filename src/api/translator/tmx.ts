// TMX 1.4 (the localization industry's translation-memory exchange format) for the translation
// memory: export writes one <tu> per stored entry as it is read (streamed), import reads a TMX file
// with a streaming XML parser (saxes, loaded when needed) and checks it all before anything is
// stored: bad XML or a language code that is not one names the line, and nothing is imported.
//
//   <tu srclang="en" creationdate="20261124T060000Z">
//     <prop type="x-vx-options">[...]</prop>     the key's options (exact round trip through vx)
//     <prop type="x-vx-result">{...}</prop>      the service's result for this target
//     <prop type="x-vx-source">"..."</prop>      the source text, only when the <seg> cannot carry it
//                                                (HTML entries: their <seg>s hold <ph> inline codes)
//     <tuv xml:lang="en"><seg>Good morning</seg></tuv>
//     <tuv xml:lang="de"><seg>Guten Morgen</seg></tuv>
//   </tu>
//
// A <tu> from another tool (no x-vx props) becomes one entry per target <tuv>: source language =
// the tu's srclang (else the header's), options as vx sends by default with that `from`, and the
// result {"translations":[{"text": <seg>, "to": <lang>}]}, what the service answers for plain text;
// languages as the service names them (de-DE -> de, zh-CN -> zh-Hans; see serviceLanguage).
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { LANGUAGE_CODE, serviceLanguage, type TranslateResult } from '../../model/translator.js';
import type { KeyOptions, MemoryEntry } from './memory/index.js';
import { unescapeHtml } from './files/protect.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** characters XML 1.0 cannot carry at all (even escaped): written as U+FFFD */
const NOT_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const text = (s: string) => esc(s.replace(NOT_XML, '\uFFFD')).replace(/\r/g, '&#13;');
/** JSON for a property: JSON.stringify escapes the control characters and lone surrogates, not U+FFFE and U+FFFF */
const json = (v: unknown) => text(JSON.stringify(v).replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`));

function tmxDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

export function tmxHeader(version: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n' +
    `  <header creationtool="vx" creationtoolversion="${esc(version)}" segtype="sentence" o-tmf="vx-translation-memory" adminlang="en" srclang="*all*" datatype="plaintext"/>\n` +
    '  <body>\n'
  );
}

export const TMX_FOOTER = '  </body>\n</tmx>\n';

/** a protected placeholder as vx translate file sends it, a tag, a comment */
const HTML_CODE = /<span class="notranslate">([\s\S]*?)<\/span>|<!--[\s\S]*?-->|<\/?[A-Za-z][\w:.-]*(?:\s+(?:[^<>"']|"[^"]*"|'[^']*')*?)?\s*\/?>/g;

/**
 * The <seg> content of HTML (textType=html): text unescaped, and each code a TMX inline `<ph>`
 * that translation tools show as a placeholder: a protected span (a locale file's `{{name}}`,
 * `%1$s`) holds its placeholder, a tag or comment its markup. `xs` numbers the codes alike in a
 * unit's source and target. Read back by another tool (or vx without the x-vx properties), the
 * segment is the unit's text: `Hello {{name}}`.
 */
function inlineSeg(html: string, xs: Map<string, number>): string {
  let out = '';
  let last = 0;
  const ph = (code: string) => {
    let x = xs.get(code);
    if (x === undefined) xs.set(code, (x = xs.size + 1));
    return `<ph x="${x}">${text(code)}</ph>`;
  };
  HTML_CODE.lastIndex = 0;
  for (let m = HTML_CODE.exec(html); m; m = HTML_CODE.exec(html)) {
    out += text(unescapeHtml(html.slice(last, m.index)));
    last = m.index + m[0].length;
    out += ph(m[1] !== undefined ? unescapeHtml(m[1]) : m[0]);
  }
  return out + text(unescapeHtml(html.slice(last)));
}

/** One <tu> for one stored entry. */
export function tmxUnit(e: MemoryEntry): string {
  const t = e.result.translations?.[0];
  const src = e.options.from || e.result.detectedLanguage?.language || 'und';
  // HTML as inline codes; the x-vx properties keep the exact texts for vx
  const html = e.options.textType === 'html';
  const xs = new Map<string, number>();
  const seg = (s: string) => (html ? inlineSeg(s, xs) : text(s));
  const opts = [e.options.from, e.options.suggestedFrom, e.options.to, e.options.textType, e.options.category, e.options.profanityAction, e.options.profanityMarker, e.options.alignment, e.options.sentenceLength, e.options.fromScript, e.options.toScript, e.options.allowFallback];
  return (
    `    <tu srclang="${esc(src)}" creationdate="${tmxDate(e.stored)}">\n` +
    `      <prop type="x-vx-options">${json(opts)}</prop>\n` +
    `      <prop type="x-vx-result">${json(e.result)}</prop>\n` +
    // a source the <seg> cannot carry (a control character, a lone surrogate; HTML, written as inline codes) is kept exactly here
    (html || e.source.search(NOT_XML) >= 0 ? `      <prop type="x-vx-source">${json(e.source)}</prop>\n` : '') +
    `      <tuv xml:lang="${esc(src)}"><seg>${seg(e.source)}</seg></tuv>\n` +
    `      <tuv xml:lang="${esc(e.options.to)}"><seg>${seg(t?.text ?? '')}</seg></tuv>\n` +
    '    </tu>\n'
  );
}

/** A TMX file that cannot be imported: where and why. */
export class TmxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

interface Tuv {
  lang: string;
  seg: string;
  line: number;
}

interface Unit {
  line: number;
  srclang?: string;
  created?: number;
  props: Record<string, string>;
  tuvs: Tuv[];
}

const DEFAULT_OPTIONS = { suggestedFrom: '', textType: 'plain', category: '', profanityAction: 'NoAction', profanityMarker: '', alignment: false, sentenceLength: false, fromScript: '', toScript: '', allowFallback: true };

function parseDate(s: string | undefined): number | undefined {
  const m = s && /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) / 1000 : undefined;
}

function checkLang(lang: string | undefined, line: number, what: string): string {
  if (!lang || !LANGUAGE_CODE.test(lang)) throw new TmxError(line, `${what} ${lang === undefined ? 'is missing' : `"${lang}" is not a language code`} (expected a code like en, de or pt-PT)`);
  return lang;
}

/** The entries of one <tu>; a problem throws a TmxError naming its line. */
/** What an import passes over, counted. */
export interface TmxSkipped {
  /** target <tuv>s of other tools whose <seg> is empty (the segment not translated yet) */
  emptyTargets: number;
}

function entriesOf(u: Unit, headerSrc: string | undefined, now: number, skipped?: TmxSkipped, fallbackSrc?: string): MemoryEntry[] {
  const stored = u.created ?? now;
  if (u.props['x-vx-options'] !== undefined) {
    let opts: unknown;
    let result: unknown;
    let source: unknown;
    try {
      opts = JSON.parse(u.props['x-vx-options']);
      result = JSON.parse(u.props['x-vx-result'] ?? '');
      source = u.props['x-vx-source'] === undefined ? undefined : JSON.parse(u.props['x-vx-source']);
    } catch {
      throw new TmxError(u.line, 'the x-vx-options, x-vx-result or x-vx-source property is not valid JSON');
    }
    const t = (result as TranslateResult | null)?.translations;
    if (!Array.isArray(opts) || opts.length !== 12 || typeof result !== 'object' || !Array.isArray(t) || t.length !== 1 || typeof t[0]?.text !== 'string' || typeof t[0].to !== 'string' || (source !== undefined && typeof source !== 'string')) {
      throw new TmxError(u.line, 'the x-vx-options, x-vx-result or x-vx-source property is not one written by vx translate memory export');
    }
    // a key whose fields are not what vx writes (a file edited by hand) would never be hit again
    if (!opts.every((v, i) => typeof v === (i === 7 || i === 8 || i === 11 ? 'boolean' : 'string'))) {
      throw new TmxError(u.line, 'the x-vx-options property is not one written by vx translate memory export (12 strings and flags)');
    }
    const [from, suggestedFrom, to, textType, category, profanityAction, profanityMarker, alignment, sentenceLength, fromScript, toScript, allowFallback] = (opts as string[]).map((v, i) => (i === 0 || i === 1 || i === 2 ? v.toLowerCase() : v)) as [string, string, string, string, string, string, string, boolean, boolean, string, string, boolean];
    if (from) checkLang(from, u.line, 'the source language');
    if (suggestedFrom) checkLang(suggestedFrom, u.line, 'the suggested source language');
    checkLang(to, u.line, 'the target language');
    const src = u.tuvs.find((t) => t.lang.toLowerCase() === (u.srclang ?? '').toLowerCase()) ?? u.tuvs[0];
    if (!src) throw new TmxError(u.line, 'a <tu> without <tuv>');
    const options: KeyOptions = { from, suggestedFrom, to, textType, category, profanityAction, profanityMarker, alignment, sentenceLength, fromScript, toScript, allowFallback };
    return [{ options, stored, source: (source as string | undefined) ?? src.seg, result: result as TranslateResult }];
  }
  const srclang = u.srclang && u.srclang !== '*all*' ? u.srclang : headerSrc && headerSrc !== '*all*' ? headerSrc : fallbackSrc;
  if (!srclang) throw new TmxError(u.line, 'no source language: the <tu> has no srclang and the header names none (srclang="*all*"); give it with --from <lang>');
  checkLang(srclang, u.line, 'the source language (srclang)');
  // a tool's locale (en-US, de-DE, zh-CN) is keyed as the language the service is asked for (en, de,
  // zh-Hans), as vx translate file does: the service refuses de-DE, so no run could ever hit it
  const from = serviceLanguage(srclang);
  const src = u.tuvs.find((t) => t.lang.toLowerCase() === srclang.toLowerCase()) ?? u.tuvs.find((t) => serviceLanguage(t.lang) === from);
  if (!src) throw new TmxError(u.line, `no <tuv> in the source language ${srclang}`);
  // one entry per language: the first of de-DE and de-CH, none for en-GB beside an en-US source
  const seen = new Set([from]);
  return u.tuvs.flatMap((t) => {
    const to = serviceLanguage(t.lang);
    if (t === src || seen.has(to)) return [];
    // an empty target is a segment not translated yet (CAT tools export them so), not a translation
    // into nothing: kept, it would answer the text with an empty string, and no run would send it
    if (!t.seg.trim() && src.seg.trim()) {
      if (skipped) skipped.emptyTargets++;
      return [];
    }
    seen.add(to);
    return [{ options: { ...DEFAULT_OPTIONS, from: from.toLowerCase(), to: to.toLowerCase() }, stored, source: src.seg, result: { translations: [{ text: t.seg, to }] } }];
  });
}

/**
 * The text of a TMX file from its bytes, streamed: UTF-8 unless a byte order mark or the XML
 * declaration says otherwise (UTF-16, as many translation tools write it, or an encoding such as
 * ISO-8859-1); bytes that are not text in that encoding are a TmxError naming the line, never
 * U+FFFD taken for the text.
 */
class TmxText {
  private readonly decoder: TextDecoder;
  /** UTF-8: the bytes after the last newline checked, and the line they begin */
  private tail?: Buffer;
  private line = 1;

  constructor(first: Buffer) {
    const label =
      first[0] === 0xff && first[1] === 0xfe
        ? 'utf-16le'
        : first[0] === 0xfe && first[1] === 0xff
          ? 'utf-16be'
          : first[0] === 0x3c && first[1] === 0
            ? 'utf-16le'
            : first[0] === 0 && first[1] === 0x3c
              ? 'utf-16be'
              : (/^(?:\xef\xbb\xbf)?<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']/.exec(first.toString('latin1', 0, 200))?.[1] ?? 'utf-8');
    try {
      // a declaration of UTF-16 over single bytes (no byte order mark, no zero bytes) is read as UTF-8
      this.decoder = new TextDecoder(/^utf-?16$/i.test(label) ? 'utf-8' : label, { fatal: true });
    } catch {
      throw new TmxError(1, `the encoding "${label}" is not one vx reads (save the file as UTF-8)`);
    }
    if (this.decoder.encoding === 'utf-8') this.tail = Buffer.alloc(0);
  }

  /** The text of the next bytes (`end`: there are no more); `line` tells where the parser is. */
  decode(bytes: Buffer, line: () => number, end = false): string {
    if (this.tail) this.checkUtf8(bytes, end);
    try {
      return this.decoder.decode(bytes, { stream: !end });
    } catch {
      throw new TmxError(line(), `not valid ${this.decoder.encoding.toUpperCase()}`);
    }
  }

  /** UTF-8 is checked line by line as the lines are complete, so the line of a bad byte is exact. */
  private checkUtf8(bytes: Buffer, end: boolean): void {
    const data = this.tail!.length ? Buffer.concat([this.tail!, bytes]) : bytes;
    let cut = end ? data.length : data.lastIndexOf(0x0a) + 1;
    if (!cut && data.length > 1 << 20) {
      // a line of over 1 MiB is checked in pieces, cut before a character's last bytes
      cut = data.length;
      while (cut > data.length - 3 && (data[cut - 1]! & 0xc0) === 0x80) cut--;
      if (data[cut - 1]! >= 0xc0) cut--;
    }
    const whole = data.subarray(0, cut);
    this.tail = Buffer.from(data.subarray(cut));
    if (isUtf8(whole)) {
      for (let nl = whole.indexOf(0x0a); nl >= 0; nl = whole.indexOf(0x0a, nl + 1)) this.line++;
      return;
    }
    for (let start = 0; start < whole.length; ) {
      const nl = whole.indexOf(0x0a, start);
      const stop = nl < 0 ? whole.length : nl;
      if (!isUtf8(whole.subarray(start, stop))) {
        throw new TmxError(this.line, 'not valid UTF-8 (save the file as UTF-8, or name its encoding in the XML declaration: <?xml version="1.0" encoding="ISO-8859-1"?>)');
      }
      if (nl < 0) break;
      this.line++;
      start = nl + 1;
    }
  }
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of an entity's declared value (character references and the predefined entities expanded), or undefined when it holds other references. */
function entityValue(v: string): string | undefined {
  let ok = true;
  const text = v.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (ref, e: string) => {
    const n = e[0] === '#' ? (e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : undefined;
    const c = n === undefined ? PREDEFINED[e] : n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
    if (c === undefined) ok = false;
    return c ?? ref;
  });
  return ok ? text : undefined;
}

export interface ReadTmxOptions {
  /** the date of entries the file does not date (unix seconds; default now) */
  now?: number;
  /** counts what is passed over */
  skipped?: TmxSkipped;
  /** the source language of units the file names none for (srclang="*all*") */
  from?: string;
}

type Saxes = import('saxes').SaxesParser;

/** What the parser's events build: the unit, variant, property and segment open, and the entries a closed unit made. */
class TmxEvents {
  headerSrc: string | undefined;
  sawTmx = false;
  unit: Unit | undefined;
  tuv: Partial<Tuv> | undefined;
  prop: { type: string; value: string } | undefined;
  seg: string | undefined;
  failure: TmxError | undefined;
  readonly ready: MemoryEntry[] = [];

  constructor(
    private readonly parser: Saxes,
    private readonly opts: { now: number; skipped?: TmxSkipped; from?: string },
  ) {
    parser.on('error', (e) => this.fail(e));
    parser.on('doctype', (d) => this.doctype(d));
    parser.on('opentag', (tag) => this.guard(() => this.open(tag.name, tag.attributes as Record<string, string>)));
    parser.on('closetag', (tag) => this.guard(() => this.close(tag.name)));
    parser.on('text', (t) => this.text(t));
    parser.on('cdata', (t) => this.text(t));
  }

  fail(e: unknown): void {
    // saxes says "<line>:<column>: <what>." (after the file name when it has one)
    this.failure ??= e instanceof TmxError ? e : new TmxError(this.parser.line, (e as Error).message.replace(/^(?:.*?:)?\d+:\d+: /, '').replace(/\.$/, ''));
  }

  private guard(f: () => void): void {
    if (this.failure) return;
    try {
      f();
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * Entities the file declares itself (<!DOCTYPE tmx [<!ENTITY nbsp "&#160;">]>): saxes reads no DTD,
   * and an entity it does not know is an error; an external DTD's entities stay unknown.
   */
  private doctype(doctype: string): void {
    for (const [, name, v1, v2] of doctype.matchAll(/<!ENTITY\s+([^\s%"']+)\s+(?:"([^"]*)"|'([^']*)')\s*>/g)) {
      const value = entityValue(v1 ?? v2);
      if (value !== undefined) this.parser.ENTITIES[name] ??= value;
    }
  }

  private open(name: string, a: Record<string, string>): void {
    const line = this.parser.line;
    switch (name) {
      case 'tmx':
        this.sawTmx = true;
        // 1.1 to 1.3 have the structure of 1.4 (1.1 names a <tuv>'s language with lang, read too): old translation memories are in them
        if (!/^1\.[1-4]b?$/.test(a.version ?? '')) throw new TmxError(line, `TMX version ${a.version ?? '(none)'}; vx reads TMX 1.1 to 1.4`);
        break;
      case 'header':
        this.headerSrc = a.srclang;
        if (this.headerSrc && this.headerSrc !== '*all*') checkLang(this.headerSrc, line, "the header's srclang");
        break;
      case 'tu':
        this.unit = { line, srclang: a.srclang, created: parseDate(a.creationdate), props: {}, tuvs: [] };
        break;
      case 'tuv':
        if (!this.unit) throw new TmxError(line, '<tuv> outside a <tu>');
        this.tuv = { lang: checkLang(a['xml:lang'] ?? a.lang, line, 'the <tuv> language (xml:lang)'), line };
        break;
      case 'seg':
        if (!this.tuv) throw new TmxError(line, '<seg> outside a <tuv>');
        this.seg = '';
        break;
      case 'prop':
        if (this.unit && !this.tuv) this.prop = { type: a.type ?? '', value: '' };
        break;
    }
  }

  /**
   * Inline markup inside a segment: its text is part of the segment (bpt, ept, it and ph hold the
   * native code that stood there in the original, <b> or %s; hi and sub hold text).
   */
  private text(t: string): void {
    if (this.seg !== undefined) this.seg += t;
    else if (this.prop) this.prop.value += t;
  }

  private close(name: string): void {
    switch (name) {
      case 'seg':
        if (this.tuv) this.tuv.seg = this.seg ?? '';
        this.seg = undefined;
        break;
      case 'tuv':
        if (this.unit && this.tuv) {
          if (this.tuv.seg === undefined) throw new TmxError(this.tuv.line ?? this.parser.line, '<tuv> without <seg>');
          this.unit.tuvs.push(this.tuv as Tuv);
        }
        this.tuv = undefined;
        break;
      case 'prop':
        if (this.unit && this.prop) this.unit.props[this.prop.type] = this.prop.value;
        this.prop = undefined;
        break;
      case 'tu':
        if (this.unit) this.ready.push(...entriesOf(this.unit, this.headerSrc, this.opts.now, this.opts.skipped, this.opts.from));
        this.unit = undefined;
        break;
    }
  }

  /** Hands the entries ready to `each`, in order; the number handed. */
  async drain(each: (e: MemoryEntry) => void | Promise<void>): Promise<number> {
    if (this.failure) throw this.failure;
    const n = this.ready.length;
    for (const e of this.ready) {
      const p = each(e);
      if (p) await p;
    }
    this.ready.length = 0;
    return n;
  }
}

/**
 * Reads a TMX file, streamed, calling `each` for every entry in order. Throws a TmxError (with
 * the line) at the first problem: call it once with a no-op to check a file whole before importing.
 */
export async function readTmx(path: string, each: (e: MemoryEntry) => void | Promise<void>, opts: ReadTmxOptions = {}): Promise<number> {
  const { SaxesParser } = (await import('saxes')) as typeof import('saxes');
  const parser = new SaxesParser({ xmlns: false, position: true });
  const events = new TmxEvents(parser, { now: opts.now ?? Math.floor(Date.now() / 1000), skipped: opts.skipped, from: opts.from });
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  let text: TmxText | undefined;
  let count = 0;
  try {
    for await (const chunk of stream) {
      text ??= new TmxText(chunk as Buffer);
      parser.write(text.decode(chunk as Buffer, () => parser.line));
      count += await events.drain(each);
    }
    if (text) parser.write(text.decode(Buffer.alloc(0), () => parser.line, true));
    parser.close();
    count += await events.drain(each);
    if (!events.sawTmx) throw new TmxError(1, 'not a TMX file (no <tmx> element)');
    return count;
  } finally {
    stream.destroy();
  }
}
