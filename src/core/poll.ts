// The pace of every wait on a long-running operation (mgmt quota requests, the erp database
// refresh): how long to pause before the next status read.
import type { Env } from './env.js';
import { parseRetryAfter } from './http/policy.js';

/** no two status reads closer than this, whatever Retry-After or --poll-interval say */
export const POLL_FLOOR_MS = 1000;
/** the floor grows with each read up to this */
const FLOOR_CAP_MS = 120_000;

/**
 * The pause before status read number `k` (0-based): the service's Retry-After, else the poll
 * interval, but never less than the floor, and a floor that grows by half with each read (1 s,
 * 1.5 s, 2.3 s, ... up to two minutes), so an operation that never ends is read ever more rarely:
 * `Retry-After: 0` cannot make a client poll in a tight loop. Nothing is longer than `maxMs`.
 */
export function pollDelay(k: number, retryAfter: string | undefined, intervalSeconds: number, floorMs = POLL_FLOOR_MS, maxMs = FLOOR_CAP_MS): number {
  const asked = parseRetryAfter(retryAfter) ?? intervalSeconds * 1000;
  return Math.min(Math.max(asked, Math.min(floorMs * 1.5 ** k, FLOOR_CAP_MS)), maxMs);
}

/** The floor of pollDelay: POLL_FLOOR_MS, or VX_POLL_FLOOR_MS (tests only) */
export function pollFloorMs(env: Env): number {
  const v = Number(env.VX_POLL_FLOOR_MS);
  return env.VX_POLL_FLOOR_MS && Number.isFinite(v) && v >= 0 ? v : POLL_FLOOR_MS;
}
