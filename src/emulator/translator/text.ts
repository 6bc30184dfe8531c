// The emulated translation itself, as pure functions: a deterministic pseudo-translation that is
// plainly not a real one ("[de] Ĝööð ɱöŕñîñĝ": the target code, then every Latin letter swapped
// for an accented look-alike, word order kept; tags and entities kept even in plain mode), with the alignment of that very translation,
// profanity actions and markers over a small word list, HTML with markup and class=notranslate
// kept, transliteration between Latin, Cyrillic, Greek and Arabic letters, and sentence lengths
// from Intl.Segmenter.
import { decodeAttribute, DICTIONARY_ENTRY, type ProfanityAction, type ProfanityMarker } from '../../model/translator.js';

const PLAIN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ACCENTED = 'ÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽåƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýž';
/** char code (< 128) -> its look-alike */
const TO_PSEUDO: string[] = [];
const FROM_PSEUDO = new Map<string, string>();
for (let i = 0; i < PLAIN.length; i++) {
  TO_PSEUDO[PLAIN.charCodeAt(i)] = ACCENTED[i];
  FROM_PSEUDO.set(ACCENTED[i], PLAIN[i]);
}

/** Swaps every basic Latin letter for its accented look-alike (one UTF-16 unit for one). */
export function pseudo(word: string): string {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    out += (c < 128 && TO_PSEUDO[c]) || word[i];
  }
  return out;
}

/** Profane words the emulator knows (lower case). */
export const PROFANE_WORDS: ReadonlySet<string> = new Set([
  'damn', 'damned', 'hell', 'crap', 'shit', 'bullshit', 'fuck', 'fucking', 'bastard', 'bitch', 'asshole',
  'scheiße', 'scheisse', 'mist', 'merde', 'putain', 'mierda', 'joder', 'cazzo', 'merda',
]);

export interface ProfanityOptions {
  action?: ProfanityAction;
  marker?: ProfanityMarker;
}

/** A word: letters, marks and digits, with inner apostrophes (don't, l'eau). */
const WORD_SRC = String.raw`[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*`;
/**
 * A markup token: a tag, comment or entity, or a dictionary element the service does not read as
 * one (`< mstrans:dictionary translation ="...">`, with blanks in its tag, comes back with its
 * content as sent, as the recorded session shows). The real service keeps them intact in plain
 * mode too (an HTML item sent without textType=html keeps its tags); only the text between them changes.
 */
const MARKUP_SRC = String.raw`<\s*mstrans:dictionary\b[^<>]*>[\s\S]*?<\/mstrans:dictionary>|<!--[\s\S]*?-->|<\/?[A-Za-z](?:[^<>"']|"[^"]*"|'[^']*')*>|<![^<>]*>|&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);`;
/**
 * A dynamic-dictionary entry written as the service reads it (model/translator.ts: lower-case
 * element, a double-quoted translation): its translation takes its place, the element is gone.
 */
const ENTRY_SRC = DICTIONARY_ENTRY.source;
/** a dictionary entry (its translation), a markup token (kept) or a word (translated) */
const WORD = new RegExp(`(${ENTRY_SRC})|(${MARKUP_SRC})|${WORD_SRC}`, 'gu');
/** markup tokens only, to tell whether a text has letters outside them */
const MARKUP = new RegExp(`${ENTRY_SRC}|${MARKUP_SRC}`, 'g');

export interface Pseudo {
  text: string;
  /** `srcStart:srcEnd-tgtStart:tgtEnd` per aligned source word (inclusive, UTF-16 indices) */
  proj: string;
}

/**
 * Translates a plain text: the marker, then each word swapped letter by letter (a profane word
 * passes unchanged, or is replaced by asterisks, tagged, or deleted); everything between words is
 * kept. `change` false keeps the words (source = target language). With `dictionary` (the request
 * names its source language) a dictionary entry is answered by its translation, else kept as sent.
 */
export function translatePlain(src: string, marker: string, prof: ProfanityOptions = {}, change = true, dictionary = false): Pseudo {
  // a text without letters (empty, digits, punctuation) comes back as it is
  let out = /\p{L}/u.test(src.replace(MARKUP, '')) ? marker : '';
  const proj: string[] = [];
  let last = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(src); m; m = WORD.exec(src)) {
    out += src.slice(last, m.index);
    last = m.index + m[0].length;
    const word = m[0];
    if (m[1] !== undefined) {
      // the translation attribute as the characters it stands for (plain text has no entities)
      out += dictionary ? decodeAttribute(m[2]) : word;
      continue;
    }
    if (m[4] !== undefined) {
      out += word;
      continue;
    }
    const profane = prof.action !== undefined && prof.action !== 'NoAction' && PROFANE_WORDS.has(word.toLowerCase());
    if (profane && prof.action === 'Deleted') {
      // removed with no replacement, and with one space next to it so no double space is left
      if (/\s$/.test(out)) out = out.slice(0, -1);
      else if (/^\s/.test(src.slice(last))) last++;
      continue;
    }
    let tgt = word;
    let offset = 0;
    if (profane && prof.marker === 'Tag') {
      tgt = `<profanity>${word}</profanity>`;
      offset = '<profanity>'.length;
    } else if (profane) tgt = '*'.repeat([...word].length);
    else if (change && !PROFANE_WORDS.has(word.toLowerCase())) tgt = pseudo(word);
    const start = out.length + offset;
    const len = offset ? word.length : tgt.length;
    proj.push(`${m.index}:${last - 1}-${start}:${start + len - 1}`);
    out += tgt;
  }
  out += src.slice(last);
  return { text: out, proj: proj.join(' ') };
}

