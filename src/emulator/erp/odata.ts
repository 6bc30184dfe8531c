// The emulator's OData query options: a $filter parser and evaluator (comparison, logical and
// `in` operators, parentheses, string functions, string/number/boolean/null/date/date-time/GUID
// literals), $orderby, $select. Written from the OData conventions, not shared with the client.

export class ODataError extends Error {}

type Node =
  | { k: 'lit'; v: unknown }
  | { k: 'prop'; name: string }
  | { k: 'list'; items: Node[] }
  | { k: 'bin'; op: string; l: Node; r: Node }
  | { k: 'not'; e: Node }
  | { k: 'call'; fn: string; args: Node[] };

interface Tok {
  t: 'str' | 'lit' | 'word' | 'punct';
  v: string | unknown;
  pos: number;
}

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-])/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})(?![\w])/;
const DATE = /^\d{4}-\d{2}-\d{2}(?![\w:-])/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?[mMdDfFlL]?(?![\w])/;
const WORD = /^[A-Za-z_][\w]*(\/[A-Za-z_][\w]*)*/;

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const rest = src.slice(i);
    if (c === "'") {
      let j = i + 1;
      let s = '';
      for (;;) {
        if (j >= src.length) throw new ODataError(`unterminated string literal at position ${i}`);
        if (src[j] === "'") {
          if (src[j + 1] === "'") {
            s += "'";
            j += 2;
            continue;
          }
          break;
        }
        s += src[j++];
      }
      out.push({ t: 'str', v: s, pos: i });
      i = j + 1;
      continue;
    }
    if ('(),'.includes(c)) {
      out.push({ t: 'punct', v: c, pos: i });
      i++;
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = GUID.exec(rest))) out.push({ t: 'lit', v: m[0].toLowerCase(), pos: i });
    else if ((m = DATETIME.exec(rest))) out.push({ t: 'lit', v: m[0], pos: i });
    else if ((m = DATE.exec(rest))) out.push({ t: 'lit', v: m[0], pos: i });
    else if ((m = NUMBER.exec(rest))) out.push({ t: 'lit', v: Number(m[0].replace(/[mMdDfFlL]$/, '')), pos: i });
    else if ((m = WORD.exec(rest))) out.push({ t: 'word', v: m[0], pos: i });
    else throw new ODataError(`syntax error at position ${i}: unexpected "${c}"`);
    i += m[0].length;
  }
  return out;
}

const COMPARE = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const FUNCTIONS: Record<string, [number, number]> = {
  contains: [2, 2],
  startswith: [2, 2],
  endswith: [2, 2],
  tolower: [1, 1],
  toupper: [1, 1],
  trim: [1, 1],
  length: [1, 1],
  indexof: [2, 2],
  substring: [2, 3],
  concat: [2, 2],
};

/** A recursive-descent parser of one $filter: or, and, not, comparisons and `in`, primaries. */
class FilterParser {
  private p = 0;

  constructor(
    private readonly toks: Tok[],
    private readonly isField: (name: string) => boolean,
  ) {}

  private peek(): Tok | undefined {
    return this.toks[this.p];
  }

  private isWord(w: string): boolean {
    const t = this.peek();
    return t?.t === 'word' && String(t.v).toLowerCase() === w;
  }

  private isPunct(c: string): boolean {
    const t = this.peek();
    return t?.t === 'punct' && t.v === c;
  }

  private expectPunct(c: string): void {
    const t = this.toks[this.p];
    if (!t || t.t !== 'punct' || t.v !== c) throw new ODataError(`syntax error: expected "${c}" ${t ? `at position ${t.pos}` : 'at the end'}`);
    this.p++;
  }

  /** The whole expression: nothing may follow it. */
  parse(): Node {
    const tree = this.orExpr();
    const t = this.toks[this.p];
    if (t) throw new ODataError(`syntax error at position ${t.pos}: unexpected "${String(t.v)}"`);
    return tree;
  }

  private orExpr(): Node {
    let l = this.andExpr();
    while (this.isWord('or')) {
      this.p++;
      l = { k: 'bin', op: 'or', l, r: this.andExpr() };
    }
    return l;
  }

  private andExpr(): Node {
    let l = this.notExpr();
    while (this.isWord('and')) {
      this.p++;
      l = { k: 'bin', op: 'and', l, r: this.notExpr() };
    }
    return l;
  }

