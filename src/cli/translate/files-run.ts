// The adapter behind `vx translate file` and `vx translate sync`: the options checked, then the
// steps of api/translator/files/: the plan (every source, lock file and target read and checked
// before anything is sent; the units each language needs), the translation (run.ts: each distinct
// text sent once with its placeholders protected), the merge (every target and lock file
// rendered) and the commit (all written at once: Ctrl-C or a failure leaves every target as it
// was); then the problems, the summary and, with --verbose, what was sent.
import { fmt } from '../../api/translator/batcher.js';
import { EXIT_CHECK } from '../../api/translator/files/check.js';
import { commitFiles, createdNotes } from '../../api/translator/files/commit.js';
import { mergeTargets, type Merged } from '../../api/translator/files/merge.js';
import { planSources, sourcesLanguage, unitNeeds, type FilesMode, type Needs, type SourcePlan, type StaleUnit } from '../../api/translator/files/plan.js';
import type { ProtectOptions } from '../../api/translator/files/protect.js';
import { translateNeeds, unitTotals, type FilesGlossaryRun, type FilesTranslated } from '../../api/translator/files/run.js';
import { openFilesGlossary } from '../../api/translator/glossary/files.js';
import { BudgetExceeded } from '../../api/translator/metered.js';
import { parseConcurrency, parseParams, type TranslateParams } from '../../api/translator/options.js';
import { glossaryPath, runSettings } from '../../api/translator/run-settings.js';
import type { Ctx } from '../../core/context.js';
import { ExitStatus, InterruptedError, OutputError, VxError } from '../../core/errors.js';
import { modeOfSources } from '../../core/output/index.js';
import { serviceLanguage } from '../../model/translator.js';
import { checkNaming, protectOf, readingOf, refuseOptions } from './files-checks.js';
import { LanguageBars } from './language-bars.js';
import type { FilesOptions } from './options.js';
import { tellCreated } from '../created.js';

export async function runFiles(ctx: Ctx, opts: FilesOptions, sources: string[], mode: FilesMode): Promise<void> {
  refuseOptions(ctx, opts, mode);
  const params = parseParams({ to: opts.to, from: opts.from, category: opts.category, traceId: opts.traceId });
  const concurrency = parseConcurrency(opts.concurrency);
  checkNaming(opts, sources, mode);
  const protect = protectOf(opts);
  const plans = await planSources(sources, { to: params.to, from: params.from, format: opts.format, out: opts.out, outDir: opts.outDir, state: opts.state, fuzzy: opts.fuzzy, ...readingOf(ctx, opts) }, mode, (m) => ctx.warn(m));
  // a glossary's terms: in the markup of what is sent, in each unit's lock entry, checked in each answer
  const glossary = await openFilesGlossary(glossaryPath(ctx, opts.glossary), sources, sourcesLanguage(plans, params.from), params.to, (m) => ctx.warn(m));
  const needs = unitNeeds(plans, mode, { check: opts.check, protect, retranslateChanged: opts.retranslateChanged, applied: glossary?.applied.bind(glossary) });
  if (opts.check) return check(ctx, needs.stale);
  const translated = await translate(ctx, opts, { plans, needs, params, concurrency, protect, glossary });
  if (ctx.http.dryRun) return;
  const merged = mergeTargets(plans, translated.result, protect, { state: opts.state, fuzzy: opts.fuzzy }, (m) => ctx.info(m), glossary?.missingFor.bind(glossary));
  if (ctx.signal.aborted) throw new InterruptedError();
  await commitFiles(merged.writes, ctx.signal).catch((e: unknown) => {
    // after the requests (exit 1, not 2: something was sent), and what became of the answers
    if (e instanceof OutputError) e.hint = `no target was written (each stays as it was); the translations were sent${translated.memory && translated.memoryFailure === undefined ? ' and are in the translation memory: a rerun sends none of them again' : ''}`;
    throw e;
  });
  for (const note of createdNotes(plans, merged.writes, translated.memoryCreated)) tellCreated(ctx, note);
  await report(ctx, plans, merged, needs, translated);
}

interface Planned extends FilesGlossaryRun {
  plans: SourcePlan[];
  needs: Needs;
  params: TranslateParams;
  concurrency: number;
  protect: ProtectOptions;
}

