// The text translation service as data: api-version, query parameters and their allowed values,
// request limits, error codes, supported languages and scripts, and the one way characters are
// counted. Pure data and pure functions only: imported by api/translator, cli/ and emulator/.

export const TRANSLATOR_API_VERSION = '3.0';
export const TRANSLATE_PATH = '/translate';

/** Limits of one translate request (notes: 1,000 items; 50,000 characters per item; 50,000 x targets per request). */
export const LIMITS = {
  maxItems: 1000,
  maxItemChars: 50_000,
  /** characters of all items multiplied by the number of `to` values */
  maxRequestChars: 50_000,
} as const;

export const TEXT_TYPES = ['plain', 'html'] as const;
export type TextType = (typeof TEXT_TYPES)[number];
export const PROFANITY_ACTIONS = ['NoAction', 'Marked', 'Deleted'] as const;
export type ProfanityAction = (typeof PROFANITY_ACTIONS)[number];
export const PROFANITY_MARKERS = ['Asterisk', 'Tag'] as const;
export type ProfanityMarker = (typeof PROFANITY_MARKERS)[number];

/** The response headers of translate (names are case-insensitive). */
export const HEADERS = {
  requestId: 'X-RequestId',
  mtSystem: 'X-MT-System',
  meteredUsage: 'X-Metered-Usage',
  clientTraceId: 'X-ClientTraceId',
  key: 'Vendor-Subscription-Key',
  region: 'Vendor-Subscription-Region',
} as const;

/** 6-digit error codes: the HTTP status followed by three digits. */
export const ERROR_CODES = {
  invalidInput: 400000,
  invalidCategory: 400002,
  invalidLanguage: 400003,
  invalidToScript: 400004,
  invalidText: 400005,
  invalidFromScript: 400018,
  apiVersion: 400021,
  invalidFrom: 400035,
  invalidTo: 400036,
  invalidOption: 400042,
  invalidTraceId: 400043,
  itemTooLong: 400050,
  scriptCountMismatch: 400070,
  invalidTextType: 400071,
  tooManyItems: 400072,
  invalidScript: 400073,
  bodyNotJson: 400074,
  requestTooLarge: 400077,
  noCustomSystem: 400079,
  transliterationUnsupported: 400080,
  unauthorized: 401000,
  forbidden: 403000,
  freeQuotaUsed: 403001,
  methodNotAllowed: 405000,
  systemPreparing: 408001,
  contentType: 415000,
  throttled: 429000,
  throttledChars: 429001,
  throttledRequests: 429002,
  internal: 500000,
  unavailable: 503000,
} as const;

/**
 * The service's published message of each documented error code (the public error table of the
 * real service), for errors the emulator answers by injection (`--faults 403001:1x`).
 */
export const ERROR_MESSAGES: Readonly<Record<number, string>> = {
  400000: 'One of the request inputs is not valid.',
  400002: 'The category parameter is not valid.',
  400003: 'A language specifier is missing or not valid.',
  400004: 'A target script specifier ("To script") is missing or not valid.',
  400005: 'An input text is missing or not valid.',
  400018: 'A source script specifier ("From script") is missing or not valid.',
  400021: 'The API version parameter is missing or invalid.',
  400035: 'The source language ("From" field) is not valid.',
  400036: 'The target language ("To" field) is missing or invalid.',
  400042: 'One of the options specified ("Options" field) is not valid.',
  400043: 'The client trace ID (ClientTraceId field or X-ClientTraceId header) is missing or invalid.',
  400050: 'The input text is too long.',
  400070: 'The number of target scripts (ToScript parameter) does not match the number of target languages (To parameter).',
  400071: 'The value is not valid for TextType.',
  400072: 'The array of input text has too many elements.',
  400073: 'The script parameter is not valid.',
  400074: 'The body of the request is not valid JSON.',
  400077: 'The maximum request size has been exceeded.',
  400079: 'The custom system requested for translation between from and to language does not exist.',
  400080: 'Transliteration is not supported for the language or script.',
  401000: 'The request is not authorized because credentials are missing or invalid.',
  403000: 'The operation is not allowed.',
  403001: 'The operation is not allowed because the subscription has exceeded its free quota.',
  405000: 'The request method is not supported for the requested resource.',
  408001: 'The translation system requested is being prepared. Please retry in a few minutes.',
  415000: 'The Content-Type header is missing or invalid.',
  429000: 'The server rejected the request because the client has exceeded request limits.',
  429001: 'The server rejected the request because the client has exceeded request limits.',
  429002: 'The server rejected the request because the client has exceeded request limits.',
  500000: 'An unexpected error occurred. If the error persists, report it with date/time of error, request identifier from response header X-RequestId, and client identifier from request header X-ClientTraceId.',
  503000: 'Service is temporarily unavailable. Retry. If the error persists, report it with date/time of error, request identifier from response header X-RequestId, and client identifier from request header X-ClientTraceId.',
};

