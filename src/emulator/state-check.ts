// Checks of a --state file's shape, one per family: a file of the wrong shape (an array, a
// collection missing, a field of the wrong type) is refused at start with where it is wrong,
// instead of being taken as it is and failing requests with 500s later.

/** Says what is wrong with `value` at `path` (`erp.data["…"].salesOrders[3].number`), or undefined. */
export type StateCheck = (value: unknown, path: string) => string | undefined;

/** how a JSON value reads in a message */
export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true/false';
    case 'object':
      return 'an object';
    default:
      return typeof v;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const expected = (what: string, v: unknown, path: string) => `${path}: expected ${what}, got ${kindOf(v)}`;

export const text: StateCheck = (v, p) => (typeof v === 'string' ? undefined : expected('text', v, p));
export const number: StateCheck = (v, p) => (typeof v === 'number' && Number.isFinite(v) ? undefined : expected('a number', v, p));
export const bool: StateCheck = (v, p) => (typeof v === 'boolean' ? undefined : expected('true/false', v, p));
export const anyObject: StateCheck = (v, p) => (isObject(v) ? undefined : expected('an object', v, p));

/** `null` is also accepted */
export const nullable =
  (check: StateCheck): StateCheck =>
  (v, p) =>
    v === null ? undefined : check(v, p);

export const arrayOf =
  (item: StateCheck): StateCheck =>
  (v, p) => {
    if (!Array.isArray(v)) return expected('an array', v, p);
    for (let i = 0; i < v.length; i++) {
      const why = item(v[i], `${p}[${i}]`);
      if (why) return why;
    }
    return undefined;
  };

/** an object whose keys are data (ids, scopes), each value checked */
export const recordOf =
  (item: StateCheck): StateCheck =>
  (v, p) => {
    if (!isObject(v)) return expected('an object', v, p);
    for (const [k, x] of Object.entries(v)) {
      const why = item(x, `${p}[${JSON.stringify(k)}]`);
      if (why) return why;
    }
    return undefined;
  };

/**
 * An object with these members (each required unless listed in `optional`); other members are
 * allowed (a record carries more than its checked fields).
 */
export const shape =
  (members: Readonly<Record<string, StateCheck>>, optional: readonly string[] = []): StateCheck =>
  (v, p) => {
    if (!isObject(v)) return expected('an object', v, p);
    for (const [k, check] of Object.entries(members)) {
      if (!Object.prototype.hasOwnProperty.call(v, k) || v[k] === undefined) {
        if (optional.includes(k)) continue;
        return `${p}.${k}: missing`;
      }
      const why = check(v[k], `${p}.${k}`);
      if (why) return why;
    }
    return undefined;
  };

/** Both checks, the first problem. */
export const both =
  (a: StateCheck, b: StateCheck): StateCheck =>
  (v, p) =>
    a(v, p) ?? b(v, p);
