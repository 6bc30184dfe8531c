// Error bodies of every family become one line with status, code, message and request id, and the
// contract's exit code; bodies that are not the service's (HTML from a proxy, broken JSON) too.
import { describe, expect, it } from 'vitest';
import {
  asVxError,
  AuthError,
  ConflictError,
  describeBody,
  errorClassFor,
  errorFromResponse,
  NetworkError,
  NotFoundError,
  parseErrorBody,
  ServiceError,
  ThrottledError,
  UnavailableError,
  UsageError,
} from '../../src/core/errors.js';

describe('parseErrorBody', () => {
  it('translator: {error:{code:<6-digit number>,message}}', () => {
    expect(parseErrorBody('{"error":{"code":400036,"message":"The target language is not valid."}}')).toEqual({
      code: '400036',
      message: 'The target language is not valid.',
      details: [],
    });
  });
  it('erp: {error:{code,message}}', () => {
    expect(parseErrorBody('{"error":{"code":"BadRequest_NotFound","message":"The Sales Order does not exist."}}')).toEqual({
      code: 'BadRequest_NotFound',
      message: 'The Sales Order does not exist.',
      details: [],
    });
  });
  it('mgmt: {error:{code,message,target,details:[...]}}', () => {
    const body = JSON.stringify({
      error: { code: 'ValidationError', message: 'One or more fields are invalid.', target: '', details: [{ code: 'Required', target: 'displayName', message: 'is required' }], additionalInfo: [] },
    });
    expect(parseErrorBody(body)).toEqual({ code: 'ValidationError', message: 'One or more fields are invalid.', details: ['Required (displayName) is required'] });
  });
  it('mgmt health events: the flat {code,message,details}', () => {
    expect(parseErrorBody('{"code":"InvalidSubscription","message":"The subscription is invalid.","details":""}')).toEqual({
      code: 'InvalidSubscription',
      message: 'The subscription is invalid.',
      details: [],
    });
    // the spec's ErrorResponse of the health family has `details` as a string: it is kept, not dropped
    expect(parseErrorBody('{"code":"ResourceNotFound","message":"The resource was not found.","details":"No resource vm1 in group web."}')).toEqual({
      code: 'ResourceNotFound',
      message: 'The resource was not found.',
      details: ['No resource vm1 in group web.'],
    });
  });
  it('OAuth {error:"...", error_description}', () => {
    expect(parseErrorBody('{"error":"invalid_grant"}')).toEqual({ code: undefined, message: 'invalid_grant', details: [] });
  });
  it('malformed JSON, non-objects and unknown shapes give nothing (never throw)', () => {
    for (const t of ['', '{"error":{"code":', '<html></html>', '[1,2]', 'null', '42', '"str"', '{"foo":1}', '{"error":null}', '{"error":{"code":{"nested":1}}}']) {
      expect(parseErrorBody(t)).toEqual({});
    }
  });
});

describe('describeBody', () => {
  it('names an HTML page by its title and points at a proxy', () => {
    expect(describeBody('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'text/html')).toBe(
      'HTML page "502 Bad Gateway" (not a service response; a proxy?)',
    );
    expect(describeBody('<html><body>oops</body></html>', undefined)).toBe('an HTML page (not a service response; a proxy?)');
  });
  it('keeps plain text on one line and cuts it at 200 characters', () => {
    expect(describeBody('  upstream\n  connect error  ', 'text/plain')).toBe('upstream connect error');
    expect(describeBody('y'.repeat(500), 'text/plain')).toBe(`${'y'.repeat(200)}…`);
    expect(describeBody('   ', 'text/plain')).toBeUndefined();
  });
});

describe('errorFromResponse', () => {
  it('one line: status, code, message, details and request id per family', () => {
    const t = errorFromResponse(400, '{"error":{"code":400036,"message":"The target language is not valid."}}', { 'x-requestid': 'abc' });
    expect(t).toBeInstanceOf(ServiceError);
    expect(t.exitCode).toBe(1);
    expect(t.message).toBe('HTTP 400 Bad Request 400036: The target language is not valid. (request id abc)');
    expect(t.code).toBe('400036');

    const e = errorFromResponse(404, '{"error":{"code":"BadRequest_NotFound","message":"The Sales Order\\n does not exist."}}', { 'request-id': 'r1' });
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.message).toBe('HTTP 404 Not Found BadRequest_NotFound: The Sales Order does not exist. (request id r1)');

    const m = errorFromResponse(409, JSON.stringify({ error: { code: 'Conflict', message: 'Exists', details: [{ code: 'Dup', message: 'again' }] } }), {});
    expect(m).toBeInstanceOf(ConflictError);
    expect(m.message).toBe('HTTP 409 Conflict Conflict: Exists [Dup again]');

    const f = errorFromResponse(403, '{"code":"AuthorizationFailed","message":"No access."}', { 'x-ms-request-id': ['r2', 'r3'] });
    expect(f).toBeInstanceOf(AuthError);
    expect(f.message).toBe('HTTP 403 Forbidden AuthorizationFailed: No access. (request id r2)');
  });
  it('an HTML page from a proxy and a malformed JSON body still give one clear line', () => {
    const h = errorFromResponse(502, '<html><head><title>502 Bad Gateway</title></head></html>', { 'content-type': 'text/html' });
    expect(h).toBeInstanceOf(UnavailableError);
    expect(h.message).toBe('HTTP 502 Bad Gateway: HTML page "502 Bad Gateway" (not a service response; a proxy?)');
    const j = errorFromResponse(500, '{"error":{"code":"Inter', { 'content-type': 'application/json' });
    expect(j.message).toBe('HTTP 500 Internal Server Error: {"error":{"code":"Inter');
    expect(errorFromResponse(418, '', {}).message).toBe('HTTP 418');
  });
  it('maps statuses to the contract exit codes', () => {
    const code = (s: number) => new (errorClassFor(s))('x').exitCode;
    expect([400, 401, 403, 404, 405, 408, 409, 412, 413, 422, 429, 500, 502, 503, 504].map(code)).toEqual([1, 3, 3, 4, 1, 7, 5, 5, 1, 1, 6, 7, 7, 7, 7]);
  });
});

describe('asVxError', () => {
  it('keeps VxErrors, maps network and file errors, wraps the rest', () => {
    const u = new UsageError('u');
    expect(asVxError(u)).toBe(u);
    expect(asVxError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeInstanceOf(NetworkError);
    expect(asVxError(Object.assign(new Error('nope'), { code: 'ENOENT' }))).toBeInstanceOf(UsageError);
    expect(asVxError(Object.assign(new Error('bye'), { name: 'ExitPromptError' })).exitCode).toBe(130);
    const s = asVxError(new TypeError('boom'));
    expect(s).toBeInstanceOf(ServiceError);
    expect(s.message).toBe('boom');
    expect(new ThrottledError('t').exitCode).toBe(6);
  });
});