  private notExpr(): Node {
    if (this.isWord('not')) {
      this.p++;
      return { k: 'not', e: this.notExpr() };
    }
    return this.cmpExpr();
  }

  private cmpExpr(): Node {
    const l = this.primary();
    const t = this.peek();
    if (t?.t === 'word' && COMPARE.has(String(t.v).toLowerCase())) {
      this.p++;
      return { k: 'bin', op: String(t.v).toLowerCase(), l, r: this.primary() };
    }
    if (this.isWord('in')) {
      this.p++;
      this.expectPunct('(');
      const items: Node[] = [this.primary()];
      while (this.isPunct(',')) {
        this.p++;
        items.push(this.primary());
      }
      this.expectPunct(')');
      return { k: 'bin', op: 'in', l, r: { k: 'list', items } };
    }
    return l;
  }

  private primary(): Node {
    const t = this.toks[this.p];
    if (!t) throw new ODataError('syntax error: the expression ends too early');
    if (t.t === 'punct' && t.v === '(') {
      this.p++;
      const e = this.orExpr();
      this.expectPunct(')');
      return e;
    }
    if (t.t === 'str' || t.t === 'lit') {
      this.p++;
      return { k: 'lit', v: t.v };
    }
    if (t.t === 'word') {
      this.p++;
      return this.word(String(t.v));
    }
    throw new ODataError(`syntax error at position ${t.pos}: unexpected "${String(t.v)}"`);
  }

  /** A word: a boolean or null literal, a function call, or a property. */
  private word(w: string): Node {
    const lw = w.toLowerCase();
    if (lw === 'true' || lw === 'false') return { k: 'lit', v: lw === 'true' };
    if (lw === 'null') return { k: 'lit', v: null };
    if (this.isPunct('(')) return this.call(w);
    if (!this.isField(w)) throw new ODataError(`Could not find a property named '${w}'`);
    return { k: 'prop', name: w };
  }

  private call(w: string): Node {
    const lw = w.toLowerCase();
    const arity = FUNCTIONS[lw];
    if (!arity) throw new ODataError(`unknown function "${w}"`);
    this.p++;
    const args: Node[] = [];
    if (!this.isPunct(')')) {
      args.push(this.orExpr());
      while (this.isPunct(',')) {
        this.p++;
        args.push(this.orExpr());
      }
    }
    this.expectPunct(')');
    if (args.length < arity[0] || args.length > arity[1]) throw new ODataError(`function ${lw} takes ${arity[0]}${arity[1] !== arity[0] ? ` to ${arity[1]}` : ''} arguments`);
    return { k: 'call', fn: lw, args };
  }
}

/** Parses a $filter expression; `isField` says which property names exist. */
export function parseFilter(src: string, isField: (name: string) => boolean): Node {
  return new FilterParser(tokenize(src), isField).parse();
}

/**
 * The functions of $filter the business-data service runs (use-filter-expressions-in-odata-uris.md):
 * it turns a filter into the table filters of its own language, which have no equivalent of
 * trim, length, indexof, concat (the page lists them commented out).
 */
const SERVICE_FUNCTIONS = new Set(['contains', 'startswith', 'endswith', 'substring', 'tolower', 'toupper']);

function propsOf(n: Node, out = new Set<string>()): Set<string> {
  switch (n.k) {
    case 'prop':
      out.add(n.name);
      break;
    case 'list':
      n.items.forEach((i) => propsOf(i, out));
      break;
    case 'bin':
      propsOf(n.l, out);
      propsOf(n.r, out);
      break;
    case 'not':
      propsOf(n.e, out);
      break;
    case 'call':
      n.args.forEach((a) => propsOf(a, out));
      break;
  }
  return out;
}

/**
 * Why the business-data service refuses a well-formed $filter (501 BadRequest_MethodNotImplemented),
 * or undefined: `or` between conditions on different fields (odata-known-limitations.md, its
 * words), `not`, the functions it has no table filter for, and `in` unless the request asks for
 * `$schemaversion=2.1` or later (the same page: "This only works in $schemaversion=2.1").
 * (The management family's filters share the parser but not these limits.)
 */
