// Translator family of the emulator, written from the spec (1-translator.md) and the notes:
// POST /translate?api-version=3.0 with every query parameter checked as the service does (same
// 6-digit codes), the limits (1,000 items, 50,000 characters per item and per request counted
// across all targets), detection of the source language (common words first, then tinyld) when
// `from` is absent, the pseudo-translation of text.ts with its alignment, sentence
// lengths, transliteration, profanity handling and HTML mode, custom categories with
// allowFallback, and the X-RequestId, X-MT-System and X-Metered-Usage headers (X-MT-System `Microsoft`
// for the general model and `Custom` for a custom system, as the recorded sessions show them).
import {
  alignmentSupported,
  canonicalScript,
  countChars,
  ERROR_CODES as C,
  ERROR_MESSAGES,
  findLanguage,
  GUID,
  LANGUAGES,
  LIMITS,
  PROFANITY_ACTIONS,
  PROFANITY_MARKERS,
  SCRIPT_CODE,
  TEXT_TYPES,
  TRANSLATOR_API_VERSION,
  type ProfanityAction,
  type ProfanityMarker,
  type TranslateResult,
  type Translation,
} from '../../model/translator.js';
import { spendChars } from '../faults.js';
import { arrayOf, recordOf, shape, text } from '../state-check.js';
import { EmuError, type EmuReply, type EmuRequest, type FamilyDef } from '../server/index.js';
import { dominantScript, languageText, sentenceLengths, translateHtml, translatePlain, transliterate, TRANSLITERATION_SCRIPTS } from './text.js';
import { familyOf } from '../../model/families.js';
import { guessByWords } from './words.js';

/** A custom translation system deployed under a category id. */
export interface CustomSystem {
  /** `ready`, or `preparing` (answers 408001 until ready) */
  status: 'ready' | 'preparing';
  /** language pairs it translates, `from>to` */
  pairs: string[];
}

/** One translate call as the emulator saw it (the newest REQUEST_LOG_SIZE are kept). */
export interface TranslateCall {
  query: string;
  clientTraceId?: string;
  region?: string;
  contentType?: string;
  texts: string[];
  chars: number;
  billed: number;
}

export interface TranslatorState {
  categories: Record<string, CustomSystem>;
  calls: TranslateCall[];
}

export const REQUEST_LOG_SIZE = 200;
/** the category of the emulated custom system (English to German and French, German to English) */
const EMU_CATEGORY = '0000c0de-0000-4000-8000-00000000c001-TECH';
/** a category whose custom system is still being prepared (408001) */
const EMU_CATEGORY_PREPARING = '0000c0de-0000-4000-8000-00000000c002-LEGAL';

export function seedTranslator(): TranslatorState {
  const categories: Record<string, CustomSystem> = {
    [EMU_CATEGORY]: { status: 'ready', pairs: ['en>de', 'en>fr', 'de>en'] },
    [EMU_CATEGORY_PREPARING]: { status: 'preparing', pairs: ['en>de'] },
  };
  const state = { categories } as Partial<TranslatorState> as TranslatorState;
  // the call log is for in-process tests: kept out of --state files and /_emulator/state (it holds texts)
  Object.defineProperty(state, 'calls', { value: [], enumerable: false, writable: true });
  return state;
}

const NON_ASCII = /[^\x00-\x7f]/;
const DIGITS = /\d+/g;
const bad = (code: number, message: string) => new EmuError(Math.floor(code / 1000), String(code), message);

// ---- language detection: tinyld, loaded on first use ----

type Detector = (text: string) => { lang: string; accuracy: number }[];
let detector: Detector | undefined;
const detected = new Map<string, { language: string; score: number } | null>();

async function loadDetector(): Promise<Detector> {
  if (!detector) {
    const mod = (await import('tinyld')) as unknown as { detectAll: Detector; default?: { detectAll: Detector } };
    detector = mod.detectAll ?? mod.default!.detectAll;
  }
  return detector;
}

/** tinyld's ISO 639-1 code as a code of the translation scope */
function scopeCode(iso: string, text: string): string | undefined {
  const special: Record<string, string> = { zh: 'zh-Hans', no: 'nb', tl: 'fil', mn: 'mn-Cyrl', iw: 'he' };
  if (iso === 'sr') return dominantScript(text) === 'Cyrl' ? 'sr-Cyrl' : 'sr-Latn';
  return findLanguage(special[iso] ?? iso);
}

