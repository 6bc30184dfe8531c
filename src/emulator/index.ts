// The emulator's public face: start it, and the families it serves.
import { authFamily } from './auth.js';
import { erpFamily } from './erp/index.js';
import { lcsFamily } from './lcs/index.js';
import { mgmtFamily } from './mgmt/index.js';
import { Emulator, type EmulatorOptions } from './server.js';
import { translatorFamily } from './translator.js';

export { Emulator, EmuError, DEFAULT_KEY, DEFAULT_TOKEN } from './server.js';
export { growFleet, EMU_FLEET_SUBSCRIPTIONS } from './mgmt/fleet.js';
export { parseRateLimit } from './erp/batch.js';
export type { EmuRequest, EmuReply, FamilyDef, Route, LogEntry } from './server.js';

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
