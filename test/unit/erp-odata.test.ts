import { describe, expect, it } from 'vitest';
import { applyFilter, applyOrderBy, evaluate, ODataError, parseFilter, parseSelect, unsupportedByService } from '../../src/emulator/erp/odata.js';

const rows = [
  { id: 'A1B2C3D4-0000-4000-8000-000000000001', code: 'EUR', name: "O'Brien Ltd", amount: 10, blocked: false, date: '2026-01-05', at: '2026-01-05T10:00:00Z', status: 'Open' },
  { id: 'a1b2c3d4-0000-4000-8000-000000000002', code: 'USD', name: 'Trey Research', amount: 250.5, blocked: true, date: '2026-02-01', at: '2026-02-01T00:00:00Z', status: 'Draft' },
  { id: 'a1b2c3d4-0000-4000-8000-000000000003', code: 'GBP', name: 'Alpine Ski House', amount: 99, blocked: false, date: '2026-03-10', at: '2026-03-10T12:30:00Z', status: 'In Review' },
  { id: 'a1b2c3d4-0000-4000-8000-000000000004', code: 'DKK', name: null, amount: 0, blocked: false, date: '2025-12-31', at: '2025-12-31T23:59:59Z', status: 'Open' },
];
const fields = new Set(Object.keys(rows[0]));
const isField = (n: string) => fields.has(n);
const codes = (filter: string) => applyFilter(rows, filter, isField).map((r) => r.code);

describe('OData $filter evaluator', () => {
  it('compares with eq ne gt ge lt le', () => {
    expect(codes("code eq 'EUR'")).toEqual(['EUR']);
    expect(codes("code ne 'EUR'")).toEqual(['USD', 'GBP', 'DKK']);
    expect(codes('amount gt 99')).toEqual(['USD']);
    expect(codes('amount ge 99')).toEqual(['USD', 'GBP']);
    expect(codes('amount lt 10')).toEqual(['DKK']);
    expect(codes('amount le 10')).toEqual(['EUR', 'DKK']);
    expect(codes('amount eq 250.5')).toEqual(['USD']);
  });
  it('combines with and, or, not and parentheses (and binds tighter than or)', () => {
    expect(codes("code eq 'EUR' or code eq 'USD' and blocked eq false")).toEqual(['EUR']);
    expect(codes("(code eq 'EUR' or code eq 'USD') and blocked eq true")).toEqual(['USD']);
    expect(codes("not (status eq 'Open')")).toEqual(['USD', 'GBP']);
    expect(codes('not blocked')).toEqual(['EUR', 'GBP', 'DKK']);
  });
  it('supports in, string functions, tolower/toupper', () => {
    expect(codes("code in ('GBP', 'DKK', 'XXX')")).toEqual(['GBP', 'DKK']);
    expect(codes("contains(name, 'Research')")).toEqual(['USD']);
    expect(codes("startswith(name, 'Alp')")).toEqual(['GBP']);
    expect(codes("endswith(name, 'Ltd')")).toEqual(['EUR']);
    expect(codes("tolower(code) eq 'eur'")).toEqual(['EUR']);
    expect(codes("toupper(status) eq 'IN REVIEW'")).toEqual(['GBP']);
    expect(codes("substring(code, 1) eq 'SD'")).toEqual(['USD']);
    expect(codes('length(code) eq 3')).toHaveLength(4);
  });
  it('reads string (with doubled quotes), boolean, null, date, date-time and GUID literals', () => {
    expect(codes("name eq 'O''Brien Ltd'")).toEqual(['EUR']);
    expect(codes('blocked eq true')).toEqual(['USD']);
    expect(codes('name eq null')).toEqual(['DKK']);
    expect(codes('name ne null')).toEqual(['EUR', 'USD', 'GBP']);
    expect(codes('date ge 2026-02-01')).toEqual(['USD', 'GBP']);
    expect(codes('at lt 2026-01-01T00:00:00Z')).toEqual(['DKK']);
    expect(codes('id eq a1b2c3d4-0000-4000-8000-000000000001')).toEqual(['EUR']);
  });
  it('compares date-times as instants: fractions of a second and zone offsets count ($orderby too)', () => {
    // EUR is at 2026-01-05T10:00:00Z: compared as text, '...:00Z' was after '...:00.5Z' and never equal to '.000Z' or '+02:00'
    expect(codes('at gt 2026-01-05T10:00:00.5Z')).toEqual(['USD', 'GBP']);
    expect(codes('at eq 2026-01-05T10:00:00.000Z')).toEqual(['EUR']);
    expect(codes('at eq 2026-01-05T12:00:00+02:00')).toEqual(['EUR']);
    expect(codes('at lt 2026-01-05T11:00:00+02:00')).toEqual(['DKK']);
    expect(codes('at in (2026-01-05T11:00:00+01:00, 2026-02-01T00:00:00.0000000Z)')).toEqual(['EUR', 'USD']);
    const mixed = [
      { code: 'A', at: '2026-01-05T10:00:00.5Z' },
      { code: 'B', at: '2026-01-05T10:00:00Z' },
      { code: 'C', at: '2026-01-05T11:30:00+02:00' },
    ];
    expect(applyOrderBy(mixed, 'at', () => true).map((r) => r.code)).toEqual(['C', 'B', 'A']);
  });
  it('keywords are case-insensitive', () => {
    expect(codes("code EQ 'EUR' OR code Eq 'USD'")).toEqual(['EUR', 'USD']);
  });
  it('rejects malformed expressions and unknown properties with a clear message', () => {
    expect(() => parseFilter("code eq 'EUR", isField)).toThrow(/unterminated string/);
    expect(() => parseFilter('nosuch eq 1', isField)).toThrow(/Could not find a property named 'nosuch'/);
    expect(() => parseFilter("code eq 'a' and", isField)).toThrow(ODataError);
    expect(() => parseFilter("(code eq 'a'", isField)).toThrow(/expected "\)"/);
    expect(() => parseFilter('frobnicate(code)', isField)).toThrow(/unknown function/);
    expect(() => parseFilter("code eq 'a' 'b'", isField)).toThrow(/syntax error/);
    expect(() => applyFilter(rows, "code eq 'a' or amount", isField)).toThrow(/true or false/);
    expect(() => applyFilter(rows, "amount gt 'x'", isField)).toThrow(/types differ/);
  });
  it('evaluates a parsed tree against one row', () => {
    expect(evaluate(parseFilter("concat(code, '-x')", isField), rows[0])).toBe('EUR-x');
  });
});