/** the language of a text in a script that (nearly) only one language of the scope writes; Latin is none of them */
const SCRIPT_LANGUAGE: Record<string, string> = { Arab: 'ar', Hebr: 'he', Cyrl: 'ru', Grek: 'el', Deva: 'hi', Hans: 'zh-Hans', Jpan: 'ja', Kore: 'ko' };

/** The detected language of a text with a score in [0, 1], or null when detection fails. */
function detect(detectAll: Detector, text: string): { language: string; score: number } | null {
  // digits say nothing about the language: texts that differ only in numbers share one detection
  const key = (text.length > 200 ? text.slice(0, 200) : text).replace(DIGITS, '0');
  const hit = detected.get(key);
  if (hit !== undefined) return hit;
  let found: { language: string; score: number } | null = null;
  const ranked = detectAll(key);
  // a short text by its words first (tinyld needs a sentence: "Hallo Welt" was nl, "Hello" it);
  // a tie of word lists (hallo: de, nl) goes to the one tinyld ranks first, else to the first listed
  const guess = guessByWords(key);
  if (guess) {
    const tied = guess.languages;
    const language = ranked.map((d) => scopeCode(d.lang, key)).find((l) => l !== undefined && tied.includes(l)) ?? tied[0];
    found = { language, score: Math.round((guess.share / tied.length) * 100) / 100 };
  }
  for (const d of found ? [] : ranked) {
    const language = scopeCode(d.lang, key);
    if (language) {
      found = { language, score: Math.round(Math.min(1, Math.max(0, d.accuracy)) * 100) / 100 };
      break;
    }
  }
  // a short text the detector cannot place (or places in a language outside the scope, as Hebrew
  // read as Yiddish) is still plainly in its script's language: Arabic letters are not English
  if (!found) {
    const language = SCRIPT_LANGUAGE[dominantScript(key) ?? ''];
    if (language) found = { language, score: 0.5 };
  }
  if (detected.size >= 10_000) detected.clear();
  detected.set(key, found);
  return found;
}

// ---- the request ----

interface Query {
  to: string[];
  from?: string;
  html: boolean;
  category?: string;
  profanityAction: ProfanityAction;
  profanityMarker: ProfanityMarker;
  alignment: boolean;
  sentenceLength: boolean;
  suggestedFrom?: string;
  fromScript?: string;
  toScript?: string[];
  allowFallback: boolean;
}

function one(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  return all.length ? all[all.length - 1] : undefined;
}

function enumOf<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[], def: T, code: number): T {
  const v = one(q, name);
  if (v === undefined) return def;
  const found = allowed.find((a) => a.toLowerCase() === v.toLowerCase());
  if (!found) throw bad(code, `The value '${v}' of parameter '${name}' is not valid; allowed: ${allowed.join(', ')}.`);
  return found;
}

function bool(q: URLSearchParams, name: string, def: boolean): boolean {
  const v = one(q, name);
  if (v === undefined) return def;
  if (!/^(true|false)$/i.test(v)) throw bad(C.invalidOption, `The value '${v}' of parameter '${name}' is not valid; allowed: true, false.`);
  return v.toLowerCase() === 'true';
}

