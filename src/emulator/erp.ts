// Business-data (ERP) and database-refresh (LCS) families of the emulator (routes added by the ERP work).
import type { FamilyDef } from './server.js';

const erpCodes = {
  unauthorized: 'Authentication_InvalidCredentials',
  notFound: 'BadRequest_NotFound',
  badRequest: 'BadRequest',
  badJson: 'BadRequest_InvalidRequestBody',
  tooLarge: 'RequestEntityTooLarge',
  throttled: 'Application_TooManyRequests',
  unavailable: 'Internal_ServiceUnavailable',
  internal: 'Internal_ServerError',
  methodNotAllowed: 'BadRequest_MethodNotAllowed',
};

// {"error":{"code":"BadRequest_NotFound","message":"...  CorrelationId:  <guid>."}}
const erpError = (_status: number, code: string, message: string, req: { requestId: string }) => ({
  error: { code, message: `${message.replace(/\.?$/, '.')}  CorrelationId:  ${req.requestId}.` },
});

export function erpFamily(): FamilyDef {
  return { name: 'erp', prefix: '/erp', auth: 'bearer', requestIdHeader: 'request-id', codes: erpCodes, errorBody: erpError, routes: [] };
}

export function lcsFamily(): FamilyDef {
  return { name: 'lcs', prefix: '/lcs', auth: 'bearer', requestIdHeader: 'x-request-id', codes: erpCodes, errorBody: erpError, routes: [] };
}
