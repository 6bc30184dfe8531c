// The emulator's framework: what a family module imports to define its routes, and the server.
export { DEFAULT_KEY, DEFAULT_TOKEN, Emulator } from './emulator.js';
export { EmuError } from './types.js';
export type { EmulatorOptions, EmuReply, EmuRequest, FamilyDef, LogEntry, Route } from './types.js';
