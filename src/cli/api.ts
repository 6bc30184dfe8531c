import { FAMILY_NAMES } from '../model/families.js';
import { arg, command, opt, type OptionsOf } from './define.js';

const OPTIONS = [
  opt('--service <name>', 'which service', { choices: FAMILY_NAMES, required: true }),
  opt('-d, --data <json|@file|->', 'request body: JSON text, @file, or - (or @-) for stdin'),
  opt('-H, --header <key:value>', 'extra request header (repeatable)', { repeat: true }),
  opt('--paginate', 'follow nextLink / @odata.nextLink and print all items as one array'),
] as const;

export type ApiOptions = OptionsOf<typeof OPTIONS>;

export const API = command({
  name: 'api',
  summary: 'send a raw request to a service with its configured endpoint and credentials',
  args: [arg('<method>', ''), arg('<path>', '')],
  options: OPTIONS,
  examples: [
    "vx api GET '/api/v2.0/companies' --service erp",
    'vx api GET "/subscriptions/$VX_SUBSCRIPTION/providers/Vendor.ResourceHealth/events?api-version=2025-05-01" --service mgmt --paginate',
    `vx api POST '/translate?api-version=3.0&to=de' --service translator --data '[{"Text":"hello"}]'`,
  ],
  run: async (ctx, opts, method, path) => (await import('./api-run.js')).run(ctx, opts, method, path),
});
