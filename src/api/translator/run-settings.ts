// The pay-once settings of a translation run (vx translate, vx translate file|sync): the memory
// (--memory, else the translate.memory setting: a file, or a postgres:// URL), the known rate and
// the budget; and the memory's path for vx translate memory.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config/index.js';
import { UsageError } from '../../core/errors.js';
import { sameFile } from '../../core/input.js';
import { characterCount } from '../../model/families.js';
import { writeProblem } from './memory/checks.js';
import { isPostgresUrl } from './memory/pg-settings.js';
import { TranslationMemory, type OpenMemoryOptions } from './memory/index.js';

/** Where the settings are read: the profile's configuration and the environment. */
export interface SettingsSource {
  readonly config: Pick<Config, 'get' | 'resolve' | 'originOf'>;
  envVar(name: string): string | undefined;
}

/**
 * A run's file named by a flag, else by the profile's setting (and its variable); undefined when
 * neither names one, or when the variable is set empty or blank (a run without the profile's).
 */
function pathSetting(src: SettingsSource, flag: string | undefined, o: { flag: string; key: 'translate.memory' | 'translate.glossary'; env: string; what: string }): string | undefined {
  if (flag !== undefined && !flag.trim()) throw new UsageError(`${o.flag} needs ${o.what}`);
  if (flag !== undefined) return home(flag);
  if (src.envVar(o.env)?.trim() === '') return undefined;
  const setting = src.config.get(o.key);
  return setting ? home(setting) : undefined;
}

/** --memory, else the profile's translate.memory (VX_TRANSLATE_MEMORY) */
export function memoryPath(src: SettingsSource, flag: string | undefined): string | undefined {
  return pathSetting(src, flag, { flag: '--memory', key: 'translate.memory', env: 'VX_TRANSLATE_MEMORY', what: 'a file name or a postgres:// URL' });
}

/** --glossary, else the profile's translate.glossary (VX_TRANSLATE_GLOSSARY) */
export function glossaryPath(src: SettingsSource, flag: string | undefined): string | undefined {
  return pathSetting(src, flag, { flag: '--glossary', key: 'translate.glossary', env: 'VX_TRANSLATE_GLOSSARY', what: 'a file name' });
}

/** The memory's path (memoryPath), which must be given one way or another. */
export function requireMemoryPath(src: SettingsSource, flag: string | undefined): string {
  const path = memoryPath(src, flag);
  if (!path) throw new UsageError('no translation memory: give --memory <path> or set one with `vx profile set translate.memory <path>`');
  return path;
}

/** A memory named on the command line (memory copy's <from> and <to>): a file (`~/…` expanded) or a postgres:// URL. */
export function memoryLocation(v: string, what: string): string {
  if (!v.trim()) throw new UsageError(`${what} needs a file name or a postgres:// URL`);
  return home(v);
}

/** `~` and `~/…` name the home directory: no shell expands a profile setting, nor `--memory=~/…` (a URL is left as it is) */
function home(path: string): string {
  if (isPostgresUrl(path)) return path.trim();
  return path === '~' || path.startsWith('~/') || (sep === '\\' && path.startsWith('~\\')) ? join(homedir(), path.slice(1)) : path;
}

/** a whole number of characters from `min` (commas and underscores allowed: 2,000,000) */
function characters(flag: string, v: string | undefined, min = 1): number | undefined {
  if (v === undefined) return undefined;
  const n = characterCount(v);
  if (n === 'too large') throw new UsageError(`invalid value "${v}" for ${flag}: at most ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')} characters`);
  if (n === undefined || n < min) throw new UsageError(`invalid value "${v}" for ${flag}: expected a whole number of characters from ${min}, e.g. 2000000`);
  return n;
}

export interface RunSettings {
  memory?: string;
  /** --memory-optional: a memory that cannot be opened is left out (said), not an error */
  memoryOptional?: boolean;
  /** --memory-read-only: the memory is read, nothing stored in it */
  memoryReadOnly?: boolean;
  perMinute?: number;
  budget?: number;
}

/** The run's pay-once settings: the memory file (flag, else profile), the known rate, the budget. */
export function runSettings(src: SettingsSource, opts: { memory?: string; memoryOptional?: boolean; memoryReadOnly?: boolean; maxCharsPerMinute?: string; budget?: string; out?: string }): RunSettings {
  const memory = memoryPath(src, opts.memory);
  if (opts.memoryReadOnly && memory === undefined) throw new UsageError('--memory-read-only needs a translation memory: give --memory <path> or set translate.memory; nothing was sent');
  if (memory !== undefined) notOverMemory(opts.out, memory);
  const fromProfile = opts.maxCharsPerMinute === undefined ? src.config.resolve('translate.maxRate') : undefined;
  // a bad value names where it came from: the variable, or the profile
  const where = !fromProfile ? '--max-chars-per-minute' : src.config.originOf('translate.maxRate');
  const perMinute = characters(where, opts.maxCharsPerMinute ?? fromProfile?.value);
  // (--budget 0: nothing billed, only what the memory holds)
  const budget = characters('--budget', opts.budget, 0);
  return { memory, memoryOptional: opts.memoryOptional === true, memoryReadOnly: opts.memoryReadOnly === true, perMinute, budget };
}

