// gettext PO catalogues read line by line, linear in their size: entries with their line ranges
// (comments, flags, msgctxt, msgid, msgid_plural, msgstr[n]), obsolete (#~) ones included; the
// header's fields; gettext's table of plural forms.
import { UsageError } from '../../../core/errors.js';

export interface Entry {
  /** line indexes [start, end) of the whole entry (comments included) */
  start: number;
  end: number;
  /** comment lines (#...), as raw lines */
  comments: number[];
  flagsLine?: number;
  flags: string[];
  msgctxt?: string;
  msgid: string;
  msgidPlural?: string;
  msgstr: string[];
  /** lines [start, end) of the msgstr fields */
  msgstrLines?: [number, number];
  obsolete: boolean;
  key: string;
}

export interface PoDoc {
  lines: string[];
  /** the line break used (\n or \r\n) */
  eol: string;
  entries: Entry[];
}

/** A quoted PO string's value (C escapes), read in one pass (a msgid may be megabytes long). */
function unquote(s: string, file: string, line: number): string {
  const t = s.trim();
  const bad = () => new UsageError(`${file}:${line}:1: malformed PO: expected a quoted string, found ${JSON.stringify(t.slice(0, 40))}`);
  if (t.length < 2 || t[0] !== '"' || t[t.length - 1] !== '"') throw bad();
  const end = t.length - 1;
  let out = '';
  let run = 1;
  for (let i = 1; i < end; i++) {
    const c = t[i];
    if (c === '"') throw bad();
    if (c !== '\\') continue;
    out += t.slice(run, i);
    const n = t[++i];
    if (i >= end) throw bad();
    const simple = ESCAPED[n];
    if (simple !== undefined) out += simple;
    else if (n >= '0' && n <= '7') {
      let j = i;
      while (j < i + 3 && j < end && t[j] >= '0' && t[j] <= '7') j++;
      out += String.fromCharCode(parseInt(t.slice(i, j), 8));
      i = j - 1;
    } else if (n === 'x' && /[0-9A-Fa-f]/.test(t[i + 1] ?? '')) {
      let j = i + 1;
      while (j < i + 3 && j < end && /[0-9A-Fa-f]/.test(t[j])) j++;
      out += String.fromCharCode(parseInt(t.slice(i + 1, j), 16));
      i = j - 1;
    } else out += n;
    run = i + 1;
  }
  return out + t.slice(run, end);
}

const ESCAPED: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '"': '"', '\\': '\\', '?': '?', "'": "'" };

export function quote(s: string): string {
  return `"${s.replace(/[\\"\n\t\r\x07\b\f\v]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\v': '\\v' })[c]!)}"`;
}

const FIELD = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(.*)$/;

/** The entries of one catalogue as its lines are read: the entry and field open, the keys seen. */
class PoReader {
  readonly entries: Entry[] = [];
  private e: Entry | undefined;
  private field: { name: string; index?: number } | undefined;
  private readonly keys = new Set<string>();

  constructor(private readonly file: string) {}

  private error(line: number, what: string): UsageError {
    return new UsageError(`${this.file}:${line}:1: malformed PO: ${what}`);
  }

  /** Closes the open entry at line index `end`. */
  finish(end: number): void {
    const e = this.e;
    if (!e) return;
    e.end = end;
    if (e.msgid === undefined) throw this.error(e.start + 1, 'an entry without msgid');
    e.key = e.msgctxt !== undefined ? `${e.msgctxt}\u0004${e.msgid}` : e.msgid;
    if (!e.obsolete) {
      if (this.keys.has(e.key)) throw this.error(e.start + 1, `duplicate message ${JSON.stringify(e.msgid.slice(0, 40))}${e.msgctxt !== undefined ? ` (msgctxt ${JSON.stringify(e.msgctxt)})` : ''}`);
      this.keys.add(e.key);
    }
    this.entries.push(e);
    this.e = undefined;
    this.field = undefined;
  }

  private begin(i: number): Entry {
    this.e ??= { start: i, end: i, comments: [], flags: [], msgid: undefined as unknown as string, msgstr: [], obsolete: false, key: '' };
    return this.e;
  }