/** an element marked not to translate, with its content (the spans vx translate file sends are never nested) */
const NOTRANSLATE_ELEMENT = /<([A-Za-z][\w:-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*?\sclass\s*=\s*(?:"[^"]*\bnotranslate\b[^"]*"|'[^']*\bnotranslate\b[^']*'|notranslate\b)[^>]*>[\s\S]*?<\/\1\s*>/gi;

/**
 * The words of a text a detector should read: markup (tags, comments, entities, dictionary
 * entries) left out, and with HTML the content of script, style and notranslate elements too.
 */
export function languageText(src: string, html: boolean): string {
  let s = src;
  if (html) s = s.replace(NOTRANSLATE_ELEMENT, ' ').replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  return s.replace(MARKUP, ' ');
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW = new Set(['script', 'style']);
/** a tag: its quoted attribute values may hold `>` (`title="a > b"`) */
const TOKEN = new RegExp(`${ENTRY_SRC}|${String.raw`<!--[\s\S]*?-->|<\/?[A-Za-z](?:[^>"']|"[^"]*"|'[^']*')*>|<![^>]*>|&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);|[^<&]+|[<&]`}`, 'g');
/** a dictionary entry among TOKEN's tokens */
const ENTRY_START = '<mstrans:dictionary translation="';

function hasNoTranslate(tag: string): boolean {
  const m = /\sclass\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
  const v = m ? (m[2] ?? m[3] ?? m[4] ?? '') : '';
  return v.split(/\s+/).includes('notranslate');
}

/**
 * Translates HTML: tags, comments and entities kept as they are, text inside an element with
 * class=notranslate (and inside script/style) kept, other text translated; the marker goes in
 * front of the first translated text. With `dictionary`, a dictionary entry outside those elements is
 * answered by its translation attribute as written (HTML: its entities stay entities).
 */
export function translateHtml(src: string, marker: string, prof: ProfanityOptions = {}, change = true, dictionary = false): string {
  const stack: { name: string; keep: boolean }[] = [];
  let out = '';
  let pendingMarker = marker;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(src); m; m = TOKEN.exec(src)) {
    const tok = m[0];
    const keep = stack.length ? stack[stack.length - 1].keep : false;
    if (tok.startsWith(ENTRY_START)) {
      out += dictionary && !keep ? /^<[^>]*translation="([^"]*)"/.exec(tok)![1] : tok;
    } else if (tok.startsWith('</')) {
      const name = /^<\/\s*([A-Za-z][\w:-]*)/.exec(tok)?.[1]?.toLowerCase();
      const i = stack.map((s) => s.name).lastIndexOf(name ?? '');
      if (i >= 0) stack.length = i;
      out += tok;
    } else if (tok.startsWith('<') && tok.length > 1 && /^<[A-Za-z]/.test(tok)) {
      const name = /^<([A-Za-z][\w:-]*)/.exec(tok)![1].toLowerCase();
      if (!VOID.has(name) && !tok.endsWith('/>')) stack.push({ name, keep: keep || hasNoTranslate(tok) || RAW.has(name) });
      out += tok;
    } else if (tok.startsWith('<') || tok.startsWith('&')) {
      out += tok;
    } else if (keep || !/[\p{L}]/u.test(tok)) {
      out += tok;
    } else {
      const lead = /^\s*/.exec(tok)![0];
      out += lead + translatePlain(tok.slice(lead.length), pendingMarker, prof, change).text;
      pendingMarker = '';
    }
  }
  return out;
}

// ---- transliteration through Latin letters ----

const LATIN_TO: Record<string, Record<string, string>> = {
  Cyrl: { a: 'а', b: 'б', c: 'ц', d: 'д', e: 'е', f: 'ф', g: 'г', h: 'х', i: 'и', j: 'й', k: 'к', l: 'л', m: 'м', n: 'н', o: 'о', p: 'п', q: 'к', r: 'р', s: 'с', t: 'т', u: 'у', v: 'в', w: 'в', x: 'кс', y: 'ы', z: 'з' },
  Grek: { a: 'α', b: 'β', c: 'κ', d: 'δ', e: 'ε', f: 'φ', g: 'γ', h: 'η', i: 'ι', j: 'ι', k: 'κ', l: 'λ', m: 'μ', n: 'ν', o: 'ο', p: 'π', q: 'κ', r: 'ρ', s: 'σ', t: 'τ', u: 'υ', v: 'β', w: 'ω', x: 'χ', y: 'υ', z: 'ζ' },
  Arab: { a: 'ا', b: 'ب', c: 'ك', d: 'د', e: 'ي', f: 'ف', g: 'غ', h: 'ه', i: 'ي', j: 'ج', k: 'ك', l: 'ل', m: 'م', n: 'ن', o: 'و', p: 'پ', q: 'ق', r: 'ر', s: 'س', t: 'ت', u: 'و', v: 'ف', w: 'و', x: 'كس', y: 'ي', z: 'ز' },
};

/** Letters of other scripts back to Latin (first mapping wins). */
const TO_LATIN = new Map<string, string>();
for (const table of Object.values(LATIN_TO)) {
  for (const [lat, other] of Object.entries(table)) {
    if (other.length === 1 && !TO_LATIN.has(other)) TO_LATIN.set(other, lat);
    const upper = other.toUpperCase();
    if (upper.length === 1 && upper !== other && !TO_LATIN.has(upper)) TO_LATIN.set(upper, lat.toUpperCase());
  }
}
for (const [k, v] of [['ы', 'y'], ['ς', 's'], ['ж', 'zh'], ['ш', 'sh'], ['щ', 'shch'], ['ч', 'ch'], ['ю', 'yu'], ['я', 'ya'], ['ё', 'yo'], ['э', 'e'], ['ь', ''], ['ъ', ''], ['θ', 'th'], ['ψ', 'ps'], ['ξ', 'x'], ['ω', 'o'], ['η', 'i']] as const) {
  TO_LATIN.set(k, v);
}

export const TRANSLITERATION_SCRIPTS: readonly string[] = ['Latn', 'Cyrl', 'Grek', 'Arab'];

/** Any text in Latin letters: accents dropped, pseudo letters back, Cyrillic/Greek/Arabic letters mapped. */
export function toLatin(text: string): string {
  let out = '';
  for (const ch of text) {
    const back = FROM_PSEUDO.get(ch) ?? TO_LATIN.get(ch);
    if (back !== undefined) out += back;
    else out += ch.normalize('NFD').replace(/\p{M}+/gu, '');
  }
  return out;
}

/** Writes a text in one of TRANSLITERATION_SCRIPTS. */
export function transliterate(text: string, script: string): string {
  const latin = toLatin(text);
  const table = LATIN_TO[script];
  if (!table) return latin;
  let out = '';
  for (const ch of latin) {
    const lower = ch.toLowerCase();
    const t = table[lower];
    if (t === undefined) out += ch;
    else out += ch !== lower ? t.charAt(0).toUpperCase() + t.slice(1) : t;
  }
  return out;
}

const SCRIPT_TESTS: [string, RegExp][] = [
  ['Latn', /\p{Script=Latin}/u],
  ['Cyrl', /\p{Script=Cyrillic}/u],
  ['Grek', /\p{Script=Greek}/u],
  ['Arab', /\p{Script=Arabic}/u],
  ['Hebr', /\p{Script=Hebrew}/u],
  ['Deva', /\p{Script=Devanagari}/u],
  ['Hans', /\p{Script=Han}/u],
  ['Jpan', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Kore', /\p{Script=Hangul}/u],
];

/** The script most letters of a text are written in (undefined without letters). */
export function dominantScript(text: string): string | undefined {
  const counts = new Map<string, number>();
  for (const ch of text) {
    for (const [name, re] of SCRIPT_TESTS) {
      if (re.test(ch)) {
        counts.set(name, (counts.get(name) ?? 0) + 1);
        break;
      }
    }
  }
  let best: string | undefined;
  let n = 0;
  for (const [k, v] of counts) if (v > n) [best, n] = [k, v];
  return best;
}

const segmenters = new Map<string, Intl.Segmenter>();

/** Sentence lengths (UTF-16 units) from Intl.Segmenter; they add up to the text's length. */
export function sentenceLengths(text: string, lang: string): number[] {
  let seg = segmenters.get(lang);
  if (!seg) {
    try {
      seg = new Intl.Segmenter(lang, { granularity: 'sentence' });
    } catch {
      seg = new Intl.Segmenter('en', { granularity: 'sentence' });
    }
    segmenters.set(lang, seg);
  }
  const out: number[] = [];
  for (const s of seg.segment(text)) out.push(s.segment.length);
  return out;
}
