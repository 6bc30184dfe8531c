// `vx api`: a raw request to a service. Declaration only; the action loads api.js when it runs.
import { arg, command } from '../define.js';
import { API_OPTIONS } from './options.js';

export const API = command({
  name: 'api',
  summary: 'send a raw request to a service with its configured endpoint and credentials',
  args: [arg('<method>', ''), arg('<path>', '')],
  options: API_OPTIONS,
  examples: [
    "vx api GET '/api/v2.0/companies' --service erp",
    'vx api GET "/subscriptions/$VX_SUBSCRIPTION/providers/Vendor.ResourceHealth/events?api-version=2025-05-01" --service mgmt --paginate',
    `vx api POST '/translate?api-version=3.0&to=de' --service translator --data '[{"Text":"hello"}]'`,
  ],
  run: async (ctx, opts, method, path) => (await import('./api.js')).run(ctx, opts, method, path),
});
