// TMX 1.4 (the localization industry's translation-memory exchange format) for the translation
// memory: export writes one <tu> per stored entry as it is read (streamed), import reads a TMX file
// with a streaming XML parser (saxes, loaded when needed) and checks it all before anything is
// stored: bad XML or a language code that is not one names the line, and nothing is imported.
//
//   <tu srclang="en" creationdate="20261124T060000Z">
//     <prop type="x-vx-options">[...]</prop>     the key's options (exact round trip through vx)
//     <prop type="x-vx-result">{...}</prop>      the service's result for this target
//     <tuv xml:lang="en"><seg>Good morning</seg></tuv>
//     <tuv xml:lang="de"><seg>Guten Morgen</seg></tuv>
//   </tu>
//
// A <tu> from another tool (no x-vx props) becomes one entry per target <tuv>: source language =
// the tu's srclang (else the header's), options as vx sends by default with that `from`, and the
// result {"translations":[{"text": <seg>, "to": <lang>}]}, what the service answers for plain text.
import { createReadStream } from 'node:fs';
import { LANGUAGE_CODE, type TranslateResult } from '../../spec/translator.js';
import type { KeyOptions, MemoryEntry } from './memory.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** characters XML 1.0 cannot carry at all (even escaped): written as U+FFFD */
const NOT_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const text = (s: string) => esc(s.replace(NOT_XML, '\uFFFD')).replace(/\r/g, '&#13;');

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

