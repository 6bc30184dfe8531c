// `vx translate`: the input chosen (arguments, a file, stdin), handed to translateStream
// (api/translator/stream.ts: batches, requests in flight, results in input order), and each
// result rendered as it arrives (to stdout, or a file renamed into place at the end), with a
// progress bar at a terminal.
import { fmt } from '../api/translator/batcher.js';
import { TranslatorClient } from '../api/translator/client.js';
import { explainFailure, sourceItems, textItems, type Items } from '../api/translator/input.js';
import { ineffectiveParams, parseConcurrency, parseParams, type TranslateFlags, type TranslateParams } from '../api/translator/options.js';
import { columnsFor, rowsOf, textOf, type Row } from '../api/translator/rows.js';
import { keyOptions, TranslationMemory } from '../api/translator/memory.js';
import { BudgetExceeded } from '../api/translator/metered.js';
import { newEstimate, type ReuseOptions } from '../api/translator/reuse.js';
import { asStreamFailure, describeRun, estimateRecord, planSession, translateSession, type SessionOptions } from '../api/translator/session.js';
import { BatchFailure, type Batch, type BatchOutcome } from '../api/translator/stream.js';
import { existsSync } from 'node:fs';
import { closeRunMemory, runSettings } from './translate-memory-run.js';
import type { Ctx } from '../core/context.js';
import type { Assert, Covers } from './define.js';
import type { TranslateOptions } from './translate.js';
import { UsageError } from '../core/errors.js';
import { openTextSource, sameFile } from '../core/input.js';
import { atomicFileSink, isTable, outFile, STREAMABLE, StreamRenderer, type Format } from '../core/output/index.js';
import { Progress } from '../core/progress.js';
import type { TranslateResult } from '../model/translator.js';

// parseParams reads these flags: each must be an option of the command (a renamed one fails here)
export type FlagsCovered = Assert<Covers<TranslateOptions, TranslateFlags>>;

/** The items of the arguments, else --file, else standard input when it is not a terminal. */
async function chooseInput(ctx: Ctx, opts: TranslateOptions, args: string[], targets: number, stop: AbortSignal): Promise<{ input: Items; close(): Promise<void> }> {
  if (args.length) return { input: textItems(args, targets, opts.whole), close: async () => undefined };
  const path = opts.file ?? (ctx.io.stdin.isTTY ? undefined : '-');
  if (path === undefined) throw new UsageError('nothing to translate: give the text as arguments, with --file <path>, or on standard input');
  const source = await openTextSource(path, path === '-' ? ctx.io.stdin : undefined);
  try {
    return { input: await sourceItems(source, { targets, whole: opts.whole, stop }), close: () => source.close() };
  } catch (e) {
    await source.close();
    throw e;
  }
}

export async function runTranslate(ctx: Ctx, given: TranslateOptions, args: string[] = []): Promise<void> {
  const opts = { ...given, out: outFile(given.out) };
  const params = parseParams(opts);
  const concurrency = parseConcurrency(opts.concurrency);
  if (args.length && opts.file !== undefined) throw new UsageError('give the text either as arguments or with --file, not both');
  // the output is renamed over its name when complete: over the input, the source text would be lost
  if (opts.out !== undefined && opts.file !== undefined && opts.file !== '-' && sameFile(opts.out, opts.file)) {
    throw new UsageError(`--out ${opts.out} is the input file ${opts.file}: its translation would replace it; name another file (nothing was sent)`);
  }
  const format: Format = ctx.explicitFormat() ?? (opts.out !== undefined ? 'text' : ctx.format('text'));
  // -o none writes nothing: --out would be an empty file for translations paid for
  if (format === 'none' && opts.out !== undefined) throw new UsageError('--out with -o none would write an empty file: choose a format for it (text, json, ...) or leave out --out (nothing was sent)');
  if (ctx.stderrIsTTY) for (const note of ineffectiveParams(params)) ctx.warn(note);
  // ends the reading when the run ends early (a quiet pipe would otherwise hold it)
  const reading = new AbortController();
  const settings = runSettings(ctx, opts);
  if (opts.estimate && opts.out !== undefined) throw new UsageError('--estimate sends nothing and writes no translation: leave out --out');
  const { input, close } = await chooseInput(ctx, opts, args, params.to.length, AbortSignal.any([ctx.signal, reading.signal]));
  let memory: TranslationMemory | undefined;
  let failed = false;
  try {
    // --estimate and --dry-run only read the memory (a memory that does not exist yet holds nothing)
    const onlyLooking = opts.estimate || ctx.http.dryRun;
    if (settings.memory !== undefined && (!onlyLooking || existsSync(settings.memory))) memory = await TranslationMemory.open(settings.memory, { readOnly: onlyLooking });
    const reuse = { memory: memory && { store: memory, ids: memory.idsFor(keyOptions(params)) } };
    // (a line no request can carry is named as the run names it: nothing was sent)
    const nothingSent = (e: unknown) => {
      throw explainFailure(e, input, 0, undefined, { requests: 0, billed: 0, unmetered: 0 });
    };
    if (opts.estimate) return await estimate(ctx, params, input, reuse, settings.budget).catch(nothingSent);
    const client = await TranslatorClient.open(ctx.http, ctx.config, params);
    if (ctx.http.dryRun) return await planRun(ctx, client, input, reuse, params.to.length, settings.budget).catch(nothingSent);
    ctx.http.opts.connections = concurrency;
    await render(ctx, client, params, input, { concurrency, format, out: opts.out, whole: Boolean(opts.whole), reuse, perMinute: settings.perMinute, budget: settings.budget });
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    reading.abort();
    try {
      await closeRunMemory(memory, failed);
    } finally {
      await close();
    }
  }
}

