// Authentication as a field of the request (`auth`): core says what an authenticator does; api/
// implements one per kind of credential (a subscription key, a bearer token that a stored sign-in
// keeps current through a long run).
export interface Authenticator {
  /** The credential's headers as they stand, renewing nothing: what --dry-run shows (masked). */
  headers(): Record<string, string>;
  /**
   * The credential's headers for a request about to go out: a stored sign-in that has expired is
   * renewed first (or AuthError, "sign in again", when it cannot be).
   */
  apply(): Promise<Record<string, string>>;
  /**
   * After a 401 to a request that carried `sent` (its headers, names in lower case): headers with a
   * renewed credential to send it once more, or undefined: the 401 stands.
   */
  renew(sent: Record<string, string>): Promise<Record<string, string> | undefined>;
  /** What a 401 answer advises: how to sign in again, or where the refused credential came from. */
  readonly advice: string;
  /**
   * How it is redacted: the headers whose values are the secret, masked wherever a request is shown
   * (--debug, --dry-run). The secret values themselves are registered with core/redact.ts too.
   */
  readonly secretHeaders: readonly string[];
}
