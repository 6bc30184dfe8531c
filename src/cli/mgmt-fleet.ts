// Declarations of the fleet commands of `vx mgmt` (quota list, report, check, apply; health watch,
// check). Declarations only: every action loads mgmt-fleet-run.js when it runs.
import { command, opt, type OptionsOf } from './define.js';

const run = () => import('./mgmt-fleet-run.js');

const SUBSCRIPTIONS = 'subscription id; repeat or comma-separate for several (default: env VX_SUBSCRIPTION, profile mgmt.subscription)';
const LOCATIONS = 'location(s); repeat or comma-separate, e.g. eastus,westeurope (default: env VX_MGMT_LOCATION, profile mgmt.location)';
const PROVIDER = 'resource provider id, e.g. Vendor.Compute (env VX_MGMT_PROVIDER, profile mgmt.provider)';
const CONCURRENCY = 'requests at a time, 1-64 (default 8); 429 answers slow the whole run down';
const SUBSCRIPTION = opt('--subscription <id>', 'subscription id (env VX_SUBSCRIPTION, profile mgmt.subscription)');

const FLEET_SCOPE = [
  opt('--subscription <id>', SUBSCRIPTIONS, { repeat: true }),
  opt('--provider <id>', PROVIDER),
  opt('--location <loc>', LOCATIONS, { repeat: true }),
  opt('--concurrency <n>', CONCURRENCY),
] as const;

const LIST = [
  SUBSCRIPTION,
  opt('--provider <id>', PROVIDER),
  opt('--location <loc>', 'location (region), e.g. eastus (env VX_MGMT_LOCATION, profile mgmt.location)'),
  opt('--filter <f>', "service's $filter, e.g. \"currentValue gt 0\""),
  opt('--top <n>', 'at most n quotas in total (the service has no $top here: vx stops reading pages)'),
] as const;
const REPORT = [
  ...FLEET_SCOPE,
  opt('--name <quota>', 'only these quotas (repeat or comma-separate); needed for providers that cannot list their quotas', { repeat: true }),
  opt('--min-headroom <n|n%>', 'only rows with less free than this: units (20) or a share of the limit (10%)'),
] as const;
const CHECK = [...FLEET_SCOPE, opt('--need <quota=n[@location]>', 'what the deployment needs, e.g. cores=64 or cores=64@westus2 (repeatable; without @ in every --location)', { repeat: true })] as const;
// apply takes one subscription and one location, the defaults of the manifest's entries (the run
// refuses more: the others belong in the entries); repeatable only to share FLEET_SCOPE's types
const APPLY = [
  opt('--subscription <id>', "subscription of the entries that name none (one; env VX_SUBSCRIPTION, profile mgmt.subscription)", { repeat: true }),
  opt('--provider <id>', PROVIDER),
  opt('--location <loc>', "location of the entries that name none (one; env VX_MGMT_LOCATION, profile mgmt.location)", { repeat: true }),
  opt('--concurrency <n>', CONCURRENCY),
  opt('-f, --file <path|->', 'the manifest: a list of {subscription, provider, location, name, limit, allowDecrease} (- reads stdin)'),
  opt('--poll-interval <seconds>', 'seconds between status reads when the service sends no Retry-After (default 10)'),
  opt('--wait-timeout <seconds>', 'give up following a request after this long, printing how to follow it (default 1800)'),
] as const;
const WATCH = [
  SUBSCRIPTION,
  opt('--resource <resourceUri>', 'events of one resource: /subscriptions/<id>/resourceGroups/<g>/providers/<p>/<type>/<name>'),
  opt('--type <types>', 'only these event types, e.g. ServiceIssue,PlannedMaintenance (repeatable)', { repeat: true }),
  opt('--interval <seconds>', 'seconds between polls, 1-86400 (default 60)'),
  opt('--state <file>', 'remember reported events in this file across runs (so --once from cron reports only news)'),
  opt('--exec <command>', 'run this shell command per new or changed event: the event as JSON on stdin, VX_EVENT_ID, VX_EVENT_TYPE, VX_EVENT_CHANGE, VX_EVENT_STATUS, VX_EVENT_LEVEL in its environment'),
  opt('--once', 'poll once and exit'),
] as const;
const HEALTH_CHECK = [
  SUBSCRIPTION,
  opt('--resource <resourceUri>', 'events of one resource instead of the subscription'),
  opt('--warn <types>', 'active events of these types are a warning (default PlannedMaintenance,HealthAdvisory,EmergingIssues)', { repeat: true }),
  opt('--critical <types>', 'active events of these types are critical (default ServiceIssue,SecurityAdvisory)', { repeat: true }),
] as const;

