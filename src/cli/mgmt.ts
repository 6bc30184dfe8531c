// The `vx mgmt` tree: health events, quota (with the interactive wizard) and API version sets.
// Declarations only (loaded for every `vx --help`); every action loads mgmt-run.js or
// mgmt-wizard.js when it runs.
import { Command, Option } from 'commander';
import { registerHealthFleet, registerQuotaFleet } from './mgmt-fleet.js';
import { act, examples } from './runner.js';

const run = () => import('./mgmt-run.js');

const SCHEMES = ['Segment', 'Query', 'Header'];

function subscription(cmd: Command, uuid = false): Command {
  return cmd.option('--subscription <id>', `subscription id${uuid ? ' (a UUID)' : ''} (env VX_SUBSCRIPTION, profile mgmt.subscription)`);
}

function quotaScope(cmd: Command): Command {
  return subscription(cmd)
    .option('--provider <id>', 'resource provider id, e.g. Vendor.Compute (env VX_MGMT_PROVIDER, profile mgmt.provider)')
    .option('--location <loc>', 'location (region), e.g. eastus (env VX_MGMT_LOCATION, profile mgmt.location)');
}

function serviceScope(cmd: Command): Command {
  return subscription(cmd, true)
    .addOption(new Option('--resource-group <rg>', 'resource group of the API management service (1-90 characters)').makeOptionMandatory())
    .addOption(new Option('--service <name>', 'API management service name (1-50 letters, digits, hyphens)').makeOptionMandatory());
}

function versionSetFields(cmd: Command, required: boolean): Command {
  const name = new Option('--display-name <s>', 'display name (1-100 characters)');
  const scheme = new Option('--scheme <scheme>', 'where clients carry the version: Segment (path), Query (parameter), Header').choices(SCHEMES);
  if (required) {
    name.makeOptionMandatory();
    scheme.makeOptionMandatory();
  }
  return cmd
    .addOption(name)
    .addOption(scheme)
    .option('--description <s>', required ? 'description' : "description ('' removes it)")
    .option('--header-name <name>', 'the header carrying the version (needed with --scheme Header; 1-100 characters)')
    .option('--query-name <name>', 'the query parameter carrying the version (needed with --scheme Query; 1-100 characters)');
}

function registerHealth(mgmt: Command): void {
  const health = mgmt.command('health').description('service health events (api-version 2025-05-01)');
  const events = health.command('events').description('current service health events of a subscription or a resource');
  health.addHelpText('after', examples('vx mgmt health events list', 'vx mgmt health events details 9VS6-0W8'));
  events.addHelpText('after', examples('vx mgmt health events list --active --since 7d', 'vx mgmt health events details 9VS6-0W8 -o json'));
  subscription(
    events
      .command('list')
      .description('list health events (every page), highest priority first in a table')
      .option('--resource <resourceUri>', 'events of one resource: /subscriptions/<id>/resourceGroups/<g>/providers/<p>/<type>/<name>')
      .option('--filter <f>', "service's $filter, e.g. \"service eq 'Virtual Machines' or region eq 'East US'\"")
      .option('--since <date>', 'events updated at or after this date: YYYY-MM-DD, M/D/YYYY or 7d (default window: 3 days; subscription only)')
      .option('--active', 'only events whose status is Active')
      .option('--top <n>', 'at most n events in total'),
  )
    .addHelpText(
      'after',
      examples(
        'vx mgmt health events list',
        'vx mgmt health events list --active --since 7d',
        "vx mgmt health events list --filter \"service eq 'App Service'\" -o json",
        'vx mgmt health events list --resource "/subscriptions/$VX_SUBSCRIPTION/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-web-01"',
        "vx mgmt health events list --active --query \"[?properties.eventLevel=='Critical'].name\" -o tsv",
      ) +
        '\nTable columns: tracking id, title, type, level, status, impacted services and regions, start, last update\n(a narrower terminal drops start, regions, services and type, in that order).\n',
    )
    .action(act(async (ctx, opts) => (await run()).runEventsList(ctx, opts)));
  subscription(
    events
      .command('details')
      .argument('<trackingId>', 'the tracking id of the event (its name)')
      .description('the details of an event, including the summary and description of sensitive events'),
  )
    .addHelpText('after', examples('vx mgmt health events details 9VS6-0W8', 'vx mgmt health events details 9VS6-0W8 -o json'))
    .action(act(async (ctx, opts, id: string) => (await run()).runEventDetails(ctx, opts, id)));
  registerHealthFleet(health);
}

