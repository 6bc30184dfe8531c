// Declarations of the fleet commands of `vx mgmt` (quota list, report, check, apply; health watch,
// check). Declarations only: every action loads mgmt-fleet-run.js when it runs.
import type { Command } from 'commander';
import { act, collect, examples } from './runner.js';

const run = () => import('./mgmt-fleet-run.js');

const SUBSCRIPTIONS = 'subscription id; repeat or comma-separate for several (default: env VX_SUBSCRIPTION, profile mgmt.subscription)';
const LOCATIONS = 'location(s); repeat or comma-separate, e.g. eastus,westeurope (default: env VX_MGMT_LOCATION, profile mgmt.location)';
const PROVIDER = 'resource provider id, e.g. Vendor.Compute (env VX_MGMT_PROVIDER, profile mgmt.provider)';
const CONCURRENCY = 'requests at a time, 1-64 (default 8); 429 answers slow the whole run down';

function fleetScope(cmd: Command): Command {
  return cmd
    .option('--subscription <id>', SUBSCRIPTIONS, collect)
    .option('--provider <id>', PROVIDER)
    .option('--location <loc>', LOCATIONS, collect)
    .option('--concurrency <n>', CONCURRENCY);
}

export function registerQuotaFleet(quota: Command): void {
  quota
    .command('list')
    .description('list every quota of a provider in a location (all pages) with limit, usage, percent used and unit')
    .option('--subscription <id>', 'subscription id (env VX_SUBSCRIPTION, profile mgmt.subscription)')
    .option('--provider <id>', PROVIDER)
    .option('--location <loc>', 'location (region), e.g. eastus (env VX_MGMT_LOCATION, profile mgmt.location)')
    .option('--filter <f>', "service's $filter, e.g. \"currentValue gt 0\"")
    .addHelpText(
      'after',
      examples('vx mgmt quota list --provider Vendor.Compute --location eastus', "vx mgmt quota list --provider Vendor.Compute --location eastus --query '[?properties.currentValue > `0`].name' -o tsv"),
    )
    .action(act(async (ctx, opts) => (await run()).runQuotaList(ctx, opts)));

  fleetScope(quota.command('report').description('one row per subscription x location x quota with limit, usage, headroom and percent used, least headroom first'))
    .option('--name <quota>', 'only these quotas (repeat or comma-separate); needed for providers that cannot list their quotas', collect)
    .option('--min-headroom <n|n%>', 'only rows with less free than this: units (20) or a share of the limit (10%)')
    .addHelpText(
      'after',
      examples(
        'vx mgmt quota report --provider Vendor.Compute --location eastus,westeurope,westus2,northeurope',
        `vx mgmt quota report --provider Vendor.Compute --location eastus,westus2 --subscription $VX_SUBSCRIPTION,b2c4e6f8-1a3c-4e5f-9a7b-2c4d6e8f0a11 --min-headroom 10%`,
        'vx mgmt quota report --provider Vendor.Compute --location eastus --name cores,standardDSv3Family -o json',
      ) +
        '\nA location or quota that cannot be read is a row with its error; the exit code is then that\nfailure\'s (1 when they differ), after the whole report is printed.\n',
    )
    .action(act(async (ctx, opts) => (await run()).runQuotaReport(ctx, opts)));

  fleetScope(quota.command('check').description('exit 0 when every need fits under limit - usage, 9 when any is short (made for CI before a deployment)'))
    .option('--need <quota=n[@location]>', 'what the deployment needs, e.g. cores=64 or cores=64@westus2 (repeatable; without @ in every --location)', collect)
    .addHelpText(
      'after',
      examples(
        'vx mgmt quota check --provider Vendor.Compute --location eastus,westeurope --need cores=16',
        'vx mgmt quota check --provider Vendor.Compute --need cores=32@westus2 --need standardDSv3Family=4@westus2',
      ) +
        '\nExit codes: 0 every need fits; 9 at least one is short (stderr says by how much and the\n`vx mgmt quota set` command that makes room); the usual codes when a quota cannot be read.\n',
    )
    .action(act(async (ctx, opts) => (await run()).runQuotaCheck(ctx, opts)));

  fleetScope(quota.command('apply').description('raise limits to a manifest (YAML or JSON): plan, confirm, submit concurrently, follow every request to its end'))
    .option('-f, --file <path|->', 'the manifest: a list of {subscription, provider, location, name, limit, allowDecrease} (- reads stdin)')
    .option('--poll-interval <seconds>', 'seconds between status reads when the service sends no Retry-After (default 10)')
    .addHelpText(
      'after',
      examples('vx mgmt quota apply -f <manifest> --dry-run', 'vx mgmt quota apply -f <manifest> --yes', 'cat <manifest> | vx mgmt quota apply -f - --yes -o ndjson') +
        '\nA limit is never lowered unless its entry (or the manifest) says allowDecrease: true. Each\nquota is PATCHed at most once per run; a rerun submits only what is still short. Exit 0 only\nwhen every change succeeded. Manifest format: docs/mgmt.md.\n',
    )
    .action(act(async (ctx, opts) => (await run()).runQuotaApply(ctx, opts)));
}

