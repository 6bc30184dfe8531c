// The `vx mgmt` tree: health events, quota (with the interactive wizard) and API version sets.
// Declarations only (loaded for every `vx --help`); every action loads mgmt-run.js or
// mgmt-wizard.js when it runs.
import { arg, command, group, opt, type OptionsOf } from './define.js';
import { HEALTH_FLEET, QUOTA_FLEET } from './mgmt-fleet.js';

const run = () => import('./mgmt-run.js');

const SCHEMES = ['Segment', 'Query', 'Header'] as const;

const subscription = (uuid = false) => opt('--subscription <id>', `subscription id${uuid ? ' (a UUID)' : ''} (env VX_SUBSCRIPTION, profile mgmt.subscription)`);
const SUBSCRIPTION = [subscription()] as const;

const QUOTA_SCOPE = [
  subscription(),
  opt('--provider <id>', 'resource provider id, e.g. Vendor.Compute (env VX_MGMT_PROVIDER, profile mgmt.provider)'),
  opt('--location <loc>', 'location (region), e.g. eastus (env VX_MGMT_LOCATION, profile mgmt.location)'),
] as const;

const SERVICE_SCOPE = [
  subscription(true),
  opt('-g, --resource-group <rg>', 'resource group of the API management service (1-90 characters)', { required: true }),
  opt('--service <name>', 'API management service name (1-50 letters, digits, hyphens)', { required: true }),
] as const;

const pollInterval = opt('--poll-interval <seconds>', 'seconds between status reads when the service sends no Retry-After (default 10)');
const waitTimeout = opt('--wait-timeout <seconds>', 'give up following the request after this long, printing how to follow it (default 1800)');

const EVENTS_LIST = [
  opt('--resource <resourceUri>', 'events of one resource: /subscriptions/<id>/resourceGroups/<g>/providers/<p>/<type>/<name>'),
  opt('--filter <f>', "service's $filter, e.g. \"service eq 'Virtual Machines' or region eq 'East US'\""),
  opt('--since <date>', 'events updated at or after this date: YYYY-MM-DD, M/D/YYYY or 7d (default window: 3 days; subscription only)'),
  opt('--active', 'only events whose status is Active'),
  opt('--top <n>', 'at most n events in total'),
  ...SUBSCRIPTION,
] as const;

const QUOTA_SET = [
  ...QUOTA_SCOPE,
  opt('--limit <n>', 'the new limit (a whole number from 0 to 2147483647)'),
  opt('--no-wait', 'print the accepted request and exit without following it'),
  pollInterval,
  waitTimeout,
] as const;

const REQUESTS_LIST = [
  ...QUOTA_SCOPE,
  opt('--filter <f>', "service's $filter on requestSubmitTime, e.g. \"requestSubmitTime ge 2025-07-01T00:00:00Z\""),
  opt('--top <n>', 'at most n requests ($top, also caps the total)'),
] as const;

const WIZARD = [
  ...QUOTA_SCOPE,
  opt('--name <resourceName>', 'the quota resource name (skips choosing it)'),
  opt('--limit <n>', 'the new limit (skips asking for it)'),
  pollInterval,
  waitTimeout,
] as const;

const VS_LIST = [
  ...SERVICE_SCOPE,
  opt('--filter <f>', "service's $filter, e.g. \"contains(displayName,'Orders')\""),
  opt('--top <n>', 'at most n version sets ($top, also caps the total)'),
  opt('--skip <n>', 'skip the first n version sets ($skip)'),
] as const;

const fieldsTail = (required: boolean) =>
  [
    opt('--description <s>', required ? 'description' : "description ('' removes it)"),
    opt('--header-name <name>', 'the header carrying the version (needed with --scheme Header; 1-100 characters)'),
    opt('--query-name <name>', 'the query parameter carrying the version (needed with --scheme Query; 1-100 characters)'),
  ] as const;
const schemeHelp = 'where clients carry the version: Segment (path), Query (parameter), Header';

const VS_CREATE = [
  ...SERVICE_SCOPE,
  opt('--display-name <s>', 'display name (1-100 characters)', { required: true }),
  opt('--scheme <scheme>', schemeHelp, { choices: SCHEMES, required: true }),
  ...fieldsTail(true),
  opt('--force', 'replace the version set when it exists (asks first; --yes without a terminal)'),
] as const;

const VS_UPDATE = [
  ...SERVICE_SCOPE,
  opt('--display-name <s>', 'display name (1-100 characters)'),
  opt('--scheme <scheme>', schemeHelp, { choices: SCHEMES }),
  ...fieldsTail(false),
  opt('--if-match <etag>', 'change the version set only if it still has this ETag (the service answers 412, exit 5, when it changed); default: the ETag of the read'),
] as const;

