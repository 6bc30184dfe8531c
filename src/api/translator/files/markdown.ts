// Markdown (CommonMark + GFM, with YAML/TOML front matter). Read with mdast-util-from-markdown
// and the micromark GFM and front-matter extensions (the unified project's parser: CommonMark
// compliant, and every node carries its source offsets), so a target is the source with only the
// text of paragraphs, headings and table cells replaced. Front matter, code blocks, HTML blocks,
// link reference definitions, table pipes and alignment rows stay byte for byte; inside a block,
// inline code, link targets, images, inline HTML, emphasis markers and line breaks are
// placeholders. A translated paragraph is written on one line (a soft line break is a space).
// Chosen front-matter keys are translated too (front-matter.ts).
import type { Nodes, Root } from 'mdast';
import { FRONT, frontFields, frontValue, type FrontField } from './front-matter.js';
import { piecesText, type Piece } from './protect.js';
import { applyEdits, hash, lineAt, namesLanguage, type FileFormat, type SourceDoc, type SourceUnit, type TargetDoc, type UnitValue } from './types.js';

let lib: { fromMarkdown: typeof import('mdast-util-from-markdown').fromMarkdown; options: import('mdast-util-from-markdown').Options } | undefined;

export async function loadMarkdown(): Promise<void> {
  if (lib) return;
  const [{ fromMarkdown }, { gfm }, { gfmFromMarkdown }, { frontmatter }, { frontmatterFromMarkdown }] = await Promise.all([
    import('mdast-util-from-markdown'),
    import('micromark-extension-gfm'),
    import('mdast-util-gfm'),
    import('micromark-extension-frontmatter'),
    import('mdast-util-frontmatter'),
  ]);
  lib = {
    fromMarkdown,
    options: { extensions: [gfm(), frontmatter(['yaml', 'toml'])], mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])] },
  };
}

interface Block {
  start: number;
  end: number;
  pieces: Piece[];
}

const BLOCKS = new Set(['paragraph', 'heading', 'tableCell']);
const MDX_CODE = /^(?:(?:import|export)\s|\{[\s\S]*\}$)/;
const isMdx = (file: string) => /\.mdx$/i.test(file);

function off(n: Nodes, which: 'start' | 'end'): number {
  return n.position![which].offset!;
}

/** The translatable blocks of a document, in order, with their inline syntax as placeholders. */
function blocks(text: string, mdx: boolean): Block[] {
  const tree: Root = lib!.fromMarkdown(text, lib!.options);
  const out: Block[] = [];
  const visit = (n: Nodes, top = false) => {
    // MDX: import/export statements and {expressions} at the top level are code, not paragraphs
    if (mdx && top && n.type === 'paragraph' && MDX_CODE.test(text.slice(off(n, 'start'), off(n, 'end')))) return;
    if (BLOCKS.has(n.type) && 'children' in n && n.children.length) {
      const kids = n.children as Nodes[];
      const start = off(kids[0], 'start');
      const end = off(kids[kids.length - 1], 'end');
      const texts: [number, number][] = [];
      // a shortcut or collapsed reference ([npm], [npm][]) links by its text: translated, it names
      // no definition; it becomes a full reference ([translated text][npm]) where it ends
      const labels = new Map<number, [number, string]>();
      const collect = (c: Nodes) => {
        if (c.type === 'text') texts.push([off(c, 'start'), off(c, 'end')]);
        else if (c.type === 'link' && isAutolink(text, c)) return;
        else {
          if (c.type === 'linkReference' && c.referenceType !== 'full') labels.set(off(c, 'end'), [c.referenceType === 'collapsed' ? 2 : 0, `[${c.label ?? ''}]`]);
          if ('children' in c) for (const k of c.children as Nodes[]) collect(k);
        }
      };
      for (const k of kids) collect(k);
      const gap = (from: number, to: number) => {
        let g = '';
        let a = from;
        for (const [e, [drop, label]] of labels) {
          if (e <= a || e > to) continue;
          g += text.slice(a, e - drop) + label;
          a = e;
        }
        return g + text.slice(a, to);
      };
      const pieces: Piece[] = [];
      let at = start;
      // a GitHub (and Hugo) alert's marker stays on its own line: `> [!NOTE]` then the text
      const alert = texts[0]?.[0] === start ? ALERT.exec(text.slice(start, texts[0][1])) : null;
      if (alert) {
        pieces.push({ kind: 'token', value: alert[0], tag: 'md' });
        texts[0][0] = at = start + alert[0].length;
      }
      for (const [s, e] of texts) {
        if (s > at) pieces.push({ kind: 'token', value: gap(at, s), tag: 'md' });
        pieces.push(...textPieces(text.slice(s, e)));
        at = e;
      }
      if (end > at) pieces.push({ kind: 'token', value: gap(at, end), tag: 'md' });
      out.push({ start, end, pieces });
      return;
    }
    if ('children' in n) for (const k of n.children as Nodes[]) visit(k, n.type === 'root');
  };
  visit(tree);
  return out;
}

