// gettext PO catalogues (and .pot templates), read and written line by line by vx itself: the
// libraries that exist (gettext-parser and friends) parse into objects and compile them back,
// re-wrapping strings and reordering comments, which loses what this format must keep. Here a
// target is the template entry by entry, its lines copied as they are; only msgstr lines are
// written, translator comments and the fuzzy flag come from the existing target (as msgmerge
// does), msgctxt and plural entries (msgstr[n] for the target's Plural-Forms) are handled, and
// entries the template no longer has are kept at the end as obsolete (#~).
import { UsageError } from '../../../core/errors.js';
import { piecesText, type Piece } from './protect.js';
import { hash, joinParts, namesLanguage, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc, type UnitValue } from './types.js';

interface Entry {
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

interface PoDoc {
  lines: string[];
  /** the line break used (\n or \r\n) */
  eol: string;
  entries: Entry[];
}

function unquote(s: string, file: string, line: number): string {
  const m = /^"((?:[^"\\]|\\.)*)"\s*$/.exec(s.trim());
  if (!m) throw new UsageError(`${file}:${line}:1: malformed PO: expected a quoted string, found ${JSON.stringify(s.trim().slice(0, 40))}`);
  return m[1].replace(/\\(?:([ntrabfv"\\?'])|([0-7]{1,3})|x([0-9A-Fa-f]{1,2}))/g, (_m, c: string | undefined, o: string | undefined, x: string | undefined) => {
    if (c !== undefined) return ({ n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v' } as Record<string, string>)[c] ?? c;
    return String.fromCharCode(o !== undefined ? parseInt(o, 8) : parseInt(x!, 16));
  });
}

export function quote(s: string): string {
  return `"${s.replace(/[\\"\n\t\r\x07\b\f\v]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\v': '\\v' })[c]!)}"`;
}

/** `msgstr "..."`, or gettext's multi-line form when the text has inner line breaks. */
function field(name: string, s: string, eol: string): string {
  const chunks = s.split(/(?<=\n)/);
  if (chunks.length <= 1 || (chunks.length === 2 && chunks[1] === '')) return `${name} ${quote(s)}`;
  return [`${name} ""`, ...chunks.filter((c) => c !== '').map(quote)].join(eol);
}

function parsePo(text: string, file: string): PoDoc {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const entries: Entry[] = [];
  let e: Entry | undefined;
  let field: { name: string; index?: number } | undefined;
  const keys = new Set<string>();
  const finish = (end: number) => {
    if (!e) return;
    e.end = end;
    if (e.msgid === undefined) {
      const line = e.start + 1;
      throw new UsageError(`${file}:${line}:1: malformed PO: an entry without msgid`);
    }
    e.key = e.msgctxt !== undefined ? `${e.msgctxt}\u0004${e.msgid}` : e.msgid;
    if (!e.obsolete) {
      if (keys.has(e.key)) throw new UsageError(`${file}:${e.start + 1}:1: malformed PO: duplicate message ${JSON.stringify(e.msgid.slice(0, 40))}${e.msgctxt !== undefined ? ` (msgctxt ${JSON.stringify(e.msgctxt)})` : ''}`);
      keys.add(e.key);
    }
    entries.push(e);
    e = undefined;
    field = undefined;
  };
  const begin = (i: number) => {
    e ??= { start: i, end: i, comments: [], flags: [], msgid: undefined as unknown as string, msgstr: [], obsolete: false, key: '' };
    return e;
  };
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (line.trim() === '') {
      finish(i);
      continue;
    }
    let obsolete = false;
    if (line.startsWith('#~')) {
      obsolete = true;
      line = line.replace(/^#~\s?/, '');
      if (line.startsWith('#')) {
        begin(i).comments.push(i);
        continue;
      }
    } else if (line.startsWith('#')) {
      // a comment after the fields starts the next entry
      if (e && e.msgid !== undefined) finish(i);
      const cur = begin(i);
      cur.comments.push(i);
      if (line.startsWith('#,')) {
        cur.flagsLine = i;
        cur.flags = line.slice(2).split(',').map((f) => f.trim()).filter(Boolean);
      }
      continue;
    }
    const m = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(.*)$/.exec(line);
    if (m) {
      const name = m[1].startsWith('msgstr') ? 'msgstr' : m[1];
      if (e && e.msgid !== undefined && (name === 'msgid' || name === 'msgctxt') && e.msgstr.length) finish(i);
      const cur = begin(i);
      cur.obsolete ||= obsolete;
      const value = unquote(m[3], file, i + 1);
      field = { name, index: m[2] !== undefined ? Number(m[2]) : undefined };
      if (name === 'msgctxt') cur.msgctxt = value;
      else if (name === 'msgid') cur.msgid = value;
      else if (name === 'msgid_plural') cur.msgidPlural = value;
      else {
        if (!cur.msgstrLines) cur.msgstrLines = [i, i + 1];
        cur.msgstrLines[1] = i + 1;
        cur.msgstr[field.index ?? 0] = value;
      }
      continue;
    }
    if (/^\s*"/.test(line) && e && field) {
      const value = unquote(line, file, i + 1);
      if (field.name === 'msgctxt') e.msgctxt! += value;
      else if (field.name === 'msgid') e.msgid += value;
      else if (field.name === 'msgid_plural') e.msgidPlural! += value;
      else {
        e.msgstr[field.index ?? 0] += value;
        e.msgstrLines![1] = i + 1;
      }
      continue;
    }
    throw new UsageError(`${file}:${i + 1}:1: malformed PO: unexpected ${JSON.stringify(line.trim().slice(0, 40))}`);
  }
  finish(lines.length);
  return { lines, eol, entries };
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

interface PoSource extends SourceDoc {
  doc: PoDoc;
}

interface PoTarget extends TargetDoc {
  doc: PoDoc;
  byKey: Map<string, Entry>;
}

function header(doc: PoDoc): Entry | undefined {
  return doc.entries.find((e) => !e.obsolete && e.msgid === '' && e.msgctxt === undefined);
}

function headerField(h: string | undefined, name: string): string | undefined {
  return h ? new RegExp(`^${name}:[ \\t]*(.*)$`, 'mi').exec(h)?.[1]?.trim() : undefined;
}

function setHeaderField(h: string, name: string, value: string): string {
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
function utf8Charset(h: string, always: boolean): string {
  const ct = headerField(h, 'Content-Type');
  if (ct === undefined ? !always : /charset=utf-?8$/i.test(ct)) return h;
  return setHeaderField(h, 'Content-Type', ct !== undefined && /charset=/i.test(ct) ? ct.trim().replace(/charset=\S*/i, 'charset=UTF-8') : 'text/plain; charset=UTF-8');
}

export const po: FileFormat = {
  name: 'po',
  parseSource(text, file): PoSource {
    const doc = parsePo(text, file);
    const units: SourceUnit[] = [];
    for (const e of doc.entries) {
      if (e.obsolete || (e.msgid === '' && e.msgctxt === undefined)) continue;
      const parts: Piece[][] = [[{ kind: 'text', value: e.msgid }]];
      if (e.msgidPlural !== undefined) parts.push([{ kind: 'text', value: e.msgidPlural }]);
      units.push({ key: e.key, parts, hash: hash(joinParts([e.msgctxt ?? '', e.msgid, e.msgidPlural ?? ''])), line: e.start + 1 });
    }
    const lang = headerField(header(doc)?.msgstr[0], 'Language');
    return { format: 'po', file, text, units, doc, language: lang || undefined };
  },

  parseTarget(text, file): PoTarget {
    const doc = parsePo(text, file);
    const values = new Map<string, string>();
    const byKey = new Map<string, Entry>();
    // the active entries, then the obsolete ones (#~) of keys that have none: an entry the template
    // has again gets its obsolete translation back, as msgmerge does, instead of being sent again
    for (const obsolete of [false, true]) {
      for (const e of doc.entries) {
        if (e.obsolete !== obsolete || byKey.has(e.key)) continue;
        byKey.set(e.key, e);
        if (e.msgstr.some((s) => s)) values.set(e.key, joinParts(e.msgstr));
      }
    }
    return { text, values, doc, byKey };
  },

  render(source, lang, values, target, opts): string {
    const { doc } = source as PoSource;
    const old = target as PoTarget | undefined;
    const eol = doc.eol;
    const oldHeader = old ? header(old.doc) : undefined;
    const n = pluralCount(old, lang);
    // the lines between entries (blank lines, a leading comment block) are copied as they are
    const out: string[] = [];
    const active = new Set<string>();
    let prev = 0;
    for (const e of doc.entries) {
      out.push(...doc.lines.slice(prev, e.start));
      prev = e.end;
      if (e.obsolete) continue;
      active.add(e.key);
      const raw = doc.lines.slice(e.start, e.end);
      const o = old?.byKey.get(e.key);
      if (e.msgid === '' && e.msgctxt === undefined) {
        out.push(renderHeader(doc, e, oldHeader, old?.doc, lang, eol));
        continue;
      }
      const v: UnitValue | undefined = values.get(e.key);
      // comments: the template's (extracted, references, flags), translator comments from the target
      const translatorComments = o ? o.comments.map((i) => old!.doc.lines[i]).filter((l) => /^#(\s|$)/.test(l)) : [];
      let flags = [...e.flags.filter((f) => f !== 'fuzzy')];
      let msgstr: string[];
      if (v?.kind === 'keep' && o) {
        msgstr = o.msgstr;
        if (o.flags.includes('fuzzy')) flags.unshift('fuzzy');
      } else if (v?.kind === 'new') {
        msgstr = newMsgstr(v.parts, e.msgidPlural !== undefined, n);
        if (v.review || opts.fuzzy) flags.unshift('fuzzy');
      } else {
        msgstr = e.msgidPlural === undefined ? [''] : Array.from({ length: n }, () => '');
        if (o?.flags.includes('fuzzy')) flags.unshift('fuzzy');
      }
      flags = [...new Set(flags)];
      const lines: string[] = [];
      let flagsWritten = false;
      const flagLine = flags.length ? `#, ${flags.join(', ')}` : undefined;
      // translator comments first (as gettext writes them), then the template's other comments in order
      lines.push(...translatorComments);
      for (let i = e.start; i < e.end; i++) {
        if (e.comments.includes(i)) {
          const l = doc.lines[i];
          if (/^#(\s|$)/.test(l) && translatorComments.length) continue;
          if (i === e.flagsLine) {
            if (flagLine) lines.push(flags.join(',') === e.flags.join(',') ? l : flagLine);
            flagsWritten = true;
            continue;
          }
          if (!flagsWritten && flagLine && /^#\|/.test(l)) {
            lines.push(flagLine);
            flagsWritten = true;
          }
          lines.push(l);
          continue;
        }
        if (e.msgstrLines && i >= e.msgstrLines[0] && i < e.msgstrLines[1]) {
          if (i === e.msgstrLines[0]) {
            if (!flagsWritten && flagLine) {
              // the flags line goes before the first field
              const firstField = lines.findIndex((l) => !l.startsWith('#'));
              lines.splice(firstField < 0 ? lines.length : firstField, 0, flagLine);
              flagsWritten = true;
            }
            lines.push(...msgstr.map((s, k) => field(e.msgidPlural === undefined ? 'msgstr' : `msgstr[${k}]`, s, eol)));
          }
          continue;
        }
        lines.push(raw[i - e.start]);
      }
      if (!flagsWritten && flagLine) {
        const firstField = lines.findIndex((l) => !l.startsWith('#'));
        lines.splice(firstField < 0 ? lines.length : firstField, 0, flagLine);
      }
      out.push(lines.join(eol));
    }
    let tail = doc.lines.slice(prev);
    // entries the template no longer has: kept as obsolete at the end (with the target's obsolete ones)
    const obsolete: string[] = [];
    for (const e of old?.doc.entries ?? []) {
      if ((e.msgid === '' && e.msgctxt === undefined) || active.has(e.key)) continue;
      const lines = old!.doc.lines.slice(e.start, e.end);
      obsolete.push(e.obsolete ? lines.join(eol) : lines.map((l) => (l.startsWith('#') && !/^#[\s|]/.test(l) ? l : `#~ ${l}`)).join(eol));
    }
    if (obsolete.length) {
      // before the final line break: a blank line, then each obsolete entry separated by one
      const ending = tail.length && tail[tail.length - 1] === '' ? [''] : [];
      tail = tail.slice(0, tail.length - ending.length);
      while (tail.length && tail[tail.length - 1] === '') tail.pop();
      tail.push('', obsolete.join(eol + eol), ...ending);
    }
    return [...out, ...tail].join(eol);
  },

  written(_source, unit, value, lang, target) {
    return joinParts(newMsgstr(value.parts, unit.parts.length > 1, pluralCount(target as PoTarget | undefined, lang)));
  },

  targetName(path, lang, sourceLanguage) {
    const parts = path.split('/');
    const file = parts[parts.length - 1];
    const isLang = (s: string) => namesLanguage(s, sourceLanguage);
    if (/\.pot$/i.test(file)) {
      // locale/<lang>/LC_MESSAGES/x.po is the other common layout; a template beside the catalogues gives <lang>.po
      parts[parts.length - 1] = `${poLanguage(lang)}.po`;
      return parts.join('/');
    }
    const m = /^(?:(.*)\.)?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)\.po$/i.exec(file);
    if (m && isLang(m[2])) {
      parts[parts.length - 1] = `${m[1] !== undefined ? `${m[1]}.` : ''}${poLanguage(lang)}.po`;
      return parts.join('/');
    }
    const lc = parts.lastIndexOf('LC_MESSAGES');
    if (lc > 0 && isLang(parts[lc - 1])) {
      parts[lc - 1] = poLanguage(lang);
      return parts.join('/');
    }
    parts[parts.length - 1] = file.replace(/(\.po)?$/i, `.${poLanguage(lang)}.po`);
    return parts.join('/');
  },
};

/** A language as gettext names it in file names and the Language header: pt-BR -> pt_BR. */
function poLanguage(lang: string): string {
  return lang.replaceAll('-', '_');
}

/** The number of plural forms of a target: its header's Plural-Forms, else the language's. */
function pluralCount(old: PoTarget | undefined, lang: string): number {
  const forms = headerField(old ? header(old.doc)?.msgstr[0] : undefined, 'Plural-Forms');
  const m = forms ? /nplurals\s*=\s*(\d+)/.exec(forms) : null;
  return m ? Number(m[1]) : pluralForms(lang).n;
}

/** msgstr of a new translation: msgstr[0] from msgid, the others from msgid_plural (one form: from msgid_plural). */
function newMsgstr(parts: readonly Piece[][], plural: boolean, n: number): string[] {
  const texts = parts.map((p) => piecesText(p));
  return !plural ? [texts[0]] : Array.from({ length: n }, (_x, i) => (n === 1 ? texts[1] : i === 0 ? texts[0] : texts[1]));
}

/** The header: the existing target's, else the template's with Language, Plural-Forms and charset set (and its fuzzy flag dropped). */
function renderHeader(doc: PoDoc, e: Entry, oldHeader: Entry | undefined, oldDoc: PoDoc | undefined, lang: string, eol: string): string {
  if (oldHeader && oldDoc) {
    let h = oldHeader.msgstr[0] ?? '';
    const lines = oldDoc.lines.slice(oldHeader.start, oldHeader.end);
    // gettext names languages ll_CC: an existing pt_BR is pt-BR already
    if (!namesLanguage(headerField(h, 'Language') ?? '', lang)) h = setHeaderField(h, 'Language', poLanguage(lang));
    h = utf8Charset(h, false);
    if (h === (oldHeader.msgstr[0] ?? '')) return lines.join(eol);
    return rewriteMsgstr(oldDoc, oldHeader, [h], eol);
  }
  let h = e.msgstr[0] ?? '';
  h = setHeaderField(h, 'Language', poLanguage(lang));
  h = setHeaderField(h, 'Plural-Forms', pluralForms(lang).header);
  h = utf8Charset(h, true);
  const withoutFuzzy = { ...e, flags: e.flags.filter((f) => f !== 'fuzzy') };
  return rewriteMsgstr(doc, withoutFuzzy, [h], eol);
}

/** An entry's lines with its msgstr replaced (and its flags line written from `e.flags`). */
function rewriteMsgstr(doc: PoDoc, e: Entry, msgstr: string[], eol: string): string {
  const lines: string[] = [];
  for (let i = e.start; i < e.end; i++) {
    if (i === e.flagsLine) {
      if (e.flags.length) lines.push(`#, ${e.flags.join(', ')}`);
      continue;
    }
    if (e.msgstrLines && i >= e.msgstrLines[0] && i < e.msgstrLines[1]) {
      if (i === e.msgstrLines[0]) lines.push(...msgstr.map((s) => field('msgstr', s, eol)));
      continue;
    }
    lines.push(doc.lines[i]);
  }
  return lines.join(eol);
}
