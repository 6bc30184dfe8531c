// The one registry of secret values known to this process. Every trace, error message and
// dry-run description passes through redact() before it reaches stderr or stdout.

const secrets = new Set<string>();
let pattern: RegExp | undefined;

/** Headers whose values are always secrets, whatever they hold. */
export const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'vendor-subscription-key',
  'ocp-apim-subscription-key',
  'cookie',
  'set-cookie',
  'x-api-key',
]);

/**
 * Other header names that carry a credential by their words (`api-key`, `X-Auth-Token`,
 * `Private-Token`, `X-Functions-Key`, `X-Amz-Security-Token`): a credential given with `vx api -H`
 * is masked in --debug and --dry-run like the ones vx sends itself
 */
const SECRET_HEADER_NAME =
  /(^|[-_.])(auth|authorization|key|apikey|token|secret|password|passwd|credentials?|signature|session|sessionid|accesstoken|accesskey|authtoken|apitoken|privatekey|secretkey|clientsecret)([-_.]|$)/;

export const MASK = '***';

export function addSecret(value: string | undefined | null): void {
  if (!value || value.length < 4) return;
  if (secrets.has(value)) return;
  secrets.add(value);
  // A bearer token may also appear URL-encoded (in a redirect URL or form body).
  const enc = encodeURIComponent(value);
  if (enc !== value) secrets.add(enc);
  pattern = undefined;
}

/** Empties the registry: a test worker runs one test file after another in one process, each from none. */
export function forgetSecrets(): void {
  secrets.clear();
  pattern = undefined;
}

/**
 * `user:password@` in a URL (an endpoint may carry one): hidden wherever the URL is shown. Up to
 * the last @ before the path: URL parsers accept an unencoded @ in the password (`bob:p@ss@host`)
 */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>]+@/gi;

/**
 * OAuth and signature parameters of a query or form, in any case (never `$skiptoken`: a letter
 * before the name). Not a code in quotes (`code='EUR'`, an OData key: an OAuth code never
 * starts with one) nor a comparison (`code==`), and never a backslash: in a JSON text it escapes the quote after the value, and
 * taking it would break the JSON (an error body is redacted before it is parsed).
 */
const FORM_FIELD =
  /((?<![\w-])(?:access_token|refresh_token|id_token|client_secret|client_assertion|code|device_code|sig|signature|x-amz-signature|api-key|api_key|apikey|subscription-key|password|token)=)(?!=)(?!(?<=code=)')[^&\s"#\\]+/gi;

/** names that are credentials only as a URL's query parameter (`?key=`, Google's API key): elsewhere (`--set key=x`) they are data */
const QUERY_FIELD = /([?&](?:key|secret|access_key|private_token)=)[^&\s"#\\]+/gi;

/** the keys of storage and service-bus connection strings */
const CONNECTION_KEY = /((?<![\w-])(?:AccountKey|SharedAccessKey|SharedAccessSignature)=)[^;&\s"\\]+/gi;

/**
 * Credential fields of a JSON text, in any case and with `_`/`-` or camelCase (`client_secret`,
 * `clientSecret`), and the keys a management API lists (`primaryKey`, `key1`, `primaryConnectionString`): the value up to its closing quote (an escaped quote inside it included), or to
 * the end of a text cut short inside the value (a truncated token answer)
 */
const JSON_FIELD =
  /("(?:access[-_]?token|refresh[-_]?token|id[-_]?token|client[-_]?secret|client[-_]?assertion|device[-_]?code|key|token|secret|password|passwd|api[-_]?key|api[-_]?token|auth[-_]?token|sas[-_]?token|subscription[-_]?key|access[-_]?key|secret[-_]?key|private[-_]?key|authorization|(?:primary|secondary)?[-_]?connection[-_]?string|(?:primary|secondary)(?:[-_]?read[-_]?only)?(?:[-_]?master)?[-_]?key|key[12]|account[-_]?key|shared[-_]?access[-_]?key)"\s*:\s*")(?:[^"\\]|\\.)*\\?("|$)/gi;

/** `Authorization: Basic <base64>` written in a text (headers themselves go through redactHeaders) */
const BASIC = /(authorization"?\s*[:=]\s*"?Basic\s+)[A-Za-z0-9+/=._~-]+/gi;

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces every known secret, and anything that looks like a bearer token or a client secret, with ***. */
export function redact(text: string): string {
  if (!text) return text;
  if (secrets.size) {
    pattern ??= new RegExp([...secrets].sort((a, b) => b.length - a.length).map(escape).join('|'), 'g');
    text = text.replace(pattern, MASK);
  }
  return text
    .replace(USERINFO, `$1${MASK}@`)
    .replace(/(Bearer\s+)[A-Za-z0-9\-._~+/]{16,}=*/gi, `$1${MASK}`)
    .replace(BASIC, `$1${MASK}`)
    .replace(FORM_FIELD, `$1${MASK}`)
    .replace(QUERY_FIELD, `$1${MASK}`)
    .replace(CONNECTION_KEY, `$1${MASK}`)
    .replace(JSON_FIELD, `$1${MASK}$2`);
}

/** Whether a header carries a credential, by its name (the ones vx sends, and `X-Auth-Token`, `api_key`...). */
export function isCredentialHeader(name: string): boolean {
  const n = name.toLowerCase();
  return SECRET_HEADERS.has(n) || SECRET_HEADER_NAME.test(n);
}

/** Headers as they may be shown: a credential header's value masked (`secret`: more names to mask, an authenticator's). */
export function redactHeaders(headers: Record<string, string | string[] | undefined>, secret: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : String(v);
    if (isCredentialHeader(k) || secret.some((s) => s.toLowerCase() === k.toLowerCase())) {
      out[k] = /^bearer\s/i.test(value) ? `Bearer ${MASK}` : MASK;
    } else {
      out[k] = redact(value);
    }
  }
  return out;
}

/** For tests. */
export function clearSecrets(): void {
  secrets.clear();
  pattern = undefined;
}