export function unsupportedByService(n: Node, opts: { inOperator?: boolean } = {}): string | undefined {
  const inner = (x: Node) => unsupportedByService(x, opts);
  switch (n.k) {
    case 'not':
      return "Client requests that contain 'Not' filter options are not supported.";
    case 'call':
      if (!SERVICE_FUNCTIONS.has(n.fn)) return `The function '${n.fn}' is not supported on an OData filter; the service runs contains, startswith, endswith, substring, tolower and toupper.`;
      for (const a of n.args) {
        const why = inner(a);
        if (why) return why;
      }
      return undefined;
    case 'bin': {
      if (n.op === 'or' && propsOf(n).size > 1) return "The 'OR' operator is not supported on distinct fields on an OData filter.";
      if (n.op === 'in' && !opts.inOperator) return "The 'in' operator is supported from $schemaversion=2.1 on; add $schemaversion=2.1 to the request, or join eq conditions on one field with or.";
      return inner(n.l) ?? inner(n.r);
    }
    case 'list':
      for (const i of n.items) {
        const why = inner(i);
        if (why) return why;
      }
      return undefined;
    default:
      return undefined;
  }
}

const GUID_FULL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function norm(v: unknown): unknown {
  return typeof v === 'string' && GUID_FULL.test(v) ? v.toLowerCase() : v;
}

/** a date-time with its zone, as the service writes them and as a $filter literal is */
const DATETIME_VALUE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function compare(a: unknown, b: unknown): number | undefined {
  a = norm(a);
  b = norm(b);
  if (a === null || a === undefined || b === null || b === undefined) return undefined;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  // date-times compare as instants: 08:00:00Z = 08:00:00.000Z = 10:00:00+02:00 < 08:00:00.5Z
  if (typeof a === 'string' && typeof b === 'string' && DATETIME_VALUE.test(a) && DATETIME_VALUE.test(b)) {
    const d = Date.parse(a) - Date.parse(b);
    if (Number.isFinite(d)) return d;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new ODataError(`cannot compare ${JSON.stringify(a)} with ${JSON.stringify(b)}: the types differ`);
}

function str(v: unknown, fn: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'string') throw new ODataError(`function ${fn} needs text, got ${JSON.stringify(v)}`);
  return v;
}

export function evaluate(n: Node, row: Record<string, unknown>): unknown {
  switch (n.k) {
    case 'lit':
      return n.v;
    case 'prop':
      return n.name.split('/').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), row) ?? null;
    case 'list':
      return n.items.map((i) => evaluate(i, row));
    case 'not':
      return !truthy(evaluate(n.e, row));
    case 'call': {
      const a = n.args.map((x) => evaluate(x, row));
      switch (n.fn) {
        case 'contains':
          return str(a[0], n.fn).includes(str(a[1], n.fn));
        case 'startswith':
          return str(a[0], n.fn).startsWith(str(a[1], n.fn));
        case 'endswith':
          return str(a[0], n.fn).endsWith(str(a[1], n.fn));
        case 'tolower':
          return str(a[0], n.fn).toLowerCase();
        case 'toupper':
          return str(a[0], n.fn).toUpperCase();
        case 'trim':
          return str(a[0], n.fn).trim();
        case 'length':
          return str(a[0], n.fn).length;
        case 'indexof':
          return str(a[0], n.fn).indexOf(str(a[1], n.fn));
        case 'concat':
          return str(a[0], n.fn) + str(a[1], n.fn);
        case 'substring': {
          if (typeof a[1] !== 'number' || (a[2] !== undefined && typeof a[2] !== 'number')) throw new ODataError('substring needs whole-number positions');
          return a[2] === undefined ? str(a[0], n.fn).slice(a[1]) : str(a[0], n.fn).substr(a[1], a[2] as number);
        }
      }
      throw new ODataError(`unknown function ${n.fn}`);
    }
    case 'bin': {
      if (n.op === 'and') return truthy(evaluate(n.l, row)) && truthy(evaluate(n.r, row));
      if (n.op === 'or') return truthy(evaluate(n.l, row)) || truthy(evaluate(n.r, row));
      const l = evaluate(n.l, row);
      const r = evaluate(n.r, row);
      if (n.op === 'in') return (r as unknown[]).some((x) => norm(x) === norm(l) || compare(l, x) === 0);
      if (n.op === 'eq') return norm(l) === norm(r) || (l !== null && r !== null && compare(l, r) === 0);
      if (n.op === 'ne') return !(norm(l) === norm(r) || (l !== null && r !== null && compare(l, r) === 0));
      const c = compare(l, r);
      if (c === undefined) return false;
      return n.op === 'gt' ? c > 0 : n.op === 'ge' ? c >= 0 : n.op === 'lt' ? c < 0 : c <= 0;
    }
  }
}

