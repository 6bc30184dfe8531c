// How a request carries its credential's extras: the advice a 401 ends with, and what keeps a stored
// sign-in current through a long run.

/**
 * Set (by api/service.ts) on the credential headers of a service, and kept by spreading them into
 * a request's headers: its value is the advice a 401 answer ends with (how to sign in again).
 */
export const SIGN_IN_SERVICE = Symbol('vx.signInService');

/**
 * Set (by api/service.ts) beside SIGN_IN_SERVICE when the credential is a stored sign-in that can
 * expire: it keeps the token current during a long run (a watch, a poll, a bulk import), so a run
 * that outlives its access token goes on with a renewed one instead of ending with a 401.
 */
export const CREDENTIAL_RENEWER = Symbol('vx.credentialRenewer');

export interface CredentialRenewer {
  /**
   * Before a request with `sent`: the headers of the credential in use, renewed first when it has
   * expired (or AuthError when it cannot be); undefined when `sent` carries a credential of its own
   * (`vx api -H 'Authorization: ...'`), which is left alone
   */
  current(sent: Record<string, string>): Promise<Record<string, string> | undefined>;
  /** after a 401 to a request sent with `sent`: headers with a renewed credential to send it once more, or undefined */
  refused(sent: Record<string, string>): Promise<Record<string, string> | undefined>;
}
