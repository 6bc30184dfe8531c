// Management family of the emulator (routes added by the management work). Each API family has
// its own error shape: health events a flat ErrorResponse, quota an ExceptionResponse, version
// sets an ErrorResponse with target/details/additionalInfo.
import type { FamilyDef } from './server.js';

export function mgmtErrorBody(status: number, code: string, message: string, req: { requestId: string; path?: string }): unknown {
  const path = req.path ?? '';
  if (/\/providers\/[^/]+\.ResourceHealth\//i.test(path)) return { code, message, details: '' };
  if (/\/providers\/[^/]+\.Capacity\//i.test(path)) return { error: { code, message, details: [] } };
  return { error: { code, message, target: '', details: [], additionalInfo: [] } };
}

export function mgmtFamily(): FamilyDef {
  return {
    name: 'mgmt',
    prefix: '/mgmt',
    auth: 'bearer',
    requestIdHeader: 'x-request-id',
    codes: {
      unauthorized: 'AuthenticationFailed',
      notFound: 'ResourceNotFound',
      badRequest: 'BadRequest',
      badJson: 'InvalidRequestContent',
      tooLarge: 'RequestEntityTooLarge',
      throttled: 'TooManyRequests',
      unavailable: 'ServiceUnavailable',
      internal: 'InternalServerError',
      methodNotAllowed: 'MethodNotAllowed',
    },
    errorBody: mgmtErrorBody,
    routes: [],
  };
}