function registerQuota(mgmt: Command): void {
  const quota = mgmt.command('quota').description('quota (service limits) of a resource provider in a location (api-version 2020-10-25)');
  quota.addHelpText('after', examples('vx mgmt quota get standardDSv3Family --provider Vendor.Compute --location eastus', 'vx mgmt quota wizard'));
  quotaScope(quota.command('get').argument('<resourceName>', 'the quota resource name, e.g. standardDSv3Family').description('show the limit, usage, unit and period of a quota (and the percentage used)'))
    .addHelpText('after', examples('vx mgmt quota get standardDSv3Family --provider Vendor.Compute --location eastus', 'vx mgmt quota get cores --provider Vendor.Compute --location westeurope -o json'))
    .action(act(async (ctx, opts, name: string) => (await run()).runQuotaGet(ctx, opts, name)));
  quotaScope(
    quota
      .command('set')
      .argument('<resourceName>', 'the quota resource name')
      .description('request a new limit: reads the quota, PATCHes the limit and follows the request until it ends (asks first)'),
  )
    .option('--limit <n>', 'the new limit (a whole number from 0 to 2147483647)')
    .option('--no-wait', 'print the accepted request and exit without following it')
    .option('--poll-interval <seconds>', 'seconds between status reads when the service sends no Retry-After (default 10)')
    .addHelpText(
      'after',
      examples(
        'vx mgmt quota set standardDSv3Family --provider Vendor.Compute --location eastus --limit 200',
        'vx mgmt quota set cores --provider Vendor.Compute --location eastus --limit 64 --yes --no-wait',
      ) + '\nExit 1 when the request ends Failed or Invalid; follow an accepted request with `vx mgmt quota requests get <id>`.\n',
    )
    .action(act(async (ctx, opts, name: string) => (await run()).runQuotaSet(ctx, opts, name)));
  const requests = quota.command('requests').description('quota change requests and their state');
  requests.addHelpText(
    'after',
    examples('vx mgmt quota requests list --provider Vendor.Compute --location eastus', 'vx mgmt quota requests get <requestId> --provider Vendor.Compute --location eastus'),
  );
  quotaScope(requests.command('get').argument('<requestId>', 'the request id (the name in the accepted request)').description('show one quota request'))
    .addHelpText('after', examples('vx mgmt quota requests get <requestId> --provider Vendor.Compute --location eastus'))
    .action(act(async (ctx, opts, id: string) => (await run()).runRequestGet(ctx, opts, id)));
  quotaScope(requests.command('list').description('list quota requests (every page)'))
    .option('--filter <f>', "service's $filter on requestSubmitTime, e.g. \"requestSubmitTime ge 2025-07-01T00:00:00Z\"")
    .option('--top <n>', 'at most n requests ($top, also caps the total)')
    .addHelpText('after', examples('vx mgmt quota requests list --provider Vendor.Compute --location eastus --top 5'))
    .action(act(async (ctx, opts) => (await run()).runRequestList(ctx, opts)));
  quotaScope(quota.command('wizard').description('change a quota interactively: choose the resource, see limit and usage, enter the new limit, confirm, watch'))
    .option('--poll-interval <seconds>', 'seconds between status reads when the service sends no Retry-After (default 10)')
    .addHelpText(
      'after',
      examples('vx mgmt quota wizard', 'vx mgmt quota wizard --provider Vendor.Compute --location eastus') +
        '\nNeeds a terminal; in scripts use `vx mgmt quota set <resourceName> --provider <id> --location <loc> --limit <n> --yes`.\n',
    )
    .action(act(async (ctx, opts) => (await import('./mgmt-wizard.js')).runQuotaWizard(ctx, opts)));
  registerQuotaFleet(quota);
}

