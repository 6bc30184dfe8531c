// Identity endpoints of the emulator (added by the auth work).
import type { FamilyDef } from './server.js';

export function authFamily(): FamilyDef {
  return {
    name: 'auth',
    prefix: '/auth',
    auth: 'none',
    requestIdHeader: 'x-request-id',
    codes: {
      unauthorized: 'invalid_client',
      notFound: 'not_found',
      badRequest: 'invalid_request',
      badJson: 'invalid_request',
      tooLarge: 'invalid_request',
      throttled: 'temporarily_unavailable',
      unavailable: 'temporarily_unavailable',
      internal: 'server_error',
    },
    // OAuth 2.0 error response
    errorBody: (_s, code, message) => ({ error: code, error_description: message }),
    routes: [],
  };
}
