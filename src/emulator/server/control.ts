// The control routes (/_emulator/...): health, the request log, the state, reset, faults, the clock.
import { redactEntry } from './request-log.js';
import type { EmuReply, FamilyDef, FamilyStates, LogEntry } from './types.js';

/** What the control routes read and drive of an emulator. */
export interface Controlled {
  readonly families: readonly FamilyDef[];
  readonly log: readonly LogEntry[];
  readonly state: FamilyStates;
  /** how far the emulated clock runs ahead of the real one */
  readonly clockOffsetMs: number;
  now(): number;
  advanceClock(ms: number): void;
  reset(): void;
  changed(): void;
  setFaults(spec: string): void;
}

const NOT_FOUND: EmuReply = {
  status: 404,
  body: { error: { code: 'NotFound', message: 'control endpoints: GET /_emulator/health, GET /_emulator/requests, GET /_emulator/state, POST /_emulator/reset, PUT /_emulator/faults, GET|POST /_emulator/clock' } },
};

export function control(emu: Controlled, method: string, path: string, body: Buffer): EmuReply {
  if (method === 'GET' && path === '/_emulator/health') return { status: 200, body: { status: 'ok', families: emu.families.map((f) => f.prefix) } };
  // anyone on the machine can read this: credentials (keys, tokens, secrets) are shown masked
  if (method === 'GET' && path === '/_emulator/requests') return { status: 200, body: emu.log.filter((e) => e.family !== 'control').map(redactEntry) };
  if (method === 'GET' && path === '/_emulator/state') return { status: 200, body: emu.state };
  if (method === 'POST' && path === '/_emulator/reset') {
    emu.reset();
    emu.changed();
    return { status: 204 };
  }
  if (path === '/_emulator/clock' && (method === 'GET' || method === 'POST')) return clock(emu, method, body);
  if (method === 'PUT' && path === '/_emulator/faults') {
    try {
      emu.setFaults(body.toString('utf8').trim());
    } catch (e) {
      return { status: 400, body: { error: { code: 'InvalidFaults', message: (e as Error).message } } };
    }
    return { status: 204 };
  }
  return NOT_FOUND;
}

/** GET: the emulated time; POST {"advanceSeconds": n}: moves it forward first. */
function clock(emu: Controlled, method: string, body: Buffer): EmuReply {
  if (method === 'POST') {
    let advance: unknown;
    try {
      advance = (JSON.parse(body.toString('utf8') || '{}') as { advanceSeconds?: unknown }).advanceSeconds;
    } catch {
      advance = undefined;
    }
    if (typeof advance !== 'number' || !Number.isFinite(advance) || advance < 0) {
      return { status: 400, body: { error: { code: 'InvalidClock', message: 'expected a body {"advanceSeconds": <seconds, 0 or more>}: the clock moves forward only' } } };
    }
    emu.advanceClock(advance * 1000);
  }
  return { status: 200, body: { now: new Date(emu.now()).toISOString(), offsetSeconds: emu.clockOffsetMs / 1000 } };
}
