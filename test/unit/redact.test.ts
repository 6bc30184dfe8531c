import { beforeEach, describe, expect, it } from 'vitest';
import { addSecret, clearSecrets, redact, redactHeaders } from '../../src/core/redact.js';

beforeEach(() => clearSecrets());

describe('redact', () => {
  it('replaces every registered secret, also URL-encoded, longest first', () => {
    addSecret('abc/def+ghi');
    addSecret('abc/def');
    expect(redact('k=abc/def+ghi&x=abc%2Fdef%2Bghi y=abc/def')).toBe('k=***&x=*** y=***');
  });
  it('ignores values too short to be secrets', () => {
    addSecret('ab');
    addSecret('');
    addSecret(undefined);
    expect(redact('ab cd')).toBe('ab cd');
  });
  it('masks bearer tokens, OAuth form fields and JSON token fields even when unregistered', () => {
    expect(redact('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig')).toBe('Authorization: Bearer ***');
    expect(redact('grant_type=refresh_token&refresh_token=r-123&client_secret=s3cr3t&code=xyz')).toBe(
      'grant_type=refresh_token&refresh_token=***&client_secret=***&code=***',
    );
    // a comparison on a field named code (JMESPath, in a --query message) is not an OAuth code
    expect(redact(`vx: invalid --query expression "[?code=='EUR'": Syntax error`)).toBe(`vx: invalid --query expression "[?code=='EUR'": Syntax error`);
    expect(redact('code=abc&x=1')).toBe('code=***&x=1');
    // nor is the business-data service's duplicate-key message (`Code='EUR'`): masked, it no longer said which record exists
    const dup = "The record in table Currency already exists. Identification fields and values: Code='EUR'.  CorrelationId:  0e05b297-7525-4afe-b618-cb76062191bf.";
    expect(redact(dup)).toBe(dup);
    expect(redact('{"access_token": "tok", "token":"t2", "key":"k", "name":"n"}')).toBe('{"access_token": "***", "token":"***", "key":"***", "name":"n"}');
  });
  // `vx api --data '{"password": ...}' --debug` (or --dry-run) showed the password a form body hid
  it('masks in JSON the credential fields it masks in forms, in any case, escaped quotes included', () => {
    expect(redact('{"password":"hunter2222","Password":"x","apiKey":"k1","api-key":"k2","Subscription-Key":"k3","client_assertion":"a.b.c","user":"u"}')).toBe(
      '{"password":"***","Password":"***","apiKey":"***","api-key":"***","Subscription-Key":"***","client_assertion":"***","user":"u"}',
    );
    expect(redact('{"password": "ab\\"cd\\\\", "next": "n"}')).toBe('{"password": "***", "next": "n"}');
    // a field that merely contains a word stays: keyVaultName, tokenCount
    expect(redact('{"keyVaultName":"kv","tokenCount":3}')).toBe('{"keyVaultName":"kv","tokenCount":3}');
  });

  it('masks a credential field of a text cut short inside its value (a token answer cut in transit)', () => {
    expect(redact('{"token_type":"Bearer","access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIi')).toBe('{"token_type":"Bearer","access_token":"***');
    expect(redact('{"refresh_token":"0.AXYZ\\')).toBe('{"refresh_token":"***');
  });
  it('redactHeaders masks credential headers whatever they hold and keeps others', () => {
    addSecret('my-key-1234');
    expect(
      redactHeaders({
        Authorization: 'Bearer short',
        'Vendor-Subscription-Key': 'whatever',
        'Ocp-Apim-Subscription-Key': 'x',
        Cookie: 'a=b',
        'proxy-authorization': 'Basic dXNlcjpwYXNz',
        'x-echo': 'saw my-key-1234',
        accept: ['a', 'b'],
        skip: undefined,
      }),
    ).toEqual({
      Authorization: 'Bearer ***',
      'Vendor-Subscription-Key': '***',
      'Ocp-Apim-Subscription-Key': '***',
      Cookie: '***',
      'proxy-authorization': '***',
      'x-echo': 'saw ***',
      accept: 'a, b',
    });
  });
});
