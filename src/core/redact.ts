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
const SECRET_HEADER_NAME = /(^|-)(auth|key|apikey|token|secret|password|passwd|credentials?|signature|session)(-|$)/;

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

/** `user:password@` in a URL (an endpoint may carry one): hidden wherever the URL is shown */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

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
    .replace(/((?<![\w-])(?:access_token|refresh_token|id_token|client_secret|code|device_code|sig|signature|x-amz-signature|api-key|apikey|subscription-key|password|token)=)(?!=)[^&\s"#]+/gi, `$1${MASK}`)
    // the same credential fields in JSON (`vx api --data '{"password": ...}'`), in any case; the value
    // up to its closing quote (an escaped quote inside it included), or to the end of a text cut
    // short inside the value (a truncated token answer)
    .replace(/("(?:access_token|refresh_token|id_token|client_secret|client_assertion|device_code|key|token|password|passwd|api[-_]?key|subscription[-_]?key)"\s*:\s*")(?:[^"\\]|\\.)*\\?("|$)/gi, `$1${MASK}$2`);
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : String(v);
    const name = k.toLowerCase();
    if (SECRET_HEADERS.has(name) || SECRET_HEADER_NAME.test(name)) {
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
