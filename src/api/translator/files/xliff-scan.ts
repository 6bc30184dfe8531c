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

type OpenUnit = { id: string; translate: boolean; segments: XUnit[]; info: XUnitInfo };

/** What the parser's events build: the open elements, the unit and segment being read, and what is done. */
class Scan {
  readonly stack: Frame[] = [];
  readonly units: XUnit[] = [];
  readonly unitInfos = new Map<string, XUnitInfo>();
  readonly langTags: Range[] = [];
  version: XDoc['version'] | undefined;
  sourceLanguage: string | undefined;
  targetLanguage: string | undefined;
  private fileIndex = -1;
  private fileId = '';
  private current: OpenUnit | undefined;
  private segIndex = 0;
  private segment: Partial<XUnit> | undefined;
  private readonly ids = new Set<string>();

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  private at(pos: number): string {
    return `${this.file}:${lineAt(this.text, pos)}`;
  }

  private isUnit(name: string): boolean {
    return (this.version === '1.2' && name === 'trans-unit') || (this.version === '2.0' && name === 'unit');
  }

  open(tag: SaxesTag, end: number): void {
    const start = this.text.lastIndexOf('<', end - 1);
    const name = local(tag.name);
    const attrs = tag.attributes as Record<string, string>;
    const parent = this.stack[this.stack.length - 1];
    const translate = attrs.translate !== undefined ? attrs.translate !== 'no' : (parent?.translate ?? true);
    const current = this.current;
    if (current && current.info.firstChild === undefined && parent?.start === current.info.tag.start) current.info.firstChild = start;
    if (!tag.isSelfClosing) this.stack.push({ name, start, openEnd: end, attrs, translate });
    if (name === 'xliff' && this.stack.length <= 1) return this.openRoot(attrs, { start, end });
    if (!this.version) throw new UsageError(`${this.at(start)}: not an XLIFF document (the root element is <${tag.name}>, not <xliff>)`);
    if (name === 'file') {
      this.fileIndex++;
      this.fileId = attrs.id ?? attrs.original ?? String(this.fileIndex);
      if (this.version === '1.2') {
        this.langTags.push({ start, end });
        this.sourceLanguage ??= attrs['source-language'];
        this.targetLanguage ??= attrs['target-language'];
      }
    } else if (this.isUnit(name)) {
      const info: XUnitInfo = { key: `${this.fileId}/${attrs.id ?? ''}`, tag: { start, end }, attrs, notes: [] };
      this.unitInfos.set(info.key, info);
      this.current = { id: attrs.id ?? '', translate, segments: [], info };
      if (this.version === '1.2') this.segment = {};
      else this.segIndex = 0;
    } else if (this.version === '2.0' && name === 'segment' && current) {
      this.segment = { segmentTag: { start, end }, segId: attrs.id };
    }
  }

  private openRoot(attrs: Record<string, string>, tag: Range): void {
    const v = attrs.version;
    if (v === '1.2') this.version = '1.2';
    else if (v === '2.0' || v === '2.1' || v === '2.2') this.version = '2.0';
    else throw new UsageError(`${this.at(tag.start)}: unsupported XLIFF version "${v ?? ''}" (vx reads 1.2 and 2.x)`);
    if (this.version === '2.0') {
      this.langTags.push(tag);
      this.sourceLanguage = attrs.srcLang;
      this.targetLanguage = attrs.trgLang;
    }
  }

  close(tag: SaxesTag, end: number): void {
    const name = local(tag.name);
    // an empty <target/> (or <source/>) is an element like any other: a second <target> must not be added beside it
    const empty = tag.isSelfClosing && (name === 'source' || name === 'target' || name === 'notes');
    const frame = empty ? { name, start: this.text.lastIndexOf('<', end - 1), openEnd: end } : tag.isSelfClosing ? undefined : this.stack.pop();
    if (!frame) return;
    const inner = { start: frame.openEnd, end: empty ? end : this.text.lastIndexOf('</', end - 1) };
    const whole = { start: frame.start, end };
    const { current, segment, stack, version } = this;
    const parent = stack[stack.length - 1];
    const inUnit = current && segment && parent && (version === '1.2' ? local(parent.name) === 'trans-unit' : local(parent.name) === 'segment');
    const unitLevel = current && parent?.start === current.info.tag.start;
    if (unitLevel && version === '1.2' && (name === 'note' || name === 'alt-trans')) current.info.notes.push(whole);
    else if (unitLevel && version === '2.0' && name === 'notes') current.info.notesEl = whole;
    else if (current && version === '2.0' && name === 'note' && parent && local(parent.name) === 'notes' && stack[stack.length - 2]?.start === current.info.tag.start) current.info.notes.push(whole);
    else if (name === 'source' && inUnit) Object.assign(segment, { source: inner, sourceEl: whole });
    else if (name === 'seg-source' && inUnit && version === '1.2') Object.assign(segment, { segSource: inner, segSourceEl: whole, segs: segRanges(this.text, inner) });
    else if (name === 'target' && inUnit) Object.assign(segment, { target: whole, targetInner: inner });
    else if (version === '2.0' && name === 'segment' && current && segment) this.closeSegment(current, segment, frame.start);
    else if (this.isUnit(name)) this.closeUnit(frame.start);
  }

  /** 2.x: a segment keyed by its id (unique within the unit): inserting or removing a segment leaves the others' keys alone. */
  private closeSegment(current: OpenUnit, segment: Partial<XUnit>, start: number): void {
    if (segment.source) {
      const { segId } = segment;
      const at = `${this.fileId}/${current.id}/${this.segIndex}`;
      const key = segId === undefined ? at : `${this.fileId}/${current.id}#${segId}`;
      if (segId !== undefined && current.segments.some((s) => s.key === key)) throw new UsageError(`${this.at(start)}: the segment id "${segId}" appears twice in unit "${current.id}"`);
      current.segments.push({ ...(segment as XUnit), key, ...(segId !== undefined ? { legacyKey: at } : {}), translate: current.translate, unit: current.info });
    }
    this.segIndex++;
    this.segment = undefined;
  }

  private closeUnit(start: number): void {
    const { current, segment } = this;
    if (current) {
      if (this.version === '1.2' && segment?.source) current.segments.push({ ...(segment as XUnit), key: `${this.fileId}/${current.id}`, translate: current.translate, unit: current.info });
      for (const s of current.segments) {
        if (this.ids.has(s.key)) throw new UsageError(`${this.at(start)}: the unit id "${current.id}" appears twice${this.fileIndex > 0 ? ` in file "${this.fileId}"` : ''}`);
        this.ids.add(s.key);
        this.units.push(s);
      }
    }
    this.current = undefined;
    this.segment = undefined;
  }
}

/** Reads the structure of an XLIFF document; a malformed one is a usage error naming file:line:column. */
export function scan(text: string, file: string): XDoc {
  const parser = new saxes!.SaxesParser({ position: true, fileName: file });
  const doc = new Scan(text, file);
  parser.on('opentag', (tag: SaxesTag) => doc.open(tag, parser.position));
  parser.on('closetag', (tag: SaxesTag) => doc.close(tag, parser.position));
  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${(e as Error).message.replace(/\.$/, '')}`);
  }
  const { version, units, unitInfos, langTags, sourceLanguage, targetLanguage } = doc;
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

