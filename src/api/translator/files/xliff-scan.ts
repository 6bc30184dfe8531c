// The structure of an XLIFF 1.2 or 2.x document, read with saxes (a conforming, well-kept XML
// parser that reports the position of every event and the line and column of every
// well-formedness error): its units (1.2 <trans-unit>, 2.x each <segment> of a <unit>) with the
// ranges of their source, target and start tags, what the units carry of their own (attributes,
// notes), and the tags whose language attribute a target sets. xliff.ts writes targets from it.
import type { SaxesTag } from 'saxes';
import { UsageError } from '../../../core/errors.js';
import { lineAt } from './types.js';

let saxes: typeof import('saxes') | undefined;

export async function loadXliff(): Promise<void> {
  saxes ??= await import('saxes');
}

export interface Range {
  start: number;
  end: number;
}

export interface XUnit {
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
export interface XUnitInfo {
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

export interface XDoc {
  version: '1.2' | '2.0';
  units: XUnit[];
  /** by key */
  unitInfos: Map<string, XUnitInfo>;
  /** start tags whose language attribute is set: 1.2 every <file>, 2.0 the <xliff> root */
  langTags: Range[];
  sourceLanguage?: string;
  /** 1.2 the first file's target-language, 2.x trgLang */
  targetLanguage?: string;
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
export function scan(text: string, file: string): XDoc {
  const parser = new saxes!.SaxesParser({ position: true, fileName: file });
  const stack: Frame[] = [];
  const units: XUnit[] = [];
  const unitInfos = new Map<string, XUnitInfo>();
  const langTags: Range[] = [];
  let version: XDoc['version'] | undefined;
  let sourceLanguage: string | undefined;
  let targetLanguage: string | undefined;
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
        targetLanguage = attrs.trgLang;
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
        targetLanguage ??= attrs['target-language'];
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
  return { version, units, unitInfos, langTags, sourceLanguage, targetLanguage };
}

const XML_ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9A-Fa-f]+));/g;
const XML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function unescapeXml(s: string): string {
  return s.replace(XML_ENTITY, (_m, n: string | undefined, d: string | undefined, h: string | undefined) => (n ? XML_NAMED[n] : String.fromCodePoint(d !== undefined ? Number(d) : parseInt(h!, 16))));
}

/** Where the element opened by `tag` (ending at `from`) ends: after its matching close tag (undefined without one). */
export function closing(inner: string, tag: string, from: number): number | undefined {
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

/** The content ranges of the <mrk mtype="seg"> elements of a <seg-source> (at its top level). */
export function segRanges(text: string, inner: Range): Range[] {
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

