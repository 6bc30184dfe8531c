// `vx translate [text...]`: the input chosen (arguments, a file, stdin) and handed to the run
// (api/translator/session.ts: batches, requests in flight, results in input order), each result
// rendered as it arrives (render.ts); or, with --estimate or --dry-run, what the run would send.
import { TranslatorClient } from '../../api/translator/client.js';
import { explainFailure, sourceItems, textItems, type Items } from '../../api/translator/input.js';
import { glossarySource, openGlossary } from '../../api/translator/glossary/index.js';
import { createdNote, keyOptions } from '../../api/translator/memory/index.js';
import { ineffectiveParams, parseConcurrency, parseParams, type TranslateFlags } from '../../api/translator/options.js';
import { closeRunMemory, glossaryPath, openRunMemory, runSettings } from '../../api/translator/run-settings.js';
import { runBudget, runSpill } from '../../api/translator/reuse/index.js';
import { estimateRun, pendingItems, planRun, type Planner } from '../../api/translator/session.js';
import type { Ctx } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { openTextSource, sameFile } from '../../core/input.js';
import { tmpdir } from 'node:os';
import { modeOfSources, outFile, type Format } from '../../core/output/index.js';
import type { Assert, Covers } from '../define.js';
import type { TranslateOptions } from './options.js';
import { render } from './render.js';
import { tellCreated } from '../created.js';

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

/** The output's format; refuses the combinations that would lose the translations or the input. */
function checkOutput(ctx: Ctx, opts: TranslateOptions & { out?: string }, args: string[]): Format {
  if (args.length && opts.file !== undefined) throw new UsageError('give the text either as arguments or with --file, not both');
  // the output is renamed over its name when complete: over the input, the source text would be lost
  if (opts.out !== undefined && opts.file !== undefined && opts.file !== '-' && sameFile(opts.out, opts.file)) {
    throw new UsageError(`--out ${opts.out} is the input file ${opts.file}: its translation would replace it; name another file (nothing was sent)`);
  }
  const format: Format = ctx.explicitFormat() ?? (opts.out !== undefined ? 'text' : ctx.format('text'));
  // -o none writes nothing: --out would be an empty file for translations paid for
  if (format === 'none' && opts.out !== undefined) throw new UsageError('--out with -o none would write an empty file: choose a format for it (text, json, ...) or leave out --out (nothing was sent)');
  return format;
}

type Planned = Parameters<typeof planRun>[2];

/** --estimate: what the run would send and bill, nothing sent; then the budget's stop, as the run would meet it. */
async function estimate(ctx: Ctx, input: Items, planned: Planned): Promise<void> {
  const { record, stopped } = await estimateRun(input, planned);
  await ctx.print(record, { notTTY: 'json' });
  if (stopped) throw stopped;
}

/** --dry-run: the request of every batch the run would send (up to the budget's stop: printed, then the stop), nothing sent. */
async function dryRun(ctx: Ctx, client: Planner, input: Items, planned: Planned): Promise<void> {
  const stopped = await planRun(client, input, planned);
  if (!stopped) return;
  if (ctx.http.planned.length) await ctx.writePlan();
  throw stopped;
}

export async function run(ctx: Ctx, given: TranslateOptions, args: string[] = []): Promise<void> {
  const opts = { ...given, out: outFile(given.out) };
  const params = parseParams(opts);
  const concurrency = parseConcurrency(opts.concurrency);
  const format = checkOutput(ctx, opts, args);
  if (ctx.stderrIsTTY) for (const note of ineffectiveParams(params)) ctx.warn(note);
  // ends the reading when the run ends early (a quiet pipe would otherwise hold it)
  const reading = new AbortController();
  const settings = runSettings(ctx, opts);
  const glossaryFile = glossaryPath(ctx, opts.glossary);
  const glossary = glossaryFile === undefined ? undefined : await openGlossary(glossaryFile, glossarySource(params.from, 'give --from <lang>'), params.to, params.textType === 'html', (m) => ctx.warn(m));
  glossary?.window(pendingItems(concurrency));
  if (opts.estimate && opts.out !== undefined) throw new UsageError('--estimate sends nothing and writes no translation: leave out --out');
  const { input, close } = await chooseInput(ctx, opts, args, params.to.length, AbortSignal.any([ctx.signal, reading.signal]));
  // what vx makes of a private file (--out, a new memory) is private too
  const newMode = opts.file !== undefined && opts.file !== '-' ? modeOfSources([opts.file]) : undefined;
  let memory;
  let spill;
  let failed = false;
  try {
    // the distinct texts that do not fit the run's memory budget go to the temporary directory
    const budget = runBudget(ctx.env);
    spill = runSpill(input, params.to.length, ctx.envVar('TMPDIR') || tmpdir(), budget);
    // --estimate and --dry-run only read the memory
    memory = await openRunMemory(settings.memory, Boolean(opts.estimate) || ctx.http.dryRun, { env: ctx.env, warn: (m) => ctx.warn(m), debug: (m) => ctx.debug(m), optional: settings.memoryOptional, readOnly: settings.memoryReadOnly, mode: newMode, signal: ctx.signal, clock: ctx.clock });
    if (memory?.created) tellCreated(ctx, createdNote(memory.path));
    if (glossary) memory?.useGlossary((text, to) => glossary.applied(text, to));
    const reuse = { memory: memory && { store: memory, ids: memory.idsFor(keyOptions(params)) }, spill, budget };
    // with a glossary, what the run sends is weighed, measured and checked with its terms (its
    // markup is billed: the estimate and the plan's budget count it as the run does)
    const terms = glossary && { weigh: glossary.weigh.bind(glossary), measure: glossary.measure.bind(glossary), check: glossary.problems.bind(glossary) };
    const planned: Planned = { reuse, budget: settings.budget, targets: params.to.length, to: params.to, weigh: terms?.weigh };
    // (a line no request can carry is named as the run names it: nothing was sent)
    const nothingSent = (e: unknown) => {
      throw explainFailure(e, input, 0, undefined, { requests: 0, billed: 0, unmetered: 0 });
    };
    if (opts.estimate) return await estimate(ctx, input, planned).catch(nothingSent);
    const service = await TranslatorClient.open(ctx.http, ctx.config, params);
    // with a glossary, a text that holds terms goes to each target with its terms in the markup
    const client = glossary ? glossary.client(service) : service;
    if (ctx.http.dryRun) return await dryRun(ctx, client, input, planned).catch(nothingSent);
    ctx.http.opts.connections = concurrency;
    await render(ctx, client, params, input, { concurrency, format, out: opts.out, newMode, whole: Boolean(opts.whole), reuse, perMinute: settings.perMinute, budget: settings.budget, ...terms });
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    reading.abort();
    try {
      await closeRunMemory(memory, failed, (m) => ctx.warn(m));
    } finally {
      spill?.close();
      await close();
    }
  }
}