const VS_DELETE = [...SERVICE_SCOPE, opt('--if-match <etag>', "the ETag it must still have (default: the ETag of a fresh read; '*' for any)")] as const;

export type SubOpts = OptionsOf<typeof SUBSCRIPTION>;
export type EventsListOpts = OptionsOf<typeof EVENTS_LIST>;
export type QuotaOpts = OptionsOf<typeof QUOTA_SCOPE>;
export type QuotaSetOpts = OptionsOf<typeof QUOTA_SET>;
export type RequestsListOpts = OptionsOf<typeof REQUESTS_LIST>;
export type WizardOpts = OptionsOf<typeof WIZARD>;
export type ServiceOpts = OptionsOf<typeof SERVICE_SCOPE>;
export type VsListOpts = OptionsOf<typeof VS_LIST>;
export type VsCreateOpts = OptionsOf<typeof VS_CREATE>;
export type VsUpdateOpts = OptionsOf<typeof VS_UPDATE>;
export type VsDeleteOpts = OptionsOf<typeof VS_DELETE>;

const HEALTH = group({
  name: 'health',
  summary: 'service health events (api-version 2025-05-01)',
  examples: ['vx mgmt health events list', 'vx mgmt health events details 9VS6-0W8'],
  commands: () => [
    group({
      name: 'events',
      summary: 'current service health events of a subscription or a resource',
      examples: ['vx mgmt health events list --active --since 7d', 'vx mgmt health events details 9VS6-0W8 -o json'],
      commands: () => [
        command({
          name: 'list',
          summary: 'list health events (every page), highest priority first in a table',
          options: EVENTS_LIST,
          examples: [
            'vx mgmt health events list',
            'vx mgmt health events list --active --since 7d',
            "vx mgmt health events list --filter \"service eq 'App Service'\" -o json",
            'vx mgmt health events list --resource "/subscriptions/$VX_SUBSCRIPTION/resourceGroups/web/providers/Vendor.Compute/virtualMachines/vm-web-01"',
            "vx mgmt health events list --active --query \"[?properties.eventLevel=='Critical'].name\" -o tsv",
          ],
          more: '\nTable columns: tracking id, title, type, level, status, impacted services and regions, start, last update\n(a narrower terminal drops start, regions, services and type, in that order).\n',
          run: async (ctx, opts) => (await run()).runEventsList(ctx, opts),
        }),
        command({
          name: 'details',
          summary: 'the details of an event, including the summary and description of sensitive events',
          args: [arg('<trackingId>', 'the tracking id of the event (its name)')],
          options: SUBSCRIPTION,
          examples: ['vx mgmt health events details 9VS6-0W8', 'vx mgmt health events details 9VS6-0W8 -o json'],
          run: async (ctx, opts, id) => (await run()).runEventDetails(ctx, opts, id),
        }),
      ],
    }),
    ...HEALTH_FLEET,
  ],
});

const QUOTA = group({
  name: 'quota',
  summary: 'quota (service limits) of a resource provider in a location (api-version 2020-10-25)',
  examples: ['vx mgmt quota get standardDSv3Family --provider Vendor.Compute --location eastus', 'vx mgmt quota wizard'],
  commands: () => [
    command({
      name: 'get',
      summary: 'show the limit, usage, unit and period of a quota (and the percentage used)',
      args: [arg('<resourceName>', 'the quota resource name, e.g. standardDSv3Family')],
      options: QUOTA_SCOPE,
      examples: ['vx mgmt quota get standardDSv3Family --provider Vendor.Compute --location eastus', 'vx mgmt quota get cores --provider Vendor.Compute --location westeurope -o json'],
      run: async (ctx, opts, name) => (await run()).runQuotaGet(ctx, opts, name),
    }),
    command({
      name: 'set',
      summary: 'request a new limit: reads the quota, PATCHes the limit and follows the request until it ends (asks first)',
      args: [arg('<resourceName>', 'the quota resource name')],
      options: QUOTA_SET,
      examples: [
        'vx mgmt quota set standardDSv3Family --provider Vendor.Compute --location eastus --limit 200',
        'vx mgmt quota set cores --provider Vendor.Compute --location eastus --limit 64 --yes --no-wait',
      ],
      more: '\nA request of this quota still running for the same limit is followed, not submitted again (another limit: exit 5).\nExit 1 when the request ends Failed or Invalid; follow an accepted request with `vx mgmt quota requests get <id>`.\n',
      run: async (ctx, opts, name) => (await run()).runQuotaSet(ctx, opts, name),
    }),
    group({
      name: 'requests',
      summary: 'quota change requests and their state',
      examples: ['vx mgmt quota requests list --provider Vendor.Compute --location eastus', 'vx mgmt quota requests get <requestId> --provider Vendor.Compute --location eastus'],
      commands: () => [
        command({
          name: 'get',
          summary: 'show one quota request',
          args: [arg('<requestId>', 'the request id (the name in the accepted request; its full id or <subscription>/<id> work too)')],
          options: QUOTA_SCOPE,
          examples: ['vx mgmt quota requests get <requestId> --provider Vendor.Compute --location eastus'],
          run: async (ctx, opts, id) => (await run()).runRequestGet(ctx, opts, id),
        }),
        command({
          name: 'list',
          summary: 'list quota requests (every page)',
          options: REQUESTS_LIST,
          examples: ['vx mgmt quota requests list --provider Vendor.Compute --location eastus --top 5'],
          run: async (ctx, opts) => (await run()).runRequestList(ctx, opts),
        }),
      ],
    }),
    command({
      name: 'wizard',
      summary: 'change a quota interactively: choose the resource, see limit and usage, enter the new limit, confirm, watch',
      options: WIZARD,
      examples: ['vx mgmt quota wizard', 'vx mgmt quota wizard --provider Vendor.Compute --location eastus', 'vx mgmt quota wizard --provider Vendor.Compute --location eastus --name cores --limit 150'],
      more: '\nNeeds a terminal; in scripts use `vx mgmt quota set <resourceName> --provider <id> --location <loc> --limit <n> --yes`.\n',
      run: async (ctx, opts) => (await import('./mgmt-wizard.js')).runQuotaWizard(ctx, opts),
    }),
    ...QUOTA_FLEET,
  ],
});

