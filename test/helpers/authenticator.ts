// An authenticator for tests that build a client by hand: fixed headers, never renewed.
import type { Authenticator, HttpRequest } from '../../src/core/http/index.js';

export function fixedAuth(headers: Record<string, string>, secretHeaders: readonly string[] = Object.keys(headers)): Authenticator {
  return { headers: () => headers, apply: async () => headers, renew: async () => undefined, advice: 'sign in again', secretHeaders };
}

/** A request's headers with its credential's, as they go out (the request's own win). */
export function sentHeaders(req: HttpRequest): Record<string, string | undefined> {
  return { ...req.auth?.headers(), ...req.headers };
}
