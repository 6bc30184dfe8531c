// Does a credential work? One cheap request per family, made with the credential in hand (before
// `vx auth login` stores it, or for `vx auth status --check`). Only a 401 means the service
// refused it: any other answer, a 403 or 404 included, came from a service that knew who asked.
// A failure that is not an answer (no connection, a timeout, a 5xx) means it could not be checked.
import type { Config } from '../../core/config/index.js';
import { AuthError, InterruptedError, isVxError, type VxError } from '../../core/errors.js';
import type { Http, HttpRequest } from '../../core/http/index.js';
import { credentialHeaders, credentialNoun, familyOf } from '../../model/families.js';
import { endpointKey, serviceBase, type ServiceName } from '../service.js';

export interface Probe {
  /** what the request does, for messages: "listing one company" */
  what: string;
  request: HttpRequest;
}

/** The request that tries a credential of `service`: its family's probe (model/families.ts), with the credential in hand. */
export function probeFor(config: Config, service: ServiceName, credential: string): Probe {
  const base = serviceBase(config, service);
  const f = familyOf(service);
  const { what, method, path, body } = f.probe;
  const headers = { ...credentialHeaders(f, credential, config), ...f.requests?.headers };
  return { what, request: { method, url: `${base}${path(config)}`, headers, ...(body === undefined ? {} : { body, idempotent: true }) } };
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

/** What a probe's answer says, for messages: `HTTP 200`, `HTTP 404 SubscriptionNotFound`. */
export function answered(v: Verdict): string {
  return `HTTP ${v.status}${v.error?.code ? ` ${v.error.code}` : ''}`;
}

/**
 * Tries a credential before it is stored: a 401 stores nothing (exit 3); no endpoint configured
 * means it cannot be tried, which is said, not fatal. Returns what became of the check, for the
 * message of the sign-in.
 */
export async function checkBeforeStoring(http: Http, config: Config, service: ServiceName, value: string): Promise<string> {
  const kind = credentialNoun(familyOf(service));
  if (!config.get(endpointKey(service))) return `not checked: ${endpointKey(service)} is not set`;
  let v: Verdict;
  try {
    v = await verifyCredential(http, config, service, value);
  } catch (e) {
    // the service could not be asked (no connection, a timeout, a 5xx): say what became of the sign-in
    if (isVxError(e) && !(e instanceof InterruptedError) && !e.hint) {
      e.hint = `the ${service} ${kind} could not be tried, so it was not stored: run the same \`vx auth login\` again once the service answers, or add --no-verify to store it untried`;
    }
    throw e;
  }
  if (!v.accepted) {
    throw new AuthError(`the ${service} service refused this ${kind} (${answered(v)}) when ${v.what}; nothing was stored. Check the ${kind}, or store it unchecked with --no-verify`, {
      status: v.status,
      code: v.error?.code,
      requestId: v.error?.requestId,
    });
  }
  return `checked by ${v.what} (${answered(v)})`;
}