/** A soft line break (and the container prefix of the next line) as a space; linear in the text. */
function softBreaks(s: string): string {
  if (!s.includes('\n')) return s;
  return s
    .split('\n')
    .map((line, i, all) => {
      let a = 0;
      let b = line.length;
      if (i > 0) while (a < b && (line[a] === ' ' || line[a] === '\t' || line[a] === '>')) a++;
      if (i < all.length - 1) while (b > a && (line[b - 1] === ' ' || line[b - 1] === '\t' || line[b - 1] === '\r')) b--;
      return line.slice(a, b);
    })
    .join(' ');
}

/**
 * Hugo and Jekyll shortcodes and Liquid tags: `{{< note >}}`, `{{% /note %}}`, `{% include x.html %}`,
 * `{{ page.title }}`; a block of code (`{% highlight %}...{% endhighlight %}`, `{% raw %}`,
 * `{% comment %}`, `{{< highlight >}}...{{< /highlight >}}`, `{{< code-toggle >}}`) is one with its content.
 */
const SHORTCODE = /\{\{<[^{}]*>\}\}|\{\{%[^{}]*%\}\}|\{%[^{}]*%\}|\{\{[^{}]*\}\}/g;
const CODE_BLOCKS: Record<string, RegExp> = {
  highlight: /\{%-?\s*endhighlight\s*-?%\}|\{\{<\s*\/highlight\s*>\}\}/g,
  // (Hugo's documentation shows configuration in its three formats with it)
  'code-toggle': /\{\{<\s*\/code-toggle\s*>\}\}/g,
  raw: /\{%-?\s*endraw\s*-?%\}/g,
  comment: /\{%-?\s*endcomment\s*-?%\}/g,
  code: /\{\{<\s*\/code\s*>\}\}/g,
};

/** `[!NOTE]` and the line break after it (with the next line's `> `), where a paragraph starts */
const ALERT = /^\[![A-Za-z]+\][ \t]*\r?\n[ \t>]*/;

