// `vx mgmt version-sets`: API version sets of an API management service. Declarations only: every
// action loads its verb's module when it runs.
import { arg, command, group } from '../../define.js';
import { SERVICE_SCOPE, VS_CREATE, VS_DELETE, VS_LIST, VS_UPDATE } from './options.js';

const p = 'vx mgmt version-sets';
const scope = '--resource-group web --service contoso-api';

export const VERSION_SETS = group({
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
      run: async (ctx, opts) => (await import('./list.js')).run(ctx, opts),
    }),
    command({
      name: 'get',
      summary: 'show one version set (--verbose shows its ETag)',
      args: [arg('<versionSetId>', 'version set id (1-80 characters, none of * # & + : < > ?)')],
      options: SERVICE_SCOPE,
      examples: [`${p} get orders ${scope}`],
      run: async (ctx, opts, id) => (await import('./get.js')).run(ctx, opts, id),
    }),
    command({
      name: 'create',
      summary: 'create a version set (reads first: an existing one is exit 5, never replaced, unless --force)',
      args: [arg('<versionSetId>', 'version set id')],
      options: VS_CREATE,
      examples: [`${p} create loyalty ${scope} --display-name Loyalty --scheme Segment`, `${p} create coupons ${scope} --display-name Coupons --scheme Query --query-name api-version`, `${p} create orders ${scope} --display-name Orders --scheme Segment --force --yes`],
      run: async (ctx, opts, id) => (await import('./create.js')).run(ctx, opts, id),
    }),
    command({
      name: 'update',
      summary: 'change fields of a version set: reads it, merges the given fields, PUTs with If-Match',
      args: [arg('<versionSetId>', 'version set id')],
      options: VS_UPDATE,
      examples: [`${p} update orders ${scope} --description "Order API"`, `${p} update orders ${scope} --scheme Header --header-name Api-Version`],
      run: async (ctx, opts, id) => (await import('./update.js')).run(ctx, opts, id),
    }),
    command({
      name: 'delete',
      summary: 'delete a version set (asks first; --yes without a terminal)',
      args: [arg('<versionSetId>', 'version set id')],
      options: VS_DELETE,
      examples: [`${p} delete orders ${scope}`, `${p} delete orders ${scope} --yes --if-match '*'`],
      run: async (ctx, opts, id) => (await import('./delete.js')).run(ctx, opts, id),
    }),
  ],
});
