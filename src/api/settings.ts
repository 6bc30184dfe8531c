// The settings of the command-line contract: profile key, environment variable, secrecy.
import type { SettingDef } from '../core/config.js';

export const SETTINGS: readonly SettingDef[] = [
  { key: 'translator.endpoint', env: 'VX_TRANSLATOR_ENDPOINT', description: 'translator endpoint ({base_url})' },
  { key: 'translator.key', env: 'VX_TRANSLATOR_KEY', secret: true, credential: true, description: 'translator subscription key' },
  { key: 'translator.region', env: 'VX_TRANSLATOR_REGION', description: 'translator region (sent as Vendor-Subscription-Region)' },
  { key: 'erp.prefix', env: 'VX_ERP_PREFIX', description: 'business-data address prefix ({erp_prefix})' },
  { key: 'erp.company', env: 'VX_ERP_COMPANY', description: 'default company id' },
  { key: 'erp.token', env: 'VX_ERP_TOKEN', secret: true, credential: true, description: 'business-data bearer token' },
  { key: 'erp.actionNamespace', env: 'VX_ERP_ACTION_NAMESPACE', default: 'Vendor.NAV', description: 'namespace of bound actions' },
  { key: 'lcs.endpoint', env: 'VX_LCS_ENDPOINT', description: 'database refresh endpoint' },
  { key: 'lcs.token', env: 'VX_LCS_TOKEN', secret: true, credential: true, fallback: 'erp.token', description: 'database refresh bearer token' },
  { key: 'mgmt.endpoint', env: 'VX_MGMT_ENDPOINT', description: 'management endpoint ({mgmt_url})' },
  { key: 'mgmt.token', env: 'VX_MGMT_TOKEN', secret: true, credential: true, description: 'management bearer token' },
  { key: 'mgmt.subscription', env: 'VX_SUBSCRIPTION', description: 'default subscription id' },
  { key: 'mgmt.provider', env: 'VX_MGMT_PROVIDER', description: 'default quota resource provider id (--provider), e.g. Vendor.Compute' },
  { key: 'mgmt.location', env: 'VX_MGMT_LOCATION', description: 'default quota location (--location), e.g. eastus' },
  { key: 'mgmt.namespace', env: 'VX_MGMT_NAMESPACE', default: 'Vendor', description: 'provider namespace prefix' },
  { key: 'auth.url', env: 'VX_AUTH_URL', description: 'sign-in address ({auth_url})' },
  {
    key: 'output',
    description: 'default output format',
    choices: ['json', 'yaml', 'table', 'tsv', 'ndjson', 'text', 'none'],
  },
];
