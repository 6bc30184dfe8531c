// `vx mgmt quota apply -f <manifest>`: plan, confirm, submit concurrently, follow every request.
import { applyExit, isChange, makePlan, markPending, notApplicable, planExit } from '../../../api/mgmt/apply.js';
import { MgmtClient } from '../../../api/mgmt/client.js';
import { listValues } from '../../../api/mgmt/fleet.js';
import { checkManifest, parseManifestText, type ManifestEntry } from '../../../api/mgmt/manifest.js';
import type { Ctx } from '../../../core/context.js';
import { UsageError, type ExitStatus } from '../../../core/errors.js';
import { Http } from '../../../core/http/index.js';
import { readAllStdin, readTextFile } from '../../../core/input.js';
import { Pacer } from '../../../core/pacer.js';
import { pollInterval } from '../../poll.js';
import { submitChanges, type SubmitOptions } from './apply-submit.js';
import { ApplyView, planRow } from './apply-view.js';
import { concurrencyOf } from './fleet.js';
import type { ApplyOpts } from './options.js';
import { waitTimeout } from './scope.js';

async function readManifest(ctx: Ctx, file: string | undefined): Promise<{ text: string; source: string }> {
  if (file === undefined) throw new UsageError('give the manifest with -f <quotas.yaml|quotas.json|->; nothing was sent');
  if (file === '-') return { text: await readAllStdin(ctx.io.stdin), source: 'from standard input' };
  return { text: await readTextFile(file), source: file };
}

/** The manifest's entries, the flags and the profile filling in what an entry does not name. */
async function manifestEntries(ctx: Ctx, opts: ApplyOpts): Promise<ManifestEntry[]> {
  const subs = listValues(opts.subscription);
  const locs = listValues(opts.location);
  if (subs.length > 1 || locs.length > 1) throw new UsageError('quota apply takes one --subscription and one --location as defaults for the manifest; put the others in its entries; nothing was sent');
  const { text, source } = await readManifest(ctx, opts.file);
  return checkManifest(await parseManifestText(text, source), source, {
    subscription: subs[0] ?? (ctx.config.get('mgmt.subscription') || undefined),
    provider: opts.provider ?? (ctx.config.get('mgmt.provider') || undefined),
    location: locs[0] ?? (ctx.config.get('mgmt.location') || undefined),
  });
}

type Mode = 'run' | 'plan' | 'dry-run';

export async function run(ctx: Ctx, opts: ApplyOpts): Promise<void> {
  const dryRun = ctx.http.dryRun;
  if (opts.plan && dryRun) throw new UsageError('--plan prints the plan and changes nothing; --dry-run prints the requests a run would send; give one of them; nothing was sent');
  const concurrency = concurrencyOf(ctx, opts.concurrency);
  const intervalSeconds = pollInterval(opts.pollInterval);
  const timeoutSeconds = waitTimeout(opts.waitTimeout);
  const entries = await manifestEntries(ctx, opts);
  const mode: Mode = opts.plan ? 'plan' : dryRun ? 'dry-run' : 'run';
  // without a terminal the question cannot be asked: refuse before the reads, so exit 2 sends nothing
  if (mode === 'run') ctx.confirmation().early('Apply the quota manifest?');
  // --dry-run reads the current limits (GETs only) to plan the PATCHes; nothing is written
  const http = dryRun ? new Http({ ...ctx.http.opts, dryRun: false }) : ctx.http;
  let unapplicable: ExitStatus | undefined;
  try {
    const c = await MgmtClient.open(http, ctx.config);
    c.pacer = new Pacer();
    unapplicable = await applyWith(ctx, c, entries, { concurrency, intervalSeconds, timeoutSeconds, mode });
  } finally {
    if (http !== ctx.http) await http.close();
  }
  if (mode === 'dry-run') {
    // the PATCHes planned on the reading client are the output of --dry-run, as every command's:
    // one JSON array (empty when nothing would change), also when some entries cannot be applied
    ctx.http.planned.push(...http.planned.splice(0));
    await ctx.writePlan();
    ctx.http.planned.length = 0;
  }
  if (unapplicable) throw unapplicable;
}

/** Plans, then shows (--plan, --dry-run) or submits; returns the exit of a --dry-run whose manifest has entries that cannot be applied. */
async function applyWith(ctx: Ctx, c: MgmtClient, entries: ManifestEntry[], o: SubmitOptions & { mode: Mode }): Promise<ExitStatus | undefined> {
  const view = new ApplyView(ctx, entries);
  const plan = await makePlan(c, entries, { concurrency: o.concurrency, signal: ctx.signal });
  // a request still running from an earlier (interrupted) run is followed, never submitted twice
  await markPending(c, plan, {
    concurrency: o.concurrency,
    signal: ctx.signal,
    onListFailure: (s, e) => ctx.warn(`cannot list the running quota requests of ${s.provider} in ${s.location} (${e.message}); its changes are submitted as planned`),
  });
  if (o.mode === 'plan') {
    await view.showPlan(c, plan, entries.length);
    return undefined;
  }
  if (o.mode === 'dry-run') return view.dryRun(c, plan, entries.length);
  await view.plan(plan);
  const changes = plan.filter(isChange);
  if (!changes.length) {
    if (!view.stream) await ctx.print(plan.map(planRow), { columns: view.columns(false) });
    if (notApplicable(plan).length) throw planExit(plan);
    ctx.info(`nothing to change: every limit of the manifest is already in place (${entries.length} quota${entries.length === 1 ? '' : 's'})`);
    return undefined;
  }
  const toSubmit = changes.filter((p) => !p.pending).length;
  if (toSubmit) await ctx.confirmation().ask(`Submit ${toSubmit} quota change${toSubmit > 1 ? 's' : ''}?`);
  const statuses = await submitChanges(ctx, c, view, plan, o);
  const exit = applyExit(statuses, plan);
  if (exit) throw exit;
  if (ctx.stderrIsTTY) ctx.info(`all ${statuses.length} quota changes succeeded`);
  return undefined;
}
