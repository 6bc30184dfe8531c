// The `vx mgmt` tree: service health events, quota (with the interactive wizard and the fleet
// commands) and API version sets. Declarations only (loaded for every `vx --help`).
import { group } from '../define.js';
import { HEALTH } from './health/index.js';
import { QUOTA } from './quota/index.js';
import { VERSION_SETS } from './version-sets/index.js';

export const MGMT = group({
  name: 'mgmt',
  summary: 'resource management: service health events, quotas (with an interactive wizard), API version sets',
  examples: ['vx mgmt health events list --active', 'vx mgmt quota get cores --provider Vendor.Compute --location eastus', 'vx mgmt quota wizard', 'vx mgmt version-sets list --resource-group web --service contoso-api'],
  commands: () => [HEALTH, QUOTA, VERSION_SETS],
});