/** One <tu> for one stored entry. */
export function tmxUnit(e: MemoryEntry): string {
  const t = e.result.translations?.[0];
  const src = e.options.from || e.result.detectedLanguage?.language || 'und';
  const opts = [e.options.from, e.options.suggestedFrom, e.options.to, e.options.textType, e.options.category, e.options.profanityAction, e.options.profanityMarker, e.options.alignment, e.options.sentenceLength, e.options.fromScript, e.options.toScript, e.options.allowFallback];
  return (
    `    <tu srclang="${esc(src)}" creationdate="${tmxDate(e.stored)}">\n` +
    `      <prop type="x-vx-options">${text(JSON.stringify(opts))}</prop>\n` +
    `      <prop type="x-vx-result">${text(JSON.stringify(e.result))}</prop>\n` +
    `      <tuv xml:lang="${esc(src)}"><seg>${text(e.source)}</seg></tuv>\n` +
    `      <tuv xml:lang="${esc(e.options.to)}"><seg>${text(t?.text ?? '')}</seg></tuv>\n` +
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
function entriesOf(u: Unit, headerSrc: string | undefined, now: number): MemoryEntry[] {
  const stored = u.created ?? now;
  if (u.props['x-vx-options'] !== undefined) {
    let opts: unknown;
    let result: unknown;
    try {
      opts = JSON.parse(u.props['x-vx-options']);
      result = JSON.parse(u.props['x-vx-result'] ?? '');
    } catch {
      throw new TmxError(u.line, 'the x-vx-options or x-vx-result property is not valid JSON');
    }
    if (!Array.isArray(opts) || opts.length !== 12 || !result || typeof result !== 'object' || !Array.isArray((result as TranslateResult).translations) || (result as TranslateResult).translations.length !== 1) {
      throw new TmxError(u.line, 'the x-vx-options or x-vx-result property is not one written by vx translate memory export');
    }
    const [from, suggestedFrom, to, textType, category, profanityAction, profanityMarker, alignment, sentenceLength, fromScript, toScript, allowFallback] = opts as [string, string, string, string, string, string, string, boolean, boolean, string, string, boolean];
    if (from) checkLang(from, u.line, 'the source language');
    checkLang(to, u.line, 'the target language');
    const src = u.tuvs.find((t) => t.lang.toLowerCase() === (u.srclang ?? '').toLowerCase()) ?? u.tuvs[0];
    if (!src) throw new TmxError(u.line, 'a <tu> without <tuv>');
    const options: KeyOptions = { from, suggestedFrom, to, textType, category, profanityAction, profanityMarker, alignment, sentenceLength, fromScript, toScript, allowFallback };
    return [{ options, stored, source: src.seg, result: result as TranslateResult }];
  }
  const srclang = u.srclang && u.srclang !== '*all*' ? u.srclang : headerSrc && headerSrc !== '*all*' ? headerSrc : undefined;
  if (!srclang) throw new TmxError(u.line, 'no source language: the <tu> has no srclang and the header names none (srclang="*all*")');
  checkLang(srclang, u.line, 'the source language (srclang)');
  const src = u.tuvs.find((t) => t.lang.toLowerCase() === srclang.toLowerCase());
  if (!src) throw new TmxError(u.line, `no <tuv> in the source language ${srclang}`);
  return u.tuvs
    .filter((t) => t !== src)
    .map((t) => ({
      options: { ...DEFAULT_OPTIONS, from: srclang.toLowerCase(), to: t.lang.toLowerCase() },
      stored,
      source: src.seg,
      result: { translations: [{ text: t.seg, to: t.lang }] },
    }));
}

/**
 * Reads a TMX file, streamed, calling `each` for every entry in order. Throws a TmxError (with
 * the line) at the first problem: call it once with a no-op to check a file whole before importing.
 */
export async function readTmx(path: string, each: (e: MemoryEntry) => void | Promise<void>, now = Math.floor(Date.now() / 1000)): Promise<number> {
  const { SaxesParser } = (await import('saxes')) as typeof import('saxes');
  const parser = new SaxesParser({ xmlns: false, position: true });
  let headerSrc: string | undefined;
  let sawTmx = false;
  let unit: Unit | undefined;
  let tuv: Partial<Tuv> | undefined;
  let prop: { type: string; value: string } | undefined;
  let seg: string | undefined;
  let segDepth = 0;
  let count = 0;
  let failure: TmxError | undefined;
  const ready: MemoryEntry[] = [];
  const fail = (e: unknown) => {
    failure ??= e instanceof TmxError ? e : new TmxError(parser.line, (e as Error).message.replace(/^.*?:\d+:\d+: /, ''));
  };
  parser.on('error', fail);
  parser.on('opentag', (tag) => {
    if (failure) return;
    const a = tag.attributes as Record<string, string>;
    try {
      switch (tag.name) {
        case 'tmx':
          sawTmx = true;
          if (a.version !== '1.4' && a.version !== '1.4b') throw new TmxError(parser.line, `TMX version ${a.version ?? '(none)'}; vx reads TMX 1.4`);
          break;
        case 'header':
          headerSrc = a.srclang;
          if (headerSrc && headerSrc !== '*all*') checkLang(headerSrc, parser.line, 'the header\'s srclang');
          break;
        case 'tu':
          unit = { line: parser.line, srclang: a.srclang, created: parseDate(a.creationdate), props: {}, tuvs: [] };
          break;
        case 'tuv':
          if (!unit) throw new TmxError(parser.line, '<tuv> outside a <tu>');
          tuv = { lang: checkLang(a['xml:lang'] ?? a.lang, parser.line, 'the <tuv> language (xml:lang)'), line: parser.line };
          break;
        case 'seg':
          if (!tuv) throw new TmxError(parser.line, '<seg> outside a <tuv>');
          seg = '';
          segDepth = 0;
          break;
        case 'prop':
          if (unit && !tuv) prop = { type: a.type ?? '', value: '' };
          break;
        default:
          // inline markup inside a segment (bpt, ept, ph, it, hi, ...): its text is part of the segment
          if (seg !== undefined) segDepth++;
      }
    } catch (e) {
      fail(e);
    }
  });
  parser.on('text', (t) => {
    if (seg !== undefined && segDepth === 0) seg += t;
    else if (prop) prop.value += t;
  });
  parser.on('cdata', (t) => {
    if (seg !== undefined) seg += t;
  });
  parser.on('closetag', (tag) => {
    if (failure) return;
    try {
      switch (tag.name) {
        case 'seg':
          if (tuv) tuv.seg = seg ?? '';
          seg = undefined;
          break;
        case 'tuv':
          if (unit && tuv) {
            if (tuv.seg === undefined) throw new TmxError(tuv.line ?? parser.line, '<tuv> without <seg>');
            unit.tuvs.push(tuv as Tuv);
          }
          tuv = undefined;
          break;
        case 'prop':
          if (unit && prop) unit.props[prop.type] = prop.value;
          prop = undefined;
          break;
        case 'tu':
          if (unit) ready.push(...entriesOf(unit, headerSrc, now));
          unit = undefined;
          break;
        default:
          if (seg !== undefined && segDepth > 0) segDepth--;
      }
    } catch (e) {
      fail(e);
    }
  });
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream) {
      parser.write(chunk as string);
      if (failure) throw failure;
      for (const e of ready) {
        count++;
        const p = each(e);
        if (p) await p;
      }
      ready.length = 0;
    }
    parser.close();
    if (failure) throw failure;
    for (const e of ready) {
      count++;
      const p = each(e);
      if (p) await p;
    }
    if (!sawTmx) throw new TmxError(1, 'not a TMX file (no <tmx> element)');
    return count;
  } finally {
    stream.destroy();
  }
}
