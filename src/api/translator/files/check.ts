// What `vx translate check` and `vx translate sync --check` report, and the exit code they report
// it with.

/**
 * The exit code of a check that found something (units missing or stale, translations that fail
 * the checks): not 1, which says a request failed; 9, as `vx mgmt quota check` says "short".
 */
export const EXIT_CHECK = 9;
