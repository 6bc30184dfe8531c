// The elements of a JSON array read a chunk at a time: only the element being read and the chunk
// it is in are held, whatever the size of the array. Malformed text is the usage error JSON.parse
// of the whole text would have given, at the same line and column.
import { UsageError } from '../../core/errors.js';
import { parseExact } from '../../core/json.js';

/** the longest element read: longer is refused rather than held */
export const MAX_ELEMENT_CHARS = 64 * 1024 * 1024;

const WS = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * Reads the elements of the array that `head` (a leading BOM dropped, its first character not
 * blank: '[') starts, then `rest`. Yields each element's value (numbers kept exact: parseExact).
 */
export class ArrayReader {
  private buf: string;
  /** where buf starts in the whole text */
  private base = 0;
  /** the line breaks of the text before buf, and where the last of them is */
  private lines = 0;
  private lastBreak = -1;
  private at = 0;
  private done = false;

  constructor(
    head: string,
    private readonly rest: Iterator<string>,
    private readonly name: string,
  ) {
    this.buf = head;
  }

  *elements(): Generator<unknown> {
    this.at = this.skipBlank(this.at) + 1; // past '['
    let first = true;
    let p = this.skipBlank(this.at);
    if (this.char(p) === 93 /* ] */) return this.end(p + 1);
    for (;;) {
      const start = p;
      const end = this.valueEnd(start);
      const text = this.buf.slice(start - this.base, end - this.base);
      let value: unknown;
      try {
        value = parseExact(text);
      } catch {
        throw this.error(first ? '[' : '[0,', start);
      }
      this.at = end;
      yield value;
      first = false;
      p = this.skipBlank(this.at);
      const c = this.char(p);
      if (c === 93) return this.end(p + 1);
      if (c !== 44 /* , */) throw this.error('[0', this.at);
      p = this.skipBlank(p + 1);
      this.drop(p);
    }
  }

  /** After the array: only blanks may follow. */
  private end(from: number): void {
    const p = this.skipBlank(from);
    if (this.char(p) !== -1) throw this.error('[]', from);
  }

  /** The character at `p` of the whole text (-1: the end of the text), reading on as needed. */
  private char(p: number): number {
    while (p - this.base >= this.buf.length) if (!this.more()) return -1;
    return this.buf.charCodeAt(p - this.base);
  }

  private more(): boolean {
    if (this.done) return false;
    const x = this.rest.next();
    if (x.done) {
      this.done = true;
      return false;
    }
    this.buf += x.value;
    if (this.buf.length > MAX_ELEMENT_CHARS) throw new UsageError(`${this.name}: an element of the array is longer than ${MAX_ELEMENT_CHARS / (1024 * 1024)} MiB`);
    return true;
  }

  private skipBlank(p: number): number {
    for (let c = this.char(p); c !== -1 && WS(c); c = this.char(++p));
    return p;
  }

  /** Forgets the text before `p` (counting its line breaks). */
  private drop(p: number): void {
    const cut = p - this.base;
    if (cut < 1 << 16) return;
    const gone = this.buf.slice(0, cut);
    for (let i = gone.indexOf('\n'); i >= 0; i = gone.indexOf('\n', i + 1)) {
      this.lines++;
      this.lastBreak = this.base + i;
    }
    this.buf = this.buf.slice(cut);
    this.base = p;
  }

  /**
   * Where the value that starts at `p` ends: an object or array at its closing bracket, a string
   * at its closing quote, anything else before the next blank, comma or bracket. Malformed text
   * ends where it stops making sense; the parse of the value says what is wrong.
   */
  private valueEnd(p: number): number {
    const c = this.char(p);
    let depth = 0;
    let i = p;
    if (c !== 123 && c !== 91 && c !== 34) {
      for (let d = this.char(i); d !== -1 && !WS(d) && d !== 44 && d !== 93 && d !== 125; d = this.char(++i));
      return i;
    }
    for (;;) {
      const d = this.char(i);
      if (d === -1) return i;
      if (d === 34) {
        i = this.stringEnd(i);
        if (depth === 0) return i;
        continue;
      }
      if (d === 123 || d === 91) depth++;
      else if (d === 125 || d === 93) depth--;
      i++;
      if (depth <= 0) return i;
    }
  }

  /** Past the closing quote of the string at `p` (or the end of the text). */
  private stringEnd(p: number): number {
    for (let i = p + 1; ; i++) {
      const d = this.char(i);
      if (d === -1) return i;
      if (d === 92 /* \ */) i++;
      else if (d === 34) return i + 1;
    }
  }

  /**
   * The error JSON.parse gives for the whole text, found by parsing `prefix` (what puts the parser
   * in the state it is in at `from`) and the text from `from`: its position, if it names one, is
   * the same place of the whole text.
   */
  private error(prefix: string, from: number): UsageError {
    // (enough of what follows to reach the fault, or the end of the text)
    while (this.buf.length - (from - this.base) < 4096 && this.more());
    const text = prefix + this.buf.slice(from - this.base);
    let message = 'not valid JSON';
    try {
      JSON.parse(text);
    } catch (e) {
      message = (e as Error).message;
    }
    // (as core/json.ts jsonErrorWithoutText says an error of the whole text)
    message = message.replace(/,\s*(?:\.\.\.)?"[\s\S]*$/, '').replace(/(at position )(\d+)/, (_, say: string, n: string) => `${say}${from + Number(n) - prefix.length}`);
    const at = /^(.*?)\s+in JSON at position (\d+)(?:\s*\(line \d+ column \d+\))?$/.exec(message);
    if (at) {
      const { line, column } = this.where(Number(at[2]));
      message = `${at[1]} at line ${line}, column ${column}`;
    }
    // (and as rows-json.ts jsonProblem adds the place to a message that names only the position)
    const pos = /at position (\d+)/.exec(message);
    if (pos && !/line \d/.test(message)) {
      const { line, column } = this.where(Number(pos[1]));
      message += ` (line ${line}, column ${column})`;
    }
    return new UsageError(`${this.name}: not valid JSON: ${message}`);
  }

  /** The line and column of a place of the whole text (1-based, as an editor counts them). */
  private where(pos: number): { line: number; column: number } {
    let line = this.lines + 1;
    let lastBreak = this.lastBreak;
    const upTo = Math.min(pos - this.base, this.buf.length);
    for (let i = this.buf.indexOf('\n'); i >= 0 && i < upTo; i = this.buf.indexOf('\n', i + 1)) {
      line++;
      lastBreak = this.base + i;
    }
    return { line, column: pos - lastBreak };
  }
}
