// JSON that keeps numbers exact. JSON.parse turns 12345678901234567890 into 12345678901234567000
// and 0.12345678901234567891 into 0.12345678901234568: a record id, an amount or a limit would be
// changed silently on its way through vx. Node 20 has neither JSON.parse's source text nor
// JSON.rawJSON, so a number literal that a double cannot hold is carried as an ExactNumber (its
// literal text) and written back as that text. Text without such a number (nearly all of it) takes
// the plain JSON.parse / JSON.stringify path; the check is one regular-expression scan.

const BRAND = Symbol.for('vx.exactNumber');
/** set once any ExactNumber exists: until then stringifyExact is plain JSON.stringify */
let made = false;

/** A JSON number literal kept as written (one a double would change). */
export class ExactNumber {
  readonly [BRAND] = true;
  constructor(readonly text: string) {
    made = true;
  }
  valueOf(): number {
    return Number(this.text);
  }
  toString(): string {
    return this.text;
  }
  /** for a JSON.stringify that does not know it (yaml, a third party): the nearest double */
  toJSON(): number {
    return Number(this.text);
  }
}

export function isExactNumber(v: unknown): v is ExactNumber {
  return typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[BRAND] === true;
}

/** a digit or a dot */
function numeric(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46;
}

/**
 * Whether the text holds 16 or more digits in a row (dots between them count; the run begins with
 * a digit): the only literals a double may change. Same answer as /(?<![0-9])[0-9][0-9.]{15}/,
 * which cost nearly as much as JSON.parse of the page it guards (~0.09 ms of ~0.11 ms for 100
 * records): a run of 16 covers one of every 16 positions, so only those are looked at, and a
 * digit or dot found there is measured out to its run's ends (~5x cheaper).
 */
export function hasLongDigitRun(text: string): boolean {
  for (let i = 15; i < text.length; i += 16) {
    if (!numeric(text.charCodeAt(i))) continue;
    let a = i;
    while (a > 0 && numeric(text.charCodeAt(a - 1))) a--;
    let b = i;
    while (b + 1 < text.length && numeric(text.charCodeAt(b + 1))) b++;
    while (a <= b && text.charCodeAt(a) === 46) a++;
    if (b - a + 1 >= 16) return true;
    // next look 16 past this run's end: a later run (it begins 2 or more past it) of 16 covers one
    i = b;
  }
  return false;
}
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** whether Number() keeps the literal's value exactly (same digits when written back) */
export function isSafeLiteral(text: string): boolean {
  const n = Number(text);
  if (!Number.isFinite(n)) return false;
  const canon = (s: string) => {
    const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
    if (!m) return s;
    const digits = `${m[2]}${m[3] ?? ''}`;
    const exp = Number(m[4] ?? 0) + (m[2] ?? '').length;
    const lead = digits.length - digits.replace(/^0+/, '').length;
    const sig = digits.replace(/^0+/, '').replace(/0+$/, '');
    return sig ? `${m[1]}${sig}e${exp - lead}` : '0';
  };
  return canon(String(n)) === canon(text);
}

let marker: string | undefined;
/** a prefix no real string carries: NUL plus random letters */
function mark(): string {
  return (marker ??= `\u0000#${Math.random().toString(36).slice(2, 10)}#`);
}

/**
 * JSON.parse that keeps every number literal exact: one a double would change becomes an
 * ExactNumber. Throws what JSON.parse throws for malformed text.
 */
export function parseExact(text: string): unknown {
  if (!hasLongDigitRun(text)) return JSON.parse(text);
  // rewrite unsafe number literals (outside strings) as marked strings, then turn them back
  let out = '';
  let last = 0;
  let found = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) continue;
      const lit = m[0];
      if (lit.replace(/[^0-9]/g, '').length >= 16 && !isSafeLiteral(lit)) {
        out += `${text.slice(last, i)}"${JSON.stringify(mark()).slice(1, -1)}${lit}"`;
        last = i + lit.length;
        found = true;
      }
      i += lit.length - 1;
    }
  }
  if (!found) return JSON.parse(text);
  const m = mark();
  return JSON.parse(out + text.slice(last), (_k, v) => (typeof v === 'string' && v.startsWith(m) ? new ExactNumber(v.slice(m.length)) : v));
}

/** JSON.stringify that writes an ExactNumber as its literal. */
export function stringifyExact(value: unknown, indent?: number): string {
  if (!made) return JSON.stringify(value, null, indent);
  let exact = false;
  const text = JSON.stringify(
    value,
    function (this: Record<string, unknown>, k: string, v: unknown) {
      // toJSON has already run on `v`: look at the holder's own value
      const raw = this[k];
      if (isExactNumber(raw)) {
        exact = true;
        return `${mark()}${raw.text}`;
      }
      return v;
    },
    indent,
  );
  if (!exact) return text;
  const m = JSON.stringify(mark()).slice(1, -1);
  return text.replace(new RegExp(`"${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([-+0-9.eE]+)"`, 'g'), '$1');
}

/**
 * JSON.parse's complaint without the piece of the text V8 quotes in it (`Unexpected token 'e',
 * ..."p.token": emu.OyDMuQ"... is not valid JSON`): the config file holds tokens and keys, and a
 * file named by mistake (`--data @.env`, `--state .env`) may hold a secret at the very place
 * quoted. A position becomes line and column.
 */
export function jsonErrorWithoutText(text: string, e: Error): string {
  const message = e.message.replace(/,\s*(?:\.\.\.)?"[\s\S]*$/, '');
  const at = /^(.*?)\s+in JSON at position (\d+)(?:\s*\(line \d+ column \d+\))?$/.exec(message);
  if (!at) return message.replace(/\s*\(line (\d+) column (\d+)\)$/, ' at line $1, column $2');
  const before = text.slice(0, Number(at[2]));
  const line = before.split('\n').length;
  return `${at[1]} at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}
