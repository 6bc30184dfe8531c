// The field types of the business-data entity sets and the rules of their values: what a value
// of each type looks like as JSON and as `--set` text, how people read the type, what a key
// looks like in a URL. Pure data and pure functions: imported by api/, cli/ and emulator/.

export type ScalarType = 'string' | 'guid' | 'decimal' | 'integer' | 'boolean' | 'date' | 'datetime' | 'time' | 'address';

/** The keys of a postal address (the complex type `postalAddressType` of API v1.0), all strings. */
export const POSTAL_ADDRESS_KEYS = ['street', 'city', 'state', 'countryLetterCode', 'postalCode'] as const;

export interface FieldDef {
  type: ScalarType;
  /** allowed values (an enum) */
  values?: readonly string[];
  readOnly?: boolean;
  required?: boolean;
  maxLength?: number;
  /** a pattern the value must match, with the human description */
  pattern?: { re: RegExp; text: string };
  /** what the service gives a record created without this field (the table's InitValue); default: empty, 0, false */
  initial?: unknown;
  description?: string;
}

const GUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATETIME_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,7})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,7})?$/;

export function isGuid(s: string): boolean {
  return GUID_RE.test(s);
}

/** what the service writes for a field never set: the blank date (0001-01-01), the zero GUID (no record) */
export function isUnsetValue(v: unknown): boolean {
  return v === '0001-01-01' || v === '0001-01-01T00:00:00Z' || v === '00000000-0000-0000-0000-000000000000';
}

/** A type as people read it in help and error messages. */
export function typeText(f: FieldDef): string {
  if (f.values) return `one of ${f.values.map((v) => `"${v}"`).join(', ')}`;
  switch (f.type) {
    case 'guid':
      return 'GUID';
    case 'decimal':
      return 'number';
    case 'integer':
      return 'whole number';
    case 'boolean':
      return 'true or false';
    case 'date':
      return 'date YYYY-MM-DD';
    case 'datetime':
      return 'date-time YYYY-MM-DDThh:mm:ssZ';
    case 'time':
      return 'time hh:mm:ss';
    case 'address':
      return `postal address JSON with ${POSTAL_ADDRESS_KEYS.join(', ')}`;
    default:
      return f.pattern ? `text ${f.pattern.text}` : f.maxLength ? `text (at most ${f.maxLength} characters)` : 'text';
  }
}

/**
 * Whether the YYYY-MM-DD that `v` starts with is a day of the calendar: DATE_RE lets 31 days
 * through in every month, and Date.parse takes 2026-02-30 for March 2.
 */
function calendarDay(v: string): boolean {
  const day = Number(v.slice(8, 10));
  if (day <= 28) return true;
  const month = Number(v.slice(5, 7));
  if (month !== 2) return day <= (month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
  const year = Number(v.slice(0, 4));
  return day === 29 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/**
 * Checks a JSON value against a field; returns the problem (without the field name) or undefined.
 * null is accepted for every field that is not required.
 */
export function checkValue(f: FieldDef, v: unknown): string | undefined {
  if (v === null) return f.required ? 'may not be null' : undefined;
  // (the message is built only for a value that fails: this runs for every cell of an import)
  const want = () => `expected ${typeText(f)}`;
  switch (f.type) {
    case 'decimal':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : want();
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v) ? undefined : want();
    case 'boolean':
      return typeof v === 'boolean' ? undefined : want();
    case 'address': {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return want();
      const bad = Object.entries(v).find(([k, x]) => !(POSTAL_ADDRESS_KEYS as readonly string[]).includes(k) || typeof x !== 'string');
      return bad ? `${want()} (not "${bad[0]}": ${JSON.stringify(bad[1])})` : undefined;
    }
    default:
      break;
  }
  if (typeof v !== 'string') return want();
  if (f.type === 'guid' && !GUID_RE.test(v)) return want();
  if (f.type === 'date' && !(DATE_RE.test(v) && calendarDay(v))) return want();
  if (f.type === 'datetime' && !(DATETIME_RE.test(v) && calendarDay(v) && !Number.isNaN(Date.parse(v)))) return want();
  if (f.type === 'time' && !TIME_RE.test(v)) return want();
  if (f.values && !f.values.includes(v)) return want();
  if (f.pattern && !f.pattern.re.test(v)) return want();
  // (UTF-16 units are never fewer than characters: only a long text needs counting)
  if (f.maxLength !== undefined && v.length > f.maxLength && [...v].length > f.maxLength) return `is ${[...v].length} characters long; at most ${f.maxLength} allowed`;
  return undefined;
}

/** Turns the text of `--set field=value` into the field's JSON value; throws a message on a malformed value. */
export function parseFieldText(f: FieldDef, text: string): unknown {
  let v: unknown = text;
  if (text === 'null') v = null;
  else if (f.type === 'decimal' || f.type === 'integer') v = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim()) ? Number(text) : text;
  else if (f.type === 'boolean') {
    // in any case: spreadsheets write TRUE and FALSE (Excel, LibreOffice and Google Sheets export them so)
    const b = text.trim().toLowerCase();
    v = b === 'true' ? true : b === 'false' ? false : text;
  }
  else if (f.type === 'address' && text !== 'null') {
    try {
      v = JSON.parse(text);
    } catch {
      throw new Error(`expected ${typeText(f)}`);
    }
  }
  const problem = checkValue(f, v);
  if (problem) throw new Error(problem);
  return v;
}

/** The URL segment of a key: GUIDs bare, other keys as quoted OData strings. */
export function keySegment(key: string): string {
  return GUID_RE.test(key) ? key : `'${key.replace(/'/g, "''")}'`;
}
