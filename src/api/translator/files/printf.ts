// Format directives by gettext's rules, one grammar per format flag of a PO entry (`#, c-format`,
// `python-format`, `php-format`, ...): which text is a directive, which argument it takes, and of
// which type. A translation must take the same arguments with the same types (what `msgfmt -c`
// checks): a numbered or named directive (`%1$s`, `%(name)s`, `{0}`, `%1`) may move, an unnumbered
// one (`%s`, `%d`) takes the next argument, so its place in the sequence is its argument.
// Also Ruby's strftime and Rails' number-format directives (`%Y-%m-%d`, `%b`, `%u%n`), which
// YAML locales carry: placeholders whose order a language may change (`%d.%m.%Y`), never their kind.
//
// Every grammar is a sticky regular expression without overlapping repetitions: linear in the text.

export const FLAVOURS = ['c', 'objc', 'python', 'python-brace', 'php', 'java', 'csharp', 'javascript', 'qt', 'kde', 'sh', 'perl-brace', 'ruby', 'lua', 'strftime'] as const;
export type Flavour = (typeof FLAVOURS)[number];

/** The flavour of a PO entry's flags (`c-format`, `possible-c-format`; `no-c-format` is none). */
export function flavourOfFlags(flags: readonly string[]): Flavour | undefined {
  for (const f of flags) {
    const m = /^(?:possible-)?([a-z-]+)-format$/.exec(f);
    const name = m?.[1] === 'qt-plural' ? 'qt' : m?.[1];
    if (name && (FLAVOURS as readonly string[]).includes(name) && name !== 'strftime') return name as Flavour;
  }
  return undefined;
}

/** A directive: the argument it takes (`#n` by number, or a name) and its type; none for `%%`. */
export interface Directive {
  arg?: string;
  type: string;
  /** arguments taken by `*` width or precision (C) */
  extra?: string[];
}

interface Grammar {
  /** the character a directive starts with */
  lead: string;
  re: RegExp;
  read(m: RegExpExecArray): Directive;
}

const C_SIZE = '(hh|h|ll|l|L|q|j|z|Z|t)?';
// (and ISO C99's <inttypes.h> macros as gettext writes them: %<PRIu32>)
const C_RE = new RegExp(`%(?:(\\d+)\\$)?([-+ #0'I]*)(\\*(?:\\d+\\$)?|[1-9]\\d*)?(?:\\.(\\*(?:\\d+\\$)?|\\d*))?(?:${C_SIZE}([diouxXeEfFgGaAcCsSpnm%@])|<PRI([diouxX])(\\w+)>)`, 'y');

function cType(size: string | undefined, conv: string): string {
  const t = /[di]/.test(conv) ? 'int' : /[ouxX]/.test(conv) ? 'unsigned int' : /[eEfFgGaA]/.test(conv) ? 'double' : /[cC]/.test(conv) ? 'char' : /[sS]/.test(conv) ? 'string' : conv === 'p' ? 'pointer' : conv === 'n' ? 'count' : conv === '@' ? 'object' : '';
  const wide = conv === 'C' || conv === 'S' ? 'l' : '';
  return t && `${size ?? wide}${size ?? wide ? ' ' : ''}${t}`;
}

function star(spec: string | undefined): string | undefined {
  if (!spec?.startsWith('*')) return undefined;
  const n = /^\*(\d+)\$$/.exec(spec)?.[1];
  return n ? `#${n}` : '';
}

const c: Grammar = {
  lead: '%',
  re: C_RE,
  read(m) {
    const type = m[7] ? `${m[8]} ${cType(undefined, m[7])}` : cType(m[5], m[6]);
    const extra = [star(m[3]), star(m[4])].filter((x): x is string => x !== undefined);
    return { arg: type ? (m[1] ? `#${m[1]}` : '') : undefined, type, ...(extra.length ? { extra } : {}) };
  },
};

