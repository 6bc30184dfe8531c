// The element tree of an XML resource file (Android strings.xml, .NET .resx, Apple .stringsdict)
// with the offset of every tag, read with saxes (the conforming parser the XLIFF reader uses: a
// malformed file is refused with its line and column). Those formats are written by surgical edits
// at these offsets, so that whatever vx does not translate stays byte for byte.
import type { SaxesTag } from 'saxes';
import { UsageError } from '../../../core/errors.js';

let saxes: typeof import('saxes') | undefined;

export async function loadXmlTree(): Promise<void> {
  saxes ??= await import('saxes');
}

export interface XmlNode {
  /** the qualified name as written (`xliff:g`) */
  name: string;
  attrs: Record<string, string>;
  /** `<` of the start tag */
  start: number;
  /** just after the start tag's `>` */
  openEnd: number;
  /** `<` of the end tag (openEnd for an empty element) */
  closeStart: number;
  /** just after the end tag */
  end: number;
  children: XmlNode[];
}

/** Reads a document's elements; a malformed one is a usage error naming file:line:column. */
export function xmlTree(text: string, file: string): XmlNode {
  const parser = new saxes!.SaxesParser({ position: true, fileName: file });
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  parser.on('opentag', (tag: SaxesTag) => {
    const openEnd = parser.position;
    const node: XmlNode = { name: tag.name, attrs: tag.attributes as Record<string, string>, start: text.lastIndexOf('<', openEnd - 1), openEnd, closeStart: openEnd, end: openEnd, children: [] };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else root ??= node;
    stack.push(node);
  });
  parser.on('closetag', (tag: SaxesTag) => {
    const node = stack.pop()!;
    node.end = parser.position;
    node.closeStart = tag.isSelfClosing ? node.end : text.lastIndexOf('</', node.end - 1);
  });
  try {
    parser.write(text).close();
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\.$/, ''));
  }
  if (!root) throw new UsageError(`${file}: no XML element`);
  return root;
}

/** The element's content as written. */
export function inner(text: string, node: XmlNode): string {
  return text.slice(node.openEnd, node.closeStart);
}

/**
 * Where an element's line starts when only white space stands before it on that line (so that
 * removing it takes its indentation and line break too); else the element's own start.
 */
export function lineStart(text: string, node: XmlNode): number {
  const nl = text.lastIndexOf('\n', node.start - 1);
  return /^[ \t]*$/.test(text.slice(nl + 1, node.start)) ? nl + 1 : node.start;
}

/** The range that removes an element with its line (indentation and line break) when it stands alone on it. */
export function removalRange(text: string, node: XmlNode): [number, number] {
  const from = lineStart(text, node);
  if (from === node.start) return [node.start, node.end];
  const m = /^[ \t]*\r?\n/.exec(text.slice(node.end, node.end + 200));
  return m ? [from, node.end + m[0].length] : [node.start, node.end];
}

/** The indentation of the line an element starts on. */
export function indentOf(text: string, node: XmlNode): string {
  const from = lineStart(text, node);
  return from === node.start ? '' : text.slice(from, node.start);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character and entity references resolved. */
export function xmlDecode(s: string): string {
  return s.replace(/&(?:#(\d+)|#x([0-9A-Fa-f]+)|([A-Za-z]+));/g, (m, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name) return ENTITIES[name] ?? m;
    const cp = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
}

/** Text as XML character data (`>` too: `]]>` may not appear in it). */
export function xmlEscape(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}
