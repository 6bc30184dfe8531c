// Options shared by the `vx mgmt` commands (a leaf: define.ts only).
import { opt, type OptionsOf } from '../define.js';

export const subscription = (uuid = false) => opt('--subscription <id>', `subscription id${uuid ? ' (a UUID)' : ''} (env VX_SUBSCRIPTION, profile mgmt.subscription)`);
export const SUBSCRIPTION = [subscription()] as const;

export const PROVIDER_HELP = 'resource provider id, e.g. Vendor.Compute (env VX_MGMT_PROVIDER, profile mgmt.provider)';
export const LOCATION_HELP = 'location (region), e.g. eastus (env VX_MGMT_LOCATION, profile mgmt.location)';

export const QUOTA_SCOPE = [subscription(), opt('--provider <id>', PROVIDER_HELP), opt('--location <loc>', LOCATION_HELP)] as const;

export const pollIntervalOpt = opt('--poll-interval <seconds>', 'seconds between status reads when the service sends no Retry-After (default 10)');

export type SubOpts = OptionsOf<typeof SUBSCRIPTION>;
export type QuotaOpts = OptionsOf<typeof QUOTA_SCOPE>;
