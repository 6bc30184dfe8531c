// XLIFF 1.2 and 2.0. Read with saxes (xliff-scan.ts: the position of every element); written by
// surgical edits at those positions: a <target> inserted after or replacing the unit's target,
// target-language/trgLang set, nothing else of the file touched (ids, notes, attributes,
// whitespace, comments and translate="no" units stay byte for byte). A unit translated before
// keeps what only its target has: attributes of its start tag (approved="yes"), notes, 1.2 alt-trans.
import type { Piece } from './protect.js';
import { applyEdits, hash, joinParts, lineAt, namesLanguage, type FileFormat, type RenderOptions, type SourceDoc, type TargetDoc, type UnitValue } from './types.js';

import { closing, scan, segRanges, unescapeXml, type XDoc, type XUnit, type XUnitInfo } from './xliff-scan.js';

export { loadXliff } from './xliff-scan.js';

/** The states vx may write on a machine-translated unit, per version (defaults first). */
export const XLIFF_STATES = {
  '1.2': ['needs-review-translation', 'translated', 'needs-translation', 'needs-adaptation', 'needs-l10n', 'needs-review-adaptation', 'needs-review-l10n', 'signed-off', 'final', 'new'],
  '2.0': ['translated', 'initial', 'reviewed', 'final'],
} as const;

