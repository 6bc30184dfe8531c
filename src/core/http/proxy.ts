// Proxies (HTTPS_PROXY, HTTP_PROXY, any case; undici's EnvHttpProxyAgent carries every request when
// one is set), the transport a process uses, and VX_ALLOW_HTTP.
import type { Env } from '../env.js';
import { UsageError } from '../errors.js';

/** The proxy variable undici's EnvHttpProxyAgent uses for `url` (lower case first; https falls back to the http proxy). */
function proxyVariable(url: string, env: Env): { name: string; value: string } | undefined {
  const names = url.startsWith('https:') ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  for (const name of names) if (env[name]?.trim()) return { name, value: env[name]!.trim() };
  return undefined;
}

/** What to do about a 407 to the tunnel: give the proxy a user and password, or check the ones given (never shown). */
export function proxyAuthHint(url: string, env: Env): string {
  const proxy = proxyVariable(url, env);
  let withUser = false;
  try {
    withUser = Boolean(proxy && new URL(proxy.value).username);
  } catch {
    /* not a URL: undici refused it earlier */
  }
  return proxy && withUser
    ? `the proxy refused the user and password in ${proxy.name}: check them (an @, :, / or % inside them must be percent-encoded)`
    : 'the proxy asks for a user and password: put them in its address in HTTPS_PROXY or HTTP_PROXY, as user:password@ before its host';
}

/**
 * The transport a process uses: undici when a proxy is configured or forced, else node:http.
 * VX_HTTP_CLIENT (any case; empty is unset) forces one; another value is a usage error, not ignored.
 */
export function chooseTransport(env: Env): 'undici' | 'node' {
  const forced = env.VX_HTTP_CLIENT?.trim().toLowerCase();
  if (forced === 'undici' || forced === 'node') return forced;
  if (forced) throw new UsageError(`invalid value "${env.VX_HTTP_CLIENT}" for VX_HTTP_CLIENT: expected undici or node`);
  const proxy = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((k) => Boolean(env[k]?.trim()));
  return proxy ? 'undici' : 'node';
}

/**
 * The proxy variables undici's EnvHttpProxyAgent reads (lower case first), checked before it is
 * made: one that is not an http(s) URL (`proxy.corp:8080` without a scheme, a mistyped address)
 * was a false "network error" (exit 8) or a bare "Invalid URL" (exit 1). Its value is never
 * shown: it may hold the proxy's password.
 */
export function checkProxyVariables(env: Env): void {
  for (const names of [['http_proxy', 'HTTP_PROXY'], ['https_proxy', 'HTTPS_PROXY']]) {
    const name = names.find((n) => env[n] !== undefined);
    const value = name && env[name];
    if (!value) continue;
    let ok = false;
    try {
      const u = new URL(value);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname);
    } catch {
      ok = false;
    }
    if (!ok) {
      throw new UsageError(`${name} is not a proxy address vx can use: expected http://host:port, with user:password@ before the host when the proxy asks for them (its value is not shown); nothing was sent`);
    }
  }
}

/** VX_ALLOW_HTTP: 1 (or true, yes) lets credentials go over plain http to other machines; 0, false, no or unset does not. */
export function allowHttpFrom(env: Env): boolean {
  const v = env.VX_ALLOW_HTTP?.trim().toLowerCase();
  if (!v || v === '0' || v === 'false' || v === 'no') return false;
  if (v === '1' || v === 'true' || v === 'yes') return true;
  throw new UsageError(`invalid value "${env.VX_ALLOW_HTTP}" for VX_ALLOW_HTTP: expected 1 or 0`);
}
