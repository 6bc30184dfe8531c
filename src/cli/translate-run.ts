// `vx translate`: the input chosen (arguments, a file, stdin), handed to translateStream
// (api/translator/stream.ts: batches, requests in flight, results in input order), and each
// result rendered as it arrives (to stdout, or a file renamed into place at the end), with a
// progress bar at a terminal.
import { fmt } from '../api/translator/batcher.js';
import { TranslatorClient } from '../api/translator/client.js';
import { explainFailure, sourceItems, textItems, type Items } from '../api/translator/input.js';
import { ineffectiveParams, parseConcurrency, parseParams, type TranslateFlags, type TranslateParams } from '../api/translator/options.js';
import { columnsFor, mismatch, rowsOf, textOf, type Row } from '../api/translator/rows.js';
import { keyOptions, TranslationMemory } from '../api/translator/memory.js';
import { MeteredSender } from '../api/translator/metered.js';
import { estimateReuse, ReuseFailure, reuseMisses, translateReusing, type InnerStream, type ReuseOptions, type ReuseTotals } from '../api/translator/reuse.js';
import { BatchFailure, planTranslation, translateStream, type Batch } from '../api/translator/stream.js';
import { Pacer } from '../core/pacer.js';
import { existsSync } from 'node:fs';
import { memoryPath } from './translate-memory-run.js';
import type { Ctx } from '../core/context.js';
import type { Assert, Covers } from './define.js';
import type { TranslateOptions } from './translate.js';
import { InterruptedError, ServiceError, UsageError } from '../core/errors.js';
import { openTextSource } from '../core/input.js';
import { atomicFileSink, isTable, STREAMABLE, StreamRenderer, streamSink, type Format } from '../core/output.js';
import { Progress } from '../core/progress.js';
import type { TranslateResult } from '../spec/translator.js';

// parseParams reads these flags: each must be an option of the command (a renamed one fails here)
export type FlagsCovered = Assert<Covers<TranslateOptions, TranslateFlags>>;

/** a whole number of characters from 1 (commas and underscores allowed: 2,000,000) */
function characters(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.trim().replace(/[,_]/g, ''));
  if (!/^\s*\d[\d,_]*\s*$/.test(v) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`invalid value "${v}" for ${flag}: expected a whole number of characters from 1, e.g. 2000000`);
  return n;
}

/** The run's pay-once settings: the memory file (flag, else profile), the known rate, the budget (also vx translate file|sync's). */
export function runSettings(ctx: Ctx, opts: Pick<TranslateOptions, 'memory' | 'maxCharsPerMinute' | 'budget'>) {
  const memory = memoryPath(ctx, opts.memory);
  const fromProfile = opts.maxCharsPerMinute === undefined ? ctx.config.resolve('translate.maxRate') : undefined;
  const perMinute = characters(fromProfile ? `the translate.maxRate setting (${fromProfile.source})` : '--max-chars-per-minute', opts.maxCharsPerMinute ?? fromProfile?.value);
  const budget = characters('--budget', opts.budget);
  return { memory, perMinute, budget };
}

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

