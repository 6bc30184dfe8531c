// Does a credential work? One cheap request per family, made with the credential in hand (before
// `vx auth login` stores it, or for `vx auth status --check`). Only a 401 means the service
// refused it: any other answer, a 403 or 404 included, came from a service that knew who asked.
// A failure that is not an answer (no connection, a timeout, a 5xx) means it could not be checked.
import type { Config } from '../../core/config.js';
import { isVxError, type VxError } from '../../core/errors.js';
import type { Http, HttpRequest } from '../../core/http/index.js';
import { buildQuery } from '../../core/url.js';
import { LCS_VERSION, LCS_VERSION_HEADER } from '../../model/lcs.js';
import { MGMT_API_VERSION, MGMT_PROVIDER } from '../../model/mgmt.js';
import { resolveNamespace } from '../mgmt/client.js';
import { TRANSLATE_PATH, TRANSLATOR_API_VERSION } from '../../model/translator.js';
import { serviceBase, type ServiceName } from '../service.js';

const ZERO_GUID = '00000000-0000-0000-0000-000000000000';

export interface Probe {
  /** what the request does, for messages: "listing one company" */
  what: string;
  request: HttpRequest;
}

/** The request that tries a credential of `service`: reads only, and a translation of nothing (billed 0 characters). */
export function probeFor(config: Config, service: ServiceName, credential: string): Probe {
  const base = serviceBase(config, service);
  const bearer = { Authorization: `Bearer ${credential}` };
  switch (service) {
    case 'translator': {
      const region = config.get('translator.region');
      return {
        what: 'translating an empty text (bills nothing)',
        request: {
          method: 'POST',
          url: `${base}${TRANSLATE_PATH}${buildQuery({ 'api-version': TRANSLATOR_API_VERSION, to: 'en' })}`,
          headers: { 'Vendor-Subscription-Key': credential, ...(region ? { 'Vendor-Subscription-Region': region } : {}) },
          body: [{ Text: '' }],
          idempotent: true,
        },
      };
    }
    case 'erp':
      return { what: 'listing one company', request: { method: 'GET', url: `${base}/api/v2.0/companies${buildQuery({ $top: 1 })}`, headers: bearer } };
    case 'lcs':
      return {
        what: 'reading the status of a placeholder operation',
        request: {
          method: 'GET',
          url: `${base}/databasemovement/v1/fetchstatus/project/0/environment/0/operationactivity/${ZERO_GUID}`,
          headers: { ...bearer, [LCS_VERSION_HEADER]: LCS_VERSION },
        },
      };
    case 'mgmt': {
      // any subscription will do: the resource manager refuses a bad token (401) before it looks
      const sub = config.get('mgmt.subscription') || ZERO_GUID;
      const ns = resolveNamespace(config);
      return {
        what: 'listing the health events of a subscription',
        request: {
          method: 'GET',
          url: `${base}/subscriptions/${encodeURIComponent(sub)}/providers/${ns}.${MGMT_PROVIDER.health}/events${buildQuery({ 'api-version': MGMT_API_VERSION.health })}`,
          headers: bearer,
        },
      };
    }
  }
}

export interface Verdict {
  service: ServiceName;
  /** false only when the service answered 401 */
  accepted: boolean;
  /** the status the probe got */
  status: number;
  what: string;
  /** the service's refusal (401) or the answer that was not a success */
  error?: VxError;
}

/**
 * Tries a credential with the family's probe. Resolves with the verdict when the service
 * answered; rejects with the failure when it could not be asked (network, timeout, 5xx).
 */
export async function verifyCredential(http: Http, config: Config, service: ServiceName, credential: string): Promise<Verdict> {
  const probe = probeFor(config, service, credential);
  try {
    const res = await http.send(probe.request);
    return { service, accepted: true, status: res.status, what: probe.what };
  } catch (e) {
    if (!isVxError(e) || e.status === undefined || e.status >= 500) throw e;
    return { service, accepted: e.status !== 401, status: e.status, what: probe.what, error: e };
  }
}
