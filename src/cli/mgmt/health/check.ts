// `vx mgmt health check`: one line and a monitoring-plugin exit code.
import { MgmtClient, resolveSubscription } from '../../../api/mgmt/client.js';
import { eventsUrl } from '../../../api/mgmt/health.js';
import { checkResourceAndSubscription } from '../../../api/mgmt/validate.js';
import { DEFAULT_CRITICAL, DEFAULT_WARN, gradeEvents, parseTypes, PLUGIN, summaryLine, trackingId, type HealthGrade } from '../../../api/mgmt/watch.js';
import { currentEvents } from '../../../api/mgmt/watch-loop.js';
import type { Ctx } from '../../../core/context.js';
import { asVxError, ExitStatus } from '../../../core/errors.js';
import type { HealthCheckOpts } from './options.js';

/** The grade of the active events; undefined in --dry-run (the request is planned). */
async function grade(ctx: Ctx, opts: HealthCheckOpts): Promise<HealthGrade | undefined> {
  const critical = parseTypes(opts.critical, '--critical') ?? DEFAULT_CRITICAL;
  const warn = (parseTypes(opts.warn, '--warn') ?? DEFAULT_WARN).filter((t) => !critical.includes(t));
  const resource = checkResourceAndSubscription(opts.resource, opts.subscription);
  const subscription = resource ? undefined : resolveSubscription(ctx.config, opts.subscription);
  const c = await MgmtClient.open(ctx.http, ctx.config);
  if (c.dryRun) {
    c.plan({ method: 'GET', url: eventsUrl(c, subscription, { resource }) });
    return undefined;
  }
  return gradeEvents(await currentEvents(c, { subscription, resource }, undefined), critical, warn);
}

export async function run(ctx: Ctx, opts: HealthCheckOpts): Promise<void> {
  const f = ctx.explicitFormat();
  // the record instead of the plugin line: asked for by format, or by a --query to apply to it
  const asData = Boolean(ctx.globals.query) || f === 'json' || f === 'yaml' || f === 'ndjson';
  let g: HealthGrade | undefined;
  try {
    g = await grade(ctx, opts);
    if (!g) return;
  } catch (e) {
    const err = asVxError(e);
    if (err.exitCode === 130) throw e;
    // the plugin's UNKNOWN: the service could not be asked (or the question was wrong)
    const error = err.message.replace(/\s+/g, ' ');
    const line = `HEALTH UNKNOWN - ${error}`;
    // -o json stays JSON: a monitor that parses stdout gets the same shape for every outcome
    if (asData) await ctx.print({ status: 'UNKNOWN', code: PLUGIN.unknown, summary: line, critical: [], warning: [], active: null, error });
    else await ctx.write(`${line}\n`);
    throw new ExitStatus(PLUGIN.unknown);
  }
  const line = summaryLine(g);
  if (asData) {
    await ctx.print({ status: g.status, code: g.code, summary: line, critical: g.critical.map(trackingId), warning: g.warning.map(trackingId), active: g.active });
  } else await ctx.write(`${line}\n`);
  if (g.code) throw new ExitStatus(g.code);
}
