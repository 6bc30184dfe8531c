// The fidelity suite's comparator can fail: missing fields, other types, empty lists, pinned values.
import { describe, expect, it } from 'vitest';
import { shapeErrors, union, valueErrors } from './shape.js';

describe('shape comparison', () => {
  it('passes when every published field is there with its type, whatever the values', () => {
    expect(shapeErrors({ id: 'x', n: 1, ok: true, p: { a: [1] }, z: null }, { id: 'y', n: 2.5, ok: false, p: { a: [7, 8] }, z: 'anything', extra: 1 })).toEqual([]);
  });

  it('names a missing field, a field of another type, and an empty list', () => {
    expect(shapeErrors({ a: { b: 'x' } }, { a: {} })).toEqual(['a.b: missing']);
    expect(shapeErrors({ a: 1 }, { a: '1' })).toEqual(['a: string "1", published number']);
    expect(shapeErrors({ v: [{ k: 1 }] }, { v: [] })).toEqual(['v: an empty array, published 1 element(s)']);
    expect(shapeErrors({ v: [{ k: 1 }] }, { v: [] }, { mayBeEmpty: ['v'] })).toEqual([]);
    expect(shapeErrors({ n: 'x' }, {}, { mayBeAbsent: ['n'] })).toEqual([]);
    expect(shapeErrors({ s: 'x' }, { s: null })).toEqual(['s: null null, published string']);
  });

  it('compares each published element with the union of the answer elements', () => {
    expect(union([{ a: 1 }, { b: { c: 2 } }, { b: { d: 3 } }])).toEqual({ a: 1, b: { c: 2, d: 3 } });
    expect(shapeErrors({ v: [{ a: 1, b: 's' }] }, { v: [{ a: 1 }, { b: 't' }] })).toEqual([]);
    expect(shapeErrors({ v: [{ a: 1, c: true }] }, { v: [{ a: 1 }, { b: 't' }] })).toEqual(['v[].c: missing']);
  });

  it('checks pinned values exactly or by pattern', () => {
    expect(valueErrors({ 'a.0.b': 'x', n: 2, s: '~^ab' }, { a: [{ b: 'x' }], n: 2, s: 'abc' })).toEqual([]);
    expect(valueErrors({ 'a.0.b': 'y', s: '~^z' }, { a: [{ b: 'x' }], s: 'abc' })).toEqual(['a.0.b: "x", expected "y"', 's: "abc", expected "~^z"']);
  });
});
