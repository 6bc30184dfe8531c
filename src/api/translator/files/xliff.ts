// XLIFF 1.2 and 2.0. Read with saxes (a conforming, well-kept XML parser that reports the
// position of every event and the line and column of every well-formedness error); written by
// surgical edits at those positions: a <target> inserted after or replacing the unit's target,
// target-language/trgLang set, nothing else of the file touched (ids, notes, attributes,
// whitespace, comments and translate="no" units stay byte for byte). A unit translated before
// keeps what only its target has: attributes of its start tag (approved="yes"), notes, 1.2 alt-trans.
import type { SaxesTag } from 'saxes';
import { UsageError } from '../../../core/errors.js';
import type { Piece } from './protect.js';
import { applyEdits, hash, joinParts, lineAt, namesLanguage, type FileFormat, type RenderOptions, type SourceDoc, type TargetDoc, type UnitValue } from './types.js';

let saxes: typeof import('saxes') | undefined;

export async function loadXliff(): Promise<void> {
  saxes ??= await import('saxes');
}

/** The states vx may write on a machine-translated unit, per version (defaults first). */
export const XLIFF_STATES = {
  '1.2': ['needs-review-translation', 'translated', 'needs-translation', 'needs-adaptation', 'needs-l10n', 'needs-review-adaptation', 'needs-review-l10n', 'signed-off', 'final', 'new'],
  '2.0': ['translated', 'initial', 'reviewed', 'final'],
} as const;

interface Range {
  start: number;
  end: number;
}

interface XUnit {
  /** 1.2: file id/unit id; 2.x: file id/unit id#segment id, or file id/unit id/position for a segment without an id */
  key: string;
  /** 2.x, a segment with an id: the position key earlier versions of vx gave it (lock files they wrote use it) */
  legacyKey?: string;
  /** 2.x: the segment's id */
  segId?: string;
  /** the source element's content */
  source: Range;
  /** the whole <source ...>...</source> */
  sourceEl: Range;
  /** 1.2: the <seg-source> (a segmented unit: its target mirrors it) and its content */
  segSourceEl?: Range;
  segSource?: Range;
  /** 1.2: the contents of the <mrk mtype="seg"> segments of <seg-source>, each translated on its own */
  segs?: Range[];
  /** the whole <target> element when there is one, and its content */
  target?: Range;
  targetInner?: Range;
  /** 2.0: the <segment> start tag (its state attribute is set) */
  segmentTag?: Range;
  translate: boolean;
  /** the unit it is a segment of */
  unit: XUnitInfo;
}

/** A unit (1.2 <trans-unit>, 2.0 <unit>) beside its segments: what a target keeps of its own. */
interface XUnitInfo {
  /** file id / unit id */
  key: string;
  /** its start tag and that tag's attributes */
  tag: Range;
  attrs: Record<string, string>;
  /** 1.2: its <note> and <alt-trans> children; 2.0: the <note>s of its <notes> */
  notes: Range[];
  /** 2.0: its <notes> element */
  notesEl?: Range;
  /** where its first child element starts */
  firstChild?: number;
}

interface XDoc {
  version: '1.2' | '2.0';
  units: XUnit[];
  /** by key */
  unitInfos: Map<string, XUnitInfo>;
  /** start tags whose language attribute is set: 1.2 every <file>, 2.0 the <xliff> root */
  langTags: Range[];
  sourceLanguage?: string;
}

interface Frame {
  name: string;
  start: number;
  openEnd: number;
  attrs: Record<string, string>;
  translate: boolean;
}

function local(name: string): string {
  const i = name.indexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}

