// The business-data service's errors as the platform writes them: the codes by status, the error
// body with its CorrelationId, and the 400s and 404s the routes raise. The database refresh
// family (lcs/) answers with the same body.
import { EmuError } from '../server/index.js';

export const erpCodes = {
  unauthorized: 'Authentication_InvalidCredentials',
  notFound: 'BadRequest_NotFound',
  badRequest: 'BadRequest',
  badJson: 'BadRequest_InvalidRequestBody',
  tooLarge: 'RequestEntityTooLarge',
  throttled: 'Application_TooManyRequests',
  unavailable: 'Internal_ServiceUnavailable',
  internal: 'Internal_ServerError',
  methodNotAllowed: 'BadRequest_MethodNotAllowed',
  byStatus: { 403: 'Authorization_InsufficientPermissions', 409: 'Request_EntityChanged', 412: 'Request_EntityChanged' },
};

// {"error":{"code":"BadRequest_NotFound","message":"...  CorrelationId:  <guid>."}}
export const erpError = (_status: number, code: string, message: string, req: { requestId: string }) => ({
  error: { code, message: `${message.replace(/\.?$/, '.')}  CorrelationId:  ${req.requestId}.` },
});

export const bad = (message: string, code = 'BadRequest') => new EmuError(400, code, message);
export const notFound = (message: string) => new EmuError(404, 'BadRequest_NotFound', message);
/** An error the platform raises from the API page's own checks (AL `Error()`), 400 Application_DialogException. */
export const dialog = (message: string) => bad(message, 'Application_DialogException');

/** A path segment percent-decoded; a malformed one is a 400. */
export function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw bad(`The URL segment "${s}" is not correctly percent-encoded`);
  }
}

/** `<guid>` or `'text'` (quotes doubled inside) */
export function parseKey(raw: string): string {
  const k = decode(raw).trim();
  if (/^'.*'$/.test(k)) return k.slice(1, -1).replace(/''/g, "'");
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(k)) return k.toLowerCase();
  throw bad(`The key "${k}" is not a GUID or a quoted string`);
}
