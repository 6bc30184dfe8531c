// Where each service lives: the only place that turns settings into base URLs (api/auth/authenticator.ts
// turns them into credentials); every family client goes through it.
import type { Config } from '../core/config/index.js';
import { normalizeBase } from '../core/url.js';
import { FAMILY_NAMES, familyOf, type FamilyName } from '../model/families.js';

export const SERVICES = FAMILY_NAMES;
export type ServiceName = FamilyName;

/** the setting holding a service's base URL */
export function endpointKey(service: ServiceName): string {
  return familyOf(service).endpoint;
}

export function credentialKey(service: ServiceName): string {
  return familyOf(service).credential;
}

/** The configured base URL of a service, without a trailing slash. */
export function serviceBase(config: Config, service: ServiceName, flag?: string): string {
  const key = familyOf(service).endpoint;
  return normalizeBase(config.require(key, flag), key);
}