export async function runTranslate(ctx: Ctx, opts: TranslateOptions, args: string[] = []): Promise<void> {
  const params = parseParams(opts);
  const concurrency = parseConcurrency(opts.concurrency);
  if (args.length && opts.file !== undefined) throw new UsageError('give the text either as arguments or with --file, not both');
  if (opts.out !== undefined && !opts.out.trim()) throw new UsageError('--out needs a file name');
  const format: Format = ctx.explicitFormat() ?? (opts.out !== undefined ? 'text' : ctx.format('text'));
  if (params.includeAlignment && params.textType === 'html') ctx.warn('the service produces no alignment for HTML; the alignment fields will be empty');
  if (ctx.stderrIsTTY) for (const note of ineffectiveParams(params)) ctx.warn(note);
  // ends the reading when the run ends early (a quiet pipe would otherwise hold it)
  const reading = new AbortController();
  const settings = runSettings(ctx, opts);
  if (opts.estimate && opts.out !== undefined) throw new UsageError('--estimate sends nothing and writes no translation: leave out --out');
  const { input, close } = await chooseInput(ctx, opts, args, params.to.length, AbortSignal.any([ctx.signal, reading.signal]));
  let memory: TranslationMemory | undefined;
  try {
    // --estimate and --dry-run only read the memory (a memory that does not exist yet holds nothing)
    const onlyLooking = opts.estimate || ctx.http.dryRun;
    if (settings.memory !== undefined && (!onlyLooking || existsSync(settings.memory))) memory = await TranslationMemory.open(settings.memory, { readOnly: onlyLooking });
    const reuse = { memory: memory && { store: memory, ids: memory.idsFor(keyOptions(params)) } };
    if (opts.estimate) return await estimate(ctx, params, input, reuse);
    const client = await TranslatorClient.open(ctx.http, ctx.config, params);
    if (ctx.http.dryRun) return await planTranslation(client, reuseMisses(input.items, reuse), params.to.length);
    ctx.http.opts.connections = concurrency;
    await render(ctx, client, params, input, { concurrency, format, out: opts.out, whole: Boolean(opts.whole), reuse, perMinute: settings.perMinute, budget: settings.budget });
  } finally {
    reading.abort();
    try {
      await memory?.close();
    } finally {
      await close();
    }
  }
}

/** --estimate: what the run would send and bill, nothing sent. */
async function estimate(ctx: Ctx, params: TranslateParams, input: Items, reuse: Pick<ReuseOptions, 'memory'>): Promise<void> {
  const est = await estimateReuse(input.items, reuse);
  const targets = params.to.length;
  await ctx.print(
    { items: est.items, distinct: est.sent + est.memoryHits, duplicates: est.duplicates, memoryHits: est.memoryHits, toSend: est.sent, characters: est.chars, targets, billedCharacters: est.chars * targets },
    { notTTY: 'json' },
  );
}

interface RunOptions {
  concurrency: number;
  format: Format;
  out?: string;
  whole?: boolean;
  reuse: Pick<ReuseOptions, 'memory'>;
  perMinute?: number;
  budget?: number;
}

/** the pause after which a partial batch of distinct texts is sent when the reader waits (a regular file) */
const REUSE_FLUSH_MS = 100;

