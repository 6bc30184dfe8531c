// Where a version-sets command works (subscription, resource group, service), and how a version
// set reads in a table.
import { resolveSubscription } from '../../../api/mgmt/client.js';
import { checkSegment } from '../../../api/mgmt/validate.js';
import type { ServiceScope, VersionSet } from '../../../api/mgmt/versionsets.js';
import type { Ctx } from '../../../core/context.js';
import type { Column } from '../../../core/output/index.js';
import type { ServiceOpts } from './options.js';

export function serviceScope(ctx: Ctx, opts: ServiceOpts): ServiceScope {
  const resourceGroup = checkSegment('resourceGroup', opts.resourceGroup, '--resource-group');
  const service = checkSegment('serviceName', opts.service, '--service');
  const subscription = resolveSubscription(ctx.config, opts.subscription);
  return { subscription, resourceGroup, service };
}

export const VERSION_SET_COLUMNS: Column[] = [
  { header: 'Name', get: 'name', keep: true },
  { header: 'Display name', get: 'properties.displayName' },
  { header: 'Scheme', get: 'properties.versioningScheme' },
  { header: 'Version in', get: (v: VersionSet) => v.properties?.versionHeaderName ?? v.properties?.versionQueryName ?? '' },
  { header: 'Description', get: 'properties.description', optional: true },
];
