// Translator family of the emulator (routes added by the translate work).
import type { FamilyDef } from './server.js';

export function translatorFamily(): FamilyDef {
  return {
    name: 'translator',
    prefix: '/translator',
    auth: 'key',
    requestIdHeader: 'X-RequestId',
    codes: {
      unauthorized: '401000',
      notFound: '404000',
      badRequest: '400000',
      badJson: '400074',
      tooLarge: '413000',
      throttled: '429000',
      unavailable: '503000',
      internal: '500000',
      methodNotAllowed: '405000',
    },
    // {"error":{"code":400036,"message":"..."}}: a 6-digit integer code
    errorBody: (_status, code, message) => ({ error: { code: Number(code), message } }),
    routes: [],
  };
}