  /** Reads line `i`; a usage error when it is none of a PO file's kinds of line. */
  read(line: string, i: number): void {
    if (line.trim() === '') this.finish(i);
    // the previous msgid of an obsolete entry
    else if (line.startsWith('#~|')) this.begin(i).comments.push(i);
    else if (line.startsWith('#~')) {
      const rest = line.replace(/^#~\s?/, '');
      if (rest.startsWith('#')) this.begin(i).comments.push(i);
      else this.fieldLine(rest, i, true);
    } else if (line.startsWith('#')) this.comment(line, i);
    else this.fieldLine(line, i, false);
  }

  private comment(line: string, i: number): void {
    // a comment after the fields starts the next entry
    if (this.e && this.e.msgid !== undefined) this.finish(i);
    const cur = this.begin(i);
    cur.comments.push(i);
    if (line.startsWith('#,')) {
      cur.flagsLine = i;
      cur.flags = line.slice(2).split(',').map((f) => f.trim()).filter(Boolean);
    }
  }

  /** A keyword line (msgid "...") or a continued string ("..."). */
  private fieldLine(line: string, i: number, obsolete: boolean): void {
    const m = FIELD.exec(line);
    if (m) {
      const name = m[1].startsWith('msgstr') ? 'msgstr' : m[1];
      if (this.e && this.e.msgid !== undefined && (name === 'msgid' || name === 'msgctxt') && this.e.msgstr.length) this.finish(i);
      const cur = this.begin(i);
      cur.obsolete ||= obsolete;
      this.field = { name, index: m[2] !== undefined ? Number(m[2]) : undefined };
      this.set(cur, unquote(m[3], this.file, i + 1), i, false);
    } else if (/^\s*"/.test(line) && this.e && this.field) this.set(this.e, unquote(line, this.file, i + 1), i, true);
    else throw this.error(i + 1, `unexpected ${JSON.stringify(line.trim().slice(0, 40))}`);
  }

  private set(e: Entry, value: string, i: number, more: boolean): void {
    const { name, index = 0 } = this.field!;
    if (name === 'msgctxt') e.msgctxt = more ? e.msgctxt! + value : value;
    else if (name === 'msgid') e.msgid = more ? e.msgid + value : value;
    else if (name === 'msgid_plural') e.msgidPlural = more ? e.msgidPlural! + value : value;
    else {
      e.msgstr[index] = more ? e.msgstr[index] + value : value;
      if (!more) e.msgstrLines ??= [i, i + 1];
      e.msgstrLines![1] = i + 1;
    }
  }
}

export function parsePo(text: string, file: string): PoDoc {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const reader = new PoReader(file);
  for (let i = 0; i < lines.length; i++) reader.read(lines[i], i);
  reader.finish(lines.length);
  return { lines, eol, entries: reader.entries };
}

/** Plural-Forms of common languages (gettext's own table); others follow Intl.PluralRules. */
const PLURAL_FORMS: Record<string, string> = {
  ja: 'nplurals=1; plural=0;', ko: 'nplurals=1; plural=0;', zh: 'nplurals=1; plural=0;', vi: 'nplurals=1; plural=0;', th: 'nplurals=1; plural=0;', id: 'nplurals=1; plural=0;', ms: 'nplurals=1; plural=0;',
  fr: 'nplurals=2; plural=(n > 1);', 'pt-br': 'nplurals=2; plural=(n > 1);', tr: 'nplurals=2; plural=(n != 1);',
  pl: 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  ru: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  uk: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  be: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  sr: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  hr: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  bs: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  cs: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;', sk: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
  lt: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);',
  lv: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);',
  ro: 'nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);',
  sl: 'nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);',
  ga: 'nplurals=5; plural=(n==1 ? 0 : n==2 ? 1 : n<7 ? 2 : n<11 ? 3 : 4);',
  ar: 'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);',
  he: 'nplurals=2; plural=(n != 1);',
};

/** The Plural-Forms header for a language, and its number of forms. */
export function pluralForms(lang: string): { header: string; n: number } {
  const l = lang.toLowerCase();
  let header = PLURAL_FORMS[l] ?? PLURAL_FORMS[l.split('-')[0]];
  if (!header) {
    let n = 2;
    try {
      n = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.length;
    } catch {
      /* unknown language: two forms */
    }
    header = n <= 1 ? 'nplurals=1; plural=0;' : 'nplurals=2; plural=(n != 1);';
  }
  return { header, n: Number(/nplurals\s*=\s*(\d+)/.exec(header)![1]) };
}

export function header(doc: PoDoc): Entry | undefined {
  return doc.entries.find((e) => !e.obsolete && e.msgid === '' && e.msgctxt === undefined);
}

export function headerField(h: string | undefined, name: string): string | undefined {
  return h ? new RegExp(`^${name}:[ \\t]*(.*)$`, 'mi').exec(h)?.[1]?.trim() : undefined;
}

export function setHeaderField(h: string, name: string, value: string): string {
  const re = new RegExp(`^${name}:.*$`, 'mi');
  return re.test(h) ? h.replace(re, `${name}: ${value}`) : `${h}${h.endsWith('\n') || h === '' ? '' : '\n'}${name}: ${value}\n`;
}

/**
 * The charset a PO file's header declares (`Content-Type: text/plain; charset=ISO-8859-1`), read
 * from its bytes before they are decoded: the header is ASCII in any charset gettext writes.
 */
export function declaredCharset(buf: Buffer): string | undefined {
  const head = buf.subarray(0, 64 * 1024).toString('latin1');
  return /^\s*(?:msgstr\s+)?"Content-Type:[^"\n]*?charset=([A-Za-z0-9_.:+-]+)/im.exec(head)?.[1];
}

/**
 * Header text whose charset is UTF-8, what vx writes, whatever the template or the old target
 * declared (`always`: a Content-Type is added where there is none).
 */
export function utf8Charset(h: string, always: boolean): string {
  const ct = headerField(h, 'Content-Type');
  if (ct === undefined ? !always : /charset=utf-?8$/i.test(ct)) return h;
  return setHeaderField(h, 'Content-Type', ct !== undefined && /charset=/i.test(ct) ? ct.trim().replace(/charset=\S*/i, 'charset=UTF-8') : 'text/plain; charset=UTF-8');
}

