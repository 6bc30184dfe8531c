// memberArrayTexts cuts the elements of one array member out of JSON text: each cut is the
// element's JSON, and anything unexpected is refused (undefined) rather than cut wrongly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberArrayTexts } from '../../src/core/json-texts.js';

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
});