const p = 'vx mgmt version-sets';
const scope = '--resource-group web --service contoso-api';

const VERSION_SETS = group({
  name: 'version-sets',
  aliases: ['versionsets'],
  summary: 'API version sets of an API management service (api-version 2024-05-01)',
  examples: [`${p} list ${scope}`, `${p} create tracking ${scope} --display-name Tracking --scheme Header --header-name Api-Version`],
  commands: () => [
    command({
      name: 'list',
      summary: 'list version sets (every page)',
      options: VS_LIST,
      examples: [`${p} list ${scope}`, `${p} list ${scope} --top 10 --skip 10 -o json`],
      run: async (ctx, opts) => (await run()).runVsList(ctx, opts),
    }),
    command({
      name: 'get',
      summary: 'show one version set (--verbose shows its ETag)',
      args: [arg('<versionSetId>', 'version set id (1-80 characters, none of * # & + : < > ?)')],
      options: SERVICE_SCOPE,
      examples: [`${p} get orders ${scope}`],
      run: async (ctx, opts, id) => (await run()).runVsGet(ctx, opts, id),
    }),
    command({
      name: 'create',
      summary: 'create a version set (reads first: an existing one is exit 5, never replaced, unless --force)',
      args: [arg('<versionSetId>', 'version set id')],
      options: VS_CREATE,
      examples: [`${p} create loyalty ${scope} --display-name Loyalty --scheme Segment`, `${p} create coupons ${scope} --display-name Coupons --scheme Query --query-name api-version`, `${p} create orders ${scope} --display-name Orders --scheme Segment --force --yes`],
      run: async (ctx, opts, id) => (await run()).runVsCreate(ctx, opts, id),
    }),
    command({
      name: 'update',
      summary: 'change fields of a version set: reads it, merges the given fields, PUTs with If-Match',
      args: [arg('<versionSetId>', 'version set id')],
      options: VS_UPDATE,
      examples: [`${p} update orders ${scope} --description "Order API"`, `${p} update orders ${scope} --scheme Header --header-name Api-Version`],
      run: async (ctx, opts, id) => (await run()).runVsUpdate(ctx, opts, id),
    }),
    command({
      name: 'delete',
      summary: 'delete a version set (asks first; --yes without a terminal)',
      args: [arg('<versionSetId>', 'version set id')],
      options: VS_DELETE,
      examples: [`${p} delete orders ${scope}`, `${p} delete orders ${scope} --yes --if-match '*'`],
      run: async (ctx, opts, id) => (await run()).runVsDelete(ctx, opts, id),
    }),
  ],
});

export const MGMT = group({
  name: 'mgmt',
  summary: 'resource management: service health events, quotas (with an interactive wizard), API version sets',
  examples: ['vx mgmt health events list --active', 'vx mgmt quota get cores --provider Vendor.Compute --location eastus', 'vx mgmt quota wizard', 'vx mgmt version-sets list --resource-group web --service contoso-api'],
  commands: () => [HEALTH, QUOTA, VERSION_SETS],
});