const python: Grammar = {
  lead: '%',
  re: /%(?:\((\w+)\))?([-+ #0]*)(\*|[1-9]\d*)?(?:\.(\*|\d*))?[hlL]?([diouxXeEfFgGcrsa%])/y,
  read(m) {
    const conv = m[5];
    const type = /[diouxX]/.test(conv) ? 'integer' : /[eEfFgG]/.test(conv) ? 'float' : conv === 'c' ? 'character' : conv === '%' ? '' : 'any';
    const extra = [m[3], m[4]].filter((x) => x === '*').map(() => '');
    return { arg: type ? (m[1] ?? '') : undefined, type, ...(extra.length ? { extra } : {}) };
  },
};

const BRACE_ESCAPE = /\{\{|\}\}/y;

const GRAMMARS: Record<Flavour, Grammar[]> = {
  c: [c],
  objc: [c],
  javascript: [c],
  lua: [{ ...c, read: (m) => ({ ...c.read(m), ...(m[1] ? { type: 'invalid' } : {}) }) }],
  python: [python],
  'python-brace': [
    { lead: '{', re: BRACE_ESCAPE, read: () => ({ type: '' }) },
    { lead: '}', re: BRACE_ESCAPE, read: () => ({ type: '' }) },
    { lead: '{', re: /\{([A-Za-z_]\w*|\d+)?(?:[.[][^{}:!]*)?(?:![rsa])?(?::[^{}]*)?\}/y, read: (m) => ({ arg: m[1] === undefined ? '' : /^\d/.test(m[1]) ? `#${Number(m[1]) + 1}` : m[1], type: 'any' }) },
  ],
  php: [
    {
      lead: '%',
      re: /%(?:(\d+)\$)?(?:[-+ 0]|'[^])*(?:[1-9]\d*)?(?:\.\d+)?([bcdeEfFgGosuxX%])/y,
      read: (m) => {
        const t = /[bcdouxX]/.test(m[2]) ? 'integer' : /[eEfFgG]/.test(m[2]) ? 'float' : m[2] === 's' ? 'string' : '';
        return { arg: t ? (m[1] ? `#${m[1]}` : '') : undefined, type: t };
      },
    },
  ],
  java: [{ lead: '{', re: /\{(\d+)(?:\s*,\s*(number|date|time|choice)\b[^{}]*)?\}/y, read: (m) => ({ arg: `#${Number(m[1]) + 1}`, type: m[2] ?? 'any' }) }],
  csharp: [
    { lead: '{', re: BRACE_ESCAPE, read: () => ({ type: '' }) },
    { lead: '}', re: BRACE_ESCAPE, read: () => ({ type: '' }) },
    { lead: '{', re: /\{(\d+)(?:\s*,\s*-?\d+)?(?::[^{}]*)?\}/y, read: (m) => ({ arg: `#${Number(m[1]) + 1}`, type: 'any' }) },
  ],
  qt: [{ lead: '%', re: /%L?(\d{1,2})/y, read: (m) => ({ arg: `#${Number(m[1])}`, type: 'any' }) }],
  kde: [{ lead: '%', re: /%(\d{1,2})/y, read: (m) => ({ arg: `#${Number(m[1])}`, type: 'any' }) }],
  sh: [{ lead: '$', re: /\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/y, read: (m) => ({ arg: m[1] ?? m[2], type: 'string' }) }],
  'perl-brace': [{ lead: '{', re: /\{([A-Za-z_]\w*)\}/y, read: (m) => ({ arg: m[1], type: 'any' }) }],
  ruby: [
    { lead: '%', re: /%\{(\w+)\}/y, read: (m) => ({ arg: m[1], type: 'string' }) },
    { lead: '%', re: /%<(\w+)>([-+ #0]*)(?:[1-9]\d*)?(?:\.\d+)?([bBdiouxXeEfgGaAcps])/y, read: (m) => ({ arg: m[1], type: cType(undefined, m[3]) }) },
    c,
  ],
  // Ruby's Time#strftime and Rails' number formats (%u unit, %n number): kept, their order free
  strftime: [
    { lead: '%', re: /%\{(\w+)\}/y, read: (m) => ({ arg: m[1], type: 'string' }) },
    { lead: '%', re: /%[-_0^#:]*(?:[1-9]\d*)?[EO]?([aAbBcCdDeFgGhHIjklLmMnNpPrRsStTuUvVwWxXyYzZ+%])/y, read: (m) => ({ arg: m[0], type: m[1] === '%' ? '' : 'strftime' }) },
  ],
};

/** The end of the flavour's directive at `i` (undefined when none starts there). */
export function directiveAt(flavour: Flavour, s: string, i: number): number | undefined {
  for (const g of GRAMMARS[flavour]) {
    if (s[i] !== g.lead) continue;
    g.re.lastIndex = i;
    const m = g.re.exec(s);
    if (m) return i + m[0].length;
  }
  return undefined;
}

function directive(flavour: Flavour, value: string): Directive | undefined {
  for (const g of GRAMMARS[flavour]) {
    if (value[0] !== g.lead) continue;
    g.re.lastIndex = 0;
    const m = g.re.exec(value);
    if (m && m[0].length === value.length) return g.read(m);
  }
  return undefined;
}

/** The arguments a list of directives takes: argument -> [type, the directive that takes it]. */
function argumentsOf(flavour: Flavour, values: readonly string[]): { args: Map<string, [string, string]>; mixed: boolean } {
  const args = new Map<string, [string, string]>();
  let next = 1;
  let numbered = false;
  let unnumbered = false;
  const take = (arg: string, type: string, value: string) => {
    if (arg === '') {
      unnumbered = true;
      arg = `#${next++}`;
    } else if (arg.startsWith('#')) numbered = true;
    if (!args.has(arg)) args.set(arg, [type, value]);
  };
  for (const v of values) {
    const d = directive(flavour, v);
    if (!d || d.arg === undefined) continue;
    for (const e of d.extra ?? []) take(e, 'int', v);
    take(d.arg, d.type, v);
  }
  return { args, mixed: numbered && unnumbered };
}

const argName = (a: string) => (a.startsWith('#') ? `argument ${a.slice(1)}` : `argument '${a}'`);

/**
 * What differs between the directives of a source and of its translation by the flavour's rules
 * (undefined when they take the same arguments with the same types). `values`: the directives as
 * written, in order.
 */
export function directivesProblem(flavour: Flavour, source: readonly string[], translation: readonly string[]): string | undefined {
  if (flavour === 'strftime') return undefined;
  const a = argumentsOf(flavour, source);
  const b = argumentsOf(flavour, translation);
  if (b.mixed && !a.mixed) return `${flavour}-format: numbered and unnumbered directives mixed in the translation`;
  for (const [arg, [type, v]] of a.args) {
    const t = b.args.get(arg);
    if (!t) continue; // a missing directive is said by the placeholder check
    if (t[0] !== type) {
      const unnumbered = arg.startsWith('#') && !t[1].includes('$') && flavour !== 'java' && flavour !== 'csharp' && flavour !== 'qt' && flavour !== 'kde';
      return `${flavour}-format: ${argName(arg)} is ${t[1]} in the translation, ${v} in the source${unnumbered ? ': unnumbered directives must keep their order (only numbered ones such as %1$s may move)' : ''}`;
    }
  }
  return undefined;
}
