// Comparing an answer with a published example by shape: every field of the example must be in the
// answer with the same JSON type (null in the example matches anything). Arrays compare element
// shapes: each published element against the union of the answer's elements, so a field the
// example shows must appear in at least one element of the answer (lists of the emulator's own
// data differ in length and content from the published ones).

export interface ShapeOptions {
  /** paths (a.b, a[].b) that may be missing from the answer (e.g. nextLink on the last page) */
  mayBeAbsent?: string[];
  /** array paths the answer may leave empty */
  mayBeEmpty?: string[];
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => kind(v) === 'object';

/** One value holding every field any of the values has (objects merged key by key, arrays concatenated). */
export function union(values: unknown[]): unknown {
  let out: unknown = null;
  for (const v of values) out = merge(out, v);
  return out;
}

function merge(a: unknown, b: unknown): unknown {
  if (isObject(a) && isObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v) : v;
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  return a === null || a === undefined ? b : a;
}

export function shapeErrors(expected: unknown, actual: unknown, opts: ShapeOptions = {}, path = ''): string[] {
  const at = path || '(body)';
  if (expected === null) return [];
  if (kind(actual) !== kind(expected)) return [`${at}: ${kind(actual)}${actual === undefined ? '' : ` ${JSON.stringify(actual).slice(0, 80)}`}, published ${kind(expected)}`];
  if (Array.isArray(expected)) {
    const got = actual as unknown[];
    if (!expected.length) return [];
    if (!got.length) return opts.mayBeEmpty?.includes(path) ? [] : [`${at}: an empty array, published ${expected.length} element(s)`];
    const all = union(got);
    return expected.flatMap((e) => shapeErrors(e, all, opts, `${path}[]`)).filter((x, i, a) => a.indexOf(x) === i);
  }
  if (isObject(expected)) {
    const got = actual as Record<string, unknown>;
    return Object.entries(expected).flatMap(([k, v]) => {
      const p = path ? `${path}.${k}` : k;
      if (!(k in got)) return opts.mayBeAbsent?.includes(p) ? [] : [`${p}: missing`];
      return shapeErrors(v, got[k], opts, p);
    });
  }
  return [];
}

function at(v: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);
}

/** Values an example pins: exact (deep) equality, or a `~regex` for strings. */
export function valueErrors(values: Record<string, unknown>, actual: unknown): string[] {
  const out: string[] = [];
  for (const [path, want] of Object.entries(values)) {
    const got = at(actual, path);
    const ok = typeof want === 'string' && want.startsWith('~') ? typeof got === 'string' && new RegExp(want.slice(1)).test(got) : JSON.stringify(got) === JSON.stringify(want);
    if (!ok) out.push(`${path}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  return out;
}

export type { Json };
