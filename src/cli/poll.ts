// --poll-interval and --wait-timeout, one parser each for every command that waits on an
// operation (erp refresh --wait, mgmt quota set/apply/wizard).
import { UsageError } from '../core/errors.js';

/** --poll-interval: seconds from 0 to 3600 (0 polls at once again: the emulator and tests), default `defaultSeconds` */
export function pollInterval(value: string | undefined, defaultSeconds = 10): number {
  if (value === undefined) return defaultSeconds;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n < 0 || n > 3600) throw new UsageError(`invalid --poll-interval "${value}": expected seconds from 0 to 3600; nothing was sent`);
  return n;
}

/** --wait-timeout: the longest a whole wait may take, seconds from 1 to 86400 (a day), default `defaultSeconds` */
export function waitTimeoutSeconds(value: string | undefined, defaultSeconds: number): number {
  if (value === undefined) return defaultSeconds;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n < 1 || n > 86_400) throw new UsageError(`invalid --wait-timeout "${value}": expected seconds from 1 to 86400; nothing was sent`);
  return n;
}
