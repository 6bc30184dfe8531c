// `vx mgmt quota`: get, set, requests, the interactive wizard, and the fleet commands (list,
// report, check, apply). Declarations only: every action loads its verb's module when it runs.
import { arg, command, group } from '../../define.js';
import { QUOTA_SCOPE } from '../options.js';
import { APPLY, CHECK, LIST, QUOTA_SET, REPORT, REQUESTS_GET, REQUESTS_LIST, WIZARD } from './options.js';

const REQUESTS = group({
  name: 'requests',
  summary: 'quota change requests and their state',
  examples: ['vx mgmt quota requests list --provider Vendor.Compute --location eastus', 'vx mgmt quota requests get <requestId> --provider Vendor.Compute --location eastus'],
  commands: () => [
    command({
      name: 'get',
      summary: 'show one quota request; --wait follows it until it ends',
      args: [arg('<requestId>', 'the request id (the name in the accepted request; its full id or <subscription>/<id> work too)')],
      options: REQUESTS_GET,
      examples: ['vx mgmt quota requests get <requestId> --provider Vendor.Compute --location eastus', 'vx mgmt quota requests get <requestId> --provider Vendor.Compute --location eastus --wait'],
      run: async (ctx, opts, id) => (await import('./requests-get.js')).run(ctx, opts, id),
    }),
    command({
      name: 'list',
      summary: 'list quota requests (every page)',
      options: REQUESTS_LIST,
      examples: ['vx mgmt quota requests list --provider Vendor.Compute --location eastus --top 5'],
      run: async (ctx, opts) => (await import('./requests-list.js')).run(ctx, opts),
    }),
  ],
});

/** one quota: get, set, requests, wizard */
const ONE_QUOTA = () => [
  command({
    name: 'get',
    summary: 'show the limit, usage, unit and period of a quota (and the percentage used)',
    args: [arg('<resourceName>', 'the quota resource name, e.g. standardDSv3Family')],
    options: QUOTA_SCOPE,
    examples: ['vx mgmt quota get standardDSv3Family --provider Vendor.Compute --location eastus', 'vx mgmt quota get cores --provider Vendor.Compute --location westeurope -o json'],
    run: async (ctx, opts, name) => (await import('./get.js')).run(ctx, opts, name),
  }),
  command({
    name: 'set',
    summary: 'request a new limit: reads the quota, PATCHes the limit and follows the request until it ends (asks first)',
    args: [arg('<resourceName>', 'the quota resource name')],
    options: QUOTA_SET,
    examples: [
      'vx mgmt quota set standardDSv3Family --provider Vendor.Compute --location eastus --limit 200',
      'vx mgmt quota set cores --provider Vendor.Compute --location eastus --limit 128 --yes --no-wait',
    ],
    more: '\nA request of this quota still running for the same limit is followed, not submitted again (another limit: exit 5).\nExit 1 when the request ends Failed or Invalid; follow an accepted request with `vx mgmt quota requests get <id>`.\n',
    run: async (ctx, opts, name) => (await import('./set.js')).run(ctx, opts, name),
  }),
  REQUESTS,
  command({
    name: 'wizard',
    summary: 'change a quota interactively: choose the resource, see limit and usage, enter the new limit, confirm, watch',
    options: WIZARD,
    examples: ['vx mgmt quota wizard', 'vx mgmt quota wizard --provider Vendor.Compute --location eastus', 'vx mgmt quota wizard --provider Vendor.Compute --location eastus --name cores --limit 150'],
    more: '\nNeeds a terminal; in scripts use `vx mgmt quota set <resourceName> --provider <id> --location <loc> --limit <n> --yes`.\n',
    run: async (ctx, opts) => (await import('./wizard.js')).run(ctx, opts),
  }),
];

/** across subscriptions and locations: list, report, check, apply */
const FLEET = () => [
  command({
    name: 'list',
    summary: 'list every quota of a provider in a location (all pages) with limit, usage, percent used and unit',
    options: LIST,
    examples: ['vx mgmt quota list --provider Vendor.Compute --location eastus', "vx mgmt quota list --provider Vendor.Compute --location eastus --query '[?properties.currentValue > `0`].name' -o tsv"],
    run: async (ctx, opts) => (await import('./list.js')).run(ctx, opts),
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
    run: async (ctx, opts) => (await import('./report.js')).run(ctx, opts),
  }),
  command({
    name: 'check',
    summary: 'exit 0 when every need fits under limit - usage, 9 when any is short (made for CI before a deployment)',
    options: CHECK,
    examples: ['vx mgmt quota check --provider Vendor.Compute --location eastus,westeurope --need cores=16', 'vx mgmt quota check --provider Vendor.Compute --need cores=32@westus2 --need standardDSv3Family=4@westus2'],
    more: '\nExit codes: 0 every need fits; 9 at least one is short (stderr says by how much and the\n`vx mgmt quota set` command that makes room); the usual codes when a quota cannot be read.\n',
    run: async (ctx, opts) => (await import('./check.js')).run(ctx, opts),
  }),
  command({
    name: 'apply',
    summary: 'raise limits to a manifest (YAML or JSON): plan, confirm, submit concurrently, follow every request to its end',
    options: APPLY,
    examples: ['vx mgmt quota apply -f <manifest> --plan', 'vx mgmt quota apply -f <manifest> --dry-run', 'vx mgmt quota apply -f <manifest> --yes', 'cat <manifest> | vx mgmt quota apply -f - --yes -o ndjson'],
    more: '\nA limit is never lowered unless its entry (or the manifest) says allowDecrease: true. Each\nquota is PATCHed at most once per run; a rerun submits only what is still short. Exit 0 only\nwhen every change succeeded. Manifest format: docs/mgmt.md.\n',
    run: async (ctx, opts) => (await import('./apply.js')).run(ctx, opts),
  }),
];

export const QUOTA = group({
  name: 'quota',
  summary: 'quota (service limits) of a resource provider in a location (api-version 2020-10-25)',
  examples: ['vx mgmt quota get standardDSv3Family --provider Vendor.Compute --location eastus', 'vx mgmt quota wizard'],
  commands: () => [...ONE_QUOTA(), ...FLEET()],
});
