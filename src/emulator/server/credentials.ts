// How the emulator checks a request's credential: the subscription key (or a token the auth family
// issued) for a key family, a bearer token for the others.
import type { IncomingHttpHeaders } from 'node:http';
import type { FamilyDef, IssuedToken } from './types.js';

export interface Accepted {
  /** the subscription key a key family accepts */
  key: string;
  /** the bearer token every family accepts */
  token: string;
  /** the tokens issued by the auth family */
  tokens: ReadonlyMap<string, IssuedToken>;
}

export type Check = { ok: true; credential: string } | { ok: false; message: string };

const NOT_AUTHORIZED = 'The request is not authorized because credentials are missing or invalid.';

function tokenValid(t: string, accepted: Accepted): boolean {
  if (t === accepted.token) return true;
  const issued = accepted.tokens.get(t);
  return Boolean(issued && !issued.refresh && issued.expiresAt > Date.now());
}

export function authenticate(family: FamilyDef, headers: IncomingHttpHeaders, accepted: Accepted): Check {
  if (family.auth === 'key') {
    const key = headers['vendor-subscription-key'];
    const auth = headers.authorization;
    if (typeof key === 'string' && key.length) {
      return key === accepted.key ? { ok: true, credential: key } : { ok: false, message: NOT_AUTHORIZED };
    }
    if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) {
      const t = auth.replace(/^Bearer\s+/i, '');
      if (tokenValid(t, accepted)) return { ok: true, credential: t };
    }
    return { ok: false, message: NOT_AUTHORIZED };
  }
  const auth = headers.authorization;
  if (typeof auth !== 'string' || !/^Bearer\s+\S/i.test(auth)) return { ok: false, message: 'The request has no bearer token in the Authorization header.' };
  const t = auth.replace(/^Bearer\s+/i, '').trim();
  const issued = accepted.tokens.get(t);
  if (issued && issued.expiresAt <= Date.now()) return { ok: false, message: 'The access token has expired.' };
  if (!tokenValid(t, accepted)) return { ok: false, message: 'The access token is invalid.' };
  return { ok: true, credential: t };
}
