// Options of `vx mgmt version-sets` (a leaf: define.ts and the shared mgmt options only).
import { opt, type OptionsOf } from '../../define.js';
import { subscription } from '../options.js';

const SCHEMES = ['Segment', 'Query', 'Header'] as const;

/** --force: write whatever the version set holds now (If-Match: *), as erp update|delete --force */
const FORCE = opt('--force', "send If-Match: * (whatever changed since; the same as --if-match '*')");

export const SERVICE_SCOPE = [
  subscription(true),
  opt('-g, --resource-group <rg>', 'resource group of the API management service (1-90 characters)', { required: true }),
  opt('--service <name>', 'API management service name (1-50 letters, digits, hyphens)', { required: true }),
] as const;

export const VS_LIST = [
  ...SERVICE_SCOPE,
  opt('--filter <f>', "service's $filter, e.g. \"contains(displayName,'Orders')\""),
  opt('--top <n>', 'at most n version sets ($top, also caps the total)'),
  opt('--skip <n>', 'skip the first n version sets ($skip)'),
] as const;

const fieldsTail = (required: boolean) =>
  [
    opt('--description <s>', required ? 'description' : "description ('' removes it)"),
    opt('--header-name <name>', 'the header carrying the version (needed with --scheme Header; 1-100 characters)'),
    opt('--query-name <name>', 'the query parameter carrying the version (needed with --scheme Query; 1-100 characters)'),
  ] as const;
const schemeHelp = 'where clients carry the version: Segment (path), Query (parameter), Header';

export const VS_CREATE = [
  ...SERVICE_SCOPE,
  opt('--display-name <s>', 'display name (1-100 characters)', { required: true }),
  opt('--scheme <scheme>', schemeHelp, { choices: SCHEMES, required: true }),
  ...fieldsTail(true),
  opt('--force', 'replace the version set when it exists, whatever it holds (asks first; --yes without a terminal)'),
] as const;

export const VS_UPDATE = [
  ...SERVICE_SCOPE,
  opt('--display-name <s>', 'display name (1-100 characters)'),
  opt('--scheme <scheme>', schemeHelp, { choices: SCHEMES }),
  ...fieldsTail(false),
  opt('--if-match <etag>', 'change the version set only if it still has this ETag (the service answers 412, exit 5, when it changed); default: the ETag of the read'),
  FORCE,
] as const;

export const VS_DELETE = [...SERVICE_SCOPE, opt('--if-match <etag>', "the ETag it must still have (default: the ETag of a fresh read; '*' for any)"), FORCE] as const;

export type ServiceOpts = OptionsOf<typeof SERVICE_SCOPE>;
export type VsListOpts = OptionsOf<typeof VS_LIST>;
export type VsCreateOpts = OptionsOf<typeof VS_CREATE>;
export type VsUpdateOpts = OptionsOf<typeof VS_UPDATE>;
export type VsDeleteOpts = OptionsOf<typeof VS_DELETE>;