/**
 * Refuses an --out that names the memory (also through a link): the output, renamed over it when
 * complete, would take the memory's place (`--out notes.tm` for notes.tmx or notes.de.txt).
 */
export function notOverMemory(out: string | undefined, memory: string): void {
  if (out === undefined || isPostgresUrl(memory) || !sameFile(out, memory)) return;
  throw new UsageError(`--out ${out} is the translation memory itself: name another file (nothing was written)`);
}

/** What opening a run's memory is told: the environment, where notes and the trace go, whether it may be left out. */
export interface RunMemoryOptions {
  env: OpenMemoryOptions['env'];
  /** says something once on stderr (a role that may only read, a memory lost or left out) */
  warn(message: string): void;
  /** a line of the --debug trace */
  debug?(message: string): void;
  /** --memory-optional: a memory that cannot be opened is left out, said, and the run goes on */
  optional?: boolean;
  /** --memory-read-only: read it, store nothing */
  readOnly?: boolean;
  /** the permissions a new memory file gets: its sources' (modeOfSources) */
  mode?: number;
  /** a stop of the run: a wait for another process's lock on the memory ends at once */
  signal?: AbortSignal;
  /** the clock that wait is measured by */
  clock?: Clock;
}

/**
 * Opens a run's memory, if it has one. A run that only looks (--estimate, --dry-run) or is told so
 * (--memory-read-only) only reads it, and a memory file that does not exist yet holds nothing: it
 * is not created. A memory file the user may read but not write (another user's, a read-only
 * disk) is only read too, said once: its hits still save their characters. A PostgreSQL memory
 * lost during the run leaves the run to go on without it (closeRunMemory says what was not stored).
 */
export async function openRunMemory(path: string | undefined, onlyLooking: boolean, o: RunMemoryOptions): Promise<TranslationMemory | undefined> {
  if (path === undefined) return undefined;
  let readOnly = onlyLooking || o.readOnly === true;
  if (!isPostgresUrl(path)) {
    if (!existsSync(path)) {
      if (o.readOnly && !onlyLooking) o.warn(`translation memory ${path} does not exist: nothing to read (--memory-read-only creates none)`);
      if (readOnly) return undefined;
    } else if (!readOnly) {
      const why = writeProblem(path);
      if (why) o.warn(`translation memory ${path}: ${why}: it is only read in this run (what it holds is used, new answers are not stored; --memory-read-only says so without this note)`);
      readOnly = why !== undefined;
    }
  }
  try {
    return await TranslationMemory.open(path, { readOnly, mode: o.mode, signal: o.signal, clock: o.clock, env: o.env, leaseMs: leaseMs(o.env), whenLost: 'go-on', readOnlyRole: 'lookups-only', note: o.warn, debug: o.debug });
  } catch (e) {
    if (!o.optional) throw e;
    o.warn(`${(e as Error).message}; going on without it (--memory-optional): every text is sent, no answer is stored`);
    return undefined;
  }
}

/**
 * How long a run's claims on the texts it sends hold when it stops renewing them (memory/claims.ts):
 * VX_TRANSLATE_MEMORY_LEASE_MS (a test hook, whole milliseconds from 1), else the default.
 */
function leaseMs(env: OpenMemoryOptions['env']): number | undefined {
  const v = env?.VX_TRANSLATE_MEMORY_LEASE_MS;
  return v !== undefined && /^\d+$/.test(v) && Number(v) >= 1 ? Number(v) : undefined;
}

/**
 * Closes a run's memory (what was answered stays in it), and says how many answers it did not
 * store when it was lost during the run. When the run itself failed, its error is the one to tell
 * (it says what was translated): a memory that failed mid-run (a full disk) fails again as it
 * closes, and that second error is dropped.
 */
export async function closeRunMemory(memory: TranslationMemory | undefined, runFailed: boolean, warn?: (message: string) => void): Promise<void> {
  try {
    await memory?.close();
  } catch (e) {
    if (!runFailed) throw e;
  } finally {
    const lost = memory?.lost;
    if (lost && warn) {
      const n = (k: number) => k.toLocaleString('en-US');
      const perhaps = lost.perhapsStored ? `; ${n(lost.perhapsStored)} of them were being written as it was lost, and may be stored` : '';
      warn(`translation memory ${memory!.path}: ${n(lost.notStored)} answer${lost.notStored === 1 ? ' was' : 's were'} not stored (lost during the run: ${lost.reason}${perhaps}); the next run sends ${lost.notStored === 1 ? 'it' : 'them'} again`);
    }
  }
}