/** Reads the structure of an XLIFF document; a malformed one is a usage error naming file:line:column. */
function scan(text: string, file: string): XDoc {
  const parser = new saxes!.SaxesParser({ position: true, fileName: file });
  const stack: Frame[] = [];
  const units: XUnit[] = [];
  const unitInfos = new Map<string, XUnitInfo>();
  const langTags: Range[] = [];
  let version: XDoc['version'] | undefined;
  let sourceLanguage: string | undefined;
  let fileIndex = -1;
  let fileId = '';
  let current: { id: string; translate: boolean; segments: XUnit[]; info: XUnitInfo } | undefined;
  let segIndex = 0;
  let segment: Partial<XUnit> | undefined;
  const ids = new Set<string>();
  parser.on('opentag', (tag: SaxesTag) => {
    const end = parser.position;
    const start = text.lastIndexOf('<', end - 1);
    const name = local(tag.name);
    const attrs = tag.attributes as Record<string, string>;
    const parent = stack[stack.length - 1];
    const translate = attrs.translate !== undefined ? attrs.translate !== 'no' : (parent?.translate ?? true);
    const frame: Frame = { name, start, openEnd: end, attrs, translate };
    if (current && current.info.firstChild === undefined && parent?.start === current.info.tag.start) current.info.firstChild = start;
    if (!tag.isSelfClosing) stack.push(frame);
    if (name === 'xliff' && stack.length <= 1) {
      const v = attrs.version;
      if (v === '1.2') version = '1.2';
      else if (v === '2.0' || v === '2.1' || v === '2.2') version = '2.0';
      else throw new UsageError(`${file}:${lineAt(text, start)}: unsupported XLIFF version "${v ?? ''}" (vx reads 1.2 and 2.x)`);
      if (version === '2.0') {
        langTags.push({ start, end });
        sourceLanguage = attrs.srcLang;
      }
      return;
    }
    if (!version) throw new UsageError(`${file}:${lineAt(text, start)}: not an XLIFF document (the root element is <${tag.name}>, not <xliff>)`);
    if (name === 'file') {
      fileIndex++;
      fileId = attrs.id ?? attrs.original ?? String(fileIndex);
      if (version === '1.2') {
        langTags.push({ start, end });
        sourceLanguage ??= attrs['source-language'];
      }
      return;
    }
    if ((version === '1.2' && name === 'trans-unit') || (version === '2.0' && name === 'unit')) {
      const info: XUnitInfo = { key: `${fileId}/${attrs.id ?? ''}`, tag: { start, end }, attrs, notes: [] };
      unitInfos.set(info.key, info);
      current = { id: attrs.id ?? '', translate, segments: [], info };
      if (version === '1.2') segment = {};
      else segIndex = 0;
      return;
    }
    if (version === '2.0' && name === 'segment' && current) {
      segment = { segmentTag: { start, end }, segId: attrs.id };
      return;
    }
  });
  parser.on('closetag', (tag: SaxesTag) => {
    const end = parser.position;
    const name = local(tag.name);
    // an empty <target/> (or <source/>) is an element like any other: a second <target> must not be added beside it
    const empty = tag.isSelfClosing && (name === 'source' || name === 'target' || name === 'notes');
    const frame = empty ? { name, start: text.lastIndexOf('<', end - 1), openEnd: end } : tag.isSelfClosing ? undefined : stack.pop();
    if (!frame) return;
    const closeStart = empty ? end : text.lastIndexOf('</', end - 1);
    const inner = { start: frame.openEnd, end: closeStart };
    const whole = { start: frame.start, end };
    const parent = stack[stack.length - 1];
    const inUnit = current && segment && parent && (version === '1.2' ? local(parent.name) === 'trans-unit' : local(parent.name) === 'segment');
    const unitLevel = current && parent?.start === current.info.tag.start;
    if (unitLevel && version === '1.2' && (name === 'note' || name === 'alt-trans')) current!.info.notes.push(whole);
    else if (unitLevel && version === '2.0' && name === 'notes') current!.info.notesEl = whole;
    else if (current && version === '2.0' && name === 'note' && parent && local(parent.name) === 'notes' && stack[stack.length - 2]?.start === current.info.tag.start) current.info.notes.push(whole);
    else if (name === 'source' && inUnit) {
      segment!.source = inner;
      segment!.sourceEl = whole;
    } else if (name === 'seg-source' && inUnit && version === '1.2') {
      segment!.segSource = inner;
      segment!.segSourceEl = whole;
      segment!.segs = segRanges(text, inner);
    } else if (name === 'target' && inUnit) {
      segment!.target = whole;
      segment!.targetInner = inner;
    } else if (version === '2.0' && name === 'segment' && current && segment) {
      if (segment.source) {
        // by its id (unique within the unit): inserting or removing a segment leaves the others' keys alone
        const { segId } = segment;
        const at = `${fileId}/${current.id}/${segIndex}`;
        const key = segId === undefined ? at : `${fileId}/${current.id}#${segId}`;
        if (segId !== undefined && current.segments.some((s) => s.key === key)) throw new UsageError(`${file}:${lineAt(text, frame.start)}: the segment id "${segId}" appears twice in unit "${current.id}"`);
        current.segments.push({ ...(segment as XUnit), key, ...(segId !== undefined ? { legacyKey: at } : {}), translate: current.translate, unit: current.info });
      }
      segIndex++;
      segment = undefined;
    } else if ((version === '1.2' && name === 'trans-unit') || (version === '2.0' && name === 'unit')) {
      if (current) {
        if (version === '1.2' && segment?.source) current.segments.push({ ...(segment as XUnit), key: `${fileId}/${current.id}`, translate: current.translate, unit: current.info });
        for (const s of current.segments) {
          if (ids.has(s.key)) throw new UsageError(`${file}:${lineAt(text, frame.start)}: the unit id "${current.id}" appears twice${fileIndex > 0 ? ` in file "${fileId}"` : ''}`);
          ids.add(s.key);
          units.push(s);
        }
      }
      current = undefined;
      segment = undefined;
    }
  });
  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${(e as Error).message.replace(/\.$/, '')}`);
  }
  if (!version) throw new UsageError(`${file}: not an XLIFF document (no <xliff> element)`);
  return { version, units, unitInfos, langTags, sourceLanguage };
}

const XML_ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9A-Fa-f]+));/g;
const XML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  return s.replace(XML_ENTITY, (_m, n: string | undefined, d: string | undefined, h: string | undefined) => (n ? XML_NAMED[n] : String.fromCodePoint(d !== undefined ? Number(d) : parseInt(h!, 16))));
}

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

/** Where the element opened by `tag` (ending at `from`) ends: after its matching close tag (undefined without one). */
function closing(inner: string, tag: string, from: number): number | undefined {
  const name = /^<([^\s/>]+)/.exec(tag)![1];
  const re = new RegExp(`<(/?)${name.replace(/[.:-]/g, '\\$&')}(?=[\\s/>])[^>]*?(/?)>`, 'g');
  re.lastIndex = from;
  let depth = 1;
  for (let m = re.exec(inner); m; m = re.exec(inner)) {
    if (m[1]) depth--;
    else if (!m[2]) depth++;
    if (depth === 0) return m.index + m[0].length;
  }
  return undefined;
}

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
    return { format: 'xliff', file, text, language: doc.sourceLanguage, units, doc };
  },

  parseTarget(text, file): TargetDoc & { doc: XDoc } {
    const doc = scan(text, file);
    const values = new Map<string, string>();
    const pending = new Set<string>();
    const aliases = new Map<string, string>();
    for (const u of doc.units) {
      if (u.legacyKey) aliases.set(u.key, u.legacyKey);
      // an empty target counts only for an empty source
      if (u.targetInner && (u.targetInner.end > u.targetInner.start || u.source.end === u.source.start)) values.set(u.key, joinParts([text.slice(u.targetInner.start, u.targetInner.end)]));
      // the state says "not translated yet" (Multilingual App Toolkit and XLIFF Sync copy the source with state="new" / "needs-translation")
      const state = u.segmentTag ? getAttr(text.slice(u.segmentTag.start, u.segmentTag.end), 'state') : u.target && getAttr(text.slice(u.target.start, u.targetInner!.start), 'state');
      if (state !== undefined && (doc.version === '1.2' ? state === 'new' || state === 'needs-translation' : state === 'initial')) pending.add(u.key);
    }
    return { text, values, doc, pending, aliases };
  },

  render(source, lang, values, target, opts: RenderOptions): string {
    const src = source as XliffSource;
    const { doc } = src;
    const text = src.text;
    const old = target as (TargetDoc & { doc: XDoc }) | undefined;
    const oldUnits = new Map(old?.doc.units.map((u) => [u.key, u]));
    const state = opts.state ?? XLIFF_STATES[doc.version][0];
    const edits: [number, number, string][] = [];
    const nl = text.includes('\r\n') ? '\r\n' : '\n';
    /** a line break and the indentation of the element at `offset` (nothing on one line) */
    const lineAs = (offset: number) => {
      const indent = indentBefore(text, offset);
      return indent !== undefined ? `${nl}${indent}` : '';
    };
    /** units with a translation, and whether one of their segments is translated anew */
    const translated = new Map<XUnitInfo, boolean>();
    for (const t of doc.langTags) {
      const tag = text.slice(t.start, t.end);
      edits.push([t.start, t.end, setAttr(tag, doc.version === '1.2' ? 'target-language' : 'trgLang', lang)]);
    }
    for (const u of doc.units) {
      const v: UnitValue | undefined = u.translate ? values.get(u.key) : undefined;
      if (!u.translate) continue;
      let element: string | undefined;
      let segState: string | undefined;
      if (v?.kind === 'keep') {
        const o = oldUnits.get(u.key)!;
        element = old!.text.slice(o.target!.start, o.target!.end);
        if (o.segmentTag) segState = getAttr(old!.text.slice(o.segmentTag.start, o.segmentTag.end), 'state');
      } else if (v?.kind === 'new') {
        const body = targetBody(text, u, v.parts);
        if (doc.version === '1.2') element = `<target state="${state}">${body}</target>`;
        else {
          element = `<target>${body}</target>`;
          segState = state;
        }
      }
      if (element === undefined) {
        // untranslated: a target the source carried (a copy of the source, say) is dropped, so nothing passes as translated
        if (u.target) edits.push([removalStart(text, u.target.start), u.target.end, '']);
        continue;
      }
      translated.set(u.unit, translated.get(u.unit) === true || v!.kind === 'new');
      // 1.2: the target's own notes and alt-trans follow its <target>
      if (doc.version === '1.2' && old) for (const n of ownNotes(text, u.unit, old.text, old.doc.unitInfos.get(u.unit.key))) element += `${lineAs(u.sourceEl.start)}${n}`;
      if (u.target) edits.push([u.target.start, u.target.end, element]);
      // (1.2: after <seg-source>, which comes before <target> in a trans-unit)
      else edits.push([(u.segSourceEl ?? u.sourceEl).end, (u.segSourceEl ?? u.sourceEl).end, `${lineAs(u.sourceEl.start)}${element}`]);
      if (u.segmentTag && segState !== undefined) {
        const tag = text.slice(u.segmentTag.start, u.segmentTag.end);
        edits.push([u.segmentTag.start, u.segmentTag.end, setAttr(tag, 'state', segState)]);
      }
    }
    for (const [info, anew] of translated) {
      const o = old?.doc.unitInfos.get(info.key);
      if (!o) continue;
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
    return applyEdits(text, edits);
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

/** The content ranges of the <mrk mtype="seg"> elements of a <seg-source> (at its top level). */
function segRanges(text: string, inner: Range): Range[] {
  const content = text.slice(inner.start, inner.end);
  const out: Range[] = [];
  const re = /<mrk\b[^>]*>/g;
  for (let m = re.exec(content); m; m = re.exec(content)) {
    const end = closing(content, m[0], m.index + m[0].length);
    if (end === undefined) break;
    if (/\smtype\s*=\s*["']seg["']/.test(m[0])) {
      const close = content.lastIndexOf('</', end - 1);
      out.push({ start: inner.start + m.index + m[0].length, end: inner.start + close });
    }
    re.lastIndex = end;
  }
  return out;
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