function truthy(v: unknown): boolean {
  if (typeof v !== 'boolean' && v !== null) throw new ODataError(`a condition must be true or false, got ${JSON.stringify(v)}`);
  return v === true;
}

/** Filters rows with a $filter expression. */
export function applyFilter<T extends Record<string, unknown>>(rows: T[], filter: string, isField: (name: string) => boolean): T[] {
  return filterRows(rows, parseFilter(filter, isField));
}

/** The rows a parsed $filter keeps. */
export function filterRows<T extends Record<string, unknown>>(rows: T[], tree: Node): T[] {
  return rows.filter((r) => truthy(evaluate(tree, r)));
}

/** Sorts by `$orderby` (`a desc, b asc`); stable. */
export function applyOrderBy<T extends Record<string, unknown>>(rows: T[], orderby: string, isField: (name: string) => boolean): T[] {
  const keys = orderby.split(',').map((part) => {
    const m = /^\s*([A-Za-z_]\w*)(?:\s+(asc|desc))?\s*$/i.exec(part);
    if (!m) throw new ODataError(`invalid $orderby clause "${part.trim()}"`);
    if (!isField(m[1])) throw new ODataError(`Could not find a property named '${m[1]}'`);
    return { name: m[1], desc: m[2]?.toLowerCase() === 'desc' };
  });
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      for (const k of keys) {
        const av = a.r[k.name] ?? null;
        const bv = b.r[k.name] ?? null;
        let c = 0;
        if (av === null && bv !== null) c = -1;
        else if (bv === null && av !== null) c = 1;
        else if (av !== null && bv !== null) c = compare(av, bv) ?? 0;
        if (c !== 0) return k.desc ? -c : c;
      }
      return a.i - b.i;
    })
    .map((x) => x.r);
}

/** The names of a $select (validated). */
export function parseSelect(select: string, isField: (name: string) => boolean): string[] {
  return select.split(',').map((s) => {
    const n = s.trim();
    if (!/^[A-Za-z_]\w*$/.test(n)) throw new ODataError(`invalid $select item "${n}"`);
    if (!isField(n)) throw new ODataError(`Could not find a property named '${n}'`);
    return n;
  });
}

/**
 * Splits `text` at each `sep` that stands outside parentheses and string literals:
 * `a($select=x,y),b` at commas gives `a($select=x,y)` and `b`.
 */
export function splitTopLevel(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted; // a doubled '' inside a literal closes and opens again
    else if (quoted) continue;
    else if (c === '(') depth++;
    else if (c === ')') {
      if (--depth < 0) throw new ODataError(`unbalanced ")" at position ${i}`);
    } else if (c === sep && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0 || quoted) throw new ODataError(quoted ? 'unterminated string literal' : 'unbalanced "("');
  out.push(text.slice(start));
  return out;
}

/** One item of `$expand`: the navigation property and its nested query options (`$select`, `$filter`, ...). */
export interface ExpandItem {
  name: string;
  options: Map<string, string>;
}

/** Parses `$expand=a,b($select=x,y;$top=2)` (OData 4.0 part 2, 5.1.2: options separated by `;`). */
export function parseExpand(text: string): ExpandItem[] {
  return splitTopLevel(text, ',').map((part) => {
    const m = /^\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*$/s.exec(part);
    if (!m) throw new ODataError(`invalid $expand item "${part.trim()}"`);
    const options = new Map<string, string>();
    if (m[2] !== undefined && m[2].trim()) {
      for (const o of splitTopLevel(m[2], ';')) {
        const eq = o.indexOf('=');
        const key = (eq < 0 ? o : o.slice(0, eq)).trim();
        if (eq < 0 || !/^\$\w+$/.test(key)) throw new ODataError(`invalid query option "${o.trim()}" in the $expand of ${m[1]}`);
        if (options.has(key)) throw new ODataError(`the query option ${key} is given twice in the $expand of ${m[1]}`);
        options.set(key, o.slice(eq + 1).trim());
      }
    }
    return { name: m[1], options };
  });
}
