// The emulator's public face: start it, and the families it serves.
import { authFamily, type AuthState } from './auth.js';
import { erpFamily } from './erp/index.js';
import type { ErpState } from './erp/seed.js';
import { lcsFamily, type LcsState } from './lcs/index.js';
import { mgmtFamily } from './mgmt/index.js';
import type { MgmtState } from './mgmt/state.js';
import { Emulator as Server, type EmulatorOptions } from './server/index.js';
import { translatorFamily, type TranslatorState } from './translator/index.js';

export { EmuError, DEFAULT_KEY, DEFAULT_TOKEN } from './server/index.js';
export { growFleet, EMU_FLEET_SUBSCRIPTIONS } from './mgmt/fleet.js';
export { parseRateLimit } from './erp/batch.js';
export type { EmuRequest, EmuReply, FamilyDef, Route, LogEntry } from './server/index.js';

/**
 * The emulator's state: one entry per family, made by its seed (or read from --state). A family
 * left out of the emulator has no entry; the typed ones are those tests and routes read.
 */
export interface EmulatorState {
  auth: AuthState;
  erp: ErpState;
  lcs: LcsState;
  mgmt: MgmtState;
  translator: TranslatorState;
  [family: string]: unknown;
}

/** The emulator of vx's families, their state typed (the framework knows families only by name). */
export class Emulator extends Server<EmulatorState> {}

export function allFamilies() {
  return [translatorFamily(), erpFamily(), lcsFamily(), mgmtFamily(), authFamily()];
}

export interface StartOptions extends Omit<EmulatorOptions, 'families'> {
  port?: number;
  host?: string;
}

export async function startEmulator(opts: StartOptions = {}): Promise<Emulator> {
  const emu = new Emulator({ ...opts, families: allFamilies() });
  try {
    await emu.listen(opts.port ?? 4010, opts.host ?? '127.0.0.1');
  } catch (e) {
    emu.releaseState();
    throw e;
  }
  return emu;
}
