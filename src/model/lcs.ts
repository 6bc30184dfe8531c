// The database refresh (lcs) family: its API version and the rules of its operations, shared by
// the client and the emulator.

export const LCS_VERSION_HEADER = 'x-vendor-version';
export const LCS_VERSION = '2017-09-15';
export const REFRESH_LIMIT_PER_DAY = 3;
/**
 * The OperationStatus values that end an operation (the status reference: NotStarted, InProgress,
 * Completed, Failed, SignedOff, Aborted, RollbackInProgress, RollbackFailed, RollbackCompleted).
 * A rollback that completed or failed ended the refresh unsuccessfully; RollbackInProgress (like
 * NotStarted and InProgress) is still going. `Rollback` and `Cancelled` are kept as ends too.
 */
export const OPERATION_DONE = ['Completed', 'SignedOff'] as const;
export const OPERATION_FAILED = ['Failed', 'Aborted', 'RollbackCompleted', 'RollbackFailed', 'Rollback', 'Cancelled'] as const;
/** how long `refresh --wait` follows an operation by default (--wait-timeout): a day, the throttle's window */
export const REFRESH_WAIT_TIMEOUT_S = 86_400;