export type QuotaListOpts = OptionsOf<typeof LIST>;
export type ReportOpts = OptionsOf<typeof REPORT>;
export type CheckNeedOpts = OptionsOf<typeof CHECK>;
export type ApplyOpts = OptionsOf<typeof APPLY>;
export type WatchOpts = OptionsOf<typeof WATCH>;
export type HealthCheckOpts = OptionsOf<typeof HEALTH_CHECK>;

/** after `quota wizard` */
export const QUOTA_FLEET = [
  command({
    name: 'list',
    summary: 'list every quota of a provider in a location (all pages) with limit, usage, percent used and unit',
    options: LIST,
    examples: ['vx mgmt quota list --provider Vendor.Compute --location eastus', "vx mgmt quota list --provider Vendor.Compute --location eastus --query '[?properties.currentValue > `0`].name' -o tsv"],
    run: async (ctx, opts) => (await run()).runQuotaList(ctx, opts),
  }),
  command({
    name: 'report',
    summary: 'one row per subscription x location x quota with limit, usage, headroom and percent used, least headroom first',
    options: REPORT,
    examples: [
      'vx mgmt quota report --provider Vendor.Compute --location eastus,westeurope,westus2,northeurope',
      `vx mgmt quota report --provider Vendor.Compute --location eastus,westus2 --subscription $VX_SUBSCRIPTION,b2c4e6f8-1a3c-4e5f-9a7b-2c4d6e8f0a11 --min-headroom 10%`,
      'vx mgmt quota report --provider Vendor.Compute --location eastus --name cores,standardDSv3Family -o json',
    ],
    more: "\nA location or quota that cannot be read is a row with its error; the exit code is then that\nfailure's (1 when they differ), after the whole report is printed.\n",
    run: async (ctx, opts) => (await run()).runQuotaReport(ctx, opts),
  }),
  command({
    name: 'check',
    summary: 'exit 0 when every need fits under limit - usage, 9 when any is short (made for CI before a deployment)',
    options: CHECK,
    examples: ['vx mgmt quota check --provider Vendor.Compute --location eastus,westeurope --need cores=16', 'vx mgmt quota check --provider Vendor.Compute --need cores=32@westus2 --need standardDSv3Family=4@westus2'],
    more: '\nExit codes: 0 every need fits; 9 at least one is short (stderr says by how much and the\n`vx mgmt quota set` command that makes room); the usual codes when a quota cannot be read.\n',
    run: async (ctx, opts) => (await run()).runQuotaCheck(ctx, opts),
  }),
  command({
    name: 'apply',
    summary: 'raise limits to a manifest (YAML or JSON): plan, confirm, submit concurrently, follow every request to its end',
    options: APPLY,
    examples: ['vx mgmt quota apply -f <manifest> --dry-run', 'vx mgmt quota apply -f <manifest> --yes', 'cat <manifest> | vx mgmt quota apply -f - --yes -o ndjson'],
    more: '\nA limit is never lowered unless its entry (or the manifest) says allowDecrease: true. Each\nquota is PATCHed at most once per run; a rerun submits only what is still short. Exit 0 only\nwhen every change succeeded. Manifest format: docs/mgmt.md.\n',
    run: async (ctx, opts) => (await run()).runQuotaApply(ctx, opts),
  }),
];

/** after `health events` */
export const HEALTH_FLEET = [
  command({
    name: 'watch',
    summary: 'poll health events and print each new event and each change once; remembers what it saw in --state',
    options: WATCH,
    examples: ['vx mgmt health watch --once', 'vx mgmt health watch --type ServiceIssue,PlannedMaintenance --interval 120 --state <file>', 'vx mgmt health watch --once --state <file> --exec ./notify.sh'],
    more: '\nAt a terminal one line per event; otherwise one JSON line {change, trackingId, previous, event}.\nBacks off under 429/5xx; Ctrl-C exits 130 and SIGTERM 143, the state saved.\n',
    run: async (ctx, opts) => (await run()).runHealthWatch(ctx, opts),
  }),
  command({
    name: 'check',
    summary: 'one summary line and a monitoring-plugin exit code: 0 OK, 1 warning, 2 critical, 3 unknown',
    options: HEALTH_CHECK,
    examples: ['vx mgmt health check', 'vx mgmt health check --critical ServiceIssue --warn PlannedMaintenance,SecurityAdvisory'],
    more: "\nExit codes follow the monitoring-plugin convention (Nagios, Icinga, Sensu), not vx's usual ones:\n0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (the service could not be asked; the line says why).\n",
    run: async (ctx, opts) => (await run()).runHealthCheck(ctx, opts),
  }),
];