/** --dry-run: the request of every batch the run would send (up to the budget's stop: printed, then the stop), nothing sent. */
async function planRun(ctx: Ctx, client: TranslatorClient, input: Items, reuse: Pick<ReuseOptions, 'memory'>, targets: number, budget: number | undefined): Promise<void> {
  const stopped = await budgetStop(planSession(input, { reuse, budget, targets }, newEstimate(), (texts, missing) => (missing ? client.forTargets(missing) : client).plan(texts)));
  if (!stopped) return;
  if (ctx.http.planned.length) await ctx.writePlan();
  throw stopped;
}

/** --estimate: what the run would send and bill, nothing sent; then the budget's stop, as the run would meet it. */
async function estimate(ctx: Ctx, params: TranslateParams, input: Items, reuse: Pick<ReuseOptions, 'memory'>, budget: number | undefined): Promise<void> {
  const est = newEstimate();
  const stopped = await budgetStop(planSession(input, { reuse, budget, targets: params.to.length }, est, () => undefined));
  await ctx.print(estimateRecord(est, params.to.length), { notTTY: 'json' });
  if (stopped) throw stopped;
}

/** The budget's stop of a planned run (other failures thrown). */
async function budgetStop(planned: Promise<void>): Promise<BatchFailure<Batch> | undefined> {
  try {
    await planned;
    return undefined;
  } catch (e) {
    if (e instanceof BatchFailure && e.cause instanceof BudgetExceeded) return e as BatchFailure<Batch>;
    throw e;
  }
}

interface RunOptions extends Pick<SessionOptions, 'concurrency' | 'reuse' | 'perMinute' | 'budget'> {
  format: Format;
  out?: string;
  whole?: boolean;
}

async function render(ctx: Ctx, client: TranslatorClient, params: TranslateParams, input: Items, run: RunOptions): Promise<void> {
  const several = params.to.length > 1;
  const table = isTable(run.format) && !ctx.globals.query;
  const renderer = STREAMABLE.has(run.format) && !ctx.globals.query
    ? new StreamRenderer(run.format, {
        // --whole keeps a translation's line breaks, unless lines hold columns (<lang>, transliteration)
        text: (r) => textOf(r as TranslateResult, several, !run.whole || several || params.toScript !== undefined),
        rows: (pair) => rowsOf(...(pair as [string, TranslateResult]), true),
        columns: columnsFor(params),
      })
    : undefined;
  // formats that need everything at once (table, yaml, or any with --query) keep the results
  const kept: TranslateResult[] = [];
  const keptRows: Row[] = [];
  const sink = run.out !== undefined ? await atomicFileSink(run.out) : ctx.stdoutSink(run.format);
  const writeKept = async () => sink.write(await ctx.renderResult(table ? keptRows : kept, run.format, { columns: table ? columnsFor(params) : undefined, empty: 'nothing to translate' }, run.out !== undefined));
  const progress = ctx.stderrIsTTY && !ctx.globals.debug ? new Progress(ctx.io.stderr, { unit: input.label.unit, total: input.total }) : undefined;
  const sharesTerminal = Boolean(progress && run.out === undefined && ctx.stdoutIsTTY);
  let delivered = 0;
  // tsv and csv repeat the input on every row
  const byRow = run.format === 'tsv' || run.format === 'csv';
  const onBatch = (b: Batch, o: BatchOutcome, items: string, to: readonly string[]) =>
    ctx.debug(`batch ${b.seq + 1}: ${items} (${b.count} items, ${fmt(b.chars)} characters x ${to.length}${to.length < params.to.length ? ` (${to.join(',')}: the memory holds the others)` : ''}): X-RequestId ${o.requestId ?? '-'}, X-MT-System ${o.mtSystem ?? '-'}, X-Metered-Usage ${o.billed ?? '-'}, X-ClientTraceId ${o.traceId}`);
  const { events, counts } = translateSession(client, input, { ...run, to: params.to, signal: ctx.signal, onBatch: ctx.globals.debug ? onBatch : undefined });
  const started = performance.now();
  try {
    for await (const ev of events) {
      delivered = ev.first + ev.results.length;
      if (renderer) {
        const chunk = renderer.items(byRow ? ev.results.map((r, i) => [ev.texts[i], r]) : ev.results);
        if (chunk) {
          if (sharesTerminal) progress!.clear();
          await sink.write(chunk);
        }
      } else {
        for (let i = 0; i < ev.results.length; i++) {
          kept.push(ev.results[i]);
          if (table) keptRows.push(...rowsOf(ev.texts[i], ev.results[i], false));
        }
      }
      progress?.update(delivered);
    }
    if (renderer) await sink.write(renderer.end());
    else {
      if (sharesTerminal) progress!.clear();
      await writeKept();
    }
    await sink.commit();
    progress?.stop();
  } catch (e) {
    progress?.stop();
    // stdout keeps what was delivered, well-formed (a json array is closed; a table, yaml or
    // --query shows the items translated, as the hint says); nothing delivered, nothing written (an
    // empty array or a csv header would read as a successful empty result)
    if (run.out === undefined && (renderer ? delivered > 0 : kept.length)) await (renderer ? sink.write(renderer.end()) : writeKept()).catch(() => undefined);
    await sink.abort();
    throw explainFailure(asStreamFailure(e), input, delivered, run.out, counts, Boolean(run.reuse.memory));
  } finally {
    if (ctx.globals.verbose) {
      // the run's summary comes last, after each request's line
      const ms = performance.now() - started;
      ctx.verboseExchanges();
      for (const line of describeRun(delivered, counts, ms)) ctx.verbose(line);
    }
  }
}