export function registerHealthFleet(health: Command): void {
  health
    .command('watch')
    .description('poll health events and print each new event and each change once; remembers what it saw in --state')
    .option('--subscription <id>', 'subscription id (env VX_SUBSCRIPTION, profile mgmt.subscription)')
    .option('--resource <resourceUri>', 'events of one resource: /subscriptions/<id>/resourceGroups/<g>/providers/<p>/<type>/<name>')
    .option('--type <types>', 'only these event types, e.g. ServiceIssue,PlannedMaintenance (repeatable)', collect)
    .option('--interval <seconds>', 'seconds between polls, 1-86400 (default 60)')
    .option('--state <file>', 'remember reported events in this file across runs (so --once from cron reports only news)')
    .option('--exec <command>', 'run this shell command per new or changed event: the event as JSON on stdin, VX_EVENT_ID, VX_EVENT_TYPE, VX_EVENT_CHANGE, VX_EVENT_STATUS, VX_EVENT_LEVEL in its environment')
    .option('--once', 'poll once and exit')
    .addHelpText(
      'after',
      examples(
        'vx mgmt health watch --once',
        'vx mgmt health watch --type ServiceIssue,PlannedMaintenance --interval 120 --state <file>',
        'vx mgmt health watch --once --state <file> --exec ./notify.sh',
      ) +
        '\nAt a terminal one line per event; otherwise one JSON line {change, trackingId, previous, event}.\nBacks off under 429/5xx; Ctrl-C exits 130 and SIGTERM 143, the state saved.\n',
    )
    .action(act(async (ctx, opts) => (await run()).runHealthWatch(ctx, opts)));

  health
    .command('check')
    .description('one summary line and a monitoring-plugin exit code: 0 OK, 1 warning, 2 critical, 3 unknown')
    .option('--subscription <id>', 'subscription id (env VX_SUBSCRIPTION, profile mgmt.subscription)')
    .option('--resource <resourceUri>', 'events of one resource instead of the subscription')
    .option('--warn <types>', 'active events of these types are a warning (default PlannedMaintenance,HealthAdvisory,EmergingIssues)', collect)
    .option('--critical <types>', 'active events of these types are critical (default ServiceIssue,SecurityAdvisory)', collect)
    .addHelpText(
      'after',
      examples('vx mgmt health check', 'vx mgmt health check --critical ServiceIssue --warn PlannedMaintenance,SecurityAdvisory') +
        '\nExit codes follow the monitoring-plugin convention (Nagios, Icinga, Sensu), not vx\'s usual ones:\n0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (the service could not be asked; the line says why).\n',
    )
    .action(act(async (ctx, opts) => (await run()).runHealthCheck(ctx, opts)));
}
