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
 * knows it (pt-PT, fr-CA, zh-Hans), else its language without the region (de-DE -> de, en-US ->
 * en, nb-NO -> nb; zh-CN -> zh-Hans, zh-TW -> zh-Hant); an unknown code is sent as it is.
 */
export function serviceLanguage(code: string): string {
  const lower = code.toLowerCase().replace('_', '-');
  return findLanguage(lower) ?? CHINESE[lower] ?? findLanguage(lower.split('-')[0]) ?? code;
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