async function render(ctx: Ctx, client: TranslatorClient, params: TranslateParams, input: Items, run: RunOptions): Promise<void> {
  const several = params.to.length > 1;
  const table = isTable(run.format) && !ctx.globals.query;
  const renderer = STREAMABLE.has(run.format) && !ctx.globals.query
    ? new StreamRenderer(run.format, {
        text: (r) => textOf(r as TranslateResult, several, !run.whole),
        rows: (pair) => rowsOf(...(pair as [string, TranslateResult]), true),
        columns: columnsFor(params),
      })
    : undefined;
  // formats that need everything at once (table, yaml, or any with --query) keep the results
  const kept: TranslateResult[] = [];
  const keptRows: Row[] = [];
  const sink = run.out !== undefined ? await atomicFileSink(run.out) : streamSink(ctx.io.stdout);
  const progress = ctx.stderrIsTTY && !ctx.globals.debug ? new Progress(ctx.io.stderr, { unit: input.label.unit, total: input.total }) : undefined;
  const sharesTerminal = Boolean(progress && run.out === undefined && ctx.stdoutIsTTY);
  let delivered = 0;
  const sent = { requests: 0, billed: 0, unmetered: 0 };
  // tsv and csv repeat the input on every row
  const byRow = run.format === 'tsv' || run.format === 'csv';
  const targets = params.to.length;
  // every request of the run paced by one pacer (learned from 429s, or the rate the user knows)
  const pacer = new Pacer({ perMinute: run.perMinute });
  const sender = new MeteredSender(client, { targets, pacer, budget: run.budget });
  // each distinct text sent once (within the window), the memory's answers not sent at all
  const inner: InnerStream = async function* (texts, itemOf) {
    // a partial batch goes when no new distinct text comes for a while: the input's pause when it is
    // live, else shortly (the reader may be waiting for the output to catch up)
    for await (const ev of translateStream(sender, texts, { targets, concurrency: run.concurrency, live: true, flushMs: input.live ? undefined : REUSE_FLUSH_MS, signal: ctx.signal })) {
      if (ev.type !== 'batch') continue;
      const { batch: b, outcome: o } = ev;
      // every result is checked against its item (count, targets in --to order, text) before anything of the batch is written
      const wrong = mismatch(o.results, params.to);
      if (wrong) {
        throw new ServiceError(`the service's answer for ${input.label.one(itemOf(b.first + wrong.index) ?? 0)} does not match the request: ${wrong.why}; nothing of it was written (client trace id ${o.traceId})`, {
          requestId: o.requestId,
        });
      }
      sent.requests++;
      if (o.billed === undefined) sent.unmetered++;
      else sent.billed += o.billed;
      if (ctx.globals.debug) ctx.debug(
        `batch ${b.seq + 1}: ${input.label.range(itemOf(b.first) ?? 0, itemOf(b.first + b.count - 1) ?? 0)} (${b.count} items, ${fmt(b.chars)} characters x ${targets}): ` +
          `X-RequestId ${o.requestId ?? '-'}, X-MT-System ${o.mtSystem ?? '-'}, X-Metered-Usage ${o.billed ?? '-'}, X-ClientTraceId ${o.traceId}`,
      );
      yield ev;
    }
  };
  const totals: ReuseTotals = { items: 0, sent: 0, memoryHits: 0, duplicates: 0 };
  const events = translateReusing(input.items, inner, { ...run.reuse, signal: ctx.signal }, totals);
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
      await sink.write(await ctx.renderResult(table ? keptRows : kept, run.format, { columns: table ? columnsFor(params) : undefined, empty: 'nothing to translate' }));
    }
    await sink.commit();
    progress?.stop();
  } catch (e) {
    progress?.stop();
    // stdout keeps what was delivered, well-formed (a json array is closed)
    if (renderer && run.out === undefined) await sink.write(renderer.end()).catch(() => undefined);
    await sink.abort();
    throw explainFailure(unwrapReuse(e), input, delivered, run.out, sent);
  } finally {
    if (ctx.globals.verbose) summary(ctx, delivered, sent, totals, pacer, performance.now() - started);
  }
}

/** A failure of the pay-once layer as the stream's own: the first unanswered input item names where it stopped. */
function unwrapReuse(e: unknown): unknown {
  if (!(e instanceof ReuseFailure)) return e;
  const cause = e.cause instanceof BatchFailure ? e.cause.cause : e.cause;
  if (cause instanceof InterruptedError) return cause;
  return new BatchFailure({ first: e.item - 1, count: 0, chars: 0, seq: 0, texts: [] } satisfies Batch, cause);
}

/** --verbose: what was sent and billed, what the memory and the dedupe saved, the rate reached. */
function summary(ctx: Ctx, delivered: number, sent: { requests: number; billed: number; unmetered: number }, totals: ReuseTotals, pacer: Pacer, ms: number): void {
  const { requests, billed, unmetered } = sent;
  const what = requests === 0 ? 'billed characters: 0' : unmetered === requests ? 'billed characters: not reported (no X-Metered-Usage)' : `billed characters: ${fmt(billed)} (X-Metered-Usage of ${fmt(requests - unmetered)} request${requests - unmetered === 1 ? '' : 's'})`;
  ctx.verbose(`translated ${fmt(delivered)} item${delivered === 1 ? '' : 's'} in ${fmt(requests)} request${requests === 1 ? '' : 's'}; ${what}`);
  const p = pacer.stats();
  const rate = ms > 0 ? Math.round((billed / ms) * 60_000) : 0;
  const limit = p.perMinute !== undefined ? `; limit ${p.rejected ? 'learned' : 'configured'}: ${fmt(Math.round(p.perMinute))} characters a minute` : '';
  ctx.verbose(
    `memory hits: ${fmt(totals.memoryHits)}; duplicates not sent: ${fmt(totals.duplicates)}; distinct texts sent: ${fmt(totals.sent)}; ` +
      `effective rate: ${fmt(rate)} billed characters a minute; throttled (429): ${fmt(p.rejected)}${limit}`,
  );
}