/** Sends what the plan needs with vx translate's pay-once settings, a bar per language at a terminal. */
async function translate(ctx: Ctx, opts: FilesOptions, { plans, needs, params, concurrency, protect, glossary }: Planned): Promise<FilesTranslated> {
  // a bar per language of --to (languages the service knows as one share their progress)
  const perLang = (m: ReadonlyMap<string, number>) => new Map(params.to.map((l) => [l, m.get(serviceLanguage(l)) ?? 0]));
  const bars = ctx.stderrIsTTY && !ctx.globals.debug && !ctx.http.dryRun && needs.items.size ? new LanguageBars(ctx.io.stderr, params.to, perLang(unitTotals(needs))) : undefined;
  // the pay-once settings of vx translate: a translation memory, the pace, a budget
  const settings = runSettings(ctx, opts);
  try {
    return await translateNeeds(needs, {
      http: ctx.http,
      config: ctx.config,
      env: ctx.env,
      warn: (m) => ctx.warn(m),
      debug: (m) => ctx.debug(m),
      params,
      // (from the language the sources name, when they agree and --from does not say)
      from: sourcesLanguage(plans, params.from),
      concurrency,
      settings,
      protect,
      glossary,
      signal: ctx.signal,
      progress: (done) => bars?.update(perLang(done)),
      mode: modeOfSources(plans.map((p) => p.path)),
    });
  } catch (e) {
    // --dry-run: the requests up to the budget's stop, then the stop, as the run would meet it
    if (e instanceof BudgetExceeded && ctx.http.planned.length) await ctx.writePlan();
    throw e;
  } finally {
    bars?.stop();
  }
}

/** What was written and what was not: the problems and replaced edits on stderr, the summary, then the run's failures. */
async function report(ctx: Ctx, plans: readonly SourcePlan[], merged: Merged, needs: Needs, translated: FilesTranslated): Promise<void> {
  const { problems, summaries } = merged;
  for (const m of problems) ctx.warn(m);
  for (const p of plans) {
    for (const l of p.langs) {
      if (l.byHand) ctx.warn(`${l.path}: ${fmt(l.byHand)} translation${l.byHand === 1 ? '' : 's'} not written by vx (edited by hand, or there before vx) ${l.byHand === 1 ? 'was' : 'were'} replaced by machine translation${l.byHand === 1 ? '' : 's'}; vx translate sync keeps them`);
    }
  }
  await ctx.print(summaries, {
    columns: [
      { header: 'source', get: 'source' },
      { header: 'language', get: 'language' },
      { header: 'target', get: 'target' },
      { header: 'translated', get: 'translated', align: 'right' },
      { header: 'unchanged', get: 'unchanged', align: 'right' },
      { header: 'kept', get: 'kept', align: 'right' },
      { header: 'untranslated', get: 'untranslated', align: 'right' },
      { header: 'removed', get: 'removed', align: 'right' },
    ],
  });
  if (ctx.globals.verbose) {
    // the summary comes last, after each request's line (told as it was answered)
    const { result } = translated;
    const billed = result.billed === undefined ? 'billed characters: not reported' : `billed characters: ${fmt(result.billed)}`;
    const sent = needs.items.size - result.memoryHits - result.tooLong.size;
    ctx.verbose(`sent ${fmt(sent)} distinct text${sent === 1 ? '' : 's'} in ${fmt(result.requests)} request${result.requests === 1 ? '' : 's'}; ${billed}${translated.memory ? `; memory hits: ${fmt(result.memoryHits)}${result.partialHits ? ` (and ${fmt(result.partialHits)} for some languages, sent for the others only)` : ''}` : ''}`);
  }
  const { memoryFailure } = translated;
  if (memoryFailure !== undefined) {
    if (memoryFailure instanceof VxError) memoryFailure.hint = 'the targets were written; the translations the memory could not store are sent again by the next run';
    throw memoryFailure;
  }
  if (problems.length) {
    throw new VxError(`${problems.length} unit${problems.length === 1 ? ' was' : 's were'} not translated (listed above); everything else was written`);
  }
}

/** sync --check: the units missing or stale, listed; exit 9 when there are any. */
async function check(ctx: Ctx, stale: readonly StaleUnit[]): Promise<void> {
  await ctx.print(stale, {
    columns: [
      { header: 'language', get: 'language' },
      { header: 'target', get: 'target' },
      { header: 'status', get: 'status' },
      { header: 'line', get: 'line', align: 'right' },
      { header: 'unit', get: 'unit' },
    ],
    empty: 'every unit is translated and current',
  });
  if (!stale.length) return;
  const per = new Map<string, number>();
  for (const s of stale) per.set(s.language, (per.get(s.language) ?? 0) + 1);
  const langs = [...per].map(([l, n]) => `${l}: ${n}`).join(', ');
  throw new ExitStatus(EXIT_CHECK, `${stale.length} unit${stale.length === 1 ? ' is' : 's are'} missing or stale (${langs}); run vx translate sync to translate them`);
}
