// gettext PO catalogues (and .pot templates), read and written line by line by vx itself: the
// libraries that exist (gettext-parser and friends) parse into objects and compile them back,
// re-wrapping strings and reordering comments, which loses what this format must keep. Here a
// target is the template entry by entry, its lines copied as they are; only msgstr lines are
// written, translator comments and the fuzzy flag come from the existing target (as msgmerge
// does), msgctxt and plural entries (msgstr[n] for the target's Plural-Forms) are handled, and
// entries the template no longer has are kept at the end as obsolete (#~).
import { declaredCharset, header, headerField, parsePo, pluralForms, setHeaderField, utf8Charset, type Entry, type PoDoc } from './po-parse.js';
import { fuzzyMatches } from './po-match.js';
import { wrapField } from './po-wrap.js';
import { flavourOfFlags } from './printf.js';
import { piecesText, tokenize, type Piece } from './protect.js';
import { hash, joinParts, namesLanguage, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc, type UnitValue } from './types.js';

interface PoSource extends SourceDoc {
  doc: PoDoc;
}

interface PoTarget extends TargetDoc {
  doc: PoDoc;
  byKey: Map<string, Entry>;
}

export { declaredCharset, pluralForms };

export const po: FileFormat = {
  name: 'po',
  parseSource(text, file): PoSource {
    const doc = parsePo(text, file);
    const units: SourceUnit[] = [];
    for (const e of doc.entries) {
      if (e.obsolete || (e.msgid === '' && e.msgctxt === undefined)) continue;
      // directives by the entry's format flag (c-format: their order is their arguments')
      const printf = flavourOfFlags(e.flags);
      const read = (s: string) => (printf ? tokenize(s, { syntax: { printf } }) : [{ kind: 'text' as const, value: s }]);
      const parts: Piece[][] = [read(e.msgid)];
      if (e.msgidPlural !== undefined) parts.push(read(e.msgidPlural));
      units.push({ key: e.key, parts, hash: hash(joinParts([e.msgctxt ?? '', e.msgid, e.msgidPlural ?? ''])), line: e.start + 1 });
    }
    const lang = headerField(header(doc)?.msgstr[0], 'Language');
    // (a catalogue's Language is that of its translations: a .po given as a source names its source language so)
    return { format: 'po', file, text, units, doc, language: lang || undefined, targetLanguage: lang || undefined };
  },

  parseTarget(text, file): PoTarget {
    const doc = parsePo(text, file);
    const values = new Map<string, string>();
    const lines = new Map<string, number>();
    const unused = new Set<string>();
    const byKey = new Map<string, Entry>();
    // the active entries, then the obsolete ones (#~) of keys that have none: an entry the template
    // has again gets its obsolete translation back, as msgmerge does, instead of being sent again
    for (const obsolete of [false, true]) {
      for (const e of doc.entries) {
        if (e.obsolete !== obsolete || byKey.has(e.key)) continue;
        byKey.set(e.key, e);
        if (e.msgstr.some((s) => s)) values.set(e.key, joinParts(e.msgstr));
        lines.set(e.key, e.start + 1);
        if (e.obsolete || e.flags.includes('fuzzy')) unused.add(e.key);
      }
    }
    return { text, values, doc, byKey, lines, unused };
  },

  render(source, lang, values, target, opts): string {
    const { doc } = source as PoSource;
    const old = target as PoTarget | undefined;
    const r: Render = { doc, old, eol: doc.eol, n: pluralCount(old, lang), fuzzy: Boolean(opts.fuzzy) };
    // the lines between entries (blank lines, a leading comment block) are copied as they are
    const out: string[] = [];
    const active = new Set<string>();
    for (const v of values.values()) if (v.kind === 'keep' && v.from !== undefined) active.add(v.from);
    let prev = 0;
    for (const e of doc.entries) {
      out.push(...doc.lines.slice(prev, e.start));
      prev = e.end;
      if (e.obsolete) continue;
      active.add(e.key);
      if (e.msgid === '' && e.msgctxt === undefined) out.push(renderHeader(doc, e, old ? header(old.doc) : undefined, old?.doc, lang, r.eol));
      else out.push(renderEntry(r, e, values.get(e.key)));
    }
    return [...out, ...obsoleteTail(r, doc.lines.slice(prev), active)].join(r.eol);
  },

  previous(source, target, units) {
    const { doc } = source as PoSource;
    const old = target as PoTarget;
    const candidate = (e: Entry) => ({ key: e.key, msgctxt: e.msgctxt, msgid: e.msgid, plural: e.msgidPlural !== undefined });
    // every translated entry, as msgmerge searches them: one the template still has may serve a new msgid too
    const candidates = old.doc.entries.filter((e) => !e.obsolete && e.msgid !== '' && e.msgstr.some((s) => s)).map(candidate);
    const byKey = new Map(doc.entries.map((e) => [e.key, e]));
    return fuzzyMatches(units.map((u) => candidate(byKey.get(u.key)!)), candidates);
  },

  // msgstr[0] translates msgid (a singular: it may leave the number out), the others msgid_plural; one form translates msgid_plural
  translations(unit, value) {
    const forms = value.split('\u0000').map((v) => [{ kind: 'text' as const, value: v }]);
    if (unit.parts.length === 1) return [{ source: unit.parts[0], translation: forms[0] }];
    return forms.map((t, i) => ({ source: unit.parts[i === 0 && forms.length > 1 ? 0 : 1], translation: t, ...(i === 0 && forms.length > 1 ? { mayOmit: true } : {}) }));
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

/** What rendering an entry needs of the whole. */
interface Render {
  doc: PoDoc;
  old?: PoTarget;
  eol: string;
  /** the target's number of plural forms */
  n: number;
  /** --fuzzy: machine translations marked fuzzy */
  fuzzy: boolean;
}

/** The msgstr of an entry and what comes with it. */
interface Fields {
  /** msgstr lines (an existing entry's as they are, or wrapped as gettext wraps) */
  lines: string[];
  fuzzy: boolean;
  /** `# ` comments of the translator (from the existing target) */
  comments: string[];
  /** `#|` lines: the msgid a carried translation was made for */
  previous: string[];
}

const isTranslatorComment = (l: string) => /^#(\s|$)/.test(l);

/** An existing entry's msgstr lines, as they were written (their wrapping kept; an obsolete one's without its `#~`). */
function ownLines(doc: PoDoc, e: Entry): string[] | undefined {
  const lines = e.msgstrLines ? doc.lines.slice(...e.msgstrLines) : undefined;
  return e.obsolete ? lines?.map((l) => l.replace(/^#~ ?/, '')) : lines;
}

function fieldsOf(r: Render, e: Entry, v: UnitValue | undefined): Fields {
  const flavour = flavourOfFlags(e.flags);
  const wrap = (msgstr: string[]) => msgstr.flatMap((s, k) => wrapField(e.msgidPlural === undefined ? 'msgstr' : `msgstr[${k}]`, s, '', flavour));
  const o = r.old?.byKey.get(e.key);
  const commentsOf = (x: Entry | undefined) => (x ? x.comments.map((i) => r.old!.doc.lines[i]).filter(isTranslatorComment) : []);
  // (review: its msgid_plural changed since a person translated it)
  if (v?.kind === 'keep' && v.from === undefined && o) {
    // a fuzzy entry keeps its #| lines (the msgid it was translated from) until someone reviews it
    const fuzzy = o.flags.includes('fuzzy') || Boolean(v.review);
    const previous = fuzzy ? o.comments.map((i) => r.old!.doc.lines[i]).filter((l) => l.startsWith('#|')) : [];
    return { lines: ownLines(r.old!.doc, o) ?? wrap(o.msgstr), fuzzy, comments: commentsOf(o), previous };
  }
  if (v?.kind === 'new') return { lines: wrap(newMsgstr(v.parts, e.msgidPlural !== undefined, r.n)), fuzzy: Boolean(v.review) || r.fuzzy, comments: commentsOf(o), previous: [] };
  const p = v?.kind === 'keep' && v.from !== undefined ? r.old?.byKey.get(v.from) : undefined;
  if (p) {
    const previous = [
      ...(p.msgctxt !== undefined ? wrapField('msgctxt', p.msgctxt, '#| ', flavour) : []),
      ...wrapField('msgid', p.msgid, '#| ', flavour),
      ...(p.msgidPlural !== undefined ? wrapField('msgid_plural', p.msgidPlural, '#| ', flavour) : []),
    ];
    return { lines: ownLines(r.old!.doc, p) ?? wrap(p.msgstr), fuzzy: true, comments: commentsOf(p), previous };
  }
  return { lines: wrap(e.msgidPlural === undefined ? [''] : Array.from({ length: r.n }, () => '')), fuzzy: Boolean(o?.flags.includes('fuzzy')), comments: commentsOf(o), previous: [] };
}

/**
 * An entry of the template with its msgstr: translator comments first (the target's, else the
 * template's), the template's other comments in order, the flags (the template's, `fuzzy` as the
 * value says), `#|` lines of a carried translation, the template's msgctxt/msgid lines as they are.
 */
function renderEntry(r: Render, e: Entry, v: UnitValue | undefined): string {
  const f = fieldsOf(r, e, v);
  const flags = [...new Set([...(f.fuzzy ? ['fuzzy'] : []), ...e.flags.filter((x) => x !== 'fuzzy')])];
  const flagLine = !flags.length ? undefined : flags.join(',') === e.flags.join(',') && e.flagsLine !== undefined ? r.doc.lines[e.flagsLine] : `#, ${flags.join(', ')}`;
  const head: string[] = [...f.comments];
  const fields: string[] = [];
  for (let i = e.start; i < e.end; i++) {
    const l = r.doc.lines[i];
    if (e.comments.includes(i)) {
      // the template's own #| lines make way for those of a carried translation
      if ((isTranslatorComment(l) && f.comments.length) || i === e.flagsLine || (l.startsWith('#|') && f.previous.length)) continue;
      (l.startsWith('#|') ? fields : head).push(l);
    } else if (e.msgstrLines && i >= e.msgstrLines[0] && i < e.msgstrLines[1]) {
      if (i === e.msgstrLines[0]) fields.push(...f.lines);
    } else fields.push(l);
  }
  return [...head, ...(flagLine ? [flagLine] : []), ...f.previous, ...fields].join(r.eol);
}

/** The template's last lines, with the target's entries it no longer has kept as obsolete (#~) before the final line break. */
function obsoleteTail(r: Render, tail: string[], active: Set<string>): string[] {
  const obsolete: string[] = [];
  for (const e of r.old?.doc.entries ?? []) {
    if ((e.msgid === '' && e.msgctxt === undefined) || active.has(e.key)) continue;
    const lines = r.old!.doc.lines.slice(e.start, e.end);
    obsolete.push(e.obsolete ? lines.join(r.eol) : lines.map((l) => (l.startsWith('#') && !/^#[\s|]/.test(l) ? l : `#~ ${l}`)).join(r.eol));
  }
  if (!obsolete.length) return tail;
  // a blank line, then each obsolete entry separated by one
  const ending = tail.length && tail[tail.length - 1] === '' ? [''] : [];
  const body = tail.slice(0, tail.length - ending.length);
  while (body.length && body[body.length - 1] === '') body.pop();
  return [...body, '', obsolete.join(r.eol + r.eol), ...ending];
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
      if (i === e.msgstrLines[0]) lines.push(...msgstr.flatMap((s) => wrapField('msgstr', s)));
      continue;
    }
    lines.push(doc.lines[i]);
  }
  return lines.join(eol);
}
