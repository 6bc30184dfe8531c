// `vx translate`: the input chosen (arguments, a file, stdin), handed to translateStream
// (api/translator/stream.ts: batches, requests in flight, results in input order), and each
// result rendered as it arrives (to stdout, or a file renamed into place at the end), with a
// progress bar at a terminal.
import { fmt } from '../api/translator/batcher.js';
import { TranslatorClient } from '../api/translator/client.js';
import { explainFailure, sourceItems, textItems, type Items } from '../api/translator/input.js';
import { ineffectiveParams, parseConcurrency, parseParams, type TranslateFlags, type TranslateParams } from '../api/translator/options.js';
import { columnsFor, rowsOf, textOf, type Row } from '../api/translator/rows.js';
import { planTranslation, translateStream } from '../api/translator/stream.js';
import type { Ctx } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { openTextSource } from '../core/input.js';
import { atomicFileSink, STREAMABLE, StreamRenderer, streamSink, type Format } from '../core/output.js';
import { Progress } from '../core/progress.js';
import type { TranslateResult } from '../spec/translator.js';

export interface TranslateOptions extends TranslateFlags {
  file?: string;
  whole?: boolean;
  concurrency?: string;
  out?: string;
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
  const { input, close } = await chooseInput(ctx, opts, args, params.to.length, AbortSignal.any([ctx.signal, reading.signal]));
  try {
    const client = await TranslatorClient.open(ctx.http, ctx.config, params);
    if (ctx.http.dryRun) return await planTranslation(client, input.items, params.to.length);
    ctx.http.opts.connections = concurrency;
    await render(ctx, client, params, input, { concurrency, format, out: opts.out });
  } finally {
    reading.abort();
    await close();
  }
}

async function render(ctx: Ctx, client: TranslatorClient, params: TranslateParams, input: Items, run: { concurrency: number; format: Format; out?: string }): Promise<void> {
  const several = params.to.length > 1;
  const table = run.format === 'table' && !ctx.globals.query;
  const renderer = STREAMABLE.has(run.format) && !ctx.globals.query
    ? new StreamRenderer(run.format, {
        text: (r) => textOf(r as TranslateResult, several),
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
  const events = translateStream(client, input.items, { targets: params.to.length, concurrency: run.concurrency, live: input.live, keepTexts: byRow || table, signal: ctx.signal });
  try {
    for await (const ev of events) {
      if (ev.type === 'progress') {
        delivered = ev.items;
        progress?.update(delivered);
        continue;
      }
      const { batch: b, outcome: o } = ev;
      sent.requests++;
      if (o.billed === undefined) sent.unmetered++;
      else sent.billed += o.billed;
      if (ctx.globals.debug) ctx.debug(
        `batch ${b.seq + 1}: ${input.label.range(b.first + 1, b.first + b.count)} (${b.count} items, ${fmt(b.chars)} characters x ${params.to.length}): ` +
          `X-RequestId ${o.requestId ?? '-'}, X-MT-System ${o.mtSystem ?? '-'}, X-Metered-Usage ${o.billed ?? '-'}, X-ClientTraceId ${o.traceId}`,
      );
      if (renderer) {
        const chunk = renderer.items(byRow ? o.results.map((r, i) => [b.texts[i], r]) : o.results);
        if (chunk) {
          if (sharesTerminal) progress!.clear();
          await sink.write(chunk);
        }
      } else {
        for (let i = 0; i < o.results.length; i++) {
          kept.push(o.results[i]);
          if (table) keptRows.push(...rowsOf(b.texts[i], o.results[i], false));
        }
      }
    }
    if (renderer) await sink.write(renderer.end());
    else {
      if (sharesTerminal) progress!.clear();
      await sink.write(await ctx.renderResult(table ? keptRows : kept, run.format, { columns: table ? columnsFor(params) : undefined, empty: 'nothing to translate' }));
    }
    await sink.commit();
  } catch (e) {
    progress?.stop();
    // stdout keeps what was delivered, well-formed (a json array is closed)
    if (renderer && run.out === undefined) await sink.write(renderer.end()).catch(() => undefined);
    await sink.abort();
    throw explainFailure(e, input, delivered, run.out, sent);
  }
  progress?.stop();
  if (ctx.globals.verbose) {
    const { requests, billed, unmetered } = sent;
    const what = unmetered === requests ? 'billed characters: not reported (no X-Metered-Usage)' : `billed characters: ${fmt(billed)} (X-Metered-Usage of ${fmt(requests - unmetered)} request${requests - unmetered === 1 ? '' : 's'})`;
    ctx.verbose(`translated ${fmt(delivered)} item${delivered === 1 ? '' : 's'} in ${fmt(requests)} request${requests === 1 ? '' : 's'}; ${what}`);
  }
}
