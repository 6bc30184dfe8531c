// The work behind `vx translate`: options -> checked parameters; input (arguments, a file, stdin)
// -> items checked against the limits -> batches -> several requests in flight -> results written
// in input order as they arrive (to stdout or a file renamed into place at the end).
import { Batcher, fmt, itemProblem, type Batch } from '../api/translator/batcher.js';
import { TranslatorClient, type BatchOutcome } from '../api/translator/client.js';
import { ineffectiveParams, parseParams, type TranslateFlags, type TranslateParams } from '../api/translator/options.js';
import { flushDelay, IdleFlush } from '../api/translator/idle-flush.js';
import { BatchFailure, OrderedPipeline } from '../api/translator/pipeline.js';
import type { Ctx } from '../core/context.js';
import { asVxError, InterruptedError, OutputError, UsageError } from '../core/errors.js';
import { forEachLine, scanLines, openTextSource, readBoundedText, type TextSource } from '../core/input.js';
import { atomicFileSink, isTable, STREAMABLE, StreamRenderer, streamSink, type Column, type Format, type ResultSink } from '../core/output.js';
import { Progress } from '../core/progress.js';
import { countChars, LIMITS, type TranslateResult } from '../spec/translator.js';

export interface TranslateOptions extends TranslateFlags {
  file?: string;
  whole?: boolean;
  concurrency?: string;
  out?: string;
}

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;
/** a line longer than this many UTF-16 units has more characters than an item may have */
const MAX_UNITS = LIMITS.maxItemChars * 2;

export function parseConcurrency(v: string | undefined): number {
  if (v === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || n < 1 || n > MAX_CONCURRENCY) {
    throw new UsageError(`invalid value "${v}" for --concurrency: expected a whole number from 1 to ${MAX_CONCURRENCY}`);
  }
  return n;
}

/** One table/tsv/csv row per item and target. */
interface Row {
  input: string;
  detected?: string;
  score?: string;
  to: string;
  translation: string;
  transliteration?: string;
  alignment?: string;
  sentences?: string;
}

export function columnsFor(p: TranslateParams): Column[] {
  const cols: Column[] = [{ header: 'input', get: 'input' }];
  if (!p.from) cols.push({ header: 'detected', get: 'detected' }, { header: 'score', get: 'score', align: 'right' });
  cols.push({ header: 'to', get: 'to' }, { header: 'translation', get: 'translation' });
  if (p.toScript) cols.push({ header: 'transliteration', get: 'transliteration' });
  if (p.includeAlignment) cols.push({ header: 'alignment', get: 'alignment' });
  if (p.includeSentenceLength) cols.push({ header: 'sentence lengths', get: 'sentences' });
  return cols;
}

/** The rows of one result; `repeatInput`: the input on every row (tsv, csv) or on the first only (table). */
export function rowsOf(input: string, r: TranslateResult, repeatInput: boolean): Row[] {
  return (r.translations ?? []).map((t, i) => ({
    input: i === 0 || repeatInput ? input : '',
    detected: r.detectedLanguage?.language,
    score: typeof r.detectedLanguage?.score === 'number' ? r.detectedLanguage.score.toFixed(2) : undefined,
    to: t.to,
    translation: t.text,
    transliteration: t.transliteration?.text,
    alignment: t.alignment?.proj,
    sentences: t.sentLen ? `${(t.sentLen.srcSentLen ?? []).join(',')} -> ${(t.sentLen.transSentLen ?? []).join(',')}` : undefined,
  }));
}

/** `text`: the translation, one line per item; with several targets `<lang>\t<text>` lines in --to order; the transliteration as one more column when asked. */
export function textOf(r: TranslateResult, several: boolean): string {
  let s = '';
  for (const t of r.translations ?? []) {
    s += several ? `${t.to}\t${t.text}` : t.text;
    if (t.transliteration) s += `\t${t.transliteration.text}`;
    s += '\n';
  }
  return s;
}

