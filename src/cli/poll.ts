// --poll-interval, one parser for every command that waits on an operation (erp refresh --wait,
// mgmt quota set/apply/wizard).
import { UsageError } from '../core/errors.js';

/** --poll-interval: seconds from 0 to 3600 (0 polls at once again: the emulator and tests), default `defaultSeconds` */
export function pollInterval(value: string | undefined, defaultSeconds = 10): number {
  if (value === undefined) return defaultSeconds;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n < 0 || n > 3600) throw new UsageError(`invalid --poll-interval "${value}": expected seconds from 0 to 3600; nothing was sent`);
  return n;
}