const SURROGATE_HIGH = /[\uD800-\uDBFF]/;
const SURROGATE_HIGH_G = /[\uD800-\uDBFF]/g;

/**
 * Characters as the service counts and bills them: Unicode code points (a character outside the
 * basic plane counts once, not as two UTF-16 units). Spaces and markup count.
 */
export function countChars(text: string): number {
  const n = text.length;
  if (n === 0 || !SURROGATE_HIGH.test(text)) return n;
  return n - (text.match(SURROGATE_HIGH_G)?.length ?? 0);
}

/** A language code: `de`, `yue`, `zh-Hans`, `sr-Latn`, `fr-CA`, `tlh-Piqd`. */
export const LANGUAGE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
/** An ISO 15924 script code: `Latn`, `Cyrl`. */
export const SCRIPT_CODE = /^[A-Za-z]{4}$/;
/** A GUID as the ClientTraceId must be. */
export const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** `latn` -> `Latn` */
export function canonicalScript(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

/**
 * The languages of the translation scope with the default script of each (the spec does not list
 * them; this is the public list of the real service). Used by the emulator; the client checks the
 * syntax of codes only, so a language added to the service later still works.
 */
export const LANGUAGES: Readonly<Record<string, string>> = {
  af: 'Latn', am: 'Ethi', ar: 'Arab', as: 'Beng', az: 'Latn', ba: 'Cyrl', bg: 'Cyrl', bho: 'Deva', bn: 'Beng', bo: 'Tibt',
  brx: 'Deva', bs: 'Latn', ca: 'Latn', cs: 'Latn', cy: 'Latn', da: 'Latn', de: 'Latn', doi: 'Deva', dsb: 'Latn', dv: 'Thaa',
  el: 'Grek', en: 'Latn', es: 'Latn', et: 'Latn', eu: 'Latn', fa: 'Arab', fi: 'Latn', fil: 'Latn', fj: 'Latn', fo: 'Latn',
  fr: 'Latn', 'fr-CA': 'Latn', ga: 'Latn', gl: 'Latn', gom: 'Deva', gu: 'Gujr', ha: 'Latn', he: 'Hebr', hi: 'Deva', hne: 'Deva',
  hr: 'Latn', hsb: 'Latn', ht: 'Latn', hu: 'Latn', hy: 'Armn', id: 'Latn', ig: 'Latn', ikt: 'Latn', is: 'Latn', it: 'Latn',
  iu: 'Cans', 'iu-Latn': 'Latn', ja: 'Jpan', ka: 'Geor', kk: 'Cyrl', km: 'Khmr', kmr: 'Latn', kn: 'Knda', ko: 'Kore', ks: 'Arab',
  ku: 'Arab', ky: 'Cyrl', lg: 'Latn', ln: 'Latn', lo: 'Laoo', lt: 'Latn', lug: 'Latn', lv: 'Latn', lzh: 'Hans', mai: 'Deva',
  mg: 'Latn', mi: 'Latn', mk: 'Cyrl', ml: 'Mlym', 'mn-Cyrl': 'Cyrl', 'mn-Mong': 'Mong', mni: 'Beng', mr: 'Deva', ms: 'Latn', mt: 'Latn',
  mww: 'Latn', my: 'Mymr', nb: 'Latn', ne: 'Deva', nl: 'Latn', nso: 'Latn', nya: 'Latn', or: 'Orya', otq: 'Latn', pa: 'Guru',
  pl: 'Latn', prs: 'Arab', ps: 'Arab', pt: 'Latn', 'pt-PT': 'Latn', ro: 'Latn', ru: 'Cyrl', run: 'Latn', rw: 'Latn', sd: 'Arab',
  si: 'Sinh', sk: 'Latn', sl: 'Latn', sm: 'Latn', sn: 'Latn', so: 'Latn', sq: 'Latn', 'sr-Cyrl': 'Cyrl', 'sr-Latn': 'Latn', st: 'Latn',
  sv: 'Latn', sw: 'Latn', ta: 'Taml', te: 'Telu', th: 'Thai', ti: 'Ethi', tk: 'Latn', 'tlh-Latn': 'Latn', 'tlh-Piqd': 'Piqd', tn: 'Latn',
  to: 'Latn', tr: 'Latn', tt: 'Cyrl', ty: 'Latn', ug: 'Arab', uk: 'Cyrl', ur: 'Arab', uz: 'Latn', vi: 'Latn', xh: 'Latn',
  yo: 'Latn', yua: 'Latn', yue: 'Hant', 'zh-Hans': 'Hans', 'zh-Hant': 'Hant', zu: 'Latn',
};

/**
 * Older codes the service still accepts and answers under the current code (the translator SDK's
 * recorded sessions send `zh-cn` and `zh-chs` and get `zh-Hans` back).
 */
const LEGACY_CODES: Readonly<Record<string, string>> = { 'zh-cn': 'zh-Hans', 'zh-chs': 'zh-Hans', 'zh-sg': 'zh-Hans', 'zh-tw': 'zh-Hant', 'zh-cht': 'zh-Hant', 'zh-hk': 'zh-Hant' };

const LANGUAGE_BY_LOWER = new Map([...Object.keys(LANGUAGES).map((k) => [k.toLowerCase(), k] as const), ...Object.entries(LEGACY_CODES)]);

/** The canonical spelling of a supported language code (case-insensitive), or undefined. */
export function findLanguage(code: string): string | undefined {
  return LANGUAGE_BY_LOWER.get(code.toLowerCase());
}

const CHINESE: Record<string, string> = { 'zh-cn': 'zh-Hans', 'zh-sg': 'zh-Hans', 'zh-tw': 'zh-Hant', 'zh-hk': 'zh-Hant', 'zh-mo': 'zh-Hant', zh: 'zh-Hans' };

/**
 * The language the service is asked for, for a file's language: the code itself when the service
 * knows it (pt-PT, fr-CA, zh-Hans), else its longest known prefix: without the region (de-DE -> de,
 * en-US -> en, nb-NO -> nb; zh-CN -> zh-Hans, zh-TW -> zh-Hant; sr-Latn-RS -> sr-Latn, zh-Hant-TW
 * -> zh-Hant); an unknown code is sent as it is.
 */
export function serviceLanguage(code: string): string {
  const parts = code.toLowerCase().replaceAll('_', '-').split('-');
  // the longest known prefix: sr-Latn-RS -> sr-Latn, zh-Hant-TW -> zh-Hant, zh-TW -> zh-Hant, de-DE -> de
  for (let n = parts.length; n > 0; n--) {
    const prefix = parts.slice(0, n).join('-');
    const known = findLanguage(prefix) ?? CHINESE[prefix];
    if (known) return known;
  }
  return code;
}

/**
 * Language pairs for which the service produces word alignment: English to/from any language
 * except Traditional Chinese, Cantonese (Traditional) and Serbian (Cyrillic); Japanese to/from
 * Korean; Japanese to/from Simplified Chinese; Simplified Chinese to/from Traditional Chinese.
 */
export function alignmentSupported(from: string, to: string): boolean {
  const pair = (a: string, b: string) => (from === a && to === b) || (from === b && to === a);
  if (from === 'en' || to === 'en') {
    const other = from === 'en' ? to : from;
    return other !== 'zh-Hant' && other !== 'yue' && other !== 'sr-Cyrl';
  }
  return pair('ja', 'ko') || pair('ja', 'zh-Hans') || pair('zh-Hans', 'zh-Hant');
}

/** One element of the response array. */
export interface TranslateResult {
  detectedLanguage?: { language: string; score: number };
  translations: Translation[];
  sourceText?: { text: string };
}

export interface Translation {
  to: string;
  text: string;
  transliteration?: { script: string; text: string };
  alignment?: { proj: string };
  sentLen?: { srcSentLen: number[]; transSentLen: number[] };
}

/**
 * The dynamic dictionary: `<mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary>`
 * puts the given translation in place of the element (it needs `from`; the markup is
 * case-sensitive: `<MSTRANS:DICTIONARY>` is an unknown tag). The attribute is double-quoted, its
 * `"`, `&`, `<` and `>` written as entities.
 */
export const DICTIONARY_ENTRY = /<mstrans:dictionary translation="([^"]*)">([\s\S]*?)<\/mstrans:dictionary>/g;

/** The five XML entities of an attribute value, written back as their characters. */
export function decodeAttribute(value: string): string {
  return value.replace(/&(quot|amp|lt|gt|apos);/g, (_, e: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" })[e]!);
}


/** Text for HTML: `&`, `<`, `>` and `"` written as entities. */
export function escapeHtml(text: string): string {
  return HTML_SPECIAL.test(text) ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : text;
}

const HTML_SPECIAL = /[&<>"]/;

/**
 * The dictionary element that makes the service translate `term` as `translation` (the
 * translation as text: in plain mode the service gives back its characters, in HTML mode the
 * entities as written, which read as the same characters).
 */
export function dictionaryEntry(term: string, translation: string): string {
  return `<mstrans:dictionary translation="${escapeHtml(translation)}">${term}</mstrans:dictionary>`;
}
