// vx translate's output: each event of the run (api/translator/session.ts) rendered as it arrives,
// to stdout or to a file renamed into place at the end, with a progress bar at a terminal.
import { fmt } from '../../api/translator/batcher.js';
import { flushDelay } from '../../api/translator/idle-flush.js';
import { explainFailure, type Items } from '../../api/translator/input.js';
import type { TranslateParams } from '../../api/translator/options.js';
import type { ReuseEvent } from '../../api/translator/reuse/index.js';
import { columnsFor, rowsOf, textsOf, type Row } from '../../api/translator/rows.js';
import { asStreamFailure, describeRun, translateSession, type SessionClient, type SessionOptions } from '../../api/translator/session.js';
import type { Batch, BatchOutcome } from '../../api/translator/stream.js';
import type { Ctx } from '../../core/context.js';
import { VxError } from '../../core/errors.js';
import { atomicFileSink, isTable, STREAMABLE, StreamRenderer, type Format, type ResultSink } from '../../core/output/index.js';
import { Progress } from '../../core/progress.js';
import { monotonicMs } from '../../core/clock.js';
import type { TranslateResult } from '../../model/translator.js';

export interface RenderOptions extends Pick<SessionOptions, 'concurrency' | 'reuse' | 'perMinute' | 'budget' | 'weigh' | 'measure'> {
  format: Format;
  out?: string;
  /** the permissions of a new --out file (its source's) */
  newMode?: number;
  whole?: boolean;
  /** what is wrong with answers (a glossary's term not translated as it says): the index and problems of each that has some; said per item on stderr, exit 1 once all is written */
  check?(texts: readonly string[], results: readonly TranslateResult[]): readonly (readonly [number, readonly string[]])[];
}

/** Where the results go and how: streamed (a renderer), or kept for formats that need everything at once. */
class Output {
  readonly renderer?: StreamRenderer;
  /** formats that need everything at once (table, yaml, or any with --query) keep the results */
  readonly kept: TranslateResult[] = [];
  private readonly keptRows: Row[] = [];
  private readonly table: boolean;
  /** tsv and csv repeat the input on every row */
  private readonly byRow: boolean;

  constructor(
    private readonly ctx: Ctx,
    private readonly params: TranslateParams,
    private readonly run: RenderOptions,
    readonly sink: ResultSink,
  ) {
    const several = params.to.length > 1;
    const transliterated = params.toScript !== undefined;
    const oneLine = !run.whole || several || transliterated;
    this.table = isTable(run.format) && !ctx.globals.query;
    this.byRow = run.format === 'tsv' || run.format === 'csv';
    this.renderer =
      STREAMABLE.has(run.format) && !ctx.globals.query
        ? new StreamRenderer(run.format, {
            // --whole keeps a translation's line breaks, unless lines hold columns (<lang>, transliteration)
            texts: (rs) => textsOf(rs as TranslateResult[], several, oneLine, transliterated),
            rows: (pair) => rowsOf(...(pair as [string, TranslateResult]), true),
            columns: columnsFor(params),
          })
        : undefined;
  }

  /** The chunk an event writes (streamed formats), or '' (it is kept). */
  add(ev: ReuseEvent): string {
    if (this.renderer) return this.renderer.items(this.byRow ? ev.results.map((r, i) => [ev.texts[i], r]) : ev.results);
    for (let i = 0; i < ev.results.length; i++) {
      this.kept.push(ev.results[i]);
      if (this.table) this.keptRows.push(...rowsOf(ev.texts[i], ev.results[i], false));
    }
    return '';
  }

  /** What is kept, rendered whole. */
  async writeKept(): Promise<void> {
    const { ctx, run } = this;
    await this.sink.write(await ctx.renderResult(this.table ? this.keptRows : this.kept, run.format, { columns: this.table ? columnsFor(this.params) : undefined, empty: 'nothing to translate' }, run.out !== undefined));
  }

  /** The end of the output (a json array closed, the kept results written). */
  end(): Promise<void> {
    return this.renderer ? this.sink.write(this.renderer.end()) : this.writeKept();
  }
}

/** Says on stderr what is wrong with each answer of an event (its item named); how many items had something. */
function checkEvent(ctx: Ctx, input: Items, ev: ReuseEvent, check: NonNullable<RenderOptions['check']>): number {
  const found = check(ev.texts, ev.results);
  for (const [i, problems] of found) for (const p of problems) ctx.warn(`${input.label.one(ev.first + i + 1)}: ${p}`);
  return found.length;
}

/** The --debug line of each answered request. */
function debugLine(ctx: Ctx, params: TranslateParams): (b: Batch, o: BatchOutcome, items: string, to: readonly string[]) => void {
  return (b, o, items, to) =>
    ctx.debug(`batch ${b.seq + 1}: ${items} (${b.count} items, ${fmt(b.chars)} characters x ${to.length}${to.length < params.to.length ? ` (${to.join(',')}: the memory holds the others)` : ''}): X-RequestId ${o.requestId ?? '-'}, X-MT-System ${o.mtSystem ?? '-'}, X-Metered-Usage ${o.billed ?? '-'}, X-ClientTraceId ${o.traceId}`);
}

export async function render(ctx: Ctx, client: SessionClient, params: TranslateParams, input: Items, run: RenderOptions): Promise<void> {
  const sink = run.out !== undefined ? await atomicFileSink(run.out, { newMode: run.newMode }) : ctx.stdoutSink(run.format);
  const out = new Output(ctx, params, run, sink);
  const progress = ctx.stderrIsTTY && !ctx.globals.debug ? new Progress(ctx.io.stderr, { unit: input.label.unit, total: input.total, env: ctx.env }) : undefined;
  const sharesTerminal = Boolean(progress && run.out === undefined && ctx.stdoutIsTTY);
  let delivered = 0;
  const { events, counts } = translateSession(client, input, { ...run, to: params.to, signal: ctx.signal, clock: ctx.clock, flushMs: flushDelay(ctx.env), onBatch: ctx.globals.debug ? debugLine(ctx, params) : undefined });
  const started = monotonicMs();
  let unfit = 0;
  try {
    for await (const ev of events) {
      if (run.check) unfit += checkEvent(ctx, input, ev, run.check);
      delivered = ev.first + ev.results.length;
      const chunk = out.add(ev);
      if (chunk) {
        if (sharesTerminal) progress!.clear();
        await sink.write(chunk);
      }
      progress?.update(delivered);
    }
    if (sharesTerminal && !out.renderer) progress!.clear();
    await out.end();
    await sink.commit();
    progress?.stop();
  } catch (e) {
    progress?.stop();
    // stdout keeps what was delivered, well-formed (a json array is closed; a table, yaml or
    // --query shows the items translated, as the hint says); nothing delivered, nothing written (an
    // empty array or a csv header would read as a successful empty result)
    if (run.out === undefined && (out.renderer ? delivered > 0 : out.kept.length)) await out.end().catch(() => undefined);
    await sink.abort();
    throw explainFailure(asStreamFailure(e), input, delivered, run.out, counts, Boolean(run.reuse.memory));
  } finally {
    if (ctx.globals.verbose) {
      // the run's summary comes last, after each request's line (told as it was answered)
      const ms = monotonicMs() - started;
      for (const line of describeRun(delivered, counts, ms)) ctx.verbose(line);
    }
  }
  if (unfit) throw new VxError(`${fmt(unfit)} ${unfit === 1 ? 'item lacks' : 'items lack'} a translation the glossary asks for (listed above); every translation was written`);
}