function parseQuery(req: EmuRequest): Query {
  const q = req.query;
  const version = one(q, 'api-version');
  if (version !== TRANSLATOR_API_VERSION) throw bad(C.apiVersion, `The API version parameter is missing or invalid; it must be ${TRANSLATOR_API_VERSION}.`);
  const rawTo = q.getAll('to').flatMap((t) => t.split(',')).map((t) => t.trim());
  if (rawTo.length === 0) throw bad(C.invalidTo, "The target language ('to' field) is missing.");
  const to = rawTo.map((t) => {
    const code = findLanguage(t);
    if (!code) throw bad(C.invalidTo, `The target language ('to' field) '${t}' is not valid or not supported.`);
    return code;
  });
  let from: string | undefined;
  const rawFrom = one(q, 'from');
  if (rawFrom !== undefined) {
    from = findLanguage(rawFrom);
    if (!from) throw bad(C.invalidFrom, `The source language ('from' field) '${rawFrom}' is not valid or not supported.`);
  }
  let suggestedFrom: string | undefined;
  const rawSuggested = one(q, 'suggestedFrom');
  if (rawSuggested !== undefined) {
    suggestedFrom = findLanguage(rawSuggested);
    if (!suggestedFrom) throw bad(C.invalidLanguage, `The language '${rawSuggested}' of parameter 'suggestedFrom' is not valid or not supported.`);
  }
  const textType = enumOf(q, 'textType', TEXT_TYPES, 'plain', C.invalidTextType);
  const profanityAction = enumOf(q, 'profanityAction', PROFANITY_ACTIONS, 'NoAction', C.invalidOption);
  const profanityMarker = enumOf(q, 'profanityMarker', PROFANITY_MARKERS, 'Asterisk', C.invalidOption);
  const alignment = bool(q, 'includeAlignment', false);
  const sentenceLength = bool(q, 'includeSentenceLength', false);
  const allowFallback = bool(q, 'allowFallback', true);
  const category = one(q, 'category');
  if (category !== undefined && (!category || /\s/.test(category))) throw bad(C.invalidCategory, `The category '${category}' is not valid.`);
  const rawFromScript = one(q, 'fromScript');
  let fromScript: string | undefined;
  if (rawFromScript !== undefined) {
    if (!SCRIPT_CODE.test(rawFromScript)) throw bad(C.invalidFromScript, `The source script ('fromScript') '${rawFromScript}' is not valid.`);
    fromScript = canonicalScript(rawFromScript);
  }
  let toScript: string[] | undefined;
  const rawToScript = q.getAll('toScript').flatMap((t) => t.split(',')).map((t) => t.trim());
  if (rawToScript.length) {
    for (const s of rawToScript) if (!SCRIPT_CODE.test(s)) throw bad(C.invalidToScript, `The target script ('toScript') '${s}' is not valid.`);
    if (rawToScript.length !== to.length) {
      throw bad(C.scriptCountMismatch, `The number of target scripts (toScript: ${rawToScript.length}) does not match the number of target languages (to: ${to.length}).`);
    }
    toScript = rawToScript.map(canonicalScript);
    for (const s of toScript) {
      if (!TRANSLITERATION_SCRIPTS.includes(s)) throw bad(C.transliterationUnsupported, `Transliteration to the script '${s}' is not supported; the emulator writes ${TRANSLITERATION_SCRIPTS.join(', ')}.`);
    }
  }
  const trace = req.headers['x-clienttraceid'] ?? one(q, 'ClientTraceId');
  if (trace !== undefined && (typeof trace !== 'string' || !GUID.test(trace))) throw bad(C.invalidTraceId, 'The client trace id (ClientTraceId or X-ClientTraceId) is not a valid GUID.');
  return { to, from, html: textType === 'html', category, profanityAction, profanityMarker, alignment, sentenceLength, suggestedFrom, fromScript, toScript, allowFallback };
}

function readTexts(req: EmuRequest): string[] {
  const ct = req.headers['content-type'];
  if (typeof ct !== 'string' || !/^application\/json\b/i.test(ct.trim())) throw bad(C.contentType, 'The Content-Type header is missing or invalid; use application/json; charset=UTF-8.');
  let body: unknown;
  try {
    body = JSON.parse(req.text);
  } catch {
    throw bad(C.bodyNotJson, 'The body of the request is not valid JSON.');
  }
  if (!Array.isArray(body)) throw bad(C.invalidInput, 'The body of the request must be a JSON array of objects with a Text property.');
  if (body.length > LIMITS.maxItems) throw bad(C.tooManyItems, `The array of input text has too many elements: ${body.length}; at most ${LIMITS.maxItems}.`);
  return body.map((el, i) => {
    const t = el && typeof el === 'object' ? ((el as Record<string, unknown>).Text ?? (el as Record<string, unknown>).text) : undefined;
    if (typeof t !== 'string') throw bad(C.invalidText, `Element ${i} of the array has no string property Text.`);
    return t;
  });
}

