// Options of `vx mgmt quota` (a leaf: define.ts and the shared mgmt options only).
import { opt, type OptionsOf } from '../../define.js';
import { LOCATION_HELP, pollIntervalOpt, PROVIDER_HELP, QUOTA_SCOPE, subscription } from '../options.js';

const waitTimeoutOpt = opt('--wait-timeout <seconds>', 'give up following the request after this long, printing how to follow it (default 1800)');

export const QUOTA_SET = [
  ...QUOTA_SCOPE,
  opt('--limit <n>', 'the new limit (a whole number from 0 to 2147483647, as 1000 or 1,000)'),
  opt('--allow-decrease', "let --limit lower the limit (as a manifest entry's allowDecrease: true); without it a lower limit is exit 2"),
  opt('--wait', 'follow the request until it ends (the default)'),
  opt('--no-wait', 'print the accepted request and exit without following it'),
  pollIntervalOpt,
  waitTimeoutOpt,
] as const;

export const REQUESTS_GET = [
  ...QUOTA_SCOPE,
  opt('--wait', 'follow a request still running until it ends (Succeeded; Failed or Invalid: exit 1)'),
  pollIntervalOpt,
  waitTimeoutOpt,
] as const;

export const REQUESTS_LIST = [
  ...QUOTA_SCOPE,
  opt('--filter <f>', "service's $filter on requestSubmitTime, e.g. \"requestSubmitTime ge 2025-07-01T00:00:00Z\""),
  opt('--top <n>', 'at most n requests ($top, also caps the total)'),
] as const;

export const WIZARD = [
  ...QUOTA_SCOPE,
  opt('--name <resourceName>', 'the quota resource name (skips choosing it)'),
  opt('--limit <n>', 'the new limit (skips asking for it)'),
  pollIntervalOpt,
  waitTimeoutOpt,
] as const;

// ---- the fleet commands: several subscriptions and locations at once

const SUBSCRIPTIONS = 'subscription id; repeat or comma-separate for several (default: env VX_SUBSCRIPTION, profile mgmt.subscription)';
const LOCATIONS = 'location(s); repeat or comma-separate, e.g. eastus,westeurope (default: env VX_MGMT_LOCATION, profile mgmt.location)';
const CONCURRENCY = 'requests at a time, 1-64 (default 8); 429 answers slow the whole run down';

const FLEET_SCOPE = [
  opt('--subscription <id>', SUBSCRIPTIONS, { repeat: true }),
  opt('--provider <id>', PROVIDER_HELP),
  opt('--location <loc>', LOCATIONS, { repeat: true }),
  opt('--concurrency <n>', CONCURRENCY),
] as const;

export const LIST = [
  subscription(),
  opt('--provider <id>', PROVIDER_HELP),
  opt('--location <loc>', LOCATION_HELP),
  opt('--filter <f>', "service's $filter, e.g. \"currentValue gt 0\""),
  opt('--top <n>', 'at most n quotas in total (the service has no $top here: vx stops reading pages)'),
] as const;

export const REPORT = [
  ...FLEET_SCOPE,
  opt('--name <quota>', 'only these quotas (repeat or comma-separate); needed for providers that cannot list their quotas', { repeat: true }),
  opt('--min-headroom <n|n%>', 'only rows with less free than this: units (20) or a share of the limit (10%)'),
] as const;

export const CHECK = [...FLEET_SCOPE, opt('--need <quota=n[@location]>', 'what the deployment needs, e.g. cores=64 or cores=64@westus2 (repeatable; without @ in every --location)', { repeat: true })] as const;

// apply takes one subscription and one location, the defaults of the manifest's entries (the run
// refuses more: the others belong in the entries); repeatable only to share FLEET_SCOPE's types
export const APPLY = [
  opt('--subscription <id>', 'subscription of the entries that name none (one; env VX_SUBSCRIPTION, profile mgmt.subscription)', { repeat: true }),
  opt('--provider <id>', PROVIDER_HELP),
  opt('--location <loc>', 'location of the entries that name none (one; env VX_MGMT_LOCATION, profile mgmt.location)', { repeat: true }),
  opt('--concurrency <n>', CONCURRENCY),
  opt('-f, --file <path|->', 'the manifest: a list of {subscription, provider, location, name, limit, allowDecrease} (- reads stdin)'),
  opt('--plan', 'read the current limits and print the plan (from, to, action and the PATCH of each change) in the -o format; change nothing'),
  pollIntervalOpt,
  opt('--wait-timeout <seconds>', 'give up following a request after this long, printing how to follow it (default 1800)'),
] as const;

export type QuotaSetOpts = OptionsOf<typeof QUOTA_SET>;
export type RequestsGetOpts = OptionsOf<typeof REQUESTS_GET>;
export type RequestsListOpts = OptionsOf<typeof REQUESTS_LIST>;
export type WizardOpts = OptionsOf<typeof WIZARD>;
export type QuotaListOpts = OptionsOf<typeof LIST>;
export type ReportOpts = OptionsOf<typeof REPORT>;
export type CheckNeedOpts = OptionsOf<typeof CHECK>;
export type ApplyOpts = OptionsOf<typeof APPLY>;
