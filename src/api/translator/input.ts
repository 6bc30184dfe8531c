// The items of a translation: texts given whole, or the lines (or the whole) of a text source,
// checked against the service limits, counted, and named as messages name them ("line 12 of
// notes.txt", "arguments 2-3"). A regular file is checked whole before anything is sent; a pipe
// is checked as it is read (a line found too long there ends the input with a UsageError, after
// the lines before it: translateStream still delivers those, and names the line by its number in an
// ItemTooLong, which explainFailure words).
import { asVxError, OutputError, UsageError } from '../../core/errors.js';
import type { TextSource } from '../../core/input.js';
import { readBoundedText, readLines, scanLines } from '../../core/lines.js';
import { countChars, LIMITS } from '../../model/translator.js';
import { fmt, itemProblem } from './batcher.js';
import { BatchFailure, ItemTooLong, type Batch, type ItemInput } from './stream.js';

/** a line longer than this many UTF-16 units has more characters than an item may have */
const MAX_UNITS = LIMITS.maxItemChars * 2;

/** Item i of the input as messages name it. */
export interface Labeller {
  /** what is counted: "lines", "arguments", "items" */
  unit: string;
  /** "line 12 of notes.txt", "argument 2", "the input (--whole)" */
  one(n: number): string;
  /** "lines 3001-4000", "arguments 2-3" */
  range(from: number, to?: number): string;
}

export function labeller(kind: 'line' | 'argument' | 'whole', source?: string): Labeller {
  if (kind === 'whole') return { unit: 'items', one: () => `the input (--whole${source ? `, ${source}` : ''})`, range: () => 'the input' };
  const where = kind === 'line' && source ? ` of ${source}` : '';
  return {
    unit: `${kind}s`,
    one: (n) => `${kind} ${fmt(n)}${where}`,
    range: (a, b) => (b === undefined ? `${kind}s ${fmt(a)} onwards` : a === b ? `${kind} ${fmt(a)}` : `${kind}s ${fmt(a)}-${fmt(b)}`),
  };
}

/** `label` is only built for an item that is too long (it runs once per input line). */
function checkItem(label: () => string, chars: number): void {
  const problem = itemProblem(chars);
  if (problem) throw new UsageError(`${label()} is too long: ${problem}; nothing was sent`);
}

/** The items of an input, for translateStream, with what messages and the progress bar need. */
export interface Items {
  label: Labeller;
  /** the number of items when known before sending */
  total?: number;
  /** the UTF-16 units of all items at most, when known before sending (a file's bytes) */
  units?: number;
  /** the items arrive over time (a pipe, a socket, a terminal; not a regular file) */
  live: boolean;
  items: ItemInput;
}

/** Texts given whole (arguments): one item each, or one item of them all joined by spaces (`whole`). */
export function textItems(texts: readonly string[], targets: number, whole = false): Items {
  const all = whole ? [texts.join(' ')] : texts;
  const label = labeller(whole ? 'whole' : 'argument');
  all.forEach((text, i) => checkItem(() => label.one(i + 1), countChars(text)));
  return { label, total: all.length, units: all.reduce((n, t) => n + t.length, 0), live: false, items: [all] };
}

/**
 * The items of a text source: one per line, or the whole text as one (`whole`). `stop` ends the
 * reading (an InterruptedError), also while a pipe is quiet.
 */
export async function sourceItems(source: TextSource, opts: { targets: number; whole?: boolean; stop?: AbortSignal }): Promise<Items> {
  if (opts.whole) {
    const label = labeller('whole', source.name);
    const { text: raw, overflow } = await readBoundedText(source.open(), { what: source.name, maxUnits: MAX_UNITS, signal: opts.stop });
    if (overflow) throw new UsageError(`${label.one(1)} is too long: more than ${fmt(LIMITS.maxItemChars)} characters; one item may have at most ${fmt(LIMITS.maxItemChars)}; nothing was sent`);
    const text = raw.replace(/\r?\n$/, '');
    const chars = countChars(text);
    checkItem(() => label.one(1), chars);
    return { label, total: 1, units: text.length, live: false, items: [text] };
  }
  const label = labeller('line', source.name);
  const lineOpts = {
    what: source.name,
    signal: opts.stop,
    maxUnits: MAX_UNITS,
    onOverlong: (n: number) => {
      throw new UsageError(`${label.one(n)} is too long: more than ${fmt(LIMITS.maxItemChars)} characters; one item may have at most ${fmt(LIMITS.maxItemChars)}; ${source.rereadable ? 'nothing was sent' : 'nothing from this line on was sent'}`);
    },
  };
  let total: number | undefined;
  if (source.rereadable) {
    // a regular file is checked whole before anything is sent (and its line count feeds the progress bar)
    // (bytes are scanned, only lines long enough to matter are decoded and counted)
    // (a line of at most that many bytes has at most that many characters)
    const longBytes = LIMITS.maxItemChars;
    total = await scanLines(source.open(), (line, n) => checkItem(() => label.one(n), countChars(line)), { ...lineOpts, longBytes });
  }
  // (a UTF-8 file has no more UTF-16 units than bytes)
  return { label, total, units: source.size, live: !source.rereadable, items: readLines(source.open(), lineOpts) };
}

/**
 * What a run that stopped tells: a failed batch becomes its error with a hint naming what was not
 * translated and what was written; an item found too long in a pipe is named by its line.
 */
export function explainFailure(e: unknown, input: Items, delivered: number, out: string | undefined, sent: { requests: number; billed: number; unmetered: number }, memory = false): unknown {
  if (e instanceof OutputError) {
    // the output could not be written (a full disk): the requests were made and billed all the same
    const billed = sent.unmetered === sent.requests ? 'billed characters not reported' : `${fmt(sent.billed)} billed characters`;
    e.hint = `sent: ${fmt(sent.requests)} request${sent.requests === 1 ? '' : 's'} (${billed})${delivered ? `; ${input.label.range(1, delivered)} ${delivered === 1 ? 'was' : 'were'} translated` : ''}`;
    return e;
  }
  if (!(e instanceof BatchFailure)) {
    if (e instanceof UsageError) {
      if (e instanceof ItemTooLong) e.message = `${input.label.one(e.index)} is too long: ${e.problem}; nothing from this line on was sent`;
      // a problem found late in a pipe: when nothing was sent, nothing was
      if (delivered === 0) e.message = e.message.replace(/nothing from this line on was sent$/, 'nothing was sent');
      else e.hint = `${input.label.range(1, delivered)} ${delivered === 1 ? 'was' : 'were'} translated${out ? `; nothing was written to ${out}` : ' and written'}`;
    }
    return e;
  }
  const err = asVxError(e.cause);
  const first = (e.batch as Batch).first + 1;
  const parts = [`not translated: ${input.total !== undefined ? input.label.range(first, input.total) : input.label.range(first)}`];
  if (out !== undefined) {
    parts.push(`nothing was written to ${out}`);
    // paid for all the same: with a memory they are kept, and a rerun does not pay for them again
    if (memory && first > 1) parts.push(`${input.label.range(1, first - 1)} ${first === 2 ? 'is' : 'are'} in the translation memory: a rerun does not send ${first === 2 ? 'it' : 'them'} again`);
  } else if (first > 1) parts.push(`the output holds ${input.label.range(1, first - 1)}`);
  // hints are lines: what was (not) translated, then any the failure came with (how to sign in again)
  err.hint = [parts.join('; '), err.hint].filter(Boolean).join('\n');
  return err;
}