function registerVersionSets(mgmt: Command): void {
  const vs = mgmt.command('version-sets').alias('versionsets').description('API version sets of an API management service (api-version 2024-05-01)');
  const p = 'vx mgmt version-sets';
  const scope = '--resource-group web --service contoso-api';
  vs.addHelpText('after', examples(`${p} list ${scope}`, `${p} create tracking ${scope} --display-name Tracking --scheme Header --header-name Api-Version`));
  serviceScope(vs.command('list').description('list version sets (every page)'))
    .option('--filter <f>', "service's $filter, e.g. \"contains(displayName,'Orders')\"")
    .option('--top <n>', 'at most n version sets ($top, also caps the total)')
    .option('--skip <n>', 'skip the first n version sets ($skip)')
    .addHelpText('after', examples(`${p} list ${scope}`, `${p} list ${scope} --top 10 --skip 10 -o json`))
    .action(act(async (ctx, opts) => (await run()).runVsList(ctx, opts)));
  serviceScope(vs.command('get').argument('<versionSetId>', 'version set id (1-80 characters, none of * # & + : < > ?)').description('show one version set (--verbose shows its ETag)'))
    .addHelpText('after', examples(`${p} get orders ${scope}`))
    .action(act(async (ctx, opts, id: string) => (await run()).runVsGet(ctx, opts, id)));
  versionSetFields(serviceScope(vs.command('create').argument('<versionSetId>', 'version set id').description('create a version set (reads first: an existing one is exit 5, never replaced, unless --force)')), true)
    .option('--force', 'replace the version set when it exists (asks first; --yes without a terminal)')
    .addHelpText(
      'after',
      examples(`${p} create loyalty ${scope} --display-name Loyalty --scheme Segment`, `${p} create coupons ${scope} --display-name Coupons --scheme Query --query-name api-version`, `${p} create orders ${scope} --display-name Orders --scheme Segment --force --yes`),
    )
    .action(act(async (ctx, opts, id: string) => (await run()).runVsCreate(ctx, opts, id)));
  versionSetFields(
    serviceScope(vs.command('update').argument('<versionSetId>', 'version set id').description('change fields of a version set: reads it, merges the given fields, PUTs with If-Match')),
    false,
  )
    .option('--if-match <etag>', "change the version set only if it still has this ETag (the service answers 412, exit 5, when it changed); default: the ETag of the read")
    .addHelpText('after', examples(`${p} update orders ${scope} --description "Order API"`, `${p} update orders ${scope} --scheme Header --header-name Api-Version`))
    .action(act(async (ctx, opts, id: string) => (await run()).runVsUpdate(ctx, opts, id)));
  serviceScope(vs.command('delete').argument('<versionSetId>', 'version set id').description('delete a version set (asks first; --yes without a terminal)'))
    .option('--if-match <etag>', "the ETag it must still have (default: the ETag of a fresh read; '*' for any)")
    .addHelpText('after', examples(`${p} delete orders ${scope}`, `${p} delete orders ${scope} --yes --if-match '*'`))
    .action(act(async (ctx, opts, id: string) => (await run()).runVsDelete(ctx, opts, id)));
}

export function registerMgmt(program: Command): void {
  const mgmt = program.command('mgmt').description('resource management: service health events, quotas (with an interactive wizard), API version sets');
  mgmt.addHelpText(
    'after',
    examples('vx mgmt health events list --active', 'vx mgmt quota get cores --provider Vendor.Compute --location eastus', 'vx mgmt quota wizard', 'vx mgmt version-sets list --resource-group web --service contoso-api'),
  );
  registerHealth(mgmt);
  registerQuota(mgmt);
  registerVersionSets(mgmt);
}