/** Item i of the input as messages name it. */
interface Labeller {
  /** what is counted: "lines", "arguments", "items" */
  unit: string;
  /** "line 12 of notes.txt", "argument 2", "the input (--whole)" */
  one(n: number): string;
  /** "lines 3001-4000", "arguments 2-3" */
  range(from: number, to?: number): string;
}

function labeller(kind: 'line' | 'argument' | 'whole', source?: string): Labeller {
  if (kind === 'whole') return { unit: 'items', one: () => `the input (--whole${source ? `, ${source}` : ''})`, range: () => 'the input' };
  const where = kind === 'line' && source ? ` of ${source}` : '';
  return {
    unit: `${kind}s`,
    one: (n) => `${kind} ${fmt(n)}${where}`,
    range: (a, b) => (b === undefined ? `${kind}s ${fmt(a)} onwards` : a === b ? `${kind} ${fmt(a)}` : `${kind}s ${fmt(a)}-${fmt(b)}`),
  };
}

/** `label` is only built for an item that is too long (it runs once per input line). */
function checkItem(label: () => string, chars: number, targets: number): void {
  const problem = itemProblem(chars, targets);
  if (problem) throw new UsageError(`${label()} is too long: ${problem}; nothing was sent`);
}

/** Where the items come from, read once for checking (when possible) and once for sending. */
interface ItemSource {
  label: Labeller;
  /** the number of items when known before sending */
  total?: number;
  /** lines arriving over time (a pipe, a socket, a terminal; not a regular file): a partial batch is sent when the input pauses */
  live?: boolean;
  /** calls `each` for every item in order, waiting when it returns a promise; `stop` ends the reading (an InterruptedError) */
  feed(each: (text: string, chars: number, n: number) => void | Promise<void>, stop?: AbortSignal): Promise<void>;
}