/** Which system translates source -> target for the requested category: Custom, Microsoft (the general model), or an error. */
function system(state: TranslatorState, q: Query, source: string, target: string): 'Custom' | 'Microsoft' {
  if (q.category === undefined || q.category.toLowerCase() === 'general') return 'Microsoft';
  const custom = state.categories[q.category];
  if (custom?.status === 'preparing') throw new EmuError(408, String(C.systemPreparing), `The custom translation system of category '${q.category}' is being prepared; retry in a minute.`);
  if (custom?.pairs.includes(`${source}>${target}`)) return 'Custom';
  if (q.allowFallback) return 'Microsoft';
  throw bad(C.noCustomSystem, `No custom system of category '${q.category}' translates from ${source} to ${target} (allowFallback=false).`);
}

/** The characters of the request's texts, checked against the item and request limits. */
function countChecked(texts: readonly string[], targets: number): number {
  let chars = 0;
  for (let i = 0; i < texts.length; i++) {
    const n = countChars(texts[i]);
    if (n > LIMITS.maxItemChars) throw bad(C.itemTooLong, `The input text of element ${i} is too long: ${n} characters; at most ${LIMITS.maxItemChars}.`);
    chars += n;
  }
  if (chars * targets > LIMITS.maxRequestChars) {
    throw bad(C.requestTooLarge, `The request is too large: ${chars} characters x ${targets} targets = ${chars * targets}; at most ${LIMITS.maxRequestChars}.`);
  }
  return chars;
}

/** One text's translation into `target` (the source language known), as the service shapes it. */
function translation(text: string, source: string, target: string, k: number, sys: 'Custom' | 'Microsoft', q: Query): Translation {
  const same = source === target;
  const marker = same ? '' : sys === 'Custom' ? `[${target}:custom] ` : `[${target}] `;
  const prof = { action: q.profanityAction, marker: q.profanityMarker };
  const t: Translation = { to: target, text: '' };
  let proj = '';
  // the dynamic dictionary needs the source language named (`from`): without it an entry is kept as sent
  const dictionary = q.from !== undefined;
  if (q.html) t.text = translateHtml(text, marker, prof, !same, dictionary);
  else ({ text: t.text, proj } = translatePlain(text, marker, prof, !same, dictionary));
  if (q.toScript) t.transliteration = { script: q.toScript[k], text: transliterate(t.text, q.toScript[k]) };
  if (q.alignment) t.alignment = { proj: !q.html && alignmentSupported(source, target) ? proj : '' };
  if (q.sentenceLength) t.sentLen = { srcSentLen: sentenceLengths(text, source), transSentLen: sentenceLengths(t.text, target) };
  return t;
}

/** One item's result: its detected language (when no `from`), its translations, its text in the usual script. */
function translateItem(text: string, q: Query, state: TranslatorState, detectAll: Detector | undefined, used: ('Custom' | 'Microsoft')[]): TranslateResult {
  const result = {} as TranslateResult;
  let source = q.from;
  if (!source) {
    const d = detect(detectAll!, languageText(text, q.html));
    result.detectedLanguage = d ?? { language: q.suggestedFrom ?? 'en', score: 0 };
    source = result.detectedLanguage.language;
  }
  const from = source;
  result.translations = q.to.map((target, k) => {
    const sys = system(state, q, from, target);
    used.push(sys);
    return translation(text, from, target, k, sys, q);
  });
  // text written in a script that is not the usual one of its language: also in the usual script
  const usual = LANGUAGES[from];
  const plainAscii = usual === 'Latn' && !q.fromScript && !NON_ASCII.test(text);
  const written = plainAscii ? 'Latn' : (q.fromScript ?? dominantScript(text));
  if (!q.html && written && usual && written !== usual && (written === 'Latn' || usual === 'Latn')) {
    // a script the emulator cannot write (Devanagari, Han...) keeps the text as it is: the field is there all the same
    result.sourceText = { text: TRANSLITERATION_SCRIPTS.includes(usual) ? transliterate(text, usual) : text };
  }
  return result;
}