/** Where a shortcode that opens a block of code ends (after its closing tag), or its own end. */
function shortcodeEnd(s: string, m: RegExpExecArray): number {
  const name = /^\{[{%]?[<%]?-?\s*([\w-]+)/.exec(m[0])?.[1];
  const close = name ? CODE_BLOCKS[name] : undefined;
  const end = m.index + m[0].length;
  if (!close) return end;
  close.lastIndex = end;
  const c = close.exec(s);
  return c ? c.index + c[0].length : end;
}

/**
 * A text node's pieces: text with its soft line breaks as spaces, shortcodes as placeholders. A
 * shortcode that starts or ends a line keeps its line break (the lines of `{{< caution >}}` stay
 * their own: the target's diff shows only the translated text).
 */
function textPieces(s: string): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  SHORTCODE.lastIndex = 0;
  for (let m = SHORTCODE.exec(s); m; m = SHORTCODE.exec(s)) {
    let a = m.index;
    let b = shortcodeEnd(s, m);
    SHORTCODE.lastIndex = b;
    // the line break before (with the prefix of the shortcode's line) and after it
    let k = a;
    while (k > at && (s[k - 1] === ' ' || s[k - 1] === '\t' || s[k - 1] === '>')) k--;
    if (k > at && s[k - 1] === '\n') a = k - 1 - (s[k - 2] === '\r' && k - 2 >= at ? 1 : 0);
    let j = b;
    while (j < s.length && (s[j] === ' ' || s[j] === '\t' || s[j] === '\r')) j++;
    if (s[j] === '\n') {
      j++;
      while (j < s.length && (s[j] === ' ' || s[j] === '\t' || s[j] === '>')) j++;
      b = j;
    }
    if (a > at) out.push({ kind: 'text', value: softBreaks(s.slice(at, a)) });
    out.push({ kind: 'token', value: s.slice(a, b), tag: 'md' });
    at = b;
  }
  if (at < s.length) out.push({ kind: 'text', value: softBreaks(s.slice(at)) });
  return out;
}

/** `<https://x>` and bare www./http links: their text is the address, never translated. */
function isAutolink(text: string, link: Nodes): boolean {
  return text[off(link, 'start')] !== '[';
}

interface MdSource extends SourceDoc {
  blocks: Block[];
  /** the units of the blocks, in their order (after those of the front matter) */
  blockUnits: SourceUnit[];
  /** the front-matter values translated (--front-matter) */
  front: FrontField[];
}

interface MdTarget extends TargetDoc {
  /** each unit's text as the target has it (a front-matter value with its quotes) */
  raw: Map<string, string>;
  /** each block's pieces, read in the whole target (its link reference definitions known) */
  pieces: Map<string, Piece[]>;
  /** the target's blocks do not line up with the order vx last wrote (edited structurally by hand) */
  misaligned?: boolean;
}

export const markdown: FileFormat = {
  name: 'md',
  leavesSource: true,
  parseSource(text, file, opts): MdSource {
    const bs = blocks(text, isMdx(file));
    const seen = new Map<string, number>();
    const blockUnits: SourceUnit[] = bs.map((b) => {
      const raw = text.slice(b.start, b.end);
      const h = hash(raw);
      const n = seen.get(h) ?? 0;
      seen.set(h, n + 1);
      return { key: n ? `${h}#${n + 1}` : h, parts: [b.pieces], hash: h, line: lineAt(text, b.start) };
    });
    const front = frontFields(text, opts?.frontMatter ?? []);
    const units = [...front.map((f) => ({ key: `${FRONT}${f.name}`, parts: [[{ kind: 'text' as const, value: f.value }]], hash: hash(f.value), line: f.line })), ...blockUnits];
    return { format: 'md', file, text, units, blocks: bs, blockUnits, front };
  },

  parseTarget(text, _file, source, _lang, order): MdTarget {
    const bs = blocks(text, isMdx(source.file));
    const values = new Map<string, string>();
    const raw = new Map<string, string>();
    const lines = new Map<string, number>();
    const pieces = new Map<string, Piece[]>();
    for (const f of frontFields(text, (source as MdSource).front.map((x) => x.name))) {
      values.set(`${FRONT}${f.name}`, f.value);
      raw.set(`${FRONT}${f.name}`, text.slice(f.start, f.end));
      lines.set(`${FRONT}${f.name}`, f.line);
    }
    // (the blocks line up by the lock's order of their keys)
    const blockOrder = order?.filter((k) => !k.startsWith(FRONT));
    const misaligned = !blockOrder || blockOrder.length !== bs.length;
    if (!misaligned) {
      blockOrder!.forEach((key, i) => {
        const r = text.slice(bs[i].start, bs[i].end);
        values.set(key, r);
        raw.set(key, r);
        lines.set(key, lineAt(text, bs[i].start));
        pieces.set(key, bs[i].pieces);
      });
    }
    return { text, values, raw, lines, pieces, misaligned: misaligned && bs.length > 0 };
  },

  render(source, _lang, values, target): string {
    const src = source as MdSource;
    const old = target as MdTarget | undefined;
    const edits: [number, number, string][] = [];
    src.blockUnits.forEach((u, i) => {
      const b = src.blocks[i];
      const v: UnitValue | undefined = values.get(u.key);
      if (v?.kind === 'keep') edits.push([b.start, b.end, old!.raw.get(u.key)!]);
      else if (v?.kind === 'new') edits.push([b.start, b.end, v.parts[0].map((p) => p.value).join('')]);
    });
    for (const f of src.front) {
      const v: UnitValue | undefined = values.get(`${FRONT}${f.name}`);
      // (a value the target lacks, kept: the source's)
      if (v?.kind === 'keep') edits.push([f.start, f.end, old!.raw.get(`${FRONT}${f.name}`) ?? src.text.slice(f.start, f.end)]);
      else if (v?.kind === 'new' && !v.review) edits.push([f.start, f.end, frontValue(piecesText(v.parts[0]))]);
    }
    return applyEdits(src.text, edits);
  },

  // the target's block as the whole target reads it (a heading's text without its #, references with their definitions)
  translations: (unit, value, _lang, _source, target) => [{ source: unit.parts[0], translation: (target as MdTarget).pieces.get(unit.key) ?? [{ kind: 'text', value }] }],

  targetName(path, lang, sourceLanguage) {
    const parts = path.split('/');
    const file = parts[parts.length - 1];
    const m = /^(.*?)(?:\.([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*))?\.(md|markdown|mdx)$/i.exec(file);
    // guide.en.md -> guide.de.md, but setup.cli.md -> setup.cli.de.md (a language only when it is the source's, or looks like one)
    const base = m && (m[2] === undefined || namesLanguage(m[2], sourceLanguage) ? m[1] : `${m[1]}.${m[2]}`);
    parts[parts.length - 1] = m ? `${base}.${lang}.${m[3]}` : `${file}.${lang}.md`;
    return parts.join('/');
  },
};

export function misaligned(target: TargetDoc): boolean {
  return Boolean((target as MdTarget).misaligned);
}