async function itemSource(ctx: Ctx, opts: TranslateOptions, args: string[], targets: number): Promise<{ items: ItemSource; close(): Promise<void> }> {
  if (args.length) {
    const texts = opts.whole ? [args.join(' ')] : args;
    const label = labeller(opts.whole ? 'whole' : 'argument');
    const chars = texts.map((t, i) => {
      const c = countChars(t);
      checkItem(() => label.one(i + 1), c, targets);
      return c;
    });
    return {
      items: {
        label,
        total: texts.length,
        async feed(each) {
          for (let i = 0; i < texts.length; i++) {
            const p = each(texts[i], chars[i], i + 1);
            if (p) await p;
          }
        },
      },
      close: async () => undefined,
    };
  }
  const path = opts.file ?? (ctx.io.stdin.isTTY ? undefined : '-');
  if (path === undefined) throw new UsageError('nothing to translate: give the text as arguments, with --file <path>, or on standard input');
  const source: TextSource = await openTextSource(path, path === '-' ? ctx.io.stdin : undefined);
  const close = () => source.close();
  try {
    if (opts.whole) {
      const label = labeller('whole', source.name);
      const { text: raw, overflow } = await readBoundedText(source.open(), { what: source.name, maxUnits: MAX_UNITS, signal: ctx.signal });
      if (overflow) throw new UsageError(`${label.one(1)} is too long: more than ${fmt(LIMITS.maxItemChars)} characters; one item may have at most ${fmt(LIMITS.maxItemChars)}; nothing was sent`);
      const text = raw.replace(/\r?\n$/, '');
      const chars = countChars(text);
      checkItem(() => label.one(1), chars, targets);
      return { items: { label, total: 1, feed: async (each) => void (await each(text, chars, 1)) }, close };
    }
    const label = labeller('line', source.name);
    const lineOpts = {
      what: source.name,
      signal: ctx.signal,
      maxUnits: MAX_UNITS,
      onOverlong: (n: number) => {
        throw new UsageError(`${label.one(n)} is too long: more than ${fmt(LIMITS.maxItemChars)} characters; one item may have at most ${fmt(LIMITS.maxItemChars)}; ${source.rereadable ? 'nothing was sent' : 'nothing from this line on was sent'}`);
      },
    };
    let total: number | undefined;
    if (source.rereadable) {
      // a regular file is checked whole before anything is sent (and its line count feeds the progress bar)
      // (bytes are scanned, only lines long enough to matter are decoded and counted)
      const longBytes = Math.min(LIMITS.maxItemChars, Math.floor(LIMITS.maxRequestChars / targets));
      total = await scanLines(source.open(), (line, n) => checkItem(() => label.one(n), countChars(line), targets), { ...lineOpts, longBytes });
    }
    return {
      items: {
        label,
        total,
        live: !source.rereadable,
        async feed(each, stop) {
          await forEachLine(
            source.open(),
            (line, n) => {
              const chars = countChars(line);
              if (!source.rereadable) {
                const problem = itemProblem(chars, targets);
                if (problem) throw new UsageError(`${label.one(n)} is too long: ${problem}; nothing from this line on was sent`);
              }
              return each(line, chars, n);
            },
            stop ? { ...lineOpts, signal: AbortSignal.any([ctx.signal, stop]) } : lineOpts,
          );
        },
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

export async function runTranslate(ctx: Ctx, opts: TranslateOptions, args: string[] = []): Promise<void> {
  const params = parseParams(opts);
  const concurrency = parseConcurrency(opts.concurrency);
  if (args.length && opts.file !== undefined) throw new UsageError('give the text either as arguments or with --file, not both');
  if (opts.out !== undefined && !opts.out.trim()) throw new UsageError('--out needs a file name');
  const format: Format = ctx.explicitFormat() ?? (opts.out !== undefined ? 'text' : ctx.format('text'));
  if (params.includeAlignment && params.textType === 'html') ctx.warn('the service produces no alignment for HTML; the alignment fields will be empty');
  if (ctx.stderrIsTTY) for (const note of ineffectiveParams(params)) ctx.warn(note);
  const targets = params.to.length;
  const { items, close } = await itemSource(ctx, opts, args, targets);
  try {
    const client = await TranslatorClient.open(ctx.http, ctx.config, params);
    if (ctx.http.dryRun) return await plan(client, items, targets);
    ctx.http.opts.connections = concurrency;
    await translateAll(ctx, client, params, items, { concurrency, format, out: opts.out });
  } finally {
    await close();
  }
}

/**
 * Feeds every item through the batcher and hands each batch to `send` as soon as it is closed,
 * waiting when `send` returns a promise. The batch still open at the end stays in the batcher.
 * With `idle` (a live input), a partial batch may also be sent by its timer: the feed then waits
 * for that send before it adds the next line.
 */
async function feedBatches(items: ItemSource, batcher: Batcher, send: (b: Batch) => void | Promise<void>, idle?: IdleFlush, stop?: AbortSignal): Promise<void> {
  const sendTwo = async (a: Batch | undefined, b: Batch | undefined) => {
    if (a) await send(a);
    if (b) await send(b);
  };
  const add = (text: string, chars: number): void | Promise<void> => {
    const before = batcher.fits(chars) ? undefined : batcher.take();
    batcher.push(text, chars);
    const full = batcher.full ? batcher.take() : undefined;
    if (!full) idle?.line();
    if (!before && !full) return;
    const sending = sendTwo(before, full);
    return idle ? idle.hold(sending) : sending;
  };
  await items.feed(
    idle
      ? (text, chars) => {
          const gate = idle.pending;
          return gate ? gate.then(() => add(text, chars)) : add(text, chars);
        }
      : add,
    stop,
  );
}

/** --dry-run: every batch's request, nothing sent (the runner prints them). */
async function plan(client: TranslatorClient, items: ItemSource, targets: number): Promise<void> {
  const batcher = new Batcher(targets);
  await feedBatches(items, batcher, (b) => client.plan(b.texts));
  const last = batcher.take();
  if (last) client.plan(last.texts);
}

interface RunSettings {
  concurrency: number;
  format: Format;
  out?: string;
}

async function translateAll(ctx: Ctx, client: TranslatorClient, params: TranslateParams, items: ItemSource, run: RunSettings): Promise<void> {
  const several = params.to.length > 1;
  const streaming = STREAMABLE.has(run.format) && !ctx.globals.query;
  const renderer = streaming
    ? new StreamRenderer(run.format, {
        text: (r) => textOf(r as TranslateResult, several),
        rows: (pair) => rowsOf((pair as [string, TranslateResult])[0], (pair as [string, TranslateResult])[1], true),
        columns: columnsFor(params),
      })
    : undefined;
  // formats that need everything at once (table, yaml, or any with --query) keep the results
  const keepTexts = run.format === 'tsv' || run.format === 'csv' || (isTable(run.format) && !ctx.globals.query);
  const kept: TranslateResult[] = [];
  const keptRows: Row[] = [];
  const sink: ResultSink = run.out !== undefined ? await atomicFileSink(run.out) : streamSink(ctx.io.stdout);
  const progress = ctx.stderrIsTTY && !ctx.globals.debug ? new Progress(ctx.io.stderr, { unit: items.label.unit, total: items.total }) : undefined;
  const sharesTerminal = Boolean(progress && run.out === undefined && ctx.stdoutIsTTY);
  let delivered = 0;
  let requests = 0;
  let billed = 0;
  let unmetered = 0;

  const deliver = async (b: Batch, o: BatchOutcome) => {
    requests++;
    if (o.billed === undefined) unmetered++;
    else billed += o.billed;
    if (ctx.globals.debug) ctx.debug(
      `batch ${b.seq + 1}: ${items.label.range(b.first + 1, b.first + b.count)} (${b.count} items, ${fmt(b.chars)} characters x ${params.to.length}): ` +
        `X-RequestId ${o.requestId ?? '-'}, X-MT-System ${o.mtSystem ?? '-'}, X-Metered-Usage ${o.billed ?? '-'}, X-ClientTraceId ${o.traceId}`,
    );
    if (renderer) {
      const chunk = renderer.items(run.format === 'tsv' || run.format === 'csv' ? o.results.map((r, i) => [b.texts[i], r]) : o.results);
      if (chunk) {
        if (sharesTerminal) progress!.clear();
        await sink.write(chunk);
      }
    } else {
      for (let i = 0; i < o.results.length; i++) {
        kept.push(o.results[i]);
        if (isTable(run.format) && !ctx.globals.query) keptRows.push(...rowsOf(b.texts[i], o.results[i], false));
      }
    }
    delivered = b.first + b.count;
    progress?.update(delivered);
  };

  // a failed pipeline stops the reading at once (a quiet pipe would otherwise hold the error until its next line)
  const feedStop = new AbortController();
  let stoppedBy: unknown;
  const stopFeed = (e: unknown) => {
    if (stoppedBy === undefined) stoppedBy = e;
    feedStop.abort();
  };
  const pipeline = new OrderedPipeline<Batch, BatchOutcome>({
    concurrency: run.concurrency,
    onStop: stopFeed,
    send: (b, signal) => {
      const sent = client.translate(b.texts, signal);
      // the request body holds the texts now; only tsv and table show them again, so the other
      // formats let them go at once (less to keep through each round trip: measurably less GC)
      if (!keepTexts) b.texts = [];
      return sent;
    },
    deliver,
    signal: ctx.signal,
  });
  const batcher = new Batcher(params.to.length);
  let submitted = 0;
  const submit = (b: Batch) => {
    submitted++;
    return pipeline.submit(b);
  };
  // a live input: a partial batch is sent once no line came for a while (never for a regular file)
  const idle = items.live
    ? new IdleFlush({
        delayMs: flushDelay(),
        open: () => batcher.size > 0,
        flush: async () => {
          const b = batcher.take();
          if (b) await submit(b);
        },
        failed: (e) => stopFeed(e),
      })
    : undefined;
  try {
    let late: UsageError | undefined;
    try {
      await feedBatches(items, batcher, submit, idle, feedStop.signal);
      idle?.stop();
      // a send the timer started goes first (it may be waiting for room)
      if (idle?.pending) await idle.pending;
      const last = batcher.take();
      if (last) await submit(last);
    } catch (e) {
      idle?.stop();
      // the input was stopped because the pipeline failed: that failure is the error
      if (e instanceof InterruptedError && stoppedBy !== undefined && !ctx.signal.aborted) throw stoppedBy;
      // a problem found late in a stream that could not be checked first: what was sent is still written
      if (!(e instanceof UsageError)) throw e;
      late = e;
      if (idle?.pending) await idle.pending;
      // when something was sent already, the lines up to the bad one are sent too (the output stays contiguous);
      // when nothing was, nothing is
      const open = batcher.take();
      if (!submitted) late.message = late.message.replace(/nothing from this line on was sent$/, 'nothing was sent');
      else if (open) await submit(open);
    }
    await pipeline.finish();
    if (late) throw late;
    if (renderer) await sink.write(renderer.end());
    else {
      const value = isTable(run.format) && !ctx.globals.query ? keptRows : kept;
      if (sharesTerminal) progress!.clear();
      await sink.write(await ctx.renderResult(value, run.format, { columns: keptRows === value ? columnsFor(params) : undefined, empty: 'nothing to translate' }));
    }
    await sink.commit();
  } catch (e) {
    pipeline.cancel();
    // a delivery under way finishes its write before the output is closed
    await pipeline.idle();
    progress?.stop();
    // stdout keeps what was delivered, well-formed (a json array is closed)
    if (renderer && run.out === undefined) await sink.write(renderer.end()).catch(() => undefined);
    await sink.abort();
    throw explain(e, items, delivered, run.out, { requests, billed, unmetered });
  }
  progress?.stop();
  if (ctx.globals.verbose) {
    const what = unmetered === requests ? 'billed characters: not reported (no X-Metered-Usage)' : `billed characters: ${fmt(billed)} (X-Metered-Usage of ${fmt(requests - unmetered)} request${requests - unmetered === 1 ? '' : 's'})`;
    ctx.verbose(`translated ${fmt(delivered)} item${delivered === 1 ? '' : 's'} in ${fmt(requests)} request${requests === 1 ? '' : 's'}; ${what}`);
  }
}

/** A failed batch becomes its error with a hint naming what was not translated and what was written. */
function explain(e: unknown, items: ItemSource, delivered: number, out: string | undefined, sent: { requests: number; billed: number; unmetered: number }): unknown {
  if (e instanceof OutputError) {
    // the output could not be written (a full disk): the requests were made and billed all the same
    const billed = sent.unmetered === sent.requests ? 'billed characters not reported' : `${fmt(sent.billed)} billed characters`;
    e.hint = `sent: ${fmt(sent.requests)} request${sent.requests === 1 ? '' : 's'} (${billed})${delivered ? `; ${items.label.range(1, delivered)} were translated` : ''}`;
    return e;
  }
  if (!(e instanceof BatchFailure)) {
    if (e instanceof UsageError && delivered > 0) e.hint = `${items.label.range(1, delivered)} were translated${out ? `; nothing was written to ${out}` : ' and written'}`;
    return e;
  }
  const err = asVxError(e.cause);
  const batch = e.batch as Batch;
  const first = batch.first + 1;
  const parts = [`not translated: ${items.total !== undefined ? items.label.range(first, items.total) : items.label.range(first)}`];
  if (out !== undefined) parts.push(`nothing was written to ${out}`);
  else if (first > 1) parts.push(`the output holds ${items.label.range(1, first - 1)}`);
  err.hint = parts.join('; ');
  return err;
}
