// --state: the families' state and the emulated clock in a JSON file, read at start (checked, so
// that a file of another kind is refused rather than served and overwritten) and written atomically.
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { kindOf } from '../state-check.js';
import type { FamilyDef, FamilyStates } from './types.js';

/**
 * The entry of a --state file beside the families that holds the emulated clock (how far it runs
 * ahead of the real one): without it a restart put the clock back, health events that had
 * appeared were gone and the refresh window counted operations of the emulated future.
 */
const CLOCK_KEY = 'clock';

/**
 * What is wrong with the content of a --state file, or undefined: an object with an entry per
 * family (any may be left out: it starts seeded), each of its family's shape. A file of another
 * kind (an array, another tool's JSON) is refused rather than taken, served with 500s and then
 * overwritten by the first change.
 */
function stateProblem(saved: unknown, families: readonly FamilyDef[]): string | undefined {
  const names = families.map((f) => f.name).join(', ');
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return `expected a JSON object with an entry per family (${names}), got ${kindOf(saved)}`;
  const other = Object.keys(saved).find((k) => k !== CLOCK_KEY && !families.some((f) => f.name === k));
  if (other !== undefined) return `${JSON.stringify(other)} is not a family of the emulator (${names}): is it an emulator state file?`;
  const clock = (saved as Record<string, unknown>)[CLOCK_KEY];
  if (clock !== undefined) {
    const offset = typeof clock === 'object' && clock !== null && !Array.isArray(clock) ? (clock as Record<string, unknown>).offsetSeconds : undefined;
    if (typeof offset !== 'number' || !Number.isFinite(offset) || offset < 0) return `${CLOCK_KEY}: expected {"offsetSeconds": <seconds, 0 or more>}, got ${offset === undefined ? kindOf(clock) : kindOf(offset)}`;
  }
  for (const f of families) {
    const v = (saved as Record<string, unknown>)[f.name];
    if (v === undefined) continue;
    const why = f.checkState ? f.checkState(v, f.name) : undefined;
    if (why) return why;
  }
  return undefined;
}

/**
 * Reads a --state file: the entries of the families it holds, and the clock's offset (ms). An
 * empty file (mktemp's) holds nothing to lose: it starts seeded, as a missing one does.
 */
export function readStateFile(path: string, families: readonly FamilyDef[]): { states: FamilyStates; clockOffsetMs?: number } {
  try {
    const text = readFileSync(path, 'utf8');
    const saved: unknown = text.trim() ? JSON.parse(text) : {};
    const problem = stateProblem(saved, families);
    if (problem) throw new Error(problem);
    const byFamily = saved as Record<string, unknown>;
    const states: FamilyStates = {};
    for (const f of families) if (byFamily[f.name] !== undefined) states[f.name] = byFamily[f.name];
    const clock = byFamily[CLOCK_KEY] as { offsetSeconds: number } | undefined;
    return { states, clockOffsetMs: clock ? clock.offsetSeconds * 1000 : undefined };
  } catch (e) {
    // never the piece of the file V8 quotes in its message (a --state naming the wrong file: a .env)
    const message = e instanceof SyntaxError ? e.message.replace(/,\s*(?:\.\.\.)?"[\s\S]*$/, '') : (e as Error).message;
    throw new Error(`cannot load emulator state from ${path}: ${message}`);
  }
}

/**
 * Writes a --state file through a temporary file renamed over it: a random name created with O_EXCL,
 * so a --state in a shared directory (/tmp) cannot be made to write through a symbolic link planted
 * at a predictable temporary name.
 */
export function writeStateFile(path: string, states: FamilyStates, clockOffsetMs: number): void {
  const tmp = `${path}.${randomUUID()}.tmp`;
  try {
    // the clock with the families: the health events, the refresh and rate windows run on it
    writeFileSync(tmp, JSON.stringify({ ...states, [CLOCK_KEY]: { offsetSeconds: clockOffsetMs / 1000 } }, null, 1), { flag: 'wx' });
    renameSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
      try {
        unlinkSync(tmp);
      } catch {
        /* never created */
      }
    }
    throw e;
  }
}

/** Why a save of --state failed, in words. */
export function saveProblem(path: string, e: NodeJS.ErrnoException): string {
  const why = e.code === 'ENOENT' ? 'its directory is gone' : e.code === 'ENOSPC' ? 'no space left on the device' : e.code === 'EACCES' ? 'permission denied' : e.message;
  return `cannot save the state to ${path}: ${why}`;
}
