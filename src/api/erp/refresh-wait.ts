// Following a database refresh until it ends. A refresh runs for hours on the service whatever
// happens here: every way the wait can end early (Ctrl-C, --wait-timeout, a failed read) says
// how to check it.
import { InterruptedError, isVxError, ServiceError } from '../../core/errors.js';
import { POLL_FLOOR_MS, pollDelay } from '../../core/poll.js';
import { sleep } from '../../core/sleep.js';
import { outcomeOf, type LcsClient, type OperationStatus } from './refresh.js';

export interface OperationWait {
  project: string;
  environment: string;
  activity: string;
  /** seconds between reads when the service sends no Retry-After */
  interval: number;
  /** seconds: the longest the whole wait may take */
  timeout: number;
  /** the command that checks the operation (statusCommand) */
  check: string;
  signal: AbortSignal;
  /** told the state of each read */
  onState?: (state: string | undefined) => void;
  /** the least pause between reads (default core/poll's) */
  floorMs?: number;
}

const stateOf = (body: OperationStatus): string | undefined => (typeof body.OperationStatus === 'string' ? body.OperationStatus : undefined);

/**
 * Reads the operation's status until it is done or failed and returns the last status read. The
 * pause between reads is core/poll's pollDelay: Retry-After, else the interval, never below a
 * floor that grows with each read (a `Retry-After: 0` or `--poll-interval 0` cannot make vx read
 * the status in a tight loop for hours).
 */
export async function waitForOperation(client: LcsClient, o: OperationWait): Promise<OperationStatus> {
  const started = Date.now();
  const floor = o.floorMs ?? POLL_FLOOR_MS;
  let last: string | undefined;
  try {
    for (let k = 0; ; k++) {
      const { body, retryAfter } = await client.status(o.project, o.environment, o.activity);
      if (body.IsSuccess === false) throw new ServiceError(`the status of operation ${o.activity} could not be read: ${body.ErrorMessage ?? 'no reason given'}`);
      last = stateOf(body);
      o.onState?.(last);
      if (outcomeOf(last) !== 'running') return body;
      const left = o.timeout * 1000 - (Date.now() - started);
      if (left <= 0) {
        throw new ServiceError(`the database refresh did not end within --wait-timeout ${o.timeout} s (operation ${o.activity}, last seen ${last ?? 'without a state'}); it goes on; check it with: ${o.check}`);
      }
      await sleep(Math.min(pollDelay(k, retryAfter, o.interval, floor, 3600_000), left), o.signal);
    }
  } catch (e) {
    if (e instanceof InterruptedError || o.signal.aborted) {
      throw new InterruptedError(`interrupted; the database refresh goes on (operation ${o.activity}${last ? `, last seen ${last}` : ''}); check it with: ${o.check}`);
    }
    if (isVxError(e) && !e.message.includes(o.check)) e.hint = [e.hint, `the refresh may still be running; check it with: ${o.check}`].filter(Boolean).join('; ');
    throw e;
  }
}
