// Options of `vx mgmt health` (a leaf: define.ts and the shared mgmt options only).
import { opt, type OptionsOf } from '../../define.js';
import { SUBSCRIPTION, subscription } from '../options.js';

const RESOURCE = 'events of one resource: /subscriptions/<id>/resourceGroups/<g>/providers/<p>/<type>/<name>';

export const EVENTS_LIST = [
  opt('--resource <resourceUri>', RESOURCE),
  opt('--filter <f>', "service's $filter, e.g. \"service eq 'Virtual Machines' or region eq 'East US'\""),
  opt('--since <date>', 'events updated at or after this date: YYYY-MM-DD, M/D/YYYY or 7d (default window: 3 days; subscription only)'),
  opt('--active', 'only events whose status is Active'),
  opt('--top <n>', 'at most n events in total'),
  ...SUBSCRIPTION,
] as const;

export const WATCH = [
  subscription(),
  opt('--resource <resourceUri>', RESOURCE),
  opt('--type <types>', 'only these event types, e.g. ServiceIssue,PlannedMaintenance (repeatable)', { repeat: true }),
  opt('--poll-interval <seconds>', 'seconds between polls, 1-86400 (default 60)'),
  opt('--interval <seconds>', 'the old spelling of --poll-interval', { hidden: true }),
  opt('--state <file>', 'remember reported events in this file across runs (so --once from cron reports only news)'),
  opt('--exec <command>', 'run this shell command per new or changed event: the event as JSON on stdin, VX_EVENT_ID, VX_EVENT_TYPE, VX_EVENT_CHANGE, VX_EVENT_STATUS, VX_EVENT_LEVEL in its environment'),
  opt('--exec-timeout <seconds>', 'stop an --exec command that runs longer (SIGTERM, SIGKILL 2 s later; default 60)'),
  opt('--once', 'poll once and exit'),
] as const;

export const HEALTH_CHECK = [
  subscription(),
  opt('--resource <resourceUri>', 'events of one resource instead of the subscription'),
  opt('--warn <types>', 'active events of these types are a warning (default PlannedMaintenance,HealthAdvisory,EmergingIssues)', { repeat: true }),
  opt('--critical <types>', 'active events of these types are critical (default ServiceIssue,SecurityAdvisory)', { repeat: true }),
] as const;

export type EventsListOpts = OptionsOf<typeof EVENTS_LIST>;
export type WatchOpts = OptionsOf<typeof WATCH>;
export type HealthCheckOpts = OptionsOf<typeof HEALTH_CHECK>;