export function escapeXml(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** Pieces of an element's content: text unescaped, inline elements (and comments, PIs) raw; CDATA is text. */
export function xmlPieces(inner: string): Piece[] {
  const out: Piece[] = [];
  const re = /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<[^>]+>/g;
  let last = 0;
  const text = (s: string) => {
    if (!s) return;
    const prev = out[out.length - 1];
    if (prev?.kind === 'text') prev.value += s;
    else out.push({ kind: 'text', value: s });
  };
  for (let m = re.exec(inner); m; m = re.exec(inner)) {
    text(unescapeXml(inner.slice(last, m.index)));
    last = m.index + m[0].length;
    if (m[1] !== undefined) text(m[1]);
    else {
      // content marked not to translate (2.x translate="no", 1.2 <mrk mtype="protected">) goes with its element, whole
      const end = PROTECTED.test(m[0]) ? closing(inner, m[0], last) : undefined;
      if (end !== undefined) re.lastIndex = last = end;
      out.push({ kind: 'raw', value: inner.slice(m.index, last) });
    }
  }
  text(unescapeXml(inner.slice(last)));
  return out;
}

const PROTECTED = /^<[^/!?][^>]*\s(?:translate\s*=\s*["']no["']|mtype\s*=\s*["']protected["'])[^>]*(?<!\/)>$/;

/** Pieces back to XML: text and tokens escaped, raw inline elements verbatim. */
export function xmlOf(pieces: readonly Piece[]): string {
  return pieces.map((p) => (p.kind === 'raw' ? p.value : escapeXml(p.value))).join('');
}

interface XliffSource extends SourceDoc {
  doc: XDoc;
}

function setAttr(tag: string, name: string, value: string): string {
  const re = new RegExp(`(\\s${name.replace(/[.:-]/g, '\\$&')}\\s*=\\s*)("[^"]*"|'[^']*')`);
  const quoted = `"${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}"`;
  if (re.test(tag)) return tag.replace(re, (_m, pre: string) => `${pre}${quoted}`);
  const close = tag.endsWith('/>') ? tag.length - 2 : tag.length - 1;
  let at = close;
  while (at > 0 && /\s/.test(tag[at - 1])) at--;
  return `${tag.slice(0, at)} ${name}=${quoted}${tag.slice(at)}`;
}

function getAttr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? unescapeXml(m[2] ?? m[3] ?? '') : undefined;
}

/** The whitespace that starts the line of `offset` (the indentation of a new sibling element). */
function indentBefore(text: string, offset: number): string | undefined {
  const nl = text.lastIndexOf('\n', offset - 1);
  if (nl < 0) return undefined;
  const lead = text.slice(nl + 1, offset);
  return /^[ \t]*$/.test(lead) ? text.slice(text.lastIndexOf('\n', offset - 1), offset).replace(/^\r?\n/, '') : undefined;
}

export const xliff: FileFormat = {
  name: 'xliff',
  parseSource(text, file): XliffSource {
    const doc = scan(text, file);
    const units = doc.units
      .filter((u) => u.translate)
      .map((u) => {
        const raw = text.slice(u.source.start, u.source.end);
        // a segmented unit: each segment of its <seg-source> is a part (and its segmentation is part of its source)
        if (u.segs?.length) {
          const parts = u.segs.map((r) => xmlPieces(text.slice(r.start, r.end)));
          return { key: u.key, parts, hash: hash(`${raw}\u0000${text.slice(u.segSource!.start, u.segSource!.end)}`), line: lineAt(text, u.sourceEl.start) };
        }
        return { key: u.key, parts: [xmlPieces(raw)], hash: hash(raw), line: lineAt(text, u.sourceEl.start) };
      });
    return { format: 'xliff', file, text, language: doc.sourceLanguage, targetLanguage: doc.targetLanguage, units, doc };
  },

  parseTarget(text, file): TargetDoc & { doc: XDoc } {
    const doc = scan(text, file);
    const values = new Map<string, string>();
    const pending = new Set<string>();
    const aliases = new Map<string, string>();
    const lines = new Map<string, number>();
    for (const u of doc.units) {
      lines.set(u.key, lineAt(text, (u.target ?? u.sourceEl).start));
      if (u.legacyKey) aliases.set(u.key, u.legacyKey);
      // an empty target counts only for an empty source
      if (u.targetInner && (u.targetInner.end > u.targetInner.start || u.source.end === u.source.start)) values.set(u.key, joinParts([text.slice(u.targetInner.start, u.targetInner.end)]));
      // the state says "not translated yet" (Multilingual App Toolkit and XLIFF Sync copy the source with state="new" / "needs-translation")
      const state = u.segmentTag ? getAttr(text.slice(u.segmentTag.start, u.segmentTag.end), 'state') : u.target && getAttr(text.slice(u.target.start, u.targetInner!.start), 'state');
      if (state !== undefined && (doc.version === '1.2' ? state === 'new' || state === 'needs-translation' : state === 'initial')) pending.add(u.key);
    }
    return { text, values, doc, pending, aliases, lines };
  },

  render(source, lang, values, target, opts: RenderOptions): string {
    const { doc, text } = source as XliffSource;
    const old = target as OldTarget | undefined;
    const nl = text.includes('\r\n') ? '\r\n' : '\n';
    const r: Render = {
      text,
      doc,
      old,
      oldUnits: new Map(old?.doc.units.map((u) => [u.key, u])),
      state: opts.state ?? XLIFF_STATES[doc.version][0],
      edits: [],
      lineAs: (offset) => {
        const indent = indentBefore(text, offset);
        return indent !== undefined ? `${nl}${indent}` : '';
      },
      translated: new Map(),
    };
    for (const t of doc.langTags) r.edits.push([t.start, t.end, setAttr(text.slice(t.start, t.end), doc.version === '1.2' ? 'target-language' : 'trgLang', lang)]);
    for (const u of doc.units) if (u.translate) unitEdits(r, u, values.get(u.key));
    for (const [info, anew] of r.translated) unitTagEdits(r, info, anew);
    return applyEdits(text, r.edits);
  },

  // a segmented unit's target mirrors its <seg-source>: segment beside segment
  translations(unit, value) {
    if (unit.parts.length === 1) return [{ source: unit.parts[0], translation: xmlPieces(value) }];
    const segs = segRanges(value, { start: 0, end: value.length });
    return segs.length === unit.parts.length ? segs.map((r, i) => ({ source: unit.parts[i], translation: xmlPieces(value.slice(r.start, r.end)) })) : [{ source: unit.parts.flat(), translation: xmlPieces(value).filter((p) => !/^<\/?mrk\b/.test(p.value)) }];
  },

  written: (source, unit, value) => {
    const src = source as XliffSource;
    const u = unitsByKey(src.doc).get(unit.key);
    return joinParts([u ? targetBody(src.text, u, value.parts) : xmlOf(value.parts[0])]);
  },

  targetName(name, lang, sourceLanguage) {
    // app.g.xlf -> app.de-DE.xlf; app.en-US.xlf -> app.de-DE.xlf; app.xlf -> app.de-DE.xlf; Sales.App.xlf -> Sales.App.de-DE.xlf
    const m = /^(.*?)(?:\.(g|[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*))?\.(xlf|xliff|xlf2)$/i.exec(name);
    if (!m) return `${name}.${lang}.xlf`;
    const [, base, tag, ext] = m;
    // the part before the extension is replaced when it is .g or the source's language, not any short word
    return tag === undefined || tag === 'g' || namesLanguage(tag, sourceLanguage) ? `${base}.${lang}.${ext}` : `${base}.${tag}.${lang}.${ext}`;
  },
};

/** 2.x has no state saying "review the translation": the user-defined sub-state vx writes beside `translated` */
type OldTarget = TargetDoc & { doc: XDoc };

/** One render: the source, the target it replaces, and the edits made so far. */
interface Render {
  text: string;
  doc: XDoc;
  old: OldTarget | undefined;
  oldUnits: Map<string, XUnit>;
  state: string;
  edits: [number, number, string][];
  /** a line break and the indentation of the element at `offset` (nothing on one line) */
  lineAs: (offset: number) => string;
  /** units with a translation, and whether one of their segments is translated anew */
  translated: Map<XUnitInfo, boolean>;
}

/** The target of one unit (or 2.x segment): written, kept from the old target, or dropped. */
function unitEdits(r: Render, u: XUnit, v: UnitValue | undefined): void {
  const { text, doc, old, edits, lineAs } = r;
  let element: string | undefined;
  let segState: string | undefined;
  let segSub: string | undefined;
  if (v?.kind === 'keep') {
    ({ element, segState, segSub } = keptTarget(old!, r.oldUnits.get(u.key)!, Boolean(v.review)));
  } else if (v?.kind === 'new') {
    const body = targetBody(text, u, v.parts);
    if (doc.version === '1.2') element = `<target state="${r.state}">${body}</target>`;
    else {
      element = `<target>${body}</target>`;
      segState = r.state;
    }
  }
  if (element === undefined) {
    // untranslated: a target the source carried (a copy of the source, say) is dropped, so nothing passes as translated
    if (u.target) edits.push([removalStart(text, u.target.start), u.target.end, '']);
    return;
  }
  r.translated.set(u.unit, r.translated.get(u.unit) === true || v!.kind === 'new');
  // 1.2: the target's own notes and alt-trans follow its <target>
  if (doc.version === '1.2' && old) for (const n of ownNotes(text, u.unit, old.text, old.doc.unitInfos.get(u.unit.key))) element += `${lineAs(u.sourceEl.start)}${n}`;
  if (u.target) edits.push([u.target.start, u.target.end, element]);
  // (1.2: after <seg-source>, which comes before <target> in a trans-unit)
  else edits.push([(u.segSourceEl ?? u.sourceEl).end, (u.segSourceEl ?? u.sourceEl).end, `${lineAs(u.sourceEl.start)}${element}`]);
  if (u.segmentTag && segState !== undefined) {
    const withState = setAttr(text.slice(u.segmentTag.start, u.segmentTag.end), 'state', segState);
    edits.push([u.segmentTag.start, u.segmentTag.end, segSub !== undefined ? setAttr(withState, 'subState', segSub) : withState]);
  }
}

/** What a translated unit keeps of the old target's unit: the attributes only it has, and (2.x) its own notes. */
function unitTagEdits(r: Render, info: XUnitInfo, anew: boolean): void {
  const { text, doc, old, edits, lineAs } = r;
  const o = old?.doc.unitInfos.get(info.key);
  if (!o) return;
  const tag = text.slice(info.tag.start, info.tag.end);
  let edited = tag;
  // attributes only the target has (a translation made anew is not approved)
  for (const [name, value] of Object.entries(o.attrs)) if (!(name in info.attrs) && !(anew && name === 'approved')) edited = setAttr(edited, name, value);
  const notes = doc.version === '2.0' ? ownNotes(text, info, old!.text, o) : [];
  const last = info.notes[info.notes.length - 1];
  if (notes.length && last) edits.push([last.end, last.end, notes.map((n) => `${lineAs(last.start)}${n}`).join('')]);
  else if (notes.length) {
    // a <notes> of their own, first in the unit, one level deeper than the unit's children
    const child = info.notesEl?.start ?? info.firstChild ?? info.tag.end;
    const [outer, inner] = [indentBefore(text, info.tag.start), indentBefore(text, child)];
    const step = outer !== undefined && inner !== undefined && inner.startsWith(outer) ? inner.slice(outer.length) : '';
    const block = `<notes>${notes.map((n) => `${lineAs(child)}${step}${n}`).join('')}${lineAs(child)}</notes>`;
    if (info.notesEl) edits.push([info.notesEl.start, info.notesEl.end, block]);
    else edited += `${lineAs(child)}${block}`;
  }
  if (edited !== tag) edits.push([info.tag.start, info.tag.end, edited]);
}

export const NEEDS_REVIEW_2 = 'vx:needs-review';

/**
 * A target kept from the existing file, with its 2.x segment's state and sub-state. `review`: its
 * source changed since a person translated it; 1.2 says so with state="needs-review-translation",
 * 2.x (whose states are initial, translated, reviewed, final) with state="translated" (no longer
 * reviewed or final) and subState="vx:needs-review".
 */
function keptTarget(old: TargetDoc & { doc: XDoc }, o: XUnit, review: boolean): { element: string; segState?: string; segSub?: string } {
  let element = old.text.slice(o.target!.start, o.target!.end);
  const tag = o.segmentTag && old.text.slice(o.segmentTag.start, o.segmentTag.end);
  if (review && old.doc.version === '1.2') {
    const open = o.targetInner!.start - o.target!.start;
    element = setAttr(element.slice(0, open), 'state', 'needs-review-translation') + element.slice(open);
  }
  if (review && tag !== undefined) return { element, segState: 'translated', segSub: NEEDS_REVIEW_2 };
  return { element, segState: tag && getAttr(tag, 'state'), segSub: tag && getAttr(tag, 'subState') };
}

const byKey = new WeakMap<XDoc, Map<string, XUnit>>();

function unitsByKey(doc: XDoc): Map<string, XUnit> {
  let m = byKey.get(doc);
  if (!m) byKey.set(doc, (m = new Map(doc.units.map((u) => [u.key, u]))));
  return m;
}

/** The content of a unit's new <target>: its translation, or for a segmented unit its <seg-source> with each segment's translation in place. */
function targetBody(text: string, u: XUnit, parts: readonly Piece[][]): string {
  if (!u.segs?.length) return xmlOf(parts[0]);
  let out = '';
  let last = u.segSource!.start;
  u.segs.forEach((r, i) => {
    out += text.slice(last, r.start) + xmlOf(parts[i] ?? []);
    last = r.end;
  });
  return out + text.slice(last, u.segSource!.end);
}

/** The notes (1.2 also alt-trans) of a target's unit that the source's unit does not have, as written in the target. */
function ownNotes(text: string, unit: XUnitInfo, oldText: string, old: XUnitInfo | undefined): string[] {
  if (!old?.notes.length) return [];
  const have = new Set(unit.notes.map((r) => text.slice(r.start, r.end)));
  return old.notes.map((r) => oldText.slice(r.start, r.end)).filter((n) => !have.has(n));
}

/** A removed element takes the line it stood on with it (its indentation and line break). */
function removalStart(text: string, start: number): number {
  const nl = text.lastIndexOf('\n', start - 1);
  return nl >= 0 && /^[ \t]*$/.test(text.slice(nl + 1, start)) ? (text[nl - 1] === '\r' ? nl - 1 : nl) : start;
}

export function xliffVersion(doc: SourceDoc): '1.2' | '2.0' {
  return (doc as XliffSource).doc.version;
}