/** Keeps the call in the translator's own log (the last REQUEST_LOG_SIZE), for tests that check what was sent. */
function logCall(state: TranslatorState, req: EmuRequest, texts: string[], chars: number, billed: number): void {
  // a state loaded from a --state file has no call log yet
  if (!state.calls) Object.defineProperty(state, 'calls', { value: [], enumerable: false, writable: true });
  const trace = req.headers['x-clienttraceid'] ?? one(req.query, 'ClientTraceId');
  const region = req.headers['vendor-subscription-region'];
  state.calls.push({
    query: req.url.search,
    clientTraceId: typeof trace === 'string' ? trace : undefined,
    region: typeof region === 'string' ? region : undefined,
    contentType: req.headers['content-type'],
    texts,
    chars,
    billed,
  });
  if (state.calls.length > REQUEST_LOG_SIZE) state.calls.splice(0, state.calls.length - REQUEST_LOG_SIZE);
}

async function translate(req: EmuRequest): Promise<EmuReply> {
  const state = req.emulator.state.translator as TranslatorState;
  const q = parseQuery(req);
  const texts = readTexts(req);
  const chars = countChecked(texts, q.to.length);
  const billed = chars * q.to.length;
  // an enforced character rate (--rate translator=N, or the rate:N fault rule): the real 429001
  const rate = req.emulator.faults.rate;
  const wait = rate ? spendChars(rate, billed) : 0;
  if (wait) throw new EmuError(429, String(C.throttledChars), 'The server rejected the request because the client has exceeded request limits.', { 'Retry-After': String(wait) });
  const detectAll = q.from ? undefined : await loadDetector();
  // X-MT-System: one entry per translation (item by item, target by target), as the recorded sessions show
  const used: ('Custom' | 'Microsoft')[] = [];
  const results = texts.map((text) => translateItem(text, q, state, detectAll, used));
  logCall(state, req, texts, chars, billed);
  return {
    status: 200,
    headers: { 'X-MT-System': used.join(','), 'X-Metered-Usage': String(billed) },
    body: results,
  };
}

/**
 * The headers every real answer carries (the SDK's recorded sessions, e.g. recording_translate_basic.json):
 * CORS exposure of the request id and metered usage, and the transport hardening headers.
 */
const TRANSLATOR_HEADERS = {
  'Access-Control-Expose-Headers': 'X-RequestId, X-Metered-Usage',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
};

const hex = (n: number) => Array.from({ length: n }, () => '0123456789ABCDEF'[Math.floor(Math.random() * 16)]).join('');
const two = (n: number) => String(n).padStart(2, '0');

/** `TRAN.<node>.<4 hex>.<MMDD>T<HHMM>.<6 hex>` as in the recorded sessions (`TRAN.SN1P.E22E.0403T1845.B4130D`); the emulator's node is EMU1 */
export function translatorRequestId(now: Date): string {
  return `TRAN.EMU1.${hex(4)}.${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}T${two(now.getUTCHours())}${two(now.getUTCMinutes())}.${hex(6)}`;
}

export function translatorFamily(): FamilyDef {
  return {
    name: 'translator',
    prefix: familyOf('translator').emulator.prefix,
    auth: 'key',
    requestIdHeader: 'X-RequestId',
    newRequestId: translatorRequestId,
    headers: TRANSLATOR_HEADERS,
    codes: {
      unauthorized: String(C.unauthorized),
      notFound: '404000',
      badRequest: String(C.invalidInput),
      badJson: String(C.bodyNotJson),
      tooLarge: '413000',
      throttled: String(C.throttled),
      unavailable: String(C.unavailable),
      internal: String(C.internal),
      methodNotAllowed: String(C.methodNotAllowed),
      // the spec: the 3-digit HTTP status followed by 3 digits (408 -> 408000, 429 -> 429000)
      forStatus: (status) => String(status * 1000),
    },
    // {"error":{"code":400036,"message":"..."}}: a 6-digit integer code
    errorBody: (_status, code, message) => ({ error: { code: Number(code), message } }),
    faultMessage: (code) => ERROR_MESSAGES[Number(code)],
    seed: seedTranslator,
    checkState: shape({ categories: recordOf(shape({ status: text, pairs: arrayOf(text) })) }),
    routes: [{ method: 'POST', path: '/translate', handler: translate }],
  };
}
