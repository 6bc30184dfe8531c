// memberArrayTexts cuts the elements of one array member out of JSON text: each cut is the
// element's JSON, and anything unexpected is refused (undefined) rather than cut wrongly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberArraySpans, memberArrayTexts, ndjsonOfSpans } from '../../src/core/json-texts.js';

describe('memberArrayTexts', () => {
  it('cuts each element as written, whatever precedes or follows the member', () => {
    const text = '{"@odata.context":"x\\"value\\":[1]","value":[{"a":"b\\\\","c":[1,{"d":"}]"}]},2,"s",null,true,[]],"@odata.nextLink":"n"}';
    expect(memberArrayTexts(text, 'value')).toEqual(['{"a":"b\\\\","c":[1,{"d":"}]"}]}', '2', '"s"', 'null', 'true', '[]']);
    expect(memberArrayTexts(' { "value" : [ {"a" : 1} , 2 ] } ', 'value')).toEqual(['{"a" : 1}', '2']);
    expect(memberArrayTexts('{"value":[]}', 'value')).toEqual([]);
    expect(memberArrayTexts('{"a\\"":1,"\\u0076alue":[2]}', 'value')).toEqual(['2']);
  });

  it('refuses what it does not cut: no member, not an array, twice (also spelled with escapes), not an object', () => {
    expect(memberArrayTexts('{"values":[1]}', 'value')).toBeUndefined();
    expect(memberArrayTexts('{}', 'value')).toBeUndefined();
    expect(memberArrayTexts('{"value":{"a":1}}', 'value')).toBeUndefined();
    expect(memberArrayTexts('{"value":[1],"value":[2]}', 'value')).toBeUndefined();
    expect(memberArrayTexts('{"value":[1],"\\u0076alue":[2]}', 'value')).toBeUndefined();
    expect(memberArrayTexts('[{"value":[1]}]', 'value')).toBeUndefined();
    expect(memberArrayTexts('{"value":[1,2', 'value')).toBeUndefined();
    expect(memberArrayTexts('{"value":["a', 'value')).toBeUndefined();
  });

  it('every cut parses to the element JSON.parse gives, and is its JSON.stringify in compact text', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.dictionary(fc.string().filter((k) => k !== 'value'), fc.jsonValue(), { maxKeys: 3 }), fc.boolean(), (value, rest, pretty) => {
        const text = JSON.stringify({ ...rest, value }, null, pretty ? 2 : undefined);
        const cut = memberArrayTexts(text, 'value');
        if (!cut) return false;
        const parsed = (JSON.parse(text) as { value: unknown[] }).value;
        return cut.length === parsed.length && cut.every((t, i) => JSON.stringify(JSON.parse(t)) === JSON.stringify(parsed[i]) && (pretty || t === JSON.stringify(parsed[i])));
      }),
      { numRuns: 500 },
    );
  });

  it('ndjsonOfSpans: each element on its own line, from the bytes, compact or not', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1 }), fc.boolean(), (value, spaced) => {
        const ascii = JSON.stringify({ value }, (_k, v) => (typeof v === 'string' ? v.replace(/[^\x20-\x7e]/g, '?') : v), spaced ? ' ' : undefined).replace(/\n/g, ' ');
        const spans = memberArraySpans(ascii, 'value');
        if (!spans) return false;
        const lines = Buffer.from(ndjsonOfSpans(Buffer.from(ascii, 'latin1'), spans)).toString('latin1');
        return lines === `${memberArrayTexts(ascii, 'value')!.join('\n')}\n`;
      }),
      { numRuns: 300 },
    );
    const page = Buffer.from('{"x":0,"value":[{"a":"},{"},2,"s"]}');
    expect(Buffer.from(ndjsonOfSpans(page, memberArraySpans(page.toString(), 'value')!)).toString()).toBe('{"a":"},{"}\n2\n"s"\n');
  });
});
