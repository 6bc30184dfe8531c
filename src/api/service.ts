// Where each service lives and how a request to it is authenticated. The only place that turns
// settings into base URLs and credential headers; every family client goes through it.
import type { Config } from '../core/config.js';
import { normalizeBase } from '../core/url.js';

export const SERVICES = ['translator', 'erp', 'lcs', 'mgmt'] as const;
export type ServiceName = (typeof SERVICES)[number];

const ENDPOINT_KEY: Record<ServiceName, string> = {
  translator: 'translator.endpoint',
  erp: 'erp.prefix',
  lcs: 'lcs.endpoint',
  mgmt: 'mgmt.endpoint',
};

const CREDENTIAL_KEY: Record<ServiceName, string> = {
  translator: 'translator.key',
  erp: 'erp.token',
  lcs: 'lcs.token',
  mgmt: 'mgmt.token',
};

export function endpointKey(service: ServiceName): string {
  return ENDPOINT_KEY[service];
}

export function credentialKey(service: ServiceName): string {
  return CREDENTIAL_KEY[service];
}

/** The configured base URL of a service, without a trailing slash. */
export function serviceBase(config: Config, service: ServiceName, flag?: string): string {
  const key = ENDPOINT_KEY[service];
  return normalizeBase(config.require(key, flag), key);
}

/**
 * The headers that authenticate a request to a service: the subscription key (and optional
 * region) for the translator, a bearer token for the others. A missing credential is exit 3.
 */
export async function authHeaders(config: Config, service: ServiceName): Promise<Record<string, string>> {
  if (service === 'translator') {
    const key = config.require('translator.key');
    const region = config.get('translator.region');
    return region ? { 'Vendor-Subscription-Key': key, 'Vendor-Subscription-Region': region } : { 'Vendor-Subscription-Key': key };
  }
  const token = config.require(CREDENTIAL_KEY[service]);
  return { Authorization: `Bearer ${token}` };
}
