// `vx mgmt health`: health events (list, details), watch and check. Declarations only: every
// action loads its verb's module when it runs.
import { arg, command, group } from '../../define.js';
import { SUBSCRIPTION } from '../options.js';
import { EVENTS_LIST, HEALTH_CHECK, WATCH } from './options.js';

const EVENTS = group({
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
      run: async (ctx, opts) => (await import('./events-list.js')).run(ctx, opts),
    }),
    command({
      name: 'details',
      summary: 'the details of an event, including the summary and description of sensitive events',
      args: [arg('<trackingId>', 'the tracking id of the event (its name)')],
      options: SUBSCRIPTION,
      examples: ['vx mgmt health events details 9VS6-0W8', 'vx mgmt health events details 9VS6-0W8 -o json'],
      run: async (ctx, opts, id) => (await import('./events-details.js')).run(ctx, opts, id),
    }),
  ],
});

const WATCH_COMMAND = command({
  name: 'watch',
  summary: 'poll health events and print each new event and each change once; remembers what it saw in --state',
  options: WATCH,
  examples: ['vx mgmt health watch --once', 'vx mgmt health watch --type ServiceIssue,PlannedMaintenance --poll-interval 120 --state <file>', 'vx mgmt health watch --once --state <file> --exec ./notify.sh'],
  more:
    '\nNews in the order they happened (last update time). At a terminal one line per news, wrapped at\nspaces to its width; otherwise ndjson: one JSON object {change, trackingId, previous, event} a line;\n-o json: one JSON array per poll ([] when nothing is new).\n' +
    'With --exec and --state the state is saved after each news: a kill or `| head` never runs a\ncommand twice for one news. Backs off under 429/5xx; Ctrl-C exits 130 and SIGTERM 143, a running\n--exec stopped (SIGKILL 2 s later), the state saved.\n',
  run: async (ctx, opts) => (await import('./watch.js')).run(ctx, opts),
});

const CHECK_COMMAND = command({
  name: 'check',
  summary: 'one summary line and a monitoring-plugin exit code: 0 OK, 1 warning, 2 critical, 3 unknown',
  options: HEALTH_CHECK,
  examples: ['vx mgmt health check', 'vx mgmt health check --critical ServiceIssue --warn PlannedMaintenance,SecurityAdvisory'],
  more: "\nExit codes follow the monitoring-plugin convention (Nagios, Icinga, Sensu), not vx's usual ones:\n0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (the service could not be asked; the line says why).\n",
  run: async (ctx, opts) => (await import('./check.js')).run(ctx, opts),
});

export const HEALTH = group({
  name: 'health',
  summary: 'service health events (api-version 2025-05-01)',
  examples: ['vx mgmt health events list', 'vx mgmt health events details 9VS6-0W8'],
  commands: () => [EVENTS, WATCH_COMMAND, CHECK_COMMAND],
});
