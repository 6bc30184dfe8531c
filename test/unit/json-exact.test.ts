import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLongDigitRun, isExactNumber, parseExact } from '../../src/core/json.js';

describe('hasLongDigitRun (the guard of parseExact)', () => {
  const REFERENCE = /(?<![0-9])[0-9][0-9.]{15}/;
  it('answers as the regular expression it replaces, on texts made of digits, dots and others', () => {
    const char = fc.constantFrom(...'0123456789.', '0', '1', '9', '.', '-', 'x', '"', ' ');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 120 }), (chars) => {
        const text = chars.join('');
        expect(hasLongDigitRun(text)).toBe(REFERENCE.test(text));
      }),
      { numRuns: 5000 },
    );
  });
  it('finds a run at every offset and length around 16, and none at 15', () => {
    for (let pad = 0; pad < 40; pad++)
      for (const [run, want] of [['1234567890123456', true], ['123456789012345', false], ['.123456789012345', false], ['1.34567890123456', true], ['123456789012345.', true]] as const) {
        const text = `${'x'.repeat(pad)}${run}${'y'.repeat(40 - pad)}`;
        expect([pad, run, hasLongDigitRun(text)]).toEqual([pad, run, want]);
      }
  });
  it('parseExact still keeps a long literal exact and parses plain pages plainly', () => {
    const page = JSON.stringify({ value: [{ id: '00000000-0000-0000-0000-000000005000', n: 12 }] });
    expect(parseExact(page)).toEqual(JSON.parse(page));
    const v = parseExact('{"id":9007199254740993,"s":"90071992547409931"}') as { id: unknown; s: string };
    expect(isExactNumber(v.id)).toBe(true);
    expect(String(v.id)).toBe('9007199254740993');
    expect(v.s).toBe('90071992547409931');
  });
});
