// The settings of the command-line contract: profile key, environment variable, secrecy.
import type { SettingDef } from '../core/config.js';

export const SETTINGS: readonly SettingDef[] = [
  { key: 'translator.endpoint', env: 'VX_TRANSLATOR_ENDPOINT', description: 'translator endpoint ({base_url})', url: true },
  { key: 'translator.key', env: 'VX_TRANSLATOR_KEY', secret: true, credential: true, description: 'translator subscription key' },
  { key: 'translator.region', env: 'VX_TRANSLATOR_REGION', description: 'translator region (sent as Vendor-Subscription-Region)' },
  { key: 'erp.prefix', env: 'VX_ERP_PREFIX', description: 'business-data address prefix ({erp_prefix})', url: true },
  { key: 'erp.company', env: 'VX_ERP_COMPANY', description: 'default company id' },
  { key: 'erp.token', env: 'VX_ERP_TOKEN', secret: true, credential: true, description: 'business-data bearer token' },
  { key: 'erp.actionNamespace', env: 'VX_ERP_ACTION_NAMESPACE', default: 'Vendor.NAV', description: 'namespace of bound actions' },
  { key: 'lcs.endpoint', env: 'VX_LCS_ENDPOINT', description: 'database refresh endpoint', url: true },
  { key: 'lcs.token', env: 'VX_LCS_TOKEN', secret: true, credential: true, fallback: 'erp.token', description: 'database refresh bearer token' },
  { key: 'mgmt.endpoint', env: 'VX_MGMT_ENDPOINT', description: 'management endpoint ({mgmt_url})', url: true },
  { key: 'mgmt.token', env: 'VX_MGMT_TOKEN', secret: true, credential: true, description: 'management bearer token' },
  { key: 'mgmt.subscription', env: 'VX_SUBSCRIPTION', description: 'default subscription id' },
  { key: 'mgmt.provider', env: 'VX_MGMT_PROVIDER', description: 'default quota resource provider id (--provider), e.g. Vendor.Compute' },
  { key: 'mgmt.location', env: 'VX_MGMT_LOCATION', description: 'default quota location (--location), e.g. eastus' },
  { key: 'mgmt.namespace', env: 'VX_MGMT_NAMESPACE', default: 'Vendor', description: 'provider namespace prefix' },
  { key: 'auth.url', env: 'VX_AUTH_URL', description: 'sign-in address ({auth_url})', url: true },
  { key: 'auth.tenant', env: 'VX_TENANT', default: 'common', description: 'directory (tenant) for sign-in; per family: <family>.tenant' },
  { key: 'auth.clientId', env: 'VX_CLIENT_ID', default: 'vx-cli', description: 'application (client) id for sign-in; per family: <family>.clientId' },
  { key: 'auth.browser', env: 'VX_BROWSER', description: 'command that opens the sign-in address (the address is appended); `none` never opens one' },
  { key: 'auth.clientSecret', env: 'VX_CLIENT_SECRET', secret: true, description: 'client secret for `vx auth login --client-credentials` (prefer the environment)' },
  ...(['erp', 'lcs', 'mgmt'] as const).flatMap((f): SettingDef[] => [
    { key: `${f}.tenant`, description: `tenant for ${f} sign-in (default auth.tenant)` },
    { key: `${f}.clientId`, description: `client id for ${f} sign-in (default auth.clientId)` },
    { key: `${f}.scope`, default: 'user_impersonation', description: `scope requested at ${f} sign-in` },
    { key: `${f}.refreshToken`, secret: true, description: `refresh token from \`vx auth login\` (${f})` },
    { key: `${f}.signIn`, description: `how the stored ${f} token was obtained and when it expires (written by \`vx auth login\`)` },
  ]),
  { key: 'translator.signIn', description: 'how the stored translator key was stored (written by `vx auth login`)' },
  {
    key: 'output',
    description: 'default output format',
    choices: ['json', 'yaml', 'table', 'wide', 'tsv', 'csv', 'ndjson', 'text', 'none'],
  },
];