describe('what the business-data service refuses to run (a parsed filter)', () => {
  const why = (f: string) => unsupportedByService(parseFilter(f, isField), { inOperator: true });
  it('`or` across distinct fields, at any depth; `or` on one field (through functions too) is run', () => {
    expect(why("code eq 'EUR' or status eq 'Open'")).toMatch(/'OR' operator is not supported on distinct fields/);
    expect(why("amount gt 1 and (code eq 'EUR' or tolower(name) eq 'x')")).toMatch(/distinct fields/);
    expect(why("(code eq 'A' and amount gt 1) or (code eq 'B' and amount gt 2)")).toMatch(/distinct fields/);
    expect(why("code eq 'EUR' or tolower(code) eq 'usd' or code in ('GBP')")).toBeUndefined();
    expect(why("amount gt 1 and (code eq 'EUR' or code eq 'USD')")).toBeUndefined();
  });
  it('`in` only when the request asks for $schemaversion=2.1 or later', () => {
    expect(unsupportedByService(parseFilter("code in ('EUR')", isField))).toMatch(/'in' operator is supported from \$schemaversion=2\.1 on/);
    expect(unsupportedByService(parseFilter("amount gt 1 and code in ('EUR')", isField), { inOperator: false })).toMatch(/'in' operator/);
    expect(why("code in ('EUR')")).toBeUndefined();
  });
  it('`not` and trim, length, indexof, concat (also nested); the six listed functions are run', () => {
    expect(why("not (code eq 'EUR')")).toMatch(/'Not' filter options are not supported/);
    expect(why('length(code) eq 3')).toMatch(/function 'length' is not supported/);
    expect(why("startswith(trim(code), 'E')")).toMatch(/function 'trim'/);
    expect(why("code in (concat('E', 'UR'))")).toMatch(/function 'concat'/);
    expect(why("contains(code, 'U') and startswith(code, 'E') and endswith(code, 'R') and substring(code, 1) eq 'UR' and toupper(code) eq 'EUR'")).toBeUndefined();
  });
});

describe('$orderby and $select', () => {
  it('sorts by several keys, asc and desc, stably', () => {
    expect(applyOrderBy(rows, 'status desc, amount', isField).map((r) => r.code)).toEqual(['DKK', 'EUR', 'GBP', 'USD']);
    expect(applyOrderBy(rows, 'amount desc', isField).map((r) => r.code)).toEqual(['USD', 'GBP', 'EUR', 'DKK']);
    expect(applyOrderBy(rows, 'name', isField).map((r) => r.code)).toEqual(['DKK', 'GBP', 'EUR', 'USD']);
  });
  it('rejects unknown properties and bad clauses', () => {
    expect(() => applyOrderBy(rows, 'nosuch', isField)).toThrow(/nosuch/);
    expect(() => applyOrderBy(rows, 'code sideways', isField)).toThrow(/invalid \$orderby/);
    expect(parseSelect('code, amount', isField)).toEqual(['code', 'amount']);
    expect(() => parseSelect('code,nosuch', isField)).toThrow(/nosuch/);
  });
});
